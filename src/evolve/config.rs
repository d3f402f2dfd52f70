//! What an evolution run is: the preset, sizes, budget and benchmark gate.

use crate::search::solve::MAX_LATE_SEEDS;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::evolve::schema::mark;
pub use crate::evolve::schema::{
    ConfigError, MAX_POPULATION, MAX_SPARRING_GAMES, MAX_TD_BATCH, MAX_TD_GAMES, MAX_TD_PLAY_DEPTH,
    MAX_TEACHER_DEPTH,
};

/// The learner a run uses, by the name it is registered under
/// (`evolve::learner::register`): the six built-in learners, each described in its
/// file under `evolve/learner/`, and any a program adds. Stored in `run.json` and
/// checkpoints by name (runs written before learners could be added wrote the built-ins'
/// names capitalised, `Td`, `CoCmaes`: they read as they were).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Preset(&'static str);

impl Preset {
    pub const PAPER: Preset = Preset("paper");
    pub const MODERN: Preset = Preset("modern");
    pub const TD: Preset = Preset("td");
    pub const CTDL: Preset = Preset("ctdl");
    pub const CMAES: Preset = Preset("cmaes");
    pub const COCMAES: Preset = Preset("cocmaes");

    /// The preset's name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Every registered preset, the built-in ones first, in the order help texts list
    /// them.
    pub fn all() -> Vec<Preset> {
        names().clone()
    }

    /// Registers the name of a learner a program adds; a name taken already is refused.
    pub(crate) fn register(name: &'static str) -> Result<Preset, String> {
        let mut names = PRESETS.write().unwrap_or_else(|e| e.into_inner());
        if names.iter().any(|known| known.0.eq_ignore_ascii_case(name)) {
            return Err(format!("a learner named '{name}' is registered already"));
        }
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid {
            return Err(format!(
                "a learner's name is lower-case letters, digits and '-', not '{}'",
                name.escape_debug()
            ));
        }
        names.push(Preset(name));
        Ok(Preset(name))
    }
}

/// The registered presets' names, the built-in ones first.
static PRESETS: std::sync::LazyLock<std::sync::RwLock<Vec<Preset>>> =
    std::sync::LazyLock::new(|| {
        std::sync::RwLock::new(vec![
            Preset::PAPER,
            Preset::MODERN,
            Preset::TD,
            Preset::CTDL,
            Preset::CMAES,
            Preset::COCMAES,
        ])
    });

/// The registered presets.
fn names() -> std::sync::RwLockReadGuard<'static, Vec<Preset>> {
    PRESETS.read().unwrap_or_else(|e| e.into_inner())
}

impl FromStr for Preset {
    type Err = String;
    fn from_str(text: &str) -> Result<Preset, String> {
        let names = names();
        names
            .iter()
            .copied()
            .find(|preset| preset.0.eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                let names: Vec<&str> = names.iter().map(|p| p.0).collect();
                format!(
                    "unknown preset '{}' ({} or {})",
                    text.escape_debug(),
                    names[..names.len() - 1].join(", "),
                    names[names.len() - 1]
                )
            })
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Serialize for Preset {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0)
    }
}

impl<'de> Deserialize<'de> for Preset {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Preset, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
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
pub const DEFAULT_PRESET: Preset = Preset::TD;

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
    /// How the run's networks play each sparring partner's fitness games, one entry per
    /// partner, `DEPTH` or `DEPTH@EPS` (empty: `depth` and `play_epsilon` for every
    /// partner): a fitness that mixes protocols, such as the League's one-ply games with
    /// random moves against one partner and deeper games against another.
    /// Left out of files when empty, so the checkpoints of runs that never set it keep
    /// their bytes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sparring_play: Vec<String>,
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

/// The batch the docs recommend for speed on several threads: the threads meet once a
/// batch, so a larger one keeps them busier, and over five seeds of Othello it learns as
/// well as the default (`experiments/othello-td-batch.toml`). `evoboard bench` reports the
/// 2-thread speed-up at both.
pub const FAST_TD_BATCH: usize = 64;

impl EvolveConfig {
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
