//! `evoboard gifford`: Gifford et al.'s (2008) experiment (`experiments::gifford`) as a
//! ranked table, and optionally as CSV.

use std::path::PathBuf;

use clap::Args;
use indicatif::ProgressBar;

use crate::common::{MAX_GAMES, MAX_THREADS, check_output_path, configure_threads, write_output};
use crate::error::{BadInput, CliResult};
use evoboard::arena::spec::UNTIMED_DEPTH;
use evoboard::experiments::gifford::{GiffordConfig, PLAYERS, rank_players, ranking_csv, spec_for};

#[derive(Debug, Args)]
pub struct GiffordArgs {
    /// Look-ahead (search depth) of every heuristic player.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Games going first and, again, going second for each player (Gifford et al.: 100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES))]
    games: u32,
    /// Seed of the openings and of the players' random choices (each combination of
    /// heuristics derives its own).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
    /// Also write the ranked table, with every statistic of Gifford et al., here as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

pub fn run(args: &GiffordArgs) -> CliResult {
    if !(1..=UNTIMED_DEPTH).contains(&args.depth) {
        return Err(BadInput(format!("--depth must be 1 to {UNTIMED_DEPTH}")).into());
    }
    if let Some(path) = &args.csv {
        check_output_path(path, "the CSV table")?;
    }
    configure_threads(usize::from(args.threads))?;
    let config = GiffordConfig {
        depth: args.depth,
        games_per_seat: args.games as usize,
        seed: args.seed,
    };
    let progress = ProgressBar::new(u64::from(PLAYERS) * 2 * u64::from(args.games));
    let rows = rank_players(config, &|| progress.inc(1))?;
    progress.finish_and_clear();
    println!(
        "{} players ranked by win % against random (look-ahead {}, {} games each):",
        rows.len(),
        args.depth,
        2 * args.games
    );
    println!(
        "{:>4}  {:<28} {:>6} {:>6} {:>6} {:>7}",
        "rank", "player", "win%", "1st%", "2nd%", "margin"
    );
    for (rank, row) in rows.iter().enumerate() {
        let s = &row.summary;
        println!(
            "{:>4}  {:<28} {:>6.1} {:>6.1} {:>6.1} {:>+7.2}",
            rank + 1,
            spec_for(row.mask, args.depth),
            100.0 * s.win_rate,
            100.0 * s.win_rate_first,
            100.0 * s.win_rate_second,
            s.avg_margin
        );
    }
    if let Some(path) = &args.csv {
        write_output(path, ranking_csv(&rows, args.depth).as_bytes())?;
        println!("CSV table written to {}", path.display());
    }
    Ok(())
}
