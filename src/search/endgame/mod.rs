//! Exact Othello endgames: the final disc difference under perfect play, and a move that
//! achieves it, from a position with few empty squares.
//!
//! An alpha-beta search to the end of the game over the bitboards, with the methods that
//! endgame solvers share (Gunnar Andersson's notes on his solver, and Edax, describe them):
//! - the root's value is found by null-window probes (MTD(f)), and every search below
//!   is a null-window search, over one transposition table of bounds and best moves
//!   that the threads share without locks;
//! - moves are ordered *fastest first* (the move leaving the opponent the fewest replies,
//!   corner replies counted double, then the opponent's potential mobility, the
//!   mover's discs made stable by corners, parity and the kind of square), far from the
//!   end together with the ranking of a one-ply search of each move by an evaluator (a
//!   trained network, as Egaroucid orders by a small trained one, or the Othello
//!   heuristic);
//! - a node is cut before it is searched when the table already proves a child good
//!   enough (enhanced transposition cut-off), or when the opponent's stable discs cap the
//!   final margin at the window's lower bound (stability cut-off);
//! - a node with one legal move plays it at once: no table, no ordering;
//! - in the last six empties there is no table and no ordering beyond *parity*: squares
//!   in board quarters with an odd number of empties first; the last empty square is
//!   scored without making the move;
//! - on several threads, a node's moves after the first are shared among them (young
//!   brothers wait), in a way that keeps the value, the best move and every move's
//!   margin independent of the number of threads.
//!
//! Values count the empty squares for the winner, the usual tournament rule and that of
//! the published FFO test positions.

use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use crate::games::othello::{Move, Othello};
use crate::games::{Game, MoveList};

mod ffo;
mod last_flip;
mod search;
mod shallow;
mod stability;
mod table;

pub use ffo::{FfoPosition, ffo_positions};
pub use search::EndgameOrdering;
use search::{Precision, Searcher, Shared};

/// Most empty squares [`solve_endgame`] accepts: beyond about 30 an exact solve takes
/// hours on one core (each empty multiplies the work by about 3).
pub const MAX_EMPTIES: u32 = 30;

/// An exact endgame value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endgame {
    /// The final disc difference for the side to move (the empties to the winner).
    pub margin: i32,
    /// A move achieving it (a pass when the side to move has none); `None` when the game
    /// is over.
    pub best: Option<Move>,
    /// Positions visited, the ordering probes' included.
    pub nodes: u64,
}

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EndgameError {
    #[error("the position has {0} empty squares; the exact solver takes at most {MAX_EMPTIES}")]
    TooManyEmpties(u32),
    #[error(
        "no exact value within the time limit: after {nodes} nodes the value for the side to move lies in {lower}..={upper}"
    )]
    OutOfTime { lower: i32, upper: i32, nodes: u64 },
}

impl EndgameError {
    /// Whether the position asked for was at fault (not the time it was given).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, EndgameError::TooManyEmpties(_))
    }
}

/// What a long solve reports while it runs: the bounds proven on the root's value so far
/// and the work done, after each null-window probe and every [`REPORT_EVERY`] within one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameProgress {
    pub lower: i32,
    pub upper: i32,
    pub nodes: u64,
}

/// Longest a solve stays silent when it reports progress.
pub const REPORT_EVERY: Duration = Duration::from_secs(5);

/// How to run a solve.
#[derive(Clone, Debug)]
pub struct EndgameOptions {
    /// Threads searching (at least 1). The value, the best move and every move's margin
    /// are the same whatever their number; only the nodes visited differ.
    pub threads: usize,
    /// When to give up, with the bounds proven so far.
    pub deadline: Option<Instant>,
    /// What orders the moves far from the end: a trained network orders better than the
    /// heuristic, so fewer nodes give the same exact value (no ordering can change it).
    pub ordering: EndgameOrdering,
}

impl Default for EndgameOptions {
    /// Every core, no deadline, ordered by the heuristic.
    fn default() -> EndgameOptions {
        EndgameOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            deadline: None,
            ordering: EndgameOrdering::heuristic(),
        }
    }
}

/// Solves `game` exactly on every core: the final disc difference for the side to move
/// under perfect play by both sides, and a best move.
pub fn solve_endgame(game: &Othello) -> Result<Endgame, EndgameError> {
    solve_endgame_within(game, &EndgameOptions::default(), &mut |_| {})
}

/// [`solve_endgame`] on `options.threads` threads that gives up at `options.deadline` (with
/// the bounds proven so far) and tells `progress` how it goes: a solve of 26–30 empties
/// can take minutes. The search runs on other threads; this one watches the clock and
/// calls `progress`.
pub fn solve_endgame_within(
    game: &Othello,
    options: &EndgameOptions,
    progress: &mut dyn FnMut(EndgameProgress),
) -> Result<Endgame, EndgameError> {
    solve(game, options, Precision::EXACT, progress)
}

/// Whether the side to move wins (`sign` 1), draws (0) or loses (−1) under perfect play,
/// and a move that achieves it: less than the exact margin, and found sooner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinLossDraw {
    pub sign: i32,
    /// A move achieving `sign` (a pass when the side to move has none; the first move in
    /// the solver's order for a lost position); `None` when the game is over.
    pub best: Option<Move>,
    pub nodes: u64,
}

/// [`solve_endgame_within`] asking only who wins: the probes stop as soon as the value is
/// known to be below, at or above a draw, so cut-offs come sooner than for the exact
/// margin. A clocked player falls back on it when the exact solve would not finish in time.
pub fn solve_wld_within(
    game: &Othello,
    options: &EndgameOptions,
) -> Result<WinLossDraw, EndgameError> {
    let solved = solve(game, options, Precision::WIN_LOSS_DRAW, &mut |_| {})?;
    Ok(WinLossDraw {
        sign: solved.margin.signum(),
        best: solved.best,
        nodes: solved.nodes,
    })
}

/// The root of `game` solved to `precision` (see [`solve_endgame_within`]); `margin` is
/// the value, or a bound beyond `precision`'s.
fn solve(
    game: &Othello,
    options: &EndgameOptions,
    precision: Precision,
    progress: &mut dyn FnMut(EndgameProgress),
) -> Result<Endgame, EndgameError> {
    let empties = game.empties().count_ones();
    if empties > MAX_EMPTIES && !game.is_over() {
        return Err(EndgameError::TooManyEmpties(empties));
    }
    let mover = game.to_move();
    let (own, opp) = (game.discs(mover), game.discs(mover.opponent()));
    let pool = pool(options.threads);
    // A finished game (of any number of empties) needs the smallest table.
    let table_empties = if game.is_over() { 0 } else { empties };
    let shared = Shared::new(table_empties, pool.is_some(), options.ordering.clone());
    let (sender, reports) = mpsc::channel();
    let (solved, bounds) = std::thread::scope(|scope| {
        let search = scope.spawn(|| {
            let sender = sender;
            let run = || {
                let mut searcher = Searcher::new(&shared);
                let solved = searcher.root(own, opp, precision, &mut |lower, upper| {
                    let nodes = shared.nodes.load(Relaxed);
                    // The watcher may be gone only if it panicked.
                    let _ = sender.send(EndgameProgress {
                        lower,
                        upper,
                        nodes,
                    });
                });
                searcher.flush();
                solved
            };
            match &pool {
                Some(pool) => pool.install(run),
                None => run(),
            }
        });
        let bounds = watch(&reports, &shared, options.deadline, progress);
        match search.join() {
            Ok(solved) => (solved, bounds),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    let nodes = shared.nodes.load(Relaxed);
    match solved {
        Some((margin, best)) => Ok(Endgame {
            margin,
            best,
            nodes,
        }),
        None => Err(EndgameError::OutOfTime {
            lower: bounds.0,
            upper: bounds.1,
            nodes,
        }),
    }
}

/// A pool of `threads` threads for a parallel solve, or `None` to search on the calling
/// thread alone (one thread asked for, or a pool that could not be made). Pools are kept
/// for the next solve on as many threads: a clocked player solves at every move of its
/// endgame, and need not start its threads anew each time.
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    /// The pools kept, the most recently made last; only the last few are kept.
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    const KEPT: usize = 4;
    if threads <= 1 {
        return None;
    }
    let mut pools = POOLS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, pool)) = pools.iter().find(|(size, _)| *size == threads) {
        return Some(Arc::clone(pool));
    }
    let pool = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?,
    );
    if pools.len() == KEPT {
        pools.remove(0);
    }
    pools.push((threads, Arc::clone(&pool)));
    Some(pool)
}

/// Watches a solve until its searching thread ends (and drops its sender): passes on the
/// bounds each probe reports, repeats the last every [`REPORT_EVERY`] with the nodes
/// counted since, and stops the search at `deadline`. Returns the last bounds proven.
fn watch(
    reports: &mpsc::Receiver<EndgameProgress>,
    shared: &Shared,
    mut deadline: Option<Instant>,
    progress: &mut dyn FnMut(EndgameProgress),
) -> (i32, i32) {
    let mut last = EndgameProgress {
        lower: -64,
        upper: 64,
        nodes: 0,
    };
    let mut last_report = Instant::now();
    loop {
        let now = Instant::now();
        let mut wait = REPORT_EVERY.saturating_sub(now - last_report);
        if let Some(deadline) = deadline {
            wait = wait.min(deadline.saturating_duration_since(now));
        }
        match reports.recv_timeout(wait) {
            Ok(report) => {
                last = report;
                last_report = Instant::now();
                progress(report);
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return (last.lower, last.upper),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if deadline.is_some_and(|deadline| Instant::now() >= deadline) {
                    shared.stop.store(true, Relaxed);
                    deadline = None;
                } else if last_report.elapsed() >= REPORT_EVERY {
                    last.nodes = last.nodes.max(shared.nodes.load(Relaxed));
                    last_report = Instant::now();
                    progress(last);
                }
            }
        }
    }
}

/// The exact final disc difference for the side to move after each of its legal moves (a
/// pass when it has none), in the order `legal_moves` gives them, on `threads` threads:
/// what an accuracy measure compares a player's choice with. One table serves every
/// move's solve.
pub fn move_margins(game: &Othello, threads: usize) -> Result<Vec<(Move, i32)>, EndgameError> {
    let empties = game.empties().count_ones();
    if empties > MAX_EMPTIES {
        return Err(EndgameError::TooManyEmpties(empties));
    }
    let mover = game.to_move();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let pool = pool(threads);
    let shared = Shared::new(empties, pool.is_some(), EndgameOrdering::heuristic());
    let run = || {
        let mut searcher = Searcher::new(&shared);
        moves
            .iter()
            .map(|&mv| {
                let mut child = *game;
                child.play_unchecked(mv);
                let next = child.to_move();
                let value = searcher
                    .value(child.discs(next), child.discs(next.opponent()))
                    .expect("a solve without a deadline is never stopped");
                (mv, if next == mover { value } else { -value })
            })
            .collect()
    };
    Ok(match &pool {
        Some(pool) => pool.install(run),
        None => run(),
    })
}
