//! Atomic file replacement: a reader sees the old file or the new one, never a torn write.

use std::fs::{self, File};
use std::io::Write;
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path` (an atomic replacement on POSIX file systems).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir {
        fs::create_dir_all(dir)?;
    }
    let file_name = path
        .file_name()
        .ok_or_else(|| std::io::Error::other("the path names no file"))?
        .to_string_lossy();
    let temp = path.with_file_name(format!(".{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result?;
    if let Some(dir) = dir
        && let Ok(handle) = File::open(dir)
    {
        // Persist the rename itself; not every platform allows syncing a directory.
        let _ = handle.sync_all();
    }
    Ok(())
}
