//! `evoboard play`: people against engines (or each other) in the terminal, with hints
//! (every legal move with its search value — the Ayo thesis's per-pit "payoff"), undo, and a move
//! record that `show --moves` replays.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use crate::common::{
    LineRead, MAX_LINE_BYTES, check_output_path, position_or_start, read_text_line, write_output,
};
use crate::error::{BadInput, CliError, CliResult};
use evoboard::arena::spec::AgentKind;
use evoboard::arena::{Agent, AgentSpec, History, SearchAgent};
use evoboard::eval::NamedEvaluators;
use evoboard::games::joint::{gather_move, is_joint, parse_part};
use evoboard::games::{Describe, Game, GameError, Player};
use evoboard::rng::rng_for;
use evoboard::search::WIN_VALUE;
use evoboard::session::{Session, announce, hints, legal_parts};

/// Play in the terminal: people against engines or each other, with hints and undo.
#[derive(Debug, Args)]
pub struct PlayArgs {
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
    /// The engine whose search values `hint` shows: any searching spec (a difficulty,
    /// `heuristic:D`, `minimax:D:EVAL`, `champion:PATH[:D]`, …).
    #[arg(long, default_value = "heuristic:4")]
    hint_engine: String,
    /// Start from this position instead of the initial one.
    #[arg(long, allow_hyphen_values = true)]
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

/// Plays one game in the terminal: people type on stdin, everything is written to stdout.
pub fn run<G: NamedEvaluators>(start: G, args: &PlayArgs) -> CliResult {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout();
    play(start, args, &mut input, &mut output)
}

const HELP: &str = "commands: a move in the game's notation, `hint` (every legal move with its \
value, best first), `undo` (back to your previous turn), `board`, `help`, `quit`";

fn seat<G: NamedEvaluators>(spec: &str, start: &G) -> CliResult<Seat<G>> {
    if spec == "human" {
        return Ok(Seat::Human);
    }
    let spec: AgentSpec = spec.parse()?;
    if let AgentKind::Engine { .. } = spec.kind {
        // A game here can neither record a forfeit nor give a GTP engine the game so far.
        return Err(BadInput(format!(
            "'{spec}': external engines play in benchmark, panel and tournament, not here"
        ))
        .into());
    }
    Ok(Seat::Engine(spec.build(start)?))
}

/// Why a seat made no move: its player takes back to their previous turn, the game is
/// abandoned, or the terminal failed.
enum Stop {
    Undo(Player),
    Quit,
    /// An engine gave up the game (an external engine that failed): why.
    Forfeit(Player, String),
    Failed(std::io::Error),
}

impl From<std::io::Error> for Stop {
    fn from(error: std::io::Error) -> Stop {
        Stop::Failed(error)
    }
}

/// The engines and what the people at the board share while a game is played.
struct Terminal<'a, G: Game, I, O> {
    args: &'a PlayArgs,
    hint_engine: &'a SearchAgent<G>,
    rng: evoboard::rng::GameRng,
    input: &'a mut I,
    out: &'a mut O,
}

impl<G: NamedEvaluators, I: BufRead, O: Write> Terminal<'_, G, I, O> {
    /// Asks `seat` for `player`'s move in `view` (at a simultaneous decision, the position
    /// as `player` chooses in it: a person then types only their own part, unseen by the
    /// other side). A person's `help`, `board`, `hint` and bad moves are handled here.
    fn choose(
        &mut self,
        seat: &Seat<G>,
        view: &G,
        history: History<'_, G>,
        player: Player,
    ) -> Result<G::Move, Stop> {
        let name = view.player_name(player);
        let human = match seat {
            Seat::Engine(agent) => {
                let mv = agent
                    .choose(view, history, &mut self.rng)
                    .map_err(|forfeit| Stop::Forfeit(player, forfeit.reason))?;
                if is_joint(view) {
                    writeln!(self.out, "{name} has chosen (hidden until both have)")?;
                }
                return Ok(mv);
            }
            Seat::Human => view,
        };
        // `--hints`: the table once for this turn; `hint` asks for it again.
        if self.args.hints {
            self.hint(human, player)?;
        }
        loop {
            if is_joint(human) {
                write!(
                    self.out,
                    "{name}, choose your hole (the other side cannot see it)> "
                )?;
            } else {
                write!(self.out, "{name} to move> ")?;
            }
            self.out.flush()?;
            let mut line = String::new();
            match read_text_line(&mut self.input, &mut line)? {
                LineRead::End => {
                    writeln!(self.out, "\nend of input: game abandoned")?;
                    return Err(Stop::Quit);
                }
                LineRead::NotText => {
                    writeln!(
                        self.out,
                        "that line is not text (UTF-8): type a move, or help"
                    )?;
                    continue;
                }
                LineRead::TooLong => {
                    writeln!(
                        self.out,
                        "that line is longer than {MAX_LINE_BYTES} bytes: type a move, or help"
                    )?;
                    continue;
                }
                LineRead::Text => {}
            }
            match line.trim() {
                "quit" => {
                    writeln!(self.out, "game abandoned")?;
                    return Err(Stop::Quit);
                }
                "help" => writeln!(self.out, "{HELP}")?,
                "board" => show(human, self.out)?,
                "hint" => self.hint(human, player)?,
                "undo" => return Err(Stop::Undo(player)),
                text => match parse_part(human, text, player)
                    .and_then(|mv| human.play(mv).map(|_| mv))
                {
                    Ok(mv) => return Ok(mv),
                    Err(GameError::IllegalMove { .. }) => writeln!(
                        self.out,
                        "'{text}' is not legal here; legal: {}",
                        legal_parts(human, player).join(" ")
                    )?,
                    Err(error) => writeln!(self.out, "{error}; type `help` for the commands")?,
                },
            }
        }
    }

    /// Prints `player`'s hint table once: a header saying what the values are, then every
    /// choice with its value, best first.
    fn hint(&mut self, game: &G, player: Player) -> std::io::Result<()> {
        let values = hints(self.hint_engine, game, player, None);
        let exact = values
            .iter()
            .any(|&(_, value)| exact_margin(value).is_some());
        let table: Vec<String> = values
            .iter()
            .map(|(part, value)| match exact_margin(*value) {
                Some(margin) if margin >= 0 => format!("{part} wins by {margin}"),
                Some(margin) => format!("{part} loses by {}", -margin),
                None => format!("{part} {value:+.2}"),
            })
            .collect();
        let engine = &self.hint_engine.label;
        let name = game.player_name(player);
        let sure = if exact {
            format!(
                "; \"wins by N\" and \"loses by N\" are sure results, by N {} at the end",
                margin_unit(game.name())
            )
        } else {
            String::new()
        };
        writeln!(
            self.out,
            "hint for {name} ({engine}, best first; value: {engine}'s evaluation for {name}, \
             higher is better{sure}):"
        )?;
        writeln!(self.out, "  {}", table.join(" | "))
    }
}

/// The final score margin of a hint value that is an exact result (the search saw the
/// game's end: ±[`WIN_VALUE`] plus the margin), `None` for an evaluation.
fn exact_margin(value: f32) -> Option<i64> {
    (value.abs() >= WIN_VALUE / 2.0).then(|| (value - value.signum() * WIN_VALUE).round() as i64)
}

/// What a game's score counts, for the margins of exact hints.
fn margin_unit(game: &str) -> &'static str {
    match game {
        "othello" => "discs",
        "kalah" | "oware" | "congklak" | "congkak" => "seeds",
        _ => "points",
    }
}

/// Plays one game, reading people's input from `input` and writing everything to `out`.
pub fn play<G: NamedEvaluators>(
    start: G,
    args: &PlayArgs,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> CliResult {
    let start = position_or_start(start, args.position.as_deref())?;
    if start.outcome().is_some() {
        return Err(BadInput("the game is already over in that position".into()).into());
    }
    if let Some(path) = &args.record {
        check_output_path(path, "the record")?;
    }
    let seats = [seat(&args.first, &start)?, seat(&args.second, &start)?];
    let hint_engine = args
        .hint_engine
        .parse::<AgentSpec>()?
        .searcher(&start)?
        .ok_or_else(|| BadInput("--hint-engine must be an engine that searches".into()))?;
    let mut session = Terminal {
        args,
        hint_engine: &hint_engine,
        rng: rng_for(args.seed, &[]),
        input,
        out,
    };
    introduce(&start, [&args.first, &args.second], session.out)?;
    let mut game = Session::new(start);
    show(game.game(), session.out)?;
    'game: while game.game().outcome().is_none() {
        // Everyone who chooses now: one player, or both at a simultaneous decision.
        let history = game.history();
        let chosen = gather_move(game.game(), |view, player| {
            session.choose(&seats[player.index()], view, history, player)
        });
        let mv = match chosen {
            Ok(mv) => mv,
            Err(Stop::Quit) => return Ok(()),
            Err(Stop::Failed(error)) => return Err(error.into()),
            Err(Stop::Forfeit(player, reason)) => {
                let name = game.game().player_name(player);
                writeln!(session.out, "game over: {name} forfeits ({reason})")?;
                return Err(CliError::Failure(
                    format!("{name} forfeited the game: {reason}").into(),
                ));
            }
            Err(Stop::Undo(player)) => {
                let name = game.game().player_name(player);
                if game.undo(player) {
                    writeln!(session.out, "taken back to {name}'s previous turn")?;
                    show(game.game(), session.out)?;
                } else {
                    writeln!(session.out, "nothing to undo")?;
                }
                continue 'game;
            }
        };
        game.play(mv);
        let previous = game.previous().expect("a move was just played");
        writeln!(session.out, "{}", announce(previous, game.game(), mv))?;
        show(game.game(), session.out)?;
    }
    let out = session.out;
    let result = game.result().expect("the loop ends when the game is over");
    writeln!(out, "game over: {result}")?;
    writeln!(out, "moves: {}", game.move_texts().join(","))?;
    if let Some(path) = &args.record {
        let record = game.record().expect("the game is over");
        write_output(path, record.as_bytes())?;
        writeln!(out, "record saved to {}", path.display())?;
    }
    Ok(())
}

/// Says who plays which side and, when a person plays, which commands they have.
fn introduce<G: Describe>(
    start: &G,
    specs: [&String; 2],
    out: &mut impl Write,
) -> std::io::Result<()> {
    let mut seats = Vec::new();
    for (player, spec) in [Player::First, Player::Second].into_iter().zip(specs) {
        let who = if spec == "human" { "human" } else { spec };
        seats.push(format!("{}: {who}", start.player_name(player)));
    }
    let first = start.player_name(start.to_move());
    writeln!(out, "{}; {first} moves first", seats.join(", "))?;
    if specs.iter().any(|spec| *spec == "human") {
        writeln!(out, "{HELP}")?;
    }
    Ok(())
}

fn show<G: Describe>(game: &G, out: &mut impl Write) -> std::io::Result<()> {
    let colour = use_colour();
    for line in game.board_lines() {
        if colour {
            writeln!(out, "{}", paint(&line))?;
        } else {
            writeln!(out, "{line}")?;
        }
    }
    Ok(())
}

/// Colour only for a person at a terminal who has not asked for none (no-color.org).
fn use_colour() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The board line with its pieces in colour: Othello's black `X` bold yellow and white `O`
/// bold white, legal-move marks `*` green, Congkak's burnt holes `x` red.
fn paint(line: &str) -> String {
    let mut painted = String::with_capacity(line.len() * 2);
    for c in line.chars() {
        let code = match c {
            'X' => Some("1;33"),
            'O' => Some("1;97"),
            '*' => Some("32"),
            'x' => Some("31"),
            _ => None,
        };
        match code {
            Some(code) => painted.push_str(&format!("\x1b[{code}m{c}\x1b[0m")),
            None => painted.push(c),
        }
    }
    painted
}

#[cfg(test)]
mod tests {
    use super::paint;

    #[test]
    fn paint_colours_pieces_marks_and_burnt_holes_only() {
        assert_eq!(
            paint("4 . . * O X"),
            "4 . . \x1b[32m*\x1b[0m \x1b[1;97mO\x1b[0m \x1b[1;33mX\x1b[0m"
        );
        assert_eq!(paint("  7  x"), "  7  \x1b[31mx\x1b[0m");
        assert_eq!(paint("South  1  2"), "South  1  2");
    }
}
