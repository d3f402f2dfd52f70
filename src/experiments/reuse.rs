//! Runs taken over from other experiments (`evoboard experiment PLAN --reuse DIR`). Runs
//! are seeded, so a finished run of another experiment with the plan's settings for a
//! variant and seed is the run the plan would make: it is copied in rather than run again,
//! with its measures when the other plan measured alike. A run of the same settings and a
//! smaller budget is copied with its checkpoints and goes on from the last to the plan's
//! budget (see the runner), ending as a run begun with it would. A run whose champion is
//! absent (left out of the repository) is copied with its measures and recorded hash, and
//! its champion is rebuilt here when something needs it (see [`super::rebuild`]).

use std::path::{Path, PathBuf};

use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::EvolveConfig;
use crate::experiments::plan::{Plan, PlanFile, RunKind, RunSettings};
use crate::experiments::runner::{ExperimentDir, RunMeasures, carried_on};
use crate::experiments::{ExperimentError, read_kept, write_file, write_kept};
use crate::persist::{MAX_FILE_BYTES, read_limited};

/// Largest plan file read from another experiment.
const MAX_PLAN_BYTES: u64 = 1 << 20;

/// What [`Sources::reuse_runs`] took over.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reused {
    /// Runs copied in.
    pub runs: usize,
    /// Of those, runs whose measures came with them (the rest are measured here).
    pub measured: usize,
}

/// A finished run of another experiment that can stand for one of the plan's.
struct Found {
    run: RunDir,
    /// The measures file, if the other plan measured as this one does.
    measures: Option<PathBuf>,
    /// The checkpoints the run kept (the last one is what a run goes on from).
    checkpoints: Vec<PathBuf>,
    /// Whether the run has the plan's budget (else a smaller one, to go on from).
    exact: bool,
    generations: u32,
}

/// Other experiments whose runs a plan may take over, each known to be of the plan's game.
pub struct Sources {
    /// Each experiment's directory, and whether it took the plan's measures.
    dirs: Vec<(PathBuf, bool)>,
}

impl Sources {
    /// The experiments in `dirs`, refused (naming the directory) if one is not an
    /// experiment or is of another game.
    pub fn open(plan: &Plan, dirs: &[PathBuf]) -> Result<Sources, ExperimentError> {
        if plan.kind == RunKind::Distill && !dirs.is_empty() {
            return Err(ExperimentError::Directory(
                "only evolution runs are taken over from other experiments, not a distillation plan's fits".to_string(),
            ));
        }
        let dirs = dirs
            .iter()
            .map(|dir| Ok((dir.clone(), measures_alike(plan, dir)?)))
            .collect::<Result<_, ExperimentError>>()?;
        Ok(Sources { dirs })
    }

    /// Whether there is no experiment to take runs from.
    pub fn is_empty(&self) -> bool {
        self.dirs.is_empty()
    }

    /// Copies into `experiment` every run of `plan` it does not hold yet that one of the
    /// sources finished with the same settings (or with a smaller budget and a checkpoint to
    /// go on from). A run that brings its measures is preferred, then one of the plan's own
    /// budget, then the longest; among equals, the first found (sources in the order given,
    /// a source's variants by name).
    pub fn reuse_runs(
        &self,
        plan: &Plan,
        experiment: &ExperimentDir,
    ) -> Result<Reused, ExperimentError> {
        let mut reused = Reused::default();
        for &seed in &plan.seeds {
            for variant in &plan.variants {
                let target = experiment.run_dir(&variant.name, seed);
                if target.join("run.json").exists() {
                    continue;
                }
                let RunSettings::Evolve(planned) = variant.settings.with_seed(seed) else {
                    continue;
                };
                let found = self
                    .dirs
                    .iter()
                    .filter_map(|(source, alike)| best_match(source, *alike, seed, &planned))
                    .reduce(better);
                let Some(found) = found else { continue };
                let kept = match &found.measures {
                    Some(file) => read_kept::<RunMeasures>(file, "reuse that run")?,
                    None => None,
                };
                // A champion left out of the repository comes with its hash, to be rebuilt
                // here when needed; without one it could not be checked.
                let unrecorded = kept.as_ref().is_none_or(|k| k.champion_sha256.is_none());
                if !found.run.champion().exists() && found.checkpoints.is_empty() && unrecorded {
                    return Err(ExperimentError::Directory(format!(
                        "cannot reuse {}: it has no champion.evo, and its evaluation records no \
                         champion_sha256 to check one played again against",
                        found.run.dir.display()
                    )));
                }
                copy_run(&found, &target)?;
                reused.runs += 1;
                if let Some(measures) = kept {
                    // The same champion under this plan's name for its variant.
                    let measures = RunMeasures {
                        variant: variant.name.clone(),
                        ..measures
                    };
                    write_kept(&experiment.evaluation_file(&variant.name, seed), &measures)?;
                    reused.measured += 1;
                }
            }
        }
        Ok(reused)
    }
}

/// Whether the experiment in `source` is of the plan's game and took the plan's measures.
fn measures_alike(plan: &Plan, source: &Path) -> Result<bool, ExperimentError> {
    let refuse = |reason: String| {
        ExperimentError::Directory(format!("cannot reuse {}: {reason}", source.display()))
    };
    let copy = source.join("plan.toml");
    let bytes = read_limited(&copy, MAX_PLAN_BYTES)
        .map_err(|error| refuse(format!("no experiment's plan.toml there ({error})")))?;
    let text = String::from_utf8(bytes).map_err(|_| refuse("its plan.toml is not UTF-8".into()))?;
    let other = PlanFile::parse(&text).map_err(|error| refuse(format!("its plan: {error}")))?;
    if other.game != plan.game {
        return Err(refuse(format!(
            "it is an experiment of {}, not {}",
            other.game.escape_debug(),
            plan.game
        )));
    }
    Ok(other.evaluation == plan.evaluation)
}

/// The finished run of seed `seed` in the experiment `source` that can stand for a run of
/// `planned` settings, if there is one.
fn best_match(source: &Path, alike: bool, seed: u64, planned: &EvolveConfig) -> Option<Found> {
    let mut variants: Vec<PathBuf> = std::fs::read_dir(source.join("runs"))
        .ok()?
        .filter_map(|entry| Some(entry.ok()?.path()))
        .collect();
    variants.sort();
    variants
        .iter()
        .filter_map(|variant| {
            let name = variant.file_name()?.to_str()?;
            let run = RunDir {
                dir: variant.join(format!("seed-{seed}")),
            };
            let found = run.read_info().ok()?.config;
            // Only finished runs: their measures are written once the run is done.
            let evaluation = source
                .join("evaluations")
                .join(format!("{name}-seed-{seed}.json"));
            if !evaluation.is_file() {
                return None;
            }
            let checkpoints: Vec<PathBuf> = run
                .checkpoints()
                .into_iter()
                .map(|g| run.checkpoint(g))
                .collect();
            let has_checkpoint = !checkpoints.is_empty();
            let generations = found.generations;
            let exact = generations == planned.generations;
            // Measured alike, or able to go on from its checkpoint (to be measured here).
            let usable =
                carried_on(&found, planned) == *planned && (has_checkpoint || exact && alike);
            let measures = (exact && alike).then_some(evaluation);
            usable.then_some(Found {
                run,
                measures,
                checkpoints,
                exact,
                generations,
            })
        })
        .reduce(better)
}

/// `found` unless `other` is strictly better (see [`Sources::reuse_runs`]).
fn better(found: Found, other: Found) -> Found {
    let rank = |f: &Found| (f.measures.is_some(), f.exact, f.generations);
    if rank(&other) > rank(&found) {
        other
    } else {
        found
    }
}

/// Copies the run `found` into `target`: its checkpoints, statistics and champion, then
/// `run.json`, which marks the run as there.
fn copy_run(found: &Found, target: &Path) -> Result<(), ExperimentError> {
    let mut files = found.checkpoints.clone();
    files.extend(["stats.csv", "champion.evo", "run.json"].map(|f| found.run.dir.join(f)));
    for file in files.iter().filter(|file| file.is_file()) {
        let bytes = read_limited(file, MAX_FILE_BYTES).map_err(|error| {
            ExperimentError::Directory(format!("cannot read {}: {error}", file.display()))
        })?;
        let name = file.file_name().expect("a file name");
        write_file(&target.join(name), &bytes)?;
    }
    Ok(())
}
