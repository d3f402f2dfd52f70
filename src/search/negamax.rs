//! The alpha-beta search itself, plus a plain negamax used as its reference in tests.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::Evaluator;
use crate::games::{Game, MoveList, Player};

use super::ordering::order_by_static_value;
use super::{as_seen, leaf_value, maximin, part_values, terminal_value};

/// Remaining depth from which children are ordered by static value; below it the ordering
/// costs more evaluations than the cut-offs save.
const ORDERING_MIN_DEPTH: u32 = 2;

/// What a search found: the best move (`None` only if the game is over), its value for the
/// side to move, and how many nodes were visited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchResult<M> {
    pub best: Option<M>,
    pub value: f32,
    pub nodes: u64,
}

/// Forward pruning: at every node only the `width` moves that `ranker` rates best (by the
/// position each leads to, for the mover) are searched. Seed 000's NMM agent: a network
/// ranks, minimax searches what it keeps.
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
    search_pruned(game, depth, evaluator, None)
}

/// [`search`], searching at each node only the moves `pruning` keeps (all when `None`).
/// Simultaneous decisions are always searched in full: their maximin needs every answer.
pub fn search_pruned<G: Game, E: Evaluator<G> + ?Sized>(
    game: &G,
    depth: u32,
    evaluator: &E,
    pruning: Option<Pruning<'_, G>>,
) -> SearchResult<G::Move> {
    let mut searcher = AlphaBeta::new(evaluator, pruning, game.to_move(), None);
    searcher.nodes = 1;
    root_search(&mut searcher, game, depth, None)
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
    limits: Limits<'_>,
) -> (SearchResult<G::Move>, u32) {
    let mut done = (search_pruned(game, 1, evaluator, pruning), 1);
    let mut nodes = done.0.nodes;
    for depth in 2..=max_depth {
        let mut searcher = AlphaBeta::new(evaluator, pruning, game.to_move(), Some(limits));
        let result = root_search(&mut searcher, game, depth, done.0.best);
        nodes += searcher.nodes;
        if searcher.stopped {
            break;
        }
        done = (result, depth);
    }
    done.0.nodes = nodes;
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
}

impl<'e, G: Game, E: Evaluator<G> + ?Sized> AlphaBeta<'e, G, E> {
    fn new(
        evaluator: &'e E,
        pruning: Option<Pruning<'e, G>>,
        root: Player,
        limits: Option<Limits<'e>>,
    ) -> Self {
        AlphaBeta {
            evaluator,
            pruning,
            root,
            nodes: 0,
            limits,
            next_check: 0,
            stopped: false,
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
        let mut child = game.clone();
        child.play_unchecked(mv);
        let child = as_seen(child, self.root);
        if child.to_move() == game.to_move() {
            self.value(&child, depth - 1, alpha, beta)
        } else {
            -self.value(&child, depth - 1, -beta, -alpha)
        }
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
        self.select(game, &mut moves, depth);
        let mut best = f32::NEG_INFINITY;
        for &mv in &moves {
            let value = self.child_value(game, mv, depth, alpha, beta);
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
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
            let mut child = game.clone();
            child.play_unchecked(mv);
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
    let mut searcher = AlphaBeta::new(evaluator, None, mover, limits);
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
                let mut child = game.clone();
                child.play_unchecked(mv);
                (mv, searcher.value_for(&child, depth, mover))
            })
            .collect()
    };
    if searcher.stopped {
        return None;
    }
    values.sort_by(|a, b| b.1.total_cmp(&a.1));
    Some(values)
}
