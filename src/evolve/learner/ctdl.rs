//! Coevolutionary TD learning (Szubert, Jaśkowski & Krawiec 2009): a population of TD
//! learners; after each generation's learning a league ranks them, the better half
//! survives and copies of it replace the worse half (their weights carried over).

use super::api::{
    Founders, GameDefaults, Kind, Learner, LearnerState, PopulationLearner, survivors,
};
use super::td;
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::schema::ConfigError;
use crate::nn::Architecture;
use crate::rng::GameRng;

pub struct Ctdl;

impl Learner for Ctdl {
    fn name(&self) -> &'static str {
        "ctdl"
    }

    fn about(&self) -> &'static str {
        "a population of TD learners under league selection"
    }

    /// The TD preset's network and settings, shared among 6 learners of 10,000 games a
    /// generation each; a league at the run's depth ranks them.
    fn defaults(&self, base: EvolveConfig, game: GameDefaults) -> EvolveConfig {
        EvolveConfig {
            population: 6,
            td_games: 10_000,
            ..td::Td.defaults(base, game)
        }
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    fn check(&self, config: &EvolveConfig) -> Result<(), ConfigError> {
        td::needs_learning_games(self, config)
    }

    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders {
        Founders {
            population: td::learners(config, architecture, first, rng),
            state: LearnerState::default(),
        }
    }
}

impl PopulationLearner for Ctdl {
    /// The better half survives and survivor k takes the place of the k-th of the worse
    /// half too (weights and all: TD learning, not mutation, makes the copies differ).
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        _fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual> {
        let population = &state.population;
        let kept = survivors(population.len());
        (0..population.len())
            .map(|k| population[ranked[if k < kept { k } else { k - kept }]].clone())
            .collect()
    }
}
