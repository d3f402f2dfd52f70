//! N-tuple networks (Lucas 2008; systematic short tuples, Jaśkowski 2014): a board is read
//! as cells with a few states each, and every n-tuple (a short sequence of cells) indexes a
//! lookup table with the states it sees. The value is the sum of the looked-up weights.
//!
//! Each tuple is read at all of its images under the game's symmetries (Othello: the eight
//! rotations and reflections of the board), and every image shares the tuple's table, so
//! what is learned in one corner holds in all four.
//!
//! Chromosome layout: the tables of the tuples in order; table t has `states^len(t)`
//! entries, and cells (c₀, c₁, …, c_{n−1}) in states (s₀, …, s_{n−1}) index entry
//! Σ sₖ · states^k.

use std::sync::atomic::{AtomicU64, Ordering};

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

use crate::nn::fast_exp;

/// Longest tuple a network may have (3^10 = 59,049 entries for a 2×5 Othello corner).
pub const MAX_TUPLE: usize = 10;
/// Most cells a board may have.
pub const MAX_CELLS: usize = 64;
/// Largest table a tuple may have, a guard against files that would need gigabytes.
pub const MAX_TABLE: usize = 1 << 20;
/// Most placements (tuples times their images) a network may have: the incremental
/// evaluation keeps one index per placement on the stack.
pub const MAX_PLACEMENTS: usize = 1024;
/// Most global features a network may read.
pub const MAX_FEATURES: usize = 8;
/// Most weights one evaluation may look up (see [`NTuple::lookups`]).
pub const MAX_LOOKUPS: usize = MAX_PLACEMENTS + MAX_FEATURES;

/// What an n-tuple network reads: the number of states of a cell and the tuples (lists of
/// cell indices). Stored in champion files as is, so a network always reads its board the
/// way it was trained, whatever tuple sets later versions offer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TupleSpec {
    /// The tuple set's name, for people (`logistello`, `straight2`, …).
    pub name: String,
    /// States a cell can be in (Othello: empty, own, opponent's).
    pub states: u8,
    pub tuples: Vec<Vec<u8>>,
    /// Global features: tables looked up by one whole-board number each (a disc count, a
    /// move count), for what no local pattern sees.
    pub features: Vec<GlobalFeature>,
}

/// A global feature of the game (by the name the game gives it) and its table size: the
/// feature's values run from 0 to `size − 1`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GlobalFeature {
    pub name: String,
    pub size: u16,
}

/// Splits a tuple-set name `BASE+EXTRA+…` into its base and the global features the extras
/// add: each extra names a group of features (`groups`: extra → feature names), found with
/// their sizes among the game's `offered` ones. `None` for an unknown extra or a feature
/// named twice.
pub fn split_set_name<'n>(
    name: &'n str,
    groups: &[(&str, &[&str])],
    offered: &[(&str, u16)],
) -> Option<(&'n str, Vec<GlobalFeature>)> {
    let mut parts = name.split('+');
    let base = parts.next()?;
    let mut features: Vec<GlobalFeature> = Vec::new();
    for extra in parts {
        let &(_, names) = groups.iter().find(|(group, _)| *group == extra)?;
        for &feature in names {
            let &(name, size) = offered.iter().find(|(n, _)| *n == feature)?;
            if features.iter().any(|f| f.name == name) {
                return None;
            }
            features.push(GlobalFeature {
                name: name.to_string(),
                size,
            });
        }
    }
    Some((base, features))
}

/// Why a tuple spec does not fit a game.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TupleError {
    #[error("the n-tuple network has no tuples")]
    Empty,
    #[error("tuple {0} has {1} cells; each tuple needs 1 to {MAX_TUPLE}")]
    BadLength(usize, usize),
    #[error("tuple {0} reads cell {1}, but the board has {2} cells")]
    BadCell(usize, u8, usize),
    #[error("tuple {0} reads cell {1} twice")]
    RepeatedCell(usize, u8),
    #[error("the network's cells have {found} states, the game's have {expected}")]
    States { found: u8, expected: u8 },
    #[error("tuple {0} would need a table of more than {MAX_TABLE} entries")]
    TooLarge(usize),
    #[error("the tuples have more than {MAX_PLACEMENTS} placements on the board")]
    TooManyPlacements,
    #[error("the network reads {0} global features; at most {MAX_FEATURES} are allowed")]
    TooManyFeatures(usize),
    #[error("the game has no global feature '{0}' of {1} values")]
    UnknownFeature(String, u16),
}

impl TupleSpec {
    /// Entries of tuple `t`'s table.
    fn table_len(&self, t: usize) -> usize {
        usize::from(self.states).pow(self.tuples[t].len() as u32)
    }

    /// Chromosome length: the sum of the table sizes.
    pub fn genes(&self) -> usize {
        self.tuple_genes()
            + self
                .features
                .iter()
                .map(|f| usize::from(f.size))
                .sum::<usize>()
    }

    /// Weights of the tuple tables, which come first in the chromosome.
    fn tuple_genes(&self) -> usize {
        (0..self.tuples.len()).map(|t| self.table_len(t)).sum()
    }

    /// An upper bound of the bytes an [`NTuple`] of this spec takes on a board of
    /// `symmetries` symmetries: its weights, its copy of the spec, and its placements (a
    /// byte a cell, an offset each) and the cell index over them (8 bytes a cell of a
    /// placement), lists that grow by doubling.
    pub fn network_bytes(&self, symmetries: usize) -> usize {
        let images = symmetries.max(1);
        let cells = images * self.tuples.iter().map(Vec::len).sum::<usize>();
        let placements = images * self.tuples.len();
        let spec = 64 * (self.tuples.len() + self.features.len()) + self.name.len();
        self.genes() * std::mem::size_of::<f32>() + spec + 2 * (9 * cells + 4 * placements) + 4096
    }

    /// Checks the spec against a board of `cells` cells with `states` states each,
    /// `symmetries` symmetries and the global features `offered` (names and sizes).
    pub fn check(
        &self,
        cells: usize,
        states: u8,
        symmetries: usize,
        offered: &[(&str, u16)],
    ) -> Result<(), TupleError> {
        if self.features.len() > MAX_FEATURES {
            return Err(TupleError::TooManyFeatures(self.features.len()));
        }
        if let Some(feature) = self
            .features
            .iter()
            .find(|f| !offered.contains(&(f.name.as_str(), f.size)))
        {
            return Err(TupleError::UnknownFeature(
                feature.name.clone(),
                feature.size,
            ));
        }
        if self.tuples.is_empty() {
            return Err(TupleError::Empty);
        }
        if self.states != states {
            return Err(TupleError::States {
                found: self.states,
                expected: states,
            });
        }
        for (t, tuple) in self.tuples.iter().enumerate() {
            if !(1..=MAX_TUPLE).contains(&tuple.len()) {
                return Err(TupleError::BadLength(t, tuple.len()));
            }
            if let Some(&cell) = tuple.iter().find(|&&c| usize::from(c) >= cells) {
                return Err(TupleError::BadCell(t, cell, cells));
            }
            for (k, cell) in tuple.iter().enumerate() {
                if tuple[..k].contains(cell) {
                    return Err(TupleError::RepeatedCell(t, *cell));
                }
            }
            if (usize::from(states) as f64).powi(tuple.len() as i32) > MAX_TABLE as f64 {
                return Err(TupleError::TooLarge(t));
            }
        }
        // Each tuple has at most one placement per symmetry.
        if self.tuples.len() * symmetries.max(1) + self.features.len() > MAX_PLACEMENTS {
            return Err(TupleError::TooManyPlacements);
        }
        Ok(())
    }
}

/// The placements of every tuple of one length: their cells (`len` per placement, one
/// placement after another) and each one's table offset. Grouping by length gives the
/// index computation a fixed trip count.
#[derive(Clone, Debug)]
struct Group {
    len: usize,
    cells: Vec<u8>,
    offsets: Vec<u32>,
}

/// An n-tuple network ready to evaluate: the weights and every placement of every tuple
/// (each tuple at its distinct images under the symmetries), grouped by tuple length.
#[derive(Clone, Debug)]
pub struct NTuple {
    spec: TupleSpec,
    weights: Vec<f32>,
    groups: Vec<Group>,
    /// `powers[k]` = states^k, the weight of the k-th cell of a tuple in its index.
    powers: [u32; MAX_TUPLE],
    /// For each cell, the placements reading it (numbered in evaluation order) with the
    /// power its state is multiplied by: `touching[touch_start[c]..touch_start[c + 1]]`.
    touching: Vec<(u16, u32)>,
    touch_start: Vec<u32>,
    /// Where each global feature's table starts in the chromosome.
    feature_offsets: Vec<u32>,
    /// Each global feature's place in the list the game offers.
    feature_sources: Vec<u8>,
    /// Names this network's placements (not its weights): networks built apart get
    /// different ids and clones share theirs, so an [`IndexCache`] knows whose indices it
    /// holds.
    placements_id: u64,
}

/// The next [`NTuple::placements_id`].
static NEXT_PLACEMENTS_ID: AtomicU64 = AtomicU64::new(0);

/// A board indexed once, so that boards differing from it in a few cells (the positions a
/// move leads to) can be evaluated by adjusting only the placements those cells touch.
pub struct IndexedBoard {
    states: [u8; MAX_CELLS],
    indices: Vec<u32>,
}

impl IndexedBoard {
    /// The weight index of every placement, in evaluation order.
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }
}

/// The board last indexed from each of a game's two perspectives. Two plies apart the same
/// perspective sees a board a few cells away, so indexing a game's positions in order
/// through this costs a few placements a move instead of all of them. Indices are whole
/// numbers, so a board indexed this way is exactly the board indexed afresh.
#[derive(Default)]
pub struct IndexCache {
    boards: [Option<IndexedBoard>; 2],
    /// The [`NTuple::placements_id`] of the network the boards were indexed for.
    placements_id: Option<u64>,
}

impl IndexCache {
    /// `states` indexed by `ntuple`, seen from `perspective` (0 or 1): the last board of
    /// that perspective moved to `states`, or a fresh index if there is none or it was
    /// indexed for another network's placements.
    pub fn index(
        &mut self,
        ntuple: &NTuple,
        perspective: usize,
        states: &[u8; MAX_CELLS],
    ) -> &IndexedBoard {
        if self.placements_id != Some(ntuple.placements_id) {
            *self = IndexCache {
                boards: [None, None],
                placements_id: Some(ntuple.placements_id),
            };
        }
        match &mut self.boards[perspective] {
            Some(board) => {
                ntuple.shift_indices(&mut board.indices, &board.states, states);
                board.states = *states;
                board
            }
            slot => slot.insert(ntuple.index_board(states)),
        }
    }
}

impl NTuple {
    /// Builds the network for `spec` with `weights` (`spec.genes()` of them), placing every
    /// tuple at its images under `symmetries` (each a map from cell to cell; the identity
    /// must be among them) and finding its global features among the game's `offered`
    /// ones (see [`TupleSpec::check`]). Images that read the same cells in the same order
    /// are placed once.
    pub fn new(
        spec: TupleSpec,
        weights: Vec<f32>,
        symmetries: &[Vec<u8>],
        offered: &[(&str, u16)],
    ) -> NTuple {
        assert_eq!(weights.len(), spec.genes(), "weights for the tuple tables");
        let mut groups: Vec<Group> = Vec::new();
        let mut offset = 0usize;
        for (t, tuple) in spec.tuples.iter().enumerate() {
            let mut images: Vec<Vec<u8>> = Vec::new();
            for symmetry in symmetries {
                let image: Vec<u8> = tuple.iter().map(|&c| symmetry[usize::from(c)]).collect();
                if !images.contains(&image) {
                    images.push(image);
                }
            }
            let group = match groups.iter().position(|g| g.len == tuple.len()) {
                Some(g) => &mut groups[g],
                None => {
                    groups.push(Group {
                        len: tuple.len(),
                        cells: Vec::new(),
                        offsets: Vec::new(),
                    });
                    groups.last_mut().expect("just pushed")
                }
            };
            for image in images {
                group.cells.extend(image);
                group.offsets.push(offset as u32);
            }
            offset += spec.table_len(t);
        }
        let mut powers = [0u32; MAX_TUPLE];
        let mut power = 1u32;
        for slot in &mut powers {
            *slot = power;
            power = power.saturating_mul(u32::from(spec.states));
        }
        let mut feature_offsets = Vec::new();
        let mut feature_sources = Vec::new();
        for feature in &spec.features {
            feature_offsets.push(offset as u32);
            offset += usize::from(feature.size);
            let source = offered
                .iter()
                .position(|&(name, _)| name == feature.name)
                .expect("the spec was checked against the game's features");
            feature_sources.push(source as u8);
        }
        let mut network = NTuple {
            spec,
            weights,
            groups,
            powers,
            touching: Vec::new(),
            touch_start: Vec::new(),
            feature_offsets,
            feature_sources,
            placements_id: NEXT_PLACEMENTS_ID.fetch_add(1, Ordering::Relaxed),
        };
        network.index_cells();
        network
    }

    /// Builds the cell → placements lists used by incremental evaluation.
    fn index_cells(&mut self) {
        let mut by_cell: Vec<Vec<(u16, u32)>> = vec![Vec::new(); MAX_CELLS];
        let mut placement = 0u16;
        for group in &self.groups {
            for cells in group.cells.chunks_exact(group.len) {
                for (k, &cell) in cells.iter().enumerate() {
                    by_cell[usize::from(cell)].push((placement, self.powers[k]));
                }
                placement += 1;
            }
        }
        self.touch_start = vec![0];
        for list in by_cell {
            self.touching.extend(list);
            self.touch_start.push(self.touching.len() as u32);
        }
    }

    pub fn spec(&self) -> &TupleSpec {
        &self.spec
    }

    /// For each global feature of the spec, its index in the game's offered list.
    pub fn feature_sources(&self) -> &[u8] {
        &self.feature_sources
    }

    /// The chromosome: every table in order.
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// Gives this network the weights of `other`, a network of the same spec.
    pub fn copy_weights_from(&mut self, other: &NTuple) {
        self.weights.copy_from_slice(&other.weights);
    }

    /// Number of placements (tuples times their distinct images): the table look-ups of
    /// one evaluation.
    pub fn placements(&self) -> usize {
        self.groups.iter().map(|g| g.offsets.len()).sum()
    }

    /// Calls `visit` with the weight index of every placement on a board whose cells are
    /// in `states` (one per cell, each below the spec's state count).
    #[inline(always)]
    fn for_each_index(&self, states: &[u8; MAX_CELLS], mut visit: impl FnMut(usize)) {
        for group in &self.groups {
            match group.len {
                1 => self.group_indices::<1>(group, states, &mut visit),
                2 => self.group_indices::<2>(group, states, &mut visit),
                3 => self.group_indices::<3>(group, states, &mut visit),
                4 => self.group_indices::<4>(group, states, &mut visit),
                5 => self.group_indices::<5>(group, states, &mut visit),
                6 => self.group_indices::<6>(group, states, &mut visit),
                7 => self.group_indices::<7>(group, states, &mut visit),
                8 => self.group_indices::<8>(group, states, &mut visit),
                9 => self.group_indices::<9>(group, states, &mut visit),
                _ => self.group_indices::<MAX_TUPLE>(group, states, &mut visit),
            }
        }
    }

    /// [`NTuple::for_each_index`] for the placements of one group, whose tuples have `N`
    /// cells: each index is Σ states[cell k] · states^k, with no chain between the terms.
    #[inline(always)]
    fn group_indices<const N: usize>(
        &self,
        group: &Group,
        states: &[u8; MAX_CELLS],
        visit: &mut impl FnMut(usize),
    ) {
        for (cells, &offset) in group.cells.chunks_exact(N).zip(&group.offsets) {
            let mut index = offset;
            for k in 0..N {
                index += u32::from(states[usize::from(cells[k]) % MAX_CELLS]) * self.powers[k];
            }
            visit(index as usize);
        }
    }

    /// The sum of the weights the board looks up (before any squashing): `states` of its
    /// cells and `features`, the values of the spec's global features in order.
    #[inline]
    pub fn sum(&self, states: &[u8; MAX_CELLS], features: &[u16]) -> f32 {
        let mut indices: ArrayVec<u32, MAX_PLACEMENTS> = ArrayVec::new();
        self.for_each_index(states, |i| indices.push(i as u32));
        self.looked_up_sum(&indices) + self.feature_sum(features)
    }

    /// The weight index of each global feature's value (values past a table's end read
    /// its last entry).
    fn feature_indices<'a>(&'a self, features: &'a [u16]) -> impl Iterator<Item = usize> + 'a {
        self.spec
            .features
            .iter()
            .zip(&self.feature_offsets)
            .zip(features)
            .map(|((feature, &offset), &value)| {
                offset as usize + usize::from(value.min(feature.size - 1))
            })
    }

    /// The global features' share of the sum.
    #[inline]
    fn feature_sum(&self, features: &[u16]) -> f32 {
        self.feature_indices(features)
            .map(|i| self.weights[i])
            .sum()
    }

    /// Indexes the board `states` for [`NTuple::sum_near`].
    pub fn index_board(&self, states: &[u8; MAX_CELLS]) -> IndexedBoard {
        let mut indices = Vec::with_capacity(self.placements());
        self.for_each_index(states, |i| indices.push(i as u32));
        IndexedBoard {
            states: *states,
            indices,
        }
    }

    /// [`NTuple::sum`] of the board `states` with global `features`, computed from `near`,
    /// an indexed board that differs from it in few cells: only the placements of the
    /// changed cells are redone.
    pub fn sum_near(&self, near: &IndexedBoard, states: &[u8; MAX_CELLS], features: &[u16]) -> f32 {
        let mut indices: ArrayVec<u32, MAX_PLACEMENTS> = ArrayVec::new();
        indices
            .try_extend_from_slice(&near.indices)
            .expect("a network has at most MAX_PLACEMENTS placements");
        self.shift_indices(&mut indices, &near.states, states);
        self.looked_up_sum(&indices) + self.feature_sum(features)
    }

    /// Moves `indices`, the placements' weight indices on the board `old`, to the board
    /// `new`: only the placements of the cells that differ are redone.
    #[inline]
    fn shift_indices(&self, indices: &mut [u32], old: &[u8; MAX_CELLS], new: &[u8; MAX_CELLS]) {
        let word = |states: &[u8; MAX_CELLS], w: usize| {
            u64::from_le_bytes(states[8 * w..8 * w + 8].try_into().expect("eight cells"))
        };
        for w in 0..MAX_CELLS / 8 {
            // One bit set in each byte (cell) that differs, found eight cells at a time.
            let mut changed = word(old, w) ^ word(new, w);
            while changed != 0 {
                let byte = changed.trailing_zeros() / 8;
                changed &= !(0xff << (8 * byte));
                let cell = 8 * w + byte as usize;
                // A state's change times the cell's power, in wrapping arithmetic: the
                // index it leaves is exact however the terms wrap on the way.
                let change = u32::from(new[cell]).wrapping_sub(u32::from(old[cell]));
                let touched = &self.touching
                    [self.touch_start[cell] as usize..self.touch_start[cell + 1] as usize];
                for &(placement, power) in touched {
                    let slot = &mut indices[usize::from(placement)];
                    *slot = slot.wrapping_add(change.wrapping_mul(power));
                }
            }
        }
    }

    /// The sum of the weights at `indices`, in four interleaved partial sums so that the
    /// look-ups overlap instead of waiting on one running total.
    #[inline]
    fn looked_up_sum(&self, indices: &[u32]) -> f32 {
        let mut lanes = [0.0f32; 4];
        let chunks = indices.chunks_exact(4);
        let tail: f32 = chunks
            .remainder()
            .iter()
            .map(|&i| self.weights[i as usize])
            .sum();
        for chunk in chunks {
            for k in 0..4 {
                lanes[k] += self.weights[chunk[k] as usize];
            }
        }
        (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]) + tail
    }

    /// The weights one evaluation looks up: one per placement and one per global feature.
    pub fn lookups(&self) -> usize {
        self.placements() + self.feature_offsets.len()
    }

    /// Appends to `out` the weight indices that the indexed `board` with global `features`
    /// looks up, [`NTuple::lookups`] of them: the placements' in evaluation order, then the
    /// global features'. They depend on the board alone, not on the weights, so they can be
    /// found while a game is played and used by [`NTuple::learn`] later.
    pub fn board_lookups(
        &self,
        board: &IndexedBoard,
        features: &[u16],
        out: &mut impl Extend<u32>,
    ) {
        out.extend(board.indices.iter().copied());
        out.extend(self.feature_indices(features).map(|i| i as u32));
    }

    /// One step of gradient learning of the squashed value tanh(sum) on the board whose
    /// weight indices are `lookups` (see [`NTuple::board_lookups`]): every weight it looks up
    /// moves by `rate` · (target − value) · (1 − value²) (a weight looked up twice moves
    /// twice). Returns the value before the step.
    pub fn learn(&mut self, lookups: &[u32], target: f32, rate: f32) -> f32 {
        let value = tanh(self.looked_up_sum(lookups));
        let step = rate * (target - value) * (1.0 - value * value);
        for &i in lookups {
            self.weights[i as usize] += step;
        }
        value
    }
}

/// tanh from the branch-free exponential: tanh x = 1 − 2 / (e^{2x} + 1), within 1e-6.
#[inline]
pub fn tanh(x: f32) -> f32 {
    1.0 - 2.0 / (fast_exp(2.0 * x) + 1.0)
}
