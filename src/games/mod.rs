//! The game layer: the [`Game`] rules trait that every board game implements, so that
//! search, evolution, the arena and the CLI are written once and serve all games, with
//! [`Notation`] and [`Describe`] for text and [`JointDecision`] for simultaneous moves.

pub mod joint;
pub mod mancala;
pub mod othello;
pub mod perft;
pub mod registry;

use std::fmt;

use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

pub use joint::JointDecision;
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

/// The rules of a two-player, perfect-information, deterministic board game: all that
/// search, perft and learning need.
///
/// Turn order is not assumed to alternate: a game may grant extra turns (Kalah, Congklak)
/// or force a pass (Othello). [`Game::legal_moves`] is empty exactly when the game is over;
/// a forced pass is a real move, so every search and perft treats it as one ply.
/// People's notation is [`Notation`], text for people is [`Describe`], and simultaneous
/// decisions are the opt-in [`JointDecision`].
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move: a small `Copy` value.
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The player whose turn it is.
    fn to_move(&self) -> Player;

    /// Clears `moves` and fills it with every legal move; empty only when the game is over.
    fn legal_moves(&self, moves: &mut MoveList<Self::Move>);

    /// Number of legal moves (a forced pass counts as one); 0 only when the game is over.
    /// Games override it when they can count faster than they can list.
    fn count_moves(&self) -> usize {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.len()
    }

    /// Whether `mv` is legal here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves.contains(&mv)
    }

    /// Plays a move known to be legal. Behaviour for an illegal move is unspecified
    /// (but memory-safe): use [`Notation::play`] for untrusted input.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// `None` while the game goes on, the result once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Points of the first and second player (discs, or seeds in store); once the game is
    /// over these are the final scores under the game's counting rule.
    fn score(&self) -> [i32; 2];

    /// The simultaneous decision this position is, if it is one (Congkak's opening): both
    /// players choose the next move at once, neither seeing the other's choice. Games that
    /// never have one keep the default; generic code meets them through [`joint`]'s helpers.
    fn joint(&self) -> Option<&dyn JointDecision<Self>> {
        None
    }

    /// A 64-bit hash of everything that decides this position's future and its evaluation
    /// (equal positions, equal keys; [`position_key`] mixes the words), so that a search
    /// may reuse what it found when a position recurs by another move order. `None`, the
    /// default, where the future also depends on how the game got here (a repetition
    /// rule) or is a simultaneous decision: such positions are always searched afresh.
    fn position_key(&self) -> Option<u64> {
        None
    }
}

/// Mixes `words` into one well-spread 64-bit key for [`Game::position_key`]: every bit of
/// every word moves about half the key's bits, so keys of near-identical positions differ.
pub fn position_key(words: &[u64]) -> u64 {
    words.iter().fold(0x243F_6A88_85A3_08D3, |key, &word| {
        let mixed = (key ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mixed = (mixed ^ (mixed >> 29)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed ^ (mixed >> 32)
    })
}

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
