//! An experiment proving itself (`evoboard experiment PLAN --verify`): some of its finished
//! runs, chosen reproducibly by a seed among those whose champion is recorded by hash, are
//! played again from their `run.json` in a scratch directory, and each champion's SHA-256
//! is compared with the recorded one. The experiment's directory is only read.

use std::time::Instant;

use rand::RngExt as _;

use crate::eval::NamedEvaluators;
use crate::evolve::checkpoint::RunDir;
use crate::experiments::fits::finish_fit;
use crate::experiments::plan::{Plan, RunSettings};
use crate::experiments::rebuild::{Scratch, replay};
use crate::experiments::runner::{
    ExperimentDir, ExperimentObserver, RunLabel, RunMeasures, carried_on, check_settings,
};
use crate::experiments::{ExperimentError, read_kept};
use crate::persist::sha256_hex;

/// One run played again: the hash its evaluation records and the one its champion has now.
#[derive(Clone, Debug, PartialEq)]
pub struct Verified {
    pub variant: String,
    pub seed: u64,
    pub recorded: String,
    pub rebuilt: String,
    /// Wall-clock seconds the run took to play again.
    pub seconds: f64,
}

impl Verified {
    pub fn matches(&self) -> bool {
        self.recorded == self.rebuilt
    }
}

/// The plan's finished runs (those with an evaluation file), in plan order.
pub fn finished_runs(
    plan: &Plan,
    experiment: &ExperimentDir,
) -> Result<Vec<RunMeasures>, ExperimentError> {
    let mut runs = Vec::new();
    for &seed in &plan.seeds {
        for variant in &plan.variants {
            let file = experiment.evaluation_file(&variant.name, seed);
            if let Some(measured) = read_kept::<RunMeasures>(&file, "measure that run again")? {
                runs.push(measured);
            }
        }
    }
    Ok(runs)
}

/// `count` of the indices `0..of` (all of them if there are no more), drawn without
/// replacement by `seed`, in increasing order.
pub fn choose(count: usize, of: usize, seed: u64) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..of).collect();
    let mut rng = crate::rng::rng_for(seed, &[]);
    let count = count.min(of);
    for k in 0..count {
        let other = rng.random_range(k..of);
        indices.swap(k, other);
    }
    let mut chosen = indices[..count].to_vec();
    chosen.sort_unstable();
    chosen
}

/// Plays the run of `measured` again (labelled `run` for `observer`) after checking that
/// its `run.json` holds the plan's settings for it, and compares its champion's hash with
/// the recorded one.
pub fn verify_run<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    experiment: &ExperimentDir,
    measured: &RunMeasures,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
) -> Result<Verified, ExperimentError> {
    let Some(recorded) = measured.champion_sha256.clone() else {
        return Err(ExperimentError::Directory(format!(
            "run {}, seed {}: its evaluation records no champion_sha256 to compare with",
            measured.variant, measured.seed
        )));
    };
    let variant = plan
        .variants
        .iter()
        .find(|variant| variant.name == measured.variant)
        .ok_or_else(|| {
            ExperimentError::Directory(format!(
                "{}: no variant of the plan is named so",
                measured.variant
            ))
        })?;
    let run_dir = experiment.run_dir(&variant.name, measured.seed);
    let clock = Instant::now();
    let bytes = match variant.settings.with_seed(measured.seed) {
        RunSettings::Evolve(planned) => {
            let found = RunDir {
                dir: run_dir.clone(),
            }
            .read_info()?
            .config;
            check_settings(&run_dir, &planned, &carried_on(&found, &planned))?;
            replay(start, &run_dir, run, observer)?
        }
        // A fit is made again from the plan's settings for its seed.
        RunSettings::Distill(settings) => {
            let scratch = Scratch::new()?;
            finish_fit(start, &settings, scratch.path(), run, observer)?;
            crate::persist::read_limited(&scratch.path().join("champion.evo"), 1 << 30).map_err(
                |error| {
                    ExperimentError::Directory(format!(
                        "the fit of {} made again left no champion ({error})",
                        run_dir.display()
                    ))
                },
            )?
        }
    };
    Ok(Verified {
        variant: variant.name.clone(),
        seed: measured.seed,
        recorded,
        rebuilt: sha256_hex(&bytes),
        seconds: clock.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn runs_are_chosen_without_replacement_and_the_same_for_a_seed() {
        let chosen = choose(3, 10, 1);
        assert_eq!(chosen.len(), 3);
        assert!(
            chosen.windows(2).all(|pair| pair[0] < pair[1]),
            "{chosen:?}"
        );
        assert!(chosen.iter().all(|&k| k < 10));
        assert_eq!(choose(3, 10, 1), chosen);
        let others: Vec<Vec<usize>> = (2..12).map(|seed| choose(3, 10, seed)).collect();
        assert!(others.iter().any(|other| *other != chosen), "{others:?}");
        assert_eq!(choose(5, 2, 1), vec![0, 1]);
        assert!(choose(2, 0, 1).is_empty());
    }
}
