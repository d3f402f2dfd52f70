//! Othello's notation and text for people: squares `a1`…`h8` and `pass`, the `.obf`
//! position format, and the board drawn with the legal moves marked.

use super::{Move, Othello, legal_moves, symbol};
use crate::games::{Describe, GameError, Notation, Player};

impl Notation for Othello {
    fn name(&self) -> &'static str {
        "othello"
    }

    fn parse_move(&self, text: &str) -> Result<Move, GameError> {
        Move::parse(text).map_err(|reason| GameError::MalformedMove {
            text: text.to_string(),
            reason,
        })
    }

    fn format_move(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn to_position_string(&self) -> String {
        let black = self.discs(Player::First);
        let white = self.discs(Player::Second);
        let mut text: String = (0..64)
            .map(|i| symbol(black >> i & 1 == 1, white >> i & 1 == 1))
            .collect();
        text.push(' ');
        text.push(if self.to_move == Player::First {
            'X'
        } else {
            'O'
        });
        text
    }

    /// Reads the `.obf` board format: 64 squares a1…h1, a2…h8 as `X` (black), `O` (white)
    /// or `-` (empty), then whitespace and the side to move, `X` or `O`.
    fn from_position_string(text: &str) -> Result<Othello, GameError> {
        let malformed = |reason: String| GameError::MalformedPosition {
            text: text.to_string(),
            reason,
        };
        let mut parts = text.split_whitespace();
        let (Some(board), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(malformed(
                "expected 64 squares (X, O, -), a space, and X or O to move".to_string(),
            ));
        };
        if board.chars().count() != 64 {
            return Err(malformed(format!(
                "the board has {} squares, expected 64",
                board.chars().count()
            )));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in board.chars().enumerate() {
            match c {
                'X' | 'x' => black |= 1 << i,
                'O' | 'o' => white |= 1 << i,
                '-' | '.' => {}
                other => return Err(malformed(format!("unexpected square symbol '{other}'"))),
            }
        }
        let to_move = match side {
            "X" | "x" => Player::First,
            "O" | "o" => Player::Second,
            other => {
                return Err(malformed(format!(
                    "side to move must be X or O, found '{other}'"
                )));
            }
        };
        Ok(Othello::from_discs(black, white, to_move).expect("disc sets built disjoint"))
    }
}

impl Describe for Othello {
    fn board_lines(&self) -> Vec<String> {
        let black = self.discs(Player::First);
        let white = self.discs(Player::Second);
        let moves = legal_moves(self.mover, self.opponent);
        let mut lines = vec!["  a b c d e f g h".to_string()];
        for row in 0..8 {
            let mut line = format!("{}", row + 1);
            for col in 0..8 {
                let i = row * 8 + col;
                let c = match symbol(black >> i & 1 == 1, white >> i & 1 == 1) {
                    '-' if moves >> i & 1 == 1 => '*',
                    '-' => '.',
                    disc => disc,
                };
                line.push(' ');
                line.push(c);
            }
            lines.push(line);
        }
        let [b, w] = self.disc_counts();
        let turn = match (self.is_over(), self.to_move) {
            (true, _) => "game over",
            (false, Player::First) => "X to move  (* = legal move)",
            (false, Player::Second) => "O to move  (* = legal move)",
        };
        lines.push(format!("X (black) {b}  O (white) {w}  {turn}"));
        lines
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "black (X)",
            Player::Second => "white (O)",
        }
    }

    /// The discs the move turned over (the opponent's count before minus after).
    fn move_notes(&self, previous: &Othello) -> Vec<String> {
        let mover = previous.to_move;
        let before = previous.disc_counts()[mover.opponent().index()];
        let after = self.disc_counts()[mover.opponent().index()];
        let mut notes = Vec::new();
        if after < before {
            notes.push(format!("flips {}", before - after));
        }
        if self.is_over() {
            let [b, w] = self.disc_counts();
            if b + w < 64 {
                notes.push(format!("{} empty squares go to the winner", 64 - b - w));
            }
        }
        notes
    }
}
