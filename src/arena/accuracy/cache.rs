//! A sample's exact values on disk, so that measuring another agent, or the same one again,
//! costs only its moves. One JSON file per sample, named by a checksum of the sample's
//! description and holding that description: a file whose description differs, that does
//! not parse, or whose positions or moves do not read back, is not used (and is replaced).

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ValuedPosition;
use crate::games::Notation;
use crate::persist::{read_limited, write_atomic};

/// Version of the file layout.
const FORMAT: u32 = 1;

/// Largest cache file read: a sample of 100,000 positions takes a few tens of MB.
pub const MAX_CACHE_BYTES: u64 = 256 << 20;

#[derive(Serialize, Deserialize)]
struct CacheFile {
    format: u32,
    sample: String,
    positions: Vec<CachedPosition>,
}

#[derive(Serialize, Deserialize)]
struct CachedPosition {
    position: String,
    /// Each legal move and the final margin for the mover after it.
    moves: Vec<(String, i32)>,
}

/// Why a cache file was not used.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: io::Error },
    #[error("{path} is not a cache of exact values: {reason}")]
    Corrupt { path: PathBuf, reason: String },
    #[error("{path} holds another sample ({found})")]
    OtherSample { path: PathBuf, found: String },
}

/// The file under `dir` for the sample described by `sample`.
pub fn path(dir: &Path, sample: &str) -> PathBuf {
    dir.join(format!(
        "accuracy-{:08x}.json",
        crc32fast::hash(sample.as_bytes())
    ))
}

/// The cached values of `sample` at `path`: `Ok(None)` when there is no file.
pub fn load<G: Notation>(
    path: &Path,
    sample: &str,
) -> Result<Option<Vec<ValuedPosition<G>>>, CacheError> {
    let bytes = match read_limited(path, MAX_CACHE_BYTES) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(CacheError::Read {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let corrupt = |reason: String| CacheError::Corrupt {
        path: path.to_path_buf(),
        reason,
    };
    let file: CacheFile = serde_json::from_slice(&bytes).map_err(|e| corrupt(e.to_string()))?;
    if file.format != FORMAT {
        return Err(corrupt(format!(
            "format {}, where this version reads {FORMAT}",
            file.format
        )));
    }
    if file.sample != sample {
        return Err(CacheError::OtherSample {
            path: path.to_path_buf(),
            found: file.sample,
        });
    }
    file.positions
        .iter()
        .map(|cached| {
            let game = G::from_position_string(&cached.position)
                .map_err(|e| corrupt(format!("position {:?}: {e}", cached.position)))?;
            let values = cached
                .moves
                .iter()
                .map(|(text, value)| {
                    let mv = game
                        .parse_move(text)
                        .map_err(|e| corrupt(format!("move {text:?}: {e}")))?;
                    Ok((mv, *value))
                })
                .collect::<Result<Vec<_>, CacheError>>()?;
            if values.len() != game.count_moves() {
                return Err(corrupt(format!(
                    "position {:?} has {} moves, not {}",
                    cached.position,
                    game.count_moves(),
                    values.len()
                )));
            }
            Ok(ValuedPosition { game, values })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// Writes the values of `sample` to `path` (atomically: a reader sees the old file or the
/// new one).
pub fn store<G: Notation>(
    path: &Path,
    sample: &str,
    positions: &[ValuedPosition<G>],
) -> io::Result<()> {
    let file = CacheFile {
        format: FORMAT,
        sample: sample.to_string(),
        positions: positions
            .iter()
            .map(|p| CachedPosition {
                position: p.game.to_position_string(),
                moves: p
                    .values
                    .iter()
                    .map(|&(mv, value)| (p.game.format_move(mv), value))
                    .collect(),
            })
            .collect(),
    };
    let text = serde_json::to_vec(&file).map_err(io::Error::other)?;
    write_atomic(path, &text)
}
