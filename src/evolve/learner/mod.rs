//! The learners behind the presets, one file each, and their registry. A learner says how
//! a run's population starts, what its generations are ([`Kind`]: a population its fitness
//! ranks and the learner renews ([`PopulationLearner`]), or networks that only learn), which
//! network a generation offers and what the next population is. The rest of a generation —
//! TD learning games, the league, the benchmark, the champion — is the same for every
//! learner and stays in [`crate::evolve::Evolution`].
//!
//! Adding a learner: a file here implementing [`Learner`] and its line in `BUILT_IN`; or,
//! from a program of one's own, a call to [`register`] before the command line is parsed
//! (`examples/random_search.rs`). Its name becomes a preset of every front end, and
//! `evolve --help` lists it with its defaults. What a learner keeps between generations
//! besides its population is its own [`LearnerState`], which every checkpoint holds.

mod api;
mod cmaes;
mod cocmaes;
mod ctdl;
mod modern;
mod paper;
mod td;

use std::sync::{LazyLock, RwLock};

pub use api::{
    Founders, GameDefaults, Kind, Learner, LearnerState, PopulationLearner, founder_network,
    random_network,
};

use crate::eval::neural::NeuralInput;
use crate::evolve::config::{DEFAULT_TD_BATCH, EvolveConfig, NetworkChoice, Preset};

/// The registered learners: the built-in ones, registered on first use, then those a
/// program adds ([`register`]).
static LEARNERS: LazyLock<RwLock<Vec<&'static dyn Learner>>> =
    LazyLock::new(|| RwLock::new(BUILT_IN.to_vec()));

/// The built-in learners, in the order of [`Preset::all`].
const BUILT_IN: [&dyn Learner; 6] = [
    &paper::Paper,
    &modern::Modern,
    &td::Td,
    &ctdl::Ctdl,
    &cmaes::Cmaes,
    &cocmaes::CoCmaes,
];

/// Adds `learner` to the presets every front end offers (`--preset`, plans, Python) under
/// its name, which must be new: a program that brings its own way of learning calls this
/// before it parses its command line.
pub fn register(learner: &'static dyn Learner) -> Result<Preset, String> {
    let mut learners = LEARNERS.write().unwrap_or_else(|e| e.into_inner());
    let preset = Preset::register(learner.name())?;
    learners.push(learner);
    Ok(preset)
}

/// The presets whose learners use the setting `name` of some learners only
/// ([`Learner::parameters`]).
pub fn users_of(name: &str) -> Vec<Preset> {
    Preset::all()
        .into_iter()
        .filter(|preset| preset.learner().parameters().contains(&name))
        .collect()
}

impl Preset {
    /// The learner behind the preset.
    pub fn learner(self) -> &'static dyn Learner {
        LEARNERS
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .copied()
            .find(|learner| learner.name() == self.name())
            .expect("a preset names a registered learner")
    }
}

impl EvolveConfig {
    /// The defaults of `preset`: the Othello ENN paper's sizes (20 individuals, 64-42-1,
    /// p = 0.05, elitism 1, 100 benchmark games, 75% gate) and depth-2 search, with the
    /// learner's own parameters ([`Learner::settings`]).
    pub fn new(preset: Preset) -> EvolveConfig {
        preset.learner().settings(EvolveConfig {
            preset,
            population: 20,
            generations: 50,
            depth: 2,
            seed: 1,
            network: NetworkChoice::Mlp,
            hidden: vec![42],
            elitism: 1,
            mutation_probability: 0.05,
            initial_sigma: 0.01,
            sigma_bound: None,
            mean_rate: 1.0,
            hall_of_fame: 0,
            league: true,
            league_opening_plies: 4,
            league_sample: None,
            bench_games: 100,
            bench_opponents: Vec::new(),
            bench_opening_plies: 6,
            gate: 0.75,
            keep_checkpoints: Some(2),
            snapshots: None,
            td_games: 0,
            learning_rate: 0.002,
            learning_rate_end: None,
            decay_generations: 0,
            exploration: 0.1,
            td_lambda: 0.0,
            td_batch: DEFAULT_TD_BATCH,
            learn_symmetries: false,
            td_play_depth: 1,
            learn_exploring: false,
            td_opening_plies: 0,
            sparring: Vec::new(),
            sparring_share: 0.0,
            sparring_games: 0,
            sparring_play: Vec::new(),
            teacher: None,
            teacher_depth: 0,
            teacher_ranking: 0.0,
            start_from: None,
            play_epsilon: 0.0,
            common_random_moves: false,
            candidates: 1,
            selection_games: 0,
        })
    }

    /// The defaults of `preset` for the game of `start`: an MLP has one hidden layer of
    /// ⌊2/3 · inputs⌋ units, the paper's rule of thumb (64 → 42); the TD preset trains the
    /// game's default n-tuple set where it has one, else that MLP, from the game's default
    /// learning openings.
    pub fn for_game<G: NeuralInput>(preset: Preset, start: &G) -> EvolveConfig {
        let inputs = start.input_len();
        let game = GameDefaults {
            tuple_set: start.default_tuple_set(),
            tuple_sets: start.tuple_sets(),
            learning_opening_plies: start.learning_opening_plies(),
        };
        let base = preset.learner().defaults(EvolveConfig::new(preset), game);
        EvolveConfig {
            hidden: vec![(2 * inputs / 3).max(1)],
            ..base
        }
    }
}
