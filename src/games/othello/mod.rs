//! Othello (Reversi) on bitboards, the core game of the Othello ENN paper.
//!
//! Rules: 8×8, black moves first from d5/e4 black and d4/e5 white. A move must
//! flip at least one line of opponent discs; a side without a legal move passes; the game
//! ends when neither side can move. Final score counts discs, and the empty squares go to
//! the winner (the usual tournament rule).
//!
//! Here is the position and what it tells; [`Othello`] plays in `game.rs`, reads and
//! writes its notation in `text.rs`, counts leaves fast in `perft.rs`, finds flips line
//! by line in `line_flips.rs`, finds stable discs in `stability.rs` and reads GGF records
//! in `ggf.rs`.

pub mod bitboard;
mod game;
mod ggf;
pub mod line_flips;
mod perft;
mod square;
pub mod stability;
mod text;

pub use ggf::parse_ggf;
pub use square::Move;

use crate::games::Player;
use bitboard::legal_moves;

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

    /// The position under each of the board's eight symmetries, itself first (see
    /// [`bitboard::symmetric_images`]): the same game, the same side to move.
    pub fn images(&self) -> [Othello; 8] {
        let movers = bitboard::symmetric_images(self.mover);
        let opponents = bitboard::symmetric_images(self.opponent);
        std::array::from_fn(|k| Othello {
            mover: movers[k],
            opponent: opponents[k],
            to_move: self.to_move,
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
