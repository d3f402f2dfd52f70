//! Experiments of the seed studies, run whole: seed 000's question whether a network as
//! forward pruning speeds up minimax (`prune`), and seed 002's ranking of every
//! combination of Kalah's heuristics (`gifford`). The commands print what these return.

pub mod gifford;
pub mod prune;

use crate::arena::{OpeningError, SpecError};

/// Why an experiment could not run: an agent it needs, or the openings it asks for.
#[derive(Debug, thiserror::Error)]
pub enum ExperimentError {
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Openings(#[from] OpeningError),
}
