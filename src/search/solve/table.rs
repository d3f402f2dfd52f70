//! The solver's transposition table, shared by the search threads without locks: one
//! 64-bit word an entry, eight entries a bucket of one cache line, so a look-up is one read
//! from memory and a word is always whole, whichever thread wrote it last.
//!
//! A word holds a [`Record`] and as much of its position's key as its bucket does not
//! already say. The key is the position's number (`numbering`, 41 bits for Kalah(6,4)),
//! shuffled by an invertible mix; the bucket is set by the mixed key's high bits, and the
//! word keeps its low bits. Key and bucket together give back the whole number, so two
//! positions never share an entry: a forgotten position is only searched again, never
//! valued wrongly. When a bucket is full the entry whose search took the least work gives
//! way. The table is allocated once, at the bound asked for, or smaller if the board has
//! fewer positions than that holds; its pages are taken as they are first written.

use std::sync::atomic::{AtomicU64, Ordering};

use super::SolveError;
use super::board::MoverBoard;
use super::numbering::Numbering;
use crate::search::memory;

/// Entries per bucket.
const WAYS: usize = 8;
/// Bytes an entry takes.
pub const ENTRY_BYTES: usize = 8;
/// Bytes a bucket takes: one cache line.
pub const BUCKET_BYTES: usize = WAYS * ENTRY_BYTES;

/// Bits of a record besides its two bounds: the best move (a pit below 8) and the work.
const MOVE_BITS: u32 = 3;
const WORK_BITS: u32 = 6;

/// Most bits of a key a bucket may have to say, for boards with too many positions for a
/// word (2^24 buckets, 1 GB; beyond: [`SolveError::TooManyPositions`]).
const MOST_BUCKETS_FOR_KEYS: u32 = 24;

/// What the table holds for a position: bounds on its future margin, the move that proved
/// best, and how much work (log2 of the nodes) its search took (at least 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub lower: i16,
    pub upper: i16,
    pub best: u8,
    pub work: u8,
}

#[repr(align(64))]
struct Bucket([AtomicU64; WAYS]);

// SAFETY: zero words are free entries.
unsafe impl memory::Zeroed for Bucket {}

/// A bounded table of [`Record`]s by position.
pub struct Table {
    buckets: memory::ZeroedArray<Bucket>,
    numbering: Numbering,
    /// Bits of a position's number.
    key_bits: u32,
    /// Bounds are kept within ±`max_seeds`, which holds every future margin.
    max_seeds: i32,
    value_bits: u32,
    /// Bits of the key a word keeps (its low bits).
    rest_bits: u32,
}

/// Bits needed to write `value`.
fn bits(value: u64) -> u32 {
    u64::BITS - value.leading_zeros()
}

/// How a board's keys and records share a word.
pub struct Layout {
    max_seeds: usize,
    numbering: Numbering,
    positions: u64,
    key_bits: u32,
    value_bits: u32,
    /// Fewest bits of the key the bucket must say, for the rest to fit in a word.
    bucket_bits: u32,
}

impl Layout {
    /// The layout for positions of `pits` pits a side with at most `max_seeds` seeds on
    /// the board, unless they are too many to name in a word and a bucket.
    pub fn new(pits: usize, max_seeds: usize) -> Result<Layout, SolveError> {
        let numbering = Numbering::new(pits, max_seeds);
        let positions = numbering.count(max_seeds);
        let key_bits = bits(positions - 1).max(1);
        let value_bits = bits(2 * max_seeds as u64);
        let record_bits = 2 * value_bits + MOVE_BITS + WORK_BITS;
        let bucket_bits = (key_bits + record_bits).saturating_sub(u64::BITS);
        if positions == u64::MAX || bucket_bits > MOST_BUCKETS_FOR_KEYS {
            return Err(SolveError::TooManyPositions {
                pits,
                seeds: max_seeds,
            });
        }
        Ok(Layout {
            max_seeds,
            numbering,
            positions,
            key_bits,
            value_bits,
            bucket_bits,
        })
    }
}

impl Table {
    /// A table for the positions of `layout`, of at most `bytes` bytes (at least the
    /// buckets the layout needs), unless the system will not give that much memory.
    pub fn new(layout: Layout, bytes: usize) -> Result<Table, memory::OutOfMemory> {
        // Room for every position twice over is enough.
        let all = layout.positions.div_ceil(WAYS as u64 / 2) as usize;
        let buckets = (bytes / BUCKET_BYTES).min(all).max(1 << layout.bucket_bits);
        Ok(Table {
            buckets: memory::ZeroedArray::new(buckets)?,
            key_bits: layout.key_bits,
            max_seeds: layout.max_seeds as i32,
            value_bits: layout.value_bits,
            rest_bits: layout.key_bits.saturating_sub(bits(buckets as u64) - 1),
            numbering: layout.numbering,
        })
    }

    /// The key of `board`: its number.
    pub fn key(&self, board: &MoverBoard) -> u64 {
        self.numbering.index(board, board.on_board() as usize)
    }

    /// The bucket of `key` and what a word keeps of it.
    fn place(&self, key: u64) -> (&Bucket, u64) {
        // Xor-shifts and odd multipliers modulo 2^key_bits are invertible: nearby
        // positions, whose numbers differ in a few low bits, spread over the buckets.
        let mask = u64::MAX >> (u64::BITS - self.key_bits);
        let shift = self.key_bits.div_ceil(2);
        let mut mixed = key;
        for multiplier in [0x9E37_79B9_7F4A_7C15u64, 0xBF58_476D_1CE4_E5B9] {
            mixed ^= mixed >> shift;
            mixed = mixed.wrapping_mul(multiplier) & mask;
        }
        mixed ^= mixed >> shift;
        // The bucket is the mixed key's place among the buckets, by its high bits (no
        // division); a bucket spans fewer than 2^rest_bits mixed keys, so its low
        // rest_bits tell those apart.
        let buckets = self.buckets.len() as u128;
        let bucket = (u128::from(mixed) * buckets) >> self.key_bits;
        (
            &self.buckets[bucket as usize],
            mixed & ((1 << self.rest_bits) - 1),
        )
    }

    fn pack(&self, rest: u64, record: Record) -> u64 {
        let value = |bound: i16| {
            (i32::from(bound).clamp(-self.max_seeds, self.max_seeds) + self.max_seeds) as u64
        };
        let (r, v) = (self.rest_bits, self.value_bits);
        debug_assert!(record.work > 0 && u32::from(record.best) < 1 << MOVE_BITS);
        rest | value(record.upper) << r
            | value(record.lower) << (r + v)
            | u64::from(record.best) << (r + 2 * v)
            | u64::from(record.work.min((1 << WORK_BITS) - 1)) << (r + 2 * v + MOVE_BITS)
    }

    fn unpack(&self, word: u64) -> Record {
        let (r, v) = (self.rest_bits, self.value_bits);
        let value = |at: u32| ((word >> at) & ((1 << v) - 1)) as i32 - self.max_seeds;
        Record {
            upper: value(r) as i16,
            lower: value(r + v) as i16,
            best: ((word >> (r + 2 * v)) & ((1 << MOVE_BITS) - 1)) as u8,
            work: (word >> (r + 2 * v + MOVE_BITS)) as u8,
        }
    }

    /// Whether `word` is the entry of the key whose rest is `rest` (empty entries are 0).
    fn holds(&self, word: u64, rest: u64) -> bool {
        word != 0 && (word ^ rest) & ((1 << self.rest_bits) - 1) == 0
    }

    /// Starts reading the bucket of `key` into the cache.
    pub fn prefetch(&self, key: u64) {
        memory::prefetch(self.place(key).0);
    }

    pub fn get(&self, key: u64) -> Option<Record> {
        let (bucket, rest) = self.place(key);
        bucket
            .0
            .iter()
            .map(|entry| entry.load(Ordering::Relaxed))
            .find(|&word| self.holds(word, rest))
            .map(|word| self.unpack(word))
    }

    /// Stores `record` for `key`: over its old record, else in a free entry, else over the
    /// entry of least work if that is no more than this one's. True when it took a free
    /// entry. Two threads may store the same new position at once in two entries: a
    /// look-up then finds the first, and both hold true bounds.
    pub fn put(&self, key: u64, record: Record) -> bool {
        let (bucket, rest) = self.place(key);
        let words = bucket
            .0
            .each_ref()
            .map(|entry| entry.load(Ordering::Relaxed));
        let work = |way: usize| self.unpack(words[way]).work;
        let target = (0..WAYS)
            .find(|&way| self.holds(words[way], rest))
            .or_else(|| (0..WAYS).find(|&way| words[way] == 0))
            .or_else(|| {
                (0..WAYS)
                    .min_by_key(|&way| work(way))
                    .filter(|&way| work(way) <= record.work)
            });
        let Some(way) = target else { return false };
        bucket.0[way].store(self.pack(rest, record), Ordering::Relaxed);
        words[way] == 0
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
    fn records_round_trip_and_keys_stay_apart() {
        // Kalah(6,4): 41-bit keys in a table of 1,000 buckets.
        let table = Table::new(Layout::new(6, 48).unwrap(), 1000 * BUCKET_BYTES).unwrap();
        assert_eq!((table.key_bits, table.buckets.len()), (41, 1000));
        let extreme = Record {
            lower: -48,
            upper: 48,
            best: 5,
            work: 63,
        };
        let mut keys: Vec<u64> = (0..40_000u64).map(|k| k * 104_729).collect();
        keys.push(1_399_358_844_975 - 1);
        for (n, &key) in keys.iter().enumerate() {
            table.put(
                key,
                Record {
                    lower: (n % 40) as i16 - 20,
                    ..record(5)
                },
            );
        }
        // Every key still held carries its own record: no two keys share an entry.
        let held = keys
            .iter()
            .enumerate()
            .filter(|&(n, &key)| {
                table.get(key).is_some_and(|found| {
                    assert_eq!(
                        found,
                        Record {
                            lower: (n % 40) as i16 - 20,
                            ..record(5)
                        }
                    );
                    true
                })
            })
            .count();
        assert_eq!(held, 8000, "every entry of the full table is some key's");
        table.put(keys[0], extreme);
        assert_eq!(table.get(keys[0]), Some(extreme));
        // Bounds beyond the board's seeds are kept as the seeds.
        table.put(
            keys[1],
            Record {
                lower: i16::MIN,
                upper: i16::MAX,
                ..record(6)
            },
        );
        assert_eq!(
            table.get(keys[1]),
            Some(Record {
                lower: -48,
                upper: 48,
                ..record(6)
            })
        );
    }

    #[test]
    fn a_full_bucket_gives_way_to_more_work_only() {
        // One bucket: every key shares it.
        let table = Table::new(Layout::new(2, 8).unwrap(), BUCKET_BYTES).unwrap();
        for key in 1..=8 {
            assert!(table.put(key, record(key as u8 * 2)));
        }
        assert!(!table.put(20, record(1)));
        assert_eq!(table.get(20), None, "less work than any entry held");
        assert!(!table.put(21, record(3)));
        assert_eq!(table.get(21), Some(record(3)));
        assert_eq!(table.get(1), None, "the entry of least work gave way");
        assert!((2..=8).all(|key| table.get(key).is_some()));
        assert!(!table.put(21, record(4)), "a key's own entry is rewritten");
    }

    #[test]
    fn boards_of_too_many_positions_are_refused() {
        assert!(
            Layout::new(8, 240).is_err(),
            "more positions than 64 bits count"
        );
        // Kalah(6,6): 47-bit keys leave a word 8 bits short, which 256 buckets say.
        let table = Table::new(Layout::new(6, 72).unwrap(), 1).unwrap();
        assert_eq!(table.buckets.len(), 256);
    }
}
