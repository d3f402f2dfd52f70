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
//! table's best move, then extra turns (nearest the store first), then seeds banked; and
//! a futility cut-off (no
//! player can gain more than the seeds still on the board). Each probe may run on several
//! threads sharing the table; the value and the best move do not depend on their number.
//!
//! The probes at the root, [`solve`] and [`KalahSolver`], are `mtdf.rs`; the alpha-beta
//! is `search.rs`; the position, its numbering, the table, the endgame database, the
//! threads' busy positions and the first guess are `board.rs`, `numbering.rs`, `table.rs`,
//! `endgame.rs`, `busy.rs` and `guess.rs`.

mod board;
mod busy;
mod endgame;
mod guess;
mod late;
mod mtdf;
mod numbering;
mod search;
mod table;

use board::MoverBoard;
use busy::Busy;
use endgame::Endgames;
use table::Table;

pub use late::{LateValues, MAX_LATE_SEEDS};
pub use mtdf::{KalahSolver, check_board, solve};
pub use table::BUCKET_BYTES;

/// Most pits a side the solver takes: its boards hold two rows of this many.
pub const MAX_SOLVER_PITS: usize = board::MAX_PITS;

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final store margin (first player's store minus the second's) under perfect play.
    pub first_player_margin: i32,
    /// A best move of the side to move (pits numbered from 0, from the mover's left): the
    /// first in the solver's fixed order (extra turns, nearest the store first, then seeds
    /// banked, then the pit) that reaches the value. `None` when the game is over.
    pub best_pit: Option<usize>,
    /// Nodes searched, by every thread.
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
    /// More positions than the table's one-word entries can tell apart: far beyond what
    /// could be solved.
    #[error("a board of {pits} pits a side with {seeds} seeds has too many positions to solve")]
    TooManyPositions { pits: usize, seeds: usize },
    /// A database of late positions asked for too few or too many seeds on the board.
    #[error("exact late values cover 2 to {MAX_LATE_SEEDS} seeds on the board, not {0}")]
    LateSeeds(u32),
    /// The system would not give the memory for the table or the endgame database.
    #[error(
        "the system would not give the memory for the solver's table and endgame database; ask for less"
    )]
    OutOfMemory(#[from] crate::search::memory::OutOfMemory),
}

impl SolveError {
    /// True when the board asked for is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            SolveError::TooManyPits(_)
                | SolveError::TooManyPositions { .. }
                | SolveError::LateSeeds(_)
        )
    }
}

/// What the search threads share, kept between probes (and between the positions a
/// [`KalahSolver`] solves): what the table and the endgame database know.
struct Solver {
    table: Table,
    endgames: Option<Endgames>,
    empty_capture: bool,
    /// Fewest seeds on the board at which a node first looks its children up (an
    /// enhanced transposition cut-off).
    etc_seeds: i32,
    /// Fewest seeds on the board at which threads tell each other where they are.
    split_seeds: i32,
    busy: Busy,
}

impl Solver {
    /// The endgame database, if it holds positions of `on_board` seeds.
    fn endgames_for(&self, on_board: i32) -> Option<&Endgames> {
        self.endgames.as_ref().filter(|e| on_board <= e.max_seeds)
    }

    /// Starts reading what the database or the table holds for `board` into the cache.
    fn prefetch(&self, board: &MoverBoard) {
        match self.endgames_for(board.on_board()) {
            Some(endgames) => endgames.prefetch(board),
            None => self.table.prefetch(self.table.key(board)),
        }
    }
}
