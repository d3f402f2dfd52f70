//! Champions rebuilt on demand. The repository keeps only the champions something reads;
//! every other run's champion is recorded by its SHA-256 ([`super::recorded`]). When a
//! finished run's champion is absent and needed (a measure not yet taken of it, the
//! held-out test, a round robin, another run's `start_from`), the run is played again from
//! its `run.json` in a scratch directory, and the champion it ends with must hash as
//! recorded before it takes the absent one's place. A finished and measured run needs
//! nothing rebuilt.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::eval::NamedEvaluators;
use crate::evolve::Evolution;
use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::EvolveConfig;
use crate::experiments::runner::{ExperimentObserver, RunLabel, RunMeasures, RunObserver};
use crate::experiments::{ExperimentError, read_kept, write_file};
use crate::persist::sha256_hex;
use crate::persist::{MAX_FILE_BYTES, read_limited};

/// How many runs deep a chain of `start_from` champions is rebuilt (a run whose start
/// is a champion rebuilt from a run whose start is another, ...).
const MAX_START_CHAIN: usize = 8;

/// A directory of the system's temporary directory, removed with everything in it when
/// dropped (also when the work in it failed or was interrupted).
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// A new, empty scratch directory.
    pub fn new() -> Result<Scratch, ExperimentError> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        let number = MADE.fetch_add(1, Ordering::Relaxed);
        let dir =
            std::env::temp_dir().join(format!("evoboard-rebuild-{}-{number}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|error| {
            ExperimentError::Directory(format!("cannot create {}: {error}", dir.display()))
        })?;
        Ok(Scratch { dir })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Plays the run recorded in `run_dir` (its `run.json`: the game and every setting, the
/// seed and the budget it ended with) again from the start in a scratch directory, and
/// returns its champion's bytes. `run_dir` is only read; progress goes to `observer` as
/// `run`'s. A `start_from` champion that is absent is rebuilt first.
pub fn replay<G: NamedEvaluators>(
    start: &G,
    run_dir: &Path,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
) -> Result<Vec<u8>, ExperimentError> {
    replay_within(start, run_dir, run, observer, 0)
}

fn replay_within<G: NamedEvaluators>(
    start: &G,
    run_dir: &Path,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
    depth: usize,
) -> Result<Vec<u8>, ExperimentError> {
    let info = RunDir {
        dir: run_dir.to_path_buf(),
    }
    .read_info()?;
    if info.game != start.name() {
        return Err(ExperimentError::Directory(format!(
            "{} is a run of {}, not {}",
            run_dir.display(),
            info.game.escape_debug(),
            start.name()
        )));
    }
    start_from_within(start, &info.config, observer, depth)?;
    let scratch = Scratch::new()?;
    let mut evolution = Evolution::create(start.clone(), info.config, scratch.path())?;
    observer.run_started(run, 0);
    evolution.run(&RunObserver { run, observer })?;
    drop(evolution);
    let champion = scratch.path().join("champion.evo");
    read_limited(&champion, MAX_FILE_BYTES).map_err(|error| {
        ExperimentError::Directory(format!(
            "the run of {} played again left no champion ({error})",
            run_dir.display()
        ))
    })
}

/// Makes sure `run_dir`, a finished run, holds its champion: if absent, the run is played
/// again ([`replay`]) and its champion written there once it hashes as `recorded`, the
/// hash its evaluation keeps. Refused when the champion is absent and no hash is recorded.
pub fn ensure_champion<G: NamedEvaluators>(
    start: &G,
    run_dir: &Path,
    recorded: Option<&str>,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
) -> Result<(), ExperimentError> {
    ensure_within(start, run_dir, recorded, run, observer, 0)
}

fn ensure_within<G: NamedEvaluators>(
    start: &G,
    run_dir: &Path,
    recorded: Option<&str>,
    run: RunLabel,
    observer: &dyn ExperimentObserver,
    depth: usize,
) -> Result<(), ExperimentError> {
    let champion = run_dir.join("champion.evo");
    if champion.exists() {
        return Ok(());
    }
    let Some(recorded) = recorded else {
        return Err(ExperimentError::Directory(format!(
            "{} has no champion.evo, and its evaluation records no champion_sha256 to check \
             one played again against",
            run_dir.display()
        )));
    };
    if depth > MAX_START_CHAIN {
        return Err(ExperimentError::Directory(format!(
            "{}: more than {MAX_START_CHAIN} runs to play again, each the start of the next",
            run_dir.display()
        )));
    }
    observer.rebuilding(run, recorded);
    let bytes = replay_within(start, run_dir, run, observer, depth + 1)?;
    let rebuilt = sha256_hex(&bytes);
    if rebuilt != recorded {
        return Err(ExperimentError::NotReproduced {
            run: run_dir.display().to_string(),
            recorded: recorded.to_string(),
            rebuilt,
        });
    }
    write_file(&champion, &bytes)
}

/// Makes sure the champion a run of `config` starts from is there: one absent that is the
/// champion of an experiment's finished run (`DIR/runs/VARIANT/seed-S/champion.evo`, with
/// its evaluation in `DIR/evaluations`) is rebuilt there ([`ensure_champion`]). Any other
/// absent file is left for the run to refuse.
pub fn ensure_start_from<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    observer: &dyn ExperimentObserver,
) -> Result<(), ExperimentError> {
    start_from_within(start, config, observer, 0)
}

fn start_from_within<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    observer: &dyn ExperimentObserver,
    depth: usize,
) -> Result<(), ExperimentError> {
    let Some(path) = config.start_from.as_deref().map(Path::new) else {
        return Ok(());
    };
    if path.exists() {
        return Ok(());
    }
    let Some((experiment, variant, seed)) = experiment_run(path) else {
        return Ok(());
    };
    let evaluation = experiment
        .join("evaluations")
        .join(format!("{variant}-seed-{seed}.json"));
    let Some(measured) = read_kept::<RunMeasures>(&evaluation, "rebuild that champion")? else {
        return Ok(());
    };
    let name = format!(
        "{}/{variant}",
        experiment.file_name().unwrap_or_default().to_string_lossy()
    );
    let run = RunLabel {
        index: 0,
        total: 1,
        variant: &name,
        seed,
    };
    let run_dir = path.parent().expect("a champion sits in its run");
    let recorded = measured.champion_sha256.as_deref();
    ensure_within(start, run_dir, recorded, run, observer, depth)
}

/// The experiment's directory, the variant and the seed of a champion's path of the form
/// `DIR/runs/VARIANT/seed-S/champion.evo`.
fn experiment_run(path: &Path) -> Option<(PathBuf, String, u64)> {
    if path.file_name()? != "champion.evo" {
        return None;
    }
    let run = path.parent()?;
    let seed = run
        .file_name()?
        .to_str()?
        .strip_prefix("seed-")?
        .parse()
        .ok()?;
    let variant = run.parent()?;
    let runs = variant.parent()?;
    if runs.file_name()? != "runs" {
        return None;
    }
    let experiment = runs.parent()?.to_path_buf();
    Some((experiment, variant.file_name()?.to_str()?.to_string(), seed))
}

#[cfg(test)]
mod tests {
    use super::experiment_run;
    use std::path::Path;

    #[test]
    fn an_experiments_champion_is_known_by_its_path() {
        let path = Path::new(
            "experiments/results/othello-league/runs/learn-exploring/seed-3/champion.evo",
        );
        assert_eq!(
            experiment_run(path),
            Some((
                "experiments/results/othello-league".into(),
                "learn-exploring".to_string(),
                3
            ))
        );
        for other in [
            "populations/othello/champion.evo",
            "x/runs/v/seed-3/teacher.evo",
            "x/runs/v/seed-three/champion.evo",
            "x/other/v/seed-3/champion.evo",
        ] {
            assert_eq!(experiment_run(Path::new(other)), None, "{other}");
        }
    }
}
