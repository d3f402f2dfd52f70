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

mod board;
pub mod congkak;
pub mod congklak;
mod history;
pub mod kalah;
pub mod oware;
pub(crate) mod text;

pub use board::{Board, Landing, MAX_PITS, Sowing, Spot};
pub use congkak::{Congkak, CongkakMove};
pub use congklak::Congklak;
pub use kalah::Kalah;
pub use oware::Oware;

use std::fmt::Debug;

use crate::games::{
    Describe, Game, GameError, MoveFacts, MoveList, Notation, Outcome, Player, position_key,
};
use history::History;

/// The rules that distinguish one mancala game from another.
pub trait Rules: Clone + Debug + PartialEq + Send + Sync + 'static {
    /// The game's command-line name.
    const NAME: &'static str;
    /// Whether the first repetition of a position (since the last capture) ends the game.
    const ENDS_ON_REPETITION: bool;
    /// Whether a player who cannot sow passes (Congklak) rather than the game ending.
    const PASSES: bool = false;

    /// How seeds are sown.
    fn sowing(&self) -> Sowing;

    /// Whether `mover` may play `pit`, which holds seeds (e.g. Oware's duty to feed).
    fn allows(&self, _board: &Board, _mover: Player, _pit: usize) -> bool {
        true
    }

    /// Applies what the last seed (at `last`) does: captures, extra turns.
    fn settle(&self, board: &mut Board, mover: Player, last: Landing) -> MoveFacts;

    /// Whether the game is over with `next` to move; if so, banks the seeds still on the
    /// board as the rules say. Called after every move and on reading a position.
    fn finish(&self, board: &mut Board, next: Player) -> bool;

    /// The extra word of the position string for this variant, if any.
    fn variant_word(&self) -> Option<&'static str>;

    /// The ruleset named by a position string's extra word (`None`: the standard rules).
    fn from_variant_word(word: Option<&str>) -> Result<Self, String>;
}

/// The last seed fell in `mover`'s own empty pit `pit`: takes it and the facing pit's
/// seeds into `mover`'s store (Kalah's capture, Congklak's "shooting"). When the facing pit
/// is empty, `lone_seed_banks` says whether the last seed is banked alone or stays.
/// Returns the seeds taken from the facing pit, or `None` when nothing was banked.
#[inline]
pub fn capture_opposite(
    board: &mut Board,
    mover: Player,
    pit: usize,
    lone_seed_banks: bool,
) -> Option<u8> {
    let opposite = board.opposite(pit);
    let facing = board.pit(mover.opponent(), opposite);
    if facing == 0 && !lone_seed_banks {
        return None;
    }
    board.set_pit(mover, pit, 0);
    board.set_pit(mover.opponent(), opposite, 0);
    board.add_to_store(mover, 1 + facing);
    Some(facing)
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
            last: MoveFacts::default(),
        }
    }

    /// The standard start: `pits` pits of `seeds` seeds per side, the first player to move.
    pub fn start(rules: R, pits: usize, seeds: u8) -> Mancala<R> {
        Mancala::from_board(rules, Board::new(pits, seeds), Player::First)
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }
}

impl<R: Rules> Game for Mancala<R> {
    type Move = Pit;

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
        if R::PASSES && moves.is_empty() {
            moves.push(Pit::PASS);
        }
    }

    fn play_unchecked(&mut self, mv: Pit) {
        let mover = self.to_move;
        if mv == Pit::PASS {
            self.to_move = mover.opponent();
            self.last = MoveFacts::default();
            return;
        }
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

    fn outcome(&self) -> Option<Outcome> {
        if !self.over {
            return None;
        }
        Some(Outcome::from_score(self.score()))
    }

    fn score(&self) -> [i32; 2] {
        Player::BOTH.map(|p| i32::from(self.board.store(p)))
    }

    /// The board, the side to move and whether the game is over; none under a repetition
    /// rule, where the positions since the last capture matter too.
    fn position_key(&self) -> Option<u64> {
        if R::ENDS_ON_REPETITION {
            return None;
        }
        let [a, b, c, d] = self.board.key_words();
        let state = self.to_move.index() as u64 | u64::from(self.over) << 1;
        Some(position_key(&[a, b, c, d, state]))
    }
}

impl<R: Rules> Notation for Mancala<R> {
    fn name(&self) -> &'static str {
        R::NAME
    }

    fn parse_move(&self, text: &str) -> Result<Pit, GameError> {
        let m = self.board.pits_per_side();
        if R::PASSES && text.trim() == "pass" {
            return Ok(Pit::PASS);
        }
        match text.trim().parse::<usize>() {
            Ok(n) if (1..=m).contains(&n) => Ok(Pit((n - 1) as u8)),
            _ => Err(GameError::MalformedMove {
                text: text.to_string(),
                reason: format!("expected a pit number from 1 to {m}"),
            }),
        }
    }

    fn format_move(&self, mv: Pit) -> String {
        if mv == Pit::PASS {
            "pass".to_string()
        } else {
            (mv.0 + 1).to_string()
        }
    }

    fn to_position_string(&self) -> String {
        let mut text = format!(
            "{} {}",
            text::board_text(&self.board),
            text::side_letter(self.to_move)
        );
        if let Some(word) = self.rules.variant_word() {
            text.push(' ');
            text.push_str(word);
        }
        text
    }

    fn from_position_string(position: &str) -> Result<Self, GameError> {
        let fields = text::fields(
            position,
            5..=6,
            "SOUTH-PITS NORTH-PITS SOUTH-STORE NORTH-STORE S|N [VARIANT]",
        )?;
        let board = text::parse_board(position, &fields[..4])?;
        if board.has_burnt() {
            return Err(text::malformed(
                position,
                format!("{} has no burnt pits", R::NAME),
            ));
        }
        let to_move = text::parse_side(position, fields[4])?;
        let rules = R::from_variant_word(fields.get(5).copied())
            .map_err(|reason| text::malformed(position, reason))?;
        Ok(Mancala::from_board(rules, board, to_move))
    }
}

impl<R: Rules> Describe for Mancala<R> {
    fn board_lines(&self) -> Vec<String> {
        let turn = if self.over {
            "game over".to_string()
        } else {
            format!("{} to move", text::side_name(self.to_move))
        };
        let status = format!(
            "{turn}; stores: South {} North {}",
            self.board.store(Player::First),
            self.board.store(Player::Second)
        );
        text::board_lines(&self.board, status)
    }

    fn player_name(&self, player: Player) -> &'static str {
        text::side_name(player)
    }

    fn last_move(&self) -> MoveFacts {
        self.last
    }
}
