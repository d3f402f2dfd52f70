//! Network families behind one interface: a chromosome is a flat weight vector, whatever
//! the family, so every learner (evolution, CMA-ES, TD learning) treats networks alike.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::nn::ntuple::{NTuple, TupleSpec, tanh};
use crate::nn::{Mlp, Topology};

/// What a network is, without its weights: stored in champion files and run settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Architecture {
    /// A multi-layer perceptron over the game's dense input (the Othello ENN paper's 64-42-1).
    Mlp(Topology),
    /// An n-tuple network over the game's cells, shared across the board's symmetries.
    NTuple(TupleSpec),
}

impl Architecture {
    /// Chromosome length.
    pub fn genes(&self) -> usize {
        match self {
            Architecture::Mlp(topology) => topology.genes(),
            Architecture::NTuple(spec) => spec.genes(),
        }
    }

    /// The family's command-line name: `mlp` or `ntuple`.
    pub fn family(&self) -> &'static str {
        match self {
            Architecture::Mlp(_) => "mlp",
            Architecture::NTuple(_) => "ntuple",
        }
    }

    /// An upper bound of the bytes one network of this architecture takes in memory,
    /// weights included, on a board of `symmetries` symmetries: what a run's memory check
    /// counts for every network it builds. The architecture must have been checked
    /// against the game.
    pub fn network_bytes(&self, symmetries: usize) -> usize {
        match self {
            Architecture::Mlp(topology) => topology.network_bytes(),
            Architecture::NTuple(spec) => spec.network_bytes(symmetries),
        }
    }

    /// A short name for captions: `mlp 64-42-1`, `ntuple logistello+discs+mobility`.
    pub fn name(&self) -> String {
        match self {
            Architecture::Mlp(topology) => format!("mlp {topology}"),
            Architecture::NTuple(spec) => format!("ntuple {}", spec.name),
        }
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Architecture::Mlp(topology) => write!(f, "mlp {topology}"),
            Architecture::NTuple(spec) => write!(
                f,
                "ntuple {} ({} tuples, {} weights)",
                spec.name,
                spec.tuples.len(),
                spec.genes()
            ),
        }
    }
}

/// The largest magnitude a weight may have: far beyond anything learning produces, and
/// small enough that a network's sums of weights times inputs stay finite.
pub const MAX_WEIGHT: f32 = 1.0e30;

/// Whether a player may use `weight`: a finite number of magnitude at most [`MAX_WEIGHT`].
/// A NaN makes every move look alike (the player then plays the first legal one), and an
/// infinite weight turns sums into NaN.
pub fn usable_weight(weight: f32) -> bool {
    weight.abs() <= MAX_WEIGHT
}

/// Why a chromosome cannot be played, if it cannot: the first weight that is not usable
/// (see [`usable_weight`]).
pub fn check_weights(genes: &[f32]) -> Result<(), String> {
    match genes.iter().position(|&w| !usable_weight(w)) {
        Some(i) => Err(format!(
            "weight {i} is not a finite number of magnitude at most {MAX_WEIGHT:e}"
        )),
        None => Ok(()),
    }
}

/// An n-tuple score standing for a finished game: far beyond any sum of weights, and
/// squashed by tanh to exactly ±1.
const RESULT_SCORE: f32 = 1.0e9;

/// A network with its weights, ready to evaluate and to learn.
#[derive(Clone, Debug)]
pub enum Network {
    Mlp(Mlp),
    NTuple(NTuple),
}

impl Network {
    /// The network of `architecture` with chromosome `genes`; `symmetries` (maps from cell
    /// to cell, the identity included) place n-tuples and `features` are the global
    /// features the game offers (see [`NTuple::new`]); MLPs ignore both.
    pub fn new(
        architecture: &Architecture,
        genes: Vec<f32>,
        symmetries: &[Vec<u8>],
        features: &[(&str, u16)],
    ) -> Network {
        match architecture {
            Architecture::Mlp(topology) => Network::Mlp(Mlp::new(topology.clone(), genes)),
            Architecture::NTuple(spec) => {
                Network::NTuple(NTuple::new(spec.clone(), genes, symmetries, features))
            }
        }
    }

    pub fn architecture(&self) -> Architecture {
        match self {
            Network::Mlp(mlp) => Architecture::Mlp(mlp.topology().clone()),
            Network::NTuple(ntuple) => Architecture::NTuple(ntuple.spec().clone()),
        }
    }

    /// The value in [−1, 1] that a score stands for: tanh of an n-tuple network's sum, an
    /// MLP's 2σ − 1 as it is.
    pub fn squash(&self, score: f32) -> f32 {
        match self {
            Network::Mlp(_) => score,
            Network::NTuple(_) => tanh(score),
        }
    }

    /// The score of a finished game with result `sign` (+1 win, 0 draw, −1 loss): beyond
    /// every score the network gives, and squashed to exactly `sign`.
    pub fn result_score(&self, sign: i32) -> f32 {
        match self {
            Network::Mlp(_) => sign as f32,
            Network::NTuple(_) => sign as f32 * RESULT_SCORE,
        }
    }

    /// Gives this network `other`'s weights; both have one architecture. An n-tuple
    /// network's are copied into the table it has, since they are many.
    pub fn copy_weights_from(&mut self, other: &Network) {
        match (self, other) {
            (Network::NTuple(ntuple), Network::NTuple(source)) => ntuple.copy_weights_from(source),
            (network, other) => *network = other.clone(),
        }
    }

    /// The chromosome.
    pub fn genes(&self) -> &[f32] {
        match self {
            Network::Mlp(mlp) => mlp.genes(),
            Network::NTuple(ntuple) => ntuple.weights(),
        }
    }
}

impl From<Mlp> for Network {
    fn from(mlp: Mlp) -> Network {
        Network::Mlp(mlp)
    }
}
