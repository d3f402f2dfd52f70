//! `.evo` files on disk: saved atomically, and read with their size and magic bytes
//! checked before the rest of the file is.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{
    FileKind, MAGIC, MAX_FILE_BYTES, PersistError, decode, encode, open_regular, write_atomic,
};

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
