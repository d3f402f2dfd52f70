//! `evoboard accuracy`: distance to perfect play. Positions sampled from games, every move
//! of each valued exactly (Kalah(6,4) by the solver, Othello endgames), and each agent's
//! share of optimal moves and mean loss against the best move.

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{configure_threads, plies_range};
use crate::error::{BadInput, CliResult};
use evoboard::arena::AgentSpec;
use evoboard::arena::accuracy::{
    Accuracy, ExactMoves, KalahOracle, Losses, OthelloOracle, Sampler, Source, losses,
    valued_sample,
};
use evoboard::eval::NamedEvaluators;
use evoboard::games::mancala::Kalah;
use evoboard::games::othello::Othello;

#[derive(Debug, Args)]
pub struct AccuracyArgs {
    /// `kalah` (Kalah(6,4), valued by the exact solver) or `othello` (endgames).
    #[arg(long, value_parser = ["kalah", "othello"])]
    game: String,
    /// An agent to measure (repeat the flag for more); the others are compared with the
    /// first on the same positions.
    #[arg(long = "player", required = true)]
    players: Vec<String>,
    /// Positions in the sample.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    positions: u32,
    /// Plies played before a position is taken, drawn uniformly from MIN..MAX (inclusive);
    /// by default 20..60 for Kalah, 40..60 for Othello.
    #[arg(long, value_parser = plies_range)]
    plies: Option<(u32, u32)>,
    /// The agent spec that plays both sides of the sampling games.
    #[arg(long, default_value = "random")]
    sampler: String,
    /// Seed of the sampling games and of the measured agents' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Othello: positions with at most this many empty squares.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=30))]
    max_empties: u32,
    /// Kalah: positions with at most this many seeds left on the board.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(2..=48))]
    max_seeds: u32,
    /// Kalah: memory for the solver's table and endgame database, in MB.
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(16..=1_000_000))]
    table_mb: u64,
    /// Directory of the cache of exact values (default: `$XDG_CACHE_HOME/evoboard`, else
    /// `~/.cache/evoboard`).
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Solve again, without reading or writing the cache.
    #[arg(long)]
    no_cache: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: u16,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &AccuracyArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    match args.game.as_str() {
        "othello" => {
            let mut oracle = OthelloOracle::new(args.max_empties).map_err(BadInput)?;
            run_game(Othello::start(), &mut oracle, (40, 60), args)
        }
        _ => {
            let start = Kalah::game(6, 4, false);
            let table_bytes = usize::try_from(args.table_mb * 1_000_000).unwrap_or(usize::MAX);
            let mut oracle =
                KalahOracle::new(&start, args.max_seeds, table_bytes).map_err(BadInput)?;
            run_game(start, &mut oracle, (20, 60), args)
        }
    }
}

fn run_game<G: NamedEvaluators>(
    start: G,
    oracle: &mut dyn ExactMoves<G>,
    default_plies: (u32, u32),
    args: &AccuracyArgs,
) -> CliResult {
    // Every agent is built before any work, so a bad spec fails at once.
    let players = args
        .players
        .iter()
        .map(|spec| Ok((spec.clone(), spec.parse::<AgentSpec>()?.build(&start)?)))
        .collect::<CliResult<Vec<_>>>()?;
    let sampler_agent = args.sampler.parse::<AgentSpec>()?.build(&start)?;
    let (low, high) = args.plies.unwrap_or(default_plies);
    let sampler = Sampler {
        player: args.sampler.clone(),
        plies: low..=high,
        positions: args.positions as usize,
        seed: args.seed,
    };
    let cache_dir = if args.no_cache {
        None
    } else {
        Some(args.cache.clone().unwrap_or_else(default_cache_dir))
    };
    let bar = ProgressBar::new(u64::from(args.positions)).with_style(
        ProgressStyle::with_template("solving [{bar:30}] {pos}/{len} positions, ETA {eta}")?
            .progress_chars("=> "),
    );
    let (positions, source) = valued_sample(
        &start,
        &sampler,
        sampler_agent.as_ref(),
        oracle,
        cache_dir.as_deref(),
        &mut |done, _| bar.set_position(done as u64),
    )?;
    bar.finish_and_clear();
    match &source {
        Source::Cache => eprintln!("exact values read from the cache"),
        Source::Solved {
            ignored: Some(reason),
        } => eprintln!("warning: the cache was not used ({reason}); solved again"),
        Source::Solved { ignored: None } => {}
    }
    let lost: Vec<Losses> = players
        .iter()
        .map(|(_, agent)| losses(agent.as_ref(), &start, &positions, args.seed))
        .collect();
    // Every player after the first is compared with it on the same positions.
    let reference = &players[0].0;
    let results: Vec<Accuracy> = players
        .iter()
        .zip(&lost)
        .enumerate()
        .map(|(k, ((spec, _), losses))| {
            let accuracy = Accuracy::of(spec, losses);
            if k == 0 {
                accuracy
            } else {
                let (own, first) = (&losses.per_position, &lost[0].per_position);
                accuracy.versus(own, reference, first)
            }
        })
        .collect();
    // A measure with forfeits is marked: a warning for each such player, and the fields
    // `forfeited` and `first_forfeit` of its JSON.
    for warning in results.iter().filter_map(Accuracy::warning) {
        eprintln!("warning: {warning}");
    }
    let sample = sampler.describe(start.name(), &oracle.describe());
    if args.json {
        let report = serde_json::json!({ "sample": sample, "players": results });
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print_table(&sample, &results);
    }
    Ok(())
}

fn print_table(sample: &str, results: &[Accuracy]) {
    println!("{sample}");
    let width = results
        .iter()
        .map(|r| r.player.len())
        .max()
        .unwrap_or(6)
        .max(6);
    println!(
        "{:<width$} {:>9} {:>8} {:>15} {:>9} {:>15} {:>23}",
        "player",
        "positions",
        "optimal",
        "95% interval",
        "mean loss",
        "95% interval",
        "loss vs the first (95%)"
    );
    for r in results {
        let versus = r.versus.as_ref().map_or(String::new(), |v| {
            format!(
                "{:+.2} ({:+.2} – {:+.2})",
                v.mean_difference, v.ci_low, v.ci_high
            )
        });
        let forfeits = match r.forfeited {
            0 => String::new(),
            n => format!("  [{n} forfeited]"),
        };
        println!(
            "{:<width$} {:>9} {:>7.1}% {:>6.1}% – {:>4.1}% {:>9.2} {:>6.2} – {:>5.2} {versus:>23}{forfeits}",
            r.player,
            r.positions,
            100.0 * r.optimal_share,
            100.0 * r.optimal_ci_low,
            100.0 * r.optimal_ci_high,
            r.mean_loss,
            r.loss_ci_low,
            r.loss_ci_high
        );
    }
}

/// `$XDG_CACHE_HOME/evoboard`, else `~/.cache/evoboard`, else `.evoboard-cache` here.
fn default_cache_dir() -> PathBuf {
    let from = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    from("XDG_CACHE_HOME")
        .map(|dir| dir.join("evoboard"))
        .or_else(|| from("HOME").map(|home| home.join(".cache").join("evoboard")))
        .unwrap_or_else(|| PathBuf::from(".evoboard-cache"))
}
