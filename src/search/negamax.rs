//! The alpha-beta search itself, plus a plain negamax used as its reference in tests.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::{Evaluator, HEURISTIC_BOUND};
use crate::games::{Game, MoveList, Player};

use super::ordering::order_by_static_value;
use super::probcut::{Cut, ProbCut};
use super::table::{Bound, Table};
use super::{as_seen, leaf_value, maximin, part_values, terminal_value};

/// Remaining depth from which children are ordered by static value; below it the ordering
/// costs more evaluations than the cut-offs save.
const ORDERING_MIN_DEPTH: u32 = 2;

/// Remaining depth from which nodes are looked up in and stored to the transposition table;
/// nearer the leaves a lookup costs more than the evaluations it saves.
const TABLE_MIN_DEPTH: u32 = 2;

/// Depth from which a fixed-depth search first searches every shallower depth from 3 to
/// fill the table with best moves. Measured in nodes over 20 fixed positions (`bench`):
/// below 9 the shallower searches cost more than they save; at 9 and 10 they save 4–8%
/// (Othello) and 9–20% (Kalah) more than the table and the scout alone.
const DEEPENING_MIN_DEPTH: u32 = 9;

/// Remaining depth from which moves after the first get a null-window scout: nearer the
/// leaves its re-searches cost more than it saves (Othello at depth 5–6: +1–4% nodes with
/// the scout everywhere, none with it from 4; −8% at depth 8).
const SCOUT_MIN_DEPTH: u32 = 4;

/// What a search found: the best move (`None` only if the game is over), its value for the
/// side to move, and how many nodes were visited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub value: f32,
    pub nodes: u64,
}

/// Forward pruning: at every node only the `width` moves that `ranker` rates best (by the
/// position each leads to, for the mover) are searched. The Congkak report's NMM agent:
/// a network ranks, minimax searches what it keeps.
pub struct Pruning<'r, G> {
    pub ranker: &'r dyn Evaluator<G>,
    pub width: usize,
}

impl<G> Clone for Pruning<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Pruning<'_, G> {}

/// Searches `depth` plies below `game` with alpha-beta and returns the best move. Ties go
/// to the move searched first, so the result is deterministic.
pub fn search<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
) -> SearchResult<G::Move> {
    search_pruned(game, depth, evaluator, None, None)
}

/// [`search`], searching at each node only the moves `pruning` keeps (all when `None`),
/// and cutting nodes by Multi-ProbCut where `probcut` is given (selective search).
/// Simultaneous decisions are always searched in full: their maximin needs every answer.
pub fn search_pruned<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
    pruning: Option<Pruning<'_, G>>,
    probcut: Option<&ProbCut>,
) -> SearchResult<G::Move> {
    let mut searcher = AlphaBeta::new(evaluator, pruning, game, depth, None);
    searcher.probcut = probcut;
    searcher.nodes = 1;
    if searcher.table.is_some() && depth >= DEEPENING_MIN_DEPTH {
        // Shallower searches first fill the table with best moves; the root keeps its
        // order, so the move chosen among equals is the one without them.
        for shallower in TABLE_MIN_DEPTH + 1..depth {
            root_search(&mut searcher, game, shallower, None);
        }
    }
    let mut result = root_search(&mut searcher, game, depth, None);
    result.nodes = searcher.nodes;
    searcher.finish();
    result
}

/// When a timed search must stop: at `deadline`, or as soon as `stop` is raised (by
/// another thread: a GUI that wants the engine back).
#[derive(Clone, Copy)]
pub struct Limits<'s> {
    pub deadline: Instant,
    pub stop: &'s AtomicBool,
}

/// Nodes searched between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;

/// Iterative deepening to at most `max_depth` (at least 1) within `limits`: depths 1, 2, … each
/// searched in full with the previous depth's best move first, until the next would not
/// finish in time. Returns the deepest finished search and its depth; depth 1 is always
/// finished, so there is always a move. A search stopped mid-iteration is discarded, so
/// the value is exactly [`search_pruned`]'s at the depth reached (among equal moves the
/// choice may differ: the previous best is tried first).
pub fn search_within<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    max_depth: u32,
    evaluator: &E,
    pruning: Option<Pruning<'_, G>>,
    probcut: Option<&ProbCut>,
    limits: Limits<'_>,
) -> (SearchResult<G::Move>, u32) {
    // Depth 1 is searched without limits, so that there is always a move; the deeper
    // iterations share the table, which hands each the best moves of the one before.
    let mut searcher = AlphaBeta::new(evaluator, pruning, game, max_depth, None);
    searcher.probcut = probcut;
    searcher.nodes = 1;
    let mut done = (root_search(&mut searcher, game, 1, None), 1);
    searcher.limits = Some(limits);
    searcher.next_check = 0;
    for depth in 2..=max_depth {
        let result = root_search(&mut searcher, game, depth, done.0.best);
        if searcher.stopped {
            break;
        }
        done = (result, depth);
    }
    done.0.nodes = searcher.nodes;
    searcher.finish();
    done
}

/// The root of an alpha-beta search of `depth` plies, with `first` (a move found by a
/// shallower search) tried before the others.
fn root_search<G: Game, E: Evaluator<G> + ?Sized>(
    searcher: &mut AlphaBeta<'_, G, E>,
    game: &G,
    depth: u32,
    first: Option<G::Move>,
) -> SearchResult<G::Move> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() || depth == 0 {
        return SearchResult {
            best: moves.first().copied(),
            value: searcher.static_value(game, !moves.is_empty()),
            nodes: 1,
        };
    }
    if let Some(joint) = game.joint() {
        let chooser = game.to_move();
        let (best, value) = maximin(game, joint, &moves, |child| {
            searcher.value_for(child, depth - 1, chooser)
        });
        return SearchResult {
            best: Some(best),
            value,
            nodes: searcher.nodes,
        };
    }
    searcher.select(game, &mut moves, depth);
    if let Some(index) = first.and_then(|mv| moves.iter().position(|&m| m == mv)) {
        moves[..=index].rotate_right(1);
    }
    if depth == 1 {
        return searcher.one_ply(game, &moves);
    }
    let mut alpha = f32::NEG_INFINITY;
    let mut best = None;
    for &mv in &moves {
        let value = searcher.child_value(game, mv, depth, alpha, f32::INFINITY);
        if searcher.stopped {
            break;
        }
        if best.is_none() || value > alpha {
            alpha = value;
            best = Some(mv);
        }
    }
    SearchResult {
        best,
        value: alpha,
        nodes: searcher.nodes,
    }
}

struct AlphaBeta<'e, G, E: ?Sized> {
    evaluator: &'e E,
    pruning: Option<Pruning<'e, G>>,
    /// The player the search chooses for: simultaneous decisions are seen by them.
    root: Player,
    nodes: u64,
    limits: Option<Limits<'e>>,
    /// The node count at which the limits are looked at next.
    next_check: u64,
    /// Set once the limits are reached: every value from then on is meaningless.
    stopped: bool,
    /// The thread's transposition table, if the game has position keys and the search is
    /// deep enough to use it.
    table: Option<Table>,
    /// Multi-ProbCut's calibrated cuts, in a selective search.
    probcut: Option<&'e ProbCut>,
}

impl<'e, G: Game, E: Evaluator<G> + ?Sized> AlphaBeta<'e, G, E> {
    /// A search of `root` at most `depth` plies deep.
    fn new(
        evaluator: &'e E,
        pruning: Option<Pruning<'e, G>>,
        root: &G,
        depth: u32,
        limits: Option<Limits<'e>>,
    ) -> Self {
        let uses_table = depth > TABLE_MIN_DEPTH && root.position_key().is_some();
        AlphaBeta {
            evaluator,
            pruning,
            root: root.to_move(),
            nodes: 0,
            limits,
            next_check: 0,
            stopped: false,
            table: uses_table.then(Table::take),
            probcut: None,
        }
    }

    /// Ends the search, handing the table back for the thread's next one.
    fn finish(self) {
        if let Some(table) = self.table {
            table.give_back();
        }
    }

    /// Whether the search must stop now: the limits are looked at, out of the hot path,
    /// at interior nodes once [`CHECK_EVERY`] more nodes have been searched.
    #[inline(always)]
    fn out_of_time(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.look_at_limits();
        }
        self.stopped
    }

    #[cold]
    #[inline(never)]
    fn look_at_limits(&mut self) {
        match self.limits {
            Some(limits) => {
                self.next_check = self.nodes + CHECK_EVERY;
                self.stopped |=
                    limits.stop.load(Ordering::Relaxed) || Instant::now() >= limits.deadline;
            }
            None => self.next_check = u64::MAX,
        }
    }

    /// Orders `moves` best first (deep enough for it to pay) and applies forward pruning.
    fn select(&self, game: &G, moves: &mut MoveList<G::Move>, depth: u32) {
        match self.pruning {
            Some(pruning) => {
                order_by_static_value(game, moves, pruning.ranker);
                moves.truncate(pruning.width.max(1));
            }
            None if depth >= ORDERING_MIN_DEPTH => {
                order_by_static_value(game, moves, self.evaluator);
            }
            None => {}
        }
    }

    /// The root of a one-ply search: with the root's open window no move can be cut off,
    /// so every child is valued at once, which lets the evaluator share work among them.
    /// The same values, best move (the first of equals) and nodes as searched one by one.
    fn one_ply(&mut self, game: &G, moves: &[G::Move]) -> SearchResult<G::Move> {
        let children: MoveList<G> = moves
            .iter()
            .map(|&mv| {
                let child = game.after(mv);
                as_seen(child, self.root)
            })
            .collect();
        self.nodes += children.len() as u64;
        let going_on: MoveList<bool> = children.iter().map(|c| c.count_moves() > 0).collect();
        let live: MoveList<G> = children
            .iter()
            .zip(&going_on)
            .filter(|&(_, &on)| on)
            .map(|(child, _)| child.clone())
            .collect();
        let movers: MoveList<Player> = live.iter().map(G::to_move).collect();
        let mut estimates = self
            .evaluator
            .evaluate_children(game, &live, &movers)
            .into_iter();
        let mut best = SearchResult {
            best: None,
            value: f32::NEG_INFINITY,
            nodes: self.nodes,
        };
        for ((&mv, child), on) in moves.iter().zip(&children).zip(going_on) {
            let value = if on {
                let estimate = estimates.next().expect("one estimate per live child");
                estimate.clamp(-HEURISTIC_BOUND, HEURISTIC_BOUND)
            } else {
                terminal_value(child, child.to_move())
            };
            let value = if child.to_move() == game.to_move() {
                value
            } else {
                -value
            };
            if best.best.is_none() || value > best.value {
                best.best = Some(mv);
                best.value = value;
            }
        }
        best
    }

    /// Value of a node without searching below it: exact if the game is over.
    fn static_value(&self, game: &G, has_moves: bool) -> f32 {
        if has_moves {
            leaf_value(game, self.evaluator)
        } else {
            terminal_value(game, game.to_move())
        }
    }

    /// Full-window value of `child` for `player`, searching `depth` plies.
    fn value_for(&mut self, child: &G, depth: u32, player: Player) -> f32 {
        let child = as_seen(child.clone(), self.root);
        let value = self.value(&child, depth, f32::NEG_INFINITY, f32::INFINITY);
        if child.to_move() == player {
            value
        } else {
            -value
        }
    }

    /// Value, for the side to move in `game`, of playing `mv` and searching the rest.
    fn child_value(&mut self, game: &G, mv: G::Move, depth: u32, alpha: f32, beta: f32) -> f32 {
        let child = game.after(mv);
        let child = as_seen(child, self.root);
        if child.to_move() == game.to_move() {
            self.value(&child, depth - 1, alpha, beta)
        } else {
            -self.value(&child, depth - 1, -beta, -alpha)
        }
    }

    /// [`Self::child_value`] for a move after the first: once a move has set alpha, the
    /// others are first searched with a null window (alpha, the next float up), which only
    /// asks whether they beat alpha, and searched again in full only if one does. With a
    /// good first move most fail low at the null window's lower cost.
    fn scout_value(
        &mut self,
        game: &G,
        mv: G::Move,
        depth: u32,
        alpha: f32,
        beta: f32,
        best: f32,
    ) -> f32 {
        let null_beta = alpha.next_up();
        if self.table.is_none()
            || depth < SCOUT_MIN_DEPTH
            || best == f32::NEG_INFINITY
            || null_beta >= beta
        {
            return self.child_value(game, mv, depth, alpha, beta);
        }
        let value = self.child_value(game, mv, depth, alpha, null_beta);
        if value > alpha && value < beta {
            self.child_value(game, mv, depth, alpha, beta)
        } else {
            value
        }
    }

    /// The position's key, where the table is in use at this depth.
    fn key(&self, game: &G, depth: u32) -> Option<u64> {
        match self.table {
            Some(_) if depth >= TABLE_MIN_DEPTH => game.position_key(),
            _ => None,
        }
    }

    /// Multi-ProbCut's test of a node: `beta` if a null-window search `cut.shallow` deep
    /// says the deep value reaches it at the calibrated confidence, `alpha` if it says the
    /// deep value stays at or below it, `None` if the node must be searched.
    fn probcut_value(&mut self, game: &G, cut: &Cut, alpha: f32, beta: f32) -> Option<f32> {
        if let Some(bound) = cut.high_bound(beta)
            && self.value(game, cut.shallow, bound.next_down(), bound) >= bound
        {
            return Some(beta);
        }
        if let Some(bound) = cut.low_bound(alpha)
            && self.value(game, cut.shallow, bound, bound.next_up()) <= bound
        {
            return Some(alpha);
        }
        None
    }

    /// Fail-soft alpha-beta value of `game` for its side to move.
    fn value(&mut self, game: &G, depth: u32, mut alpha: f32, beta: f32) -> f32 {
        self.nodes += 1;
        if depth == 0 {
            return self.static_value(game, game.count_moves() > 0);
        }
        if self.out_of_time() {
            return 0.0;
        }
        let key = self.key(game, depth);
        let found = key.and_then(|key| self.table.as_ref()?.probe(key));
        if let Some(value) = found.and_then(|found| found.cutoff(depth, alpha, beta)) {
            return value;
        }
        if let Some(cut) = self
            .probcut
            .and_then(|probcut| probcut.cut(game.stage(), depth))
            && let Some(value) = self.probcut_value(game, cut, alpha, beta)
        {
            return value;
        }
        let mut moves = MoveList::new();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.static_value(game, false);
        }
        if let Some(joint) = game.joint() {
            let chooser = game.to_move();
            return maximin(game, joint, &moves, |child| {
                self.value_for(child, depth - 1, chooser)
            })
            .1;
        }
        // The moves in generation order, by which the table names the best one.
        let generated = key.map(|key| (key, moves.clone()));
        let hint = found.and_then(|found| moves.get(found.best).copied());
        let alpha_before = alpha;
        let mut best = (f32::NEG_INFINITY, moves[0]);
        // Without forward pruning the table's move is searched before the others are
        // ordered: when it cuts off, as it mostly does, the ordering's evaluations are saved.
        let searched_first = hint.filter(|_| self.pruning.is_none());
        if let Some(mv) = searched_first {
            best = (self.child_value(game, mv, depth, alpha, beta), mv);
            alpha = alpha.max(best.0);
        }
        if alpha < beta {
            self.select(game, &mut moves, depth);
            if let Some(index) = hint.and_then(|mv| moves.iter().position(|&m| m == mv)) {
                moves[..=index].rotate_right(1);
            }
            for &mv in moves.iter().filter(|&&mv| Some(mv) != searched_first) {
                let value = self.scout_value(game, mv, depth, alpha, beta, best.0);
                if value > best.0 {
                    best = (value, mv);
                    if value > alpha {
                        alpha = value;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        if let (Some((key, generated)), false) = (generated, self.stopped) {
            let bound = if best.0 <= alpha_before {
                Bound::Upper
            } else if best.0 >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let index = generated.iter().position(|&mv| mv == best.1).unwrap_or(0);
            if let Some(table) = self.table.as_mut() {
                table.store(key, depth, best.0, bound, index);
            }
        }
        best.0
    }
}

/// Negamax without pruning or ordering: the reference that alpha-beta must agree with.
/// Exponentially slower; meant for tests and for measuring what pruning saves.
pub fn plain_negamax<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
) -> f32 {
    plain_value(game, depth, evaluator, game.to_move())
}

/// [`plain_negamax`] within a search for `root`.
fn plain_value<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
    root: Player,
) -> f32 {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return terminal_value(game, game.to_move());
    }
    if depth == 0 {
        return leaf_value(game, evaluator);
    }
    let mover = game.to_move();
    let value_for_mover = |child: &G| {
        let child = as_seen(child.clone(), root);
        let value = plain_value(&child, depth - 1, evaluator, root);
        if child.to_move() == mover {
            value
        } else {
            -value
        }
    };
    if let Some(joint) = game.joint() {
        return maximin(game, joint, &moves, value_for_mover).1;
    }
    moves
        .iter()
        .map(|&mv| {
            let child = game.after(mv);
            value_for_mover(&child)
        })
        .fold(f32::NEG_INFINITY, f32::max)
}

/// Every legal move with its value for the side to move (`depth` plies in all, so each
/// reply is searched `depth − 1` deep), best first: what a hint shows. At a simultaneous
/// decision, one joint move per own part, worth its worst case.
pub fn move_values<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
) -> Vec<(G::Move, f32)> {
    limited_move_values(game, depth, evaluator, None).expect("an unlimited search finishes")
}

/// [`move_values`] by iterative deepening within `limits`, up to `max_depth`: the values of
/// the deepest depth finished in time (depth 1 always is) and that depth.
pub fn move_values_within<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    max_depth: u32,
    evaluator: &E,
    limits: Limits<'_>,
) -> (Vec<(G::Move, f32)>, u32) {
    let mut deepest = (move_values(game, 1, evaluator), 1);
    for depth in 2..=max_depth {
        match limited_move_values(game, depth, evaluator, Some(limits)) {
            Some(values) => deepest = (values, depth),
            None => break,
        }
    }
    deepest
}

/// [`move_values`] within `limits`: `None` when they stop it before every move is valued.
fn limited_move_values<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
    limits: Option<Limits<'_>>,
) -> Option<Vec<(G::Move, f32)>> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    let mover = game.to_move();
    let mut searcher = AlphaBeta::new(evaluator, None, game, depth, limits);
    let depth = depth.saturating_sub(1);
    let mut values: Vec<(G::Move, f32)> = if let Some(joint) = game.joint() {
        part_values(game, joint, &moves, |child| {
            searcher.value_for(child, depth, mover)
        })
        .to_vec()
    } else {
        moves
            .iter()
            .map(|&mv| {
                let child = game.after(mv);
                (mv, searcher.value_for(&child, depth, mover))
            })
            .collect()
    };
    let stopped = searcher.stopped;
    searcher.finish();
    if stopped {
        return None;
    }
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(values)
}
