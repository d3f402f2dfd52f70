//! Why a file could not be read or written, each failure naming the file, with the exit
//! code the command line gives it (a bad file given to us, or a failed write).

use std::path::PathBuf;

use super::MAX_FILE_BYTES;

/// Why a file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PersistError {
    #[error("cannot read {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("cannot write {path}: {error}")]
    Write {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path} is not an evoboard file (bad magic bytes)")]
    NotEvo { path: PathBuf },
    #[error("{path} is larger than any evoboard file ({MAX_FILE_BYTES} bytes at most)")]
    TooLarge { path: PathBuf },
    #[error("{path} is truncated ({found} bytes, {expected} expected)")]
    Truncated {
        path: PathBuf,
        found: usize,
        expected: usize,
    },
    #[error("{path} is corrupt: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error(
        "{path} has format version {found}, newer than this build reads ({supported}): upgrade evoboard (or the file is damaged)"
    )]
    NewerVersion {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error(
        "{path} has format version {found}, written by an earlier evoboard that this build cannot continue"
    )]
    OlderVersion { path: PathBuf, found: u32 },
    #[error("{path} is a {found} file, a {expected} file is needed")]
    WrongKind {
        path: PathBuf,
        found: &'static str,
        expected: &'static str,
    },
    #[error("{path} holds a file of the game {}, not {expected}", .found.escape_debug())]
    WrongGame {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{path} cannot be played: {reason}")]
    Unplayable { path: PathBuf, reason: String },
}

impl PersistError {
    /// True when the file given to us is at fault (exit code 2), false for write failures.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, PersistError::Write { .. })
    }
}
