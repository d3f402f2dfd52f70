//! The neural evaluator (seed 004 §2.2): an MLP scores a position from the evaluated side's
//! point of view, and a saved champion can be loaded to play.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::eval::Evaluator;
use crate::games::othello::Othello;
use crate::games::othello::bitboard::squares;
use crate::games::{Game, Player};
use crate::nn::{MAX_WIDTH, Mlp, Topology};
use crate::persist::{self, FileKind, PersistError};

/// Games whose positions a network can read. The default encodes densely through
/// [`Game::encode`]; games whose inputs are −1/0/+1 may override it with a sparse pass.
pub trait NeuralInput: Game {
    /// The network's raw output (in (0, 1)) for `self` seen from `perspective`.
    fn network_output(&self, mlp: &Mlp, perspective: Player) -> f32 {
        let mut input = [0.0f32; MAX_WIDTH];
        let input = &mut input[..self.input_len()];
        self.encode(perspective, input);
        mlp.forward(input)
    }
}

impl NeuralInput for Othello {
    /// +1 on own discs, −1 on opponent discs: only occupied squares cost anything.
    fn network_output(&self, mlp: &Mlp, perspective: Player) -> f32 {
        let own = self.discs(perspective);
        let opp = self.discs(perspective.opponent());
        mlp.forward_signed(
            squares(own).map(|s| s as usize),
            squares(opp).map(|s| s as usize),
        )
    }
}

/// Mancala inputs are seed counts over the total: the dense default encoding.
impl<R: crate::games::mancala::Rules> NeuralInput for crate::games::mancala::Mancala<R> {}

/// Congkak adds burnt-hole flags and the round to the seed counts: dense too.
impl NeuralInput for crate::games::mancala::Congkak {}

/// An MLP used as a static evaluator. The sigmoid output σ ∈ (0, 1) is mapped to 2σ − 1 ∈
/// (−1, 1), centred on zero, so that negamax can compare leaves evaluated for either side
/// (a raw σ would make every position look good to whoever is to move).
#[derive(Clone, Debug)]
pub struct NeuralEvaluator {
    mlp: Mlp,
}

impl NeuralEvaluator {
    pub fn new(mlp: Mlp) -> NeuralEvaluator {
        NeuralEvaluator { mlp }
    }

    pub fn mlp(&self) -> &Mlp {
        &self.mlp
    }
}

impl<G: NeuralInput> Evaluator<G> for NeuralEvaluator {
    fn evaluate(&self, game: &G, perspective: Player) -> f32 {
        2.0 * game.network_output(&self.mlp, perspective) - 1.0
    }
}

/// An evolved network saved to play: its topology and chromosome, the search depth it was
/// evolved at, and where it came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Champion {
    pub topology: Topology,
    pub genes: Vec<f32>,
    /// Search depth used during evolution; `champion:PATH` plays at this depth.
    pub depth: u32,
    pub preset: String,
    pub seed: u64,
    /// Generation (1-based) whose league produced it.
    pub generation: u32,
    pub fitness: f64,
    /// Its benchmark win rate when it was chosen, if a benchmark was played.
    pub benchmark_win_rate: Option<f64>,
}

impl Champion {
    /// Writes the champion of `game` to `path` atomically.
    pub fn save(&self, path: &Path, game: &str) -> Result<(), PersistError> {
        persist::save(path, FileKind::Champion, game, self)
    }

    /// Reads a champion of `game`, checking that its chromosome fits its topology.
    pub fn load(path: &Path, game: &str) -> Result<Champion, PersistError> {
        let champion: Champion = persist::load(path, FileKind::Champion, game)?;
        let corrupt = |reason: String| PersistError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        if !(1..=crate::arena::spec::MAX_DEPTH).contains(&champion.depth) {
            return Err(corrupt(format!(
                "search depth {} is out of range",
                champion.depth
            )));
        }
        if champion.genes.len() != champion.topology.genes() {
            return Err(corrupt(format!(
                "{} genes for a {} network, which needs {}",
                champion.genes.len(),
                champion.topology,
                champion.topology.genes()
            )));
        }
        Ok(champion)
    }

    /// The champion's network as an evaluator.
    pub fn evaluator(&self) -> NeuralEvaluator {
        NeuralEvaluator::new(Mlp::new(self.topology.clone(), self.genes.clone()))
    }
}
