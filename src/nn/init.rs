//! Nguyen-Widrow initialisation, exactly as §2.4.2 of the Othello ENN paper states it.

use rand::RngExt;

use crate::nn::Topology;
use crate::rng::GameRng;

/// A random chromosome for `topology`, following the Othello ENN paper §2.4.2 for every hidden
/// layer:
///
/// 1. β = 0.7 · p^(1/n), n = units feeding the layer, p = units in it;
/// 2. every weight uniform in [−0.2, 0.2];
/// 3. ‖vᵢ‖ = the Euclidean norm of unit i's incoming weight vector;
/// 4. vᵢ ← β · vᵢ / ‖vᵢ‖ (so every hidden unit's weight vector has norm β);
/// 5. every threshold uniform in [−β, β].
///
/// The output layer: the paper rescales only the input→hidden weights (Nguyen and Widrow
/// designed the rule to spread hidden units over the input space; it says nothing about
/// the output unit). We keep the output weights uniform in [−0.2, 0.2] (step 2, not
/// rescaled) and its threshold uniform in [−0.2, 0.2], so the initial output stays near
/// σ(0) = 0.5 instead of saturating.
pub fn nguyen_widrow(topology: &Topology, rng: &mut GameRng) -> Vec<f32> {
    let layers = topology.layers();
    let mut genes = vec![0.0f32; topology.genes()];
    for k in 0..layers.len() - 1 {
        let (n, p) = (layers[k], layers[k + 1]);
        let is_output = k == layers.len() - 2;
        let beta = 0.7 * (p as f64).powf(1.0 / n as f64);
        let weights = &mut genes[topology.weight_offset(k)..][..n * p];
        for unit in weights.chunks_mut(n) {
            unit.iter_mut()
                .for_each(|w| *w = rng.random_range(-0.2..=0.2f32));
            let norm = unit
                .iter()
                .map(|w| f64::from(*w).powi(2))
                .sum::<f64>()
                .sqrt();
            if !is_output && norm > 0.0 {
                let scale = (beta / norm) as f32;
                unit.iter_mut().for_each(|w| *w *= scale);
            }
        }
        let bound = if is_output { 0.2 } else { beta as f32 };
        let thresholds = &mut genes[topology.threshold_offset(k)..][..p];
        thresholds
            .iter_mut()
            .for_each(|t| *t = rng.random_range(-bound..=bound));
    }
    genes
}
