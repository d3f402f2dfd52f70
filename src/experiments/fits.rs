//! The runs of a distillation plan (`kind = "distill"`): each run a fit in its run
//! directory (`learn::distill::run`), begun or continued to its end, its epochs reported
//! to the experiment's observer; the disk they take; and the plan's learning curves, the
//! mean validation loss per epoch over seeds, read from the fits' `stats.csv`.

use std::collections::BTreeMap;
use std::path::Path;

use crate::eval::NamedEvaluators;
use crate::experiments::ExperimentError;
use crate::experiments::plan::Plan;
use crate::experiments::results::{CurvePoint, mean_curve};
use crate::experiments::runner::{ExperimentDir, ExperimentObserver, RunLabel};
use crate::learn::distill::run::{FitDir, epochs_done, read_fit_stats};
use crate::learn::distill::{Begin, DistillSettings, FitObserver, FitRow, run_fit};
use crate::nn::Topology;

/// An experiment's observer as one of its fits sees it.
struct FitProgress<'a> {
    run: RunLabel<'a>,
    observer: &'a dyn ExperimentObserver,
}

impl FitObserver for FitProgress<'_> {
    fn epoch_done(&self, row: &FitRow, epochs: u32, seconds: f64) {
        self.observer.epoch_done(self.run, row, epochs, seconds);
    }
}

/// Begins or continues the fit of `settings` (the run's own seed set) in `run_dir` and
/// fits it to its last epoch; a finished fit is left as it is. A directory holding a fit
/// of other settings is refused, naming them.
pub fn finish_fit<G: NamedEvaluators>(
    start: &G,
    settings: &DistillSettings,
    run_dir: &Path,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
) -> Result<(), ExperimentError> {
    let done = epochs_done(start, run_dir)?;
    observer.run_started(run, done);
    let progress = FitProgress { run, observer };
    run_fit(start, settings, run_dir, Begin::NewOrResume, &progress)?;
    Ok(())
}

/// Files of a fit besides its networks (distill.json, stats.csv, its evaluation), a bound.
const TEXT_FILES_BYTES: u64 = 64 << 10;

/// A bound on the disk one fit of `settings` takes: its champion, its state (the weights
/// and Adam's two moments) and its text files.
pub fn disk_bound<G: NamedEvaluators>(start: &G, settings: &DistillSettings) -> u64 {
    let genes = Topology::new(&[start.input_len(), usize::from(settings.hidden), 1])
        .map_or(0, |topology| topology.genes() as u64);
    genes * 4 * 4 + TEXT_FILES_BYTES
}

/// Every variant's mean validation loss per epoch (epoch 0: the start's), over the seeds
/// whose fits have a `stats.csv`.
pub fn learning_curves(
    plan: &Plan,
    experiment: &ExperimentDir,
) -> Result<Vec<CurvePoint>, ExperimentError> {
    let mut points = Vec::new();
    for variant in &plan.variants {
        let mut by_epoch: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        for &seed in &plan.seeds {
            let files = FitDir {
                dir: experiment.run_dir(&variant.name, seed),
            };
            if !files.stats().exists() {
                continue;
            }
            for row in read_fit_stats(&files.stats())? {
                by_epoch
                    .entry(row.epoch)
                    .or_default()
                    .push(row.validation_loss.0);
            }
        }
        points.extend(mean_curve(&variant.name, by_epoch));
    }
    Ok(points)
}
