//! The lock of a directory one process writes (a run, a fit): held for as long as the value
//! lives, so that two processes never write the same files.

use std::path::Path;

/// The file of a directory's lock (see [`DirLock`]).
pub const LOCK_FILE: &str = ".evoboard-lock";

/// An advisory lock on a directory. The operating system releases it when its process
/// ends, however it ends, so a crash leaves nothing to clean up before a resume. The lock
/// file holds the owner's process id, for the message a second process gets.
pub struct DirLock {
    _file: std::fs::File,
}

/// Why a directory could not be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the lock.
    #[error(
        "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, or choose another directory"
    )]
    Held { dir: String, holder: String },
    #[error("cannot write {dir}: {error}")]
    Io { dir: String, error: std::io::Error },
}

impl DirLock {
    /// Takes the lock of `dir` (creating the directory if needed), or says who holds it.
    pub fn acquire(dir: &Path) -> Result<DirLock, LockError> {
        use std::io::{Read, Seek, Write};
        let failed = |error: std::io::Error| LockError::Io {
            dir: dir.display().to_string(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(failed)?;
        let path = dir.join(LOCK_FILE);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(failed)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(LockError::Held {
                    dir: dir.display().to_string(),
                    holder: holder.trim().to_string(),
                });
            }
            Err(std::fs::TryLockError::Error(error)) => return Err(failed(error)),
        }
        file.set_len(0).map_err(failed)?;
        file.rewind().map_err(failed)?;
        writeln!(file, "{}", std::process::id()).map_err(failed)?;
        Ok(DirLock { _file: file })
    }
}
