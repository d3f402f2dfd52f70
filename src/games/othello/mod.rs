//! Othello (Reversi) on bitboards, the core game of seed 004.
//!
//! Rules: 8×8, black moves first from d5/e4 black and d4/e5 white. A move must
//! flip at least one line of opponent discs; a side without a legal move passes; the game
//! ends when neither side can move. Final score counts discs, and the empty squares go to
//! the winner (the usual tournament rule).

pub mod bitboard;
mod ggf;
mod perft;
mod square;
mod text;

pub use ggf::parse_ggf;
pub use square::Move;

use crate::games::{Game, MoveList, Outcome, Player, position_key};
use bitboard::{flips, legal_moves, squares};

/// An Othello position: the discs of the side to move, the opponent's, and who that is.
/// Storing mover/opponent (rather than black/white) makes a move a flip and a swap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Othello {
    mover: u64,
    opponent: u64,
    to_move: Player,
}

impl Default for Othello {
    fn default() -> Self {
        Othello::start()
    }
}

impl Othello {
    /// The standard start position, black (the first player) to move.
    pub fn start() -> Othello {
        let d4 = 1u64 << 27;
        let e4 = 1u64 << 28;
        let d5 = 1u64 << 35;
        let e5 = 1u64 << 36;
        Othello {
            mover: d5 | e4,
            opponent: d4 | e5,
            to_move: Player::First,
        }
    }

    /// A position from black and white disc sets; `None` if they overlap.
    pub fn from_discs(black: u64, white: u64, to_move: Player) -> Option<Othello> {
        if black & white != 0 {
            return None;
        }
        let (mover, opponent) = match to_move {
            Player::First => (black, white),
            Player::Second => (white, black),
        };
        Some(Othello {
            mover,
            opponent,
            to_move,
        })
    }

    /// The disc set of `player` (first = black, second = white).
    #[inline]
    pub fn discs(&self, player: Player) -> u64 {
        if player == self.to_move {
            self.mover
        } else {
            self.opponent
        }
    }

    /// The empty squares.
    #[inline]
    pub fn empties(&self) -> u64 {
        !(self.mover | self.opponent)
    }

    /// Placement squares of `player` in this position, whether or not it is their turn.
    #[inline]
    pub fn move_squares(&self, player: Player) -> u64 {
        let own = self.discs(player);
        legal_moves(own, self.discs(player.opponent()))
    }

    /// True when neither side can place a disc.
    #[inline]
    pub fn is_over(&self) -> bool {
        legal_moves(self.mover, self.opponent) == 0 && legal_moves(self.opponent, self.mover) == 0
    }

    fn disc_counts(&self) -> [i32; 2] {
        [Player::First, Player::Second].map(|p| self.discs(p).count_ones() as i32)
    }
}

/// Symbol for a square in position strings and board diagrams.
fn symbol(black: bool, white: bool) -> char {
    match (black, white) {
        (true, _) => 'X',
        (_, true) => 'O',
        _ => '-',
    }
}

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
}
