//! Temporal-difference learning: one network learns from its own games (and games against
//! sparring partners or a teacher's values) by TD(λ); no population, no selection.

use super::api::{Founders, GameDefaults, Kind, Learner, LearnerState, random_network};
use crate::evolve::config::{EvolveConfig, NetworkChoice};
use crate::evolve::population::Individual;
use crate::evolve::schema::{ConfigError, mark};
use crate::nn::Architecture;
use crate::rng::GameRng;

pub struct Td;

impl Learner for Td {
    fn name(&self) -> &'static str {
        "td"
    }

    fn about(&self) -> &'static str {
        "temporal-difference learning of one network"
    }

    /// One network (the game's default n-tuple set where it has one, else an MLP) learning
    /// from 50,000 games a generation, run to its budget (gate 1.0), the champion chosen
    /// among the best 5 by a fresh 400-game test.
    fn defaults(&self, base: EvolveConfig, game: GameDefaults) -> EvolveConfig {
        EvolveConfig {
            population: 1,
            network: game.tuple_set.map_or(NetworkChoice::Mlp, |set| {
                NetworkChoice::NTuple(set.to_string())
            }),
            td_games: 50_000,
            td_opening_plies: game.learning_opening_plies,
            gate: 1.0,
            candidates: 5,
            selection_games: 400,
            ..base
        }
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Gradient
    }

    fn check(&self, config: &EvolveConfig) -> Result<(), ConfigError> {
        needs_learning_games(self, config)
    }

    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders {
        Founders {
            population: learners(config, architecture, first, rng),
            state: LearnerState::default(),
        }
    }
}

/// TD learners to start from: the run's first network if it has one, else MLPs as drawn
/// and n-tuple networks at zero (every position even; the hybrid's learners then part
/// ways through their own games). A network is drawn either way, so that the generator
/// moves on alike.
pub(super) fn learners(
    config: &EvolveConfig,
    architecture: &Architecture,
    first: Option<&[f32]>,
    rng: &mut GameRng,
) -> Vec<Individual> {
    (0..config.population)
        .map(|_| {
            let genes = random_network(architecture, rng);
            Individual::plain(match (first, architecture) {
                (Some(first), _) => first.to_vec(),
                (None, Architecture::Mlp(_)) => genes,
                (None, Architecture::NTuple(_)) => vec![0.0; genes.len()],
            })
        })
        .collect()
}

/// A learner that learns from TD games needs some each generation.
pub(super) fn needs_learning_games(
    learner: &dyn Learner,
    config: &EvolveConfig,
) -> Result<(), ConfigError> {
    match config.td_games {
        0 => Err(ConfigError(format!(
            "the {} preset learns from TD games: {} must be at least 1",
            learner.name(),
            mark("td_games")
        ))),
        _ => Ok(()),
    }
}
