//! The `.evo` container (laid out in the module's documentation): encoding a value into
//! one, and checking one (magic, version, kind, game, length, checksum) before its payload
//! is decoded.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{
    CHAMPION_VERSION, CHECKPOINT_VERSION, DECODE_LIMIT, FIT_STATE_VERSION, FileKind, MAGIC,
    PersistError,
};

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
    let newest = CHECKPOINT_VERSION
        .max(CHAMPION_VERSION)
        .max(FIT_STATE_VERSION);
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
