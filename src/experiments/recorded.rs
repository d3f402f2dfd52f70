//! Champions recorded by hash. Runs are seeded, so a run's champion is its settings and
//! seed played again: an experiment records the SHA-256 of each champion's bytes (in its
//! evaluation file, `results.csv` and `held-out.json`), so the repository need not keep
//! every champion, and one played again can be checked to be the one that was measured.

use std::path::Path;

use crate::experiments::ExperimentError;
use crate::persist::{MAX_FILE_BYTES, read_limited, sha256_hex};

/// The SHA-256 of the champion file `file`.
pub fn champion_sha256(file: &Path) -> Result<String, ExperimentError> {
    let bytes = read_limited(file, MAX_FILE_BYTES).map_err(|error| {
        ExperimentError::Directory(format!("cannot read {}: {error}", file.display()))
    })?;
    Ok(sha256_hex(&bytes))
}
