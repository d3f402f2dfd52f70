//! Neuroevolution of board evaluators (seed 004 §2.3–§2.4): a population of MLP chromosomes,
//! league fitness, selection, mutation, a benchmark gate, and checkpoints after every
//! generation so that a run can be interrupted and resumed exactly.

pub mod checkpoint;
pub mod config;
pub mod league;
pub mod mutation;
pub mod population;
pub mod selection;
pub mod stats;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use rand::RngExt;

use crate::arena::{
    OpeningError, SearchAgent, SeriesConfig, SeriesStats, play_series, random_openings,
};
use crate::eval::NamedEvaluators;
use crate::eval::neural::{Champion, NeuralEvaluator};
use crate::nn::{Mlp, Topology, TopologyError};
use crate::persist::{PersistError, write_atomic};
use crate::rng::{derive_seed, rng_for};
use checkpoint::{EvolutionState, RunDir, RunInfo};
use config::{ConfigError, EvolveConfig, Preset};
use population::{Individual, diversity, founders};
use stats::GenerationStats;

/// Stream tags of the run's seeds (see [`crate::rng::derive_seed`]).
const EVOLVE_STREAM: u64 = 0x6576_6f6c;
const BENCH_STREAM: u64 = 0x6265_6e63;

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
    #[error("{path} has no readable run.json ({reason}); nothing to resume")]
    NoRun { path: String, reason: String },
    #[error("{0}")]
    Resume(String),
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
}

impl EvolveError {
    /// True when the user's input is at fault (exit code 2) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        match self {
            EvolveError::Persist(e) => e.is_bad_input(),
            EvolveError::Write { .. } => false,
            _ => true,
        }
    }
}

/// Hears about a run's progress (the CLI draws progress bars and summary lines).
pub trait Observer: Sync {
    /// A generation starts and will play `games` games (league plus benchmark).
    fn generation_started(&self, generation: u32, games: usize);
    /// One game finished (called from worker threads).
    fn game_done(&self);
    /// A generation finished in `seconds`.
    fn generation_done(&self, state: &EvolutionState, seconds: f64);
}

/// A run in progress: the game, its directory and its state.
pub struct Evolution<G: NamedEvaluators> {
    start: G,
    run: RunDir,
    state: EvolutionState,
    seconds: HashMap<u32, String>,
}

impl<G: NamedEvaluators> Evolution<G> {
    /// Starts a new run of `config` in `dir` (which must not hold a run yet).
    pub fn create(start: G, config: EvolveConfig, dir: &Path) -> Result<Self, EvolveError> {
        config.validate()?;
        let run = RunDir {
            dir: dir.to_path_buf(),
        };
        if run.run_json().exists() || run.latest_checkpoint().is_some() {
            return Err(EvolveError::RunExists(dir.display().to_string()));
        }
        let topology = topology_for(&start, &config)?;
        check_benchmark_openings(&start, &config)?;
        let evolution = Evolution {
            state: initial_state(config, topology),
            start,
            run,
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
        if info.game != start.name() {
            return Err(EvolveError::Resume(format!(
                "{} is a {} run, not {}",
                dir.display(),
                info.game,
                start.name()
            )));
        }
        info.config.validate()?;
        let mut state = match run.latest_checkpoint() {
            Some(generation) => {
                let path = run.checkpoint(generation);
                let state = run.load_state(generation, start.name())?;
                state
                    .check(start.input_len(), generation, &info)
                    .map_err(|reason| PersistError::Corrupt { path, reason })?;
                state
            }
            None => initial_state(info.config.clone(), topology_for(&start, &info.config)?),
        };
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
        let evolution = Evolution {
            seconds: stats::read_seconds(&run.stats_csv()),
            start,
            run,
            state,
        };
        evolution.write_run_json()?;
        if evolution.state.generation > 0 {
            evolution.write_results()?;
        }
        Ok(evolution)
    }

    pub fn state(&self) -> &EvolutionState {
        &self.state
    }

    /// Plays generations until the gate is reached or the budget is spent, saving a
    /// checkpoint, `stats.csv` and `champion.evo` after each.
    pub fn run(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        while self.state.generation < self.state.config.generations && !self.state.gate_reached {
            let clock = Instant::now();
            self.step(observer)?;
            let seconds = clock.elapsed().as_secs_f64();
            self.seconds
                .insert(self.state.generation, format!("{seconds:.3}"));
            self.save()?;
            observer.generation_done(&self.state, seconds);
        }
        Ok(())
    }

    /// Plays one generation: league, benchmark of the best, champion, next population.
    fn step(&mut self, observer: &dyn Observer) -> Result<(), EvolveError> {
        let state = &mut self.state;
        let config = state.config.clone();
        let generation = state.generation + 1;
        let network = |genes: &[f32]| {
            Arc::new(NeuralEvaluator::new(Mlp::new(
                state.topology.clone(),
                genes.to_vec(),
            )))
        };
        let players: Vec<_> = state.population.iter().map(|i| network(&i.genes)).collect();
        let hall: Vec<_> = state.hall_of_fame.iter().map(|g| network(g)).collect();
        observer.generation_started(
            generation,
            league::league_games(&config, generation, hall.len()) + config.bench_games,
        );
        let fitness =
            league::play_league(&self.start, &config, generation, &players, &hall, &|| {
                observer.game_done()
            });
        let ranked = selection::ranking(&fitness);
        let best = ranked[0];
        let benchmark = if config.bench_games > 0 {
            let stats = benchmark(&self.start, &config, players[best].clone(), observer)?;
            Some(stats.record)
        } else {
            None
        };
        let win_rate = benchmark.as_ref().map(|b| b.win_rate);
        let candidate = Champion {
            topology: state.topology.clone(),
            genes: state.population[best].genes.clone(),
            depth: config.depth,
            preset: config.preset.to_string(),
            seed: config.seed,
            generation,
            fitness: fitness[best],
            benchmark_win_rate: win_rate,
        };
        // The champion is the best-benchmarked generation winner so far (a later one wins
        // ties, having evolved longer); without benchmarks, simply the latest winner.
        let keep_old = matches!(
            (&state.champion, win_rate),
            (Some(Champion { benchmark_win_rate: Some(old), .. }), Some(new)) if *old > new
        );
        if !keep_old {
            state.champion = Some(candidate);
        }
        state.gate_reached = win_rate.is_some_and(|rate| rate >= config.gate);
        state.history.push(GenerationStats {
            generation,
            fitness_max: fitness[best],
            fitness_mean: fitness.iter().sum::<f64>() / fitness.len() as f64,
            fitness_min: fitness[ranked[ranked.len() - 1]],
            benchmark,
            diversity: diversity(&state.population),
        });
        if config.hall_of_fame > 0 {
            state
                .hall_of_fame
                .push(state.population[best].genes.clone());
            let excess = state.hall_of_fame.len().saturating_sub(config.hall_of_fame);
            state.hall_of_fame.drain(..excess);
        }
        state.population = next_generation(state, &fitness, &ranked);
        state.generation = generation;
        Ok(())
    }

    /// Writes the checkpoint, then `stats.csv` and `champion.evo` (each atomically; a
    /// resume rebuilds the later two from the checkpoint, so a crash between them is safe).
    fn save(&self) -> Result<(), EvolveError> {
        self.run.save_state(&self.state, self.start.name())?;
        if let Some(keep) = self.state.config.keep_checkpoints
            && let Some(old) = self.state.generation.checked_sub(keep)
            && old > 0
        {
            // Older ones were removed the same way when their turn came.
            let _ = std::fs::remove_file(self.run.checkpoint(old));
        }
        self.write_results()
    }

    /// `stats.csv` and `champion.evo` from the state.
    fn write_results(&self) -> Result<(), EvolveError> {
        let game = self.start.name();
        let csv = stats::csv_text(&self.state.history, &self.seconds);
        write_atomic(&self.run.stats_csv(), csv.as_bytes()).map_err(|error| {
            EvolveError::Write {
                path: self.run.stats_csv().display().to_string(),
                error,
            }
        })?;
        if let Some(champion) = &self.state.champion {
            champion.save(&self.run.champion(), game)?;
        }
        Ok(())
    }
}

impl<G: NamedEvaluators> Evolution<G> {
    /// `run.json`: the game, the version and the run's settings (budget included).
    fn write_run_json(&self) -> Result<(), EvolveError> {
        let info = RunInfo {
            game: self.start.name().to_string(),
            evoboard_version: env!("CARGO_PKG_VERSION").to_string(),
            topology: self.state.topology.clone(),
            config: self.state.config.clone(),
        };
        let json = serde_json::to_string_pretty(&info).expect("plain data serialises") + "\n";
        write_atomic(&self.run.run_json(), json.as_bytes()).map_err(|error| EvolveError::Write {
            path: self.run.run_json().display().to_string(),
            error,
        })
    }
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

/// The network shape for `start`'s game: its inputs, the hidden layers, one output.
fn topology_for<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
) -> Result<Topology, TopologyError> {
    let mut layers = vec![start.input_len()];
    layers.extend(&config.hidden);
    layers.push(1);
    Topology::new(&layers)
}

/// Generation 0 of a run, entirely determined by its seed.
fn initial_state(config: EvolveConfig, topology: Topology) -> EvolutionState {
    let mut rng = rng_for(config.seed, &[EVOLVE_STREAM]);
    let population = founders(&config, &topology, &mut rng);
    EvolutionState {
        config,
        topology,
        generation: 0,
        population,
        rng,
        hall_of_fame: Vec::new(),
        history: Vec::new(),
        champion: None,
        gate_reached: false,
    }
}

/// The benchmark of seed 004 §2.4.4: the best network against `heuristic:depth`, every
/// opening with both colours. The openings derive from the run seed alone, so every
/// generation faces the same test.
fn benchmark<G: NamedEvaluators>(
    start: &G,
    config: &EvolveConfig,
    network: Arc<NeuralEvaluator>,
    observer: &dyn Observer,
) -> Result<SeriesStats, EvolveError> {
    let player = SearchAgent::new(config.depth, network, "champion".to_string());
    let opponent = SearchAgent::new(
        config.depth,
        G::evaluator("heuristic").expect("every game has a heuristic evaluator"),
        format!("heuristic:{}", config.depth),
    );
    let series = SeriesConfig {
        games: config.bench_games,
        opening_plies: config.bench_opening_plies,
        seed: derive_seed(config.seed, &[BENCH_STREAM]),
    };
    let records = play_series(start, &player, &opponent, series, &|| observer.game_done())?;
    Ok(SeriesStats::from_records(&records))
}

/// Selection and variation: the next population from this one and its fitness.
///
/// - Paper: the `elitism` best are cloned unchanged; every other slot takes a roulette-wheel
///   parent, copied, and mutated with probability p by [`mutation::momentum`].
/// - Modern: the better half (μ = ⌈P/2⌉, by rank) survives unchanged, and survivor k mod μ
///   fathers each remaining slot through [`mutation::self_adaptive`] ((μ+λ) selection, which
///   keeps the best automatically, so `elitism` is not used).
fn next_generation(
    state: &mut EvolutionState,
    fitness: &[f64],
    ranked: &[usize],
) -> Vec<Individual> {
    let config = &state.config;
    let population = &state.population;
    let rng = &mut state.rng;
    let size = population.len();
    match config.preset {
        Preset::Paper => {
            let mut next: Vec<Individual> = ranked[..config.elitism]
                .iter()
                .map(|&i| population[i].clone())
                .collect();
            while next.len() < size {
                let parent = &population[selection::roulette(fitness, rng)];
                next.push(if rng.random_bool(config.mutation_probability) {
                    mutation::momentum(parent, config.mutation_probability, rng)
                } else {
                    parent.clone()
                });
            }
            next
        }
        Preset::Modern => {
            let survivors = size.div_ceil(2);
            let mut next: Vec<Individual> = ranked[..survivors]
                .iter()
                .map(|&i| population[i].clone())
                .collect();
            for k in 0..size - survivors {
                let parent = &population[ranked[k % survivors]];
                next.push(mutation::self_adaptive(parent, rng));
            }
            next
        }
    }
}
