//! Mancala games on one sowing engine: [`Mancala<R>`] plays any ruleset `R` that says how
//! to sow, which pits may be played, what the last seed does, and when the game ends.
//! Kalah and Oware/Ayo are rulesets here; Congklak and Congkak build on the same board.
//!
//! Position strings: the first player's (South's) pits from their left, comma-separated,
//! a space, North's pits from North's left, a space, South's store, a space, North's store,
//! a space, `S` or `N` for the side to move, and for a rule variant one more word (Kalah's
//! `empty-capture`). Kalah(6,4) starts as `4,4,4,4,4,4 4,4,4,4,4,4 0 0 S`.
//! Moves are pit numbers `1`…`m`, counted from the mover's own left.

mod board;
mod history;
pub mod kalah;
pub mod oware;

pub use board::{Board, Landing, MAX_PITS, Sowing};
pub use kalah::Kalah;
pub use oware::Oware;

use std::fmt::Debug;

use crate::games::{Game, GameError, MoveList, Outcome, Player};
use history::History;

/// The rules that distinguish one mancala game from another.
pub trait Rules: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The game's command-line name.
    const NAME: &'static str;
    /// Whether the first repetition of a position (since the last capture) ends the game.
    const ENDS_ON_REPETITION: bool;

    /// How seeds are sown.
    fn sowing(&self) -> Sowing;

    /// Whether `mover` may play `pit`, which holds seeds (e.g. Oware's duty to feed).
    fn allows(&self, _board: &Board, _mover: Player, _pit: usize) -> bool {
        true
    }

    /// Applies what the last seed (at `last`) does: captures, extra turns.
    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> Settled;

    /// Whether the game is over with `next` to move; if so, banks the seeds still on the
    /// board as the rules say. Called after every move and on reading a position.
    fn finish(&self, board: &mut Board, next: Player) -> bool;

    /// The extra word of the position string for this variant, if any.
    fn variant_word(&self) -> Option<&'static str>;

    /// The ruleset named by a position string's extra word (`None`: the standard rules).
    fn from_variant_word(word: Option<&str>) -> Result<Self, String>;
}

/// What settling a move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    pub extra_turn: bool,
    pub captured: bool,
}

/// Banks each row into its owner's store.
pub fn bank_rows(board: &mut Board) {
    board.bank_row(Player::First);
    board.bank_row(Player::Second);
}

/// How many pits `mover` may play under `rules` (whether or not it is their turn).
pub fn playable_pits<R: Rules>(rules: &R, board: &Board, mover: Player) -> usize {
    (0..board.pits_per_side())
        .filter(|&pit| board.pit(mover, pit) > 0 && rules.allows(board, mover, pit))
        .count()
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
    last: Settled,
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

/// A pit to sow from: 0-based from the mover's left (written 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pit(pub u8);

impl<R: Rules> Mancala<R> {
    /// A game from `board` with `to_move` to play.
    pub fn from_board(rules: R, mut board: Board, to_move: Player) -> Mancala<R> {
        let over = rules.finish(&mut board, to_move);
        let mut history = History::default();
        if R::ENDS_ON_REPETITION && !over {
            history.push(&board, to_move);
        }
        Mancala {
            rules,
            board,
            to_move,
            over,
            history,
            last: Settled::default(),
        }
    }

    /// The standard start: `pits` pits of `seeds` seeds per side, the first player to move.
    pub fn start(rules: R, pits: usize, seeds: u8) -> Mancala<R> {
        Mancala::from_board(rules, Board::new(pits, seeds), Player::First)
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }
}

fn row_text(row: &[u8]) -> String {
    row.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

impl<R: Rules> Game for Mancala<R> {
    type Move = Pit;

    fn name(&self) -> &'static str {
        R::NAME
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn legal_moves(&self, moves: &mut MoveList<Pit>) {
        moves.clear();
        if self.over {
            return;
        }
        let mover = self.to_move;
        moves.extend(
            (0..self.board.pits_per_side())
                .filter(|&pit| {
                    self.board.pit(mover, pit) > 0 && self.rules.allows(&self.board, mover, pit)
                })
                .map(|pit| Pit(pit as u8)),
        );
    }

    fn play_unchecked(&mut self, mv: Pit) {
        let mover = self.to_move;
        let last = self
            .board
            .sow(mover, mover, usize::from(mv.0), self.rules.sowing());
        let settled = self.rules.settle(&mut self.board, mover, last);
        let next = if settled.extra_turn {
            mover
        } else {
            mover.opponent()
        };
        self.to_move = next;
        self.last = settled;
        self.over = self.rules.finish(&mut self.board, next);
        if R::ENDS_ON_REPETITION && !self.over {
            if settled.captured {
                self.history = History::default();
            }
            if self.history.contains(&self.board, next) {
                bank_rows(&mut self.board);
                self.over = true;
            } else {
                self.history.push(&self.board, next);
            }
        }
    }

    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "South",
            Player::Second => "North",
        }
    }

    fn last_move_captured(&self) -> bool {
        self.last.captured
    }

    fn last_move_extra_turn(&self) -> bool {
        self.last.extra_turn
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        Some(Outcome::from_score(self.score()))
    }

    fn score(&self) -> [i32; 2] {
        Player::BOTH.map(|p| i32::from(self.board.store(p)))
    }

    fn parse_move(&self, text: &str) -> Result<Pit, GameError> {
        let m = self.board.pits_per_side();
        match text.trim().parse::<usize>() {
            Ok(n) if (1..=m).contains(&n) => Ok(Pit((n - 1) as u8)),
            _ => Err(GameError::MalformedMove {
                text: text.to_string(),
                reason: format!("expected a pit number from 1 to {m}"),
            }),
        }
    }

    fn format_move(&self, mv: Pit) -> String {
        (mv.0 + 1).to_string()
    }

    fn to_position_string(&self) -> String {
        let side = if self.to_move == Player::First {
            "S"
        } else {
            "N"
        };
        let mut text = format!(
            "{} {} {} {} {side}",
            row_text(self.board.row(Player::First)),
            row_text(self.board.row(Player::Second)),
            self.board.store(Player::First),
            self.board.store(Player::Second)
        );
        if let Some(word) = self.rules.variant_word() {
            text.push(' ');
            text.push_str(word);
        }
        text
    }

    fn from_position_string(text: &str) -> Result<Self, GameError> {
        let malformed = |reason: String| GameError::MalformedPosition {
            text: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(5..=6).contains(&fields.len()) {
            return Err(malformed(
                "expected SOUTH-PITS NORTH-PITS SOUTH-STORE NORTH-STORE S|N [VARIANT]".to_string(),
            ));
        }
        let seeds = |field: &str| -> Result<Vec<u8>, GameError> {
            field
                .split(',')
                .map(|s| {
                    s.parse::<u8>()
                        .map_err(|_| malformed(format!("'{s}' is not a seed count")))
                })
                .collect()
        };
        let (south, north) = (seeds(fields[0])?, seeds(fields[1])?);
        if south.len() != north.len() || !(1..=MAX_PITS).contains(&south.len()) {
            return Err(malformed(format!(
                "both rows need the same number of pits, 1 to {MAX_PITS}"
            )));
        }
        let store = |field: &str| {
            field
                .parse::<u8>()
                .map_err(|_| malformed(format!("'{field}' is not a store count")))
        };
        let (south_store, north_store) = (store(fields[2])?, store(fields[3])?);
        let total: u32 = south
            .iter()
            .chain(&north)
            .map(|&s| u32::from(s))
            .sum::<u32>()
            + u32::from(south_store)
            + u32::from(north_store);
        if total > 255 {
            return Err(malformed("the board holds at most 255 seeds".to_string()));
        }
        let to_move = match fields[4] {
            "S" => Player::First,
            "N" => Player::Second,
            other => {
                return Err(malformed(format!(
                    "side to move must be S or N, found '{other}'"
                )));
            }
        };
        let rules = R::from_variant_word(fields.get(5).copied()).map_err(malformed)?;
        let board = Board::from_parts(&south, &north, [south_store, north_store]);
        Ok(Mancala::from_board(rules, board, to_move))
    }

    fn board_lines(&self) -> Vec<String> {
        let m = self.board.pits_per_side();
        let cell = |s: u8| format!("{s:>3}");
        let north: String = (0..m)
            .rev()
            .map(|p| cell(self.board.pit(Player::Second, p)))
            .collect();
        let south: String = (0..m)
            .map(|p| cell(self.board.pit(Player::First, p)))
            .collect();
        let numbers_north: String = (0..m).rev().map(|p| format!("{:>3}", p + 1)).collect();
        let numbers_south: String = (0..m).map(|p| format!("{:>3}", p + 1)).collect();
        let side = if self.to_move == Player::First {
            "South"
        } else {
            "North"
        };
        vec![
            format!("North  {numbers_north}"),
            format!("       {north}"),
            format!(
                "   {:>3}{}{:>3}",
                self.board.store(Player::Second),
                " ".repeat(3 * m + 1),
                self.board.store(Player::First)
            ),
            format!("       {south}"),
            format!("South  {numbers_south}"),
            format!(
                "{side} to move; stores: South {} North {}",
                self.board.store(Player::First),
                self.board.store(Player::Second)
            ),
        ]
    }

    fn input_len(&self) -> usize {
        2 * self.board.pits_per_side() + 2
    }

    /// Own pits, own store, opponent pits, opponent store, each divided by the total seeds.
    fn encode(&self, perspective: Player, out: &mut [f32]) {
        let total = self.board.total().max(1) as f32;
        let mut values = Vec::with_capacity(self.input_len());
        for side in [perspective, perspective.opponent()] {
            values.extend(self.board.row(side).iter().map(|&s| f32::from(s)));
            values.push(f32::from(self.board.store(side)));
        }
        for (slot, value) in out.iter_mut().zip(values) {
            *slot = value / total;
        }
    }
}
