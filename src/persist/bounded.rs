//! Reading a file whose path a user gave, without trusting what it is: only a regular file
//! is read, never more than a size limit, and opening it never waits (a named pipe with
//! no writer would block an `open` forever).

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// Opens `path` for reading if it is a regular file of at most `limit` bytes. On unix it is
/// opened non-blocking, so a named pipe is refused instead of waited on; the checks look at
/// the opened handle, so a path swapped after a check cannot slip a device through.
pub fn open_regular(path: &Path, limit: u64) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a directory, device or pipe)",
        ));
    }
    if metadata.len() > limit {
        return Err(too_large(limit));
    }
    Ok(file)
}

/// The bytes of the regular file at `path` (see [`open_regular`]), refused with
/// [`io::ErrorKind::FileTooLarge`] when it holds more than `limit` bytes, even if it grows
/// while being read.
pub fn read_limited(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path, limit)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than the {limit} bytes read at most"),
    )
}
