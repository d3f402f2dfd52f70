//! The Othello ENN paper as written: league fitness, elitism, roulette-wheel selection, and the
//! momentum-like mutation X(n+1) = X(n) + r·p·(X(n) − X(n−1)) applied with probability p.

use rand::RngExt;

use super::api::{Founders, Kind, Learner, PopulationLearner, founder_network, random_network};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::{mutation, selection};
use crate::nn::Architecture;
use crate::rng::GameRng;

pub struct Paper;

impl Learner for Paper {
    fn name(&self) -> &'static str {
        "paper"
    }

    fn about(&self) -> &'static str {
        "the Othello ENN paper as written"
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    fn mutation_memory(&self, _config: &EvolveConfig, genes: usize) -> (usize, usize) {
        (genes, 0)
    }

    /// Generation 0 has no X(n−1). We draw it as a second, independent network, so that
    /// X(0) − X(−1) is a random direction of the initial weights' scale (taking
    /// X(−1) = X(0) would make every mutation a no-op forever). A run that starts from a
    /// network draws X(−1) so too.
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
                    previous: random_network(architecture, rng),
                    genes,
                    sigmas: Vec::new(),
                }
            })
            .collect();
        Founders {
            population,
            cma: None,
        }
    }
}

impl PopulationLearner for Paper {
    /// The `elitism` best are cloned unchanged; every other slot takes a roulette-wheel
    /// parent, copied, and mutated with probability p by [`mutation::momentum`].
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual> {
        let (config, population, rng) = (&state.config, &state.population, &mut state.rng);
        let mut next: Vec<Individual> = ranked[..config.elitism]
            .iter()
            .map(|&i| population[i].clone())
            .collect();
        while next.len() < population.len() {
            let parent = &population[selection::roulette(fitness, rng)];
            next.push(if rng.random_bool(config.mutation_probability) {
                mutation::momentum(parent, config.mutation_probability, rng)
            } else {
                parent.clone()
            });
        }
        next
    }
}
