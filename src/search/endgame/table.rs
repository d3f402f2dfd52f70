//! The solver's transposition table, shared by every thread of a solve without locks.
//!
//! An entry is three words written one at a time, so a reader may meet an entry that
//! another thread is rewriting. The two position words are stored XOR-ed with the data
//! word (Hyatt and Mann, "A lockless transposition-table implementation for parallel
//! search", 2002): a torn entry no longer matches its position and reads as a miss, so a
//! probe only ever sees bounds proven for the very position asked about.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::search::memory;

/// What the table knows of a position: bounds on its exact value and its best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Known {
    pub lower: i32,
    pub upper: i32,
    /// The best move's square, or [`NO_MOVE`].
    pub best: u8,
}

/// The square of no move.
pub(super) const NO_MOVE: u8 = u8::MAX;

#[derive(Default)]
struct Slot {
    own: AtomicU64,
    opp: AtomicU64,
    /// `lower + 64`, `upper + 64`, best move and empties, a byte each.
    data: AtomicU64,
}

// SAFETY: a slot is three atomic integers, and all-zero bytes are each the value 0: the
// empty slot, as `Slot::default()`.
unsafe impl memory::Zeroed for Slot {}

/// Buckets of two entries: one keeps the position with the most empties (the costliest
/// to search again), one always takes the newest, so the many positions near the end
/// never push out the few near the root.
pub(super) struct Table {
    slots: memory::ZeroedArray<Slot>,
    /// 64 minus log2 of the number of slots: the hash's top bits pick the bucket.
    shift: u32,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each), on huge pages where granted.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: memory::ZeroedArray::new(1 << bits).expect("at most 2^22 entries of 24 bytes"),
            shift: 64 - bits,
        }
    }

    /// The first of the two slots of the position's bucket.
    #[inline]
    fn bucket(&self, own: u64, opp: u64) -> &[Slot] {
        let mixed =
            own.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ opp.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        let first = ((mixed ^ (mixed >> 29)) >> self.shift) as usize & !1;
        &self.slots[first..first + 2]
    }

    /// The slot's data if it holds the position.
    #[inline]
    fn read(slot: &Slot, own: u64, opp: u64) -> Option<u64> {
        let data = slot.data.load(Relaxed);
        (slot.own.load(Relaxed) ^ data == own && slot.opp.load(Relaxed) ^ data == opp)
            .then_some(data)
    }

    #[inline]
    pub fn probe(&self, own: u64, opp: u64) -> Option<Known> {
        let data = self
            .bucket(own, opp)
            .iter()
            .find_map(|slot| Table::read(slot, own, opp))?;
        Some(Known {
            lower: i32::from(data as u8) - 64,
            upper: i32::from((data >> 8) as u8) - 64,
            best: (data >> 16) as u8,
        })
    }

    pub fn store(&self, own: u64, opp: u64, known: Known, empties: u32) {
        let data = (known.lower + 64) as u64
            | ((known.upper + 64) as u64) << 8
            | u64::from(known.best) << 16
            | u64::from(empties) << 24;
        let bucket = self.bucket(own, opp);
        let slot = if Table::read(&bucket[0], own, opp).is_some() {
            &bucket[0]
        } else if Table::read(&bucket[1], own, opp).is_some() {
            &bucket[1]
        } else if u64::from(empties) >= bucket[0].data.load(Relaxed) >> 24 & 0xff {
            // The deeper slot's old position moves to the newest slot.
            let old = (
                bucket[0].own.load(Relaxed),
                bucket[0].opp.load(Relaxed),
                bucket[0].data.load(Relaxed),
            );
            bucket[1].own.store(old.0, Relaxed);
            bucket[1].opp.store(old.1, Relaxed);
            bucket[1].data.store(old.2, Relaxed);
            &bucket[0]
        } else {
            &bucket[1]
        };
        slot.own.store(own ^ data, Relaxed);
        slot.opp.store(opp ^ data, Relaxed);
        slot.data.store(data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_deepest_and_the_newest_of_a_bucket() {
        let table = Table::new(1); // one bucket: every position shares it
        let known = |lower| Known {
            lower,
            upper: 64,
            best: 3,
        };
        table.store(1, 2, known(-64), 20);
        table.store(3, 4, known(5), 8);
        assert_eq!(table.probe(1, 2), Some(known(-64)));
        assert_eq!(table.probe(3, 4), Some(known(5)));
        // A shallower newcomer replaces the newest, not the deepest.
        table.store(5, 6, known(7), 9);
        assert_eq!(table.probe(3, 4), None);
        assert_eq!(table.probe(1, 2), Some(known(-64)));
        // A position stored again is updated in place.
        table.store(5, 6, known(9), 9);
        assert_eq!(table.probe(5, 6), Some(known(9)));
        assert_eq!(table.probe(7, 8), None);
    }
}
