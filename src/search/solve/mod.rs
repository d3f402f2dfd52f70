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

mod board;
mod endgame;
mod table;

use arrayvec::ArrayVec;

use crate::games::mancala::{Kalah, Mancala, OnBoard};
use crate::games::{Game, Player};
use crate::search::bounds::{narrow, proven};
use board::{MoverBoard, Sown, store_margin};
use endgame::Endgames;
use table::{Record, Table};

pub use table::BUCKET_BYTES;

/// Most pits a side the solver takes: its position keys hold two rows of this many.
pub const MAX_SOLVER_PITS: usize = board::MAX_PITS;

/// Most memory for the endgame values. Each is computed by a full search of its subtree
/// (no window to cut it), which pays only for the smallest positions: measured on Kalah(6,3)
/// (nodes, endgame values included), 15 seeds or fewer (17 MB) saved 28% of the nodes, 16
/// (30 MB) 24%, and 18 (100 MB) cost 21% more than none. So the database also stops at two
/// fifths of the seeds on the board (15 of Kalah(6,3)'s 36).
const ENDGAME_BYTES: usize = 24_000_000;

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// Final store margin (first player's store minus the second's) under perfect play.
    pub first_player_margin: i32,
    pub nodes: u64,
    /// Positions in the table at the end.
    pub table_entries: usize,
}

/// Where the search stands after one MTD(f) probe: the value of the position for the first
/// player lies in `lower..=upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub lower: i32,
    pub upper: i32,
    pub nodes: u64,
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

struct Solver {
    table: Table,
    endgames: Option<Endgames>,
    empty_capture: bool,
    nodes: u64,
}

/// A move's outcome, for ordering and searching.
struct Child {
    pit: usize,
    board: MoverBoard,
    sown: Sown,
}

impl Solver {
    /// Fail-soft alpha-beta on the future margin of the side to move.
    fn future(&mut self, board: &MoverBoard, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let nodes_before = self.nodes;
        let on_board = board.on_board();
        if alpha >= on_board {
            return on_board;
        }
        if beta <= -on_board {
            return -on_board;
        }
        if let Some(endgames) = self.endgames.as_mut().filter(|e| on_board <= e.max_seeds) {
            return endgames.value(board, self.empty_capture, &mut self.nodes);
        }
        let key = board.key();
        let known = self.table.get(key);
        if let Some(known) = known {
            (alpha, beta) = match narrow(known.lower.into(), known.upper.into(), alpha, beta) {
                Ok(window) => window,
                Err(settled) => return settled,
            };
        }
        // The window actually searched: the result is exact only strictly inside it.
        let (alpha_searched, beta_searched) = (alpha, beta);
        let mut children: ArrayVec<Child, MAX_SOLVER_PITS> = board
            .moves()
            .map(|pit| {
                let mut child = *board;
                let sown = child.sow(pit, self.empty_capture);
                Child {
                    pit,
                    board: child,
                    sown,
                }
            })
            .collect();
        let hint = known.map(|known| usize::from(known.best));
        children.sort_by_key(|child| {
            (
                Some(child.pit) != hint,
                !child.sown.again,
                std::cmp::Reverse(child.sown.banked),
            )
        });
        let mut best = (i32::MIN, children[0].pit);
        for child in &children {
            let banked = child.sown.banked;
            let value = banked
                + if child.sown.over {
                    0
                } else if child.sown.again {
                    self.future(&child.board, alpha - banked, beta - banked)
                } else {
                    -self.future(&child.board, banked - beta, banked - alpha)
                };
            if value > best.0 {
                best = (value, child.pit);
                alpha = alpha.max(value);
                if alpha >= beta {
                    break;
                }
            }
        }
        let known = known.map_or((i16::MIN.into(), i16::MAX.into()), |k| {
            (k.lower.into(), k.upper.into())
        });
        let (lower, upper) = proven(best.0, (alpha_searched, beta_searched), known);
        let work = (u64::BITS - (self.nodes - nodes_before + 1).leading_zeros()) as u8;
        self.table.put(
            key,
            Record {
                lower: lower as i16,
                upper: upper as i16,
                best: best.1 as u8,
                work,
            },
        );
        best.0
    }
}

/// Solves a Kalah position exactly with a transposition table of at most `table_bytes`
/// bytes (a smaller table only costs time), calling `progress` after each null-window
/// probe. Boards up to [`MAX_SOLVER_PITS`] pits a side; wider ones are refused.
pub fn solve(
    game: &Mancala<Kalah>,
    table_bytes: usize,
    mut progress: impl FnMut(Progress),
) -> Result<Solution, SolveError> {
    let pits = game.board().pits_per_side();
    if pits > MAX_SOLVER_PITS {
        return Err(SolveError::TooManyPits(pits));
    }
    let mover = game.to_move();
    let first_player = |for_mover: i32| {
        if mover == Player::First {
            for_mover
        } else {
            -for_mover
        }
    };
    let now = store_margin(game, mover);
    let board = MoverBoard::of(game);
    let endgame_bytes = (table_bytes / 8).min(ENDGAME_BYTES);
    let mut solver = Solver {
        table: Table::with_bytes(table_bytes - endgame_bytes),
        endgames: Endgames::within(pits, board.on_board() as usize * 2 / 5, endgame_bytes),
        empty_capture: game.rules().empty_capture,
        nodes: 0,
    };
    let future = if game.outcome().is_some() {
        0
    } else {
        // MTD(f): null-window probes converge on the value from a first guess of 0, each
        // one cheap thanks to the bounds and best moves the table keeps from the others.
        let on_board = board.on_board();
        let (mut lower, mut upper, mut guess) = (-on_board, on_board, 0);
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            guess = solver.future(&board, beta - 1, beta);
            if guess < beta {
                upper = guess;
            } else {
                lower = guess;
            }
            let (a, b) = (first_player(now + lower), first_player(now + upper));
            progress(Progress {
                lower: a.min(b),
                upper: a.max(b),
                nodes: solver.nodes,
            });
        }
        guess
    };
    Ok(Solution {
        first_player_margin: first_player(now + future),
        nodes: solver.nodes,
        table_entries: solver.table.filled,
    })
}
