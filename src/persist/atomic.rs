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

/// Removes the temporary files (`.NAME.tmp-PID…`, see [`write_atomic`]) that writes
/// interrupted by a kill left in `dir`. Files of a process still running are its writes in
/// progress and are kept. They are never read, so removing them loses nothing.
pub fn remove_stale_temp_files(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(after) = name
            .strip_prefix('.')
            .and_then(|rest| rest.split_once(".tmp-"))
            .map(|(_, after)| after)
        else {
            continue;
        };
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        let running = digits.parse::<u32>().is_ok_and(process_is_running);
        if !running {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id exists (on Unix; elsewhere every writer counts as gone).
fn process_is_running(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return false;
        };
        // Signal 0 checks for existence; EPERM means it exists under another user.
        // SAFETY: kill with signal 0 sends nothing; it only reports on the process.
        let result = unsafe { libc::kill(pid, 0) };
        result == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        false
    }
}
