//! Exact values of every position with few seeds left on the board: an endgame database,
//! built before the search, layer by layer from the emptiest boards up, one byte a position
//! indexed by a perfect numbering of the seed distributions. No move puts seeds back on the
//! board, so a position's moves lead to layers already built or to its own layer (a move
//! that banks nothing), and the search below the database's limit becomes a single read.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use super::board::{ANY_MARGIN, MAX_PITS, MoverBoard};
use super::numbering::Numbering;
use crate::search::memory;

/// Values by position for boards of `pits` pits a side with at most `max_seeds` seeds on
/// the board.
pub struct Endgames {
    /// `value + 128`, 0 while not yet computed.
    values: memory::ZeroedArray<AtomicU8>,
    pits: usize,
    pub max_seeds: i32,
    empty_capture: bool,
    numbering: Numbering,
}

impl Endgames {
    /// The database of the most seeds, up to `most_seeds`, whose positions fit in `bytes`,
    /// or `None` if not even the smallest does any good (or an error if the system will not
    /// give the memory). Nothing is computed yet.
    pub fn within(
        pits: usize,
        most_seeds: usize,
        bytes: usize,
        empty_capture: bool,
    ) -> Result<Option<Endgames>, memory::OutOfMemory> {
        // Values are kept in a byte: at most 120 seeds either way.
        let numbering = Numbering::new(pits, most_seeds.min(120));
        let fits = |seeds: usize| numbering.count(seeds) <= bytes as u64;
        let Some(max_seeds) = (2..=most_seeds.min(120)).take_while(|&s| fits(s)).last() else {
            return Ok(None);
        };
        Ok(Some(Endgames {
            values: memory::ZeroedArray::new(numbering.count(max_seeds) as usize)?,
            pits,
            max_seeds: max_seeds as i32,
            empty_capture,
            numbering,
        }))
    }

    /// Positions held: every seed distribution up to `max_seeds`.
    pub fn positions(&self) -> usize {
        self.values.len()
    }

    /// Positions of up to `seeds` seeds on the board.
    pub fn positions_up_to(&self, seeds: i32) -> usize {
        self.numbering.count(seeds as usize) as usize
    }

    /// Computes every position, layer by layer (`done` is told each layer's seeds), on
    /// the current rayon pool. Threads may race to the same position of a layer; they
    /// write the same exact value, so the database does not depend on their number.
    pub fn build(&self, mut done: impl FnMut(i32)) {
        let m = self.pits;
        for seeds in 1..=self.max_seeds as u8 {
            // One task per row of the side to move. Within it the opponent's row varies
            // fastest: after a move that passes the turn, that row comes first on the
            // board turned round, the low-order end of the numbering, so the children the
            // task reads lie close together in memory.
            let mut mover_rows = Vec::new();
            for own in 1..seeds {
                for_each_row(m, own, &mut |row| mover_rows.push(*row));
            }
            mover_rows.into_par_iter().for_each(|row| {
                let mut pits = [0u8; 2 * MAX_PITS];
                pits[..m].copy_from_slice(&row[..m]);
                let own: u8 = row.iter().sum();
                for_each_row(m, seeds - own, &mut |theirs| {
                    pits[m..2 * m].copy_from_slice(&theirs[..m]);
                    self.compute(&MoverBoard::from_pits(&pits, m));
                });
            });
            done(i32::from(seeds));
        }
    }

    fn index(&self, board: &MoverBoard, seeds: usize) -> usize {
        self.numbering.index(board, seeds) as usize
    }

    /// The future margin of `board` for the side to move, computing it (and whatever of
    /// its own layer it leads to) if it is not known yet.
    fn compute(&self, board: &MoverBoard) -> i32 {
        let index = self.index(board, board.on_board() as usize);
        let known = self.values[index].load(Ordering::Relaxed);
        if known != 0 {
            return i32::from(known) - 128;
        }
        let children = board.children(self.empty_capture);
        for child in children.iter().filter(|child| !child.sown.over) {
            self.prefetch(&child.board);
        }
        let best = children
            .iter()
            .map(|child| child.value_within(ANY_MARGIN, |board, _| self.compute(board)))
            .max()
            .expect("both players have seeds, so the mover has a move");
        self.values[index].store((best + 128) as u8, Ordering::Relaxed);
        best
    }

    /// Starts reading the value of `board` (as for [`Endgames::value`]) into the cache.
    pub fn prefetch(&self, board: &MoverBoard) {
        memory::prefetch(&self.values[self.index(board, board.on_board() as usize)]);
    }

    /// The future margin of `board`, on which at most `max_seeds` seeds lie and both
    /// players have seeds, for the side to move (after [`Endgames::build`]).
    pub fn value(&self, board: &MoverBoard) -> i32 {
        let index = self.index(board, board.on_board() as usize);
        let known = self.values[index].load(Ordering::Relaxed);
        debug_assert_ne!(known, 0, "the database is built before it is read");
        i32::from(known) - 128
    }
}

/// Calls `visit` with every row of `pits` pits holding `seeds` seeds in all (the row in
/// the first `pits` entries).
fn for_each_row(pits: usize, seeds: u8, visit: &mut impl FnMut(&[u8; MAX_PITS])) {
    fn fill(
        row: &mut [u8; MAX_PITS],
        at: usize,
        seeds: u8,
        visit: &mut impl FnMut(&[u8; MAX_PITS]),
    ) {
        if at == 0 {
            row[0] = seeds;
            visit(row);
            return;
        }
        for here in 0..=seeds {
            row[at] = here;
            fill(row, at - 1, seeds - here, visit);
        }
    }
    fill(&mut [0; MAX_PITS], pits - 1, seeds, visit);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every seed distribution of up to `max_seeds` seeds on 2 × 2 pits, as boards.
    fn boards(max_seeds: u8) -> Vec<MoverBoard> {
        let mut found = Vec::new();
        for a in 0..=max_seeds {
            for b in 0..=max_seeds - a {
                for c in 0..=max_seeds - a - b {
                    for d in 0..=max_seeds - a - b - c {
                        found.push(MoverBoard::from_rows(&[a, b], &[c, d]));
                    }
                }
            }
        }
        found
    }

    #[test]
    fn positions_are_numbered_one_to_one_and_densely() {
        // C(6 + 4, 4) = 210 distributions of at most 6 seeds on 4 pits: 210 bytes.
        let endgames = Endgames::within(2, 10, 210, false).unwrap().unwrap();
        assert_eq!(endgames.max_seeds, 6);
        let mut indices: Vec<usize> = boards(6)
            .iter()
            .map(|board| endgames.index(board, board.on_board() as usize))
            .collect();
        assert_eq!(indices.len(), 210);
        indices.sort_unstable();
        assert_eq!(indices, (0..210).collect::<Vec<_>>());
    }

    /// The future margin by plain search, without the database.
    fn searched(board: &MoverBoard, empty_capture: bool) -> i32 {
        board
            .children(empty_capture)
            .iter()
            .map(|child| child.value_within(ANY_MARGIN, |board, _| searched(board, empty_capture)))
            .max()
            .unwrap()
    }

    #[test]
    fn every_position_holds_its_searched_value() {
        for empty_capture in [false, true] {
            let endgames = Endgames::within(3, 7, 1 << 20, empty_capture)
                .unwrap()
                .unwrap();
            endgames.build(|_| ());
            let mut checked = 0;
            for seeds in 2..=7 {
                for own in 1..seeds {
                    for_each_row(3, own, &mut |mover| {
                        for_each_row(3, seeds - own, &mut |theirs| {
                            let board = MoverBoard::from_rows(&mover[..3], &theirs[..3]);
                            assert_eq!(
                                endgames.value(&board),
                                searched(&board, empty_capture),
                                "{board:?}, empty capture {empty_capture}"
                            );
                            checked += 1;
                        });
                    });
                }
            }
            // Both rows non-empty: sum over s of Σ_own C(own+2,2)·C(s-own+2,2).
            assert_eq!(checked, 1_477);
        }
    }
}
