//! `evoboard nboard`: an Othello engine speaking the NBoard protocol (version 2) on
//! stdin/stdout, so that a champion or any agent can play inside the NBoard GUI.
//!
//! Understood: `nboard N` (answered with `set myname evoboard`), `set depth N`,
//! `set game GGF` (the `BO[…]` start position and the `B[…]`/`W[…]` moves), `move M`,
//! `go` (answered `status thinking`, `=== MOVE/EVAL/TIME`, then an empty `status`), `hint N` (answered with `search MOVE EVAL 0 DEPTH`
//! lines, best first), `ping N` (answered `pong N`), `learn` (answered `learned`). Other
//! commands are ignored, as the protocol asks. Every reply line is flushed at once.

use std::io::{BufRead, Write};
use std::time::Instant;

use clap::Args;

use crate::arena::{Agent, AgentSpec, SearchAgent};
use crate::cli::{LineRead, read_text_line};
use crate::games::othello::{Move, Othello};
use crate::games::{Game, Player};
use crate::rng::rng_for;
use crate::search::{WIN_VALUE, move_values};

#[derive(Debug, Args)]
pub struct NboardArgs {
    /// The engine: any agent spec, e.g. `champion:populations/othello/champion.evo`.
    #[arg(long, default_value = "heuristic:4")]
    player: String,
}

pub fn run(args: &NboardArgs) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    serve(&args.player, &mut stdin.lock(), &mut std::io::stdout())
}

/// The engine's state between commands.
struct Engine {
    game: Othello,
    searcher: Option<SearchAgent<Othello>>,
    rng: crate::rng::GameRng,
}

/// Answers NBoard commands from `input` on `out` until the input ends.
pub fn serve(spec: &str, input: &mut impl BufRead, out: &mut impl Write) -> anyhow::Result<()> {
    let start = Othello::start();
    let spec: AgentSpec = spec.parse()?;
    let mut engine = Engine {
        searcher: spec.searcher(&start)?,
        game: start,
        rng: rng_for(1, &[]),
    };
    let mut line = String::new();
    loop {
        match read_text_line(input, &mut line)? {
            LineRead::End => return Ok(()),
            LineRead::NotText => {
                reply(out, "status ignored a line that is not UTF-8 text")?;
                continue;
            }
            LineRead::Text => {}
        }
        let (command, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match command {
            "nboard" => reply(out, "set myname evoboard")?,
            "ping" => reply(out, &format!("pong {}", rest.trim()))?,
            "learn" => reply(out, "learned")?,
            "go" => {
                reply(out, "status thinking")?;
                let clock = Instant::now();
                let (mv, eval) = engine.choose();
                let seconds = clock.elapsed().as_secs_f64();
                reply(out, &format!("=== {}/{eval:.2}/{seconds:.2}", notation(mv)))?;
                reply(out, "status")?;
            }
            "hint" => {
                let wanted: usize = rest.trim().parse().unwrap_or(1);
                for (mv, eval, depth) in engine.hints(wanted) {
                    reply(out, &format!("search {} {eval:.2} 0 {depth}", notation(mv)))?;
                }
            }
            "move" => {
                let text = rest.split('/').next().unwrap_or_default();
                match engine
                    .game
                    .parse_move(text)
                    .and_then(|mv| engine.game.play(mv))
                {
                    Ok(next) => engine.game = next,
                    Err(error) => reply(out, &format!("status {error}"))?,
                }
            }
            "set" => {
                let (what, value) = rest.split_once(' ').unwrap_or((rest, ""));
                match what {
                    "depth" => {
                        if let (Some(searcher), Ok(depth)) =
                            (engine.searcher.as_mut(), value.trim().parse::<u32>())
                        {
                            searcher.depth = depth.clamp(1, crate::arena::spec::MAX_DEPTH);
                        }
                    }
                    "game" => match parse_ggf(value) {
                        Ok(game) => engine.game = game,
                        Err(reason) => {
                            reply(out, &format!("status cannot read the game: {reason}"))?
                        }
                    },
                    _ => {}
                }
            }
            _ => {}
        }
    }
}

fn reply(out: &mut impl Write, text: &str) -> std::io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// NBoard's move notation: upper-case squares, `PA` for a pass.
fn notation(mv: Move) -> String {
    match mv.square() {
        None => "PA".to_string(),
        Some(_) => mv.to_string().to_uppercase(),
    }
}

/// A search value as NBoard reads evaluations: a proven result as its final disc margin
/// (the search adds ±WIN_VALUE to it), a heuristic value as it is.
fn in_discs(value: f32) -> f32 {
    if value.abs() > WIN_VALUE / 2.0 {
        value - WIN_VALUE.copysign(value)
    } else {
        value
    }
}

impl Engine {
    /// The engine's move and its evaluation for the side to move (0 for non-searching agents).
    fn choose(&mut self) -> (Move, f32) {
        match &self.searcher {
            Some(searcher) => {
                let result = searcher.search(&self.game);
                (result.best.unwrap_or(Move::PASS), in_discs(result.value))
            }
            None => {
                let mut moves = crate::games::MoveList::new();
                self.game.legal_moves(&mut moves);
                if moves.is_empty() {
                    return (Move::PASS, 0.0);
                }
                (
                    crate::arena::RandomAgent.choose(&self.game, &mut self.rng),
                    0.0,
                )
            }
        }
    }

    /// Up to `wanted` moves with their values and the depth searched, best first.
    fn hints(&self, wanted: usize) -> Vec<(Move, f32, u32)> {
        let Some(searcher) = &self.searcher else {
            return Vec::new();
        };
        move_values(&self.game, searcher.depth, searcher.evaluator.as_ref())
            .into_iter()
            .take(wanted)
            .map(|(mv, value)| (mv, in_discs(value), searcher.depth))
            .collect()
    }
}

/// Reads a GGF game record: the `BO[8 <64 squares> <side>]` start position (`-` empty,
/// `*` black, `O` white; side `*` or `O`) and its `B[…]`/`W[…]` moves (`PA` = pass; an
/// evaluation or time after a `/` is ignored).
pub fn parse_ggf(text: &str) -> Result<Othello, String> {
    let mut game = None;
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let tag: String = rest[..open]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_uppercase())
            .collect::<String>()
            .chars()
            .rev()
            .collect();
        let close = rest[open..].find(']').ok_or("a tag is not closed")? + open;
        let value = &rest[open + 1..close];
        rest = &rest[close + 1..];
        match tag.as_str() {
            "BO" => game = Some(parse_board(value)?),
            "B" | "W" => {
                let current = game.as_mut().ok_or("a move comes before the BO[] board")?;
                let text = value.split('/').next().unwrap_or_default();
                let mv = current.parse_move(text).map_err(|e| e.to_string())?;
                *current = current.play(mv).map_err(|e| e.to_string())?;
            }
            _ => {}
        }
    }
    game.ok_or_else(|| "no BO[] board".to_string())
}

fn parse_board(value: &str) -> Result<Othello, String> {
    let fields: Vec<&str> = value.split_whitespace().collect();
    let [size, squares @ .., side] = fields.as_slice() else {
        return Err("BO[] needs a size, the squares and the side to move".into());
    };
    if *size != "8" {
        return Err(format!("board size {size} is not 8"));
    }
    let squares: String = squares.concat();
    let (mut black, mut white) = (0u64, 0u64);
    if squares.chars().count() != 64 {
        return Err(format!(
            "BO[] has {} squares, 64 expected",
            squares.chars().count()
        ));
    }
    for (i, c) in squares.chars().enumerate() {
        match c {
            '*' | 'X' | 'x' => black |= 1 << i,
            'O' | 'o' => white |= 1 << i,
            '-' | '.' => {}
            other => return Err(format!("unexpected square '{other}'")),
        }
    }
    let to_move = match *side {
        "*" | "X" | "B" => Player::First,
        "O" | "W" => Player::Second,
        other => return Err(format!("unexpected side to move '{other}'")),
    };
    Othello::from_discs(black, white, to_move).ok_or_else(|| "overlapping discs".into())
}
