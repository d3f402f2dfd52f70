//! `evoboard gifford`: seed 002's experiment — every non-empty combination of the Kalah
//! heuristics H1–H6 (63 players, equal weights) at one look-ahead against `random`, half
//! the games first and half second — ranked by win %, as CSV.

use std::path::PathBuf;

use clap::Args;
use indicatif::ProgressBar;
use rayon::prelude::*;

use crate::arena::spec::UNTIMED_DEPTH;
use crate::arena::tournament::{AgentSummary, series_summary};
use crate::arena::{AgentSpec, SeriesConfig, play_series};
use crate::cli::tournament::{summary_fields, summary_header};
use crate::cli::{
    BadInput, CliResult, MAX_GAMES, MAX_THREADS, check_output_path, configure_threads, write_output,
};
use crate::games::mancala::Kalah;
use crate::rng::derive_seed;

#[derive(Debug, Args)]
pub struct GiffordArgs {
    /// Look-ahead (search depth) of every heuristic player.
    #[arg(long, default_value_t = 2)]
    depth: u32,
    /// Games going first and, again, going second for each player (seed 002: 100).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=MAX_GAMES))]
    games: u32,
    /// Seed of the openings and of the players' random choices (each combination of
    /// heuristics derives its own).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=MAX_THREADS))]
    threads: u16,
    /// Also write the ranked table, with every statistic of seed 002, here as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

/// The spec of the player using the heuristics in `mask` (bit k = H(k+1)).
fn spec_for(mask: u32, depth: u32) -> String {
    let names: Vec<String> = (0..6)
        .filter(|k| mask >> k & 1 == 1)
        .map(|k| format!("h{}", k + 1))
        .collect();
    format!("minimax:{depth}:{}", names.join("+"))
}

pub fn run(args: &GiffordArgs) -> CliResult {
    if !(1..=UNTIMED_DEPTH).contains(&args.depth) {
        return Err(BadInput(format!("--depth must be 1 to {UNTIMED_DEPTH}")).into());
    }
    if let Some(path) = &args.csv {
        check_output_path(path, "the CSV table")?;
    }
    configure_threads(usize::from(args.threads))?;
    let start = Kalah::game(6, 4, false);
    let random = "random".parse::<AgentSpec>()?.build(&start)?;
    let progress = ProgressBar::new(63 * 2 * u64::from(args.games));
    let mut rows: Vec<(u32, AgentSummary)> = (1..64u32)
        .into_par_iter()
        .map(|mask| {
            let spec = spec_for(mask, args.depth);
            let player = spec.parse::<AgentSpec>()?.build(&start)?;
            let config = SeriesConfig {
                games: 2 * args.games as usize,
                opening_plies: 0,
                seed: derive_seed(args.seed, &[u64::from(mask)]),
            };
            let records = play_series(&start, player.as_ref(), random.as_ref(), config, &|| {
                progress.inc(1)
            })?;
            Ok((mask, series_summary(spec, &records)))
        })
        .collect::<CliResult<_>>()?;
    progress.finish_and_clear();
    rows.sort_by(|a, b| {
        b.1.win_rate
            .total_cmp(&a.1.win_rate)
            .then(b.1.avg_margin.total_cmp(&a.1.avg_margin))
            .then(a.0.cmp(&b.0))
    });
    let mut text = format!("rank,h1,h2,h3,h4,h5,h6,lookahead,{}\n", summary_header());
    for (rank, (mask, summary)) in rows.iter().enumerate() {
        let flags: Vec<String> = (0..6).map(|k| (mask >> k & 1).to_string()).collect();
        text.push_str(&format!(
            "{},{},{},{}\n",
            rank + 1,
            flags.join(","),
            args.depth,
            summary_fields(summary)
        ));
    }
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
    for (rank, (mask, s)) in rows.iter().enumerate() {
        println!(
            "{:>4}  {:<28} {:>6.1} {:>6.1} {:>6.1} {:>+7.2}",
            rank + 1,
            spec_for(*mask, args.depth),
            100.0 * s.win_rate,
            100.0 * s.win_rate_first,
            100.0 * s.win_rate_second,
            s.avg_margin
        );
    }
    if let Some(path) = &args.csv {
        write_output(path, text.as_bytes())?;
        println!("CSV table written to {}", path.display());
    }
    Ok(())
}
