//! Checkpoints of format version 9, the last before learners kept their own state: each
//! individual carried its mutation memory (the paper's X(n−1), the modern strategy's
//! steps) and the state CMA-ES's distribution. Read into today's [`EvolutionState`], their
//! run resumes exactly where it stopped.

use std::path::Path;

use serde::Deserialize;

use crate::champion::Champion;
use crate::evolve::cmaes::SepCma;
use crate::evolve::config::{EvolveConfig, Preset};
use crate::evolve::population::Individual;
use crate::evolve::state::{EvolutionState, LearnerState, json_text};
use crate::evolve::stats::GenerationStats;
use crate::nn::Architecture;
use crate::persist::{self, PersistError};
use crate::rng::GameRng;

/// An individual of version 9, with its mutation memory.
#[derive(Deserialize)]
struct Individual9 {
    genes: Vec<f32>,
    previous: Vec<f32>,
    sigmas: Vec<f32>,
}

/// The state of version 9, field for field.
#[derive(Deserialize)]
struct State9 {
    #[serde(with = "json_text")]
    config: EvolveConfig,
    architecture: Architecture,
    generation: u32,
    population: Vec<Individual9>,
    rng: GameRng,
    hall_of_fame: Vec<Vec<f32>>,
    history: Vec<GenerationStats>,
    champion: Option<Champion>,
    candidates: Vec<Champion>,
    selected: Option<Champion>,
    gate_reached: bool,
    cma: Option<SepCma>,
}

/// The state a version-9 `payload` (of the file at `path`) holds, its learner's memory in
/// the learner's state as the learner keeps it today.
pub(super) fn read(path: &Path, payload: &[u8]) -> Result<EvolutionState, PersistError> {
    let old: State9 = persist::decode_payload(path, payload)?;
    let memory = |of: fn(&Individual9) -> &Vec<f32>| -> Vec<Vec<f32>> {
        old.population.iter().map(|i| of(i).clone()).collect()
    };
    let learner_state = match (old.config.preset, &old.cma) {
        (Preset::PAPER, _) => LearnerState::of(&memory(|i| &i.previous)),
        (Preset::MODERN, _) => LearnerState::of(&memory(|i| &i.sigmas)),
        (_, Some(cma)) => LearnerState::of(cma),
        (_, None) => LearnerState::default(),
    };
    Ok(EvolutionState {
        config: old.config,
        architecture: old.architecture,
        generation: old.generation,
        population: old
            .population
            .into_iter()
            .map(|i| Individual::plain(i.genes))
            .collect(),
        rng: old.rng,
        hall_of_fame: old.hall_of_fame,
        history: old.history,
        champion: old.champion,
        candidates: old.candidates,
        selected: old.selected,
        gate_reached: old.gate_reached,
        learner_state,
    })
}
