//! Othello (Reversi) on bitboards, the core game of seed 004.
//!
//! Rules: 8×8, black moves first from d5/e4 black and d4/e5 white. A move must
//! flip at least one line of opponent discs; a side without a legal move passes; the game
//! ends when neither side can move. Final score counts discs, and the empty squares go to
//! the winner (the usual tournament rule).

pub mod bitboard;
mod perft;
mod square;

pub use square::Move;

use crate::games::{Game, GameError, MoveList, Outcome, Player};
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

    fn name(&self) -> &'static str {
        "othello"
    }

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

    fn input_len(&self) -> usize {
        64
    }

    fn encode(&self, perspective: Player, out: &mut [f32]) {
        let own = self.discs(perspective);
        let opp = self.discs(perspective.opponent());
        for (i, slot) in out.iter_mut().enumerate().take(64) {
            *slot = ((own >> i & 1) as f32) - ((opp >> i & 1) as f32);
        }
    }
}
