//! Exact values of every position with few seeds left on the board, computed as the search
//! first meets them and kept for good (one byte each, indexed by a perfect numbering of the
//! seed distributions): an endgame database filled on demand. Below the threshold the
//! search asks it instead of searching, which removes the long tails of the game tree.

use super::board::{MAX_PITS, MoverBoard};

/// Largest binomial coefficient argument needed: seeds plus pits.
const MAX_N: usize = 255 + 2 * MAX_PITS;

/// Values by position for boards of `pits` pits a side with at most `max_seeds` seeds on
/// the board.
pub struct Endgames {
    /// `value + 128`, 0 where not yet known.
    values: Vec<u8>,
    pits: usize,
    pub max_seeds: i32,
    /// `binomial[n][k]` for k up to the number of pits.
    binomial: Vec<[u64; 2 * MAX_PITS + 1]>,
}

impl Endgames {
    /// The database of the most seeds, up to `most_seeds`, whose positions fit in `bytes`,
    /// or `None` if not even the smallest does any good.
    pub fn within(pits: usize, most_seeds: usize, bytes: usize) -> Option<Endgames> {
        let k = 2 * pits;
        let mut binomial = vec![[0u64; 2 * MAX_PITS + 1]; MAX_N + 1];
        for n in 0..=MAX_N {
            binomial[n][0] = 1;
            for j in 1..=k.min(n) {
                binomial[n][j] = binomial[n - 1][j - 1].saturating_add(binomial[n - 1][j]);
            }
        }
        // Positions with at most s seeds on 2m pits: C(s + 2m, 2m).
        let fits = |seeds: usize| binomial[seeds + k][k] <= bytes as u64;
        // Values are kept in a byte: at most 120 seeds either way.
        let max_seeds = (0..=most_seeds.min(120)).take_while(|&s| fits(s)).last()?;
        (max_seeds >= 2).then(|| Endgames {
            values: vec![0; binomial[max_seeds + k][k] as usize],
            pits,
            max_seeds: max_seeds as i32,
            binomial,
        })
    }

    /// The position's number: those with fewer seeds first, then the combinatorial number
    /// of its stars-and-bars arrangement.
    fn index(&self, board: &MoverBoard, seeds: usize) -> usize {
        let k = 2 * self.pits;
        let mut index = self.binomial[seeds + k - 1][k];
        let mut bar = 0;
        for (j, &pit) in board.pits()[..k - 1].iter().enumerate() {
            bar += usize::from(pit);
            index += self.binomial[bar + j][j + 1];
        }
        index as usize
    }

    /// The future margin of `board` (on which at most `max_seeds` seeds lie) for the side
    /// to move, counting each position valued afresh in `nodes`.
    pub fn value(&mut self, board: &MoverBoard, empty_capture: bool, nodes: &mut u64) -> i32 {
        let seeds = board.on_board() as usize;
        let index = self.index(board, seeds);
        if self.values[index] != 0 {
            return i32::from(self.values[index]) - 128;
        }
        *nodes += 1;
        let mut best = i32::MIN;
        for pit in board.moves() {
            let mut child = *board;
            let sown = child.sow(pit, empty_capture);
            let value = sown.banked
                + if sown.over {
                    0
                } else if sown.again {
                    self.value(&child, empty_capture, nodes)
                } else {
                    -self.value(&child, empty_capture, nodes)
                };
            best = best.max(value);
        }
        self.values[index] = (best + 128) as u8;
        best
    }
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
        let endgames = Endgames::within(2, 10, 210).unwrap();
        assert_eq!(endgames.max_seeds, 6);
        let mut indices: Vec<usize> = boards(6)
            .iter()
            .map(|board| endgames.index(board, board.on_board() as usize))
            .collect();
        assert_eq!(indices.len(), 210);
        indices.sort_unstable();
        assert_eq!(indices, (0..210).collect::<Vec<_>>());
    }
}
