//! The two mutation operators, each over a chromosome with the memory it keeps.

use rand::RngExt;
use rand_distr::StandardNormal;

use crate::rng::GameRng;

/// A chromosome X(n) with X(n−1), the chromosome its lineage had before its last mutation
/// (what [`momentum`] remembers).
#[derive(Clone, Debug, PartialEq)]
pub struct Lineage {
    pub genes: Vec<f32>,
    pub previous: Vec<f32>,
}

/// A chromosome with one self-adapted mutation step per gene (what [`self_adaptive`]
/// remembers).
#[derive(Clone, Debug, PartialEq)]
pub struct Stepped {
    pub genes: Vec<f32>,
    pub sigmas: Vec<f32>,
}

/// The Othello ENN paper §2.4.1: X(n+1) = X(n) + r · p · (X(n) − X(n−1)).
///
/// Interpretations (the paper leaves them open):
/// - r ("randomDouble") is drawn uniformly from [0, 1) for every gene separately;
/// - X(n−1) is the chromosome the lineage had before its previous mutation: an unmutated
///   (cloned) offspring keeps both X(n) and X(n−1), so the difference never collapses to 0
///   through cloning; after a mutation, X(n−1) becomes the pre-mutation X(n);
/// - p is the same 0.05 that decides whether an offspring is mutated at all (the caller
///   draws that), so each mutation moves a gene by at most 5% of its last change.
pub fn momentum(parent: &Lineage, p: f64, rng: &mut GameRng) -> Lineage {
    let p = p as f32;
    let genes = parent
        .genes
        .iter()
        .zip(&parent.previous)
        .map(|(&now, &before)| now + rng.random::<f32>() * p * (now - before))
        .collect();
    Lineage {
        genes,
        previous: parent.genes.clone(),
    }
}

/// Self-adaptive Gaussian mutation (the evolution-strategy rule used for evolved checkers
/// and Othello evaluators, e.g. Chong, Tan & White 2005): every gene carries its own step
/// σᵢ, mutated first, σᵢ' = σᵢ · exp(τ · N(0,1)) with τ = 1 / √(2√n), then the gene,
/// wᵢ' = wᵢ + σᵢ' · N(0,1). A new σᵢ' above `max_sigma` is cut to it: unbounded, the
/// steps drift upwards generation after generation.
pub fn self_adaptive(parent: &Stepped, max_sigma: Option<f32>, rng: &mut GameRng) -> Stepped {
    let tau = 1.0 / (2.0 * (parent.genes.len() as f64).sqrt()).sqrt();
    let mut genes = Vec::with_capacity(parent.genes.len());
    let mut sigmas = Vec::with_capacity(parent.genes.len());
    for (&gene, &sigma) in parent.genes.iter().zip(&parent.sigmas) {
        let step = sigma * (tau * rng.sample::<f64, _>(StandardNormal)).exp() as f32;
        let step = max_sigma.map_or(step, |max| step.min(max));
        sigmas.push(step);
        genes.push(gene + step * rng.sample::<f32, _>(StandardNormal));
    }
    Stepped { genes, sigmas }
}
