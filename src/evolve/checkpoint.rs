//! The full state of a run between generations, and the run directory's files:
//! `run.json`, `gen-NNNNN.evo`, `stats.csv`, `champion.evo`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::evolve::EvolveError;
use crate::evolve::config::EvolveConfig;
pub use crate::evolve::state::{EvolutionState, LearnerState};
use crate::nn::Architecture;
use crate::persist::{self, FileKind, PersistError};

mod format9;

/// The largest `run.json` read: a run's settings and its network's layout take a few KiB.
pub const MAX_RUN_JSON_BYTES: u64 = 1 << 20;

/// `run.json`: what the run is, for people and for `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub game: String,
    pub evoboard_version: String,
    pub architecture: Architecture,
    pub config: EvolveConfig,
}

/// Reads the `run.json` at `path` (a regular file of at most [`MAX_RUN_JSON_BYTES`]), or
/// says why it cannot be read.
pub fn read_run_info(path: &Path) -> Result<RunInfo, String> {
    let bytes = persist::read_limited(path, MAX_RUN_JSON_BYTES).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
}

/// Paths of a run directory's files.
pub struct RunDir {
    pub dir: PathBuf,
}

impl RunDir {
    pub fn run_json(&self) -> PathBuf {
        self.dir.join("run.json")
    }
    pub fn stats_csv(&self) -> PathBuf {
        self.dir.join("stats.csv")
    }
    pub fn champion(&self) -> PathBuf {
        self.dir.join("champion.evo")
    }
    /// Where a run with `snapshots = Some(K)` keeps generation `generation`'s offered network.
    pub fn snapshot(&self, generation: u32) -> PathBuf {
        self.dir
            .join("snapshots")
            .join(format!("gen-{generation:05}.evo"))
    }
    pub fn checkpoint(&self, generation: u32) -> PathBuf {
        self.dir.join(format!("gen-{generation:05}.evo"))
    }

    /// Reads `run.json` (see [`read_run_info`]).
    pub fn read_info(&self) -> Result<RunInfo, EvolveError> {
        read_run_info(&self.run_json()).map_err(|reason| EvolveError::NoRun {
            path: self.dir.display().to_string(),
            reason,
        })
    }

    /// Refuses a directory a new run must not be written into: one that holds a run (to be
    /// continued with `--resume`), and one that is neither new nor empty (the run's files
    /// would mix with what is there, be it `/`).
    pub fn check_new(&self) -> Result<(), EvolveError> {
        if self.run_json().exists() || self.latest_checkpoint().is_some() {
            return Err(EvolveError::RunExists(self.dir.display().to_string()));
        }
        let empty = match std::fs::read_dir(&self.dir) {
            Ok(mut entries) => entries.all(|entry| {
                entry.is_ok_and(|entry| {
                    entry.file_name() == std::ffi::OsStr::new(persist::LOCK_FILE)
                })
            }),
            Err(error) => error.kind() == std::io::ErrorKind::NotFound,
        };
        if !empty {
            return Err(EvolveError::NotEmpty(self.dir.display().to_string()));
        }
        Ok(())
    }

    /// The generations that have a checkpoint file.
    pub fn checkpoints(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("gen-")?
                    .strip_suffix(".evo")?
                    .parse::<u32>()
                    .ok()
            })
            .collect()
    }

    /// The highest generation with a checkpoint file, if any.
    pub fn latest_checkpoint(&self) -> Option<u32> {
        self.checkpoints().into_iter().max()
    }

    /// With `keep` = Some(K), removes every checkpoint older than the newest K up to
    /// generation `latest` — also those a kill left behind between writing a checkpoint
    /// and removing its predecessor, so a resumed run ends with exactly the files of an
    /// uninterrupted one.
    pub fn remove_old_checkpoints(&self, latest: u32, keep: Option<u32>) {
        let Some(oldest_kept) = keep.map(|k| latest.saturating_sub(k) + 1) else {
            return;
        };
        for generation in self.checkpoints() {
            if generation < oldest_kept {
                let _ = std::fs::remove_file(self.checkpoint(generation));
            }
        }
    }

    /// Removes temporary files left by writes that a kill interrupted (see
    /// [`crate::persist::remove_stale_temp_files`]).
    pub fn remove_stale_temp_files(&self) {
        persist::remove_stale_temp_files(&self.dir);
    }

    pub fn save_state(&self, state: &EvolutionState, game: &str) -> Result<(), PersistError> {
        persist::save(
            &self.checkpoint(state.generation),
            FileKind::Checkpoint,
            game,
            state,
        )
    }

    pub fn load_state(&self, generation: u32, game: &str) -> Result<EvolutionState, PersistError> {
        load_checkpoint(&self.checkpoint(generation), game)
    }
}

/// Reads a checkpoint file, of this version or of version 9 (read into this one).
pub fn load_checkpoint(path: &Path, game: &str) -> Result<EvolutionState, PersistError> {
    let bytes = persist::read(path)?;
    let (version, payload) = persist::open(path, &bytes, FileKind::Checkpoint, game)?;
    match version {
        9 => format9::read(path, payload),
        version if version == FileKind::Checkpoint.version() => {
            persist::decode_payload(path, payload)
        }
        found => Err(PersistError::OlderVersion {
            path: path.to_path_buf(),
            found,
        }),
    }
}

/// Takes the lock of a run directory (creating it if needed), so that two processes never
/// write one run (see [`persist::DirLock`]).
pub fn lock_run(dir: &Path) -> Result<persist::DirLock, EvolveError> {
    persist::DirLock::acquire(dir).map_err(|error| match error {
        persist::LockError::Held { dir, holder } => EvolveError::Locked { dir, holder },
        persist::LockError::Io { dir, error } => EvolveError::Write { path: dir, error },
    })
}
