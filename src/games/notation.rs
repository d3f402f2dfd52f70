//! [`Notation`], a game as text that reads back exactly: its name, its moves and its
//! positions, and the checked play of untrusted moves.

use super::{Game, GameError};

/// A game's notation: its name, moves and positions as text that reads back exactly.
pub trait Notation: Game {
    /// The game's command-line name (`othello`, `kalah`, …).
    fn name(&self) -> &'static str;

    /// Reads a move in the game's notation (`d3`, `pass`, a pit number, …).
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Writes a move in the game's notation; `parse_move` reads it back.
    fn format_move(&self, mv: Self::Move) -> String;

    /// A one-line position string that [`Notation::from_position_string`] reads back exactly.
    fn to_position_string(&self) -> String;

    /// Reads a position written by [`Notation::to_position_string`].
    fn from_position_string(text: &str) -> Result<Self, GameError>;

    /// Plays a move after checking that it is legal: the entry point for untrusted moves.
    fn play(&self, mv: Self::Move) -> Result<Self, GameError> {
        if !self.is_legal(mv) {
            return Err(GameError::IllegalMove {
                mv: self.format_move(mv),
                position: self.to_position_string(),
            });
        }
        let mut next = self.clone();
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Whether `other` is a position of the same variant of the game (board size and
    /// rules) as this one: a player built for one variant plays only its positions. Games
    /// of one variant keep the default.
    fn same_variant(&self, _other: &Self) -> bool {
        true
    }
}
