//! `evoboard profile`: performance profiles (Jaśkowski, Szubert & Liskowski 2014), each
//! player's score against a rated pool of opponents cut into bins by strength, as a table,
//! JSON and a figure with every player on it.

use std::path::PathBuf;

use clap::Args;

use crate::benchmark::games_progress;
use crate::common::{SeriesArgs, configure_threads};
use crate::error::{BadInput, CliResult};
use evoboard::arena::AgentSpec;
use evoboard::arena::profile::{
    Profile, ProfileConfig, RatedPool, at_or_above, default_pool, profile, rate_pool,
};
use evoboard::eval::NamedEvaluators;
use evoboard::report::plot::{draw_figures, profile_figure};

/// Most pool members: the pool plays a round robin, which grows with their square.
const MAX_POOL: usize = 200;

/// Most players on one profile figure (its palette's colours).
const MAX_PLAYERS: usize = 10;

/// Each player's score against opponents of graded strength (a rated pool in bins).
#[derive(Debug, Args)]
pub struct ProfileArgs {
    /// The players profiled, comma-separated specs (at most 10).
    #[arg(long, value_delimiter = ',', required = true)]
    players: Vec<String>,
    /// The pool of opponents, comma-separated specs, the first rated 0 [default: random,
    /// then each panel evaluator at 1 and 2 plies, as it is and with half its moves random].
    #[arg(long, value_delimiter = ',')]
    pool: Vec<String>,
    /// Specs added to the pool (e.g. champions at several depths, for strong bins).
    #[arg(long, value_delimiter = ',')]
    pool_add: Vec<String>,
    /// Games of each pair of the pool's round robin, which rates it (even).
    #[arg(long, default_value_t = 4, value_parser = crate::common::even_games)]
    pool_games: u32,
    /// Bins the rated pool is cut into, of equal size.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=MAX_POOL as i64))]
    bins: u32,
    #[command(flatten)]
    series: SeriesArgs,
    /// Also draw the profiles into DIR/profile.png and DIR/profile.svg.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Print one JSON object instead of tables.
    #[arg(long)]
    json: bool,
}

pub fn run<G: NamedEvaluators>(start: G, args: &ProfileArgs) -> CliResult {
    if args.players.len() > MAX_PLAYERS {
        return Err(BadInput(format!(
            "{} players: a profile figure shows at most {MAX_PLAYERS}",
            args.players.len()
        ))
        .into());
    }
    let mut pool = if args.pool.is_empty() {
        default_pool::<G>()
    } else {
        args.pool.clone()
    };
    pool.extend(args.pool_add.iter().cloned());
    if pool.len() < 2 || pool.len() > MAX_POOL {
        return Err(BadInput(format!(
            "a pool of {} members: use 2 to {MAX_POOL}",
            pool.len()
        ))
        .into());
    }
    if args.bins as usize > pool.len() {
        return Err(BadInput(format!(
            "--bins {}: the pool has only {} members",
            args.bins,
            pool.len()
        ))
        .into());
    }
    if let Some(dir) = &args.plot {
        // Made before any game, so a figure that cannot be written fails at once.
        std::fs::create_dir_all(dir).map_err(|error| {
            BadInput(format!(
                "--plot {}: cannot make the directory: {error}",
                dir.display()
            ))
        })?;
    }
    configure_threads(usize::from(args.series.threads))?;
    // Every agent is built before the first game, so a bad spec fails at once.
    let build = |spec: &String| Ok((spec.clone(), spec.parse::<AgentSpec>()?.build(&start)?));
    let players = args
        .players
        .iter()
        .map(build)
        .collect::<CliResult<Vec<_>>>()?;
    let agents = pool.iter().map(build).collect::<CliResult<Vec<_>>>()?;
    let config = ProfileConfig {
        pool_games: args.pool_games as usize,
        games: args.series.games as usize,
        bins: args.bins as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
    };
    let pairs = agents.len() * (agents.len() - 1) / 2;
    let progress = games_progress((pairs * config.pool_games) as u64)?;
    progress.set_prefix("rating the pool");
    let rated = rate_pool(&start, &agents, config, &|| progress.inc(1))?;
    progress.finish_and_clear();
    let progress = games_progress((players.len() * agents.len() * config.games) as u64)?;
    let mut profiles = Vec::new();
    for (name, player) in &players {
        progress.set_prefix(name.clone());
        profiles.push(profile(
            &start,
            (name, player.as_ref()),
            &agents,
            &rated,
            config,
            &|| progress.inc(1),
        )?);
    }
    progress.finish_and_clear();
    if let Some(dir) = &args.plot {
        let caption = format!(
            "{}, {} games against each opponent, pool rated by {} games a pair, seed {}",
            start.name(),
            config.games,
            config.pool_games,
            config.seed
        );
        draw_figures(&[profile_figure(&rated, &profiles)], &caption, dir)?;
    }
    if args.json {
        let report = serde_json::json!({
            "schema": "evoboard.profile/1",
            "game": start.name(),
            "games": config.games,
            "pool_games": config.pool_games,
            "opening_plies": config.opening_plies,
            "seed": config.seed,
            "pool": rated,
            "profiles": profiles,
        });
        println!("{report}");
    } else {
        print_tables(start.name(), &config, &rated, &profiles);
    }
    Ok(())
}

fn print_tables(game: &str, config: &ProfileConfig, pool: &RatedPool, profiles: &[Profile]) {
    println!(
        "{game}: a pool of {} opponents rated by a round robin of {} games a pair ({} = 0), in {} bins; {} games against each opponent ({} random opening plies, seed {})",
        pool.members.len(),
        config.pool_games,
        pool.anchor,
        pool.bins.len(),
        config.games,
        config.opening_plies,
        config.seed
    );
    println!("\npool (weakest first):");
    let width = pool
        .members
        .iter()
        .map(|m| m.spec.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    println!("{:<width$} {:>7} {:>4}", "member", "elo", "bin");
    for member in &pool.members {
        println!(
            "{:<width$} {:>7.0} {:>4}",
            member.spec,
            member.elo,
            member.bin + 1
        );
    }
    println!("\nscore against each bin (wins + draws/2 per game, 95% interval):");
    let width = profiles
        .iter()
        .map(|p| p.player.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    print!("{:<width$}", "player");
    for (k, bin) in pool.bins.iter().enumerate() {
        print!(" {:>19}", format!("bin {} ({:.0})", k + 1, bin.mean_elo));
    }
    println!(" {:>8}", "overall");
    for profile in profiles {
        print!("{:<width$}", profile.player);
        for point in &profile.points {
            print!(
                " {:>19}",
                format!(
                    "{:.3} ({:.2}–{:.2})",
                    point.score, point.ci_low, point.ci_high
                )
            );
        }
        println!(" {:>8.3}", profile.overall);
    }
    for a in profiles {
        let above: Vec<&str> = profiles
            .iter()
            .filter(|b| b.player != a.player && at_or_above(a, b))
            .map(|b| b.player.as_str())
            .collect();
        if !above.is_empty() {
            println!(
                "{} is at or above {} in every bin (within the intervals)",
                a.player,
                above.join(", ")
            );
        }
    }
}
