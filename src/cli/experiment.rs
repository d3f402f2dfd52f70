//! `evoboard experiment PLAN`: every variant of a plan over its seeds, each run an
//! ordinary run directory, every champion measured, and the results summarised with
//! intervals and tests against the baseline (`experiments::plan`, `runner`, `results`).

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::cli::{BadInput, CliResult, GameName, configure_threads, with_game};
use crate::eval::NamedEvaluators;
use crate::evolve::Observer;
use crate::evolve::checkpoint::EvolutionState;
use crate::experiments::figures::plot_experiment;
use crate::experiments::plan::PlanFile;
use crate::experiments::ratings::rate_champions;
use crate::experiments::results::write_results;
use crate::experiments::runner::{ExperimentObserver, open, run_all};

/// Largest plan file read.
const MAX_PLAN_BYTES: u64 = 1 << 20;

#[derive(Debug, Args)]
pub struct ExperimentArgs {
    /// The plan (TOML): game, seeds, base settings, variants and the measures to take.
    plan: PathBuf,
    /// The experiment's directory (default: `experiments/results/PLAN-NAME`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Finish an interrupted experiment: runs resume from their checkpoints and measured
    /// champions are not measured again.
    #[arg(long)]
    resume: bool,
    /// Worker threads (0 = all cores); results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: u16,
}

pub fn run(args: &ExperimentArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    let bytes = crate::persist::read_limited(&args.plan, MAX_PLAN_BYTES).map_err(|error| {
        BadInput(format!(
            "cannot read the plan {}: {error}",
            args.plan.display()
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        BadInput(format!(
            "the plan {} is not UTF-8 text",
            args.plan.display()
        ))
    })?;
    let plan = PlanFile::parse(&text)
        .map_err(|error| BadInput(format!("plan {}: {error}", args.plan.display())))?;
    let game = GameName::from_str(&plan.game, true).map_err(|_| {
        BadInput(format!(
            "plan {}: game: unknown game '{}' (othello, kalah, oware, congklak or congkak)",
            args.plan.display(),
            plan.game.escape_debug()
        ))
    })?;
    let out = args.out.clone().unwrap_or_else(|| {
        let name = args.plan.file_stem().unwrap_or_default();
        PathBuf::from("experiments/results").join(name)
    });
    with_game!(game, |start| experiment(start, args, plan, &text, &out))
}

fn experiment<G: NamedEvaluators>(
    start: G,
    args: &ExperimentArgs,
    plan: PlanFile,
    text: &str,
    out: &std::path::Path,
) -> CliResult {
    let plan = plan
        .resolve(&start)
        .map_err(|error| BadInput(format!("plan {}: {error}", args.plan.display())))?;
    let experiment = open(out, text, args.resume)?;
    println!(
        "experiment {} in {}: {} variants × {} seeds of {}",
        args.plan.display(),
        out.display(),
        plan.variants.len(),
        plan.seeds.len(),
        plan.game
    );
    let progress = RunsProgress;
    let mut runs = run_all(&start, &plan, &experiment, &progress)?;
    if let Some(measure) = &plan.evaluation.round_robin {
        eprintln!("round robin of the champions (round-robin.json)");
        rate_champions(&start, &plan, measure, &experiment, &mut runs)?;
    }
    let (summaries, curves) = write_results(&plan, &experiment, &runs)?;
    let plots = plot_experiment(&plan, &summaries, &curves, &experiment.dir)?;
    print!(
        "{}",
        crate::experiments::results::summary_markdown(&plan, &summaries)
    );
    println!(
        "results in {} (results.csv, learning.csv, summary.csv, summary.md, {} plots)",
        out.display(),
        plots.len()
    );
    Ok(())
}

/// One line per run started and per generation, on stderr.
struct RunsProgress;

impl Observer for RunsProgress {
    fn generation_done(&self, state: &EvolutionState, seconds: f64) {
        let rate = state
            .history
            .last()
            .and_then(|h| h.benchmark.as_ref())
            .map(|b| format!(", benchmark {:.1}%", 100.0 * b.win_rate))
            .unwrap_or_default();
        eprintln!(
            "  generation {}/{}{rate}, {seconds:.1} s",
            state.generation, state.config.generations
        );
    }
}

impl ExperimentObserver for RunsProgress {
    fn run_started(&self, index: usize, total: usize, variant: &str, seed: u64, done: u32) {
        let from = if done > 0 {
            format!(" (resumed after generation {done})")
        } else {
            String::new()
        };
        eprintln!("run {}/{total}: {variant}, seed {seed}{from}", index + 1);
    }

    fn measuring(&self, _index: usize, variant: &str, seed: u64) {
        eprintln!("  measuring the champion of {variant}, seed {seed}");
    }
}
