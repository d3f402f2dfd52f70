//! Static evaluators: a number for how good a position is for one side. The search is
//! generic over [`Evaluator`], so heuristics, weighted piece counters and neural networks
//! (MLP and n-tuple, in [`neural`]) plug in alike.

pub mod mancala_heuristics;
pub mod mancala_tuples;
pub mod neural;
pub mod othello_features;
pub mod othello_heuristic;
pub mod othello_tuples;
pub mod weighted;
pub mod wpc;

use std::sync::Arc;

use crate::eval::neural::NeuralInput;
use crate::games::{Describe, Game, MoveList, Player};

/// Scores positions of game `G`. Higher is better for `perspective`.
///
/// Values should stay well inside ±[`HEURISTIC_BOUND`]: the search clamps them there so that
/// exact results of finished games (see the `search` module) always dominate.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The heuristic value of `game` for `perspective`.
    fn evaluate(&self, game: &G, perspective: Player) -> f32;

    /// The value of each of `children`, positions one move from `parent`, for the player
    /// beside it in `perspectives`: what a search needs to order a node's moves or to value
    /// them at its last ply. Evaluators that can share work between a position and its
    /// children (an n-tuple network redoes only the tuples a move changed) override it;
    /// the values must be exactly [`Evaluator::evaluate`]'s.
    fn evaluate_children(
        &self,
        parent: &G,
        children: &[G],
        perspectives: &[Player],
    ) -> MoveList<f32> {
        let _ = parent;
        each_evaluated(self, children, perspectives)
    }
}

/// [`Evaluator::evaluate`] of each child for its perspective, one at a time: the default
/// of [`Evaluator::evaluate_children`].
pub fn each_evaluated<G: Game, E: Evaluator<G> + ?Sized>(
    evaluator: &E,
    children: &[G],
    perspectives: &[Player],
) -> MoveList<f32> {
    children
        .iter()
        .zip(perspectives)
        .map(|(child, &perspective)| evaluator.evaluate(child, perspective))
        .collect()
}

/// Largest magnitude a heuristic value may have; the search clamps to it.
pub const HEURISTIC_BOUND: f32 = 100_000.0;

/// An evaluator shared between threads and agents.
pub type SharedEvaluator<G> = Arc<dyn Evaluator<G>>;

/// Why an evaluator name could not be resolved.
#[derive(Debug, thiserror::Error)]
pub enum EvaluatorError {
    #[error("unknown evaluator '{name}' for {game}; known: {known}")]
    Unknown {
        name: String,
        game: &'static str,
        known: String,
    },
    #[error("cannot read weights file '{path}': {reason}")]
    WeightsFile { path: String, reason: String },
}

/// Games whose evaluators can be named in agent specs (`minimax:DEPTH:EVAL`), and whose
/// positions networks can read (so `champion:PATH` works for them too): the games every
/// command plays, so they also have notation and text for people.
pub trait NamedEvaluators: NeuralInput + Describe {
    /// The evaluator called `name`: a built-in name, or a path to a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Self>, EvaluatorError>;

    /// The evaluator names of the heuristic's features, in the heuristic's order: `panel`
    /// pits a player against a search over each feature alone (the ENN paper's evaluation).
    fn panel_features() -> Vec<&'static str>;

    /// Evaluators `panel` adds after `heuristic` (such as Othello's standard `wpc`), so a
    /// game's well-known reference players are measured too.
    fn panel_extras() -> &'static [&'static str] {
        &[]
    }
}
