//! Backpropagation through an MLP's sigmoid units, for the two learners that need it: a
//! TD step changes the weights as it goes (each weight read before it changes, so the
//! step is that of the weights it started from), and a minibatch sums many positions'
//! gradients beside weights that stay put.

use super::mlp::{Topology, dot, sigmoid};

/// The weights backpropagation reads, and where it adds each weight's change.
pub(super) trait GradientSink {
    /// The `len` weights from index `start`.
    fn weights(&self, start: usize, len: usize) -> &[f32];
    fn add(&mut self, k: usize, change: f32);

    /// For the incoming weights `w` of one unit (from index `start`, one per unit of
    /// `below`), whose net input has δ `d`: adds `w · d` to `next_delta` and
    /// `step · d · below` to the weights' changes.
    fn backpropagate_row(
        &mut self,
        start: usize,
        below: &[f32],
        d: f32,
        step: f32,
        next_delta: &mut [f32],
    );
}

/// Changes added to the weights themselves as they are found.
pub(super) struct InPlace<'a>(pub &'a mut [f32]);

impl GradientSink for InPlace<'_> {
    #[inline(always)]
    fn weights(&self, start: usize, len: usize) -> &[f32] {
        &self.0[start..start + len]
    }

    #[inline(always)]
    fn add(&mut self, k: usize, change: f32) {
        self.0[k] += change;
    }

    #[inline(always)]
    fn backpropagate_row(
        &mut self,
        start: usize,
        below: &[f32],
        d: f32,
        step: f32,
        next_delta: &mut [f32],
    ) {
        let row = &mut self.0[start..start + below.len()];
        for ((w, &a), back) in row.iter_mut().zip(below).zip(next_delta) {
            *back += *w * d;
            *w += step * d * a;
        }
    }
}

/// Changes summed into a gradient beside unchanged weights.
pub(super) struct Accumulated<'a> {
    pub genes: &'a [f32],
    pub gradient: &'a mut [f32],
}

impl GradientSink for Accumulated<'_> {
    #[inline(always)]
    fn weights(&self, start: usize, len: usize) -> &[f32] {
        &self.genes[start..start + len]
    }

    #[inline(always)]
    fn add(&mut self, k: usize, change: f32) {
        self.gradient[k] += change;
    }

    #[inline(always)]
    fn backpropagate_row(
        &mut self,
        start: usize,
        below: &[f32],
        d: f32,
        step: f32,
        next_delta: &mut [f32],
    ) {
        let range = start..start + below.len();
        let (row, changes) = (&self.genes[range.clone()], &mut self.gradient[range]);
        for (((w, change), &a), back) in row.iter().zip(changes).zip(below).zip(next_delta) {
            *back += *w * d;
            *change += step * d * a;
        }
    }
}

/// Adds `scale(output)` · ∂output/∂weight to every weight of `sink` (the chromosome of
/// `topology`, laid out as [`super::mlp`] says) for a dense `input`, and returns the
/// output, computed from the weights before any change.
pub(super) fn backpropagate(
    topology: &Topology,
    sink: &mut impl GradientSink,
    input: &[f32],
    scale: impl FnOnce(f32) -> f32,
) -> f32 {
    let layers = topology.layers();
    let depth = layers.len() - 1;
    // Activations of every layer, input first.
    let mut activations: Vec<Vec<f32>> = vec![input.to_vec()];
    for k in 0..depth {
        let (n, p) = (layers[k], layers[k + 1]);
        let weights = sink.weights(topology.weight_offset(k), n * p);
        let thresholds = sink.weights(topology.threshold_offset(k), p);
        let next = weights
            .chunks_exact(n)
            .zip(thresholds)
            .map(|(row, theta)| sigmoid(dot(row, &activations[k]) - theta))
            .collect();
        activations.push(next);
    }
    // δ of a unit: ∂output/∂(its net input).
    let output = activations[depth][0];
    let step = scale(output);
    let mut delta = vec![output * (1.0 - output)];
    for k in (0..depth).rev() {
        let (n, p) = (layers[k], layers[k + 1]);
        let below = &activations[k];
        let mut next_delta = vec![0.0f32; n];
        let weight_offset = topology.weight_offset(k);
        let threshold_offset = topology.threshold_offset(k);
        for (unit, &d) in delta.iter().enumerate().take(p) {
            sink.backpropagate_row(weight_offset + unit * n, below, d, step, &mut next_delta);
            sink.add(threshold_offset + unit, -(step * d));
        }
        if k > 0 {
            for (d, a) in next_delta.iter_mut().zip(below) {
                *d *= a * (1.0 - a);
            }
        }
        delta = next_delta;
    }
    output
}
