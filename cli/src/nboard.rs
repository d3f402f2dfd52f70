//! `evoboard nboard`: an Othello engine speaking the NBoard protocol (version 2) on
//! stdin/stdout, so that a champion or any agent can play inside the NBoard GUI.
//!
//! Understood: `nboard N` (answered with `set myname evoboard`), `set depth N`,
//! `set game GGF` (the `BO[…]` start position and the `B[…]`/`W[…]` moves), `move M`,
//! `go` (answered `status thinking`, `=== MOVE/EVAL/TIME`, then an empty `status`), `hint N` (answered with `search MOVE EVAL 0 DEPTH`
//! lines, best first), `ping N` (answered `pong N`), `learn` (answered `learned`). Other
//! commands are ignored, as the protocol asks. Every reply line is flushed at once.
//!
//! `go` and `hint` search by iterative deepening, as deep as `set depth` says but never
//! longer than `--move-time`: the deepest search finished in time gives the answer. A
//! player on a game clock (`~SECONDS/game`) spends it over the game's `go`s (the clock
//! starts again at each `set game`), switching to the endgame solvers once they can finish
//! in time, `--move-time` still bounding each move; its hints take a typical move's time
//! ([`evoboard::arena::clocked`]). Input
//! is read on a thread of its own, so a `ping` that arrives during a search stops it (the
//! GUI has moved on; the unfinished move is not sent) and is answered at once.
//!
//! Input is bounded: a line longer than [`MAX_LINE_BYTES`] is skipped (answered with a
//! `status` line), and at most [`MAX_WAITING`] lines wait to be answered. Beyond that the
//! engine stops reading until it has caught up, so a client that sends faster than the
//! engine answers is slowed down by its own pipe; no line is dropped.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use clap::Args;

use crate::common::{LineRead, MAX_LINE_BYTES, read_text_line};
use crate::error::CliResult;
use evoboard::arena::{AgentSpec, ClockedAgent, SearchAgent};
use evoboard::games::othello::{Move, Othello, parse_ggf};
use evoboard::games::{Game, Notation};
use evoboard::rng::rng_for;
use evoboard::search::{Limits, WIN_VALUE};
use rand::RngExt;

#[derive(Debug, Args)]
pub struct NboardArgs {
    /// The engine: any agent spec, e.g. `champion:populations/othello/champion.evo`; with
    /// `~SECONDS/game` it plays on a game clock, restarted at each `set game`.
    #[arg(long, default_value = "heuristic:4")]
    player: String,
    /// Longest think per `go` or `hint`, in seconds, whatever depth is set.
    #[arg(long, default_value_t = 5.0, value_parser = move_time)]
    move_time: f64,
}

/// A think time in seconds: positive and at most a day ([`evoboard::search::time_limit`]).
pub(crate) fn move_time(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if evoboard::search::time_limit(seconds).is_ok() => Ok(seconds),
        _ => Err(format!(
            "'{text}' is not a number of seconds in (0, {}]",
            evoboard::search::MAX_SECONDS
        )),
    }
}

pub fn run(args: &NboardArgs) -> CliResult {
    let input = std::io::BufReader::new(std::io::stdin());
    let move_time = Duration::from_secs_f64(args.move_time);
    serve(&args.player, move_time, input, &mut std::io::stdout())
}

/// Most lines read ahead during a search and not answered yet.
pub const MAX_WAITING: usize = 256;

/// Lines the reader thread may hand over before the engine takes them.
const READ_AHEAD: usize = 16;

/// What the reader thread hands over: a line, a line that is not text or is too long,
/// or the end.
enum Input {
    Line(String),
    NotText,
    TooLong,
    End(std::io::Result<()>),
}

/// Reads `input` on a thread of its own, line by line, until it ends; it waits while
/// [`READ_AHEAD`] lines are not yet taken.
fn spawn_reader(mut input: impl BufRead + Send + 'static) -> Receiver<Input> {
    let (sender, receiver) = sync_channel(READ_AHEAD);
    std::thread::spawn(move || {
        let mut line = String::new();
        loop {
            let next = match read_text_line(&mut input, &mut line) {
                Ok(LineRead::Text) => Input::Line(line.clone()),
                Ok(LineRead::NotText) => Input::NotText,
                Ok(LineRead::TooLong) => Input::TooLong,
                Ok(LineRead::End) => Input::End(Ok(())),
                Err(error) => Input::End(Err(error)),
            };
            let last = matches!(next, Input::End(_));
            if sender.send(next).is_err() || last {
                return;
            }
        }
    });
    receiver
}

/// The engine's state between commands.
struct Engine {
    game: Othello,
    searcher: Option<SearchAgent<Othello>>,
    /// The player on its game clock, if the spec gives it one.
    clocked: Option<ClockedAgent>,
    /// Its thinking so far in this game.
    spent: Duration,
    rng: evoboard::rng::GameRng,
    /// Longest think per search.
    move_time: Duration,
}

/// Answers NBoard commands from `input` on `out` until the input ends; searches think
/// at most `move_time`.
pub fn serve(
    spec: &str,
    move_time: Duration,
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
) -> CliResult {
    let start = Othello::start();
    let spec: AgentSpec = spec.parse()?;
    let searcher = spec.searcher(&start)?;
    let clocked = match spec.game_time {
        Some(_) => Some(spec.clocked(&|path| spec.load_champion(path, &start))?),
        None => None,
    };
    // A time limit a move in the spec itself holds too: the shorter one wins.
    let move_time = spec
        .move_time
        .map_or(move_time, |own| move_time.min(Duration::from_secs_f64(own)));
    let mut engine = Engine {
        searcher,
        clocked,
        spent: Duration::ZERO,
        game: start,
        rng: rng_for(1, &[]),
        move_time,
    };
    let lines = spawn_reader(input);
    // Lines that arrived during a search, answered after it.
    let mut waiting: VecDeque<Input> = VecDeque::new();
    loop {
        let next = match waiting.pop_front() {
            Some(next) => next,
            None => lines.recv().unwrap_or(Input::End(Ok(()))),
        };
        let line = match next {
            Input::End(result) => return Ok(result?),
            Input::NotText => {
                reply(out, "status ignored a line that is not UTF-8 text")?;
                continue;
            }
            Input::TooLong => {
                let limit = format!("status ignored a line longer than {MAX_LINE_BYTES} bytes");
                reply(out, &limit)?;
                continue;
            }
            Input::Line(line) => line,
        };
        let (command, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match command {
            "nboard" => reply(out, "set myname evoboard")?,
            "ping" => reply(out, &format!("pong {}", rest.trim()))?,
            "learn" => reply(out, "learned")?,
            // A search that a `ping` already waiting behind it has cancelled is not started.
            "go" if ping_waiting(&waiting) => reply(out, "status")?,
            "hint" if ping_waiting(&waiting) => {}
            "go" => {
                reply(out, "status thinking")?;
                let clock = Instant::now();
                let move_time = engine.move_time;
                let chosen = while_reading(&lines, &mut waiting, move_time, |limits| {
                    engine.choose(limits)
                });
                engine.spent += clock.elapsed();
                if let Some((mv, eval)) = chosen {
                    let seconds = clock.elapsed().as_secs_f64();
                    reply(out, &format!("=== {}/{eval:.2}/{seconds:.2}", notation(mv)))?;
                }
                reply(out, "status")?;
            }
            "hint" => {
                let wanted: usize = rest.trim().parse().unwrap_or(1);
                let move_time = engine.move_time;
                let hints = while_reading(&lines, &mut waiting, move_time, |limits| {
                    engine.hints(limits)
                });
                for (mv, eval, depth) in hints.into_iter().flatten().take(wanted) {
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
                            searcher.depth = depth.clamp(1, evoboard::search::MAX_DEPTH);
                        }
                    }
                    "game" => match parse_ggf(value) {
                        Ok(game) => {
                            engine.game = game;
                            engine.spent = Duration::ZERO;
                        }
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

/// Whether `line` is a `ping`, which stops searches.
fn is_ping(line: &str) -> bool {
    line.trim_start().starts_with("ping")
}

/// Whether a `ping` is among the lines read ahead.
fn ping_waiting(waiting: &VecDeque<Input>) -> bool {
    waiting
        .iter()
        .any(|input| matches!(input, Input::Line(line) if is_ping(line)))
}

/// Runs `think` on a thread of its own, with limits it must keep to, while reading `lines`:
/// a `ping` stops it (`None`: the GUI no longer wants the answer); every line read is kept
/// in `waiting`, to be answered after. Once [`MAX_WAITING`] lines wait, no more are read
/// until the search ends.
fn while_reading<T: Send>(
    lines: &Receiver<Input>,
    waiting: &mut VecDeque<Input>,
    move_time: Duration,
    think: impl FnOnce(Limits<'_>) -> T + Send,
) -> Option<T> {
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let thinker = scope.spawn(|| {
            think(Limits {
                deadline: Instant::now() + move_time,
                stop: &stop,
            })
        });
        while !thinker.is_finished() {
            if waiting.len() >= MAX_WAITING {
                std::thread::sleep(Duration::from_millis(2));
                continue;
            }
            match lines.recv_timeout(Duration::from_millis(2)) {
                Ok(input) => {
                    if matches!(&input, Input::Line(line) if is_ping(line)) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    waiting.push_back(input);
                }
                Err(RecvTimeoutError::Timeout) => {}
                // The input has ended: the search finishes on its own.
                Err(RecvTimeoutError::Disconnected) => std::thread::sleep(Duration::from_millis(2)),
            }
        }
        let result = thinker.join().expect("the search thread does not panic");
        (!stop.load(Ordering::Relaxed)).then_some(result)
    })
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
    /// The engine's move and its evaluation for the side to move (0 for non-searching
    /// agents), from the deepest search finished within `limits`.
    fn choose(&mut self, limits: Limits<'_>) -> (Move, f32) {
        match (&self.clocked, &self.searcher) {
            (Some(clocked), _) if !self.game.is_over() => {
                let decision = clocked.decide(&self.game, Some(self.spent), Some(limits));
                (decision.mv, in_discs(decision.value))
            }
            (_, Some(searcher)) => {
                let (result, _) = searcher.search_within(&self.game, limits);
                (result.best.unwrap_or(Move::PASS), in_discs(result.value))
            }
            _ => {
                let mut moves = evoboard::games::MoveList::new();
                self.game.legal_moves(&mut moves);
                if moves.is_empty() {
                    return (Move::PASS, 0.0);
                }
                // Uniformly random, as `random` plays.
                (moves[self.rng.random_range(0..moves.len())], 0.0)
            }
        }
    }

    /// Every move with its value and the depth searched, best first: the deepest values
    /// finished within `limits` (depth 1 always is).
    fn hints(&self, limits: Limits<'_>) -> Vec<(Move, f32, u32)> {
        let Some(searcher) = &self.searcher else {
            return Vec::new();
        };
        let (values, depth) = searcher.move_values(&self.game, Some(limits));
        values
            .into_iter()
            .map(|(mv, value)| (mv, in_discs(value), depth))
            .collect()
    }
}
