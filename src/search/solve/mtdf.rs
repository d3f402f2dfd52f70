//! The solver at the root: [`solve`] for one position, and [`KalahSolver`], kept over many
//! positions of one board. Each builds the endgame database and converges on the value
//! with MTD(f) null-window probes from a first guess.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::games::mancala::{Kalah, Mancala, OnBoard};
use crate::games::{Game, Player};

use super::board::{Child, MoverBoard, store_margin};
use super::busy::Busy;
use super::endgame::Endgames;
use super::search::Search;
use super::table::{ENTRY_BYTES, Layout, Table};
use super::{MAX_SOLVER_PITS, Progress, Solution, SolveError, Solver, guess};

/// The endgame database takes positions of up to this share of the seeds on the board
/// (18 of Kalah(6,4)'s 48, 13 of Kalah(6,3)'s 36) and at most an eighth of the memory
/// bound. It is built whole before the search, one pass over every position with ~6
/// random reads each, so each seed more costs ~1.6× the build. The share balances the
/// two since extra turns are searched nearest the store first, which left far fewer
/// nodes to save: on Kalah(6,4), 16, 17, 18 and 20 seeds took 103, 95, 90 and 137 s of
/// CPU in all (one run each, a shared machine); on Kalah(6,3) 10, 12, 13 and 15 seeds
/// 2.6, 2.1, 2.7 and 6.8 s on one thread.
const ENDGAME_SHARE: (usize, usize) = (3, 8);

/// Seeds above the endgame database's limit from which a node looks its children up in
/// the table before searching any (an enhanced transposition cut-off). Each look-up is a
/// read from memory far from the cache: on Kalah(6,4) cut-offs from the database's limit
/// up saved 41% of the nodes and cost 28% more time; from 8 seeds above it, 5% of the
/// nodes and 3% of the time.
const ETC_ABOVE_ENDGAMES: i32 = 8;

/// Seeds above the endgame database's limit from which the threads of a probe tell each
/// other which positions they are in, and put off those another is searching.
const SPLIT_ABOVE_ENDGAMES: i32 = 8;

/// Nodes the first guess may search: a few seconds. It may also search at most as many
/// nodes as the endgame database holds positions, so that on small boards, which the
/// search itself solves in a fraction of a second, the guess does not cost more than the
/// solve (Kalah(5,3): 2.0 s with 20 M nodes, most of it the guess).
const GUESS_NODES: u64 = 20_000_000;

/// Table entries allowed per position of the endgame database. The table is allocated
/// whole, so its size is set up front; the search fills about half as many entries as
/// the database holds positions (Kalah(5,4): 0.55, Kalah(6,3): 0.57), so four a position
/// leave it at most an eighth full, and a board solved in seconds takes memory in
/// proportion rather than the whole bound.
const TABLE_ENTRIES_PER_ENDGAME_POSITION: usize = 4;

/// Solves a Kalah position exactly with at most `table_bytes` bytes for the endgame
/// database and the transposition table (less only costs time), searching on `threads`
/// threads (the value and best move do not depend on them) and calling `progress` after
/// each null-window probe. Boards up to [`MAX_SOLVER_PITS`] pits a side; wider ones, and
/// boards of more positions than a table key names, are refused.
pub fn solve(
    game: &Mancala<Kalah>,
    table_bytes: usize,
    threads: usize,
    mut progress: impl FnMut(Progress),
) -> Result<Solution, SolveError> {
    // The seeds on the board, counted from the game's own rows: a board too wide for the
    // solver's keys is refused by `KalahSolver::new`, before any key is made.
    let board = game.board();
    let on_board = board.row_total(Player::First) + board.row_total(Player::Second);
    let mut solver = KalahSolver::new(game, on_board, table_bytes, threads, &mut progress)?;
    let (first_player_margin, best_pit) = solver.margin_reporting(game, GUESS_NODES, &mut progress);
    Ok(Solution {
        first_player_margin,
        best_pit,
        nodes: solver.nodes,
        table_entries: solver.filled,
    })
}

/// Whether the solver takes positions of boards of `pits` pits a side with at most
/// `max_seeds` seeds on the board.
pub fn check_board(pits: usize, max_seeds: u32) -> Result<(), SolveError> {
    layout(pits, max_seeds).map(|_| ())
}

fn layout(pits: usize, max_seeds: u32) -> Result<Layout, SolveError> {
    if pits > MAX_SOLVER_PITS {
        return Err(SolveError::TooManyPits(pits));
    }
    Layout::new(pits, max_seeds as usize)
}

/// A solver kept over many positions of one board: its endgame database is built once, for
/// positions with a given number of seeds on the board or fewer, and its table keeps
/// what each solve proved for the next (keys do not depend on the stores, so any position
/// of the same pits and rules shares them). What an accuracy measure needs: the value of
/// every move of hundreds of positions.
pub struct KalahSolver {
    solver: Solver,
    pits: usize,
    threads: usize,
    nodes: u64,
    filled: usize,
}

/// Nodes the first guess of a [`KalahSolver::margin`] may search: a move's value is one of
/// many, so the guess is kept small.
const POSITION_GUESS_NODES: u64 = 200_000;

impl KalahSolver {
    /// A solver for positions of `game`'s board and rules with at most `max_seeds` seeds
    /// on the board, searching on `threads` threads, its endgame database built (reported
    /// to `progress`).
    pub fn new(
        game: &Mancala<Kalah>,
        max_seeds: u32,
        table_bytes: usize,
        threads: usize,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<KalahSolver, SolveError> {
        let pits = game.board().pits_per_side();
        let layout = layout(pits, max_seeds)?;
        let empty_capture = game.rules().empty_capture;
        let endgames = Endgames::within(
            pits,
            max_seeds as usize * ENDGAME_SHARE.0 / ENDGAME_SHARE.1,
            table_bytes / 8,
            empty_capture,
        )?;
        let endgame_bytes = endgames.as_ref().map_or(0, Endgames::positions);
        let table_bytes = endgames.as_ref().map_or(table_bytes, |e| {
            (table_bytes - endgame_bytes)
                .min(e.positions() * TABLE_ENTRIES_PER_ENDGAME_POSITION * ENTRY_BYTES)
        });
        let endgame_seeds = endgames.as_ref().map_or(0, |e| e.max_seeds);
        // The table is mapped before the database is built, so that a bound the system
        // cannot meet is refused at once, not after minutes of building.
        let table = Table::new(layout, table_bytes)?;
        if let Some(endgames) = &endgames {
            endgames.build(|seeds| {
                progress(Progress::Endgames {
                    seeds,
                    positions: endgames.positions_up_to(seeds),
                })
            });
        }
        Ok(KalahSolver {
            solver: Solver {
                table,
                etc_seeds: endgame_seeds + ETC_ABOVE_ENDGAMES,
                split_seeds: endgame_seeds + SPLIT_ABOVE_ENDGAMES,
                busy: Busy::new(),
                endgames,
                empty_capture,
            },
            pits,
            threads: threads.max(1),
            nodes: 0,
            filled: 0,
        })
    }

    /// The final store margin of the first player under perfect play from `game`, which
    /// must have the solver's pits and rules.
    pub fn margin(&mut self, game: &Mancala<Kalah>) -> i32 {
        self.margin_reporting(game, POSITION_GUESS_NODES, &mut |_| {})
            .0
    }

    /// Nodes searched so far, over every solve.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A null-window probe of the root `board` at `beta` on the solver's threads: the
    /// main thread's fail-soft value, and the move that proved it if it is `beta` or more
    /// (see [`Search::root`]). The other threads search the same probe, filling the table
    /// for the main one, and stop when it is done.
    fn probe(&mut self, board: &MoverBoard, beta: i32) -> (i32, usize) {
        let (solver, threads) = (&self.solver, self.threads);
        let stop = AtomicBool::new(false);
        let (result, nodes, filled) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    scope.spawn(|| {
                        let mut helper = Search::new(solver, Some(&stop), true);
                        helper.future(board, beta - 1, beta);
                        (helper.nodes, helper.filled)
                    })
                })
                .collect();
            let mut main = Search::new(solver, None, threads > 1);
            let result = main.root(board, beta);
            stop.store(true, Ordering::Relaxed);
            helpers
                .into_iter()
                .map(|helper| helper.join().expect("a search thread panicked"))
                .fold(
                    (result, main.nodes, main.filled),
                    |(r, n, f), (nodes, filled)| (r, n + nodes, f + filled),
                )
        });
        self.nodes += nodes;
        self.filled += filled;
        result
    }

    /// The first player's final margin from `game` and a best move of its side to move.
    fn margin_reporting(
        &mut self,
        game: &Mancala<Kalah>,
        guess_nodes: u64,
        progress: &mut dyn FnMut(Progress),
    ) -> (i32, Option<usize>) {
        assert_eq!(
            (game.board().pits_per_side(), game.rules().empty_capture),
            (self.pits, self.solver.empty_capture),
            "a Kalah solver solves positions of its own board and rules"
        );
        let mover = game.to_move();
        let first_player = |for_mover: i32| {
            if mover == Player::First {
                for_mover
            } else {
                -for_mover
            }
        };
        let now = store_margin(game, mover);
        if game.outcome().is_some() {
            return (first_player(now), None);
        }
        let solver = &self.solver;
        let board = MoverBoard::of(game);
        // MTD(f): null-window probes converge on the value from a first guess, each one
        // cheap thanks to the bounds and best moves the table keeps from the others. The
        // two players' future gains add up to the seeds on the board, so their difference
        // has the parity of that count: every bound is rounded to it, which saves the probe
        // that would only rule out a value of the wrong parity.
        let on_board = board.on_board();
        let parity = |value: i32, up: bool| {
            if (value - on_board) % 2 == 0 {
                value
            } else if up {
                value + 1
            } else {
                value - 1
            }
        };
        let budget = solver
            .endgames
            .as_ref()
            .map_or(guess_nodes, |e| guess_nodes.min(e.positions() as u64));
        let first = guess::estimate(
            &board,
            solver.endgames.as_ref(),
            solver.empty_capture,
            budget,
        );
        progress(Progress::Guess {
            margin: first_player(now + first),
        });
        // Until a probe fails high, every move is worth the value: the futility bound
        // is all the probes proved.
        let mut best = board.children(solver.empty_capture);
        best.sort_by_key(Child::promise);
        let mut best_pit = best[0].pit;
        let (mut lower, mut upper, mut guess) = (-on_board, on_board, first);
        while lower < upper {
            let beta = if guess <= lower {
                lower + 2
            } else {
                parity(guess, true).min(upper)
            };
            let pit;
            (guess, pit) = self.probe(&board, beta);
            if guess < beta {
                upper = parity(guess, false);
            } else {
                // The move that proved the new lower bound: the first in the fixed order
                // worth `beta` or more, so (the values sharing the parity) worth `lower`.
                lower = parity(guess, true);
                best_pit = pit;
            }
            let (a, b) = (first_player(now + lower), first_player(now + upper));
            progress(Progress::Probe {
                lower: a.min(b),
                upper: a.max(b),
                nodes: self.nodes,
            });
        }
        (first_player(now + lower), Some(best_pit))
    }
}
