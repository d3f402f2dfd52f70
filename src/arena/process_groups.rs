//! The process groups of the external engines alive in this process, so that none outlives
//! it: each engine is started as the leader of a group of its own (so that it and whatever
//! it starts can be killed together), and a signal that ends evoboard (Ctrl-C, SIGTERM)
//! must kill those groups itself, since it never reaches them. The registry is a fixed
//! array of atomics, which a signal handler may read ([`kill_all`] is async-signal-safe).

use std::sync::atomic::{AtomicI32, Ordering};

/// Most engine processes alive at once that a signal can kill (one per game in play, so
/// the worker threads bound their number far below this).
const SLOTS: usize = 1024;

static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

/// A registered group, removed from the registry when dropped.
pub struct Registered {
    slot: Option<usize>,
}

/// Records `group` (a process id that leads its group) as alive.
pub fn register(group: i32) -> Registered {
    let slot = (0..SLOTS).find(|&k| {
        GROUPS[k]
            .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    });
    Registered { slot }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(slot) = self.slot {
            GROUPS[slot].store(0, Ordering::SeqCst);
        }
    }
}

/// Kills every registered group with SIGKILL. Safe in a signal handler: atomics and
/// `kill` only.
pub fn kill_all() {
    for slot in &GROUPS {
        let group = slot.load(Ordering::SeqCst);
        if group > 0 {
            kill_group(group);
        }
    }
}

/// Kills the process group `group` with SIGKILL (while its leader is alive or a zombie,
/// the id is still the group's).
pub fn kill_group(group: i32) {
    #[cfg(unix)]
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
    #[cfg(not(unix))]
    let _ = group;
}
