//! Depth-limited negamax with alpha-beta pruning over any [`Game`] and [`Evaluator`].
//!
//! Values are always from the point of view of the side to move at the node searched.
//! Because turns need not alternate (passes, extra turns), a child's value is negated only
//! when the side to move changes. Finished games get exact values
//! (± [`WIN_VALUE`] plus the final margin) that dominate every heuristic value.

mod negamax;
mod ordering;
pub mod solve;

pub use negamax::{SearchResult, move_values, plain_negamax, search};

use crate::eval::{Evaluator, HEURISTIC_BOUND};
use crate::games::{Game, Player};

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
