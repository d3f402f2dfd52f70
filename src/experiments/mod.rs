//! Experiments run whole. Plans of the user's (`plan`, `runner`, `results`): variants of a
//! run's settings over seeds, every champion measured, and summaries a reader can quote;
//! how far each plan of the repository has been run (`status`).
//! And the source papers' studies: the Congkak report's question whether a network as
//! forward pruning speeds up minimax (`prune`), and Gifford et al.'s (2008) ranking of every
//! combination of Kalah's heuristics (`gifford`). The commands print what these return.

pub mod figures;
pub mod fits;
pub mod generations;
pub mod gifford;
pub mod glance;
pub mod held_out;
pub mod measures;
pub mod plan;
pub mod prune;
pub mod ratings;
pub mod rebuild;
pub mod recorded;
pub mod results;
pub mod reuse;
pub mod runner;
pub mod seed_roles;
pub mod status;
pub mod verify;

use std::path::PathBuf;

use crate::arena::{OpeningError, SpecError};
use crate::evolve::EvolveError;
use crate::persist::PersistError;

/// Why an experiment could not run.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error("plan: {0}")]
    Plan(#[from] plan::PlanError),
    /// The experiment's directory cannot hold this experiment.
    #[error("{0}")]
    Directory(String),
    #[error(transparent)]
    Evolve(#[from] EvolveError),
    #[error(transparent)]
    Distill(#[from] crate::learn::distill::DistillError),
    #[error(transparent)]
    Champion(#[from] PersistError),
    #[error(transparent)]
    Rating(#[from] crate::statistics::RatingError),
    /// A run failed (on whichever process ran it, so the error travels as its message).
    #[error("run {variant}, seed {seed}: {message}")]
    Run {
        variant: String,
        seed: u64,
        message: String,
        bad_input: bool,
    },
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    /// An agent gave up a game of a measure (an external engine that failed): the measure
    /// is not recorded, and the experiment stops (resuming measures again).
    #[error(
        "{measure}: {forfeits}; a measure with a forfeited game is not recorded, so the experiment stops (resume it once the agent works)"
    )]
    Forfeited { measure: String, forfeits: String },
    /// A champion played again from its run's settings hashes otherwise than the one
    /// recorded when it was measured: the run no longer reproduces.
    #[error(
        "the champion of {run} played again hashes {rebuilt}, not the recorded {recorded}: the run does not reproduce"
    )]
    NotReproduced {
        run: String,
        recorded: String,
        rebuilt: String,
    },
    /// A stop was asked for ([`crate::interrupt`]) before this run started.
    #[error("interrupted before run {variant}, seed {seed}")]
    Interrupted { variant: String, seed: u64 },
}

impl ExperimentError {
    /// True when the plan, the agents it names or the directory given are at fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            ExperimentError::Spec(_)
            | ExperimentError::Openings(_)
            | ExperimentError::Plan(_)
            | ExperimentError::Directory(_) => true,
            ExperimentError::Evolve(error) => error.is_bad_input(),
            ExperimentError::Distill(error) => error.is_bad_input(),
            ExperimentError::Run { bad_input, .. } => *bad_input,
            ExperimentError::Champion(_)
            | ExperimentError::Rating(_)
            | ExperimentError::Write { .. }
            | ExperimentError::Forfeited { .. }
            | ExperimentError::NotReproduced { .. }
            | ExperimentError::Interrupted { .. } => false,
        }
    }
}

/// The result an earlier invocation kept in `file` (a JSON file of the experiment's),
/// if there is one; a damaged one is an error saying to delete it, which `redo` names.
fn read_kept<T: serde::de::DeserializeOwned>(
    file: &std::path::Path,
    redo: &str,
) -> Result<Option<T>, ExperimentError> {
    if !file.exists() {
        return Ok(None);
    }
    let bytes = crate::persist::read_limited(file, MAX_KEPT_BYTES).map_err(|error| {
        ExperimentError::Directory(format!("cannot read {}: {error}", file.display()))
    })?;
    serde_json::from_slice(&bytes).map(Some).map_err(|error| {
        ExperimentError::Directory(format!(
            "{} is damaged ({error}): delete it to {redo}",
            file.display()
        ))
    })
}

/// Keeps `value` in `file` as JSON, for a later invocation to read back.
fn write_kept<T: serde::Serialize>(
    file: &std::path::Path,
    value: &T,
) -> Result<(), ExperimentError> {
    let mut text = serde_json::to_string_pretty(value).expect("plain data serialises");
    text.push('\n');
    write_file(file, text.as_bytes())
}

/// Largest kept result read back (a round robin of thousands of champions fits).
const MAX_KEPT_BYTES: u64 = 1 << 24;

/// Writes `bytes` to `path` atomically (directories made as needed).
fn write_file(path: &std::path::Path, bytes: &[u8]) -> Result<(), ExperimentError> {
    crate::persist::write_atomic(path, bytes).map_err(|error| ExperimentError::Write {
        path: path.to_path_buf(),
        error,
    })
}
