//! `evoboard solve`: exact values. A small Kalah board from its start, or an Othello
//! position with few empty squares (an endgame).

use std::time::{Duration, Instant};

use clap::Args;

use crate::common::{MAX_THREADS, configure_threads};
use crate::endgame_ordering::{ORDER_BY_HELP, ordering_flag};
use crate::error::{BadInput, CliResult};
use evoboard::games::mancala::{Kalah, MAX_PITS, Pit};
use evoboard::games::othello::Othello;
use evoboard::games::{Game, Notation};
use evoboard::search::endgame::{
    EndgameOptions, EndgameProgress, MAX_EMPTIES, solve_endgame_within,
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
    /// Othello: give up after this many seconds, with the bounds proven so far (26–30
    /// empties can take minutes; progress is shown on stderr meanwhile).
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
    let (Some(pits), Some(seeds), None, None, None) = (
        args.pits,
        args.seeds,
        &args.position,
        args.time_limit,
        &args.order_by,
    ) else {
        return Err(BadInput(
            "solve --game kalah needs --pits and --seeds, and takes no --position, --time-limit or --order-by"
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
        "kalah({pits},{seeds}){}: {verdict}, best first move {best} — {} nodes, {} table entries, {threads} thread{}, {seconds:.2} s",
        if args.empty_capture {
            " empty-capture"
        } else {
            ""
        },
        solution.nodes,
        solution.table_entries,
        if threads == 1 { "" } else { "s" },
    );
    Ok(())
}

fn solve_othello(args: &SolveArgs) -> CliResult {
    let Some(position) = args.position.as_deref() else {
        return Err(BadInput(format!(
            "solve --game othello needs --position (at most {MAX_EMPTIES} empty squares)"
        ))
        .into());
    };
    if args.pits.is_some() || args.seeds.is_some() || args.empty_capture {
        return Err(BadInput("--pits, --seeds and --empty-capture are for kalah".into()).into());
    }
    let game = Othello::from_position_string(position)?;
    let ordering = ordering_flag(args.order_by.as_deref())?;
    let clock = Instant::now();
    let defaults = EndgameOptions::default();
    let options = EndgameOptions {
        threads: match args.threads {
            0 => defaults.threads,
            threads => usize::from(threads),
        },
        deadline: args
            .time_limit
            .map(|seconds| clock + Duration::from_secs_f64(seconds)),
        ordering,
    };
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
    let solution = solve_endgame_within(&game, &options, &mut report)?;
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
    println!(
        "othello, {side} to move, {} empties: {:+} for {side} (final disc difference, empties to the winner), best move {best} — {} nodes, {seconds:.2} s on {} thread{}",
        game.empties().count_ones(),
        solution.margin,
        solution.nodes,
        options.threads,
        if options.threads == 1 { "" } else { "s" },
    );
    Ok(())
}
