//! Why a run could not start, continue or save: one error type for the whole module, with
//! the exit code the command line gives each (bad input or a fault of the machine).

use crate::arena::{OpeningError, SpecError};
use crate::nn::TopologyError;
use crate::persist::PersistError;

use super::config::ConfigError;

/// Why a run could not start, continue or save.
#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Topology(#[from] TopologyError),
    #[error(transparent)]
    Persist(#[from] PersistError),
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error("{0} already holds a run: resume it, or choose another directory for the new run")]
    RunExists(String),
    #[error(
        "{0} is not an empty directory and holds no run: a new run needs a new or empty directory (or resume a run)"
    )]
    NotEmpty(String),
    #[error(
        "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, or choose another directory"
    )]
    Locked { dir: String, holder: String },
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("{path} holds no evoboard run: its run.json cannot be read ({reason})")]
    NoRun { path: String, reason: String },
    #[error("{0}")]
    Resume(String),
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
    #[error(
        "the MPI processes computed different states after generation {0}: run the same evoboard build on every node"
    )]
    Diverged(u32),
    #[error(
        "generation {generation} produced unusable weights ({reason}): the run stops, its files as of generation {}; learning diverged (a smaller learning_rate may help)",
        generation - 1
    )]
    Unusable { generation: u32, reason: String },
    /// An agent gave up a game the run scores (an external engine that failed): counting
    /// it as a result would make the run's numbers lie.
    #[error(
        "{during}: {reason}; a game an agent gave up is not scored, so the run stops, its files as of its last finished generation (resume it once the agent works)"
    )]
    Forfeited { during: String, reason: String },
    /// A stop was asked for ([`crate::interrupt`]); the files are those of the generation
    /// named.
    #[error("interrupted after generation {0}")]
    Interrupted(u32),
}

impl EvolveError {
    /// True when the user's input is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        match self {
            EvolveError::Persist(e) => e.is_bad_input(),
            EvolveError::Write { .. }
            | EvolveError::Diverged(_)
            | EvolveError::Unusable { .. }
            | EvolveError::Forfeited { .. }
            | EvolveError::Interrupted(_) => false,
            _ => true,
        }
    }
}
