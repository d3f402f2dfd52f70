//! Mancala games on one sowing engine: [`Mancala<R>`] plays any ruleset `R` that says how
//! to sow, which pits may be played, what the last seed does, and when the game ends.
//! Kalah, Oware/Ayo and Congklak are rulesets here; Congkak (rounds, burnt holes and a
//! simultaneous opening) is its own game on the same board and sowing.
//!
//! Position strings: the first player's (South's) pits from their left, comma-separated,
//! a space, North's pits from North's left, a space, South's store, a space, North's store,
//! a space, `S` or `N` for the side to move, and for a rule variant one more word (Kalah's
//! `empty-capture`). Kalah(6,4) starts as `4,4,4,4,4,4 4,4,4,4,4,4 0 0 S`.
//! Moves are pit numbers `1`…`m`, counted from the mover's own left, and `pass` where the
//! rules make a player without seeds pass (Congklak).
//!
//! What a ruleset says is [`Rules`] (`rules.rs`); [`Mancala`] plays in `game.rs`, reads and
//! writes its notation in `notation.rs` and describes itself in `describe.rs`.

mod board;
pub mod congkak;
pub mod congklak;
mod describe;
mod game;
mod history;
pub mod kalah;
mod notation;
pub mod oware;
mod rules;
pub(crate) mod text;

pub use board::{Board, Landing, MAX_PITS, Sowing, Spot};
pub use congkak::{Congkak, CongkakMove};
pub use congklak::Congklak;
pub use kalah::Kalah;
pub use oware::Oware;
pub use rules::{Rules, bank_rows, capture_opposite, playable_pits};

use crate::games::{MoveFacts, Player};
use history::History;

/// A game played on a mancala [`Board`]: [`Mancala`] under any ruleset, and [`Congkak`].
/// Board features, the networks' view of the pits and tests read the board through it,
/// so what they compute is written once for every such game.
pub trait OnBoard {
    /// The pits and the stores.
    fn board(&self) -> &Board;
}

impl<R: Rules> OnBoard for Mancala<R> {
    fn board(&self) -> &Board {
        &self.board
    }
}

/// A mancala position under rules `R`.
#[derive(Clone, Debug)]
pub struct Mancala<R: Rules> {
    rules: R,
    board: Board,
    to_move: Player,
    over: bool,
    /// Positions since the last capture (only for rules that end on repetition).
    history: History,
    /// What the move that led here did.
    last: MoveFacts,
}

impl<R: Rules> PartialEq for Mancala<R> {
    /// Positions are equal when board, side to move and rules are; the repetition history
    /// is context, not position.
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.board == other.board
            && self.to_move == other.to_move
            && self.over == other.over
    }
}

/// A pit to sow from: 0-based from the mover's left (written 1-based), or [`Pit::PASS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pit(pub u8);

impl Pit {
    /// The move of a player who has no seeds to sow, where the rules pass (Congklak).
    pub const PASS: Pit = Pit(u8::MAX);
}
