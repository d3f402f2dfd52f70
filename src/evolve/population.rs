//! Individuals (chromosomes plus what their mutation operator remembers) and the
//! population measures.

use serde::{Deserialize, Serialize};

use crate::evolve::cmaes::SepCma;
use crate::evolve::config::{EvolveConfig, Preset};
use rand::RngExt;

use crate::nn::{Architecture, nguyen_widrow};
use crate::rng::GameRng;

/// One member of the population.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Individual {
    /// The chromosome X(n) (layout: see [`crate::nn::Mlp`]).
    pub genes: Vec<f32>,
    /// Paper preset: X(n−1), the chromosome this lineage had before its last mutation
    /// (empty for the modern preset).
    pub previous: Vec<f32>,
    /// Modern preset: one self-adapted mutation step per gene (empty for the paper preset).
    pub sigmas: Vec<f32>,
}

/// Generation 0: `config.population` random networks: Nguyen-Widrow MLPs, or n-tuple
/// networks with every weight uniform in [−0.1, 0.1] (as Jaśkowski 2014 starts them);
/// TD learning starts n-tuple networks at zero. CMA-ES draws them from its first search
/// distribution (centred on a Nguyen-Widrow MLP, or on zero for an n-tuple network, with
/// step `initial_sigma`), returned beside them.
///
/// Paper preset: generation 0 has no X(n−1). We draw it as a second, independent
/// Nguyen-Widrow network, so that X(0) − X(−1) is a random direction of the initial
/// weights' scale (taking X(−1) = X(0) would make every mutation a no-op forever).
pub fn founders(
    config: &EvolveConfig,
    architecture: &Architecture,
    rng: &mut GameRng,
) -> (Vec<Individual>, Option<SepCma>) {
    if config.preset == Preset::Cmaes {
        let mean = match architecture {
            Architecture::Mlp(topology) => nguyen_widrow(topology, rng),
            Architecture::NTuple(spec) => vec![0.0; spec.genes()],
        };
        let cma = SepCma::new(
            mean.into_iter().map(f64::from).collect(),
            f64::from(config.initial_sigma),
        );
        let population = cma
            .sample(config.population, rng)
            .into_iter()
            .map(Individual::plain)
            .collect();
        return (population, Some(cma));
    }
    let random_network = |rng: &mut GameRng| match architecture {
        Architecture::Mlp(topology) => nguyen_widrow(topology, rng),
        Architecture::NTuple(spec) => (0..spec.genes())
            .map(|_| rng.random_range(-0.1..=0.1f32))
            .collect(),
    };
    let population = (0..config.population)
        .map(|_| {
            let genes = random_network(rng);
            match config.preset {
                Preset::Paper => Individual {
                    previous: random_network(rng),
                    genes,
                    sigmas: Vec::new(),
                },
                Preset::Modern => Individual {
                    sigmas: vec![config.initial_sigma; genes.len()],
                    genes,
                    previous: Vec::new(),
                },
                // TD learning starts an n-tuple network from zero (every position even); the
                // hybrid's learners then part ways through their own games.
                Preset::Td | Preset::Ctdl | Preset::Cmaes => {
                    Individual::plain(match architecture {
                        Architecture::Mlp(_) => genes,
                        Architecture::NTuple(_) => vec![0.0; genes.len()],
                    })
                }
            }
        })
        .collect();
    (population, None)
}

impl Individual {
    /// A chromosome without mutation memory (TD learners, CMA-ES samples).
    pub fn plain(genes: Vec<f32>) -> Individual {
        Individual {
            genes,
            previous: Vec::new(),
            sigmas: Vec::new(),
        }
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
