//! Random local search, a learner added from outside the library through its public API
//! alone: each generation keeps its best network (by league fitness) and replaces every
//! other by a copy of it with each weight moved uniformly within ±`initial_sigma`.

use rand::RngExt;

use evoboard::evolve::checkpoint::EvolutionState;
use evoboard::evolve::config::EvolveConfig;
use evoboard::evolve::learner::{
    Founders, Kind, Learner, LearnerState, PopulationLearner, founder_network,
};
use evoboard::evolve::population::Individual;
use evoboard::nn::Architecture;
use evoboard::rng::GameRng;

/// The learner, registered as the preset `random-search`.
pub struct RandomSearch;

impl Learner for RandomSearch {
    fn name(&self) -> &'static str {
        "random-search"
    }

    fn about(&self) -> &'static str {
        "random local search around the best network, an example learner"
    }

    /// Eight networks a generation, steps of 0.05.
    fn settings(&self, base: EvolveConfig) -> EvolveConfig {
        EvolveConfig {
            population: 8,
            initial_sigma: 0.05,
            ..base
        }
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    /// The step of its moves.
    fn parameters(&self) -> &'static [&'static str] {
        &["initial_sigma"]
    }

    /// The run's first network or random ones (the library's [`founder_network`]), each
    /// moved once so that the founders differ.
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
                Individual::plain(moved(&genes, config.initial_sigma, rng))
            })
            .collect();
        Founders {
            population,
            state: LearnerState::default(),
        }
    }
}

impl PopulationLearner for RandomSearch {
    /// The best network survives; every other slot takes a moved copy of it.
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        _fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual> {
        let best = state.population[ranked[0]].genes.clone();
        let step = state.config.initial_sigma;
        let mut next = vec![Individual::plain(best.clone())];
        while next.len() < state.population.len() {
            next.push(Individual::plain(moved(&best, step, &mut state.rng)));
        }
        next
    }
}

/// `genes` with each weight moved uniformly within ±`step`.
fn moved(genes: &[f32], step: f32, rng: &mut GameRng) -> Vec<f32> {
    genes
        .iter()
        .map(|gene| gene + rng.random_range(-step..=step))
        .collect()
}
