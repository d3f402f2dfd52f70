//! `evoboard plot`: draw a run's fitness, benchmark and diversity plots (PNG and SVG).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::report::plot::plot_run;

#[derive(Debug, Args)]
pub struct PlotArgs {
    /// Run directory (holding run.json and stats.csv).
    #[arg(long)]
    run: PathBuf,
    /// Output directory [default: plots/RUN, RUN being the run directory's name].
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Where a run's plots go by default: `plots/` + the run directory's name.
pub fn default_plot_dir(run: &Path) -> PathBuf {
    let name = run
        .file_name()
        .map_or_else(|| "run".into(), |n| n.to_os_string());
    Path::new("plots").join(name)
}

pub fn run(args: &PlotArgs) -> anyhow::Result<()> {
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| default_plot_dir(&args.run));
    for path in plot_run(&args.run, &out)? {
        println!("{}", path.display());
    }
    Ok(())
}
