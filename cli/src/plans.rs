//! `evoboard plans`: every plan under `experiments/` with its status read from its results
//! (`experiments::status`), as the Markdown table of the docs' plans.

use std::path::PathBuf;

use clap::Args;

use crate::error::CliResult;
use evoboard::experiments::status::{plan_statuses, status_table};

#[derive(Debug, Args)]
pub struct PlansArgs {
    /// The directory of the plans, their results (`results/PLAN/`) and the notes on why a
    /// plan is not finished (`status.toml`).
    #[arg(long, default_value = "experiments")]
    dir: PathBuf,
}

pub fn run(args: &PlansArgs) -> CliResult {
    let statuses = plan_statuses(&args.dir)?;
    print!("{}", status_table(&statuses));
    Ok(())
}
