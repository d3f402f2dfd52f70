//! How a run starts: created in a new directory, resumed from its latest checkpoint, or
//! followed by an MPI process from the leader's state; and the pieces it is built from,
//! each checked before the directory is touched (network, teacher, memory, benchmark
//! openings, sparring partners) and generation 0, entirely determined by the seed.

use std::collections::HashMap;
use std::path::Path;

use crate::arena::{Agent, AgentSpec, random_openings};
use crate::champion::Champion;
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralInput;
use crate::learn::teacher::{ExactLateTeacher, NetworkTeacher, SearchTeacher, Teacher};
use crate::nn::{Architecture, Topology};
use crate::persist::PersistError;
use crate::rng::rng_for;

use super::benchmark::benchmark_opponents;
use super::checkpoint::{EvolutionState, RunDir, RunInfo, lock_run};
use super::config::{ConfigError, EXACT_TEACHER, EvolveConfig, NetworkChoice, TeacherSpec};
use super::schema::mark;
use super::{EVOLVE_STREAM, Evolution, EvolveError, RunFiles, learner, stats};

impl<G: NamedEvaluators> Evolution<G> {
    /// Starts a new run of `config` in `dir` (which must not hold a run yet).
    pub fn create(start: G, config: EvolveConfig, dir: &Path) -> Result<Self, EvolveError> {
        let run = RunDir {
            dir: dir.to_path_buf(),
        };
        let architecture = check_for_game(&start, &config)?;
        let first = load_start(&start, &config, &architecture)?;
        let teacher = load_teacher(&start, &config)?;
        check_memory(&start, &config, &architecture, teacher.as_deref())?;
        check_benchmark_openings(&start, &config)?;
        let sparring = sparring_partners(&start, &config)?;
        let opponents = benchmark_opponents(&start, &config)?;
        // Every setting is sound: only now is the directory touched.
        let lock = lock_run(dir)?;
        if run.run_json().exists() || run.latest_checkpoint().is_some() {
            return Err(EvolveError::RunExists(dir.display().to_string()));
        }
        let evolution = Evolution {
            sparring,
            teacher,
            opponents,
            state: initial_state(config, architecture, first.as_deref()),
            start,
            files: Some(RunFiles { run, _lock: lock }),
            seconds: HashMap::new(),
        };
        evolution.write_run_json()?;
        Ok(evolution)
    }

    /// Continues the run in `dir` with `wanted`, its settings with the changes a resume may
    /// make ([`crate::evolve::settings::resumed`]): a raised budget, and the checkpoints and
    /// snapshots it keeps.
    pub fn resume_as(start: G, dir: &Path, wanted: &EvolveConfig) -> Result<Self, EvolveError> {
        let stored = RunDir {
            dir: dir.to_path_buf(),
        }
        .read_info()?
        .config;
        let budget = (wanted.generations != stored.generations).then_some(wanted.generations);
        let mut evolution = Self::resume(start, dir, budget)?;
        let kept = (wanted.keep_checkpoints, wanted.snapshots);
        if kept != (stored.keep_checkpoints, stored.snapshots) {
            evolution.set_keeping(kept.0, kept.1)?;
        }
        Ok(evolution)
    }

    /// Continues the run in `dir` from its latest checkpoint (or from the start if it has
    /// none yet). `generations` replaces the budget when given (it cannot drop below the
    /// generations already played). The checkpoint is checked against `run.json` and for
    /// internal consistency, and `stats.csv` and `champion.evo` are rewritten from it, so a
    /// run stopped between writing its files is whole again.
    pub fn resume(start: G, dir: &Path, generations: Option<u32>) -> Result<Self, EvolveError> {
        let run = RunDir {
            dir: dir.to_path_buf(),
        };
        let info = run.read_info()?;
        // Refused before the lock is taken, so a finished run's directory is left as it was.
        refuse_run_without_checkpoint(&run)?;
        let lock = lock_run(dir)?;
        refuse_run_without_checkpoint(&run)?;
        if info.game != start.name() {
            return Err(EvolveError::Resume(format!(
                "{} is a run of the game {}, not {}",
                dir.display(),
                info.game.escape_debug(),
                start.name()
            )));
        }
        info.config.validate()?;
        let teacher = load_teacher(&start, &info.config)?;
        let architecture = architecture_for(&start, &info.config)?;
        check_memory(&start, &info.config, &architecture, teacher.as_deref())?;
        let mut state = match run.latest_checkpoint() {
            Some(generation) => {
                let path = run.checkpoint(generation);
                let state = run.load_state(generation, start.name())?;
                state
                    .check(&start, generation, &info)
                    .map_err(|reason| PersistError::Corrupt { path, reason })?;
                state
            }
            None => {
                let first = load_start(&start, &info.config, &architecture)?;
                initial_state(info.config.clone(), architecture, first.as_deref())
            }
        };
        // The settings a resume may change are run.json's, which the last one wrote.
        state.config.keep_checkpoints = info.config.keep_checkpoints;
        state.config.snapshots = info.config.snapshots;
        // Under today's rule: a run that an older version stopped at a perfect score with
        // no gate (1.0) goes on.
        state.gate_reached = state.last_benchmark_passes_gate();
        if let Some(budget) = generations {
            if budget < state.generation {
                return Err(EvolveError::Resume(format!(
                    "the run has already played {} generations; a budget of {budget} would undo them",
                    state.generation
                )));
            }
            state.config.generations = budget;
        }
        check_benchmark_openings(&start, &state.config)?;
        run.remove_stale_temp_files();
        run.remove_old_checkpoints(state.generation, state.config.keep_checkpoints);
        let evolution = Evolution {
            seconds: stats::read_seconds(&run.stats_csv()),
            sparring: sparring_partners(&start, &state.config)?,
            teacher,
            opponents: benchmark_opponents(&start, &state.config)?,
            start,
            files: Some(RunFiles { run, _lock: lock }),
            state,
        };
        evolution.write_run_json()?;
        if evolution.state.generation > 0 {
            evolution.write_results()?;
        }
        Ok(evolution)
    }

    /// The run as a process of an MPI job other than the leader plays it: from the state
    /// the leader opened (see [`crate::farm::publish`]), the same generations, no files.
    pub fn follow(start: G, state: EvolutionState) -> Result<Self, EvolveError> {
        Ok(Evolution {
            seconds: HashMap::new(),
            sparring: sparring_partners(&start, &state.config)?,
            teacher: load_teacher(&start, &state.config)?,
            opponents: benchmark_opponents(&start, &state.config)?,
            start,
            files: None,
            state,
        })
    }

    /// Changes how many checkpoints the run keeps and how often it keeps a snapshot (a
    /// resumed run may: neither changes a result), recording both in `run.json` and
    /// removing the checkpoints no longer kept.
    pub fn set_keeping(
        &mut self,
        keep: Option<u32>,
        snapshots: Option<u32>,
    ) -> Result<(), EvolveError> {
        let mut config = self.state.config.clone();
        config.keep_checkpoints = keep;
        config.snapshots = snapshots;
        config.validate()?;
        self.state.config = config;
        self.write_run_json()?;
        if let Some(files) = &self.files {
            files
                .run
                .remove_old_checkpoints(self.state.generation, keep);
        }
        Ok(())
    }
}

/// Refuses to resume a run whose files record played generations (`stats.csv` rows or a
/// `champion.evo`) but that has no checkpoint to continue from — a shipped or copied run,
/// or one whose checkpoints were deleted: starting it over would overwrite its results.
fn refuse_run_without_checkpoint(run: &RunDir) -> Result<(), EvolveError> {
    if run.latest_checkpoint().is_some() {
        return Ok(());
    }
    let recorded = match stats::read_stats_csv(&run.stats_csv()) {
        Ok(rows) if rows.len() == 1 => Some("1 generation in stats.csv".to_string()),
        Ok(rows) if !rows.is_empty() => Some(format!("{} generations in stats.csv", rows.len())),
        Err(_) if run.stats_csv().exists() => Some("a stats.csv".to_string()),
        _ => run
            .champion()
            .exists()
            .then(|| "a champion.evo".to_string()),
    };
    let Some(recorded) = recorded else {
        return Ok(());
    };
    Err(EvolveError::Resume(format!(
        "{} records {recorded} but has no checkpoint (gen-*.evo) to continue from: resuming \
         would start the run over and overwrite its results, so nothing was changed (a run \
         resumes only while it keeps its checkpoints; start a new run in another directory)",
        run.dir.display()
    )))
}

/// The checks every configuration passes for the game of `start` wherever it enters, before
/// any file is read: its settings ([`EvolveConfig::validate`]), its network for the game,
/// the game's symmetries if it learns them, and the memory it takes without a teacher
/// (whose size is known only once it is loaded). Returns the network's architecture.
pub fn check_for_game<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Architecture, EvolveError> {
    config.validate()?;
    let architecture = architecture_for(start, config)?;
    if config.learn_symmetries && start.symmetric_images().is_empty() {
        return Err(ConfigError(format!(
            "{}: {} has no board symmetries to learn",
            mark("learn_symmetries"),
            start.name()
        ))
        .into());
    }
    check_memory(start, config, &architecture, None)?;
    Ok(architecture)
}

/// Fails before anything is allocated if a run of `config` would not fit in memory (see
/// [`EvolveConfig::memory_bound`]), with its networks of `architecture` and its teacher.
fn check_memory<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    architecture: &Architecture,
    teacher: Option<&dyn Teacher<G>>,
) -> Result<(), EvolveError> {
    let symmetries = start.cell_board().map_or(1, |board| board.symmetries.len());
    let teacher_bytes = teacher.map_or(0, |t| t.bytes());
    config.check_memory(
        architecture.genes(),
        architecture.network_bytes(symmetries),
        teacher_bytes,
        rayon::current_num_threads(),
    )?;
    Ok(())
}

/// Fails early (before any game) if the benchmark cannot find its distinct openings.
fn check_benchmark_openings<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<(), EvolveError> {
    if config.bench_games > 0 {
        random_openings(
            start,
            config.bench_games.div_ceil(2),
            config.bench_opening_plies,
            0,
        )?;
    }
    Ok(())
}

/// The network for `start`'s game and the run's settings: an MLP with the game's inputs,
/// the hidden layers and one output, or the named n-tuple set.
pub fn architecture_for<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Architecture, EvolveError> {
    let architecture = match &config.network {
        NetworkChoice::Mlp => {
            let mut layers = vec![start.input_len()];
            layers.extend(&config.hidden);
            layers.push(1);
            Architecture::Mlp(Topology::new(&layers)?)
        }
        NetworkChoice::NTuple(name) => {
            Architecture::NTuple(start.tuple_set(name).ok_or_else(|| {
                let known: Vec<&str> = start.tuple_sets().iter().map(|(n, _)| *n).collect();
                ConfigError(if known.is_empty() {
                    format!("{} has no n-tuple networks", start.name())
                } else {
                    format!(
                        "unknown tuple set '{name}'; {} has {}",
                        start.name(),
                        known.join(", ")
                    )
                })
            })?)
        }
    };
    Ok(architecture)
}

/// Generation 0 of a run, entirely determined by its seed (and by the network it starts
/// from, if any).
fn initial_state(
    config: EvolveConfig,
    architecture: Architecture,
    first: Option<&[f32]>,
) -> EvolutionState {
    let mut rng = rng_for(config.seed, &[EVOLVE_STREAM]);
    let learner::Founders {
        population,
        state: learner_state,
    } = config
        .preset
        .learner()
        .founders(&config, &architecture, first, &mut rng);
    EvolutionState {
        config,
        architecture,
        generation: 0,
        population,
        rng,
        hall_of_fame: Vec::new(),
        history: Vec::new(),
        champion: None,
        candidates: Vec::new(),
        selected: None,
        gate_reached: false,
        learner_state,
    }
}

/// The network of the run's `start_from` champion, which must be of the run's own network
/// (`None`: generation 0 is drawn at random).
fn load_start<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    architecture: &Architecture,
) -> Result<Option<Vec<f32>>, EvolveError> {
    let Some(path) = config.start_from.as_deref() else {
        return Ok(None);
    };
    let champion = Champion::load_for(Path::new(path), start)?;
    if champion.architecture != *architecture {
        return Err(ConfigError(format!(
            "{} {}: its network is {}, the run's is {architecture}",
            mark("start_from"),
            path.escape_debug(),
            champion.architecture
        ))
        .into());
    }
    Ok(Some(champion.genes))
}

/// What the run's learners are taught, if anything: exact late values (`exact:SEEDS`,
/// built here), their own search (`search:DEPTH`) or the network of a champion file.
fn load_teacher<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Option<Box<dyn Teacher<G>>>, EvolveError> {
    let path = match config.teacher_spec()? {
        None => return Ok(None),
        Some(TeacherSpec::Exact(seeds)) => {
            let teacher = ExactLateTeacher::for_game(start, seeds).map_err(|reason| {
                ConfigError(format!(
                    "{} {EXACT_TEACHER}{seeds}: {reason}",
                    mark("teacher")
                ))
            })?;
            return Ok(Some(teacher));
        }
        Some(TeacherSpec::Search(depth)) => return Ok(Some(Box::new(SearchTeacher { depth }))),
        Some(TeacherSpec::File(path)) => path,
    };
    let champion = Champion::load_for(Path::new(path), start)?;
    let symmetries = start.cell_board().map_or(1, |board| board.symmetries.len());
    let bytes = champion.architecture.network_bytes(symmetries);
    let network = start.network(&champion.architecture, champion.genes);
    Ok(Some(Box::new(NetworkTeacher::new(
        network,
        bytes,
        config.teacher_depth,
    ))))
}

/// The agents of the run's sparring specs.
fn sparring_partners<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Vec<Box<dyn Agent<G>>>, EvolveError> {
    config
        .sparring
        .iter()
        .map(|spec| Ok(spec.parse::<AgentSpec>()?.build(start)?))
        .collect()
}

impl EvolutionState {
    /// Checks a loaded state against itself, the game (`start`), the checkpoint's file
    /// number, `run.json` and its learner: a file can be intact yet inconsistent, and
    /// evolution must not start from nonsense. Returns what is wrong.
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
        if self.population.iter().any(|i| i.genes.len() != genes) {
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
        config.preset.learner().check_state(self)
    }
}
