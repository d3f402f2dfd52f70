//! Exact solving of Kalah: the first player's final store margin under perfect play, from
//! any position of a board of up to [`MAX_SOLVER_PITS`] pits a side.
//!
//! The value searched is the *future* margin: what the side to move will bank from here on
//! minus what the opponent will. It depends only on the pits, not on the stores, and the
//! board is seen from the side to move (`board::MoverBoard`), so positions reached with
//! different store totals, or by either player, share one table entry. Kalah suits the
//! method: no position can repeat (every lap of seeds moves them on) and no rule looks at
//! the stores. The game's value is the current store margin plus the future margin.
//!
//! The search: MTD(f) null-window probes at the root; fail-soft alpha-beta with a bounded
//! transposition table of bounds and best moves (`table::Table`); moves ordered by the
//! table's best move, then extra turns, then seeds banked; and a futility cut-off (no
//! player can gain more than the seeds still on the board).
//!
//! The probes at the root, [`solve`] and [`KalahSolver`], are `mtdf.rs`; the alpha-beta
//! is `search.rs`; the position, the table, the endgame database and the first guess are
//! `board.rs`, `table.rs`, `endgame.rs` and `guess.rs`.

mod board;
mod endgame;
mod guess;
mod mtdf;
mod search;
mod table;

use endgame::Endgames;
use table::Table;

pub use mtdf::{KalahSolver, solve};
pub use table::BUCKET_BYTES;

/// Most pits a side the solver takes: its position keys hold two rows of this many.
pub const MAX_SOLVER_PITS: usize = board::MAX_PITS;

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final store margin (first player's store minus the second's) under perfect play.
    pub first_player_margin: i32,
    pub nodes: u64,
    /// Positions in the table at the end.
    pub table_entries: usize,
}

/// What the solver has done so far, reported as it goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The endgame database holds every position of up to `seeds` seeds on the board.
    Endgames { seeds: i32, positions: usize },
    /// A depth-limited search guesses the first player's final margin.
    Guess { margin: i32 },
    /// After a null-window probe, the first player's final margin lies in `lower..=upper`.
    Probe { lower: i32, upper: i32, nodes: u64 },
}

/// Why a board was not solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// More pits than a position key holds: the keys of distinct positions would collide
    /// and the values come out wrong.
    #[error(
        "a board of {0} pits a side is too wide to solve: the solver takes at most {MAX_SOLVER_PITS}"
    )]
    TooManyPits(usize),
}

impl SolveError {
    /// True when the board asked for is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, SolveError::TooManyPits(_))
    }
}

/// The search's state, kept between probes (and between the positions a [`KalahSolver`]
/// solves): what the table and the endgame database know, and the nodes searched.
struct Solver {
    table: Table,
    endgames: Option<Endgames>,
    empty_capture: bool,
    nodes: u64,
    /// Fewest seeds on the board at which a node first looks its children up (an
    /// enhanced transposition cut-off).
    etc_seeds: i32,
}
