//! Running a plan: every variant × seed as an ordinary run directory under the
//! experiment's directory, then every run's champion measured. Each run resumes from its
//! own checkpoints and each measurement is kept in a file of its own, so an interrupted
//! experiment resumed finishes with exactly the files of one never interrupted.
//!
//! Layout of an experiment directory:
//! - `plan.toml`: the plan it was started with (a resume must bring the same text);
//! - `runs/VARIANT/seed-S/`: the runs (`evoboard plot --run` draws any of them), or a
//!   distillation plan's fits (see [`super::fits`]);
//! - `evaluations/VARIANT-seed-S.json`: each champion's measures and its SHA-256, against
//!   which an absent champion of an evolution run is rebuilt when needed
//!   ([`super::rebuild`]);
//! - `held-out.json`: the held-out measures of the run validation chose, for a plan with
//!   a `[held_out]` table;
//! - `results.csv`, `learning.csv`, `summary.csv`, `summary.md` and the plots, remade
//!   from the above at the end of every invocation.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};

use crate::eval::NamedEvaluators;
use crate::evolve::checkpoint::{EvolutionState, RunDir};
use crate::evolve::config::EvolveConfig;
use crate::evolve::{Evolution, Observer};
use crate::experiments::measures::{champion_spec, play_benchmark, play_league};
use crate::experiments::plan::{Plan, RunSettings, Variant};
use crate::experiments::rebuild::{ensure_champion, ensure_start_from};
use crate::experiments::recorded::champion_sha256;
use crate::experiments::{ExperimentError, fits, read_kept, write_file, write_kept};
use crate::learn::distill::FitRow;

/// An experiment's directory and where each of its files lives.
#[derive(Clone, Debug)]
pub struct ExperimentDir {
    pub dir: PathBuf,
}

impl ExperimentDir {
    pub fn plan_copy(&self) -> PathBuf {
        self.dir.join("plan.toml")
    }
    pub fn run_dir(&self, variant: &str, seed: u64) -> PathBuf {
        self.dir
            .join("runs")
            .join(variant)
            .join(format!("seed-{seed}"))
    }
    /// The held-out measures of the run validation chose (see [`super::held_out`]).
    pub fn held_out_file(&self) -> PathBuf {
        self.dir.join("held-out.json")
    }
    pub fn evaluation_file(&self, variant: &str, seed: u64) -> PathBuf {
        self.dir
            .join("evaluations")
            .join(format!("{variant}-seed-{seed}.json"))
    }
}

/// One run of an experiment, as its progress reports name it.
#[derive(Clone, Copy, Debug)]
pub struct RunLabel<'a> {
    /// The run's place in plan order (seeds, then variants), from 0.
    pub index: usize,
    /// Runs in the plan.
    pub total: usize,
    pub variant: &'a str,
    pub seed: u64,
}

/// What an experiment reports as it goes: where each run stands. Runs may go on at once
/// (`--jobs`), so every report names its run.
pub trait ExperimentObserver: Sync {
    /// `run` starts, or resumes after `done` generations.
    fn run_started(&self, _run: RunLabel, _done: u32) {}
    /// `run` finished a generation in `seconds`.
    fn generation_done(&self, _run: RunLabel, _state: &EvolutionState, _seconds: f64) {}
    /// `run`, a distillation fit, finished an epoch (`row`, of `epochs`) in `seconds`.
    fn epoch_done(&self, _run: RunLabel, _row: &FitRow, _epochs: u32, _seconds: f64) {}
    /// `run`'s champion is being measured.
    fn measuring(&self, _run: RunLabel) {}
    /// `run`'s champion is absent and needed: the run is played again, and its champion
    /// must hash as `recorded` (see [`super::rebuild`]).
    fn rebuilding(&self, _run: RunLabel, _recorded: &str) {}
}

/// An experiment's observer as one of its runs sees it.
pub(crate) struct RunObserver<'a> {
    pub(crate) run: RunLabel<'a>,
    pub(crate) observer: &'a dyn ExperimentObserver,
}

impl Observer for RunObserver<'_> {
    fn generation_done(&self, state: &EvolutionState, seconds: f64) {
        self.observer.generation_done(self.run, state, seconds);
    }
}

/// How one run ended, as the process that ran it tells the others.
#[derive(Serialize, Deserialize)]
enum RunOutcome {
    Measured(RunMeasures),
    Failed {
        message: String,
        bad_input: bool,
    },
    /// Not started: an earlier run of this process failed.
    Skipped,
}

/// One measure of one run's champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    pub measure: String,
    pub value: f64,
    pub games: usize,
}

/// The measures of one run's champion, as its evaluation file holds them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunMeasures {
    pub variant: String,
    pub seed: u64,
    /// The generation whose network became the champion.
    pub champion_generation: u32,
    /// The SHA-256 of the champion file's bytes (see [`super::recorded`]): what the
    /// champion played again from the run's settings must hash as.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion_sha256: Option<String>,
    pub measures: Vec<Measured>,
    /// The plan's measures these were taken for (see [`Plan::measures_key`]): a resumed
    /// experiment whose plan now asks for others takes them again, never mixes them.
    #[serde(default)]
    pub taken_for: Option<String>,
}

impl RunMeasures {
    /// Whether these are the measures `plan` takes of every champion: taken for its
    /// measures, or, in a file written before evaluations said what they were taken for,
    /// exactly the plan's measures by name, in order, each of the plan's number of games.
    pub fn measures_plan(&self, plan: &Plan) -> bool {
        match &self.taken_for {
            Some(key) => *key == plan.measures_key(),
            None => {
                let planned = plan
                    .evaluation
                    .benchmark
                    .iter()
                    .map(|b| (b.name(), b.games));
                let league = plan.evaluation.league.iter();
                let planned: Vec<(String, usize)> = planned
                    .chain(league.map(|l| ("league".to_string(), l.games)))
                    .collect();
                let taken: Vec<(String, usize)> = self
                    .measures
                    .iter()
                    .map(|m| (m.measure.clone(), m.games))
                    .collect();
                taken == planned
            }
        }
    }
}

/// Opens `dir` for `plan` (whose text is `text`): a new experiment in a new or empty
/// directory, or, with `resume`, the experiment begun there with the same plan. A plan
/// whose measures could not be taken in `dir` is refused first, with nothing written.
pub fn open<G: NamedEvaluators>(
    dir: &Path,
    plan: &Plan,
    text: &str,
    resume: bool,
) -> Result<ExperimentDir, ExperimentError> {
    let experiment = ExperimentDir {
        dir: dir.to_path_buf(),
    };
    check_measurable::<G>(plan, &experiment)?;
    let copy = experiment.plan_copy();
    let refuse = |message: String| Err(ExperimentError::Directory(message));
    if copy.exists() {
        if !resume {
            return refuse(format!(
                "{} holds an experiment already: resume it to finish it",
                dir.display()
            ));
        }
        let started = crate::persist::read_limited(&copy, 1 << 20).map_err(|error| {
            ExperimentError::Directory(format!("cannot read {}: {error}", copy.display()))
        })?;
        if started != text.as_bytes() {
            return refuse(format!(
                "the plan differs from the one {} was started with ({}): results of two plans would mix",
                dir.display(),
                copy.display()
            ));
        }
        return Ok(experiment);
    }
    if resume {
        return refuse(format!("no experiment to resume in {}", dir.display()));
    }
    let occupied = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
    if occupied {
        return refuse(format!(
            "{} is not empty: start an experiment in a new or empty directory",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|error| {
        ExperimentError::Directory(format!("cannot create {}: {error}", dir.display()))
    })?;
    write_file(&copy, text.as_bytes())?;
    Ok(experiment)
}

/// Runs every run of `plan` not yet finished and measures every champion not yet
/// measured; returns every run's measures in plan order (seeds, then variants). Up to
/// `at_once` runs go on at a time, sharing the thread pool; under MPI each process runs
/// its share of the runs (see [`crate::farm::map_whole_jobs`]). Each run is what it would
/// be alone, so nothing depends on `at_once`, the threads or the processes. After a failed
/// run no new one starts; the first failure in plan order is the error.
pub fn run_all<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    experiment: &ExperimentDir,
    observer: &dyn ExperimentObserver,
    at_once: usize,
) -> Result<Vec<RunMeasures>, ExperimentError> {
    let runs: Vec<(u64, &Variant)> = plan
        .seeds
        .iter()
        .flat_map(|&seed| plan.variants.iter().map(move |variant| (seed, variant)))
        .collect();
    let failed = AtomicBool::new(false);
    let outcomes = crate::farm::map_whole_jobs(runs.len(), at_once, |index| {
        if failed.load(Ordering::Relaxed) {
            return RunOutcome::Skipped;
        }
        let (seed, variant) = runs[index];
        let run = RunLabel {
            index,
            total: runs.len(),
            variant: &variant.name,
            seed,
        };
        match run_one(start, plan, experiment, variant, run, observer) {
            Ok(measured) => RunOutcome::Measured(measured),
            Err(error) => {
                failed.store(true, Ordering::Relaxed);
                RunOutcome::Failed {
                    message: error.to_string(),
                    bad_input: error.is_bad_input(),
                }
            }
        }
    });
    let mut all = Vec::with_capacity(runs.len());
    for (outcome, (seed, variant)) in outcomes.into_iter().zip(runs) {
        match outcome {
            RunOutcome::Measured(measured) => all.push(measured),
            RunOutcome::Failed { message, bad_input } => {
                return Err(ExperimentError::Run {
                    variant: variant.name.clone(),
                    seed,
                    message,
                    bad_input,
                });
            }
            // A process skips runs only after one of its own failed, earlier in plan order.
            RunOutcome::Skipped => unreachable!("a run is skipped only after an earlier failure"),
        }
    }
    Ok(all)
}

/// Refuses, before any run starts, a plan whose measures could not be taken of the
/// champions it will train: each champion's spec (its path in this directory, at each
/// depth a measure plays it) and each panel's opponents must read as agent specs — an
/// error found after training would come hours too late.
fn check_measurable<G: NamedEvaluators>(
    plan: &Plan,
    experiment: &ExperimentDir,
) -> Result<(), ExperimentError> {
    let mut depths: Vec<Option<u32>> = vec![None];
    depths.extend(plan.evaluation.benchmark.iter().map(|b| b.depth));
    if let Some(held_out) = &plan.held_out {
        depths.extend(held_out.benchmark.iter().map(|b| b.depth));
        if let Some(panel) = &held_out.panel {
            depths.push(panel.player_depth);
            for spec in crate::arena::panel_opponents::<G>(panel.depth) {
                spec.parse::<crate::arena::AgentSpec>()?;
            }
        }
    }
    for variant in &plan.variants {
        for &seed in &plan.seeds {
            let champion = experiment.run_dir(&variant.name, seed).join("champion.evo");
            for &depth in &depths {
                champion_spec(&champion, depth)?;
            }
        }
    }
    Ok(())
}

/// Files of a run besides its networks (run.json, stats.csv, its evaluation), a bound.
const RUN_FILES_BYTES: u64 = 256 << 10;

/// A bound on the disk the plan's runs take once finished: per run, the checkpoints it
/// keeps (each the population's weights with the learners' per-weight state, three
/// numbers a weight at most), its champion and its snapshots, and its other files.
pub fn disk_bound<G: NamedEvaluators>(start: &G, plan: &Plan) -> Result<u64, ExperimentError> {
    let mut total: u64 = 0;
    for variant in &plan.variants {
        let config = match &variant.settings {
            RunSettings::Evolve(config) => config,
            RunSettings::Distill(settings) => {
                let run = fits::disk_bound(start, settings);
                total = total.saturating_add(run.saturating_mul(plan.seeds.len() as u64));
                continue;
            }
        };
        let network = crate::evolve::architecture_for(start, config)?.genes() as u64 * 4;
        let generations = u64::from(config.generations);
        let checkpoints = config
            .keep_checkpoints
            .map_or(generations, |keep| u64::from(keep).min(generations));
        let snapshots = config
            .snapshots
            .map_or(0, |every| generations / u64::from(every));
        let run = checkpoints
            .saturating_mul(config.population as u64)
            .saturating_mul(network.saturating_mul(3))
            .saturating_add(network.saturating_mul(1 + snapshots))
            .saturating_add(RUN_FILES_BYTES);
        total = total.saturating_add(run.saturating_mul(plan.seeds.len() as u64));
    }
    Ok(total)
}

/// Runs (or resumes) one run of the plan and measures its champion, unless an earlier
/// invocation did.
fn run_one<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    experiment: &ExperimentDir,
    variant: &Variant,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
) -> Result<RunMeasures, ExperimentError> {
    let seed = run.seed;
    if crate::interrupt::requested() {
        return Err(ExperimentError::Interrupted {
            variant: variant.name.clone(),
            seed,
        });
    }
    let run_dir = experiment.run_dir(&variant.name, seed);
    let file = experiment.evaluation_file(&variant.name, seed);
    let kept: Option<RunMeasures> = read_kept(&file, "measure that run again")?;
    let kept = match kept {
        Some(measured) if measured.measures_plan(plan) => {
            return record_hash(plan, measured, &run_dir, &file);
        }
        other => other,
    };
    let config = match variant.settings.with_seed(seed) {
        RunSettings::Evolve(config) => *config,
        RunSettings::Distill(settings) => {
            // A fit keeps its champion (a distillation plan's are small): finished, it is
            // measured as it is.
            fits::finish_fit(start, &settings, &run_dir, run, observer)?;
            return measure_and_keep(start, plan, run, &run_dir, &file, observer);
        }
    };
    let files = RunDir {
        dir: run_dir.clone(),
    };
    let mut evolution = if files.run_json().exists() {
        // Checked before the resume, which would rewrite the run's files.
        let found = files.read_info()?.config;
        // A run of a smaller budget and otherwise the plan's settings (copied in from a
        // shorter variant) is carried on to the plan's budget.
        check_settings(&run_dir, &config, &carried_on(&found, &config))?;
        if let Some(measured) = kept.filter(|_| found.generations == config.generations) {
            // Finished, and measured by other measures: its champion (rebuilt if absent)
            // is measured again.
            let recorded = measured.champion_sha256.as_deref();
            ensure_champion(start, &run_dir, recorded, run, observer)?;
            return measure_and_keep(start, plan, run, &run_dir, &file, observer);
        }
        if files.latest_checkpoint().is_none() {
            ensure_start_from(start, &config, observer)?;
        }
        let budget = (found.generations < config.generations).then_some(config.generations);
        Evolution::resume(start.clone(), &run_dir, budget)?
    } else {
        std::fs::create_dir_all(run_dir.parent().expect("a run sits in a variant")).map_err(
            |error| {
                ExperimentError::Directory(format!("cannot create {}: {error}", run_dir.display()))
            },
        )?;
        ensure_start_from(start, &config, observer)?;
        Evolution::create(start.clone(), config, &run_dir)?
    };
    observer.run_started(run, evolution.state().generation);
    if !evolution.state().is_complete() {
        evolution.run(&RunObserver { run, observer })?;
    }
    drop(evolution);
    measure_and_keep(start, plan, run, &run_dir, &file, observer)
}

/// Takes the plan's measures of the champion in `run_dir` and keeps them in `file`.
fn measure_and_keep<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    run: RunLabel,
    run_dir: &Path,
    file: &Path,
    observer: &dyn ExperimentObserver,
) -> Result<RunMeasures, ExperimentError> {
    observer.measuring(run);
    let measured = measure(start, plan, run.variant, run.seed, run_dir)?;
    write_kept(file, &measured)?;
    Ok(measured)
}

/// `measured`, the plan's measures kept from an earlier invocation, with the champion's
/// hash filled in (and what they were taken for) when the file predates them and the
/// champion is there to be hashed.
fn record_hash(
    plan: &Plan,
    measured: RunMeasures,
    run_dir: &Path,
    file: &Path,
) -> Result<RunMeasures, ExperimentError> {
    let champion = run_dir.join("champion.evo");
    if measured.champion_sha256.is_some() || !champion.is_file() {
        return Ok(measured);
    }
    let measured = RunMeasures {
        champion_sha256: Some(champion_sha256(&champion)?),
        taken_for: Some(plan.measures_key()),
        ..measured
    };
    write_kept(file, &measured)?;
    Ok(measured)
}

/// The settings `found` of a run carried on to `planned`'s budget if its own is smaller:
/// the run stands for one of `planned` settings exactly when these equal them, since
/// nothing in a run depends on its budget but where it stops (a step decaying over the
/// whole budget differs in `decay_generations`). A longer run is never cut short.
pub(crate) fn carried_on(found: &EvolveConfig, planned: &EvolveConfig) -> EvolveConfig {
    EvolveConfig {
        generations: found.generations.max(planned.generations),
        ..found.clone()
    }
}

/// Refuses a run directory whose run has other settings than the plan gives it (one
/// copied in by hand, say), naming the settings that differ: resuming it would report
/// another run's champion under the variant's name.
pub(crate) fn check_settings(
    run_dir: &Path,
    planned: &EvolveConfig,
    found: &EvolveConfig,
) -> Result<(), ExperimentError> {
    if planned == found {
        return Ok(());
    }
    let as_map = |config| match serde_json::to_value(config) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (planned, found) = (as_map(planned), as_map(found));
    let differing: Vec<String> = planned
        .iter()
        .filter(|&(key, value)| found.get(key) != Some(value))
        .map(|(key, value)| {
            let other = found.get(key).map_or("nothing".into(), |v| v.to_string());
            format!("{key} is {other}, the plan's {value}")
        })
        .collect();
    Err(ExperimentError::Directory(format!(
        "{} holds a run of other settings than the plan's: {}",
        run_dir.display(),
        differing.join("; ")
    )))
}

/// Every measure of the plan taken of the champion in `run_dir`.
fn measure<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    variant: &str,
    seed: u64,
    run_dir: &Path,
) -> Result<RunMeasures, ExperimentError> {
    let champion_file = run_dir.join("champion.evo");
    let champion = crate::champion::Champion::load_for(&champion_file, start)?;
    let mut measures = Vec::new();
    for benchmark in &plan.evaluation.benchmark {
        let record = play_benchmark(start, &champion_file, benchmark)?;
        measures.push(Measured {
            measure: benchmark.name(),
            value: record.win_rate,
            games: record.games,
        });
    }
    if let Some(league) = &plan.evaluation.league {
        let record = play_league(start, &champion_file, league)?;
        measures.push(Measured {
            measure: "league".to_string(),
            value: record.score(),
            games: record.games,
        });
    }
    Ok(RunMeasures {
        variant: variant.to_string(),
        seed,
        champion_generation: champion.generation,
        champion_sha256: Some(champion_sha256(&champion_file)?),
        measures,
        taken_for: Some(plan.measures_key()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::plan::PlanFile;
    use crate::games::othello::Othello;

    fn plan() -> Plan {
        let text = "game = \"othello\"\nseeds = [1]\n[base]\npreset = \"cmaes\"\n[variants.a]\n\
                    [[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 10\nseed = 777\n\
                    [[evaluation.benchmark]]\nopponent = \"wpc:1\"\ngames = 20\nseed = 777\n\
                    [evaluation.league]\ngames = 30\nseed = 777\n";
        PlanFile::parse(text)
            .unwrap()
            .resolve(&Othello::start())
            .unwrap()
    }

    fn measures(taken: &[(&str, usize)], taken_for: Option<String>) -> RunMeasures {
        RunMeasures {
            variant: "a".to_string(),
            seed: 1,
            champion_generation: 3,
            champion_sha256: None,
            measures: taken
                .iter()
                .map(|&(measure, games)| Measured {
                    measure: measure.to_string(),
                    value: 0.5,
                    games,
                })
                .collect(),
            taken_for,
        }
    }

    /// Evaluation files written before they said what they were taken for are the plan's
    /// when they hold exactly its measures: the same names, in order, the League's
    /// included, each of the plan's number of games.
    #[test]
    fn a_kept_evaluation_without_its_key_is_the_plans_when_it_holds_exactly_its_measures() {
        let plan = plan();
        let exact = [("vs heuristic:1", 10), ("vs wpc:1", 20), ("league", 30)];
        assert!(measures(&exact, None).measures_plan(&plan));
        assert!(measures(&exact, Some(plan.measures_key())).measures_plan(&plan));
        let refused: [&[(&str, usize)]; 4] = [
            &[("vs wpc:1", 20), ("vs heuristic:1", 10), ("league", 30)],
            &[("vs heuristic:1", 10), ("vs wpc:1", 20)],
            &[
                ("vs heuristic:1", 10),
                ("vs wpc:1", 20),
                ("league", 30),
                ("x", 2),
            ],
            &[("vs heuristic:1", 10), ("vs wpc:1", 20), ("league", 40)],
        ];
        for taken in refused {
            assert!(!measures(taken, None).measures_plan(&plan), "{taken:?}");
        }
        // A key says what they were taken for, whatever their names.
        assert!(!measures(&exact, Some("other".to_string())).measures_plan(&plan));
    }
}
