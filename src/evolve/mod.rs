//! Neuroevolution of board evaluators (seed 004 §2.3–§2.4): a population of MLP chromosomes,
//! league fitness, selection, mutation, a benchmark gate, and checkpoints after every
//! generation so that a run can be interrupted and resumed exactly.

pub mod checkpoint;
pub mod cmaes;
pub mod config;
pub mod league;
pub mod learner;
pub mod learning;
pub mod mutation;
pub mod population;
pub mod selection;
pub mod settings;
pub mod stats;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::arena::{
    Agent, AgentSpec, OpeningError, SearchAgent, SeriesConfig, SeriesStats, SpecError, WinRecord,
    panel_opponents, play_series, random_openings,
};
use crate::champion::Champion;
use crate::eval::NamedEvaluators;
use crate::eval::neural::NeuralEvaluator;
use crate::farm;
use crate::interrupt;
use crate::nn::{Architecture, Network, Topology, TopologyError};
use crate::persist::{PersistError, write_atomic};
use crate::rng::{derive_seed, rng_for};
use checkpoint::{EvolutionState, RunDir, RunInfo, RunLock};
use config::{ConfigError, EvolveConfig, NetworkChoice};
use population::diversity;
use stats::GenerationStats;

/// Stream tags of the run's seeds (see [`crate::rng::derive_seed`]).
const EVOLVE_STREAM: u64 = 0x6576_6f6c;
const BENCH_STREAM: u64 = 0x6265_6e63;
const TEST_STREAM: u64 = 0x7465_7374;

/// Why a run could not start, continue or save.
#[derive(Debug, thiserror::Error)]
pub enum EvolveError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error(transparent)]
    Topology(#[from] TopologyError),
    #[error(transparent)]
    Persist(#[from] PersistError),
    #[error(transparent)]
    Openings(#[from] OpeningError),
    #[error("{0} already holds a run: continue it with --resume, or choose another --out")]
    RunExists(String),
    #[error(
        "{0} is not an empty directory and holds no run: --out must be a new or empty directory (or a run to --resume)"
    )]
    NotEmpty(String),
    #[error(
        "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, or choose another --out"
    )]
    Locked { dir: String, holder: String },
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error("{path} holds no evoboard run: its run.json cannot be read ({reason})")]
    NoRun { path: String, reason: String },
    #[error("{0}")]
    Resume(String),
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
    #[error(
        "the MPI processes computed different states after generation {0}: run the same evoboard build on every node"
    )]
    Diverged(u32),
    #[error(
        "generation {generation} produced unusable weights ({reason}): the run stops, its files as of generation {}; learning diverged (a smaller --learning-rate may help)",
        generation - 1
    )]
    Unusable { generation: u32, reason: String },
    /// A stop was asked for ([`crate::interrupt`]); the files are those of the generation
    /// named.
    #[error("interrupted after generation {0}")]
    Interrupted(u32),
}

impl EvolveError {
    /// True when the user's input is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        match self {
            EvolveError::Persist(e) => e.is_bad_input(),
            EvolveError::Write { .. }
            | EvolveError::Diverged(_)
            | EvolveError::Unusable { .. }
            | EvolveError::Interrupted(_) => false,
            _ => true,
        }
    }
}

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
    /// The network TD learners distil, loaded from `config.teacher`.
    teacher: Option<Network>,
    /// The benchmark opponents with their specs, the first deciding gate and champion.
    opponents: Vec<Named<G>>,
}

/// The run directory of the process that writes it, with its hold on the directory.
struct RunFiles {
    run: RunDir,
    _lock: RunLock,
}

impl<G: NamedEvaluators> Evolution<G> {
    /// Starts a new run of `config` in `dir` (which must not hold a run yet).
    pub fn create(start: G, config: EvolveConfig, dir: &Path) -> Result<Self, EvolveError> {
        config.validate()?;
        let run = RunDir {
            dir: dir.to_path_buf(),
        };
        let architecture = architecture_for(&start, &config)?;
        let teacher = load_teacher(&start, &config)?;
        check_memory(&start, &config, &architecture, teacher.as_ref())?;
        check_benchmark_openings(&start, &config)?;
        let sparring = sparring_partners(&start, &config)?;
        let opponents = benchmark_opponents(&start, &config)?;
        // Every setting is sound: only now is the directory touched.
        let lock = RunLock::acquire(dir)?;
        if run.run_json().exists() || run.latest_checkpoint().is_some() {
            return Err(EvolveError::RunExists(dir.display().to_string()));
        }
        let evolution = Evolution {
            sparring,
            teacher,
            opponents,
            state: initial_state(config, architecture),
            start,
            files: Some(RunFiles { run, _lock: lock }),
            seconds: HashMap::new(),
        };
        evolution.write_run_json()?;
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
        let lock = RunLock::acquire(dir)?;
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
        check_memory(&start, &info.config, &architecture, teacher.as_ref())?;
        let mut state = match run.latest_checkpoint() {
            Some(generation) => {
                let path = run.checkpoint(generation);
                let state = run.load_state(generation, start.name())?;
                state
                    .check(&start, generation, &info)
                    .map_err(|reason| PersistError::Corrupt { path, reason })?;
                state
            }
            None => initial_state(info.config.clone(), architecture),
        };
        // The settings a resume may change are run.json's, which the last one wrote.
        state.config.keep_checkpoints = info.config.keep_checkpoints;
        state.config.snapshots = info.config.snapshots;
        if let Some(budget) = generations {
            if budget < state.generation {
                return Err(EvolveError::Resume(format!(
                    "the run has already played {} generations; --generations {budget} would undo them",
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

    pub fn state(&self) -> &EvolutionState {
        &self.state
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

    /// Plays generations until the gate is reached or the budget is spent, saving a
    /// checkpoint, `stats.csv` and `champion.evo` after each. Stops with
    /// [`EvolveError::Interrupted`] before a generation or the final selection once a stop
    /// is asked for ([`crate::interrupt`]; under MPI, on any process).
    pub fn run(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        while !self.state.generations_done() {
            self.check_interrupt()?;
            let clock = Instant::now();
            self.step(observer)?;
            // Checked before the generation is saved, so the last checkpoint stays usable.
            self.state
                .check_weights()
                .map_err(|reason| EvolveError::Unusable {
                    generation: self.state.generation,
                    reason,
                })?;
            if !farm::all_agree(&self.state) {
                return Err(EvolveError::Diverged(self.state.generation));
            }
            let seconds = clock.elapsed().as_secs_f64();
            self.seconds
                .insert(self.state.generation, format!("{seconds:.3}"));
            self.save()?;
            observer.generation_done(&self.state, seconds);
        }
        if self.state.selected.is_none()
            && self.state.generation > 0
            && self.state.config.selection_games > 0
        {
            self.check_interrupt()?;
            self.select_champion(observer)?;
            self.save()?;
        }
        Ok(())
    }

    /// Fails with [`EvolveError::Interrupted`] if a stop was asked for, on any process.
    fn check_interrupt(&self) -> Result<(), EvolveError> {
        if farm::any_process(interrupt::requested()) {
            return Err(EvolveError::Interrupted(self.state.generation));
        }
        Ok(())
    }

    /// The end of a run: every candidate plays `selection_games` against the benchmark
    /// opponent on openings of their own (used neither in learning nor in the
    /// per-generation benchmark), and the best becomes the champion, so that the champion
    /// is not merely the luckiest of many noisy benchmarks (a later candidate wins ties).
    fn select_champion(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        let config = self.state.config.clone();
        observer.selection_started(self.state.candidates.len(), config.selection_games);
        let mut best: Option<Champion> = None;
        for candidate in &self.state.candidates {
            let network = Arc::new(candidate.evaluator(&self.start));
            let series = openings_series(&config, config.selection_games, TEST_STREAM);
            let stats = benchmark(
                &self.start,
                &config,
                network,
                self.opponents[0].1.as_ref(),
                series,
                observer,
            )?;
            let tested = Champion {
                test_win_rate: Some(stats.record.win_rate),
                ..candidate.clone()
            };
            if best.as_ref().is_none_or(|b| {
                (b.test_win_rate, b.generation) < (tested.test_win_rate, tested.generation)
            }) {
                best = Some(tested);
            }
        }
        self.state.selected = best;
        Ok(())
    }

    /// Plays one generation: learning games (TD presets), league (evolving presets),
    /// benchmark of the best, champion and candidates, next population.
    fn step(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        let state = &mut self.state;
        let config = state.config.clone();
        let generation = state.generation + 1;
        let start = &self.start;
        let league_games = if config.evolves() {
            league::league_games(
                &config,
                generation,
                state.hall_of_fame.len(),
                self.sparring.len(),
            )
        } else {
            0
        };
        observer.generation_started(
            generation,
            config.td_games * state.population.len()
                + league_games
                + config.bench_games * self.opponents.len(),
        );
        let learned = if config.td_games > 0 {
            learning::learn(
                start,
                &config,
                generation,
                &mut state.population,
                &learning::Tutors {
                    sparring: &self.sparring,
                    teacher: self.teacher.as_ref(),
                },
                &state.architecture,
                &|| observer.game_done(),
            )
        } else {
            Vec::new()
        };
        // The learner may change the state (CMA-ES moves its distribution) while networks
        // are still being built: they need only the layout.
        let architecture = state.architecture.clone();
        let network = |genes: &[f32]| {
            Arc::new(NeuralEvaluator::new(
                start.network(&architecture, genes.to_vec()),
            ))
        };
        let players: Vec<_> = state.population.iter().map(|i| network(&i.genes)).collect();
        let fitness = if config.evolves() {
            let hall: Vec<_> = state.hall_of_fame.iter().map(|g| network(g)).collect();
            league::play_league(
                start,
                &config,
                generation,
                &players,
                &hall,
                &self.sparring,
                &|| observer.game_done(),
            )
        } else {
            learned
        };
        let ranked = selection::ranking(&fitness);
        let best = ranked[0];
        let learner = config.preset.learner();
        let offered = learner.offered(state, &ranked);
        let offered_player = network(&offered);
        let mut records = Vec::new();
        if config.bench_games > 0 {
            let series = openings_series(&config, config.bench_games, BENCH_STREAM);
            for (_, opponent) in &self.opponents {
                let network = offered_player.clone();
                let stats =
                    benchmark(start, &config, network, opponent.as_ref(), series, observer)?;
                records.push(stats.record);
            }
        }
        let mut records = records.into_iter();
        let benchmark = records.next();
        let others: Vec<WinRecord> = records.collect();
        let win_rate = benchmark.as_ref().map(|b| b.win_rate);
        let candidate = Champion {
            architecture: state.architecture.clone(),
            genes: offered.clone(),
            depth: config.depth,
            preset: config.preset.to_string(),
            seed: config.seed,
            generation,
            fitness: fitness[best],
            benchmark_win_rate: win_rate,
            test_win_rate: None,
        };
        if let Some(files) = &self.files
            && config
                .snapshots
                .is_some_and(|every| generation.is_multiple_of(every))
        {
            candidate.save(&files.run.snapshot(generation), start.name())?;
        }
        // The champion is the best-benchmarked generation winner so far (a later one wins
        // ties, having evolved longer); without benchmarks, simply the latest winner. The
        // final selection may replace it by a better-tested candidate.
        let keep_old = matches!(
            (&state.champion, win_rate),
            (Some(Champion { benchmark_win_rate: Some(old), .. }), Some(new)) if *old > new
        );
        if !keep_old {
            state.champion = Some(candidate.clone());
        }
        keep_candidate(&mut state.candidates, candidate, config.candidates);
        state.selected = None;
        state.gate_reached = win_rate.is_some_and(|rate| rate >= config.gate);
        state.history.push(GenerationStats {
            generation,
            fitness_max: fitness[best],
            fitness_mean: fitness.iter().sum::<f64>() / fitness.len() as f64,
            fitness_min: fitness[ranked[ranked.len() - 1]],
            benchmark,
            others,
            diversity: diversity(&state.population),
        });
        if config.hall_of_fame > 0 {
            state.hall_of_fame.push(offered);
            let excess = state.hall_of_fame.len().saturating_sub(config.hall_of_fame);
            state.hall_of_fame.drain(..excess);
        }
        if config.evolves() {
            state.population = learner.next_generation(state, &fitness, &ranked);
        }
        state.generation = generation;
        Ok(())
    }

    /// Writes the checkpoint, then `stats.csv` and `champion.evo` (each atomically; a
    /// resume rebuilds the later two from the checkpoint, so a crash between them is safe).
    fn save(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        run.save_state(&self.state, self.start.name())?;
        run.remove_old_checkpoints(self.state.generation, self.state.config.keep_checkpoints);
        self.write_results()
    }

    /// `stats.csv` and `champion.evo` from the state.
    fn write_results(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        let game = self.start.name();
        // With several opponents every one gets a win-rate column, the first included, so
        // the file names them all.
        let named: Vec<String> = match self.opponents.len() {
            1 => Vec::new(),
            _ => self
                .opponents
                .iter()
                .map(|(spec, _)| spec.clone())
                .collect(),
        };
        let csv = stats::csv_text(&self.state.history, &self.seconds, &named);
        write_atomic(&run.stats_csv(), csv.as_bytes()).map_err(|error| EvolveError::Write {
            path: run.stats_csv().display().to_string(),
            error,
        })?;
        if let Some(champion) = self.state.final_champion() {
            champion.save(&run.champion(), game)?;
        }
        Ok(())
    }
}

impl<G: NamedEvaluators> Evolution<G> {
    /// `run.json`: the game, the version and the run's settings (budget included).
    fn write_run_json(&self) -> Result<(), EvolveError> {
        let Some(RunFiles { run, .. }) = &self.files else {
            return Ok(());
        };
        let info = RunInfo {
            game: self.start.name().to_string(),
            evoboard_version: env!("CARGO_PKG_VERSION").to_string(),
            architecture: self.state.architecture.clone(),
            config: self.state.config.clone(),
        };
        let json = serde_json::to_string_pretty(&info).expect("plain data serialises") + "\n";
        write_atomic(&run.run_json(), json.as_bytes()).map_err(|error| EvolveError::Write {
            path: run.run_json().display().to_string(),
            error,
        })
    }
}

/// Fails before anything is allocated if a run of `config` would not fit in memory (see
/// [`EvolveConfig::memory_bound`]), with its networks of `architecture` and its teacher.
fn check_memory<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    architecture: &Architecture,
    teacher: Option<&Network>,
) -> Result<(), EvolveError> {
    let symmetries = start.cell_board().map_or(1, |board| board.symmetries.len());
    let teacher_bytes = teacher.map_or(0, |t| t.architecture().network_bytes(symmetries));
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

/// Generation 0 of a run, entirely determined by its seed.
fn initial_state(config: EvolveConfig, architecture: Architecture) -> EvolutionState {
    let mut rng = rng_for(config.seed, &[EVOLVE_STREAM]);
    let learner::Founders { population, cma } =
        config
            .preset
            .learner()
            .founders(&config, &architecture, &mut rng);
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
        cma,
    }
}

/// The benchmark of seed 004 §2.4.4: a network at the run's depth against `opponent` on the
/// openings of `series`, every opening with both colours.
fn benchmark<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    network: Arc<NeuralEvaluator>,
    opponent: &dyn Agent<G>,
    series: SeriesConfig,
    observer: &dyn Observer,
) -> Result<SeriesStats, EvolveError> {
    let player = SearchAgent::new(config.depth, network, "champion".to_string());
    let records = play_series(start, &player, opponent, series, &|| observer.game_done())?;
    Ok(SeriesStats::from_records(&records))
}

/// A series of `games` on benchmark-length openings drawn from the run seed's `stream`: the
/// validation set (per-generation benchmark) or the test set (final selection).
fn openings_series(config: &EvolveConfig, games: usize, stream: u64) -> SeriesConfig {
    SeriesConfig {
        games,
        opening_plies: config.bench_opening_plies,
        seed: derive_seed(config.seed, &[stream]),
    }
}

/// The paper's benchmark opponent at the run's depth (seed 004 §2.4.4).
fn paper_benchmark(config: &EvolveConfig) -> String {
    format!("heuristic:{}", config.depth)
}

/// The spec of the run's first benchmark opponent, the one that decides gate and champion
/// (the first of [`benchmark_specs`], known without the game).
pub fn gating_benchmark(config: &EvolveConfig) -> String {
    match config.bench_opponents.first().map(String::as_str) {
        None | Some("panel") => paper_benchmark(config),
        Some(spec) => spec.to_string(),
    }
}

/// The specs of the run's benchmark opponents: `heuristic:depth` when none are set, with
/// `panel` standing for the whole panel at the run's depth, its heuristic first (the
/// paper's benchmark, so `panel` alone still gates on it); repeats are dropped.
pub fn benchmark_specs<G: NamedEvaluators>(config: &EvolveConfig) -> Vec<String> {
    let heuristic = paper_benchmark(config);
    if config.bench_opponents.is_empty() {
        return vec![heuristic];
    }
    let mut specs: Vec<String> = Vec::new();
    for spec in &config.bench_opponents {
        let expanded = match spec.as_str() {
            "panel" => std::iter::once(heuristic.clone())
                .chain(panel_opponents::<G>(config.depth))
                .collect(),
            _ => vec![spec.clone()],
        };
        for spec in expanded {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
    }
    specs
}

/// An agent with the spec it was built from.
type Named<G> = (String, Box<dyn Agent<G>>);

/// The run's benchmark opponents as agents, with their specs.
fn benchmark_opponents<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Vec<Named<G>>, EvolveError> {
    benchmark_specs::<G>(config)
        .into_iter()
        .map(|spec| {
            let agent = spec.parse::<AgentSpec>()?.build(start)?;
            Ok((spec, agent))
        })
        .collect()
}

/// Adds `candidate` to the best-first list `candidates` if it is among the `keep` best by
/// benchmark win rate (a later generation ranks first among equals).
fn keep_candidate(candidates: &mut Vec<Champion>, candidate: Champion, keep: usize) {
    let rate = |c: &Champion| c.benchmark_win_rate.unwrap_or(0.0);
    let position = candidates
        .iter()
        .position(|c| rate(&candidate) >= rate(c))
        .unwrap_or(candidates.len());
    candidates.insert(position, candidate);
    candidates.truncate(keep);
}

/// The network of the run's teacher file, if it has one.
fn load_teacher<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Option<Network>, EvolveError> {
    let Some(path) = &config.teacher else {
        return Ok(None);
    };
    let champion = Champion::load_for(Path::new(path), start)?;
    Ok(Some(start.network(&champion.architecture, champion.genes)))
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
