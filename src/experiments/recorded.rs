//! Champions recorded by hash. Runs are seeded, so a run's champion is its settings and
//! seed played again: an experiment records the SHA-256 of each champion's bytes (in its
//! evaluation file, `results.csv` and `held-out.json`), so the repository need not keep
//! every champion, and one played again can be checked to be the one that was measured.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::experiments::ExperimentError;
use crate::persist::{MAX_FILE_BYTES, read_limited};

/// The SHA-256 of `bytes`, in lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

/// The SHA-256 of the champion file `file`.
pub fn champion_sha256(file: &Path) -> Result<String, ExperimentError> {
    let bytes = read_limited(file, MAX_FILE_BYTES).map_err(|error| {
        ExperimentError::Directory(format!("cannot read {}: {error}", file.display()))
    })?;
    Ok(sha256_hex(&bytes))
}

#[cfg(test)]
mod tests {
    use super::sha256_hex;

    #[test]
    fn the_hash_is_sha256_in_lower_case_hex() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
