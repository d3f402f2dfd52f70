//! [`Othello`] as a [`Game`]: its placements (or the forced pass), a move as a flip and a
//! swap of the disc sets, and the final score with the empty squares given to the winner.

use crate::games::{Game, MoveList, Outcome, Player, position_key};

use super::bitboard::{flips, legal_moves, squares};
use super::{Move, Othello};

impl Game for Othello {
    type Move = Move;

    #[inline]
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut MoveList<Move>) {
        moves.clear();
        let placements = legal_moves(self.mover, self.opponent);
        if placements != 0 {
            moves.extend(squares(placements).map(Move::at));
        } else if legal_moves(self.opponent, self.mover) != 0 {
            moves.push(Move::PASS);
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        let placements = legal_moves(self.mover, self.opponent);
        if placements != 0 {
            placements.count_ones() as usize
        } else {
            usize::from(legal_moves(self.opponent, self.mover) != 0)
        }
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        if let Some(square) = mv.square() {
            let flipped = flips(self.mover, self.opponent, square);
            self.mover |= flipped | (1u64 << square);
            self.opponent &= !flipped;
        }
        std::mem::swap(&mut self.mover, &mut self.opponent);
        self.to_move = self.to_move.opponent();
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(Outcome::from_score(self.disc_counts()))
    }

    fn score(&self) -> [i32; 2] {
        let mut counts = self.disc_counts();
        if self.is_over() {
            let empties = 64 - counts[0] - counts[1];
            match counts[0].cmp(&counts[1]) {
                std::cmp::Ordering::Greater => counts[0] += empties,
                std::cmp::Ordering::Less => counts[1] += empties,
                std::cmp::Ordering::Equal => {}
            }
        }
        counts
    }

    #[inline]
    fn position_key(&self) -> Option<u64> {
        Some(position_key(&[
            self.mover,
            self.opponent,
            self.to_move.index() as u64,
        ]))
    }

    /// The empty squares: what a search has left to look at.
    #[inline]
    fn stage(&self) -> u32 {
        self.empties().count_ones()
    }
}
