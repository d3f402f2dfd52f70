//! Teachers: values a TD learner's positions learn instead of the learner's own value one
//! move later (see [`super::td::train`]). A stronger network teaches every position
//! (distillation); an endgame database teaches the late positions whose result perfect
//! play has already fixed, and leaves the rest to TD.

use crate::eval::neural::NeuralInput;
use crate::games::mancala::{Kalah, Mancala};
use crate::nn::Network;
use crate::search::solve::LateValues;

/// What a learner may be taught: a target for some positions.
pub trait Teacher<G>: Send + Sync {
    /// The value `position` should learn for its side to move (in [−1, 1], as a result is),
    /// or `None` where the teacher does not know it.
    fn value_for_mover(&self, position: &G) -> Option<f32>;

    /// Memory the teacher holds, in bytes, counted in the run's memory bound.
    fn bytes(&self) -> usize;
}

/// A network whose values a learner distils, at every position.
pub struct NetworkTeacher {
    network: Network,
    bytes: usize,
}

impl NetworkTeacher {
    /// `network` as a teacher, which holds `bytes` (its weights and index tables).
    pub fn new(network: Network, bytes: usize) -> NetworkTeacher {
        NetworkTeacher { network, bytes }
    }
}

impl<G: NeuralInput> Teacher<G> for NetworkTeacher {
    fn value_for_mover(&self, position: &G) -> Option<f32> {
        Some(position.value_for_mover(&self.network))
    }

    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// Kalah positions with few seeds left on the board, valued exactly: they learn the result
/// of perfect play (+1, 0, −1) instead of what self-play makes of them.
pub struct ExactLateTeacher {
    values: LateValues,
}

impl ExactLateTeacher {
    /// A teacher of the positions `values` knows.
    pub fn new(values: LateValues) -> ExactLateTeacher {
        ExactLateTeacher { values }
    }
}

impl Teacher<Mancala<Kalah>> for ExactLateTeacher {
    fn value_for_mover(&self, position: &Mancala<Kalah>) -> Option<f32> {
        self.values
            .margin_for_mover(position)
            .map(|margin| margin.signum() as f32)
    }

    fn bytes(&self) -> usize {
        self.values.bytes()
    }
}
