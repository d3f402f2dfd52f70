//! The game layer: one [`Game`] trait that every board game implements, so that search,
//! evolution, the arena and the CLI are written once and serve all games.

pub mod mancala;
pub mod othello;
pub mod perft;

use std::fmt;

use arrayvec::ArrayVec;

pub use perft::{Perft, perft};

/// Upper bound on the number of legal moves in any supported position. Othello's known
/// maximum is 33; mancala games have at most one move per pit (joint opening moves of
/// Congkak at most 7 × 7 = 49).
pub const MAX_MOVES: usize = 64;

/// A fixed-capacity move list, so move generation never allocates in the search.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// One of the two players. `First` moves first from the standard start position
/// (black in Othello, South in mancala games).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// A two-player, perfect-information, deterministic board game.
///
/// Turn order is not assumed to alternate: a game may grant extra turns (Kalah, Congklak)
/// or force a pass (Othello). [`Game::legal_moves`] is empty exactly when the game is over;
/// a forced pass is a real move, so every search and perft treats it as one ply.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move: a small `Copy` value.
    type Move: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The game's command-line name (`othello`, `kalah`, …).
    fn name(&self) -> &'static str;

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

    /// Plays a move known to be legal. Behaviour for an illegal move is unspecified
    /// (but memory-safe): use [`Game::play`] for untrusted input.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Plays a move after checking that it is legal.
    fn play(&self, mv: Self::Move) -> Result<Self, GameError> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        if !moves.contains(&mv) {
            return Err(GameError::IllegalMove {
                mv: self.format_move(mv),
                position: self.to_position_string(),
            });
        }
        let mut next = self.clone();
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Whether both players choose the next move at once, neither seeing the other's choice
    /// (Congkak's opening). Then every legal move is a joint move, `to_move` is the player
    /// this copy chooses for (see [`Game::seen_by`]), and a player controls only their own
    /// part ([`Game::joint_part`]) of the move played.
    fn simultaneous(&self) -> bool {
        false
    }

    /// This position as `player` chooses in it: at a simultaneous decision, a copy whose
    /// `to_move` is `player`; otherwise an unchanged copy.
    fn seen_by(&self, _player: Player) -> Self {
        self.clone()
    }

    /// At a simultaneous decision, `player`'s part of joint move `mv` (a small index: two
    /// joint moves with the same part are the same choice for `player`).
    fn joint_part(&self, _mv: Self::Move, _player: Player) -> u8 {
        0
    }

    /// At a simultaneous decision, the joint move made of the first player's part of
    /// `first` and the second player's part of `second`.
    fn merge_joint(&self, first: Self::Move, _second: Self::Move) -> Self::Move {
        first
    }

    /// Reads `player`'s own part of a joint move at a simultaneous decision (a Congkak
    /// hole), as a joint move whose other part is a placeholder for [`Game::merge_joint`];
    /// elsewhere the same as [`Game::parse_move`].
    fn parse_part(&self, text: &str, _player: Player) -> Result<Self::Move, GameError> {
        self.parse_move(text)
    }

    /// Writes `player`'s own part of `mv` (what [`Game::parse_part`] reads).
    fn format_part(&self, mv: Self::Move, _player: Player) -> String {
        self.format_move(mv)
    }

    /// What the move from `previous` to here did that the generic reports (captures,
    /// relays, score, extra turns) do not say, as short phrases for people: Othello's flips,
    /// the end of a Congkak round.
    fn move_notes(&self, _previous: &Self) -> Vec<String> {
        Vec::new()
    }

    /// How many times the move that led here lifted a pit and sowed on (relay sowing in
    /// Congklak and Congkak); 0 for other games.
    fn last_move_relays(&self) -> u32 {
        0
    }

    /// Whether the move that led here earned its player another turn (Kalah's last seed in
    /// the store: a "go-again"), even if it also ended the game.
    fn last_move_extra_turn(&self) -> bool {
        false
    }

    /// What the game calls `player` (Othello: black/white; mancala: South/North).
    fn player_name(&self, player: Player) -> &'static str {
        match player {
            Player::First => "first player",
            Player::Second => "second player",
        }
    }

    /// Whether the move that led to this position captured seeds (mancala games); used by
    /// tournament statistics. Games without captures keep the default.
    fn last_move_captured(&self) -> bool {
        false
    }

    /// `None` while the game goes on, the result once it is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Points of the first and second player (discs, or seeds in store); once the game is
    /// over these are the final scores under the game's counting rule.
    fn score(&self) -> [i32; 2];

    /// Reads a move in the game's notation (`d3`, `pass`, a pit number, …).
    fn parse_move(&self, text: &str) -> Result<Self::Move, GameError>;

    /// Writes a move in the game's notation; `parse_move` reads it back.
    fn format_move(&self, mv: Self::Move) -> String;

    /// A one-line position string that [`Game::from_position_string`] reads back exactly.
    fn to_position_string(&self) -> String;

    /// Reads a position written by [`Game::to_position_string`].
    fn from_position_string(text: &str) -> Result<Self, GameError>;

    /// The board as text lines for people (used by `show`).
    fn board_lines(&self) -> Vec<String>;

    /// Length of the neural-network input vector for this game.
    fn input_len(&self) -> usize;

    /// Writes the network input as seen by `perspective` into `out`
    /// (`out.len() == input_len()`): own material positive, the opponent's negative.
    fn encode(&self, perspective: Player, out: &mut [f32]);
}
