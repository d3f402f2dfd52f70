//! The transposition table of the alpha-beta search: what a search found at a position, kept
//! so that the position, met again by another move order or in the next iteration of
//! iterative deepening, is cut off at once or has its best move searched first.
//!
//! Values are reused only at exactly the depth they were searched to, so a search with the
//! table returns exactly the values of one without (a deeper value would be better play but
//! a different player). Best moves from any depth order the moves.
//!
//! The table is bounded (buckets of two entries: one kept for the deeper search, one always
//! replaced) and lives with the thread, allocated once and reused by every search on it: a
//! search takes a new stamp, and entries with an older stamp count as empty, so starting a
//! search costs nothing however small it is (learning runs millions of 1-ply searches).

use std::cell::RefCell;

/// Entries in each thread's table (two per bucket): 2^18 entries of 24 bytes, 6 MiB, which a
/// thread keeps once it has searched (a server with many threads holds one per thread).
const ENTRIES: usize = 1 << 18;

/// What an entry's value says about the position's value at its depth (fail-soft
/// alpha-beta returns bounds when it cuts off or fails low).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    Exact,
    /// The value is at least this much (the search cut off).
    Lower,
    /// The value is at most this much (no move raised alpha).
    Upper,
}

/// One position's record.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The search the entry belongs to; another stamp means the slot is free.
    stamp: u64,
    value: f32,
    depth: u8,
    bound: Bound,
    /// Index of the best move in the position's legal-move order.
    best: u8,
}

const EMPTY: Entry = Entry {
    key: 0,
    stamp: 0,
    value: 0.0,
    depth: 0,
    bound: Bound::Upper,
    best: 0,
};

/// What the table knows of a position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Found {
    pub value: f32,
    pub depth: u32,
    pub bound: Bound,
    /// Index of the best move in the legal-move order.
    pub best: usize,
}

impl Found {
    /// The value, if it settles the position searched `depth` deep with window
    /// (`alpha`, `beta`) without a search.
    pub fn cutoff(&self, depth: u32, alpha: f32, beta: f32) -> Option<f32> {
        let settles = self.depth == depth
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.value >= beta,
                Bound::Upper => self.value <= alpha,
            };
        settles.then_some(self.value)
    }
}

/// A thread's table, in use by one search at a time.
pub(crate) struct Table {
    entries: Box<[Entry]>,
    stamp: u64,
}

thread_local! {
    static TABLE: RefCell<Option<Table>> = const { RefCell::new(None) };
}

impl Table {
    /// The thread's table, cleared in effect by a new stamp. A search nested inside
    /// another on the same thread gets a fresh table of its own.
    pub fn take() -> Table {
        let mut table = TABLE
            .with(|slot| slot.borrow_mut().take())
            .unwrap_or_else(|| Table {
                entries: vec![EMPTY; ENTRIES].into_boxed_slice(),
                stamp: 0,
            });
        table.stamp += 1;
        table
    }

    /// Hands the table back to the thread for the next search.
    pub fn give_back(self) {
        TABLE.with(|slot| *slot.borrow_mut() = Some(self));
    }

    fn bucket(&self, key: u64) -> usize {
        // The key's high bits pick the bucket; the low bits are as good, but the high
        // ones of a multiplicative mix are the best spread.
        ((key >> 32) as usize % (ENTRIES / 2)) * 2
    }

    pub fn probe(&self, key: u64) -> Option<Found> {
        let bucket = self.bucket(key);
        self.entries[bucket..bucket + 2]
            .iter()
            .find(|entry| entry.stamp == self.stamp && entry.key == key)
            .map(|entry| Found {
                value: entry.value,
                depth: u32::from(entry.depth),
                bound: entry.bound,
                best: usize::from(entry.best),
            })
    }

    /// Records a search of `depth` plies: the first slot keeps the deepest search of the
    /// current stamp, the second takes whatever the first does not.
    pub fn store(&mut self, key: u64, depth: u32, value: f32, bound: Bound, best: usize) {
        let entry = Entry {
            key,
            stamp: self.stamp,
            value,
            depth: depth.min(u32::from(u8::MAX)) as u8,
            bound,
            best: best.min(usize::from(u8::MAX)) as u8,
        };
        let bucket = self.bucket(key);
        let first = &mut self.entries[bucket];
        if first.stamp != self.stamp || first.key == key || first.depth <= entry.depth {
            *first = entry;
        } else {
            self.entries[bucket + 1] = entry;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_is_found_only_within_its_search() {
        let mut table = Table::take();
        table.store(42, 3, 1.5, Bound::Exact, 2);
        let found = table.probe(42).expect("stored");
        assert_eq!((found.value, found.depth, found.best), (1.5, 3, 2));
        assert_eq!(table.probe(43), None);
        table.give_back();
        let table = Table::take();
        assert_eq!(table.probe(42), None, "a new search starts empty");
        table.give_back();
    }

    #[test]
    fn a_bound_settles_only_its_side_of_the_window_at_its_depth() {
        let found = |bound| Found {
            value: 5.0,
            depth: 4,
            bound,
            best: 0,
        };
        assert_eq!(found(Bound::Exact).cutoff(4, 0.0, 1.0), Some(5.0));
        assert_eq!(found(Bound::Exact).cutoff(3, 0.0, 1.0), None);
        assert_eq!(found(Bound::Lower).cutoff(4, 0.0, 5.0), Some(5.0));
        assert_eq!(found(Bound::Lower).cutoff(4, 0.0, 6.0), None);
        assert_eq!(found(Bound::Upper).cutoff(4, 5.0, 9.0), Some(5.0));
        assert_eq!(found(Bound::Upper).cutoff(4, 4.0, 9.0), None);
    }

    #[test]
    fn the_deeper_entry_of_a_bucket_survives_a_shallower_one() {
        let mut table = Table::take();
        // Keys with the same high half share a bucket.
        let (deep, shallow, later) = (7 << 32, (7 << 32) | 1, (7 << 32) | 2);
        table.store(deep, 6, 1.0, Bound::Exact, 0);
        table.store(shallow, 2, 2.0, Bound::Exact, 0);
        table.store(later, 1, 3.0, Bound::Exact, 0);
        assert_eq!(table.probe(deep).map(|found| found.depth), Some(6));
        assert_eq!(
            table.probe(shallow),
            None,
            "the always-replaced slot moved on"
        );
        assert_eq!(table.probe(later).map(|found| found.value), Some(3.0));
        table.give_back();
    }
}
