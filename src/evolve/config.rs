//! What an evolution run is: the preset, sizes, budget and benchmark gate.

use crate::search::solve::MAX_LATE_SEEDS;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::eval::neural::NeuralInput;
use crate::evolve::learner::{GameDefaults, Learner, learner};
pub use crate::evolve::schema::{
    ConfigError, MAX_POPULATION, MAX_SPARRING_GAMES, MAX_TD_BATCH, MAX_TD_GAMES, MAX_TD_PLAY_DEPTH,
    MAX_TEACHER_DEPTH,
};
use crate::evolve::schema::{SETTINGS, mark};

/// The learners on offer, each described in its file under `evolve/learner/`. Stored in
/// `run.json` and checkpoints by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preset {
    /// The Othello ENN paper as written (`learner/paper.rs`).
    Paper,
    /// A self-adaptive (μ+λ) evolution strategy (`learner/modern.rs`).
    Modern,
    /// Temporal-difference learning of one network (`learner/td.rs`).
    Td,
    /// Coevolutionary TD learning (`learner/ctdl.rs`).
    Ctdl,
    /// Separable CMA-ES (`learner/cmaes.rs`).
    Cmaes,
    /// Coevolutionary CMA-ES with Jaśkowski & Szubert's settings (`learner/cocmaes.rs`).
    CoCmaes,
}

impl Preset {
    /// Every preset, in the order help texts list them.
    pub const ALL: [Preset; 6] = [
        Preset::Paper,
        Preset::Modern,
        Preset::Td,
        Preset::Ctdl,
        Preset::Cmaes,
        Preset::CoCmaes,
    ];

    /// The learner behind the preset (the registry is [`learner`]).
    pub fn learner(self) -> &'static dyn Learner {
        learner(self)
    }
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(text: &str) -> Result<Preset, String> {
        Preset::ALL
            .into_iter()
            .find(|preset| preset.learner().name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Preset::ALL.iter().map(|p| p.learner().name()).collect();
                format!(
                    "unknown preset '{text}' ({} or {})",
                    names[..names.len() - 1].join(", "),
                    names[names.len() - 1]
                )
            })
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.learner().name())
    }
}

/// The network family a run trains: an MLP (hidden layers from `hidden`) or an n-tuple
/// network over a named tuple set of the game. Written `mlp` or `ntuple:SET`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NetworkChoice {
    Mlp,
    NTuple(String),
}

impl FromStr for NetworkChoice {
    type Err = String;
    fn from_str(text: &str) -> Result<NetworkChoice, String> {
        match text.split_once(':') {
            None if text == "mlp" => Ok(NetworkChoice::Mlp),
            Some(("ntuple", set)) if !set.is_empty() => Ok(NetworkChoice::NTuple(set.to_string())),
            _ => Err(format!(
                "unknown network '{text}' (mlp, or ntuple:SET with a tuple set of the game)"
            )),
        }
    }
}

impl fmt::Display for NetworkChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkChoice::Mlp => f.write_str("mlp"),
            NetworkChoice::NTuple(set) => write!(f, "ntuple:{set}"),
        }
    }
}

/// The preset a run uses when none is given: TD learning evolves by far the strongest
/// players (see README, "Results").
pub const DEFAULT_PRESET: Preset = Preset::Td;

/// What a run's `--teacher` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TeacherSpec<'a> {
    /// A champion file, whose network every position learns.
    File(&'a str),
    /// Exact late values of positions with at most this many seeds on the board (Kalah).
    Exact(u32),
    /// The learner's own alpha-beta search of this depth.
    Search(u32),
}

/// The prefix of a `--teacher` that names exact late values rather than a file.
pub const EXACT_TEACHER: &str = "exact:";

/// The prefix of a `--teacher` that names the learner's own search rather than a file.
pub const SEARCH_TEACHER: &str = "search:";

/// Every setting of a run. Stored in `run.json` and in each checkpoint, so a resumed run
/// continues with exactly the settings it started with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EvolveConfig {
    pub preset: Preset,
    /// Individuals per generation (the Othello ENN paper: 20).
    pub population: usize,
    /// Generation budget; the run stops earlier when the gate is reached.
    pub generations: u32,
    /// Search depth of every network player and of the benchmark opponent.
    pub depth: u32,
    pub seed: u64,
    /// The network family (the Othello ENN paper: an MLP).
    pub network: NetworkChoice,
    /// Hidden layer sizes of an MLP (the Othello ENN paper: one layer of 42).
    pub hidden: Vec<usize>,
    /// Best individuals copied unchanged into the next generation (paper preset).
    pub elitism: usize,
    /// p of the paper's mutation: the chance an offspring is mutated, and the step factor.
    pub mutation_probability: f64,
    /// Initial step size of the self-adaptive mutation (modern preset). 0.01 evolved clearly
    /// stronger players than 0.05 or 0.002 in our measurements (see README). CMA-ES: the
    /// initial step size σ of its search distribution.
    pub initial_sigma: f32,
    /// Modern preset: the largest a self-adapted step may grow, as a multiple of
    /// `initial_sigma` (`None`: unbounded, as runs made before the bound). Unbounded steps
    /// drift up until the sigmoids saturate into step functions.
    #[serde(default)]
    pub sigma_bound: Option<f32>,
    /// CMA-ES: the share c_m of its selected step the mean takes each generation (1: the
    /// whole step, the standard update). When noise rather than the weights ranks the
    /// samples, each whole step is mostly a random one, and over many generations the
    /// mean wanders off a good network; a smaller share averages the steps of several
    /// generations while the samples keep the step size σ that tells them apart (the mean
    /// learning rate of Miyazawa & Akimoto 2017).
    #[serde(default = "whole")]
    pub mean_rate: f64,
    /// Past champions each individual also plays with both colours (modern preset).
    pub hall_of_fame: usize,
    /// Whether individuals play each other (the league); off, fitness comes from the
    /// sparring partners (and hall of fame) alone.
    #[serde(default = "yes")]
    pub league: bool,
    /// Random plies from the start that make each league game's opening.
    pub league_opening_plies: u32,
    /// `Some(K)`: each individual plays K seeded opponents (both colours) instead of all.
    pub league_sample: Option<usize>,
    /// Benchmark games of each generation's best against each benchmark opponent (0 = none).
    pub bench_games: usize,
    /// The benchmark opponents (agent specs; `panel` stands for the whole panel at
    /// `depth`). The first decides the gate, the champion and the final selection; empty
    /// means `heuristic:depth` alone (the Othello ENN paper §2.4.4).
    pub bench_opponents: Vec<String>,
    /// Random plies that make each benchmark opening.
    pub bench_opening_plies: u32,
    /// Win rate against the benchmark that ends the run (the Othello ENN paper: 75%); 1.0 is
    /// no gate, the run spends its whole budget (see [`EvolveConfig::gate_passed_by`]).
    pub gate: f64,
    /// `Some(K)`: keep only the newest K checkpoints (a 64-42-1 population of 20 takes
    /// about 0.45 MB per generation, the default n-tuple network 5 MB); `None` keeps them
    /// all. The one setting besides the budget that `--resume` may change.
    pub keep_checkpoints: Option<u32>,
    /// `Some(K)`: keep every K-th generation's offered network in `snapshots/`, so that
    /// `evoboard ratings --run` can rate the run's progress on an absolute scale. Like
    /// `keep_checkpoints` it changes no result, so `--resume` may change it.
    #[serde(default)]
    pub snapshots: Option<u32>,
    /// TD learning games each individual plays per generation (0: no TD learning).
    pub td_games: usize,
    /// TD step size α (of the first generation, when it decays).
    pub learning_rate: f32,
    /// `Some(α_end)`: α decays geometrically from `learning_rate` in generation 1 to α_end
    /// in generation `decay_generations`, and stays there. Large steps learn fast but
    /// leave the weights jittering around what they learned; small steps settle them.
    #[serde(default)]
    pub learning_rate_end: Option<f32>,
    /// Generations over which α decays (set from the budget when the run is created, so
    /// that raising the budget on resume does not change the schedule already played).
    #[serde(default)]
    pub decay_generations: u32,
    /// Probability ε of a random move by the learner in TD games.
    pub exploration: f64,
    /// Whether TD learns from the learner's random moves too (see
    /// [`TdSettings::learn_exploring`](crate::learn::td::TdSettings::learn_exploring)).
    #[serde(default)]
    pub learn_exploring: bool,
    /// λ of the learners' TD(λ) (0: TD(0)).
    #[serde(default)]
    pub td_lambda: f32,
    /// TD games played at once against the same weights (see
    /// [`TdSettings::batch`](crate::learn::td::TdSettings::batch)): larger batches keep
    /// more cores busy but learn from weights a few more games old, so the runs differ.
    #[serde(default = "default_td_batch")]
    pub td_batch: usize,
    /// Whether TD learns each position's symmetric images too (see
    /// [`TdSettings::symmetries`](crate::learn::td::TdSettings::symmetries)).
    #[serde(default)]
    pub learn_symmetries: bool,
    /// Plies the learner searches to choose its moves in TD games (see
    /// [`TdSettings::play_depth`](crate::learn::td::TdSettings::play_depth)).
    #[serde(default = "one")]
    pub td_play_depth: u32,
    /// Random plies from the start that make each TD game's opening.
    pub td_opening_plies: u32,
    /// Sparring partners (agent specs) of TD games.
    pub sparring: Vec<String>,
    /// Share of TD games played against a sparring partner (the rest is self-play).
    pub sparring_share: f64,
    /// What teaches TD learners' positions their targets, instead of the learner's own
    /// value one move later: a champion file, whose network every position learns
    /// (distillation); `exact:SEEDS`, the exact result of every position with at most
    /// SEEDS seeds on the board (Kalah: an endgame database built when the run starts); or
    /// `search:DEPTH`, the value the learner's own alpha-beta search of DEPTH plies finds.
    #[serde(default)]
    pub teacher: Option<String>,
    /// Plies a teacher network searches for each target (0: its static value; see
    /// [`NetworkTeacher`](crate::learn::teacher::NetworkTeacher)).
    #[serde(default)]
    pub teacher_depth: u32,
    /// The temperature at which a teacher network's order of each learning position's
    /// moves is taught too (see [`crate::learn::ranking`]; 0: values only).
    #[serde(default)]
    pub teacher_ranking: f32,
    /// A champion file whose network every individual of generation 0 starts from (or
    /// CMA-ES's first mean) instead of a random one: to continue learning from a champion
    /// with another learner. Needed until the first checkpoint is written.
    #[serde(default)]
    pub start_from: Option<String>,
    /// Probability with which the run's networks play a random move in every game that
    /// scores them (fitness, benchmark, final selection; not TD's learning games): 0.1,
    /// at one ply against `wpc:1@0.1` from the start position, makes those games the
    /// Othello League's, so that the League measure itself can be the fitness.
    #[serde(default)]
    pub play_epsilon: f64,
    /// Fitness games each individual plays against each sparring partner per generation
    /// (colours alternating, openings shared by the whole population; 0: none).
    #[serde(default)]
    pub sparring_games: usize,
    /// Whether every individual's sparring game k of a generation draws its random moves
    /// (its own under `play_epsilon`, and a partner's such as `wpc:1@0.1`) from the same
    /// stream, not one of its own: two individuals that would move alike then play the
    /// same game, so their fitness differs only where their moves do (common random
    /// numbers).
    #[serde(default)]
    pub common_random_moves: bool,
    /// Best benchmarked networks kept as candidates; when the run ends, each plays
    /// `selection_games` on openings used nowhere else, and the best becomes the champion.
    pub candidates: usize,
    pub selection_games: usize,
}

/// The most memory a run may take at its peak (see [`EvolveConfig::memory_bound`]): checked
/// before anything is allocated.
pub const MAX_RUN_BYTES: usize = 4 << 30;

/// What every run takes whatever its settings: the program, its libraries and its
/// allocator's slack (measured: under 20 MB resident).
const BASE_BYTES: usize = 64 << 20;

/// What each thread takes: its search's transposition table (6 MiB), its stack and its
/// learning games' buffers.
const THREAD_BYTES: usize = 12 << 20;

/// What each player of a league holds besides its network: the agent, its label, the
/// shared pointer.
const PLAYER_BYTES: usize = 256;

/// An allowance for a game's record in a benchmark or the final test (its moves and the
/// time each took).
const RECORD_BYTES: usize = 8 << 10;

/// The modern preset's bound on self-adapted steps, as a multiple of the initial step.
pub const MODERN_SIGMA_BOUND: f32 = 5.0;

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

fn whole() -> f64 {
    1.0
}

/// The batch of every run made before the batch was a setting.
fn default_td_batch() -> usize {
    DEFAULT_TD_BATCH
}

/// TD games played at once against the same weights unless a run says otherwise.
pub const DEFAULT_TD_BATCH: usize = 16;

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

    /// The TD step size of `generation` (1-based; see `learning_rate_end`).
    pub fn learning_rate_at(&self, generation: u32) -> f32 {
        match self.learning_rate_end {
            Some(end) if self.decay_generations > 1 => {
                let progress = f64::from(generation.clamp(1, self.decay_generations) - 1)
                    / f64::from(self.decay_generations - 1);
                let ratio = f64::from(end) / f64::from(self.learning_rate);
                (f64::from(self.learning_rate) * ratio.powf(progress)) as f32
            }
            Some(end) => end,
            None => self.learning_rate,
        }
    }

    /// What `--teacher` names, if anything; an error for a built-in teacher whose size
    /// (`exact:SEEDS`, `search:DEPTH`) is not a whole number in its range.
    pub fn teacher_spec(&self) -> Result<Option<TeacherSpec<'_>>, ConfigError> {
        let Some(teacher) = self.teacher.as_deref() else {
            return Ok(None);
        };
        let exact: fn(u32) -> TeacherSpec<'static> = TeacherSpec::Exact;
        let sized_teachers = [
            (EXACT_TEACHER, "SEEDS", 2, MAX_LATE_SEEDS, exact),
            (
                SEARCH_TEACHER,
                "DEPTH",
                1,
                MAX_TEACHER_DEPTH,
                TeacherSpec::Search,
            ),
        ];
        for (prefix, unit, low, high, spec) in sized_teachers {
            if let Some(size) = teacher.strip_prefix(prefix) {
                return match size.parse() {
                    Ok(size) if (low..=high).contains(&size) => Ok(Some(spec(size))),
                    _ => Err(ConfigError(format!(
                        "{} {prefix}{unit} takes a whole number from {low} to {high}, not '{}'",
                        mark("teacher"),
                        size.escape_debug()
                    ))),
                };
            }
        }
        Ok(Some(TeacherSpec::File(teacher)))
    }

    /// The settings of `generation`'s TD learning games.
    pub fn td_settings(&self, generation: u32) -> crate::learn::td::TdSettings {
        crate::learn::td::TdSettings {
            learning_rate: self.learning_rate_at(generation),
            exploration: self.exploration,
            learn_exploring: self.learn_exploring,
            lambda: self.td_lambda,
            batch: self.td_batch,
            symmetries: self.learn_symmetries,
            play_depth: self.td_play_depth,
            ranking: self.teacher_ranking,
        }
    }

    /// Whether a league (or sparring fitness) ranks the population each generation.
    pub fn evolves(&self) -> bool {
        self.preset.learner().evolves()
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

    /// An upper bound of the memory a run of these settings takes at its peak, with
    /// chromosomes of `genes` weights held as networks of `network_bytes` bytes each (see
    /// [`crate::nn::Architecture::network_bytes`]), a teacher network of `teacher_bytes`,
    /// and `threads` worker threads. Besides the state (population with mutation memory,
    /// hall of fame, champions, candidates, the learner's own state), what a generation
    /// allocates is counted as if it all coexisted, as the allocator may keep memory freed
    /// early in a generation resident (measured: 1,000 CMA-ES samples of 167,265 weights, a
    /// population of 669 MB, peaked at 3.2 GB resident; this bound says 3.9 GB):
    /// - every individual and past champion as a network, and the league's fixtures and
    ///   outcomes;
    /// - the learner's update (CMA-ES's);
    /// - the next population;
    /// - a learner's network with its chromosome copied back, and on several threads the
    ///   second copy of its weights that TD learning applies a batch's updates to;
    /// - the benchmark's and final test's game records;
    /// - the checkpoint's encoding and its copy behind the file's header.
    pub fn memory_bound(
        &self,
        genes: usize,
        network_bytes: usize,
        teacher_bytes: usize,
        threads: usize,
    ) -> usize {
        let chromosome = genes.saturating_mul(std::mem::size_of::<f32>());
        let learner = self.preset.learner();
        let (previous, sigmas) = learner.mutation_memory(self, genes);
        let individual = genes
            .saturating_add(previous)
            .saturating_add(sigmas)
            .saturating_mul(std::mem::size_of::<f32>());
        let population = self
            .population
            .saturating_mul(individual + 3 * std::mem::size_of::<Vec<f32>>());
        let (learner_state, learner_update) = learner.state_bytes(self, genes);
        let kept = self
            .hall_of_fame
            .saturating_add(self.candidates)
            .saturating_add(2);
        let state = population
            .saturating_add(kept.saturating_mul(chromosome))
            .saturating_add(learner_state);
        let players = self
            .population
            .saturating_add(self.hall_of_fame)
            .saturating_mul(network_bytes + PLAYER_BYTES);
        let (fitness, next) = if self.evolves() {
            (super::league::fitness_bytes(self), population)
        } else {
            (0, 0)
        };
        // The learning networks, and each learning game's result of one individual.
        let learning = network_bytes.saturating_mul(1 + usize::from(threads > 1))
            + chromosome
            + self
                .td_games
                .saturating_mul(std::mem::size_of::<Option<i32>>());
        let records = self
            .bench_games
            .max(self.selection_games)
            .saturating_mul(RECORD_BYTES);
        let saving = state.saturating_mul(2);
        [
            teacher_bytes,
            threads.saturating_add(1).saturating_mul(THREAD_BYTES),
            state,
            players,
            fitness,
            learner_update,
            next,
            learning,
            records,
            saving,
        ]
        .into_iter()
        .fold(BASE_BYTES, usize::saturating_add)
    }

    /// Checks that the run fits in [`MAX_RUN_BYTES`] (see [`EvolveConfig::memory_bound`]
    /// for the arguments).
    pub fn check_memory(
        &self,
        genes: usize,
        network_bytes: usize,
        teacher_bytes: usize,
        threads: usize,
    ) -> Result<(), ConfigError> {
        let bytes = self.memory_bound(genes, network_bytes, teacher_bytes, threads);
        if bytes > MAX_RUN_BYTES {
            return Err(ConfigError(format!(
                "{} individuals of {genes} weights would take up to {} MB, over the limit of {} MB: use a smaller {}, network, {} or {}{}",
                self.population,
                bytes >> 20,
                MAX_RUN_BYTES >> 20,
                mark("population"),
                mark("bench_games"),
                mark("td_games"),
                if self.evolves() && self.league_sample.is_none() {
                    format!(" (or a {})", mark("league_sample"))
                } else {
                    String::new()
                }
            )));
        }
        Ok(())
    }

    /// Checks every setting against its bounds ([`SETTINGS`]), then the settings against
    /// each other. Errors name settings by [`mark`].
    pub fn validate(&self) -> Result<(), ConfigError> {
        let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(self) else {
            unreachable!("a configuration serialises to an object")
        };
        for setting in SETTINGS {
            setting.check(fields.get(setting.name).unwrap_or(&serde_json::Value::Null))?;
        }
        let fail = |m: String| Err(ConfigError(m));
        let teacher_file = matches!(self.teacher_spec()?, Some(TeacherSpec::File(_)));
        let needs = |what: &str, needed: &str| fail(format!("{} needs {}", mark(what), needed));
        if self.evolves() && self.population < 2 {
            return fail(format!(
                "an evolving population needs at least 2 individuals, not {} {}",
                mark("population"),
                self.population
            ));
        }
        if self.preset.learner().learns() && self.td_games == 0 {
            return fail(format!(
                "the {} preset learns from TD games: {} must be at least 1",
                self.preset,
                mark("td_games")
            ));
        }
        if self.sparring_share > 0.0 && self.sparring.is_empty() {
            return needs("sparring_share", &format!("{} partners", mark("sparring")));
        }
        if self.sparring_games > 0 && self.sparring.is_empty() {
            return needs("sparring_games", &format!("{} partners", mark("sparring")));
        }
        if self.common_random_moves && self.sparring_games == 0 {
            return needs(
                "common_random_moves",
                &format!(
                    "fitness games against sparring partners ({})",
                    mark("sparring_games")
                ),
            );
        }
        let learning_games = format!("TD learning games ({})", mark("td_games"));
        if self.teacher.is_some() && self.td_games == 0 {
            return needs("teacher", &learning_games);
        }
        if self.learn_symmetries && self.td_games == 0 {
            return needs("learn_symmetries", &learning_games);
        }
        if self.teacher_depth > 0 && !teacher_file {
            return needs(
                "teacher_depth",
                &format!("a {} champion file to search with", mark("teacher")),
            );
        }
        if self.teacher_ranking != 0.0 && !teacher_file {
            return needs(
                "teacher_ranking",
                &format!("a {} champion file to rank with", mark("teacher")),
            );
        }
        let partners_play = self.sparring_games > 0 || self.hall_of_fame > 0;
        if self.evolves() && !self.league && !partners_play {
            return fail(format!(
                "without the league ({} off) fitness needs {} partners and {}, or a {}",
                mark("league"),
                mark("sparring"),
                mark("sparring_games"),
                mark("hall_of_fame")
            ));
        }
        if self.evolves() && self.elitism >= self.population {
            return fail(format!(
                "{} must be smaller than the {}",
                mark("elitism"),
                mark("population")
            ));
        }
        if self.mean_rate != 1.0 && !matches!(self.preset, Preset::Cmaes | Preset::CoCmaes) {
            return fail(format!(
                "{} moves a CMA-ES mean: it needs the {} cmaes or cocmaes",
                mark("mean_rate"),
                mark("preset")
            ));
        }
        if let Some(k) = self.league_sample
            && k >= self.population
        {
            return fail(format!(
                "{} must be smaller than the {} ({k} ≥ {})",
                mark("league_sample"),
                mark("population"),
                self.population
            ));
        }
        Ok(())
    }

    /// The benchmark win rate that ends the run, if any. A gate of 1.0 is none: a player
    /// that wins 97% of its games wins all of a 100-game benchmark one time in twenty, so
    /// a perfect score would end runs after a random number of generations, not at a
    /// level of play.
    pub fn gate_level(&self) -> Option<f64> {
        (self.gate < 1.0).then_some(self.gate)
    }

    /// Whether a generation's benchmark win rate ends the run (see
    /// [`EvolveConfig::gate_level`]).
    pub fn gate_passed_by(&self, win_rate: f64) -> bool {
        self.gate_level().is_some_and(|gate| win_rate >= gate)
    }
}
