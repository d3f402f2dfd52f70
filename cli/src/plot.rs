//! `evoboard plot`: draw a run's fitness, benchmark and diversity plots (PNG and SVG).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::error::CliResult;
use evoboard::report::plot::plot_run;

/// Draw a run's fitness, benchmark and diversity plots (PNG and SVG).
#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Run directory (holding run.json and stats.csv).
    #[arg(long)]
    run: PathBuf,
    /// Output directory [default: for populations/RUN, plots/RUN beside populations/;
    /// otherwise DIR/plots inside the run].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Where a run's plots go by default: a run kept in a `populations/` directory (the
/// shipped runs) draws into the `plots/` directory beside it, under the run's name; any
/// other run draws into `plots/` inside its own directory, so runs made elsewhere never
/// litter the working directory.
pub fn default_plot_dir(run: &Path) -> PathBuf {
    let name = run.file_name();
    let parent = run.parent();
    match (name, parent) {
        (Some(name), Some(parent)) if parent.file_name() == Some("populations".as_ref()) => {
            parent.with_file_name("plots").join(name)
        }
        _ => run.join("plots"),
    }
}

pub fn run(args: &PlotArgs) -> CliResult {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_plot_dir(&args.run));
    for path in plot_run(&args.run, &out)? {
        println!("{}", path.display());
    }
    Ok(())
}
