//! The learners behind the presets, one file each: how a run's population starts, which
//! network a generation offers to the benchmark, and what the next population is. The rest
//! of a generation — TD learning games, the league, the benchmark, the champion — is the
//! same for every learner and stays in [`crate::evolve::Evolution`]; a learner only says
//! whether it uses them ([`Learner::evolves`], [`Learner::learns`]).
//!
//! Adding a learner: a file here implementing [`Learner`], a variant of
//! [`Preset`] and its line in [`learner`]. The state a
//! learner keeps between generations lives in the checkpoint: its individuals (genes and
//! mutation memory) and, for CMA-ES, its search distribution; a learner that needs more
//! adds it there and raises the checkpoint's format version.

mod cmaes;
mod cocmaes;
mod ctdl;
mod modern;
mod paper;
mod td;

use rand::RngExt;

use crate::evolve::checkpoint::EvolutionState;
use crate::evolve::cmaes::SepCma;
use crate::evolve::config::{EvolveConfig, Preset};
use crate::evolve::population::Individual;
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

    /// Whether a league (or sparring fitness) ranks the population each generation;
    /// otherwise the learning games' results do.
    fn evolves(&self) -> bool {
        true
    }

    /// Whether each individual learns from TD games every generation (so `td_games` must
    /// be at least 1).
    fn learns(&self) -> bool {
        false
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

    /// The network the generation offers to the benchmark: by default its best individual
    /// (`ranked[0]`).
    fn offered(&self, state: &mut EvolutionState, ranked: &[usize]) -> Vec<f32> {
        state.population[ranked[0]].genes.clone()
    }

    /// The next population of a learner that [`Learner::evolves`], from this one, its
    /// fitness and its ranking (best first).
    fn next_generation(
        &self,
        state: &mut EvolutionState,
        fitness: &[f64],
        ranked: &[usize],
    ) -> Vec<Individual>;

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

/// The learner of `preset`: the registry.
pub fn learner(preset: Preset) -> &'static dyn Learner {
    match preset {
        Preset::Paper => &paper::Paper,
        Preset::Modern => &modern::Modern,
        Preset::Td => &td::Td,
        Preset::Ctdl => &ctdl::Ctdl,
        Preset::Cmaes => &cmaes::Cmaes,
        Preset::CoCmaes => &cocmaes::CoCmaes,
    }
}

/// A random network to start from: a Nguyen-Widrow MLP, or an n-tuple network with every
/// weight uniform in [−0.1, 0.1] (as Jaśkowski 2014 starts them).
fn random_network(architecture: &Architecture, rng: &mut GameRng) -> Vec<f32> {
    match architecture {
        Architecture::Mlp(topology) => nguyen_widrow(topology, rng),
        Architecture::NTuple(spec) => (0..spec.genes())
            .map(|_| rng.random_range(-0.1..=0.1f32))
            .collect(),
    }
}

/// A founder's network: the run's first network if it starts from one, else a random one.
fn founder_network(
    first: Option<&[f32]>,
    architecture: &Architecture,
    rng: &mut GameRng,
) -> Vec<f32> {
    first.map_or_else(|| random_network(architecture, rng), <[f32]>::to_vec)
}

/// The better half of a population of `size` (μ = ⌈size/2⌉), which the modern strategy and
/// the hybrid keep.
fn survivors(size: usize) -> usize {
    size.div_ceil(2)
}
