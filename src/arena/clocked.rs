//! Othello on a game clock (`~SECONDS/game`): a searching agent that spends one budget over
//! a whole game instead of a fixed time a move, and near the end plays by the endgame
//! solvers as soon as they can finish in the time left: first the exact solver (the best
//! final margin), else the win/loss/draw solver, else its iterative-deepening search.
//!
//! The clock belongs to each game, not to the agent, which every game of a parallel series
//! shares: the caller says how long the side has already thought ([`History::spent`]). A
//! caller that does not time its games gets the clock as if every earlier move had taken
//! its share. What the solvers cost is learnt as they run, across the agent's games: it
//! is the machine's speed, not a game's.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::arena::agent::{Agent, Forfeit, History, SearchAgent};
use crate::games::Game;
use crate::games::othello::{Move, Othello};
use crate::rng::GameRng;
use crate::search::endgame::{
    EndgameOptions, EndgameOrdering, MAX_EMPTIES, solve_endgame_within, solve_wld_within,
};
use crate::search::{Limits, WIN_VALUE};

/// Own moves a side keeps time for beyond those the empty squares promise (passes,
/// a solve that fails): the share of a move is the time left over the moves left plus these.
const SPARE_MOVES: u32 = 4;

/// Share of the budget held back for what the deadlines do not cover: the look at the
/// clock every few thousand nodes, a solver's table, the caller's own work between moves.
const RESERVE: f64 = 0.1;

/// Empty squares of the usual start position.
const START_EMPTIES: u32 = 60;

/// Share of the time left one endgame solve may take: a solve that finishes leaves
/// only smaller ones (each empty square less divides the work by about 2.5), so what
/// remains is plenty for the rest of the game.
const SOLVE_SHARE: f64 = 0.5;

/// A solve is tried only if it is expected to take at most this share of the time it is
/// given: a position's solve can take several times the typical one of its size.
const SOLVE_MARGIN: f64 = 0.5;

/// One game's thinking time of one side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameClock {
    /// The whole game's thinking time.
    pub budget: Duration,
    /// The most any one move may take, if less than the clock allows.
    pub cap: Option<Duration>,
}

impl GameClock {
    /// Own moves still to play with `empties` empty squares: half of them, rounded up.
    fn moves_left(empties: u32) -> u32 {
        empties.div_ceil(2) + SPARE_MOVES
    }

    /// What a side whose time nobody measures is taken to have spent when `empties`
    /// squares are left: every earlier move its share, as if the clock started at 60.
    pub fn assumed_spent(&self, empties: u32) -> Duration {
        let left =
            f64::from(Self::moves_left(empties)) / f64::from(Self::moves_left(START_EMPTIES));
        self.budget.mul_f64((1.0 - RESERVE) * (1.0 - left).max(0.0))
    }

    /// The time left after `spent`, the reserve kept back.
    fn left(&self, spent: Duration) -> Duration {
        self.budget.mul_f64(1.0 - RESERVE).saturating_sub(spent)
    }

    fn capped(&self, time: Duration) -> Duration {
        self.cap.map_or(time, |cap| time.min(cap))
    }

    /// The time of one move's search after `spent`, with `empties` empty squares: the time
    /// left shared over the moves left.
    pub fn search_time(&self, spent: Duration, empties: u32) -> Duration {
        self.capped(self.left(spent) / Self::moves_left(empties))
    }

    /// The most one endgame solve may take after `spent`.
    pub fn solve_time(&self, spent: Duration) -> Duration {
        self.capped(self.left(spent).mul_f64(SOLVE_SHARE))
    }

    /// A typical move's time (the budget over a whole game's moves): what a search of
    /// this spec outside a game (hints, GTP) takes.
    pub fn typical_move(&self) -> Duration {
        self.capped(self.budget / Self::moves_left(START_EMPTIES))
    }
}

/// How a clocked agent decided a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The exact solver: the move keeps the best final margin.
    Exact,
    /// The win/loss/draw solver: the move keeps a win or a draw.
    WinLossDraw,
    /// Iterative deepening, to this depth.
    Search(u32),
}

/// A clocked agent's move, its value for the side to move (a solved one as the search
/// values finished games: ±[`WIN_VALUE`] plus the margin, a win or loss by the
/// win/loss/draw solver as a margin of ±1) and how it was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    pub mv: Move,
    pub value: f32,
    pub how: Decided,
}

/// The endgame solvers (exact, then win/loss/draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Solver {
    Exact,
    WinLossDraw,
}

/// How much each empty square multiplies a solve's work, taken a little high, so that
/// estimates for more empties than seen yet err on the slow side.
const GROWTH: f64 = 2.5;

/// What a solve costs before it searches (its table of 96 MiB is allocated and cleared),
/// seconds, before any has run: 0.2 s on the development machine with both cores busy.
const PRIOR_SETUP: f64 = 0.25;

/// The solvers' time for 20 empties before any has run, seconds: FFO #40 (20 empties)
/// takes 0.8 s exactly on the 2-core development machine; the win/loss/draw solve is
/// guessed at 0.4 of the exact one (the solves that follow correct both).
const PRIOR_20: [f64; 2] = [1.0, 0.4];

/// Solves of at most this many empties are nearly all setup (about a thousandth of a
/// second of search): they measure the setup, the larger ones the scale.
const SETUP_EMPTIES: u32 = 12;

/// What the solvers cost: a solve of n empties is expected to take
/// `setup + scale × GROWTH^n` seconds. The setup is the running mean of the small solves'
/// times (it varies with the machine's load); each solver's scale is set by its larger
/// solves (the geometric mean of the old scale and the last solve's; a solve that ran out
/// of time raises it to at least what its time implies).
struct SolveCosts {
    /// Seconds, as f64 bits.
    setup: AtomicU64,
    /// Each solver's scale, as f64 bits.
    scales: [AtomicU64; 2],
}

impl SolveCosts {
    fn new() -> SolveCosts {
        let scale = |seconds: f64| AtomicU64::new((seconds / GROWTH.powi(20)).to_bits());
        SolveCosts {
            setup: AtomicU64::new(PRIOR_SETUP.to_bits()),
            scales: [scale(PRIOR_20[0]), scale(PRIOR_20[1])],
        }
    }

    fn setup(&self) -> f64 {
        f64::from_bits(self.setup.load(Ordering::Relaxed))
    }

    fn scale(&self, solver: Solver) -> f64 {
        f64::from_bits(self.scales[solver as usize].load(Ordering::Relaxed))
    }

    fn estimate(&self, solver: Solver, empties: u32) -> Duration {
        let work = self.scale(solver) * GROWTH.powi(empties as i32);
        Duration::from_secs_f64((self.setup() + work).min(86_400.0))
    }

    /// Learns from a solve of `empties` that took `took` and finished or not.
    fn observe(&self, solver: Solver, empties: u32, took: Duration, finished: bool) {
        let took = took.as_secs_f64();
        if empties <= SETUP_EMPTIES {
            if finished {
                let mean = (self.setup() + took) / 2.0;
                self.setup.store(mean.to_bits(), Ordering::Relaxed);
            }
            return;
        }
        let prior = PRIOR_20[solver as usize] / GROWTH.powi(20);
        let seen = ((took - self.setup()) / GROWTH.powi(empties as i32)).max(prior / 64.0);
        let old = self.scale(solver);
        let new = if finished {
            (old * seen).sqrt()
        } else {
            old.max(seen)
        };
        self.scales[solver as usize].store(new.to_bits(), Ordering::Relaxed);
    }
}

/// How many moves each way decided, over every game the agent played.
#[derive(Default)]
struct Tally {
    exact: AtomicU64,
    win_loss_draw: AtomicU64,
    searched: AtomicU64,
}

impl Tally {
    fn count(&self, how: Decided) {
        let counter = match how {
            Decided::Exact => &self.exact,
            Decided::WinLossDraw => &self.win_loss_draw,
            Decided::Search(_) => &self.searched,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [exact, wld, searched] = [&self.exact, &self.win_loss_draw, &self.searched]
            .map(|counter| counter.load(Ordering::Relaxed));
        let moves = (exact + wld + searched).max(1) as f64;
        write!(
            f,
            "moves decided by the exact solver {exact} ({:.1}%), by the win/loss/draw \
             solver {wld} ({:.1}%), by search {searched}",
            100.0 * exact as f64 / moves,
            100.0 * wld as f64 / moves,
        )
    }
}

/// The stop flag of decisions that only the clock stops.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

/// An Othello searching agent on a game clock (module doc).
pub struct ClockedAgent {
    search: SearchAgent<Othello>,
    clock: GameClock,
    /// What orders the endgame solver's moves.
    ordering: EndgameOrdering,
    costs: SolveCosts,
    tally: Tally,
}

impl ClockedAgent {
    /// `search` (its own time limit unused: the clock sets each move's) on `clock`, its
    /// endgame solves ordered by `ordering` (an engine's own network orders them best).
    pub fn new(
        search: SearchAgent<Othello>,
        clock: GameClock,
        ordering: EndgameOrdering,
    ) -> ClockedAgent {
        ClockedAgent {
            search: SearchAgent {
                move_time: None,
                ..search
            },
            clock,
            ordering,
            costs: SolveCosts::new(),
            tally: Tally::default(),
        }
    }

    /// The move at `game` after `spent` on this side's clock (`None`: not measured, see
    /// [`GameClock::assumed_spent`]), within `limits` too if the caller has its own (the
    /// solvers heed only their deadline, not their stop flag).
    pub fn decide(
        &self,
        game: &Othello,
        spent: Option<Duration>,
        limits: Option<Limits<'_>>,
    ) -> Decision {
        let start = Instant::now();
        let empties = game.empties().count_ones();
        let spent = spent.unwrap_or_else(|| self.clock.assumed_spent(empties));
        let by = |time: Duration| {
            let at = start + time;
            limits.map_or(at, |limits| limits.deadline.min(at))
        };
        let decision = self
            .solved(game, empties, by(self.clock.solve_time(spent)))
            .unwrap_or_else(|| {
                let limits = Limits {
                    deadline: by(self.clock.search_time(spent, empties)),
                    stop: limits.map_or(&NEVER_STOPPED, |limits| limits.stop),
                };
                let (result, depth) = self.search.search_within(game, limits);
                Decision {
                    mv: result
                        .best
                        .expect("search returns a move while the game is not over"),
                    value: result.value,
                    how: Decided::Search(depth),
                }
            });
        self.tally.count(decision.how);
        decision
    }

    /// The move by the exact solver, else by the win/loss/draw solver if it wins or
    /// draws, each tried only if expected to finish by `deadline`.
    fn solved(&self, game: &Othello, empties: u32, deadline: Instant) -> Option<Decision> {
        if empties > MAX_EMPTIES {
            return None;
        }
        let affordable = |solver| {
            let room = deadline.saturating_duration_since(Instant::now());
            self.costs.estimate(solver, empties) <= room.mul_f64(SOLVE_MARGIN)
        };
        // Every core: a clocked engine plays one game at a time in `nboard` and `play`.
        let options = EndgameOptions {
            deadline: Some(deadline),
            ordering: self.ordering.clone(),
            ..EndgameOptions::default()
        };
        if affordable(Solver::Exact) {
            let clock = Instant::now();
            let solved = solve_endgame_within(game, &options, &mut |_| {});
            let took = clock.elapsed();
            self.costs
                .observe(Solver::Exact, empties, took, solved.is_ok());
            if let Ok(solved) = solved {
                let margin = solved.margin as f32;
                return Some(Decision {
                    mv: solved.best.expect("the game is not over"),
                    value: WIN_VALUE * margin.signum() + margin,
                    how: Decided::Exact,
                });
            }
        }
        if affordable(Solver::WinLossDraw) {
            let clock = Instant::now();
            let solved = solve_wld_within(game, &options);
            let took = clock.elapsed();
            self.costs
                .observe(Solver::WinLossDraw, empties, took, solved.is_ok());
            // A lost position is left to the search, which keeps the loss small.
            if let Some(solved) = solved.ok().filter(|solved| solved.sign >= 0) {
                let sign = solved.sign as f32;
                return Some(Decision {
                    mv: solved.best.expect("the game is not over"),
                    value: (WIN_VALUE + 1.0) * sign,
                    how: Decided::WinLossDraw,
                });
            }
        }
        None
    }
}

impl Agent<Othello> for ClockedAgent {
    fn choose(
        &self,
        game: &Othello,
        history: History<'_, Othello>,
        _rng: &mut GameRng,
    ) -> Result<Move, Forfeit> {
        let spent = history.spent.map(|spent| spent[game.to_move().index()]);
        Ok(self.decide(game, spent, None).mv)
    }

    fn name(&self) -> String {
        self.search.label.clone()
    }

    fn summary(&self) -> Option<String> {
        Some(self.tally.to_string())
    }
}
