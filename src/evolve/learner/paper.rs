//! The Othello ENN paper as written: league fitness, elitism, roulette-wheel selection, and the
//! momentum-like mutation X(n+1) = X(n) + r·p·(X(n) − X(n−1)) applied with probability p.

use rand::RngExt;

use super::api::{
    Founders, Kind, Learner, PopulationLearner, check_memories, founders_with_memory, memory_bytes,
    random_network, renewed, with_memories,
};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::EvolveConfig;
use crate::evolve::mutation::{self, Lineage};
use crate::evolve::population::Individual;
use crate::evolve::selection;
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

    /// The paper's elitism and mutation probability.
    fn parameters(&self) -> &'static [&'static str] {
        &["elitism", "mutation_probability"]
    }

    /// X(n−1) of each individual.
    fn state_bytes(&self, config: &EvolveConfig, genes: usize) -> (usize, usize) {
        memory_bytes(config, genes)
    }

    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        check_memories(state)
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
        founders_with_memory(config, architecture, first, rng, |_, rng| {
            random_network(architecture, rng)
        })
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
        let lineages: Vec<Lineage> = with_memories(state)
            .into_iter()
            .map(|(genes, previous)| Lineage { genes, previous })
            .collect();
        let (config, rng) = (&state.config, &mut state.rng);
        let mut next: Vec<Lineage> = ranked[..config.elitism]
            .iter()
            .map(|&i| lineages[i].clone())
            .collect();
        while next.len() < lineages.len() {
            let parent = &lineages[selection::roulette(fitness, rng)];
            next.push(if rng.random_bool(config.mutation_probability) {
                mutation::momentum(parent, config.mutation_probability, rng)
            } else {
                parent.clone()
            });
        }
        let next = next.into_iter().map(|l| (l.genes, l.previous)).collect();
        renewed(state, next)
    }
}
