//! Ranking and selection of parents.

use rand::RngExt;

use crate::rng::GameRng;

/// Indices from best to worst fitness; equal fitness keeps the lower index first, so the
/// order (and the elite) is deterministic.
pub fn ranking(fitness: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fitness.len()).collect();
    order.sort_by(|&a, &b| fitness[b].total_cmp(&fitness[a]).then(a.cmp(&b)));
    order
}

/// Roulette wheel: index `i` with probability `fitness[i] / Σ fitness`. When every fitness is
/// zero (possible with a league of all losses and no draws) the wheel is uniform.
pub fn roulette(fitness: &[f64], rng: &mut GameRng) -> usize {
    let total: f64 = fitness.iter().map(|f| f.max(0.0)).sum();
    if total <= 0.0 {
        return rng.random_range(0..fitness.len());
    }
    let mut spin = rng.random::<f64>() * total;
    for (i, f) in fitness.iter().enumerate() {
        spin -= f.max(0.0);
        if spin < 0.0 {
            return i;
        }
    }
    // Rounding can leave a sliver at the end: it belongs to the last positive slot.
    fitness.iter().rposition(|&f| f > 0.0).unwrap_or(0)
}
