//! Neuroevolution of board evaluators (the Othello ENN paper §2.3–§2.4): a population of MLP
//! chromosomes, league fitness, selection, mutation, a benchmark gate, and checkpoints after every
//! generation so that a run can be interrupted and resumed exactly.
//!
//! [`Evolution`] is a run in progress. How it starts (new, resumed or followed under MPI)
//! is `setup`, the generation loop and the final selection `generation`, the benchmark
//! `benchmark`, and the files it leaves after each generation `files`; the learners behind
//! the presets are [`learner`], one file each.

mod benchmark;
pub mod checkpoint;
pub mod checks;
pub mod cmaes;
pub mod config;
mod error;
mod files;
mod generation;
pub mod league;
pub mod learner;
pub mod learning;
pub mod mutation;
pub mod population;
pub mod schema;
pub mod selection;
pub mod settings;
mod setup;
pub mod state;
pub mod stats;

pub use benchmark::{benchmark_specs, gating_benchmark};
pub use error::EvolveError;
pub use setup::{architecture_for, check_for_game};

use std::collections::HashMap;

use crate::arena::Agent;
use crate::eval::NamedEvaluators;
use crate::learn::teacher::Teacher;
use checkpoint::{EvolutionState, RunDir};

/// Stream tags of the run's seeds (see [`crate::rng::derive_seed`]).
const EVOLVE_STREAM: u64 = 0x6576_6f6c;
const BENCH_STREAM: u64 = 0x6265_6e63;
const TEST_STREAM: u64 = 0x7465_7374;

/// Hears about a run's progress (the CLI draws progress bars and summary lines).
/// Every method does nothing by default, so a silent run needs only `impl Observer for X {}`.
pub trait Observer: Sync {
    /// A generation starts and will play `games` games (league plus benchmark).
    fn generation_started(&self, _generation: u32, _games: usize) {}
    /// One game finished (called from worker threads).
    fn game_done(&self) {}
    /// A generation finished in `seconds`.
    fn generation_done(&self, _state: &EvolutionState, _seconds: f64) {}
    /// The run ends by testing `candidates` networks with `games` games each.
    fn selection_started(&self, _candidates: usize, _games: usize) {}
}

/// A run in progress: the game, its directory and its state.
pub struct Evolution<G: NamedEvaluators> {
    start: G,
    /// Where the run is written; `None` in an MPI process that follows the leader's run.
    files: Option<RunFiles>,
    state: EvolutionState,
    seconds: HashMap<u32, String>,
    /// The sparring partners of TD games, built from the settings.
    sparring: Vec<Box<dyn Agent<G>>>,
    /// What TD learners are taught, from `config.teacher`: a network or exact late values.
    teacher: Option<Box<dyn Teacher<G>>>,
    /// The benchmark opponents with their specs, the first deciding gate and champion.
    opponents: Vec<Named<G>>,
}

/// The run directory of the process that writes it, with its hold on the directory.
struct RunFiles {
    run: RunDir,
    _lock: crate::persist::DirLock,
}

impl<G: NamedEvaluators> Evolution<G> {
    pub fn state(&self) -> &EvolutionState {
        &self.state
    }
}

/// An agent with the spec it was built from.
type Named<G> = (String, Box<dyn Agent<G>>);
