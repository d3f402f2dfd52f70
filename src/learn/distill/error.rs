//! Why a fit could not begin, continue or save, sorted into the user's fault (bad input)
//! and the machine's.

use crate::learn::distill::settings::SettingError;
use crate::persist::{LockError, PersistError};

/// Why a fit could not begin, continue or save.
#[derive(Debug, thiserror::Error)]
pub enum DistillError {
    /// A setting's value cannot be fitted (a bound, or openings that end the games).
    #[error(transparent)]
    Setting(#[from] SettingError),
    /// A file a setting names cannot be read as a champion of the game.
    #[error("{setting}: {error}")]
    File {
        setting: &'static str,
        error: PersistError,
    },
    /// The fit's own files cannot be read or written.
    #[error(transparent)]
    Persist(#[from] PersistError),
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{0} already holds a fit: resume it, or choose another directory")]
    Exists(String),
    #[error("no fit to resume in {dir}: {reason}")]
    NoFit { dir: String, reason: String },
    /// A fit's `stats.csv` cannot be read back.
    #[error("cannot read {path}: {reason}")]
    Stats { path: String, reason: String },
    /// The directory holds a fit of other settings (or of another game).
    #[error("{dir} holds a fit of other settings: {differing}")]
    Other { dir: String, differing: String },
    /// A stop was asked for ([`crate::interrupt`]) after this many epochs.
    #[error("interrupted after epoch {0}")]
    Interrupted(u32),
}

impl DistillError {
    /// True when the user's input is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        match self {
            DistillError::File { error, .. } | DistillError::Persist(error) => error.is_bad_input(),
            DistillError::Lock(error) => matches!(error, LockError::Held { .. }),
            DistillError::Interrupted(_) => false,
            DistillError::Setting(_)
            | DistillError::Exists(_)
            | DistillError::NoFit { .. }
            | DistillError::Stats { .. }
            | DistillError::Other { .. } => true,
        }
    }
}
