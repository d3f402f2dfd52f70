//! Games played live, one request at a time (the web page's games): the seats (people or
//! engines), the shared [`Session`](crate::session::Session), and the hidden choices of a
//! simultaneous decision. [`LiveGame`] hides the game type, so a server keeps games of all
//! five kinds in one table; [`board`] says what a page draws, and [`champions`] shares the
//! networks the engines play.
//!
//! [`Table`] (file `table.rs`) is the one live game; [`View`] and [`Hints`] (`view.rs`)
//! are what the page receives.

pub mod board;
pub mod champions;
mod table;
mod view;

pub use table::Table;
pub use view::{Chooser, Hint, Hints, LegalMove, SeatView, View};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::arena::{AgentSpec, SpecError};
use crate::games::{GameError, Player};
use crate::search::Limits;

/// Set on shutdown: searches in progress stop at once.
pub static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// The limits of one engine search starting now: at most `seconds`, and never past
/// shutdown.
pub fn limits_from_now(seconds: f64) -> Limits<'static> {
    Limits {
        deadline: Instant::now() + Duration::from_secs_f64(seconds),
        stop: &SHUTTING_DOWN,
    }
}

/// Why a live game refused a request.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// An agent spec that cannot be built.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// A move that cannot be read or played.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A setting that does not fit a game (a hint engine that does not search).
    #[error("{0}")]
    Setting(String),
    /// A well-formed request that does not fit the game's state (not that side's turn,
    /// the game over).
    #[error("{0}")]
    NotNow(String),
    /// An engine that gave up instead of moving.
    #[error("{0}")]
    Forfeited(String),
}

impl LiveError {
    fn not_now(message: impl Into<String>) -> LiveError {
        LiveError::NotNow(message.into())
    }
}

/// A game of any kind, driven by the API.
pub trait LiveGame: Send {
    fn view(&self, id: u64) -> View;
    /// A person's move (`text` in the game's notation; their own part at a simultaneous
    /// decision) for `side`, by default the side to move.
    fn play(&mut self, text: &str, side: Option<Player>) -> Result<(), LiveError>;
    /// The engines among the players who choose now make their choice (their searches
    /// were capped to the server's move time when the game was set up).
    fn engine_move(&mut self) -> Result<(), LiveError>;
    /// Back to `side`'s previous turn (by default the first person's).
    fn undo(&mut self, side: Option<Player>) -> Result<(), LiveError>;
    /// `side`'s hints (by default the first chooser's), searching at most `seconds`.
    fn hints(&self, side: Option<Player>, seconds: f64) -> Result<Hints, LiveError>;
    /// `side` (by default the first person's) gives up.
    fn resign(&mut self, side: Option<Player>) -> Result<(), LiveError>;
    /// The record `play --record` writes, once the game has been played to its end.
    fn record(&self) -> Result<String, LiveError>;
}

/// What a new game needs besides its start position; specs are already checked.
pub struct Setup {
    /// Each seat's engine, `None` for a person.
    pub players: [Option<AgentSpec>; 2],
    pub hint_engine: AgentSpec,
    pub seed: u64,
}
