//! The positions near the root that some search thread is in now, so that the others put
//! them after their other moves: the threads then split the tree between them instead of
//! each searching it all (the idea of Weill's ABDADA, 1996). A small array of keys, written
//! without locks; a slot that two positions share only orders moves less well.

use std::sync::atomic::{AtomicU64, Ordering};

/// Slots: far more than the positions the threads are in at once.
const SLOTS: usize = 1 << 14;

pub struct Busy {
    /// Each slot's position key plus one, 0 when free.
    slots: Vec<AtomicU64>,
}

impl Busy {
    pub fn new() -> Busy {
        Busy {
            slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn slot(&self, key: u64) -> &AtomicU64 {
        &self.slots[(key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 50) as usize]
    }

    /// A thread starts searching the position of `key`.
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key + 1, Ordering::Relaxed);
    }

    /// A thread is done with the position of `key` (unless another took its slot since).
    pub fn leave(&self, key: u64) {
        let _ = self
            .slot(key)
            .compare_exchange(key + 1, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Whether some thread is searching the position of `key`.
    pub fn holds(&self, key: u64) -> bool {
        self.slot(key).load(Ordering::Relaxed) == key + 1
    }
}
