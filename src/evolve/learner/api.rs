//! What a learner is: the [`Learner`] trait every preset implements, what a game brings to
//! its defaults, what generation 0 is, and the pieces several learners share.

use rand::RngExt;

use crate::evolve::checkpoint::EvolutionState;
pub use crate::evolve::checkpoint::LearnerState;
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

/// A generation-0 population, and the learner's state that goes with it.
pub struct Founders {
    pub population: Vec<Individual>,
    pub state: LearnerState,
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

    /// The settings of some learners only ([`crate::evolve::schema::Setting::learner_parameter`])
    /// that this one uses, by their `run.json` names: under another learner they keep
    /// their defaults, so that a setting the run would ignore is refused rather than
    /// silently dropped.
    fn parameters(&self) -> &'static [&'static str] {
        &[]
    }

    /// How its generations end: a population ranked by its fitness and renewed, or
    /// networks that only learn.
    fn kind(&self) -> Kind<'_>;

    /// Why `config` does not suit the learner, if it does not (settings it needs, beyond
    /// the bounds every run has).
    fn check(&self, _config: &EvolveConfig) -> Result<(), ConfigError> {
        Ok(())
    }

    /// Bytes of the learner's own state (decoded) and of its update at the end of a
    /// generation (for [`EvolveConfig::memory_bound`]).
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

    /// Why the learner's state in `state` cannot be this learner's for its population, or
    /// holds a weight no network can use, if so: checked when a checkpoint is read and after
    /// every generation. A learner without state has an empty one.
    fn check_state(&self, state: &EvolutionState) -> Result<(), String> {
        match state.learner_state.is_empty() {
            true => Ok(()),
            false => Err("it holds a learner's state its learner does not keep".to_string()),
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
pub fn random_network(architecture: &Architecture, rng: &mut GameRng) -> Vec<f32> {
    match architecture {
        Architecture::Mlp(topology) => nguyen_widrow(topology, rng),
        Architecture::NTuple(spec) => (0..spec.genes())
            .map(|_| rng.random_range(-0.1..=0.1f32))
            .collect(),
    }
}

/// A founder's network: the run's first network if it starts from one, else a random one.
pub fn founder_network(
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

/// Generation 0 of a learner that remembers one chromosome-sized vector per individual
/// (the paper's X(n−1), the modern strategy's steps): each founder's network (the run's
/// first network, else a random one), then its memory, drawn by `memory` from it.
pub(super) fn founders_with_memory(
    config: &EvolveConfig,
    architecture: &Architecture,
    first: Option<&[f32]>,
    rng: &mut GameRng,
    mut memory: impl FnMut(&[f32], &mut GameRng) -> Vec<f32>,
) -> Founders {
    let (population, memories): (Vec<Individual>, Vec<Vec<f32>>) = (0..config.population)
        .map(|_| {
            let genes = founder_network(first, architecture, rng);
            let memory = memory(&genes, rng);
            (Individual::plain(genes), memory)
        })
        .unzip();
    Founders {
        population,
        state: LearnerState::of(&memories),
    }
}

/// Each individual of such a learner with its memory, `(genes, memory)`.
pub(super) fn with_memories(state: &EvolutionState) -> Vec<(Vec<f32>, Vec<f32>)> {
    let memories = memories(state).expect("the learner's state was checked");
    state
        .population
        .iter()
        .map(|i| i.genes.clone())
        .zip(memories)
        .collect()
}

/// The next population of such a learner from `next`, `(genes, memory)` each, its
/// memories kept as the learner's state.
pub(super) fn renewed(
    state: &mut EvolutionState,
    next: Vec<(Vec<f32>, Vec<f32>)>,
) -> Vec<Individual> {
    let (genes, memories): (Vec<Vec<f32>>, Vec<Vec<f32>>) = next.into_iter().unzip();
    state.learner_state = LearnerState::of(&memories);
    genes.into_iter().map(Individual::plain).collect()
}

/// The memories of such a learner's state, checked against the population they go with.
fn memories(state: &EvolutionState) -> Result<Vec<Vec<f32>>, String> {
    let memories: Vec<Vec<f32>> = state.learner_state.read()?;
    let genes = state.architecture.genes();
    if memories.len() != state.population.len() || memories.iter().any(|m| m.len() != genes) {
        return Err("its individuals' mutation memory does not fit the run".to_string());
    }
    memories
        .iter()
        .try_for_each(|memory| crate::nn::check_weights(memory))?;
    Ok(memories)
}

/// Why such a learner's state does not fit, if it does not.
pub(super) fn check_memories(state: &EvolutionState) -> Result<(), String> {
    memories(state).map(|_| ())
}

/// Bytes of one chromosome-sized vector per individual, as a learner's state: held, and
/// while a generation ends, read once more and made anew.
pub(super) fn memory_bytes(config: &EvolveConfig, genes: usize) -> (usize, usize) {
    let memory = config
        .population
        .saturating_mul(genes.saturating_mul(std::mem::size_of::<f32>()) + 24);
    (memory, memory.saturating_mul(2))
}
