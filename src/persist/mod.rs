//! Files that survive faults: versioned, checksummed containers written atomically.
//! All binary encoding goes through this module (bincode 2 today), so it can be swapped.
//!
//! Layout of an `.evo` file, integers little-endian:
//! `EVOBOARD` (8 bytes) · format version (u32) · kind (u8) · game name length (u8) ·
//! game name · payload length (u64) · payload (bincode) · CRC-32 of everything before (u32).
//!
//! `container.rs` encodes and checks that layout, `files.rs` saves and reads it on disk,
//! and `message.rs` passes bare payloads between the processes of an MPI job; `atomic.rs`,
//! `bounded.rs` and `lines.rs` are how any file is written and read safely, and `lock.rs`
//! keeps two processes from writing one directory; `digest.rs` names a file's bytes.

mod atomic;
mod bounded;
mod container;
mod digest;
mod error;
mod files;
mod lines;
mod lock;
mod message;

pub use atomic::{remove_stale_temp_files, write_atomic};
pub use bounded::{open_regular, read_limited};
pub use container::{decode, decode_payload, encode, open};
pub use digest::sha256_hex;
pub use error::PersistError;
pub use files::{load, read, save};
pub use lines::{LineRead, MAX_LINE_BYTES, read_text_line};
pub use lock::{DirLock, LOCK_FILE, LockError};
pub use message::{decode_message, encode_message};

/// First bytes of every `.evo` file.
pub const MAGIC: &[u8; 8] = b"EVOBOARD";
/// The format version this build writes for each kind of file (see [`FileKind::version`]).
/// Version 2 added network families to champions and checkpoints; version 3 added CMA-ES,
/// sparring fitness and bounded steps to checkpoints (champions are laid out as in
/// version 2); version 4, of checkpoints only, added TD(λ)'s λ to a run's settings;
/// version 5, of checkpoints only, the snapshots a run keeps; version 6, of checkpoints
/// only, whether TD learns from exploring moves; version 7, of checkpoints only, the TD
/// batch; version 8, of checkpoints only, whether TD learns symmetric images; version 9, of
/// checkpoints only, the network a run starts from, with the run's settings kept as JSON
/// text (a setting added later, with its default, no longer needs a new version); version
/// 10, of checkpoints only, the learner's own state as one opaque field instead of each
/// individual's mutation memory and CMA-ES's distribution.
/// Champions of every earlier version load; checkpoints of versions 9 and 10 (before
/// version 9 their settings were laid out field by field, so a new setting moved every
/// later byte).
pub const CHECKPOINT_VERSION: u32 = 10;
/// See [`CHECKPOINT_VERSION`]: champions are still written as version 3, so that files of
/// the same network stay byte for byte the same.
pub const CHAMPION_VERSION: u32 = 3;
/// The format version of a distillation fit's state between epochs (the first).
pub const FIT_STATE_VERSION: u32 = 1;

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
    /// Where an offline distillation fit stands after an epoch.
    FitState = 3,
}

impl FileKind {
    /// The format version this build writes for files of this kind.
    pub fn version(self) -> u32 {
        match self {
            FileKind::Checkpoint => CHECKPOINT_VERSION,
            FileKind::Champion => CHAMPION_VERSION,
            FileKind::FitState => FIT_STATE_VERSION,
        }
    }

    fn from_byte(byte: u8) -> Option<FileKind> {
        match byte {
            1 => Some(FileKind::Checkpoint),
            2 => Some(FileKind::Champion),
            3 => Some(FileKind::FitState),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            FileKind::Checkpoint => "checkpoint",
            FileKind::Champion => "champion",
            FileKind::FitState => "fit state",
        }
    }
}
