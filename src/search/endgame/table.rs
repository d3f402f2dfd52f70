//! The solver's transposition table, shared by every thread of a solve without locks, and
//! kept from one solve to the next.
//!
//! An entry is three words written one at a time, so a reader may meet an entry that
//! another thread is rewriting. The two position words are stored XOR-ed with the data
//! word (Hyatt and Mann, "A lockless transposition-table implementation for parallel
//! search", 2002): a torn entry no longer matches its position and reads as a miss, so a
//! probe only ever sees bounds proven for the very position asked about.
//!
//! Mapping a fresh table costs the system's zeroing of every page touched (about a tenth
//! of a 23-empties solve), and a clocked player solves at every move of its endgame. So
//! tables are lent out for a solve and kept for the next one of the same size, and the
//! data word carries the generation of the solve that stored it: an entry of an earlier
//! generation reads as empty, to the probes and to the replacement rule alike, so a solve
//! finds, keeps and visits exactly what it would in a zeroed table.

use std::ops::Deref;
use std::sync::Mutex;
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
    /// `lower + 64`, `upper + 64`, best move and empties, a byte each, then the
    /// generation in the high 32 bits.
    data: AtomicU64,
}

impl Slot {
    fn clear(&self) {
        self.own.store(0, Relaxed);
        self.opp.store(0, Relaxed);
        self.data.store(0, Relaxed);
    }
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
    /// The current solve's generation, from 1 (zeroed slots, generation 0, are empty),
    /// shifted to the data word's high 32 bits.
    generation: u64,
}

impl Table {
    /// A table of `2^bits` entries (24 bytes each), on huge pages where granted.
    pub fn new(bits: u32) -> Table {
        Table {
            slots: memory::ZeroedArray::new(1 << bits).expect("at most 2^22 entries of 24 bytes"),
            shift: 64 - bits,
            generation: 1 << 32,
        }
    }

    /// Empties the table in effect for a new solve: what it holds becomes an earlier
    /// generation. After 2^32 − 1 solves the count starts again from zeroed slots.
    fn renew(&mut self) {
        if self.generation == u64::from(u32::MAX) << 32 {
            self.slots.iter().for_each(Slot::clear);
            self.generation = 0;
        }
        self.generation += 1 << 32;
    }

    /// The first of the two slots of the position's bucket.
    #[inline]
    fn bucket(&self, own: u64, opp: u64) -> &[Slot] {
        let mixed =
            own.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ opp.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        let first = ((mixed ^ (mixed >> 29)) >> self.shift) as usize & !1;
        &self.slots[first..first + 2]
    }

    /// Starts loading the position's bucket into the cache, for a probe soon after: the
    /// table is far larger than the cache, and the loads of a node's children overlap.
    #[inline]
    pub fn prefetch(&self, own: u64, opp: u64) {
        let bucket = self.bucket(own, opp);
        // 48 bytes from a multiple of 48: one cache line or two.
        memory::prefetch(&bucket[0]);
        memory::prefetch(&bucket[1].data);
    }

    /// The slot's data if it holds the position in this generation.
    #[inline]
    fn read(&self, slot: &Slot, own: u64, opp: u64) -> Option<u64> {
        let data = slot.data.load(Relaxed);
        (slot.own.load(Relaxed) ^ data == own
            && slot.opp.load(Relaxed) ^ data == opp
            && data & GENERATION == self.generation)
            .then_some(data)
    }

    #[inline]
    pub fn probe(&self, own: u64, opp: u64) -> Option<Known> {
        let data = self
            .bucket(own, opp)
            .iter()
            .find_map(|slot| self.read(slot, own, opp))?;
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
            | u64::from(empties) << 24
            | self.generation;
        let bucket = self.bucket(own, opp);
        let deepest = bucket[0].data.load(Relaxed);
        // An entry of an earlier generation counts as empty, of no depth.
        let deepest_empties = if deepest & GENERATION == self.generation {
            deepest >> 24 & 0xff
        } else {
            0
        };
        let slot = if self.read(&bucket[0], own, opp).is_some() {
            &bucket[0]
        } else if self.read(&bucket[1], own, opp).is_some() {
            &bucket[1]
        } else if u64::from(empties) >= deepest_empties {
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

/// The data word's generation bits.
const GENERATION: u64 = 0xffff_ffff_0000_0000;

/// A table of `2^bits` entries for one solve, empty in effect: a kept one when there is
/// one of that size (a solve running at the same time has its own), else a new one.
pub(super) fn lend(bits: u32) -> Lent {
    let kept = {
        let mut kept = kept_tables();
        let at = kept.iter().position(|table| table.shift == 64 - bits);
        at.map(|at| kept.swap_remove(at))
    };
    let table = match kept {
        Some(mut table) => {
            table.renew();
            table
        }
        None => Table::new(bits),
    };
    Lent(Some(table))
}

/// A table lent for a solve, kept for the next when dropped.
pub(super) struct Lent(Option<Table>);

impl Deref for Lent {
    type Target = Table;

    fn deref(&self) -> &Table {
        self.0
            .as_ref()
            .expect("a lent table is there until dropped")
    }
}

impl Drop for Lent {
    fn drop(&mut self) {
        let Some(table) = self.0.take() else { return };
        let mut kept = kept_tables();
        // One table of each size at most (13 sizes: under twice the largest's memory);
        // another of a size already kept is unmapped.
        if kept.iter().all(|other| other.shift != table.shift) {
            kept.push(table);
        }
    }
}

/// The tables kept between solves.
fn kept_tables() -> std::sync::MutexGuard<'static, Vec<Table>> {
    static KEPT: Mutex<Vec<Table>> = Mutex::new(Vec::new());
    KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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

    #[test]
    fn a_renewed_table_is_empty_to_probes_and_to_replacement() {
        let mut table = Table::new(1);
        let known = Known {
            lower: 3,
            upper: 3,
            best: 9,
        };
        table.store(1, 2, known, 20);
        table.renew();
        assert_eq!(table.probe(1, 2), None);
        // The old deep entry no longer keeps the deep slot from a shallower newcomer...
        table.store(3, 4, known, 5);
        table.store(5, 6, known, 4);
        // ...which would have pushed out the first newcomer had the old entry counted.
        assert_eq!(table.probe(3, 4), Some(known));
        assert_eq!(table.probe(5, 6), Some(known));
        assert_eq!(table.probe(1, 2), None);
    }

    #[test]
    fn the_generation_count_starts_again_from_zeroed_slots() {
        let mut table = Table::new(1);
        table.generation = u64::from(u32::MAX) << 32;
        let known = Known {
            lower: -2,
            upper: 8,
            best: 0,
        };
        table.store(1, 2, known, 7);
        assert_eq!(table.probe(1, 2), Some(known));
        table.renew();
        assert_eq!(table.generation, 1 << 32);
        assert_eq!(table.probe(1, 2), None);
        table.store(3, 4, known, 7);
        assert_eq!(table.probe(3, 4), Some(known));
    }
}
