//! The full state of a run between generations, and the run directory's files:
//! `run.json`, `gen-NNNNN.evo`, `stats.csv`, `champion.evo`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::eval::neural::Champion;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::stats::GenerationStats;
use crate::nn::Topology;
use crate::persist::{self, FileKind, PersistError};
use crate::rng::GameRng;

/// Everything needed to continue a run exactly: written after every generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolutionState {
    pub config: EvolveConfig,
    pub topology: Topology,
    /// Generations completed so far.
    pub generation: u32,
    /// The population of the next generation (after selection and mutation).
    pub population: Vec<Individual>,
    /// The generator of selection and mutation, as it stands after the last generation.
    pub rng: GameRng,
    /// Chromosomes of the most recent generation champions (modern preset).
    pub hall_of_fame: Vec<Vec<f32>>,
    pub history: Vec<GenerationStats>,
    /// The best network so far (see [`crate::evolve::Evolution`] for how it is chosen).
    pub champion: Option<Champion>,
    /// True once a generation's best reached the gate: the run is complete.
    pub gate_reached: bool,
}

/// `run.json`: what the run is, for people and for `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub game: String,
    pub evoboard_version: String,
    pub topology: Topology,
    pub config: EvolveConfig,
}

/// Paths of a run directory's files.
pub struct RunDir {
    pub dir: PathBuf,
}

impl RunDir {
    pub fn run_json(&self) -> PathBuf {
        self.dir.join("run.json")
    }
    pub fn stats_csv(&self) -> PathBuf {
        self.dir.join("stats.csv")
    }
    pub fn champion(&self) -> PathBuf {
        self.dir.join("champion.evo")
    }
    pub fn checkpoint(&self, generation: u32) -> PathBuf {
        self.dir.join(format!("gen-{generation:05}.evo"))
    }

    /// The highest generation with a checkpoint file, if any.
    pub fn latest_checkpoint(&self) -> Option<u32> {
        std::fs::read_dir(&self.dir)
            .ok()?
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("gen-")?
                    .strip_suffix(".evo")?
                    .parse::<u32>()
                    .ok()
            })
            .max()
    }

    pub fn save_state(&self, state: &EvolutionState, game: &str) -> Result<(), PersistError> {
        persist::save(
            &self.checkpoint(state.generation),
            FileKind::Checkpoint,
            game,
            state,
        )
    }

    pub fn load_state(&self, generation: u32, game: &str) -> Result<EvolutionState, PersistError> {
        load_checkpoint(&self.checkpoint(generation), game)
    }
}

/// Reads a checkpoint file.
pub fn load_checkpoint(path: &Path, game: &str) -> Result<EvolutionState, PersistError> {
    persist::load(path, FileKind::Checkpoint, game)
}
