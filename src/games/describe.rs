//! Text for people: [`Describe`] (the board, the players' names, what a move did) and
//! [`MoveFacts`], what the move that led to a position did that the board alone does not
//! say.

use super::{Notation, Player};

/// What the move that led to a position did that the board alone does not say: the
/// generic reports (`play`, tournament statistics) read it. Games without captures, extra
/// turns or relays keep the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveFacts {
    /// It earned its player another turn (Kalah's last seed in the store), even if it also
    /// ended the game.
    pub extra_turn: bool,
    /// It captured seeds (mancala games).
    pub captured: bool,
    /// Times it lifted a pit and sowed on (relay sowing in Congklak and Congkak).
    pub relays: u16,
}

impl MoveFacts {
    /// A move that earned another turn.
    pub const EXTRA_TURN: MoveFacts = MoveFacts {
        extra_turn: true,
        captured: false,
        relays: 0,
    };
    /// A move that captured and ended the turn.
    pub const CAPTURED: MoveFacts = MoveFacts {
        extra_turn: false,
        captured: true,
        relays: 0,
    };
}

/// Text for people: the board, the players' names, and what the last move did.
pub trait Describe: Notation {
    /// The board as text lines (used by `show` and `play`).
    fn board_lines(&self) -> Vec<String>;

    /// What the game calls `player` (Othello: black/white; mancala: South/North).
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "first player",
            Player::Second => "second player",
        }
    }

    /// What the move that led here did (captures, extra turns, relays).
    fn last_move(&self) -> MoveFacts {
        MoveFacts::default()
    }

    /// What the move from `previous` to here did that [`Describe::last_move`] does not
    /// say, as short phrases: Othello's flips, the end of a Congkak round.
    fn move_notes(&self, _previous: &Self) -> Vec<String> {
        Vec::new()
    }
}
