//! `evoboard play`: people against engines (or each other) in the terminal, with hints
//! (every legal move with its search value — seed 003's per-pit "payoff"), undo, and a move
//! record that `show --moves` replays.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use crate::arena::{Agent, AgentSpec};
use crate::cli::{BadInput, GameName, position_or_start, with_game};
use crate::eval::NamedEvaluators;
use crate::games::{Game, Outcome, Player};
use crate::persist::write_atomic;
use crate::rng::rng_for;
use crate::search::move_values;

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Game to play.
    #[arg(long)]
    game: GameName,
    /// Who moves first: `human`, a difficulty (`random`, `normal`, `expert`, `impossible`)
    /// or any agent spec (e.g. `champion:populations/othello/champion.evo`).
    #[arg(long)]
    first: String,
    /// Who moves second (same choices).
    #[arg(long)]
    second: String,
    /// Show the hint table before every human move.
    #[arg(long)]
    hints: bool,
    /// Search depth of the hint engine (the game's heuristic).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=12))]
    hint_depth: u32,
    /// Start from this position instead of the initial one.
    #[arg(long)]
    position: Option<String>,
    /// Seed of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Save the finished game here (game, start position, moves, result).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
}

/// Who sits on one side.
enum Seat<G: Game> {
    Human,
    Engine(Box<dyn Agent<G>>),
}

pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    with_game!(args.game, |start| {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut output = std::io::stdout();
        play(start, args, &mut input, &mut output)
    })
}

const HELP: &str = "commands: a move in the game's notation, `hint` (every legal move with its \
value, best first), `undo` (back to your previous turn), `board`, `help`, `quit`";

fn seat<G: NamedEvaluators>(spec: &str, start: &G) -> anyhow::Result<Seat<G>> {
    if spec == "human" {
        return Ok(Seat::Human);
    }
    Ok(Seat::Engine(spec.parse::<AgentSpec>()?.build(start)?))
}

/// Plays one game, reading people's input from `input` and writing everything to `out`.
pub fn play<G: NamedEvaluators>(
    start: G,
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let start = position_or_start(start, args.position.as_deref())?;
    if start.outcome().is_some() {
        return Err(BadInput("the game is already over in that position".into()).into());
    }
    let seats = [seat(&args.first, &start)?, seat(&args.second, &start)?];
    let hint_engine = G::evaluator("heuristic")?;
    let mut rng = rng_for(args.seed, &[]);
    let mut game = start.clone();
    // Positions before each move, for undo.
    let mut before: Vec<G> = Vec::new();
    let mut moves: Vec<G::Move> = Vec::new();
    show(&game, out)?;
    while game.outcome().is_none() {
        let side = game.to_move();
        let name = game.player_name(side);
        let mv = match &seats[side.index()] {
            Seat::Engine(agent) => agent.choose(&game, &mut rng),
            Seat::Human => {
                if args.hints {
                    hint(&game, args.hint_depth, hint_engine.as_ref(), out)?;
                }
                write!(out, "{name} to move> ")?;
                out.flush()?;
                let mut line = String::new();
                if input.read_line(&mut line)? == 0 {
                    writeln!(out, "\nend of input: game abandoned")?;
                    return Ok(());
                }
                match line.trim() {
                    "quit" => {
                        writeln!(out, "game abandoned")?;
                        return Ok(());
                    }
                    "help" => {
                        writeln!(out, "{HELP}")?;
                        continue;
                    }
                    "board" => {
                        show(&game, out)?;
                        continue;
                    }
                    "hint" => {
                        hint(&game, args.hint_depth, hint_engine.as_ref(), out)?;
                        continue;
                    }
                    "undo" => {
                        match undo(&mut before, &mut moves, side) {
                            Some(position) => {
                                game = position;
                                writeln!(out, "taken back to {name}'s previous turn")?;
                                show(&game, out)?;
                            }
                            None => writeln!(out, "nothing to undo")?,
                        }
                        continue;
                    }
                    text => match game
                        .parse_move(text)
                        .and_then(|mv| game.play(mv).map(|_| mv))
                    {
                        Ok(mv) => mv,
                        Err(error) => {
                            writeln!(out, "{error}; type `help` for the commands")?;
                            continue;
                        }
                    },
                }
            }
        };
        before.push(game.clone());
        moves.push(mv);
        let previous = game.clone();
        game.play_unchecked(mv);
        writeln!(
            out,
            "{name} plays {}{}",
            game.format_move(mv),
            effect(&previous, &game)
        )?;
        show(&game, out)?;
    }
    let outcome = game.outcome().expect("the loop ends when the game is over");
    let [a, b] = game.score();
    let result = match outcome {
        Outcome::Win(p) => format!("{} wins {a}–{b}", game.player_name(p)),
        Outcome::Draw => format!("draw {a}–{b}"),
    };
    let record: Vec<String> = moves.iter().map(|&m| start.format_move(m)).collect();
    writeln!(out, "game over: {result}")?;
    writeln!(out, "moves: {}", record.join(","))?;
    if let Some(path) = &args.record {
        let text = format!(
            "game: {}\nstart: {}\nmoves: {}\nresult: {result}\n",
            start.name(),
            start.to_position_string(),
            record.join(",")
        );
        write_atomic(path, text.as_bytes())?;
        writeln!(out, "record saved to {}", path.display())?;
    }
    Ok(())
}

/// What a move did, beyond moving: captures, score changes, extra turns.
fn effect<G: Game>(previous: &G, now: &G) -> String {
    let mover = previous.to_move();
    let mut notes = Vec::new();
    if now.last_move_captured() {
        notes.push("captures".to_string());
    }
    let (old, new) = (previous.score(), now.score());
    let opponent = mover.opponent().index();
    if new[opponent] < old[opponent] {
        // Only Othello takes points away: the discs that changed colour.
        notes.push(format!("flips {}", old[opponent] - new[opponent]));
    }
    if old != new {
        notes.push(format!("score {}–{}", new[0], new[1]));
    }
    if now.to_move() == mover && now.outcome().is_none() {
        notes.push("and moves again".to_string());
    }
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join(", "))
    }
}

/// Back to the position before `side`'s last move, if it made one.
fn undo<G: Game>(before: &mut Vec<G>, moves: &mut Vec<G::Move>, side: Player) -> Option<G> {
    let index = before.iter().rposition(|g| g.to_move() == side)?;
    moves.truncate(index);
    let position = before[index].clone();
    before.truncate(index);
    Some(position)
}

fn hint<G: NamedEvaluators>(
    game: &G,
    depth: u32,
    evaluator: &dyn crate::eval::Evaluator<G>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let values = move_values(game, depth, evaluator);
    let table: Vec<String> = values
        .iter()
        .map(|(mv, value)| format!("{} {value:+.2}", game.format_move(*mv)))
        .collect();
    writeln!(
        out,
        "hint (depth {depth}, best first): {}",
        table.join(" | ")
    )
}

fn show<G: Game>(game: &G, out: &mut impl Write) -> std::io::Result<()> {
    for line in game.board_lines() {
        writeln!(out, "{line}")?;
    }
    Ok(())
}
