//! Individuals (chromosomes) and the population measures. What a learner remembers of
//! each individual (its mutation memory) is the learner's own state (`LearnerState`).

use serde::{Deserialize, Serialize};

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// The chromosome X(n) (layout: see [`crate::nn::Mlp`]).
    pub genes: Vec<f32>,
}

impl Individual {
    /// The individual of chromosome `genes`.
    pub fn plain(genes: Vec<f32>) -> Individual {
        Individual { genes }
    }
}

/// Mean Euclidean distance over all pairs of chromosomes: how spread out the population
/// is (0 when every individual is identical).
pub fn diversity(population: &[Individual]) -> f64 {
    let n = population.len();
    if n < 2 {
        return 0.0;
    }
    let mut total = 0.0;
    for i in 0..n {
        for j in i + 1..n {
            let squared: f64 = population[i]
                .genes
                .iter()
                .zip(&population[j].genes)
                .map(|(a, b)| f64::from(a - b).powi(2))
                .sum();
            total += squared.sqrt();
        }
    }
    total / (n * (n - 1) / 2) as f64
}
