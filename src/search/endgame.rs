//! Exact Othello endgames: the final disc difference under perfect play, and a move that
//! achieves it, from a position with few empty squares.
//!
//! An alpha-beta search to the end of the game over the bitboards, with the methods that
//! endgame solvers share (Gunnar Andersson's notes on his solver, and Edax, describe them):
//! - the root's value is found by null-window probes (MTD(f)) that share one table;
//! - far from the end, moves are ordered by a shallow search with the Othello heuristic;
//!   nearer the end *fastest first* (the move leaving the opponent the fewest replies,
//!   corner replies counted double, then the opponent's potential mobility, then
//!   parity). Moves after the first are searched with null windows first
//!   (principal-variation search), and positions are kept in a two-tier transposition
//!   table of bounds and best moves;
//! - a node is cut before it is searched when the table already proves a child good
//!   enough (enhanced transposition cut-off), or when the opponent's stable discs cap the
//!   final margin at the window's lower bound (stability cut-off);
//! - in the last six empties there is no table and no ordering beyond *parity*: squares
//!   in board quarters with an odd number of empties first;
//! - the last empty square is scored without making the move.
//!
//! Values count the empty squares for the winner, the usual tournament rule and that of
//! the published FFO test positions.

use std::cmp::Ordering;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;

use crate::eval::{HEURISTIC_BOUND, NamedEvaluators, SharedEvaluator};
use crate::games::othello::bitboard::{
    CORNERS, NOT_A_FILE, NOT_H_FILE, flips, legal_moves, neighbours, squares,
};
use crate::games::othello::{Move, Othello};
use crate::games::{Game, MoveList, Player};
use crate::search::bounds::{narrow, proven};
use crate::search::search;

/// Most empty squares [`solve_endgame`] accepts: beyond about 30 an exact solve takes
/// hours on one core (each empty multiplies the work by about 3).
pub const MAX_EMPTIES: u32 = 30;

/// From this many empties down, the search uses parity ordering and no table: a
/// position this close to the end is searched faster than it is looked up.
const SHALLOW_EMPTIES: u32 = 6;

/// From this many empties up, moves are ordered by a shallow search of each with the
/// Othello heuristic: near the root a good first move saves far more than the probe
/// costs (FFO #45: 42 s → 33 s), nearer the end fastest first is as good and cheaper.
const PROBE_EMPTIES: u32 = 18;
/// The depth of those probes.
const PROBE_DEPTH: u32 = 4;

/// From this many empties up, the children are looked up in the table before any is
/// searched (enhanced transposition cut-off): nearer the end the look-ups cost more than
/// they save.
const ETC_EMPTIES: u32 = 10;

/// Entries of the transposition table (a power of two): 24 bytes each, 96 MiB.
const TABLE_BITS: u32 = 22;

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

/// Nodes between two looks at the clock: a few milliseconds of work.
const CLOCK_NODES: u64 = 1 << 16;

/// Solves `game` exactly: the final disc difference for the side to move under perfect
/// play by both sides, and a best move.
pub fn solve_endgame(game: &Othello) -> Result<Endgame, EndgameError> {
    solve_endgame_within(game, None, &mut |_| {})
}

/// [`solve_endgame`] that gives up at `deadline` (with the bounds proven so far) and tells
/// `progress` how it goes: a solve of 26–30 empties can take minutes.
pub fn solve_endgame_within(
    game: &Othello,
    deadline: Option<Instant>,
    progress: &mut dyn FnMut(EndgameProgress),
) -> Result<Endgame, EndgameError> {
    let empties = game.empties().count_ones();
    if empties > MAX_EMPTIES && !game.is_over() {
        return Err(EndgameError::TooManyEmpties(empties));
    }
    let mover = game.to_move();
    let (own, opp) = (game.discs(mover), game.discs(mover.opponent()));
    let mut solver = Solver::new(Watch::new(deadline, progress));
    let (margin, best) = solver.root(own, opp);
    if solver.watch.stopped {
        return Err(EndgameError::OutOfTime {
            lower: solver.watch.bounds.0,
            upper: solver.watch.bounds.1,
            nodes: solver.nodes,
        });
    }
    Ok(Endgame {
        margin,
        best,
        nodes: solver.nodes,
    })
}

/// The exact final disc difference for the side to move after each of its legal moves (a
/// pass when it has none), in the order `legal_moves` gives them: what an accuracy measure
/// compares a player's choice with. One table serves every move's solve.
pub fn move_margins(game: &Othello) -> Result<Vec<(Move, i32)>, EndgameError> {
    let empties = game.empties().count_ones();
    if empties > MAX_EMPTIES {
        return Err(EndgameError::TooManyEmpties(empties));
    }
    let mover = game.to_move();
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mut silent = |_: EndgameProgress| {};
    let mut solver = Solver::new(Watch::new(None, &mut silent));
    Ok(moves
        .iter()
        .map(|&mv| {
            let mut child = *game;
            child.play_unchecked(mv);
            let next = child.to_move();
            let value = solver.value(child.discs(next), child.discs(next.opponent()));
            (mv, if next == mover { value } else { -value })
        })
        .collect())
}

/// Whether the side to move wins (`sign` 1), draws (0) or loses (−1) under perfect play,
/// and a move that achieves it: less than the exact margin, and found sooner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinLossDraw {
    pub sign: i32,
    /// A move achieving `sign` (a pass when the side to move has none; any move of a lost
    /// position); `None` when the game is over.
    pub best: Option<Move>,
    pub nodes: u64,
}

/// [`solve_endgame_within`] asking only who wins: every search's window is (−1, 1) around
/// a draw, so cut-offs come sooner than for the exact margin. A clocked player falls back
/// on it when the exact solve does not finish in time.
pub fn solve_wld_within(
    game: &Othello,
    deadline: Option<Instant>,
) -> Result<WinLossDraw, EndgameError> {
    let empties = game.empties().count_ones();
    if empties > MAX_EMPTIES && !game.is_over() {
        return Err(EndgameError::TooManyEmpties(empties));
    }
    let mover = game.to_move();
    let mut silent = |_: EndgameProgress| {};
    let mut solver = Solver::new(Watch::new(deadline, &mut silent));
    let (sign, best) = solver.root_wld(game.discs(mover), game.discs(mover.opponent()));
    if solver.watch.stopped {
        return Err(EndgameError::OutOfTime {
            lower: solver.watch.bounds.0,
            upper: solver.watch.bounds.1,
            nodes: solver.nodes,
        });
    }
    Ok(WinLossDraw {
        sign,
        best,
        nodes: solver.nodes,
    })
}

/// The solve's clock: when to stop, whom to tell, and what is proven so far.
struct Watch<'a> {
    deadline: Option<Instant>,
    progress: &'a mut dyn FnMut(EndgameProgress),
    last_report: Instant,
    /// The node count at which to look at the clock next.
    next_look: u64,
    /// The root's proven bounds.
    bounds: (i32, i32),
    /// Set once the deadline has passed: every search returns at once, storing nothing.
    stopped: bool,
}

impl<'a> Watch<'a> {
    fn new(deadline: Option<Instant>, progress: &'a mut dyn FnMut(EndgameProgress)) -> Watch<'a> {
        Watch {
            deadline,
            progress,
            last_report: Instant::now(),
            next_look: CLOCK_NODES,
            bounds: (-64, 64),
            stopped: false,
        }
    }

    fn report(&mut self, nodes: u64) {
        self.last_report = Instant::now();
        let (lower, upper) = self.bounds;
        (self.progress)(EndgameProgress {
            lower,
            upper,
            nodes,
        });
    }

    /// Looks at the clock (every [`CLOCK_NODES`] nodes): stops at the deadline, reports
    /// when the solve has been silent for [`REPORT_EVERY`].
    #[inline]
    fn tick(&mut self, nodes: u64) {
        if nodes < self.next_look {
            return;
        }
        self.next_look = nodes + CLOCK_NODES;
        let now = Instant::now();
        if self.deadline.is_some_and(|deadline| now >= deadline) {
            self.stopped = true;
        } else if now - self.last_report >= REPORT_EVERY {
            self.report(nodes);
        }
    }
}

/// One table entry: the position, bounds on its exact value, and the best move found.
#[derive(Clone, Copy, Default)]
struct Entry {
    own: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    /// The best move's square, or `NO_MOVE`.
    best: u8,
    /// Empty squares of the position: how much work the entry saves.
    empties: u8,
}

/// The transposition table: buckets of two entries, one keeping the position with the
/// most empties (the costliest to search again) and one always taking the newest, so
/// the many positions near the end never push out the few near the root.
struct Table {
    entries: Vec<Entry>,
}

impl Table {
    fn new() -> Table {
        Table {
            entries: vec![Entry::default(); 1 << TABLE_BITS],
        }
    }

    /// The first of the two entries of the position's bucket.
    fn bucket(own: u64, opp: u64) -> usize {
        let mixed =
            own.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ opp.wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        ((mixed ^ (mixed >> 29)) >> (64 - TABLE_BITS)) as usize & !1
    }

    fn probe(&self, own: u64, opp: u64) -> Option<Entry> {
        let first = Table::bucket(own, opp);
        self.entries[first..first + 2]
            .iter()
            .find(|entry| entry.own == own && entry.opp == opp)
            .copied()
    }

    fn store(&mut self, entry: Entry) {
        let first = Table::bucket(entry.own, entry.opp);
        let bucket = &mut self.entries[first..first + 2];
        if let Some(same) = bucket
            .iter_mut()
            .find(|old| old.own == entry.own && old.opp == entry.opp)
        {
            *same = entry;
        } else if entry.empties >= bucket[0].empties {
            bucket[1] = bucket[0];
            bucket[0] = entry;
        } else {
            bucket[1] = entry;
        }
    }
}

const NO_MOVE: u8 = u8::MAX;

/// The search's state: the table, a node count and the clock.
struct Solver<'a> {
    table: Table,
    nodes: u64,
    watch: Watch<'a>,
    /// The evaluator of the ordering probes far from the end.
    heuristic: SharedEvaluator<Othello>,
}

/// The final disc difference for the owner of `own` when the game ends here: the empty
/// squares go to the winner.
fn final_margin(own: u64, opp: u64) -> i32 {
    let (mine, theirs) = (own.count_ones() as i32, opp.count_ones() as i32);
    let empty = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        Ordering::Greater => mine - theirs + empty,
        Ordering::Less => mine - theirs - empty,
        Ordering::Equal => 0,
    }
}

/// The position after the owner of `own` plays `square`, as (mover, opponent) for the
/// next side to move.
#[inline]
fn after(own: u64, opp: u64, square: u32, flipped: u64) -> (u64, u64) {
    (opp & !flipped, own | flipped | 1 << square)
}

/// `NEIGHBOURS[square]`: the squares next to `square`. A placement flips nothing unless
/// an opponent disc is among them, so most empty squares are ruled out with one test.
static NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = (square as i32 / 8, square as i32 % 8);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (r, c) = (row + dr, col + dc);
                if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 {
                    table[square] |= 1u64 << (r * 8 + c);
                }
                dc += 1;
            }
            dr += 1;
        }
        square += 1;
    }
    table
};

/// Board quarters: parity ordering plays first in those with an odd number of empties.
const QUARTERS: [u64; 4] = [
    0x0000_0000_0f0f_0f0f,
    0x0000_0000_f0f0_f0f0,
    0x0f0f_0f0f_0000_0000,
    0xf0f0_f0f0_0000_0000,
];

/// The empty squares of quarters holding an odd number of them.
#[inline]
fn odd_quarters(empty: u64) -> u64 {
    QUARTERS
        .iter()
        .filter(|&&quarter| (empty & quarter).count_ones() % 2 == 1)
        .fold(0, |acc, &quarter| acc | (empty & quarter))
}

impl<'a> Solver<'a> {
    fn new(watch: Watch<'a>) -> Solver<'a> {
        Solver {
            table: Table::new(),
            nodes: 0,
            watch,
            heuristic: Othello::evaluator("heuristic").expect("Othello's heuristic is built in"),
        }
    }

    /// The root, solved by null-window probes (MTD(f), Plaat et al., "Best-first
    /// fixed-depth minimax algorithms", 1996): each probe asks whether the value reaches a
    /// bound, and the table carries what one probe proved into the next, until the lower
    /// and upper bounds meet. A move that made a probe succeed at the final lower bound is
    /// a best move.
    fn root(&mut self, own: u64, opp: u64) -> (i32, Option<Move>) {
        self.nodes += 1;
        let moves = legal_moves(own, opp);
        if moves == 0 {
            if legal_moves(opp, own) == 0 {
                return (final_margin(own, opp), None);
            }
            return (-self.exact(opp, own, -65, 65), Some(Move::PASS));
        }
        let ordered = self.ordered(own, opp, moves, NO_MOVE);
        let (mut lower, mut upper) = (-64, 64);
        let mut best = ordered[0].0;
        let mut guess = 0;
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            let mut value = -65;
            for &(square, flipped) in &ordered {
                let (next_own, next_opp) = after(own, opp, square, flipped);
                value = value.max(-self.exact(next_own, next_opp, -beta, -beta + 1));
                if self.watch.stopped {
                    return (lower, None);
                }
                if value >= beta {
                    best = square;
                    break;
                }
            }
            if value >= beta {
                lower = value;
            } else {
                upper = value;
            }
            guess = value;
            self.watch.bounds = (lower, upper);
            self.watch.report(self.nodes);
        }
        (lower, Some(Move::at(best)))
    }

    /// The root's win, draw or loss: the moves in order, each searched with the window
    /// (−1, 1) until one draws, then with (0, 1) until one wins.
    fn root_wld(&mut self, own: u64, opp: u64) -> (i32, Option<Move>) {
        self.nodes += 1;
        let moves = legal_moves(own, opp);
        if moves == 0 {
            if legal_moves(opp, own) == 0 {
                return (final_margin(own, opp).signum(), None);
            }
            return (-self.exact(opp, own, -1, 1).signum(), Some(Move::PASS));
        }
        let ordered = self.ordered(own, opp, moves, NO_MOVE);
        let mut best = (-1, ordered[0].0);
        for &(square, flipped) in &ordered {
            let (next_own, next_opp) = after(own, opp, square, flipped);
            let sign = (-self.exact(next_own, next_opp, -1, -best.0)).signum();
            if self.watch.stopped {
                return (best.0, None);
            }
            if sign > best.0 {
                best = (sign, square);
                self.watch.bounds.0 = sign;
            }
            if best.0 == 1 {
                break;
            }
        }
        (best.0, Some(Move::at(best.1)))
    }

    /// The exact value for the owner of `own`, by null-window probes as at the root.
    fn value(&mut self, own: u64, opp: u64) -> i32 {
        let (mut lower, mut upper, mut guess) = (-64, 64, 0);
        while lower < upper {
            let beta = if guess == lower { guess + 1 } else { guess };
            let value = self.exact(own, opp, beta - 1, beta);
            if value >= beta {
                lower = value;
            } else {
                upper = value;
            }
            guess = value;
        }
        lower
    }

    /// The exact value for the owner of `own` if it lies in (`alpha`, `beta`); otherwise a
    /// bound on the same side of the window (fail-soft).
    fn exact(&mut self, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(own | opp);
        if empty.count_ones() <= SHALLOW_EMPTIES {
            return self.shallow(own, opp, alpha, beta);
        }
        self.nodes += 1;
        self.watch.tick(self.nodes);
        if self.watch.stopped {
            return alpha;
        }
        let moves = legal_moves(own, opp);
        if moves == 0 {
            if legal_moves(opp, own) == 0 {
                return final_margin(own, opp);
            }
            return -self.exact(opp, own, -beta, -alpha);
        }
        if let Some(bound) = stability_cutoff(own, opp, alpha) {
            return bound;
        }
        let known = self.table.probe(own, opp);
        let (mut alpha, mut beta, mut hint) = (alpha, beta, NO_MOVE);
        if let Some(entry) = known {
            (alpha, beta) = match narrow(entry.lower.into(), entry.upper.into(), alpha, beta) {
                Ok(window) => window,
                Err(settled) => return settled,
            };
            hint = entry.best;
        }
        let window = (alpha, beta);
        let ordered = self.ordered(own, opp, moves, hint);
        if empty.count_ones() >= ETC_EMPTIES
            && let Some(bound) = self.transposition_cutoff(own, opp, &ordered, beta)
        {
            return bound;
        }
        let mut best = (-65, NO_MOVE);
        for (square, flipped) in ordered {
            let (next_own, next_opp) = after(own, opp, square, flipped);
            let floor = alpha.max(best.0);
            let value = if best.1 == NO_MOVE {
                -self.exact(next_own, next_opp, -beta, -floor)
            } else {
                let probe = -self.exact(next_own, next_opp, -floor - 1, -floor);
                if probe > floor && probe < beta {
                    -self.exact(next_own, next_opp, -beta, -probe + 1)
                } else {
                    probe
                }
            };
            if self.watch.stopped {
                return alpha;
            }
            if value > best.0 || best.1 == NO_MOVE {
                best = (value, square as u8);
            }
            if best.0 >= beta {
                break;
            }
        }
        let known = known.map_or((-64, 64), |entry| (entry.lower.into(), entry.upper.into()));
        let (lower, upper) = proven(best.0, window, known);
        self.table.store(Entry {
            own,
            opp,
            lower: lower as i8,
            upper: upper as i8,
            best: best.1,
            empties: empty.count_ones() as u8,
        });
        best.0
    }

    /// Enhanced transposition cutoff: a child the table already proves good enough for a
    /// cut-off (its upper bound for the opponent at most −`beta`) ends the search here
    /// before any child is searched.
    fn transposition_cutoff(
        &self,
        own: u64,
        opp: u64,
        children: &[(u32, u64)],
        beta: i32,
    ) -> Option<i32> {
        children.iter().find_map(|&(square, flipped)| {
            let (next_own, next_opp) = after(own, opp, square, flipped);
            let entry = self.table.probe(next_own, next_opp)?;
            (-i32::from(entry.upper) >= beta).then(|| -i32::from(entry.upper))
        })
    }

    /// The moves in `moves` with their flips, best first: the table's best move `hint`,
    /// then, from [`PROBE_EMPTIES`] up, by a shallow heuristic search of each, and below
    /// that fastest first. A move's key counts the opponent's replies (corner replies
    /// twice over), then, with less weight, the opponent's potential mobility (empty
    /// squares next to the mover's discs), and last whether it leaves its board quarter
    /// with an even number of empties (parity).
    fn ordered(&mut self, own: u64, opp: u64, moves: u64, hint: u8) -> ArrayVec<(u32, u64), 32> {
        let empty = !(own | opp);
        let odd = odd_quarters(empty);
        // A position searched before has its best move from the table, which cuts off
        // nearly always: the rest need no costly probes.
        let probe = hint == NO_MOVE && empty.count_ones() >= PROBE_EMPTIES;
        let mut probed = 0;
        let mut scored: ArrayVec<(u32, u32, u64), 32> = squares(moves)
            .map(|square| {
                let flipped = flips(own, opp, square);
                let (next_own, next_opp) = after(own, opp, square, flipped);
                let key = if square == u32::from(hint) {
                    0
                } else if probe {
                    // The opponent moves next: their value, lowest first.
                    let child = Othello::from_discs(next_own, next_opp, Player::First)
                        .expect("the two sides' discs are disjoint");
                    let probe = search(&child, PROBE_DEPTH, self.heuristic.as_ref());
                    probed += probe.nodes;
                    let value = probe.value.clamp(-HEURISTIC_BOUND, HEURISTIC_BOUND);
                    (1.0 + HEURISTIC_BOUND + value) as u32
                } else {
                    let replies = legal_moves(next_own, next_opp);
                    let potential = neighbours(next_opp) & empty & !(1 << square);
                    let even = u32::from(odd >> square & 1 == 0);
                    1 + 8 * (replies.count_ones() + (replies & CORNERS).count_ones())
                        + 2 * potential.count_ones()
                        + even
                };
                (key, square, flipped)
            })
            .collect();
        self.nodes += probed;
        scored.sort_unstable_by_key(|&(key, square, _)| (key, square));
        scored
            .into_iter()
            .map(|(_, square, flipped)| (square, flipped))
            .collect()
    }

    /// [`Solver::exact`] in the last few empties: moves found square by square in parity
    /// order, with no table and no move generation.
    fn shallow(&mut self, own: u64, opp: u64, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let empty = !(own | opp);
        if empty.count_ones() == 1 {
            return last_square(own, opp, empty.trailing_zeros());
        }
        let odd = odd_quarters(empty);
        let mut best = None;
        let mut alpha = alpha;
        for square in squares(empty & odd).chain(squares(empty & !odd)) {
            if NEIGHBOURS[square as usize] & opp == 0 {
                continue;
            }
            let flipped = flips(own, opp, square);
            if flipped == 0 {
                continue;
            }
            let (next_own, next_opp) = after(own, opp, square, flipped);
            let value = -self.shallow(next_own, next_opp, -beta, -alpha);
            if best.is_none_or(|b| value > b) {
                best = Some(value);
                if value >= beta {
                    return value;
                }
                alpha = alpha.max(value);
            }
        }
        match best {
            Some(value) => value,
            None if legal_moves(opp, own) == 0 => final_margin(own, opp),
            None => -self.shallow(opp, own, -beta, -alpha),
        }
    }
}

/// The exact value of a position with one empty `square` for the owner of `own`: they
/// play it if they can, else the opponent does if they can, else the game ends.
#[inline]
fn last_square(own: u64, opp: u64, square: u32) -> i32 {
    let margin = own.count_ones() as i32 - opp.count_ones() as i32;
    let mine = flips(own, opp, square).count_ones() as i32;
    if mine > 0 {
        return margin + 2 * mine + 1;
    }
    let theirs = flips(opp, own, square).count_ones() as i32;
    if theirs > 0 {
        return margin - 2 * theirs - 1;
    }
    final_margin(own, opp)
}

/// The stability cut-off: the opponent's stable discs (which no move can flip) cap the
/// final margin of the owner of `own` at 64 − 2 × stable; a cap at most `alpha` fails
/// low at once. Stability is only computed when such a cap could be low enough.
#[inline]
fn stability_cutoff(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    // Even if every opponent disc were stable the cap would not reach alpha.
    if 64 - 2 * opp.count_ones() as i32 > alpha {
        return None;
    }
    let cap = 64 - 2 * stable_discs(opp, own | opp).count_ones() as i32;
    (cap <= alpha).then_some(cap)
}

/// The discs of `discs` that can never be flipped, a subset found by the usual fixed
/// point: a disc is stable when along each of the four lines through it, the line is
/// full, or one neighbour on the line is the board's edge or a stable disc of the same
/// colour.
fn stable_discs(discs: u64, occupied: u64) -> u64 {
    let full = full_lines(occupied);
    let mut stable = 0u64;
    loop {
        let across =
            full[0] | EDGE_FILES | ((stable << 1) & NOT_A_FILE) | ((stable >> 1) & NOT_H_FILE);
        let down = full[1] | EDGE_ROWS | (stable << 8) | (stable >> 8);
        let diagonal = full[2] | EDGE | ((stable << 9) & NOT_A_FILE) | ((stable >> 9) & NOT_H_FILE);
        let anti = full[3] | EDGE | ((stable << 7) & NOT_H_FILE) | ((stable >> 7) & NOT_A_FILE);
        let next = stable | (discs & across & down & diagonal & anti);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The a- and h-files, rows 1 and 8, and the whole rim.
const EDGE_FILES: u64 = 0x8181_8181_8181_8181;
const EDGE_ROWS: u64 = 0xff00_0000_0000_00ff;
const EDGE: u64 = EDGE_FILES | EDGE_ROWS;

/// The squares on full rows, full columns, full a1–h8 diagonals and full h1–a8 diagonals
/// of `occupied`.
fn full_lines(occupied: u64) -> [u64; 4] {
    let mut full = [0u64; 4];
    for (kind, lines) in LINES_BY_KIND.iter().enumerate() {
        for &line in lines {
            if occupied & line == line {
                full[kind] |= line;
            }
        }
    }
    full
}

/// Every row, column, a1–h8 diagonal and h1–a8 diagonal, as square masks.
static LINES_BY_KIND: [[u64; 15]; 4] = {
    let mut lines = [[0u64; 15]; 4];
    let mut square = 0;
    while square < 64 {
        let (row, col) = (square / 8, square % 8);
        let bit = 1u64 << square;
        lines[0][row] |= bit;
        lines[1][col] |= bit;
        lines[2][7 + col - row] |= bit;
        lines[3][row + col] |= bit;
        square += 1;
    }
    lines
};
