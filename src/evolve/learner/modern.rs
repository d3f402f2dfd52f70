//! A (μ+λ) evolution strategy with self-adaptive Gaussian mutation (Chong, Tan & White
//! 2005 style): the better half survives unchanged and each survivor has one mutated
//! offspring; past champions join the league as a hall of fame.

use super::api::{
    Founders, Kind, Learner, PopulationLearner, check_memories, founders_with_memory, memory_bytes,
    renewed, survivors, with_memories,
};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::EvolveConfig;
use crate::evolve::mutation::{self, Stepped};
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

    /// The first step and the bound of the self-adapted steps.
    fn parameters(&self) -> &'static [&'static str] {
        &["initial_sigma", "sigma_bound"]
    }

    /// Each individual's steps.
    fn state_bytes(&self, config: &EvolveConfig, genes: usize) -> (usize, usize) {
        memory_bytes(config, genes)
    }

    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        check_memories(state)
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
        founders_with_memory(config, architecture, first, rng, |genes, _| {
            vec![config.initial_sigma; genes.len()]
        })
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
        let stepped: Vec<Stepped> = with_memories(state)
            .into_iter()
            .map(|(genes, sigmas)| Stepped { genes, sigmas })
            .collect();
        let (config, rng) = (&state.config, &mut state.rng);
        let kept = survivors(stepped.len());
        let mut next: Vec<Stepped> = ranked[..kept].iter().map(|&i| stepped[i].clone()).collect();
        let bound = config.sigma_bound.map(|b| b * config.initial_sigma);
        for k in 0..stepped.len() - kept {
            next.push(mutation::self_adaptive(
                &stepped[ranked[k % kept]],
                bound,
                rng,
            ));
        }
        let next = next.into_iter().map(|s| (s.genes, s.sigmas)).collect();
        renewed(state, next)
    }
}
