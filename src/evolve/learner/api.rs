//! What a learner is: the [`Learner`] trait every preset implements, what a game brings to
//! its defaults, what generation 0 is, and the pieces several learners share.

use rand::RngExt;

use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::cmaes::SepCma;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::schema::ConfigError;
use crate::nn::{Architecture, nguyen_widrow};
use crate::rng::GameRng;

/// What a game brings to a learner's defaults.
#[derive(Clone, Copy, Debug)]
pub struct GameDefaults<'a> {
    /// The game's default n-tuple set, if it has one (else learners train an MLP).
    pub tuple_set: Option<&'a str>,
    /// Every n-tuple set the game offers by name, so a learner can default to the one
    /// its method was published with where the game has it.
    pub tuple_sets: &'a [(&'a str, &'a str)],
    /// Random plies that open each TD learning game.
    pub learning_opening_plies: u32,
}

/// A generation-0 population, and the search distribution it was drawn from (CMA-ES).
pub struct Founders {
    pub population: Vec<Individual>,
    pub cma: Option<SepCma>,
}

/// One way of learning an evaluator, as a preset names it.
pub trait Learner: Sync {
    /// The preset's name, as `--preset` takes it.
    fn name(&self) -> &'static str;

    /// What the learner is, in a few words, for help texts.
    fn about(&self) -> &'static str;

    /// The learner's own parameters over `base`, the Othello ENN paper's sizes that
    /// every preset shares ([`EvolveConfig::new`]).
    fn settings(&self, base: EvolveConfig) -> EvolveConfig {
        base
    }

    /// What the preset changes of `config` for a game with `game`'s defaults
    /// ([`EvolveConfig::for_game`]).
    fn defaults(&self, config: EvolveConfig, _game: GameDefaults) -> EvolveConfig {
        config
    }

    /// How its generations end: a population ranked by its fitness and renewed, or
    /// networks that only learn.
    fn kind(&self) -> Kind<'_>;

    /// Why `config` does not suit the learner, if it does not (settings it needs, beyond
    /// the bounds every run has).
    fn check(&self, _config: &EvolveConfig) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Chromosome-sized vectors each individual keeps besides its genes: its mutation
    /// memory (X(n−1) for the paper's mutation, step sizes for the modern strategy).
    fn mutation_memory(&self, _config: &EvolveConfig, _genes: usize) -> (usize, usize) {
        (0, 0)
    }

    /// Bytes of the learner's own state and of its update at the end of a generation (for
    /// [`EvolveConfig::memory_bound`]).
    fn state_bytes(&self, _config: &EvolveConfig, _genes: usize) -> (usize, usize) {
        (0, 0)
    }

    /// Generation 0: from `first` when the run starts from a network (`start_from`),
    /// else drawn at random.
    fn founders(
        &self,
        config: &EvolveConfig,
        architecture: &Architecture,
        first: Option<&[f32]>,
        rng: &mut GameRng,
    ) -> Founders;

    /// Why a checkpoint's learner state cannot be this learner's, if it cannot (its
    /// individuals' mutation memory is checked from [`Learner::mutation_memory`]).
    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        match state.cma {
            None => Ok(()),
            Some(_) => Err("its CMA-ES state does not fit the run".to_string()),
        }
    }

    /// What plots call the network each generation offers.
    fn offered_label(&self, config: &EvolveConfig) -> &'static str {
        if config.population == 1 {
            "the network after each generation"
        } else {
            "each generation's best network"
        }
    }
}

/// How a learner's generations end.
#[derive(Clone, Copy)]
pub enum Kind<'a> {
    /// A population whose fitness (league, sparring partners, hall of fame) ranks it, and
    /// which the learner renews.
    Population(&'a dyn PopulationLearner),
    /// Networks that learn from their games (temporal-difference learning) and nothing
    /// else: ranked by their learning games' results, never replaced.
    Gradient,
}

/// A learner whose population its fitness ranks each generation.
pub trait PopulationLearner: Sync {
    /// The network the generation offers to the benchmark: by default its best individual
    /// (`ranked[0]`).
    fn offered(&self, state: &mut EvolutionState, ranked: &[usize]) -> Vec<f32> {
        state.population[ranked[0]].genes.clone()
    }

    /// The next population, from this one, its fitness and its ranking (best first).
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual>;
}

/// A random network to start from: a Nguyen-Widrow MLP, or an n-tuple network with every
/// weight uniform in [−0.1, 0.1] (as Jaśkowski 2014 starts them).
pub(super) fn random_network(architecture: &Architecture, rng: &mut GameRng) -> Vec<f32> {
    match architecture {
        Architecture::Mlp(topology) => nguyen_widrow(topology, rng),
        Architecture::NTuple(spec) => (0..spec.genes())
            .map(|_| rng.random_range(-0.1..=0.1f32))
            .collect(),
    }
}

/// A founder's network: the run's first network if it starts from one, else a random one.
pub(super) fn founder_network(
    first: Option<&[f32]>,
    architecture: &Architecture,
    rng: &mut GameRng,
) -> Vec<f32> {
    first.map_or_else(|| random_network(architecture, rng), <[f32]>::to_vec)
}

/// The better half of a population of `size` (μ = ⌈size/2⌉), which the modern strategy and
/// the hybrid keep.
pub(super) fn survivors(size: usize) -> usize {
    size.div_ceil(2)
}
