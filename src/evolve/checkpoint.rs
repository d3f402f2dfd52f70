//! The full state of a run between generations, and the run directory's files:
//! `run.json`, `gen-NNNNN.evo`, `stats.csv`, `champion.evo`.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::champion::Champion;
use crate::eval::neural::NeuralInput;
use crate::evolve::EvolveError;
use crate::evolve::cmaes::SepCma;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::stats::GenerationStats;
use crate::nn::{Architecture, check_weights};
use crate::persist::{self, FileKind, PersistError};
use crate::rng::GameRng;

/// The largest `run.json` read: a run's settings and its network's layout take a few KiB.
pub const MAX_RUN_JSON_BYTES: u64 = 1 << 20;

/// Everything needed to continue a run exactly: written after every generation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolutionState {
    /// Stored as JSON text, as in `run.json`: a setting added later, with its default,
    /// leaves the checkpoints of earlier runs readable.
    #[serde(with = "json_text")]
    pub config: EvolveConfig,
    pub architecture: Architecture,
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
    /// The best benchmarked networks so far, best first (at most `config.candidates`).
    pub candidates: Vec<Champion>,
    /// The candidate chosen by the final re-evaluation, once the run has ended (a later
    /// generation clears it).
    pub selected: Option<Champion>,
    /// True once a generation's best reached the gate: the run is complete.
    pub gate_reached: bool,
    /// CMA-ES: the search distribution the population was drawn from.
    pub cma: Option<SepCma>,
}

impl EvolutionState {
    /// The network the run offers as its champion: the one the final selection chose, or
    /// until then the best benchmarked so far.
    pub fn final_champion(&self) -> Option<&Champion> {
        self.selected.as_ref().or(self.champion.as_ref())
    }

    /// Whether the run has nothing left to do: its budget spent or its gate reached, and
    /// its final selection (if it has one) made.
    pub fn is_complete(&self) -> bool {
        let selection_done = self.selected.is_some() || self.config.selection_games == 0;
        self.generations_done() && selection_done
    }

    /// Whether the last generation's benchmark passed the gate: what `gate_reached`
    /// records, derived again on resume under the current rule.
    pub fn last_benchmark_passes_gate(&self) -> bool {
        self.history
            .last()
            .and_then(|last| last.benchmark.as_ref())
            .is_some_and(|benchmark| self.config.gate_passed_by(benchmark.win_rate))
    }

    /// Whether no generation is left to play: the budget is spent or the gate reached.
    pub fn generations_done(&self) -> bool {
        self.generation >= self.config.generations || self.gate_reached
    }

    /// The champion, the final selection and the candidates.
    fn champions(&self) -> impl Iterator<Item = &Champion> {
        self.champion
            .iter()
            .chain(&self.selected)
            .chain(&self.candidates)
    }

    /// Why the state's networks cannot be played, if one of its weights (or mutation
    /// memories) is not usable (see [`crate::nn::usable_weight`]): checked when a checkpoint is read,
    /// and after every generation, whose learning may have diverged.
    pub fn check_weights(&self) -> Result<(), String> {
        let individuals = self
            .population
            .iter()
            .flat_map(|i| [&i.genes, &i.previous, &i.sigmas]);
        let champions = self.champions().map(|c| &c.genes);
        individuals
            .chain(&self.hall_of_fame)
            .chain(champions)
            .try_for_each(|genes| check_weights(genes))
    }

    /// Checks a loaded state against itself, the game (`start`), the checkpoint's file
    /// number and `run.json`: a file can be intact yet inconsistent, and evolution must
    /// not start from nonsense. Returns what is wrong.
    pub fn check<G: NeuralInput>(
        &self,
        start: &G,
        file_generation: u32,
        info: &RunInfo,
    ) -> Result<(), String> {
        let config = &self.config;
        config.validate().map_err(|e| e.to_string())?;
        let mut stored = info.config.clone();
        stored.generations = config.generations;
        stored.keep_checkpoints = config.keep_checkpoints;
        stored.snapshots = config.snapshots;
        if stored != *config || info.architecture != self.architecture {
            return Err("its settings differ from run.json".to_string());
        }
        start.check_architecture(&self.architecture)?;
        let genes = self.architecture.genes();
        if self.generation != file_generation || self.history.len() != file_generation as usize {
            return Err(format!("it does not hold generation {file_generation}"));
        }
        if self.population.len() != config.population {
            return Err(format!(
                "{} individuals, {} expected",
                self.population.len(),
                config.population
            ));
        }
        let learner = config.preset.learner();
        let (previous, sigmas) = learner.mutation_memory(config, genes);
        learner.check_state(self)?;
        let well_formed = |i: &Individual| {
            i.genes.len() == genes && i.previous.len() == previous && i.sigmas.len() == sigmas
        };
        if !self.population.iter().all(well_formed) {
            return Err("an individual's chromosome has the wrong length".to_string());
        }
        if self.hall_of_fame.len() > config.hall_of_fame
            || self.hall_of_fame.iter().any(|g| g.len() != genes)
        {
            return Err("the hall of fame does not fit the run".to_string());
        }
        self.check_weights()?;
        if self.candidates.len() > config.candidates {
            return Err("it holds more candidates than the run keeps".to_string());
        }
        // The run saves every champion at its own depth and architecture.
        for champion in self.champions() {
            if champion.architecture != self.architecture || champion.depth != config.depth {
                return Err("the champion or a candidate does not fit the run".to_string());
            }
            champion
                .check(start)
                .map_err(|reason| format!("the champion or a candidate: {reason}"))?;
        }
        Ok(())
    }
}

/// `run.json`: what the run is, for people and for `--resume`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    pub game: String,
    pub evoboard_version: String,
    pub architecture: Architecture,
    pub config: EvolveConfig,
}

/// Reads the `run.json` at `path` (a regular file of at most [`MAX_RUN_JSON_BYTES`]), or
/// says why it cannot be read.
pub fn read_run_info(path: &Path) -> Result<RunInfo, String> {
    let bytes = persist::read_limited(path, MAX_RUN_JSON_BYTES).map_err(|e| e.to_string())?;
    serde_json::from_slice(&bytes).map_err(|e| e.to_string())
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
    /// Where a run with `snapshots = Some(K)` keeps generation `generation`'s offered network.
    pub fn snapshot(&self, generation: u32) -> PathBuf {
        self.dir
            .join("snapshots")
            .join(format!("gen-{generation:05}.evo"))
    }
    pub fn checkpoint(&self, generation: u32) -> PathBuf {
        self.dir.join(format!("gen-{generation:05}.evo"))
    }

    /// Reads `run.json` (see [`read_run_info`]).
    pub fn read_info(&self) -> Result<RunInfo, EvolveError> {
        read_run_info(&self.run_json()).map_err(|reason| EvolveError::NoRun {
            path: self.dir.display().to_string(),
            reason,
        })
    }

    /// Refuses a directory a new run must not be written into: one that holds a run (to be
    /// continued with `--resume`), and one that is neither new nor empty (the run's files
    /// would mix with what is there, be it `/`).
    pub fn check_new(&self) -> Result<(), EvolveError> {
        if self.run_json().exists() || self.latest_checkpoint().is_some() {
            return Err(EvolveError::RunExists(self.dir.display().to_string()));
        }
        let empty = match std::fs::read_dir(&self.dir) {
            Ok(mut entries) => entries.all(|entry| {
                entry.is_ok_and(|entry| entry.file_name() == std::ffi::OsStr::new(LOCK_FILE))
            }),
            Err(error) => error.kind() == std::io::ErrorKind::NotFound,
        };
        if !empty {
            return Err(EvolveError::NotEmpty(self.dir.display().to_string()));
        }
        Ok(())
    }

    /// The generations that have a checkpoint file.
    pub fn checkpoints(&self) -> Vec<u32> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        entries
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("gen-")?
                    .strip_suffix(".evo")?
                    .parse::<u32>()
                    .ok()
            })
            .collect()
    }

    /// The highest generation with a checkpoint file, if any.
    pub fn latest_checkpoint(&self) -> Option<u32> {
        self.checkpoints().into_iter().max()
    }

    /// With `keep` = Some(K), removes every checkpoint older than the newest K up to
    /// generation `latest` — also those a kill left behind between writing a checkpoint
    /// and removing its predecessor, so a resumed run ends with exactly the files of an
    /// uninterrupted one.
    pub fn remove_old_checkpoints(&self, latest: u32, keep: Option<u32>) {
        let Some(oldest_kept) = keep.map(|k| latest.saturating_sub(k) + 1) else {
            return;
        };
        for generation in self.checkpoints() {
            if generation < oldest_kept {
                let _ = std::fs::remove_file(self.checkpoint(generation));
            }
        }
    }

    /// Removes temporary files left by writes that a kill interrupted (see
    /// [`crate::persist::remove_stale_temp_files`]).
    pub fn remove_stale_temp_files(&self) {
        persist::remove_stale_temp_files(&self.dir);
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

/// The file of a run directory's lock (see [`RunLock`]).
const LOCK_FILE: &str = ".evoboard-lock";

/// An advisory lock on a run directory, held for as long as the value lives, so that two
/// processes never write one run. The operating system releases it when its process ends,
/// however it ends, so a crash leaves nothing to clean up before `--resume`. The lock file
/// holds the owner's process id, for the message a second process gets.
pub struct RunLock {
    _file: std::fs::File,
}

impl RunLock {
    /// Takes the lock of `dir` (creating the directory if needed), or says who holds it.
    pub fn acquire(dir: &Path) -> Result<RunLock, EvolveError> {
        use std::io::{Read, Seek, Write};
        let failed = |error: std::io::Error| EvolveError::Write {
            path: dir.display().to_string(),
            error,
        };
        std::fs::create_dir_all(dir).map_err(failed)?;
        let path = dir.join(LOCK_FILE);
        let mut file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(failed)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                return Err(EvolveError::Locked {
                    dir: dir.display().to_string(),
                    holder: holder.trim().to_string(),
                });
            }
            Err(std::fs::TryLockError::Error(error)) => return Err(failed(error)),
        }
        file.set_len(0).map_err(failed)?;
        file.rewind().map_err(failed)?;
        writeln!(file, "{}", std::process::id()).map_err(failed)?;
        Ok(RunLock { _file: file })
    }
}

/// Serde adapter writing a value as JSON text inside a binary payload: self-describing,
/// so fields with defaults can be added without changing the payload's layout.
mod json_text {
    use serde::de::{DeserializeOwned, Error as _};
    use serde::ser::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(
        value: &T,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let text = serde_json::to_string(value).map_err(S::Error::custom)?;
        serializer.serialize_str(&text)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<T, D::Error> {
        let text = String::deserialize(deserializer)?;
        serde_json::from_str(&text).map_err(D::Error::custom)
    }
}
