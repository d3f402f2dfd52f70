//! The network: layer sizes, the chromosome layout, and the forward pass.
//!
//! Chromosome layout (seed 004 Fig. 3: weights v, then weights w, then thresholds), for
//! layer sizes `n₀-n₁-…-n_L`: first every weight matrix in layer order, each stored unit by
//! unit (the `n_{k}` incoming weights of unit 0 of layer k+1, then unit 1, …), then every
//! threshold in layer order. For 64-42-1 that is v (42 × 64), w (1 × 42), then 42 hidden
//! thresholds and 1 output threshold: 2,773 genes.
//!
//! A unit computes σ(Σ wᵢ·xᵢ − θ), with σ the logistic sigmoid on every layer.

use serde::{Deserialize, Serialize};

/// Widest layer a network may have: the forward pass keeps activations in stack buffers.
pub const MAX_WIDTH: usize = 256;

/// Why a topology was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum TopologyError {
    #[error("a network needs at least an input and an output layer")]
    TooFewLayers,
    #[error("layer {0} has {1} units; each layer needs 1 to {MAX_WIDTH}")]
    BadWidth(usize, usize),
    #[error("the network has {0} outputs; an evaluator needs exactly 1")]
    NotScalar(usize),
}

/// Layer sizes from input to output, e.g. `[64, 42, 1]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Topology {
    layers: Vec<usize>,
}

impl Topology {
    /// A topology with a single output (what a board evaluator needs).
    pub fn new(layers: &[usize]) -> Result<Topology, TopologyError> {
        if layers.len() < 2 {
            return Err(TopologyError::TooFewLayers);
        }
        if let Some((i, &w)) = layers
            .iter()
            .enumerate()
            .find(|(_, w)| !(1..=MAX_WIDTH).contains(*w))
        {
            return Err(TopologyError::BadWidth(i, w));
        }
        let outputs = layers[layers.len() - 1];
        if outputs != 1 {
            return Err(TopologyError::NotScalar(outputs));
        }
        Ok(Topology {
            layers: layers.to_vec(),
        })
    }

    /// The layer sizes.
    pub fn layers(&self) -> &[usize] {
        &self.layers
    }

    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.layers[0]
    }

    /// Number of weights (excluding thresholds).
    pub fn weight_count(&self) -> usize {
        self.layers.windows(2).map(|w| w[0] * w[1]).sum()
    }

    /// Number of thresholds (one per non-input unit).
    pub fn threshold_count(&self) -> usize {
        self.layers[1..].iter().sum()
    }

    /// Chromosome length: weights then thresholds.
    pub fn genes(&self) -> usize {
        self.weight_count() + self.threshold_count()
    }

    /// Multiply-adds of one dense forward pass (the arithmetic floor of an evaluation).
    pub fn multiply_adds(&self) -> usize {
        self.weight_count()
    }

    /// Offset of the weight block of layer transition `k` (inputs of layer k+1).
    pub fn weight_offset(&self, k: usize) -> usize {
        self.layers.windows(2).take(k).map(|w| w[0] * w[1]).sum()
    }

    /// Offset of the thresholds of layer `k + 1`.
    pub fn threshold_offset(&self, k: usize) -> usize {
        self.weight_count() + self.layers[1..].iter().take(k).sum::<usize>()
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<String> = self.layers.iter().map(|n| n.to_string()).collect();
        f.write_str(&sizes.join("-"))
    }
}

/// The logistic sigmoid 1 / (1 + e^(−x)).
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A network ready to evaluate: the chromosome, plus the first layer's weights transposed
/// (input-major) so that a sparse ±1 input costs one vector add per occupied input.
#[derive(Clone, Debug)]
pub struct Mlp {
    topology: Topology,
    genes: Vec<f32>,
    first_by_input: Vec<f32>,
}

impl Mlp {
    /// Wraps a chromosome; `genes.len()` must equal `topology.genes()`.
    pub fn new(topology: Topology, genes: Vec<f32>) -> Mlp {
        assert_eq!(genes.len(), topology.genes(), "chromosome length");
        let (inputs, hidden) = (topology.layers[0], topology.layers[1]);
        let mut first_by_input = vec![0.0; inputs * hidden];
        for unit in 0..hidden {
            for input in 0..inputs {
                first_by_input[input * hidden + unit] = genes[unit * inputs + input];
            }
        }
        Mlp {
            topology,
            genes,
            first_by_input,
        }
    }

    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The chromosome.
    pub fn genes(&self) -> &[f32] {
        &self.genes
    }

    /// The output for a dense input vector (`input.len()` = number of inputs).
    pub fn forward(&self, input: &[f32]) -> f32 {
        let first = self.topology.layers[1];
        let mut pre = [0.0f32; MAX_WIDTH];
        let pre = &mut pre[..first];
        let inputs = self.topology.layers[0];
        for (unit, slot) in pre.iter_mut().enumerate() {
            let row = &self.genes[unit * inputs..(unit + 1) * inputs];
            *slot = row.iter().zip(input).map(|(w, x)| w * x).sum();
        }
        self.finish(pre)
    }

    /// The output for an input that is +1 at `plus`, −1 at `minus` and 0 elsewhere (Othello:
    /// own and opponent discs). Costs one add per occupied input and hidden unit, instead of
    /// a multiply-add per input and hidden unit.
    pub fn forward_signed(
        &self,
        plus: impl Iterator<Item = usize>,
        minus: impl Iterator<Item = usize>,
    ) -> f32 {
        let first = self.topology.layers[1];
        let mut pre = [0.0f32; MAX_WIDTH];
        let pre = &mut pre[..first];
        for input in plus {
            let row = &self.first_by_input[input * first..(input + 1) * first];
            pre.iter_mut().zip(row).for_each(|(p, w)| *p += w);
        }
        for input in minus {
            let row = &self.first_by_input[input * first..(input + 1) * first];
            pre.iter_mut().zip(row).for_each(|(p, w)| *p -= w);
        }
        self.finish(pre)
    }

    /// Applies the first layer's thresholds and sigmoid to `pre` (its weighted sums), then
    /// runs the remaining layers; returns the single output.
    fn finish(&self, pre: &mut [f32]) -> f32 {
        let layers = &self.topology.layers;
        let mut current = [0.0f32; MAX_WIDTH];
        let mut next = [0.0f32; MAX_WIDTH];
        let thresholds = &self.genes[self.topology.threshold_offset(0)..][..layers[1]];
        for ((out, &sum), &theta) in current.iter_mut().zip(pre.iter()).zip(thresholds) {
            *out = sigmoid(sum - theta);
        }
        for k in 1..layers.len() - 1 {
            let (width_in, width_out) = (layers[k], layers[k + 1]);
            let weights = &self.genes[self.topology.weight_offset(k)..][..width_in * width_out];
            let thresholds = &self.genes[self.topology.threshold_offset(k)..][..width_out];
            for unit in 0..width_out {
                let row = &weights[unit * width_in..(unit + 1) * width_in];
                let sum: f32 = row
                    .iter()
                    .zip(&current[..width_in])
                    .map(|(w, x)| w * x)
                    .sum();
                next[unit] = sigmoid(sum - thresholds[unit]);
            }
            std::mem::swap(&mut current, &mut next);
        }
        current[0]
    }
}
