//! `evoboard solve`: the exact value of a small Kalah board.

use std::time::Instant;

use clap::Args;

use crate::cli::CliResult;
use crate::games::mancala::{Kalah, MAX_PITS};
use crate::search::solve::solve;

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Only Kalah can be solved (Oware's repetition rule defeats the table).
    #[arg(long, value_parser = ["kalah"])]
    game: String,
    /// Pits per side (the solver takes 1 to 7).
    // Bounded by what a board holds; the solver refuses what it cannot solve itself.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=MAX_PITS as i64))]
    pits: u8,
    /// Seeds per pit (the board may hold at most 255).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=18))]
    seeds: u8,
    /// Capture even when the opposite pit is empty (Irving, Donkers & Uiterwijk 2000).
    #[arg(long)]
    empty_capture: bool,
    /// Most positions kept in the transposition table (about 100 bytes each): the default
    /// takes about 12 GB at most; lower it on a machine with less memory.
    #[arg(long, default_value_t = 120_000_000)]
    max_entries: usize,
}

pub fn run(args: &SolveArgs) -> CliResult {
    let game = Kalah::game(usize::from(args.pits), args.seeds, args.empty_capture);
    let clock = Instant::now();
    let solution = solve(&game, args.max_entries)?;
    let seconds = clock.elapsed().as_secs_f64();
    let verdict = match solution.first_player_margin {
        m if m > 0 => format!("first player wins by {m}"),
        m if m < 0 => format!("second player wins by {}", -m),
        _ => "draw".to_string(),
    };
    println!(
        "kalah({},{}){}: {verdict} — {} nodes, {} table entries, {seconds:.2} s",
        args.pits,
        args.seeds,
        if args.empty_capture {
            " empty-capture"
        } else {
            ""
        },
        solution.nodes,
        solution.table_entries
    );
    Ok(())
}
