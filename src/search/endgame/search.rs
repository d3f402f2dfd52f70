//! The search above the last few empties: null-window probes over a shared table, move
//! ordering, cut-offs, and the split of a node's moves among threads.
//!
//! Every search is a null-window search (does the value exceed `alpha`?): MTD(f) at the
//! root asks only such questions. A node's moves after the first may be searched in
//! parallel (young brothers wait: the first move, the likeliest to cut off, is searched
//! alone first). Among siblings searched in parallel, the lowest in the move order that
//! cuts off wins and the later ones stop; the earlier ones still finish. So the move a
//! root probe returns is the first in the root's order that reaches the bound, whatever
//! the number of threads, and the root's best move does not depend on it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

use arrayvec::ArrayVec;

use super::shallow::{SHALLOW_EMPTIES, final_margin, odd_squares, parity, shallow};
use super::stability::stability_cutoff;
use super::table::{Known, Lent, NO_MOVE, lend};
use crate::eval::SharedEvaluator;
use crate::eval::weighted::WeightedSum;
use crate::games::Player;
use crate::games::othello::bitboard::{CORNERS, flips, legal_moves, neighbours, squares};
use crate::games::othello::{Move, Othello};
use crate::search::bounds::proven;
use crate::search::search;

/// How the moves far from the end are ordered: fastest first (`fastest_first`) with the
/// ranking of a shallow search of each move by an evaluator added. A good first move near
/// the root saves far more than the search costs; nearer the end fastest first alone is as
/// good and cheaper. How deep and from how many empties depends on the evaluator's cost and
/// quality (measured on FFO #40–#49; docs/measurements.md).
#[derive(Clone)]
pub struct EndgameOrdering {
    evaluator: SharedEvaluator<Othello>,
    depth: u32,
    from_empties: u32,
}

impl EndgameOrdering {
    /// The Othello heuristic, cheap to evaluate: 3 plies from 18 empties (3 orders about
    /// as well as 4 at much less cost, 2 worse; 1 ply from 16 empties took FFO #40–#49 to
    /// 3.7 G nodes, against 2.4 G).
    pub fn heuristic() -> EndgameOrdering {
        EndgameOrdering {
            evaluator: Arc::new(
                WeightedSum::named("heuristic", "othello", &[])
                    .expect("Othello's heuristic is built in"),
            ),
            depth: 3,
            from_empties: 18,
        }
    }

    /// A trained network, which orders far better than the heuristic but costs more to
    /// evaluate: 1 ply from 16 empties. With the shipped champion, FFO #40–#49 took 1.54 G
    /// nodes this way, 1.79 G from 18 empties (as fast), 1.44 G from 14 (slower: dearer
    /// ordering), 1.39 G at 2 plies from 16 (slower), 2.02 G by the replies' values alone.
    pub fn network(evaluator: SharedEvaluator<Othello>) -> EndgameOrdering {
        EndgameOrdering {
            evaluator,
            depth: 1,
            from_empties: 16,
        }
    }
}

impl std::fmt::Debug for EndgameOrdering {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EndgameOrdering")
            .field("depth", &self.depth)
            .field("from_empties", &self.from_empties)
            .finish_non_exhaustive()
    }
}

/// What one place in the probes' ranking adds to a move's fastest-first key: as much as
/// one reply left to the opponent. The key and the ranking together order better than
/// the ranking alone (FFO #40–#44 on one thread, ordered by the shipped champion, 3 plies
/// from 18 empties: 149 M nodes at this weight, 164 M at twice it, 152 M at half, 296 M
/// by the ranking alone; 242 M by the heuristic's values alone, the build before).
const PROBE_RANK_WEIGHT: u32 = 16;

/// From this many empties up, the children are looked up in the table before any is
/// searched (enhanced transposition cut-off): nearer the end the look-ups cost more than
/// they save.
const ETC_EMPTIES: u32 = 10;

/// From this many empties up, a node's later moves are shared among threads: below, a
/// subtree is too small to pay for handing it over.
const SPLIT_EMPTIES: u32 = 12;

/// The discs of `discs` on corners, and on the edge squares next to a corner it holds.
fn corner_stable(discs: u64) -> u64 {
    let next = ((discs & 0x0100_0000_0000_0001) << 1)
        | ((discs & 0x8000_0000_0000_0080) >> 1)
        | ((discs & 0x0000_0000_0000_0081) << 8)
        | ((discs & 0x8100_0000_0000_0000) >> 8);
    (next | CORNERS) & discs
}

/// Square classes, best first: corners, edges, the inner squares, C-squares, X-squares.
static SQUARE_CLASS: [u8; 64] = {
    let mut class = [2u8; 64];
    let mut square = 0;
    while square < 64 {
        let (row, col) = (square / 8, square % 8);
        let edge_row = row == 0 || row == 7;
        let edge_col = col == 0 || col == 7;
        let near_row = row == 1 || row == 6;
        let near_col = col == 1 || col == 6;
        class[square] = if edge_row && edge_col {
            0
        } else if (edge_row && near_col) || (near_row && edge_col) {
            3
        } else if near_row && near_col {
            4
        } else if edge_row || edge_col {
            1
        } else {
            2
        };
        square += 1;
    }
    class
};

/// From this many empties up, a search asks whether to give up (the deadline has passed,
/// or an earlier sibling at a split above has cut off): on entry, and after each move,
/// where a child's search may have given up and its value must not be used. Below, the
/// subtree finishes in microseconds, and the question, asked at every node, cost about 3%
/// of a two-thread solve: it reads the splits' state up the chain, from other threads'
/// cache lines. Nothing below asks, so nothing below gives up half-way.
const GIVE_UP_EMPTIES: u32 = 10;

/// Nodes a searcher counts before adding them to the shared count.
const FLUSH_NODES: u64 = 1 << 14;

/// How exactly the root is solved: the search stops once the value is known to be at most
/// `low` or at least `high`, or is known exactly between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Precision {
    pub low: i32,
    pub high: i32,
}

impl Precision {
    /// The exact final margin.
    pub const EXACT: Precision = Precision { low: -64, high: 64 };
    /// Only who wins: a loss, a draw or a win (probes around 0, cut off far sooner).
    pub const WIN_LOSS_DRAW: Precision = Precision { low: -1, high: 1 };
}

/// What the threads of one solve share.
pub(super) struct Shared {
    pub table: Lent,
    /// The probes ordering the moves far from the end.
    ordering: EndgameOrdering,
    /// Whether nodes split their moves among the threads of a pool.
    parallel: bool,
    /// Set at the deadline: every search returns at once, storing nothing.
    pub stop: AtomicBool,
    /// Positions visited, as the searchers have reported them so far.
    pub nodes: AtomicU64,
}

impl Shared {
    /// `parallel` only inside a thread pool: a split hands work to the pool's threads.
    /// `ordering` orders moves far from the end.
    pub fn new(empties: u32, parallel: bool, ordering: EndgameOrdering) -> Shared {
        Shared {
            // 2^22 entries (96 MiB) from 20 empties up; smaller solves need less.
            table: lend((empties + 2).clamp(10, 22)),
            ordering,
            parallel,
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }
}

/// Siblings searched in parallel: the lowest index in the move order that cut off.
struct Split {
    cut: AtomicUsize,
}

/// Where a search sits among parallel siblings, at every level above it: it gives up
/// when a sibling earlier in some ancestor's order has cut off.
struct Abort<'a> {
    split: &'a Split,
    index: usize,
    parent: Option<&'a Abort<'a>>,
}

/// A move with its flips and its ordering key (lowest first).
#[derive(Clone, Copy)]
struct Child {
    key: u32,
    square: u8,
    flipped: u64,
    /// The opponent's moves after this one, when ordering found them: the child's node
    /// then need not find them again.
    replies: Option<u64>,
}

impl Child {
    /// The position after the move, as (mover, opponent) for the next side to move.
    #[inline]
    fn after(&self, own: u64, opp: u64) -> (u64, u64) {
        (opp & !self.flipped, own | self.flipped | 1 << self.square)
    }
}

/// A node's moves, handed out best first. Most nodes cut off at their first move, so
/// they are picked one at a time rather than sorted.
struct Moves {
    list: ArrayVec<Child, 32>,
    taken: usize,
    /// Only the table's move is keyed yet: the others are keyed ([`fastest_first`]) once
    /// it has been searched without a cut-off.
    unkeyed: bool,
    /// The moves not in the list yet, to be made with the keys.
    later: u64,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            list: ArrayVec::new(),
            taken: 0,
            unkeyed: false,
            later: 0,
        }
    }

    fn take_best(&mut self) -> Option<Child> {
        let rest = &mut self.list[self.taken..];
        let best = (0..rest.len()).min_by_key(|&i| (rest[i].key, rest[i].square))?;
        rest.swap(0, best);
        self.taken += 1;
        Some(self.list[self.taken - 1])
    }

    fn remaining(&self) -> usize {
        self.list.len() - self.taken
    }

    /// Every move not yet taken, best first.
    fn take_rest(&mut self) -> &[Child] {
        let first = self.taken;
        self.taken = self.list.len();
        self.list[first..].sort_unstable_by_key(|child| (child.key, child.square));
        &self.list[first..]
    }
}

/// A search's value and the square of its best move, or `None` when it was stopped.
type Outcome = Option<(i32, u8)>;

/// One thread's part of a solve: the shared state and its own count of nodes.
pub(super) struct Searcher<'s> {
    shared: &'s Shared,
    nodes: u64,
}

impl<'s> Searcher<'s> {
    pub fn new(shared: &'s Shared) -> Searcher<'s> {
        Searcher { shared, nodes: 0 }
    }

    /// Adds this searcher's nodes to the shared count.
    pub fn flush(&mut self) {
        self.shared.nodes.fetch_add(self.nodes, Relaxed);
        self.nodes = 0;
    }

    /// Whether the search should give up: the deadline passed, or an earlier sibling at
    /// some split above cut off.
    fn stopped(&self, mut abort: Option<&Abort>) -> bool {
        if self.shared.stop.load(Relaxed) {
            return true;
        }
        while let Some(at) = abort {
            if at.split.cut.load(Relaxed) < at.index {
                return true;
            }
            abort = at.parent;
        }
        false
    }

    /// Whether a node of `empties` empty squares gives up: only from [`GIVE_UP_EMPTIES`]
    /// up is the question asked at all.
    #[inline]
    fn gives_up(&self, empties: u32, abort: Option<&Abort>) -> bool {
        empties >= GIVE_UP_EMPTIES && self.stopped(abort)
    }

    /// The root, solved by null-window probes (MTD(f)) that tell `report` the bounds
    /// proven after each (with this searcher's nodes added to the shared count), until
    /// the value is known or known to lie at or beyond a bound of `precision` (see
    /// [`Precision`]). A move that made a probe succeed at the final lower bound is
    /// a best move: the first in the root's order that reaches the value. `None` when
    /// the solve was stopped.
    pub fn root(
        &mut self,
        own: u64,
        opp: u64,
        precision: Precision,
        report: &mut dyn FnMut(i32, i32),
    ) -> Option<(i32, Option<Move>)> {
        self.nodes += 1;
        let moves = legal_moves(own, opp);
        if moves == 0 {
            if legal_moves(opp, own) == 0 {
                return Some((final_margin(own, opp), None));
            }
            let value = self.mtdf(
                precision,
                |searcher, alpha| searcher.nws(own, opp, None, alpha, None),
                report,
            )?;
            return Some((value, Some(Move::PASS)));
        }
        let empties = (!(own | opp)).count_ones();
        let mut ordered = Moves::new();
        self.order(&mut ordered, own, opp, moves, NO_MOVE, empties);
        let ordered = ordered.take_rest().to_vec();
        let mut best = ordered[0].square;
        let value = self.mtdf(
            precision,
            |searcher, alpha| {
                let mut moves = Moves {
                    list: ordered.iter().copied().collect(),
                    taken: 0,
                    unkeyed: false,
                    later: 0,
                };
                let (value, square) = searcher
                    .search_moves(own, opp, alpha, &mut moves, empties, None)
                    .unwrap_or((alpha, NO_MOVE));
                if value > alpha {
                    best = square;
                }
                value
            },
            report,
        )?;
        Some((value, Some(Move::at(u32::from(best)))))
    }

    /// The exact value for the owner of `own`, by null-window probes as at the root.
    pub fn value(&mut self, own: u64, opp: u64) -> Option<i32> {
        self.mtdf(
            Precision::EXACT,
            |searcher, alpha| searcher.nws(own, opp, None, alpha, None),
            &mut |_, _| {},
        )
    }

    /// MTD(f) (Plaat et al., "Best-first fixed-depth minimax algorithms", 1996): each
    /// `probe` asks whether the value exceeds a bound, and the table carries what one
    /// probe proved into the next, until the lower and upper bounds meet or pass a bound of
    /// `precision`. Returns the value, or the bound past the limit.
    fn mtdf(
        &mut self,
        precision: Precision,
        mut probe: impl FnMut(&mut Self, i32) -> i32,
        report: &mut dyn FnMut(i32, i32),
    ) -> Option<i32> {
        let (mut lower, mut upper, mut guess) = (-64, 64, 0);
        while lower < upper && lower < precision.high && upper > precision.low {
            let beta = if guess == lower { guess + 1 } else { guess };
            let value = probe(self, beta - 1);
            if self.stopped(None) {
                return None;
            }
            if value >= beta {
                lower = value;
            } else {
                upper = value;
            }
            guess = value.clamp(precision.low, precision.high);
            self.flush();
            report(lower, upper);
        }
        Some(if upper <= precision.low { upper } else { lower })
    }

    /// The null-window search: the value for the owner of `own` if it is at most `alpha`
    /// (or a bound at most `alpha`), else a bound above `alpha` (fail-soft).
    /// `moves` are the mover's moves when the parent's ordering found them.
    fn nws(
        &mut self,
        own: u64,
        opp: u64,
        moves: Option<u64>,
        alpha: i32,
        abort: Option<&Abort>,
    ) -> i32 {
        let empty = !(own | opp);
        let empties = empty.count_ones();
        if empties <= SHALLOW_EMPTIES {
            return shallow(own, opp, alpha, parity(empty), &mut self.nodes);
        }
        self.nodes += 1;
        if self.nodes >= FLUSH_NODES {
            self.flush();
        }
        if self.gives_up(empties, abort) {
            return alpha;
        }
        let moves = moves.unwrap_or_else(|| legal_moves(own, opp));
        if moves == 0 {
            if legal_moves(opp, own) == 0 {
                return final_margin(own, opp);
            }
            return -self.nws(opp, own, None, -alpha - 1, abort);
        }
        if let Some(cap) = stability_cutoff(own, opp, alpha) {
            return cap;
        }
        if moves & (moves - 1) == 0 {
            // One move: nothing to order or to keep in the table.
            let square = moves.trailing_zeros();
            let flipped = flips(own, opp, square);
            return -self.nws(
                opp & !flipped,
                own | flipped | 1 << square,
                None,
                -alpha - 1,
                abort,
            );
        }
        let known = self.shared.table.probe(own, opp);
        let mut hint = NO_MOVE;
        if let Some(known) = known {
            if known.lower > alpha {
                return known.lower;
            }
            if known.upper <= alpha {
                return known.upper;
            }
            hint = known.best;
        }
        let mut list = Moves::new();
        self.order(&mut list, own, opp, moves, hint, empties);
        let moves = &mut list;
        if empties >= ETC_EMPTIES
            && let Some(cut) = self.transposition_cutoff(own, opp, &moves.list, alpha)
        {
            return cut;
        }
        let Some((value, best)) = self.search_moves(own, opp, alpha, moves, empties, abort) else {
            return alpha;
        };
        let known = known.map_or((-64, 64), |known| (known.lower, known.upper));
        let (lower, upper) = proven(value, (alpha, alpha + 1), known);
        let known = Known { lower, upper, best };
        self.shared.table.store(own, opp, known, empties);
        value
    }

    /// Enhanced transposition cut-off: a child the table already proves good enough (its
    /// upper bound for the opponent below −`alpha`) ends the search here before any child
    /// is searched.
    fn transposition_cutoff(&self, own: u64, opp: u64, moves: &[Child], alpha: i32) -> Option<i32> {
        moves.iter().find_map(|child| {
            let (next_own, next_opp) = child.after(own, opp);
            let known = self.shared.table.probe(next_own, next_opp)?;
            (-known.upper > alpha).then_some(-known.upper)
        })
    }

    /// The node's moves, best first, until one exceeds `alpha`: the first alone, the
    /// rest shared among threads from [`SPLIT_EMPTIES`] up.
    fn search_moves(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        moves: &mut Moves,
        empties: u32,
        abort: Option<&Abort>,
    ) -> Outcome {
        let mut best = (-65, NO_MOVE);
        while let Some(child) = moves.take_best() {
            let (next_own, next_opp) = child.after(own, opp);
            let value = -self.nws(next_own, next_opp, child.replies, -alpha - 1, abort);
            if self.gives_up(empties, abort) {
                return None;
            }
            if value > best.0 {
                best = (value, child.square);
                if value > alpha {
                    return Some(best);
                }
            }
            if moves.unkeyed {
                self.key_the_rest(moves, own, opp, empties);
            }
            if self.shared.parallel && empties >= SPLIT_EMPTIES && moves.remaining() >= 2 {
                let split = Split {
                    cut: AtomicUsize::new(usize::MAX),
                };
                let rest = self.search_split(own, opp, alpha, moves.take_rest(), 0, &split, abort);
                if self.stopped(abort) {
                    return None;
                }
                return Some(match rest {
                    Some(found) if found.0 > best.0 => found,
                    _ => best,
                });
            }
        }
        Some(best)
    }

    /// Searches `moves` (the split's moves from index `first` on) over the pool's
    /// threads: the best outcome among them, the cut-off lowest in the order first.
    /// `None` when all were given up.
    #[allow(clippy::too_many_arguments)]
    fn search_split(
        &mut self,
        own: u64,
        opp: u64,
        alpha: i32,
        moves: &[Child],
        first: usize,
        split: &Split,
        abort: Option<&Abort>,
    ) -> Outcome {
        if let [child] = moves {
            let here = Abort {
                split,
                index: first,
                parent: abort,
            };
            if self.stopped(Some(&here)) {
                return None;
            }
            let (next_own, next_opp) = child.after(own, opp);
            let value = -self.nws(next_own, next_opp, child.replies, -alpha - 1, Some(&here));
            if self.stopped(Some(&here)) {
                return None;
            }
            if value > alpha {
                split.cut.fetch_min(first, Relaxed);
            }
            return Some((value, child.square));
        }
        let (early, late) = moves.split_at(moves.len() / 2);
        let shared = self.shared;
        let (early, late) = rayon::join(
            || self.search_split(own, opp, alpha, early, first, split, abort),
            || {
                let mut other = Searcher::new(shared);
                let outcome =
                    other.search_split(own, opp, alpha, late, first + early.len(), split, abort);
                other.flush();
                outcome
            },
        );
        match (early, late) {
            (Some(early), _) if early.0 > alpha => Some(early),
            (Some(early), Some(late)) => Some(if late.0 > early.0 { late } else { early }),
            (early, late) => early.or(late),
        }
    }

    /// Puts the moves in `moves` into `into`, keyed for ordering: the table's best move
    /// `hint` first, then fastest first ([`fastest_first`]), far from the end
    /// with the ranking of a shallow search of each added. The table's move cuts off
    /// nearly always, so when there is one the others are keyed, and below
    /// [`ETC_EMPTIES`] even made, only once it has failed to ([`Moves::unkeyed`]): the
    /// order, and so the tree, is the same.
    fn order(&mut self, into: &mut Moves, own: u64, opp: u64, moves: u64, hint: u8, empties: u32) {
        if hint != NO_MOVE && moves >> hint & 1 == 1 {
            let hint_bit = 1 << hint;
            self.add_children(into, own, opp, hint_bit, empties);
            into.list[0].key = 0;
            into.unkeyed = true;
            if empties >= ETC_EMPTIES {
                // The transposition cut-off looks at every child.
                self.add_children(into, own, opp, moves & !hint_bit, empties);
            } else {
                into.later = moves & !hint_bit;
            }
            return;
        }
        self.add_children(into, own, opp, moves, empties);
        fastest_first(into, own, opp);
        if hint == NO_MOVE && empties >= self.shared.ordering.from_empties {
            // A position searched before has its best move from the table: the costly
            // probes are only for the others.
            self.add_probe_ranks(into, own, opp);
        }
    }

    /// Adds to each move's key [`PROBE_RANK_WEIGHT`] for every move whose shallow probe
    /// values it better (ties share a place).
    fn add_probe_ranks(&mut self, into: &mut Moves, own: u64, opp: u64) {
        let values: ArrayVec<f32, 32> = into
            .list
            .iter()
            .map(|child| {
                let (next_own, next_opp) = child.after(own, opp);
                // The opponent moves next: their value, lowest first.
                let position = Othello::from_discs(next_own, next_opp, Player::First)
                    .expect("the two sides' discs are disjoint");
                let ordering = &self.shared.ordering;
                let probe = search(&position, ordering.depth, &*ordering.evaluator);
                self.nodes += probe.nodes;
                probe.value
            })
            .collect();
        for (child, value) in into.list.iter_mut().zip(&values) {
            let better = values.iter().filter(|other| *other < value).count() as u32;
            child.key += PROBE_RANK_WEIGHT * better;
        }
    }

    /// The moves of the node that the table's move did not cut off, made and keyed.
    fn key_the_rest(&self, moves: &mut Moves, own: u64, opp: u64, empties: u32) {
        let later = std::mem::take(&mut moves.later);
        self.add_children(moves, own, opp, later, empties);
        fastest_first(moves, own, opp);
    }

    /// Adds the moves `squares` to `into` with their flips, not yet keyed. The children
    /// that will look themselves up in the table (and whose entries the transposition
    /// cut-off reads) have their buckets loaded meanwhile.
    fn add_children(&self, into: &mut Moves, own: u64, opp: u64, moves: u64, empties: u32) {
        let prefetch = empties > SHALLOW_EMPTIES + 1;
        into.list.extend(squares(moves).map(|square| {
            let child = Child {
                key: u32::MAX,
                square: square as u8,
                flipped: flips(own, opp, square),
                replies: None,
            };
            if prefetch {
                let (next_own, next_opp) = child.after(own, opp);
                self.shared.table.prefetch(next_own, next_opp);
            }
            child
        }));
    }
}

/// Keys the moves of `moves` not yet taken, other than the table's (key 0), fastest first.
/// A move's key counts the opponent's replies (corner replies twice over) 16 each, the
/// opponent's potential mobility (empty squares next to the mover's discs) 4 each, the
/// mover's discs not made stable by a corner 6 each (of the 12 corner and next-to-corner
/// edge squares), 2 for leaving its board quarter an even number of empties (parity), and
/// the square's class (corner, edge, inner, C-, X-square) 0–4. The weights were tuned on
/// the node counts of FFO #40–#47 (see docs/measurements.md).
fn fastest_first(moves: &mut Moves, own: u64, opp: u64) {
    let empty = !(own | opp);
    let odd = odd_squares(empty);
    moves.unkeyed = false;
    for child in &mut moves.list[moves.taken..] {
        if child.key == 0 {
            continue;
        }
        let square = u32::from(child.square);
        let (next_own, next_opp) = child.after(own, opp);
        let replies = legal_moves(next_own, next_opp);
        child.replies = Some(replies);
        let potential = neighbours(next_opp) & empty & !(1 << square);
        let even = u32::from(odd >> square & 1 == 0);
        let unstable = 12 - corner_stable(next_opp).count_ones();
        child.key = 1
            + 16 * (replies.count_ones() + (replies & CORNERS).count_ones())
            + 4 * potential.count_ones()
            + 6 * unstable
            + 2 * even
            + u32::from(SQUARE_CLASS[square as usize]);
    }
}
