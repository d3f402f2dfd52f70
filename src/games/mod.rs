//! The game layer: the [`Game`] rules trait that every board game implements, so that
//! search, evolution, the arena and the CLI are written once and serve all games, with
//! [`Notation`] and [`Describe`] for text and [`JointDecision`] for simultaneous moves.
//!
//! Here are the small types every game shares; [`Game`] is in `game.rs`, [`Notation`] in
//! `notation.rs`, and [`Describe`] with [`MoveFacts`] in `describe.rs`.

mod describe;
mod game;
pub mod joint;
pub mod mancala;
mod notation;
pub mod othello;
pub mod perft;
pub mod registry;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use describe::{Describe, MoveFacts};
pub use game::{Game, position_key};
pub use joint::JointDecision;
pub use notation::Notation;
pub use perft::{Perft, perft};
pub use registry::{GameName, UnknownGame};

/// Upper bound on the number of legal moves in any supported position. Othello's known
/// maximum is 33; mancala games have at most one move per pit (joint opening moves of
/// Congkak at most 7 × 7 = 49).
pub const MAX_MOVES: usize = 64;

/// A fixed-capacity move list, so move generation never allocates in the search.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// One of the two players. `First` moves first from the standard start position
/// (black in Othello, South in mancala games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: the index used in score pairs and JSON.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Both players in turn order, for loops over sides.
    pub const BOTH: [Player; 2] = [Player::First, Player::Second];
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The result of a finished game with final `score` (first, second): more wins.
    pub fn from_score(score: [i32; 2]) -> Outcome {
        match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::First),
            std::cmp::Ordering::Less => Outcome::Win(Player::Second),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// +1 for a win of `player`, 0 for a draw, −1 for a loss.
    pub fn sign_for(self, player: Player) -> i32 {
        match self {
            Outcome::Draw => 0,
            Outcome::Win(p) if p == player => 1,
            Outcome::Win(_) => -1,
        }
    }
}

/// Why a move could not be played or parsed, or a position could not be read.
/// These are always caused by the caller's input, so the CLI maps them to exit code 2.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("malformed move '{text}': {reason}")]
    MalformedMove { text: String, reason: String },
    #[error("illegal move '{mv}' in position {position}")]
    IllegalMove { mv: String, position: String },
    #[error("malformed position '{text}': {reason}")]
    MalformedPosition { text: String, reason: String },
}
