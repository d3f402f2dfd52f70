//! Othello moves and their notation: `a1`…`h8` (column letter, row digit) and `pass`.

use std::fmt;

/// A square index 0–63 (see [`super::bitboard`] for the layout) or the forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move(u8);

impl Move {
    /// The move a side makes when it has no legal placement but the game is not over.
    pub const PASS: Move = Move(64);

    /// The placement on square `index` (0 = a1, 63 = h8).
    pub fn at(index: u32) -> Move {
        debug_assert!(index < 64);
        Move(index as u8)
    }

    /// The square index, or `None` for a pass.
    pub fn square(self) -> Option<u32> {
        (self.0 < 64).then_some(self.0 as u32)
    }

    /// Reads `a1`…`h8` (either case) or `pass`.
    pub fn parse(text: &str) -> Result<Move, String> {
        let lower = text.trim().to_ascii_lowercase();
        if lower == "pass" || lower == "pa" || lower == "--" {
            return Ok(Move::PASS);
        }
        match lower.as_bytes() {
            [col @ b'a'..=b'h', row @ b'1'..=b'8'] => {
                Ok(Move::at(((row - b'1') * 8 + (col - b'a')) as u32))
            }
            _ => Err("expected a square a1..h8 or 'pass'".to_string()),
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.square() {
            None => f.write_str("pass"),
            Some(index) => {
                let col = (b'a' + (index % 8) as u8) as char;
                let row = (b'1' + (index / 8) as u8) as char;
                write!(f, "{col}{row}")
            }
        }
    }
}
