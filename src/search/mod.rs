//! Depth-limited negamax with alpha-beta pruning over any [`Game`] and [`Evaluator`].
//!
//! Values are always from the point of view of the side to move at the node searched.
//! Because turns need not alternate (passes, extra turns), a child's value is negated only
//! when the side to move changes. Finished games get exact values
//! (± [`WIN_VALUE`] plus the final margin) that dominate every heuristic value.
//!
//! At a simultaneous decision (Congkak's opening) the chooser cannot see the other
//! player's part, so the node is worth the chooser's pure-strategy maximin: the best own
//! part against the worst answer to it. That is the value the chooser can guarantee; a
//! mixed strategy could do better on average, but needs the exact game matrix, which
//! depth-limited values do not give.

mod bounds;
pub mod endgame;
pub(crate) mod memory;
mod negamax;
mod ordering;
pub mod probcut;
pub mod solve;
mod table;

pub use ordering::order_by_static_value;

pub use negamax::{
    Limits, Pruning, SearchResult, move_values, move_values_within, plain_negamax, search,
    search_pruned, search_within,
};

use crate::eval::{Evaluator, HEURISTIC_BOUND};
use crate::games::{Game, JointDecision, MoveList, Player};

/// Deepest search a player may ask for (in an agent spec or a stored champion): a guard
/// against typos. (Full-width search grows exponentially; beyond about 10 plies a single
/// move can take minutes or more.)
pub const MAX_DEPTH: u32 = 30;

/// Longest time limit any front end accepts (a move, a game clock, a solve), in seconds: a
/// day. A bound at parse time keeps every later `Duration` and deadline in range.
pub const MAX_SECONDS: f64 = 86_400.0;

/// `seconds` as a time limit, if it is a number of seconds in (0, [`MAX_SECONDS`]]; else
/// why not, in words.
pub fn time_limit(seconds: f64) -> Result<std::time::Duration, String> {
    if seconds > 0.0 && seconds <= MAX_SECONDS {
        Ok(std::time::Duration::from_secs_f64(seconds))
    } else {
        Err(format!(
            "{seconds} is not a number of seconds in (0, {MAX_SECONDS}]"
        ))
    }
}

/// Base value of a won finished game; a heuristic value can never reach it.
pub const WIN_VALUE: f32 = 1_000_000.0;

/// Exact value of a finished game for `perspective`: ±WIN_VALUE plus the score margin
/// (so bigger wins and smaller losses are preferred), or the margin alone for a draw.
pub fn terminal_value<G: Game>(game: &G, perspective: Player) -> f32 {
    let score = game.score();
    let margin = (score[perspective.index()] - score[perspective.opponent().index()]) as f32;
    let sign = game
        .outcome()
        .map_or(0.0, |outcome| outcome.sign_for(perspective) as f32);
    sign * WIN_VALUE + margin
}

/// Heuristic value for the side to move, clamped so that it never reaches an exact value.
#[inline]
pub fn leaf_value<G: Game, E: Evaluator<G> + ?Sized>(game: &G, evaluator: &E) -> f32 {
    evaluator
        .evaluate(game, game.to_move())
        .clamp(-HEURISTIC_BOUND, HEURISTIC_BOUND)
}

/// `child` as a search for `root` sees it: at a simultaneous decision, the position as
/// `root` chooses in it. Every joint decision in the tree is thus valued by the maximin of
/// the player the search chooses for: what that player can guarantee there. (Valuing it
/// for whoever's view the position happened to carry would credit the other player, after
/// a negation, with seeing the first player's choice.)
pub(crate) fn as_seen<G: Game>(child: G, root: Player) -> G {
    match child.joint() {
        Some(joint) => joint.seen_by(root),
        None => child,
    }
}

/// Each own part of the chooser (`game.to_move()`) at a simultaneous decision `game`, with
/// a joint move carrying it and its worst value over the other player's parts;
/// `value_for_chooser` gives each child position's value for the chooser.
pub(crate) fn part_values<G: Game>(
    game: &G,
    joint: &dyn JointDecision<G>,
    moves: &[G::Move],
    mut value_for_chooser: impl FnMut(&G) -> f32,
) -> MoveList<(G::Move, f32)> {
    let chooser = game.to_move();
    let mut worst: MoveList<(u8, G::Move, f32)> = MoveList::new();
    for &mv in moves {
        let part = joint.part(mv, chooser);
        let child = game.after(mv);
        let value = value_for_chooser(&child);
        match worst.iter_mut().find(|(p, _, _)| *p == part) {
            Some(entry) => entry.2 = entry.2.min(value),
            None => worst.push((part, mv, value)),
        }
    }
    worst
        .into_iter()
        .map(|(_, mv, value)| (mv, value))
        .collect()
}

/// The chooser's maximin at a simultaneous decision: the joint move carrying the best own
/// part (the first in `moves` on ties) and its guaranteed value (see [`part_values`]).
pub(crate) fn maximin<G: Game>(
    game: &G,
    joint: &dyn JointDecision<G>,
    moves: &[G::Move],
    value_for_chooser: impl FnMut(&G) -> f32,
) -> (G::Move, f32) {
    part_values(game, joint, moves, value_for_chooser)
        .into_iter()
        .reduce(|best, next| if next.1 > best.1 { next } else { best })
        .expect("a simultaneous decision has moves")
}
