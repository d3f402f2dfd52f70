//! Othello's fast leaf count: recursion over (mover, opponent) bitboards and move masks,
//! with no move list, no position copy and bulk counting at the last ply.

use super::Othello;
use super::bitboard::{flips, legal_moves, squares};
use crate::games::Perft;

impl Perft for Othello {
    fn perft_fast(&self, depth: u32) -> u64 {
        let own = self.discs(self.to_move);
        let opp = self.discs(self.to_move.opponent());
        if depth == 0 {
            1
        } else {
            leaves(own, opp, depth)
        }
    }
}

/// Leaves `depth` ≥ 1 plies below the position where the side owning `own` is to move.
fn leaves(own: u64, opp: u64, depth: u32) -> u64 {
    let moves = legal_moves(own, opp);
    if moves == 0 {
        // A pass is one ply; with no reply either the game is over, a single leaf.
        return if depth == 1 || legal_moves(opp, own) == 0 {
            1
        } else {
            leaves(opp, own, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    squares(moves)
        .map(|square| {
            let flipped = flips(own, opp, square);
            leaves(opp & !flipped, own | flipped | 1u64 << square, depth - 1)
        })
        .sum()
}
