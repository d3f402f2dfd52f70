//! The solver's transposition table: a fixed block of memory, allocated once at the size
//! asked for (the operating system maps its pages as they are first written, so a small
//! board costs little of it), in buckets of four entries. When a bucket is full the entry
//! whose search took the least work gives way: the table forgets, it never overflows, and
//! since every entry keeps its whole position key a forgotten position is only searched
//! again, never valued wrongly.

use crate::games::position_key;
use crate::search::memory;

/// Words per entry: the 128-bit key and one word of data.
const WORDS: usize = 3;
/// Entries per bucket.
const WAYS: usize = 4;
/// Bytes a bucket takes.
pub const BUCKET_BYTES: usize = WAYS * WORDS * 8;

/// What the table holds for a position: bounds on its future margin, the move that proved
/// best, and how much work (log2 of the nodes) its search took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub lower: i16,
    pub upper: i16,
    pub best: u8,
    pub work: u8,
}

impl Record {
    fn pack(self) -> u64 {
        u64::from(self.lower as u16)
            | u64::from(self.upper as u16) << 16
            | u64::from(self.best) << 32
            | u64::from(self.work) << 40
    }

    fn unpack(word: u64) -> Record {
        Record {
            lower: word as u16 as i16,
            upper: (word >> 16) as u16 as i16,
            best: (word >> 32) as u8,
            work: (word >> 40) as u8,
        }
    }
}

/// A bounded table of [`Record`]s by position key (key 0, the empty board, is never stored:
/// it marks a free entry).
pub struct Table {
    words: Vec<u64>,
    buckets: usize,
    /// Most buckets the table may grow to.
    max_buckets: usize,
    /// Entries in use.
    pub filled: usize,
}

/// Buckets a table starts with (6 MB): small boards never need more, and growing by
/// doubling keeps the memory in use near what the search has filled, rather than touching
/// the whole bound at random from the start.
const FIRST_BUCKETS: usize = 1 << 16;

impl Table {
    /// A table that grows to at most `bytes` bytes (at least one bucket): its first size
    /// doubled as often as fits.
    pub fn with_bytes(bytes: usize) -> Table {
        let bound = (bytes / BUCKET_BYTES).max(1);
        let mut max_buckets = FIRST_BUCKETS.min(bound);
        while max_buckets * 2 <= bound {
            max_buckets *= 2;
        }
        let buckets = FIRST_BUCKETS.min(max_buckets);
        Table {
            words: memory::zeroed(buckets * WAYS * WORDS, || 0),
            buckets,
            max_buckets,
            filled: 0,
        }
    }

    /// Doubles the table (up to its bound) once it is half full, in place: a key in bucket
    /// `b` belongs to bucket `2b` or `2b + 1` of the doubled table, so the buckets are
    /// spread from the last down, each to places no bucket still waiting occupies. The
    /// memory in use never exceeds the bound.
    fn grow_if_half_full(&mut self) {
        if self.filled * 2 < self.buckets * WAYS || self.buckets == self.max_buckets {
            return;
        }
        let old_buckets = self.buckets;
        self.buckets *= 2;
        self.words.resize(self.buckets * WAYS * WORDS, 0);
        let bucket_words = WAYS * WORDS;
        for bucket in (0..old_buckets).rev() {
            let at = bucket * bucket_words;
            let mut entries = [0u64; WAYS * WORDS];
            entries.copy_from_slice(&self.words[at..at + bucket_words]);
            self.words[at..at + bucket_words].fill(0);
            for entry in entries.chunks_exact(WORDS) {
                let key = u128::from(entry[0]) | u128::from(entry[1]) << 64;
                if key != 0 {
                    let slot = self
                        .slots(key)
                        .find(|&slot| self.entry_key(slot) == 0)
                        .expect("a doubled bucket has room for the entries of its half");
                    self.words[slot..slot + WORDS].copy_from_slice(entry);
                }
            }
        }
    }

    fn bucket(&self, key: u128) -> usize {
        // Keys of nearby positions differ in a few bytes: every bit must move the bucket.
        let mixed = position_key(&[key as u64, (key >> 64) as u64]);
        ((u128::from(mixed) * self.buckets as u128) >> 64) as usize
    }

    fn entry_key(&self, at: usize) -> u128 {
        u128::from(self.words[at]) | u128::from(self.words[at + 1]) << 64
    }

    /// The slots (word offsets) of `key`'s bucket.
    fn slots(&self, key: u128) -> impl Iterator<Item = usize> {
        let first = self.bucket(key) * WAYS * WORDS;
        (0..WAYS).map(move |way| first + way * WORDS)
    }

    pub fn get(&self, key: u128) -> Option<Record> {
        self.slots(key)
            .find(|&at| self.entry_key(at) == key)
            .map(|at| Record::unpack(self.words[at + 2]))
    }

    /// Stores `record` for `key`: over its old record, else in a free entry, else over the
    /// entry of least work if that is no more than this one's.
    pub fn put(&mut self, key: u128, record: Record) {
        debug_assert_ne!(key, 0, "key 0 marks free entries");
        let work = |at: usize| Record::unpack(self.words[at + 2]).work;
        let target = self
            .slots(key)
            .find(|&at| self.entry_key(at) == key)
            .or_else(|| self.slots(key).find(|&at| self.entry_key(at) == 0))
            .or_else(|| {
                self.slots(key)
                    .min_by_key(|&at| work(at))
                    .filter(|&at| work(at) <= record.work)
            });
        let Some(at) = target else { return };
        let fills = self.entry_key(at) == 0;
        self.words[at] = key as u64;
        self.words[at + 1] = (key >> 64) as u64;
        self.words[at + 2] = record.pack();
        if fills {
            self.filled += 1;
            self.grow_if_half_full();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(work: u8) -> Record {
        Record {
            lower: -3,
            upper: 7,
            best: 2,
            work,
        }
    }

    #[test]
    fn records_round_trip() {
        let mut table = Table::with_bytes(1 << 16);
        let key = 0x0102_0304_0506_0708_090A_0B0C_0D0E_0F10;
        table.put(key, record(5));
        assert_eq!(table.get(key), Some(record(5)));
        assert_eq!(table.get(key + 1), None);
        table.put(key, record(6));
        assert_eq!((table.get(key), table.filled), (Some(record(6)), 1));
    }

    #[test]
    fn a_growing_table_keeps_its_entries() {
        let mut table = Table::with_bytes(1 << 30);
        let keys: Vec<u128> = (1..=FIRST_BUCKETS as u128 * 8)
            .map(|k| k * 0x1_0000_0001)
            .collect();
        let record_of = |key: u128| Record {
            lower: key as i16,
            ..record(5)
        };
        for &key in &keys {
            table.put(key, record_of(key));
        }
        assert!(
            table.buckets >= 4 * FIRST_BUCKETS,
            "{} buckets",
            table.buckets
        );
        // At most half full, so few buckets are full (where an entry gives way): about 5%
        // of the entries at half load, by Poisson counts of four-entry buckets.
        let kept = keys.iter().filter(|&&key| table.get(key).is_some()).count();
        assert!(kept * 100 >= keys.len() * 90, "{kept} of {}", keys.len());
        assert_eq!(table.filled, kept);
        assert!(
            keys.iter()
                .all(|&key| table.get(key).is_none_or(|found| found == record_of(key)))
        );
    }

    #[test]
    fn a_full_bucket_gives_way_to_more_work_only() {
        // One bucket: every key shares it.
        let mut table = Table::with_bytes(BUCKET_BYTES);
        for key in 1..=4 {
            table.put(key, record(key as u8 * 2));
        }
        assert_eq!(table.filled, 4);
        table.put(9, record(1));
        assert_eq!(table.get(9), None, "less work than any entry held");
        table.put(10, record(3));
        assert_eq!(table.get(10), Some(record(3)));
        assert_eq!(table.get(1), None, "the entry of least work gave way");
        assert!((2..=4).all(|key| table.get(key).is_some()));
    }
}
