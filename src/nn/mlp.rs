//! The network: layer sizes, the chromosome layout, and the forward pass.
//!
//! Chromosome layout (the Othello ENN paper's Fig. 3: weights v, then weights w, then thresholds), for
//! layer sizes `n₀-n₁-…-n_L`: first every weight matrix in layer order, each stored unit by
//! unit (the `n_{k}` incoming weights of unit 0 of layer k+1, then unit 1, …), then every
//! threshold in layer order. For 64-42-1 that is v (42 × 64), w (1 × 42), then 42 hidden
//! thresholds and 1 output threshold: 2,773 genes.
//!
//! A unit computes σ(Σ wᵢ·xᵢ − θ), with σ the logistic sigmoid on every layer.

use serde::{Deserialize, Serialize};

use super::backprop::{Accumulated, InPlace, backpropagate};

/// Widest layer a network may have: the forward pass keeps activations in stack buffers.
pub const MAX_WIDTH: usize = 128;

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

/// Layer sizes from input to output, e.g. `[64, 42, 1]`. Stored in files as that list and
/// validated again when read, so a damaged file cannot produce an impossible network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<usize>", into = "Vec<usize>")]
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

    /// An upper bound of the bytes an [`Mlp`] of this topology takes: its genes, and its
    /// first layer again, input by input and padded to whole blocks.
    pub fn network_bytes(&self) -> usize {
        let padded = self.layers[1].div_ceil(BLOCK) * BLOCK;
        let floats = self.genes() + (self.inputs() + 1) * padded;
        floats * std::mem::size_of::<f32>() + 8 * self.layers.len() + 256
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

impl TryFrom<Vec<usize>> for Topology {
    type Error = TopologyError;
    fn try_from(layers: Vec<usize>) -> Result<Topology, TopologyError> {
        Topology::new(&layers)
    }
}

impl From<Topology> for Vec<usize> {
    fn from(topology: Topology) -> Vec<usize> {
        topology.layers
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sizes: Vec<String> = self.layers.iter().map(|n| n.to_string()).collect();
        f.write_str(&sizes.join("-"))
    }
}

/// The logistic sigmoid 1 / (1 + e^(−x)), with e^x from [`fast_exp`]: branch-free, so a
/// layer's activations vectorise, and within 1e-6 of the exact value.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + fast_exp(-x))
}

/// e^x to within a few ulps for |x| ≤ 87 (beyond it the argument is clamped, which changes
/// a sigmoid by less than 1e-37).
///
/// Splits x·log₂e into an integer n and a fraction f ∈ [−½, ½], evaluates 2^f with its
/// degree-6 Taylor polynomial (relative error < 2e-7) and scales by 2^n through the
/// exponent bits. Plain arithmetic only, so results are identical on every machine.
#[inline]
pub fn fast_exp(x: f32) -> f32 {
    const LOG2_E: f32 = std::f32::consts::LOG2_E;
    const ROUNDER: f32 = 12_582_912.0; // 1.5 · 2²³: adding it rounds to an integer
    const C: [f32; 6] = [
        std::f32::consts::LN_2,
        0.240_226_5,
        0.055_504_11,
        0.009_618_129,
        0.001_333_355_8,
        0.000_154_035_3,
    ];
    let t = x.clamp(-87.0, 87.0) * LOG2_E;
    let shifted = t + ROUNDER;
    let f = t - (shifted - ROUNDER);
    // shifted's low mantissa bits hold n = round(t) itself: integer ops only (an `as i32`
    // conversion would be checked lane by lane and stop vectorisation).
    let n = shifted.to_bits().wrapping_sub(ROUNDER.to_bits());
    let scale = f32::from_bits(n.wrapping_add(127) << 23);
    let poly = 1.0 + f * (C[0] + f * (C[1] + f * (C[2] + f * (C[3] + f * (C[4] + f * C[5])))));
    poly * scale
}

/// Σ aᵢ·bᵢ with eight independent partial sums, so the compiler can use vector registers
/// (a single running sum forces one addition after another).
#[inline]
pub(super) fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (chunks_a, chunks_b) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = chunks_a
        .remainder()
        .iter()
        .zip(chunks_b.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (ca, cb) in chunks_a.zip(chunks_b) {
        for k in 0..8 {
            lanes[k] += ca[k] * cb[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// Hidden units handled together in the first layer: one block's sums stay in vector
/// registers while every input is added in.
const BLOCK: usize = 8;

/// A network ready to evaluate: the chromosome, plus the first layer laid out for speed —
/// its weights transposed (input-major) and each input's row padded to a whole number of
/// `BLOCK`s, so that a sparse ±1 input costs one vector add per occupied input and block.
#[derive(Clone, Debug)]
pub struct Mlp {
    topology: Topology,
    genes: Vec<f32>,
    /// `first_by_input[i * padded + u]` = weight from input i to first-layer unit u.
    first_by_input: Vec<f32>,
    /// Minus the first layer's thresholds, padded with zeros.
    first_bias: Vec<f32>,
    /// First-layer width rounded up to a multiple of [`BLOCK`].
    padded: usize,
}

impl Mlp {
    /// Wraps a chromosome; `genes.len()` must equal `topology.genes()`.
    pub fn new(topology: Topology, genes: Vec<f32>) -> Mlp {
        assert_eq!(genes.len(), topology.genes(), "chromosome length");
        let (inputs, hidden) = (topology.layers[0], topology.layers[1]);
        let padded = hidden.div_ceil(BLOCK) * BLOCK;
        let mut mlp = Mlp {
            topology,
            genes,
            first_by_input: vec![0.0; inputs * padded],
            first_bias: vec![0.0; padded],
            padded,
        };
        mlp.refresh_first_layer();
        mlp
    }

    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// The chromosome.
    pub fn genes(&self) -> &[f32] {
        &self.genes
    }

    /// The output for a dense input vector (`input.len()` = number of inputs). Zero inputs
    /// (empty squares, empty pits) cost nothing.
    pub fn forward(&self, input: &[f32]) -> f32 {
        let mut sums = [0.0f32; MAX_WIDTH];
        sums[..self.padded].copy_from_slice(&self.first_bias);
        for (&x, row) in input
            .iter()
            .zip(self.first_by_input.chunks_exact(self.padded))
        {
            if x != 0.0 {
                sums.iter_mut().zip(row).for_each(|(s, w)| *s += x * w);
            }
        }
        self.finish(&mut sums[..self.topology.layers[1]])
    }

    /// The output for an input that is +1 at `plus`, −1 at `minus` and 0 elsewhere (Othello:
    /// own and opponent discs): adds and subtracts weight rows, no multiplications.
    pub fn forward_signed(
        &self,
        plus: impl Iterator<Item = usize> + Clone,
        minus: impl Iterator<Item = usize> + Clone,
    ) -> f32 {
        let mut sums = [0.0f32; MAX_WIDTH];
        for block in (0..self.padded).step_by(BLOCK) {
            let mut acc: [f32; BLOCK] = self.first_bias[block..block + BLOCK]
                .try_into()
                .expect("block");
            for i in plus.clone() {
                let row = self.block_row(i, block);
                (0..BLOCK).for_each(|k| acc[k] += row[k]);
            }
            for i in minus.clone() {
                let row = self.block_row(i, block);
                (0..BLOCK).for_each(|k| acc[k] -= row[k]);
            }
            sums[block..block + BLOCK].copy_from_slice(&acc);
        }
        self.finish(&mut sums[..self.topology.layers[1]])
    }

    /// The weights from input `i` to the first-layer units `block..block + BLOCK`.
    #[inline(always)]
    fn block_row(&self, i: usize, block: usize) -> &[f32; BLOCK] {
        let start = i * self.padded + block;
        self.first_by_input[start..start + BLOCK]
            .try_into()
            .expect("rows are padded to whole blocks")
    }

    /// Applies the sigmoid to the first layer's net inputs, runs the remaining layers, and
    /// returns the single output.
    fn finish(&self, first: &mut [f32]) -> f32 {
        first.iter_mut().for_each(|x| *x = sigmoid(*x));
        let layers = &self.topology.layers;
        match layers.len() {
            2 => first[0],
            3 => self.output(first),
            _ => {
                let mut current = [0.0f32; MAX_WIDTH];
                let mut width = first.len();
                current[..width].copy_from_slice(first);
                for k in 1..layers.len() - 2 {
                    let width_out = layers[k + 1];
                    let weights =
                        &self.genes[self.topology.weight_offset(k)..][..width * width_out];
                    let thresholds = &self.genes[self.topology.threshold_offset(k)..][..width_out];
                    let mut next = [0.0f32; MAX_WIDTH];
                    for ((out, row), theta) in next
                        .iter_mut()
                        .zip(weights.chunks_exact(width))
                        .zip(thresholds)
                    {
                        *out = sigmoid(dot(row, &current[..width]) - theta);
                    }
                    current = next;
                    width = width_out;
                }
                self.output(&current[..width])
            }
        }
    }

    /// Adds `step(output)` · ∂output/∂genes for a dense `input` (backpropagation through
    /// the sigmoid units), `output` being the network's output before the step, which is
    /// returned: one gradient step of temporal-difference learning, whose size depends on
    /// the output it corrects. The first layer's fast copy is updated with the chromosome.
    pub fn add_gradient(&mut self, input: &[f32], step: impl FnOnce(f32) -> f32) -> f32 {
        let output = backpropagate(&self.topology, &mut InPlace(&mut self.genes), input, step);
        self.refresh_first_layer();
        output
    }

    /// Adds `scale(output)` · ∂output/∂genes for a dense `input` to `gradient` (one entry
    /// per gene) and returns the output: what a learner that sums many positions' gradients
    /// before it steps (minibatch distillation) needs.
    pub fn accumulate_gradient(
        &self,
        input: &[f32],
        scale: impl FnOnce(f32) -> f32,
        gradient: &mut [f32],
    ) -> f32 {
        let mut sink = Accumulated {
            genes: &self.genes,
            gradient,
        };
        backpropagate(&self.topology, &mut sink, input, scale)
    }

    /// Replaces the chromosome (of the same length) and the first layer's fast copy.
    pub fn set_genes(&mut self, genes: &[f32]) {
        self.genes.copy_from_slice(genes);
        self.refresh_first_layer();
    }

    /// Rebuilds the first layer's input-major copy from the chromosome.
    fn refresh_first_layer(&mut self) {
        let (inputs, hidden) = (self.topology.layers[0], self.topology.layers[1]);
        for unit in 0..hidden {
            for input in 0..inputs {
                self.first_by_input[input * self.padded + unit] = self.genes[unit * inputs + input];
            }
        }
        let thresholds = &self.genes[self.topology.threshold_offset(0)..][..hidden];
        for (bias, theta) in self.first_bias.iter_mut().zip(thresholds) {
            *bias = -theta;
        }
    }

    /// The output unit, fed by the last hidden layer's activations.
    fn output(&self, hidden: &[f32]) -> f32 {
        let k = self.topology.layers.len() - 2;
        let weights = &self.genes[self.topology.weight_offset(k)..][..hidden.len()];
        let theta = self.genes[self.topology.threshold_offset(k)];
        sigmoid(dot(weights, hidden) - theta)
    }
}
