//! The "standard heuristic" weighted piece counter (WPC) of Lucas & Runarsson, used as the
//! reference opponent in the CEC 2006 Othello competition: value = Σ wᵢ·xᵢ with xᵢ = +1 for
//! an own disc, −1 for an opponent disc, 0 for an empty square.

use crate::eval::Evaluator;
use crate::games::Player;
use crate::games::othello::{Othello, bitboard::squares};

/// Rows 1–4 of the standard WPC (Lucas & Runarsson, CEC 2006); rows 5–8 mirror them.
const UPPER_HALF: [[f32; 8]; 4] = [
    [1.00, -0.25, 0.10, 0.05, 0.05, 0.10, -0.25, 1.00],
    [-0.25, -0.25, 0.01, 0.01, 0.01, 0.01, -0.25, -0.25],
    [0.10, 0.01, 0.05, 0.02, 0.02, 0.05, 0.01, 0.10],
    [0.05, 0.01, 0.02, 0.01, 0.01, 0.02, 0.01, 0.05],
];

/// The 64 weights indexed like the bitboards (a1 = 0, h8 = 63).
pub fn standard_weights() -> [f32; 64] {
    let mut weights = [0.0; 64];
    for (row, chunk) in weights.chunks_mut(8).enumerate() {
        let source = if row < 4 { row } else { 7 - row };
        chunk.copy_from_slice(&UPPER_HALF[source]);
    }
    weights
}

/// A weighted piece counter over the Othello board.
#[derive(Clone, Debug)]
pub struct Wpc {
    weights: [f32; 64],
}

impl Wpc {
    /// The standard heuristic WPC.
    pub fn standard() -> Wpc {
        Wpc {
            weights: standard_weights(),
        }
    }
}

impl Evaluator<Othello> for Wpc {
    fn evaluate(&self, game: &Othello, perspective: Player) -> f32 {
        let sum = |bits: u64| squares(bits).map(|i| self.weights[i as usize]).sum::<f32>();
        sum(game.discs(perspective)) - sum(game.discs(perspective.opponent()))
    }
}
