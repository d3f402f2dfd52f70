//! The search proper: fail-soft alpha-beta on the future margin of the side to move, with
//! the transposition table's bounds and best moves, the endgame database, an enhanced
//! transposition cut-off and a futility cut-off (see the module's documentation). Several
//! threads may run it at once on one [`Solver`]: they share its table, and each puts last
//! the moves near the root that another is searching.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::bounds::{narrow, proven};

use super::Solver;
use super::board::{Child, MoverBoard};
use super::table::Record;

/// One thread's search of a [`Solver`].
pub(super) struct Search<'a> {
    solver: &'a Solver,
    pub nodes: u64,
    /// Table entries this search filled (that were free).
    pub filled: usize,
    /// Set when this thread's result is no longer wanted (a helper's, once the main
    /// thread's probe is done): it then returns at once and stores nothing more.
    stop: Option<&'a AtomicBool>,
    /// Whether other threads search alongside, so that moves they are busy with wait.
    shared: bool,
}

impl<'a> Search<'a> {
    pub fn new(solver: &'a Solver, stop: Option<&'a AtomicBool>, shared: bool) -> Search<'a> {
        Search {
            solver,
            nodes: 0,
            filled: 0,
            stop,
            shared,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed))
    }

    /// A lower bound on the mover's future margin through `child`, from what is known of it
    /// without searching: the end of the game, the endgame database or the table.
    fn known_through(&self, child: &Child) -> Option<i32> {
        let banked = child.sown.banked;
        if child.sown.over {
            return Some(banked);
        }
        let sign = if child.sown.again { 1 } else { -1 };
        let on_board = child.board.on_board();
        if let Some(endgames) = self.solver.endgames_for(on_board) {
            return Some(banked + sign * endgames.value(&child.board));
        }
        let known = self.solver.table.get(self.solver.table.key(&child.board))?;
        let bound = if child.sown.again {
            known.lower
        } else {
            known.upper
        };
        Some(banked + sign * i32::from(bound))
    }

    /// The mover's future margin through `child` within the window, searched.
    fn through(&mut self, child: &Child, window: (i32, i32)) -> i32 {
        child.value_within(window, |board, (alpha, beta)| {
            self.future(board, alpha, beta)
        })
    }

    /// A null-window probe of the root `board`, whether its future margin is at least
    /// `beta`: fail-soft, its moves tried in a fixed order ([`Child::promise`], then the
    /// pit) whatever the table holds. When the probe fails high,
    /// the move that proved it is thus the first move in that order worth `beta` or more,
    /// whichever threads searched.
    pub fn root(&mut self, board: &MoverBoard, beta: i32) -> (i32, usize) {
        self.nodes += 1;
        let mut children = board.children(self.solver.empty_capture);
        children.sort_by_key(Child::promise);
        let mut best = (i32::MIN, children[0].pit);
        for child in &children {
            let value = self.through(child, (beta - 1, beta));
            if value > best.0 {
                best = (value, child.pit);
            }
            if value >= beta {
                break;
            }
        }
        best
    }

    /// Fail-soft alpha-beta on the future margin of the side to move.
    pub fn future(&mut self, board: &MoverBoard, mut alpha: i32, mut beta: i32) -> i32 {
        if self.stopped() {
            return 0;
        }
        self.nodes += 1;
        let nodes_before = self.nodes;
        let on_board = board.on_board();
        if alpha >= on_board {
            return on_board;
        }
        if beta <= -on_board {
            return -on_board;
        }
        let solver = self.solver;
        if let Some(endgames) = solver.endgames_for(on_board) {
            return endgames.value(board);
        }
        let key = solver.table.key(board);
        let known = solver.table.get(key);
        if let Some(known) = known {
            (alpha, beta) = match narrow(known.lower.into(), known.upper.into(), alpha, beta) {
                Ok(window) => window,
                Err(settled) => return settled,
            };
        }
        // The window actually searched: the result is exact only strictly inside it.
        let (alpha_searched, beta_searched) = (alpha, beta);
        let mut children = board.children(solver.empty_capture);
        let hint = known.map(|known| usize::from(known.best));
        children.sort_by_key(|child| (Some(child.pit) != hint, child.promise()));
        for child in children.iter().filter(|child| !child.sown.over) {
            solver.prefetch(&child.board);
        }
        let mut best = (i32::MIN, children[0].pit);
        if on_board >= solver.etc_seeds
            && let Some(cut) = children
                .iter()
                .filter_map(|child| Some((self.known_through(child)?, child.pit)))
                .find(|&(value, _)| value >= beta)
        {
            best = cut;
        }
        // With other threads, the moves one of them is searching wait for a second pass
        // (all but the first, which every thread searches, as in Weill's ABDADA, 1996).
        let splits = self.shared && on_board >= solver.split_seeds;
        if splits {
            solver.busy.enter(key);
        }
        let mut waiting = 0u32;
        for second_pass in [false, true] {
            for (n, child) in children.iter().enumerate() {
                let waits = waiting & 1 << n != 0;
                if best.0 >= beta || self.stopped() {
                    break;
                }
                if second_pass != waits {
                    continue;
                }
                if splits
                    && !second_pass
                    && n > 0
                    && !child.sown.over
                    && solver.busy.holds(solver.table.key(&child.board))
                {
                    waiting |= 1 << n;
                    continue;
                }
                let value = self.through(child, (alpha, beta));
                if value > best.0 {
                    best = (value, child.pit);
                    alpha = alpha.max(value);
                }
            }
            if waiting == 0 {
                break;
            }
        }
        if splits {
            solver.busy.leave(key);
        }
        if self.stopped() {
            return 0;
        }
        let known = known.map_or((i16::MIN.into(), i16::MAX.into()), |k| {
            (k.lower.into(), k.upper.into())
        });
        let (lower, upper) = proven(best.0, (alpha_searched, beta_searched), known);
        let work = (u64::BITS - (self.nodes - nodes_before + 1).leading_zeros()) as u8;
        let record = Record {
            lower: lower as i16,
            upper: upper as i16,
            best: best.1 as u8,
            work,
        };
        if solver.table.put(key, record) {
            self.filled += 1;
        }
        best.0
    }
}
