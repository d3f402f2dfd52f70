//! Files that survive faults: versioned, checksummed containers written atomically.
//! All binary encoding goes through this module (bincode 2 today), so it can be swapped.
//!
//! Layout of an `.evo` file, integers little-endian:
//! `EVOBOARD` (8 bytes) · format version (u32) · kind (u8) · game name length (u8) ·
//! game name · payload length (u64) · payload (bincode) · CRC-32 of everything before (u32).

mod atomic;
mod bounded;
mod lines;

pub use atomic::{remove_stale_temp_files, write_atomic};
pub use bounded::{open_regular, read_limited};
pub use lines::{LineRead, MAX_LINE_BYTES, read_text_line};

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

/// First bytes of every `.evo` file.
pub const MAGIC: &[u8; 8] = b"EVOBOARD";
/// The format version this build writes for each kind of file (see [`FileKind::version`]).
/// Version 2 added network families to champions and checkpoints; version 3 added CMA-ES,
/// sparring fitness and bounded steps to checkpoints (champions are laid out as in
/// version 2); version 4, of checkpoints only, added TD(λ)'s λ to a run's settings;
/// version 5, of checkpoints only, the snapshots a run keeps. Champions of every earlier
/// version load; checkpoints only of their current one (their settings are laid out field
/// by field, so a new setting moves every later byte).
pub const CHECKPOINT_VERSION: u32 = 5;
/// See [`CHECKPOINT_VERSION`]: champions are still written as version 3, so that files of
/// the same network stay byte for byte the same.
pub const CHAMPION_VERSION: u32 = 3;

/// The largest `.evo` file read. The largest run this build writes (CMA-ES over the 167,463-weight
/// n-tuple network, or an MLP population at the population cap) is far below it; anything
/// larger is refused unread.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// The most memory a decode may claim for its containers: a crafted length inside an intact
/// file is refused instead of allocated.
const DECODE_LIMIT: usize = 1 << 30;

/// What an `.evo` file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// The full state of an evolution run after a generation.
    Checkpoint = 1,
    /// One evolved network with what is needed to play it.
    Champion = 2,
}

impl FileKind {
    /// The format version this build writes for files of this kind.
    pub fn version(self) -> u32 {
        match self {
            FileKind::Checkpoint => CHECKPOINT_VERSION,
            FileKind::Champion => CHAMPION_VERSION,
        }
    }

    fn from_byte(byte: u8) -> Option<FileKind> {
        match byte {
            1 => Some(FileKind::Checkpoint),
            2 => Some(FileKind::Champion),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            FileKind::Checkpoint => "checkpoint",
            FileKind::Champion => "champion",
        }
    }
}

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

/// Encodes `value` as a `kind` file for `game`.
pub fn encode<T: Serialize>(kind: FileKind, game: &str, value: &T) -> Vec<u8> {
    let payload = bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("in-memory serialisation of plain data cannot fail");
    let name = game.as_bytes();
    let mut bytes = Vec::with_capacity(payload.len() + name.len() + 32);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&kind.version().to_le_bytes());
    bytes.push(kind as u8);
    bytes.push(u8::try_from(name.len()).expect("game names are short"));
    bytes.extend_from_slice(name);
    bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&payload);
    let checksum = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    bytes
}

/// Decodes a `kind` file of the current format for `game` from `bytes` (read from `path`,
/// named in errors).
pub fn decode<T: DeserializeOwned>(
    path: &Path,
    bytes: &[u8],
    kind: FileKind,
    game: &str,
) -> Result<T, PersistError> {
    let (version, payload) = open(path, bytes, kind, game)?;
    if version != kind.version() {
        return Err(PersistError::OlderVersion {
            path: path.to_path_buf(),
            found: version,
        });
    }
    decode_payload(path, payload)
}

/// Checks a `kind` container for `game` (magic, version, kind, game, length, checksum) and
/// returns its format version and payload, for readers that handle older versions.
pub fn open<'b>(
    path: &Path,
    bytes: &'b [u8],
    kind: FileKind,
    game: &str,
) -> Result<(u32, &'b [u8]), PersistError> {
    let path_buf = || path.to_path_buf();
    let truncated = |expected: usize| PersistError::Truncated {
        path: path_buf(),
        found: bytes.len(),
        expected,
    };
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(PersistError::NotEvo { path: path_buf() });
    }
    let mut cursor = MAGIC.len();
    let mut take = |n: usize| -> Result<&[u8], PersistError> {
        let slice = bytes.get(cursor..cursor + n).ok_or(truncated(cursor + n))?;
        cursor += n;
        Ok(slice)
    };
    let version = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    if version == 0 {
        return Err(PersistError::Corrupt {
            path: path_buf(),
            reason: "format version 0 does not exist".to_string(),
        });
    }
    // Past every kind's version the header itself may have changed: stop before reading it.
    let newest = CHECKPOINT_VERSION.max(CHAMPION_VERSION);
    if version > newest {
        return Err(PersistError::NewerVersion {
            path: path_buf(),
            found: version,
            supported: newest,
        });
    }
    let kind_byte = take(1)?[0];
    let name_len = usize::from(take(1)?[0]);
    let name = String::from_utf8_lossy(take(name_len)?).into_owned();
    let payload_len = u64::from_le_bytes(take(8)?.try_into().expect("8 bytes"));
    let payload_len = usize::try_from(payload_len).unwrap_or(usize::MAX);
    let header_len = cursor;
    let expected = header_len.saturating_add(payload_len).saturating_add(4);
    if bytes.len() < expected {
        return Err(truncated(expected));
    }
    if bytes.len() > expected {
        return Err(PersistError::Corrupt {
            path: path_buf(),
            reason: format!("{} unexpected bytes after the end", bytes.len() - expected),
        });
    }
    let body = &bytes[..expected - 4];
    let stored = u32::from_le_bytes(bytes[expected - 4..].try_into().expect("4 bytes"));
    if crc32fast::hash(body) != stored {
        return Err(PersistError::Corrupt {
            path: path_buf(),
            reason: "checksum mismatch".to_string(),
        });
    }
    let found_kind = FileKind::from_byte(kind_byte).ok_or_else(|| PersistError::Corrupt {
        path: path_buf(),
        reason: format!("unknown file kind {kind_byte}"),
    })?;
    if found_kind != kind {
        return Err(PersistError::WrongKind {
            path: path_buf(),
            found: found_kind.label(),
            expected: kind.label(),
        });
    }
    if version > kind.version() {
        return Err(PersistError::NewerVersion {
            path: path_buf(),
            found: version,
            supported: kind.version(),
        });
    }
    if name != game {
        return Err(PersistError::WrongGame {
            path: path_buf(),
            found: name,
            expected: game.to_string(),
        });
    }
    Ok((version, &body[header_len..]))
}

/// Decodes a payload that [`open`] returned.
pub fn decode_payload<T: DeserializeOwned>(path: &Path, payload: &[u8]) -> Result<T, PersistError> {
    let config = bincode::config::standard().with_limit::<DECODE_LIMIT>();
    let (value, used) =
        bincode::serde::decode_from_slice(payload, config).map_err(|e| PersistError::Corrupt {
            path: path.to_path_buf(),
            reason: e.to_string(),
        })?;
    if used != payload.len() {
        return Err(PersistError::Corrupt {
            path: path.to_path_buf(),
            reason: "payload length mismatch".to_string(),
        });
    }
    Ok(value)
}

/// Encodes `value` as a message between the processes of one run (MPI): the bare payload,
/// as every process runs the same build.
pub fn encode_message<T: Serialize>(value: &T) -> Vec<u8> {
    bincode::serde::encode_to_vec(value, bincode::config::standard())
        .expect("in-memory serialisation of plain data cannot fail")
}

/// Decodes a message written by [`encode_message`]; `None` if the bytes are not one.
pub fn decode_message<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    let config = bincode::config::standard().with_limit::<DECODE_LIMIT>();
    match bincode::serde::decode_from_slice(bytes, config) {
        Ok((value, used)) if used == bytes.len() => Some(value),
        _ => None,
    }
}

/// Writes `value` to `path` as a `kind` file for `game`, atomically.
pub fn save<T: Serialize>(
    path: &Path,
    kind: FileKind,
    game: &str,
    value: &T,
) -> Result<(), PersistError> {
    write_atomic(path, &encode(kind, game, value)).map_err(|error| PersistError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// Reads a `kind` file of the current format for `game` from `path`.
pub fn load<T: DeserializeOwned>(
    path: &Path,
    kind: FileKind,
    game: &str,
) -> Result<T, PersistError> {
    decode(path, &read(path)?, kind, game)
}

/// The bytes of the file at `path`: refused unread when it is not a regular file or is
/// larger than [`MAX_FILE_BYTES`] (see [`open_regular`]), and after its first bytes when
/// they are not the magic bytes.
pub fn read(path: &Path) -> Result<Vec<u8>, PersistError> {
    use std::io::Read;
    let failed = |error| PersistError::Read {
        path: path.to_path_buf(),
        error,
    };
    let too_large = || PersistError::TooLarge {
        path: path.to_path_buf(),
    };
    let file = open_regular(path, MAX_FILE_BYTES).map_err(|error| {
        if error.kind() == std::io::ErrorKind::FileTooLarge {
            too_large()
        } else {
            failed(error)
        }
    })?;
    let mut reader = file.take(MAX_FILE_BYTES + 1);
    let mut bytes = Vec::new();
    (&mut reader)
        .take(MAGIC.len() as u64)
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    if bytes.as_slice() != MAGIC {
        return Err(PersistError::NotEvo {
            path: path.to_path_buf(),
        });
    }
    reader.read_to_end(&mut bytes).map_err(failed)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}
