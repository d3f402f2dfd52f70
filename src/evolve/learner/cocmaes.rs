//! Coevolutionary CMA-ES (Jaśkowski & Szubert, "Coevolutionary CMA-ES for knowledge-free
//! learning of game position evaluation", IEEE TCIAIG 2016): CMA-ES whose samples are
//! ranked by a round robin among themselves, with the paper's settings for Othello.
//!
//! What we could confirm, from the abstract and the authors' published experiment code and
//! configurations (their `TCIAIG-2015-Co-CMA-ES` repository; the paper's text itself we
//! could not read):
//! - fitness is a round robin among the generation's λ samples, without self-play: every
//!   pair plays a double game (both colours) from one drawn initial position, no random
//!   moves (ε = 0), no archive of earlier generations (the league without hall of fame);
//! - the first mean is a random network, every weight uniform in [−0.1, 0.1], and the
//!   first step σ is 1;
//! - λ = 200, 300 and 400 for all straight 2-, 3- and 4-tuples, and 400 for the best
//!   network, straight 4-tuples with 2×2 squares (`straight4-squares2` here); 1-ply players;
//!   2,001 generations;
//! - each generation's best sample is the one measured (the best-of-run by that measure is
//!   the result), so a generation offers its best sample, not the mean.
//!
//! Where we differ: the distribution is the separable CMA-ES of the `cmaes` preset (a
//! diagonal covariance; the paper ran full-covariance CMA-ES, which its code also offers
//! in separable form), league games score 3/1/0 rather than 1/½/0 (the ranks differ only
//! where draws weigh), and openings are the league's random plies rather than Runarsson &
//! Lucas's 1,000 positions.

use super::api::{Founders, GameDefaults, Kind, Learner, PopulationLearner, founder_network};
use super::cmaes::{Cmaes, founders_around};
use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::config::{EvolveConfig, NetworkChoice};
use crate::evolve::population::Individual;
use crate::nn::Architecture;
use crate::rng::GameRng;

pub struct CoCmaes;

/// The paper's best network, where the game offers it.
const PAPER_NETWORK: &str = "straight4-squares2";

impl Learner for CoCmaes {
    fn name(&self) -> &'static str {
        "cocmaes"
    }

    fn about(&self) -> &'static str {
        "coevolutionary CMA-ES with Jaśkowski & Szubert's settings"
    }

    /// The paper's settings: 400 samples a generation from a first step of 1, 1-ply
    /// players, the straight 4-tuples with 2×2 squares (else the game's default n-tuple
    /// set, else an MLP), a round robin among the samples as fitness, run to the budget.
    fn defaults(&self, base: EvolveConfig, game: GameDefaults) -> EvolveConfig {
        let paper = game
            .tuple_sets
            .iter()
            .any(|(name, _)| *name == PAPER_NETWORK);
        let set = if paper {
            Some(PAPER_NETWORK)
        } else {
            game.tuple_set
        };
        EvolveConfig {
            population: 400,
            depth: 1,
            initial_sigma: 1.0,
            network: set.map_or(NetworkChoice::Mlp, |set| {
                NetworkChoice::NTuple(set.to_string())
            }),
            gate: 1.0,
            ..base
        }
    }

    fn kind(&self) -> Kind<'_> {
        Kind::Population(self)
    }

    /// As the `cmaes` preset's.
    fn parameters(&self) -> &'static [&'static str] {
        &["initial_sigma", "mean_rate"]
    }

    fn state_bytes(&self, config: &EvolveConfig, genes: usize) -> (usize, usize) {
        Cmaes.state_bytes(config, genes)
    }

    /// The first distribution is centred on a random network (n-tuple weights uniform in
    /// [−0.1, 0.1], as the paper's; a Nguyen-Widrow MLP) with step `initial_sigma`;
    /// generation 0 is drawn from it.
    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders {
        founders_around(founder_network(first, architecture, rng), config, rng)
    }

    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        Cmaes.check_state(state)
    }

    fn offered_label(&self, _config: &EvolveConfig) -> &'static str {
        "each generation's best sample"
    }
}

impl PopulationLearner for CoCmaes {
    /// The distribution moves to the round robin's ranking as in the `cmaes` preset, and
    /// the next generation is drawn from it.
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual> {
        // `Cmaes::offered` moves the distribution (its mean is what that preset offers).
        Cmaes.offered(state, ranked);
        Cmaes.next_generation(state, fitness, ranked)
    }
}
