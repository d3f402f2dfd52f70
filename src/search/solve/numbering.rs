//! A perfect numbering of the positions of a board: every distribution of at most a given
//! number of seeds over its pits gets its own number, those with fewer seeds first, with no
//! gaps. The endgame database is an array in this order, and the transposition table keys
//! its entries by it: a number of 41 bits names any position of Kalah(6,4), where the pits
//! themselves take 12 bytes.

use super::board::{MAX_PITS, MoverBoard};

/// Positions of boards of one width with at most `max_seeds` seeds on the board.
pub struct Numbering {
    /// Pits on the whole board (both rows).
    pits: usize,
    /// `binomial[n][j]`, saturating at `u64::MAX`, for j up to `pits` and n up to
    /// `max_seeds + pits`.
    binomial: Vec<[u64; 2 * MAX_PITS + 1]>,
}

impl Numbering {
    /// The numbering of boards of `pits` pits a side with at most `max_seeds` seeds.
    pub fn new(pits: usize, max_seeds: usize) -> Numbering {
        let k = 2 * pits;
        let mut binomial = vec![[0u64; 2 * MAX_PITS + 1]; max_seeds + k + 1];
        for n in 0..binomial.len() {
            binomial[n][0] = 1;
            for j in 1..=k.min(n) {
                binomial[n][j] = binomial[n - 1][j - 1].saturating_add(binomial[n - 1][j]);
            }
        }
        Numbering { pits: k, binomial }
    }

    /// Positions of at most `seeds` seeds (at most the numbering's own): C(seeds + 2m, 2m),
    /// or `u64::MAX` if that many do not fit in 64 bits.
    pub fn count(&self, seeds: usize) -> u64 {
        self.binomial[seeds + self.pits][self.pits]
    }

    /// The number of `board`, which holds `seeds` seeds: the positions of fewer seeds,
    /// then the combinatorial number of its stars-and-bars arrangement.
    pub fn index(&self, board: &MoverBoard, seeds: usize) -> u64 {
        let k = self.pits;
        let mut index = self.binomial[seeds + k - 1][k];
        let mut bar = 0;
        for (j, &pit) in board.pits()[..k - 1].iter().enumerate() {
            bar += usize::from(pit);
            index += self.binomial[bar + j][j + 1];
        }
        index
    }
}
