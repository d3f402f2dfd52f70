//! A sample's exact values on disk, so that measuring another agent, or the same one again,
//! costs only its moves. One JSON file per sample, named by a checksum of the sample's
//! description and holding that description, each position with the moves that reached
//! it. A file is used only if it is exactly the sample drawn again: the same description,
//! the same positions in the same order reached by the same moves, every legal move
//! valued once, no value beyond [`MAX_MARGIN`]. Any other file (damaged, crafted, of
//! another version) is not used, and is replaced.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{MAX_MARGIN, Sampled, ValuedPosition};
use crate::games::Notation;
use crate::persist::{read_limited, write_atomic};

/// Version of the file layout.
const FORMAT: u32 = 2;

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
    /// The moves from the sample's start that reached the position.
    line: Vec<String>,
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

/// The cached values of `sample`, whose positions are `drawn` from `start`, at `path`:
/// `Ok(None)` when there is no file.
pub fn load<G: Notation>(
    path: &Path,
    sample: &str,
    start: &G,
    drawn: &[Sampled<G>],
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
    if file.positions.len() != drawn.len() {
        return Err(corrupt(format!(
            "it holds {} positions where the sample has {}",
            file.positions.len(),
            drawn.len()
        )));
    }
    file.positions
        .iter()
        .zip(drawn)
        .enumerate()
        .map(|(k, (cached, sampled))| {
            let game = &sampled.game;
            let line = line_texts(start, &sampled.line);
            if cached.position != game.to_position_string() || cached.line != line {
                return Err(corrupt(format!(
                    "its position {} is not the sample's ({:?})",
                    k + 1,
                    game.to_position_string()
                )));
            }
            let values = valued_moves(game, &cached.moves).map_err(|reason| {
                corrupt(format!(
                    "position {} ({:?}): {reason}",
                    k + 1,
                    cached.position
                ))
            })?;
            Ok(ValuedPosition {
                game: game.clone(),
                line: sampled.line.clone(),
                values,
            })
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

/// The moves of `line`, played from `start`, each in the notation of the position it was
/// played in.
fn line_texts<G: Notation>(start: &G, line: &[G::Move]) -> Vec<String> {
    let mut game = start.clone();
    line.iter()
        .map(|&mv| {
            let text = game.format_move(mv);
            game.play_unchecked(mv);
            text
        })
        .collect()
}

/// `moves` read as the values of every legal move of `game`, each once, within
/// [`MAX_MARGIN`].
fn valued_moves<G: Notation>(
    game: &G,
    moves: &[(String, i32)],
) -> Result<Vec<(G::Move, i32)>, String> {
    let mut values: Vec<(G::Move, i32)> = Vec::with_capacity(moves.len());
    for (text, value) in moves {
        let mv = game
            .parse_move(text)
            .map_err(|e| format!("move {text:?}: {e}"))?;
        if values.iter().any(|&(seen, _)| seen == mv) {
            return Err(format!("move {text:?} is listed twice"));
        }
        if !(-MAX_MARGIN..=MAX_MARGIN).contains(value) {
            return Err(format!(
                "move {text:?} has the value {value}, beyond ±{MAX_MARGIN}"
            ));
        }
        values.push((mv, *value));
    }
    if values.len() != game.count_moves() {
        return Err(format!(
            "{} moves are valued where it has {}",
            values.len(),
            game.count_moves()
        ));
    }
    Ok(values)
}

/// Writes the values of `sample`, drawn from `start`, to `path` (atomically: a reader sees the old file or the
/// new one).
pub fn store<G: Notation>(
    path: &Path,
    sample: &str,
    start: &G,
    positions: &[ValuedPosition<G>],
) -> io::Result<()> {
    let file = CacheFile {
        format: FORMAT,
        sample: sample.to_string(),
        positions: positions
            .iter()
            .map(|p| CachedPosition {
                position: p.game.to_position_string(),
                line: line_texts(start, &p.line),
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
