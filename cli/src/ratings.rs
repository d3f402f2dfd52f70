//! `evoboard ratings --run DIR`: the networks a run kept (`evolve --snapshots K`), each in
//! a gauntlet against fixed anchors, rated on the Elo scale (`experiments::generations`);
//! writes `ratings.csv` into the run and redraws its plots with the rating curve.

use std::path::PathBuf;

use clap::Args;

use crate::common::{SeriesArgs, check_run_game, configure_threads, recorded_game, with_game};
use crate::error::CliResult;
use crate::plot::default_plot_dir;
use evoboard::eval::NamedEvaluators;
use evoboard::evolve::checkpoint::RunDir;
use evoboard::experiments::generations::{Gauntlet, rate_generations};
use evoboard::report::plot::plot_run;

/// Rate the networks a run kept (`evolve --snapshots K`) against fixed anchors.
#[derive(Debug, Args)]
pub struct RatingsArgs {
    /// The run directory (its networks kept by `evolve --snapshots K`).
    #[arg(long)]
    run: PathBuf,
    /// The fixed opponents, comma-separated; the first is the 0 of the scale.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,heuristic:1,heuristic:2"
    )]
    anchors: Vec<String>,
    #[command(flatten)]
    series: SeriesArgs,
    /// Bootstrap resamples behind the 95% intervals.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(0..=evoboard::statistics::MAX_BOOTSTRAP as i64))]
    bootstrap: u32,
}

/// Rates the run's networks in the built-in game the run records.
pub fn run_recorded(args: &RatingsArgs) -> CliResult {
    configure_threads(usize::from(args.series.threads))?;
    let game = recorded_game(&run_dir(args))?;
    with_game!(game, |start| rate(start, args))
}

/// Rates the run's networks in the game that starts at `start`, which must be the run's.
pub fn run<G: NamedEvaluators>(start: G, args: &RatingsArgs) -> CliResult {
    configure_threads(usize::from(args.series.threads))?;
    check_run_game(&run_dir(args), &start)?;
    rate(start, args)
}

/// The run `--run` names.
fn run_dir(args: &RatingsArgs) -> RunDir {
    RunDir {
        dir: args.run.clone(),
    }
}

fn rate<G: NamedEvaluators>(start: G, args: &RatingsArgs) -> CliResult {
    let gauntlet = Gauntlet {
        anchors: args.anchors.clone(),
        games: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
        bootstrap: args.bootstrap as usize,
    };
    let rows = rate_generations(&start, &args.run, &gauntlet, &|| {})?;
    println!(
        "{}: each kept generation against {} ({} games a pair, seed {}), Elo with 95% intervals, {} = 0",
        args.run.display(),
        args.anchors.join(", "),
        args.series.games,
        args.series.seed,
        args.anchors[0]
    );
    for row in &rows {
        println!(
            "{:<28} {:>7.0}  ({:.0} to {:.0})",
            row.player, row.elo.0, row.ci_low.0, row.ci_high.0
        );
    }
    let plots = default_plot_dir(&args.run);
    let written = plot_run(&args.run, &plots)?;
    println!(
        "ratings in {}; plots in {} ({} files)",
        args.run.join("ratings.csv").display(),
        plots.display(),
        written.len()
    );
    Ok(())
}
