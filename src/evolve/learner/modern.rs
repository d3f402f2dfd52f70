//! A (μ+λ) evolution strategy with self-adaptive Gaussian mutation (Chong, Tan & White
//! 2005 style): the better half survives unchanged and each survivor has one mutated
//! offspring; past champions join the league as a hall of fame.

use super::api::{Founders, Kind, Learner, PopulationLearner, founder_network, survivors};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::EvolveConfig;
use crate::evolve::mutation;
use crate::evolve::population::Individual;
use crate::nn::Architecture;
use crate::rng::GameRng;

pub struct Modern;

/// The modern preset's bound on self-adapted steps, as a multiple of the initial step.
pub const MODERN_SIGMA_BOUND: f32 = 5.0;

/// Past champions each individual also plays (the hall of fame).
const HALL_OF_FAME: usize = 4;

impl Learner for Modern {
    fn name(&self) -> &'static str {
        "modern"
    }

    fn about(&self) -> &'static str {
        "a self-adaptive (μ+λ) evolution strategy with a hall of fame"
    }

    fn settings(&self, base: EvolveConfig) -> EvolveConfig {
        EvolveConfig {
            sigma_bound: Some(MODERN_SIGMA_BOUND),
            hall_of_fame: HALL_OF_FAME,
            ..base
        }
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    fn mutation_memory(&self, _config: &EvolveConfig, genes: usize) -> (usize, usize) {
        (0, genes)
    }

    /// Each founder starts with every step size at `initial_sigma` (from a run's first
    /// network, every founder is that network: mutation makes them differ).
    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders {
        let population = (0..config.population)
            .map(|_| {
                let genes = founder_network(first, architecture, rng);
                Individual {
                    sigmas: vec![config.initial_sigma; genes.len()],
                    genes,
                    previous: Vec::new(),
                }
            })
            .collect();
        Founders {
            population,
            cma: None,
        }
    }
}

impl PopulationLearner for Modern {
    /// The better half (μ = ⌈P/2⌉, by rank) survives unchanged, and survivor k mod μ fathers
    /// each remaining slot through [`mutation::self_adaptive`] ((μ+λ) selection, which
    /// keeps the best automatically, so `elitism` is not used).
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        _fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual> {
        let (config, population, rng) = (&state.config, &state.population, &mut state.rng);
        let kept = survivors(population.len());
        let mut next: Vec<Individual> = ranked[..kept]
            .iter()
            .map(|&i| population[i].clone())
            .collect();
        let bound = config.sigma_bound.map(|b| b * config.initial_sigma);
        for k in 0..population.len() - kept {
            let parent = &population[ranked[k % kept]];
            next.push(mutation::self_adaptive(parent, bound, rng));
        }
        next
    }
}
