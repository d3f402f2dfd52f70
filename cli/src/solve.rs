//! `evoboard solve`: exact values. A small Kalah board from its start, or an Othello
//! position with few empty squares (an endgame).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;

use crate::common::{MAX_THREADS, configure_threads};
use crate::endgame_ordering::{ORDER_BY_HELP, ordering_flag};
use crate::error::{BadInput, CliError, CliResult};
use evoboard::games::mancala::{Kalah, MAX_PITS, Pit};
use evoboard::games::othello::Othello;
use evoboard::games::{Game, Notation};
use evoboard::search::endgame::{
    EndgameError, EndgameOptions, EndgameProgress, MAX_EMPTIES, solve_endgame_within,
};
use evoboard::search::solve::{Progress, solve};

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// `kalah` (a whole game from its start: --pits, --seeds) or `othello` (an endgame:
    /// --position). Oware's repetition rule defeats the table.
    #[arg(long, value_parser = ["kalah", "othello"])]
    game: String,
    /// Kalah: pits per side (the solver takes 1 to 8).
    // Bounded by what a board holds; the solver refuses what it cannot solve itself.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=MAX_PITS as i64))]
    pits: Option<u8>,
    /// Kalah: seeds per pit (the board may hold at most 255).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=18))]
    seeds: Option<u8>,
    /// Kalah: capture even when the opposite pit is empty (Irving, Donkers & Uiterwijk 2000).
    #[arg(long)]
    empty_capture: bool,
    /// Kalah: memory for the endgame database and the transposition table, in MB (less
    /// only costs time; a board of few positions takes only what it needs).
    #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    table_mb: u64,
    /// Threads searching (0 = one per core); the value and the best move do not depend on
    /// them.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
    /// Othello: the position, 64 squares a1…h8 (`X`, `O`, `-`), a space and the side to
    /// move; at most 30 empty squares.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Othello: a file of positions, one a line in the --position notation (`#` lines and
    /// blank lines are skipped), each solved in turn, with the total nodes and time.
    #[arg(long, conflicts_with = "position")]
    positions: Option<PathBuf>,
    /// Othello: give up on a position after this many seconds, with the bounds proven so
    /// far (26–30 empties can take minutes; progress is shown on stderr meanwhile).
    #[arg(long, value_parser = crate::nboard::move_time)]
    time_limit: Option<f64>,
    #[arg(long, value_name = "EVALUATOR", help = ORDER_BY_HELP, long_help = None)]
    order_by: Option<String>,
}

pub fn run(args: &SolveArgs) -> CliResult {
    match args.game.as_str() {
        "othello" => solve_othello(args),
        _ => solve_kalah(args),
    }
}

fn solve_kalah(args: &SolveArgs) -> CliResult {
    let (Some(pits), Some(seeds), None, None, None, None) = (
        args.pits,
        args.seeds,
        &args.position,
        &args.positions,
        args.time_limit,
        &args.order_by,
    ) else {
        return Err(BadInput(
            "solve --game kalah needs --pits and --seeds, and takes no --position, --positions, --time-limit or --order-by"
                .into(),
        )
        .into());
    };
    configure_threads(usize::from(args.threads))?;
    let game = Kalah::game(usize::from(pits), seeds, args.empty_capture);
    let clock = Instant::now();
    let table_bytes = usize::try_from(args.table_mb * 1_000_000).unwrap_or(usize::MAX);
    let threads = rayon::current_num_threads();
    let solution = solve(&game, table_bytes, threads, |progress| {
        let seconds = clock.elapsed().as_secs_f64();
        match progress {
            Progress::Endgames { seeds, positions } => eprintln!(
                "endgame database: every position of up to {seeds} seeds ({positions} positions), {seconds:.1} s"
            ),
            Progress::Guess { margin } => {
                eprintln!("first guess: first player's margin {margin}, {seconds:.1} s")
            }
            Progress::Probe {
                lower,
                upper,
                nodes,
            } => eprintln!(
                "first player's margin in {lower}..={upper} after {nodes} nodes, {seconds:.1} s"
            ),
        }
    })?;
    let seconds = clock.elapsed().as_secs_f64();
    let verdict = match solution.first_player_margin {
        m if m > 0 => format!("first player wins by {m}"),
        m if m < 0 => format!("second player wins by {}", -m),
        _ => "draw".to_string(),
    };
    let best = solution
        .best_pit
        .map_or("none".to_string(), |pit| game.format_move(Pit(pit as u8)));
    println!(
        "kalah({pits},{seeds}){}: {verdict}, best first move {best} — {} nodes, {} table entries, {}, {seconds:.2} s",
        if args.empty_capture {
            " empty-capture"
        } else {
            ""
        },
        solution.nodes,
        solution.table_entries,
        threads_text(threads),
    );
    Ok(())
}

/// Most bytes `solve --positions` reads: far more than a test set of endgames needs.
const MAX_POSITIONS_BYTES: u64 = 1 << 20;

/// Most positions `solve --positions` takes.
const MAX_POSITIONS: usize = 1000;

fn solve_othello(args: &SolveArgs) -> CliResult {
    if args.pits.is_some() || args.seeds.is_some() || args.empty_capture {
        return Err(BadInput("--pits, --seeds and --empty-capture are for kalah".into()).into());
    }
    // Every position is read and checked before any is solved.
    let games = match (&args.position, &args.positions) {
        (Some(position), None) => vec![(None, Othello::from_position_string(position)?)],
        (None, Some(path)) => read_positions(path)?,
        _ => {
            return Err(BadInput(format!(
                "solve --game othello needs --position or --positions (at most {MAX_EMPTIES} empty squares each)"
            ))
            .into());
        }
    };
    let ordering = ordering_flag(args.order_by.as_deref())?;
    let defaults = EndgameOptions::default();
    let mut options = EndgameOptions {
        threads: match args.threads {
            0 => defaults.threads,
            threads => usize::from(threads),
        },
        deadline: None,
        ordering,
    };
    let (mut nodes, mut seconds, mut unsolved) = (0u64, 0f64, 0usize);
    for (line, game) in &games {
        let clock = Instant::now();
        options.deadline = args
            .time_limit
            .map(|seconds| clock + Duration::from_secs_f64(seconds));
        let at = line.map_or(String::new(), |line| format!("line {line}: "));
        match solve_one(game, &options, clock) {
            Ok(solved) => {
                println!("{at}{}", solved.summary);
                nodes += solved.nodes;
                seconds += solved.seconds;
            }
            // One position out of time does not stop a file's others; the command still
            // fails at the end, so that no total passes for a complete one.
            Err(error @ EndgameError::OutOfTime { nodes: spent, .. }) if line.is_some() => {
                println!("{at}{error}");
                nodes += spent;
                seconds += clock.elapsed().as_secs_f64();
                unsolved += 1;
            }
            Err(error) => return Err(error.into()),
        }
    }
    if args.positions.is_some() {
        println!(
            "{} positions: {nodes} nodes, {seconds:.2} s, {:.1} M nodes/s on {}",
            games.len(),
            nodes as f64 / seconds.max(1e-9) / 1e6,
            threads_text(options.threads),
        );
    }
    if unsolved > 0 {
        return Err(CliError::Failure(
            format!(
                "{unsolved} of {} positions had no exact value within the time limit",
                games.len()
            )
            .into(),
        ));
    }
    Ok(())
}

/// The positions of a `--positions` file with their line numbers, each checked: a
/// position the notation refuses, or one with too many empty squares, is an error naming
/// its line.
fn read_positions(path: &Path) -> CliResult<Vec<(Option<usize>, Othello)>> {
    let bytes = evoboard::persist::read_limited(path, MAX_POSITIONS_BYTES)
        .map_err(|error| BadInput(format!("cannot read {}: {error}", path.display())))?;
    let text = String::from_utf8(bytes)
        .map_err(|_| BadInput(format!("{} is not UTF-8 text", path.display())))?;
    let mut games = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("{} line {}", path.display(), index + 1);
        if games.len() == MAX_POSITIONS {
            return Err(BadInput(format!("{}: more than {MAX_POSITIONS} positions", at())).into());
        }
        let game = Othello::from_position_string(line)
            .map_err(|error| BadInput(format!("{}: {error}", at())))?;
        let empties = game.empties().count_ones();
        if empties > MAX_EMPTIES {
            return Err(BadInput(format!(
                "{}: {empties} empty squares (the solver takes at most {MAX_EMPTIES})",
                at()
            ))
            .into());
        }
        games.push((Some(index + 1), game));
    }
    if games.is_empty() {
        return Err(BadInput(format!("{} holds no position", path.display())).into());
    }
    Ok(games)
}

/// One solved position: its line of output, its nodes and its time.
struct Solved {
    summary: String,
    nodes: u64,
    seconds: f64,
}

fn solve_one(
    game: &Othello,
    options: &EndgameOptions,
    clock: Instant,
) -> Result<Solved, EndgameError> {
    let mut report = |progress: EndgameProgress| {
        // Solves of a second or less stay quiet.
        let seconds = clock.elapsed().as_secs_f64();
        let EndgameProgress {
            lower,
            upper,
            nodes,
        } = progress;
        if seconds >= 1.0 {
            eprintln!("value in {lower}..={upper} after {nodes} nodes, {seconds:.1} s");
        }
    };
    let solution = solve_endgame_within(game, options, &mut report)?;
    let seconds = clock.elapsed().as_secs_f64();
    let side = if game.to_move() == evoboard::games::Player::First {
        "X"
    } else {
        "O"
    };
    let best = solution
        .best
        .map_or("none (the game is over)".to_string(), |mv| {
            game.format_move(mv)
        });
    let summary = format!(
        "othello, {side} to move, {} empties: {:+} for {side} (final disc difference, empties to the winner), best move {best} — {} nodes, {seconds:.2} s on {}",
        game.empties().count_ones(),
        solution.margin,
        solution.nodes,
        threads_text(options.threads),
    );
    Ok(Solved {
        summary,
        nodes: solution.nodes,
        seconds,
    })
}

/// "1 thread", "2 threads": how many threads a solve ran on, for its line of output.
fn threads_text(threads: usize) -> String {
    format!("{threads} thread{}", if threads == 1 { "" } else { "s" })
}
