//! Every setting of a run, declared once: its name (as `run.json` has it), its flag, its
//! kind and bounds, and what it does. The command line's flags and `--help`, the Python
//! package's keyword arguments, experiment plans' keys and the checks a configuration
//! passes wherever it enters (flags, plan, Python, `run.json`, checkpoint) are all read
//! from [`SETTINGS`], so that a setting means, spells and bounds the same everywhere.
//!
//! Errors about settings ([`ConfigError`]) name them by [`mark`]: the library shows the
//! `run.json` name (what plans write), and each front end respells it in its own terms
//! ([`ConfigError::spelled`]: `--td-games` on the command line, `td_games=` in Python).

use serde_json::Value;

/// One setting of a run.
#[derive(Debug)]
pub struct Setting {
    /// The name in `run.json`, plans and library messages.
    pub name: &'static str,
    /// How the command line sets it (its Python keyword is the flag with `_` for `-`).
    pub flag: Flag,
    /// What values it takes, within which bounds.
    pub kind: Kind,
    /// Whether it may be none (`null` in `run.json`, `None` in Python).
    pub optional: bool,
    /// A word that stands for none where a value is written (`--keep-checkpoints all`).
    pub none_word: Option<&'static str>,
    /// A switch that sets it to none (`--unbounded-steps`).
    pub none_switch: Option<&'static str>,
    /// The placeholder of its value in help texts.
    pub value_name: &'static str,
    /// What it does, in one line.
    pub doc: &'static str,
    /// Where `--help` lists it.
    pub group: Group,
    /// Whether a resumed run may change it (it changes no result already played).
    pub resumable: bool,
    /// Whether it is a parameter of some learners only (`Learner::parameters` says
    /// which): under any other it keeps its default.
    pub learner_parameter: bool,
}

/// How the command line spells a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    /// `--FLAG VALUE`.
    Value(&'static str),
    /// `--FLAG` alone turns a switch on.
    On(&'static str),
    /// `--FLAG` alone turns a switch off (`--no-league`).
    Off(&'static str),
}

impl Flag {
    /// The flag's name, without `--`.
    pub fn name(self) -> &'static str {
        match self {
            Flag::Value(name) | Flag::On(name) | Flag::Off(name) => name,
        }
    }
}

/// The values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Whole { min: u64, max: u64 },
    /// A finite real number from `min` (excluded when `open`) to `max`.
    Real { min: f64, max: f64, open: bool },
    /// On or off.
    Switch,
    /// Text: an agent spec or a path.
    Text,
    /// Up to `most` whole numbers in `min..=max`, written comma-separated.
    Wholes { min: u64, max: u64, most: usize },
    /// Texts (agent specs), written comma-separated.
    Texts,
    /// How a network plays, one per sparring partner: `DEPTH` or `DEPTH@EPS` (a random
    /// move with probability EPS), written comma-separated.
    Plays,
    /// A learner's name (the registry checks it).
    Preset,
    /// `mlp` or `ntuple:SET` (the game checks the set).
    Network,
}

impl Kind {
    /// The kind's name, as the Python package's `settings()` reports it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Whole { .. } => "Whole",
            Kind::Real { .. } => "Real",
            Kind::Switch => "Switch",
            Kind::Text => "Text",
            Kind::Wholes { .. } => "Wholes",
            Kind::Texts => "Texts",
            Kind::Plays => "Plays",
            Kind::Preset => "Preset",
            Kind::Network => "Network",
        }
    }
}

/// The sections `--help` lists settings under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    Run,
    Network,
    Evolution,
    Learning,
    Teacher,
    Benchmark,
    Files,
}

impl Group {
    /// Every group, in the order help lists them.
    pub const ALL: [Group; 7] = [
        Group::Run,
        Group::Network,
        Group::Evolution,
        Group::Learning,
        Group::Teacher,
        Group::Benchmark,
        Group::Files,
    ];

    /// The heading help prints over the group.
    pub fn heading(self) -> &'static str {
        match self {
            Group::Run => "Run",
            Group::Network => "Network",
            Group::Evolution => "Evolution (fitness, selection, mutation)",
            Group::Learning => "TD learning",
            Group::Teacher => "Teachers",
            Group::Benchmark => "Benchmark and champion",
            Group::Files => "Files kept",
        }
    }
}

/// The largest population a run may have: a league of 10,000 already plays ~10⁸ games a
/// generation.
pub const MAX_POPULATION: usize = 10_000;
/// The deepest search a learner may choose its TD moves by: every move of every learning
/// game costs one.
pub const MAX_TD_PLAY_DEPTH: u32 = 4;
/// Most TD learning games per individual and generation: far beyond any preset's, and a
/// bound on what a generation keeps per game.
pub const MAX_TD_GAMES: usize = 10_000_000;
/// Most sparring partners whose fitness games say how the run's networks play them.
pub const MAX_SPARRING_PARTNERS: usize = 64;

/// A network's play against one sparring partner, `DEPTH` or `DEPTH@EPS`: its search depth
/// and its share of random moves (see `sparring_play`), if the text is one.
pub fn parse_play(text: &str) -> Option<(u32, f64)> {
    let (depth, epsilon) = match text.split_once('@') {
        Some((depth, epsilon)) => (depth, epsilon.parse::<f64>().ok()?),
        None => (text, 0.0),
    };
    let depth: u32 = depth.parse().ok()?;
    let fits =
        (1..=crate::arena::spec::UNTIMED_DEPTH).contains(&depth) && (0.0..=1.0).contains(&epsilon);
    fits.then_some((depth, epsilon))
}

/// Most fitness games per individual against each sparring partner and generation.
pub const MAX_SPARRING_GAMES: usize = 100_000;
/// The largest `td_batch`: beyond it the weights a game sees are stale for no more speed.
pub const MAX_TD_BATCH: usize = 4096;
/// Deepest search a learner may be taught by: each learning position costs one search.
pub const MAX_TEACHER_DEPTH: u32 = 8;
/// Most random plies of an opening: longer than any game evoboard plays.
pub const MAX_OPENING_PLIES: u32 = 1_000;
/// Most hidden layers of an MLP.
pub const MAX_HIDDEN_LAYERS: usize = 8;
/// Most games of a benchmark or a final selection per opponent or candidate.
pub const MAX_RUN_GAMES: usize = crate::arena::series::MAX_SERIES_GAMES;
/// Most networks kept as candidates for the final selection.
pub const MAX_CANDIDATES: usize = 1_000;

const U32: u64 = u32::MAX as u64;

const fn whole(min: u64, max: u64) -> Kind {
    Kind::Whole { min, max }
}

const fn share() -> Kind {
    Kind::Real {
        min: 0.0,
        max: 1.0,
        open: false,
    }
}

/// A positive step or rate, held as an `f32`.
const fn positive() -> Kind {
    Kind::Real {
        min: 0.0,
        max: f32::MAX as f64,
        open: true,
    }
}

/// A setting with the defaults most have: a plain `--flag VALUE` of its own name, required,
/// fixed on resume.
const fn setting(
    name: &'static str,
    flag: &'static str,
    kind: Kind,
    value_name: &'static str,
    group: Group,
    doc: &'static str,
) -> Setting {
    Setting {
        name,
        flag: Flag::Value(flag),
        kind,
        optional: false,
        none_word: None,
        none_switch: None,
        value_name,
        doc,
        group,
        resumable: false,
        learner_parameter: false,
    }
}

/// The same, for a switch turned on by its flag.
const fn switch(
    name: &'static str,
    flag: &'static str,
    group: Group,
    doc: &'static str,
) -> Setting {
    Setting {
        flag: Flag::On(flag),
        ..setting(name, "", Kind::Switch, "", group, doc)
    }
}

/// Every setting of a run, in the order help lists them within their groups.
pub static SETTINGS: &[Setting] = &[
    setting(
        "preset",
        "preset",
        Kind::Preset,
        "NAME",
        Group::Run,
        "The learner that trains the network",
    ),
    setting(
        "generations",
        "generations",
        whole(1, U32),
        "N",
        Group::Run,
        "Generation budget; a resumed run may raise it to go on",
    )
    .resumable(),
    setting(
        "seed",
        "seed",
        whole(0, u64::MAX),
        "SEED",
        Group::Run,
        "Run seed: the same seed gives the same run, whatever the number of threads",
    ),
    setting(
        "depth",
        "depth",
        whole(1, crate::arena::spec::UNTIMED_DEPTH as u64),
        "PLIES",
        Group::Run,
        "Search depth of every network player and of the benchmark opponent",
    ),
    setting(
        "population",
        "population",
        whole(1, MAX_POPULATION as u64),
        "P",
        Group::Run,
        "Individuals per generation; a league plays P·(P−1) games a generation (see league_sample)",
    ),
    setting(
        "network",
        "network",
        Kind::Network,
        "mlp|ntuple:SET",
        Group::Network,
        "Network family: an MLP (layers from hidden) or an n-tuple network over a tuple set of the game (Othello: logistello, straight2, straight3, straight4, squares2, straight4-squares2, each optionally with +discs, +mobility and/or +wipeout; Kalah, Oware and Congklak: singles, pairs, triples, quads, all-pairs, all-pairs-triples, all-triples, with +stores, +store-counts, +rows, +moves, +threats, +turn)",
    ),
    setting(
        "hidden",
        "hidden",
        Kind::Wholes {
            min: 1,
            max: crate::nn::MAX_WIDTH as u64,
            most: MAX_HIDDEN_LAYERS,
        },
        "UNITS,...",
        Group::Network,
        "Hidden layer sizes of an MLP, comma-separated",
    ),
    setting(
        "start_from",
        "start-from",
        Kind::Text,
        "PATH",
        Group::Network,
        "A champion file whose network generation 0 starts from instead of a random one (TD's network, each founder, CMA-ES's first mean); needed until the first checkpoint",
    )
    .optional(),
    Setting {
        flag: Flag::Off("no-league"),
        ..setting(
            "league",
            "",
            Kind::Switch,
            "",
            Group::Evolution,
            "The league: individuals play each other (off: fitness comes from the sparring partners and the hall of fame alone)",
        )
    },
    setting(
        "league_sample",
        "league-sample",
        whole(1, MAX_POPULATION as u64 - 1),
        "K",
        Group::Evolution,
        "Each individual plays K seeded opponents with both colours instead of everyone (2·K·P games instead of P·(P−1))",
    )
    .optional(),
    setting(
        "league_opening_plies",
        "league-openings",
        whole(0, MAX_OPENING_PLIES as u64),
        "PLIES",
        Group::Evolution,
        "Random plies from the start that make each league game's opening",
    ),
    setting(
        "hall_of_fame",
        "hall-of-fame",
        whole(0, MAX_POPULATION as u64),
        "K",
        Group::Evolution,
        "Past champions every individual also plays, with both colours",
    ),
    setting(
        "elitism",
        "elitism",
        whole(0, MAX_POPULATION as u64 - 1),
        "K",
        Group::Evolution,
        "Best individuals copied unchanged into the next generation",
    )
    .of_some_learners(),
    setting(
        "mutation_probability",
        "mutation-probability",
        share(),
        "P",
        Group::Evolution,
        "Chance p that an offspring mutates, also the paper's step factor",
    )
    .of_some_learners(),
    setting(
        "initial_sigma",
        "initial-sigma",
        positive(),
        "SIGMA",
        Group::Evolution,
        "Initial mutation step σ: of the self-adapted steps, or of the CMA-ES distribution",
    )
    .of_some_learners(),
    Setting {
        none_switch: Some("unbounded-steps"),
        ..setting(
            "sigma_bound",
            "sigma-bound",
            positive(),
            "MULTIPLE",
            Group::Evolution,
            "The largest a self-adapted step may grow, as a multiple of initial_sigma (none: unbounded, as runs made before the bound; unbounded steps drift up until the sigmoids saturate)",
        )
        .optional()
        .of_some_learners()
    },
    setting(
        "mean_rate",
        "mean-rate",
        Kind::Real {
            min: 0.0,
            max: 1.0,
            open: true,
        },
        "C",
        Group::Evolution,
        "The share of its selected step the CMA-ES mean takes each generation; below 1 the mean averages several generations' steps, so noisy fitness does not make it wander",
    )
    .of_some_learners(),
    setting(
        "sparring",
        "sparring",
        Kind::Texts,
        "SPEC,...",
        Group::Evolution,
        "Sparring partners, comma-separated agent specs (e.g. heuristic:1@0.1): opponents in TD games (sparring_share) and fitness games (sparring_games)",
    ),
    setting(
        "sparring_games",
        "sparring-games",
        whole(0, MAX_SPARRING_GAMES as u64),
        "GAMES",
        Group::Evolution,
        "Fitness games each individual plays against each sparring partner a generation, colours alternating, on openings the population shares",
    ),
    switch(
        "common_random_moves",
        "common-random-moves",
        Group::Evolution,
        "Every individual's sparring game k of a generation draws its random moves from one stream: individuals that would move alike play the same game (common random numbers)",
    ),
    setting(
        "sparring_play",
        "sparring-play",
        Kind::Plays,
        "DEPTH[@EPS],...",
        Group::Evolution,
        "How the run's networks play each sparring partner's fitness games, one per partner in order (e.g. 1@0.1,2: the League's protocol against the first, two plies against the second); none: depth and play_epsilon for all",
    ),
    setting(
        "play_epsilon",
        "play-epsilon",
        share(),
        "EPS",
        Group::Evolution,
        "Probability of a random move by the run's networks in every game that scores them (fitness, benchmark, final selection; not TD's learning games)",
    ),
    setting(
        "td_games",
        "td-games",
        whole(0, MAX_TD_GAMES as u64),
        "GAMES",
        Group::Learning,
        "TD learning games each individual plays a generation (0: no TD learning)",
    ),
    setting(
        "learning_rate",
        "learning-rate",
        positive(),
        "ALPHA",
        Group::Learning,
        "TD step size α (of the first generation, when it decays)",
    ),
    setting(
        "learning_rate_end",
        "learning-rate-end",
        positive(),
        "ALPHA",
        Group::Learning,
        "α decays geometrically from learning_rate to this over decay_generations, then stays",
    )
    .optional(),
    setting(
        "decay_generations",
        "decay-generations",
        whole(0, U32),
        "N",
        Group::Learning,
        "Generations over which α decays to learning_rate_end (0 with learning_rate_end: the budget the run starts with)",
    ),
    setting(
        "exploration",
        "exploration",
        share(),
        "EPS",
        Group::Learning,
        "Probability ε of a random move by the learner in TD games",
    ),
    switch(
        "learn_exploring",
        "learn-exploring",
        Group::Learning,
        "TD learns from the learner's random moves too: the position before one learns the value after it",
    ),
    setting(
        "td_lambda",
        "lambda",
        share(),
        "LAMBDA",
        Group::Learning,
        "λ of TD(λ): each position learns a blend of the targets down the rest of its game (0: TD(0))",
    ),
    setting(
        "td_batch",
        "td-batch",
        whole(1, MAX_TD_BATCH as u64),
        "GAMES",
        Group::Learning,
        "TD games played at once against the same weights: larger batches use threads better but learn from older weights, so the run differs (the thread count never changes it)",
    ),
    switch(
        "learn_symmetries",
        "learn-symmetries",
        Group::Learning,
        "TD learns each position's symmetric images too, for networks that do not share weights between symmetric squares (such as the MLP)",
    ),
    setting(
        "td_play_depth",
        "td-depth",
        whole(1, MAX_TD_PLAY_DEPTH as u64),
        "PLIES",
        Group::Learning,
        "Plies the learner searches to choose its moves in TD games (1: the greedy choice)",
    ),
    setting(
        "td_opening_plies",
        "td-openings",
        whole(0, MAX_OPENING_PLIES as u64),
        "PLIES",
        Group::Learning,
        "Random plies that make each TD game's opening",
    ),
    setting(
        "sparring_share",
        "sparring-share",
        share(),
        "SHARE",
        Group::Learning,
        "Share of TD games played against a sparring partner, the rest self-play (0.5 when sparring is given without it)",
    ),
    setting(
        "teacher",
        "teacher",
        Kind::Text,
        "PATH|exact:SEEDS|search:DEPTH",
        Group::Teacher,
        "What teaches TD positions their targets: a champion file (its network's values), exact:SEEDS (Kalah: exact results with at most SEEDS seeds on the board) or search:DEPTH (the learner's own alpha-beta search)",
    )
    .optional(),
    setting(
        "teacher_depth",
        "teacher-depth",
        whole(0, MAX_TEACHER_DEPTH as u64),
        "PLIES",
        Group::Teacher,
        "Plies a teacher champion file searches for each target (0: its static value)",
    ),
    setting(
        "teacher_ranking",
        "teacher-ranking",
        share(),
        "T",
        Group::Teacher,
        "With a teacher champion file: the temperature at which each position's moves also learn the teacher's order of them (0: values only)",
    ),
    setting(
        "bench_games",
        "bench-games",
        whole(0, MAX_RUN_GAMES as u64),
        "GAMES",
        Group::Benchmark,
        "Benchmark games a generation of its best network against each benchmark opponent (0: none)",
    ),
    setting(
        "bench_opponents",
        "bench-opponents",
        Kind::Texts,
        "SPEC,...",
        Group::Benchmark,
        "Benchmark opponents, comma-separated agent specs, or `panel` for the paper's panel at depth; the first decides the gate and the champion (none: heuristic at depth)",
    ),
    setting(
        "bench_opening_plies",
        "bench-openings",
        whole(0, MAX_OPENING_PLIES as u64),
        "PLIES",
        Group::Benchmark,
        "Random plies that make each benchmark opening",
    ),
    setting(
        "gate",
        "gate",
        share(),
        "WIN_RATE",
        Group::Benchmark,
        "Benchmark win rate that ends the run (1: no gate, the whole budget is played)",
    ),
    setting(
        "candidates",
        "candidates",
        whole(1, MAX_CANDIDATES as u64),
        "K",
        Group::Benchmark,
        "Best benchmarked networks kept as candidates for the final selection of the champion",
    ),
    setting(
        "selection_games",
        "selection-games",
        whole(0, MAX_RUN_GAMES as u64),
        "GAMES",
        Group::Benchmark,
        "Games each candidate plays on openings of its own in the final selection (0: none)",
    ),
    Setting {
        none_word: Some("all"),
        ..setting(
            "keep_checkpoints",
            "keep-checkpoints",
            whole(1, U32),
            "K|all",
            Group::Files,
            "Keep only the newest K checkpoints (about 0.45 MB for 20 64-42-1 networks, 5 MB for the default n-tuple network), or all",
        )
        .optional()
        .resumable()
    },
    setting(
        "snapshots",
        "snapshots",
        whole(1, U32),
        "K",
        Group::Files,
        "Keep every K-th generation's benchmarked network in snapshots/, so that `evoboard ratings` can rate the run's progress",
    )
    .optional()
    .resumable(),
];

impl Setting {
    const fn optional(self) -> Setting {
        Setting {
            optional: true,
            ..self
        }
    }

    const fn resumable(self) -> Setting {
        Setting {
            resumable: true,
            ..self
        }
    }

    const fn of_some_learners(self) -> Setting {
        Setting {
            learner_parameter: true,
            ..self
        }
    }

    /// Its Python keyword: the flag with `_` for `-`, and a `_` after a word Python
    /// reserves (`lambda_`).
    pub fn keyword(&self) -> String {
        let keyword = self.flag.name().replace('-', "_");
        match keyword.as_str() {
            "lambda" => "lambda_".to_string(),
            _ => keyword,
        }
    }

    /// Whether `value`, this setting's value as `run.json` holds it, lies within its
    /// kind and bounds; an error names the setting.
    pub fn check(&self, value: &Value) -> Result<(), ConfigError> {
        if value.is_null() && self.kind == Kind::Plays {
            return Ok(()); // left out of files when empty
        }
        if value.is_null() {
            return match self.optional {
                true => Ok(()),
                false => Err(ConfigError(format!(
                    "{} takes {}, not a missing or non-finite value",
                    mark(self.name),
                    self.accepts()
                ))),
            };
        }
        let fits = match self.kind {
            Kind::Whole { min, max } => value.as_u64().is_some_and(|v| (min..=max).contains(&v)),
            Kind::Real { min, max, open } => value
                .as_f64()
                .is_some_and(|v| v.is_finite() && v <= max && (v > min || (!open && v == min))),
            Kind::Switch => value.is_boolean(),
            Kind::Text | Kind::Preset => value.is_string(),
            Kind::Network => value.is_string() || value.is_object(),
            Kind::Wholes { min, max, most } => value.as_array().is_some_and(|items| {
                items.len() <= most
                    && items
                        .iter()
                        .all(|v| v.as_u64().is_some_and(|v| (min..=max).contains(&v)))
            }),
            Kind::Texts => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            Kind::Plays => value.as_array().is_some_and(|items| {
                items.len() <= MAX_SPARRING_PARTNERS
                    && items
                        .iter()
                        .all(|item| item.as_str().and_then(parse_play).is_some())
            }),
        };
        match fits {
            true => Ok(()),
            false => Err(ConfigError(format!(
                "{} takes {}, not {}",
                mark(self.name),
                self.accepts(),
                shown(value)
            ))),
        }
    }

    /// What values it takes, in words.
    pub fn accepts(&self) -> String {
        let none = match (self.optional, self.none_word) {
            (_, Some(word)) => format!(", or {word}"),
            (true, None) => ", or none".to_string(),
            (false, None) => String::new(),
        };
        let what = match self.kind {
            Kind::Whole { min, max } if max == u64::MAX || max == U32 => {
                format!("a whole number of at least {min}")
            }
            Kind::Whole { min, max } => format!("a whole number from {min} to {max}"),
            Kind::Real { min, max, open } if max >= f32::MAX as f64 => match open {
                true => format!("a number above {min}"),
                false => format!("a number of at least {min}"),
            },
            Kind::Real { min, max, open } => match open {
                true => format!("a number above {min} and at most {max}"),
                false => format!("a number from {min} to {max}"),
            },
            Kind::Switch => "true or false".to_string(),
            Kind::Text => "text".to_string(),
            Kind::Wholes { min, max, most } => {
                format!("up to {most} whole numbers from {min} to {max}")
            }
            Kind::Texts => "a list of agent specs".to_string(),
            Kind::Plays => format!(
                "up to {MAX_SPARRING_PARTNERS} of DEPTH (1 to {}) or DEPTH@EPS (EPS from 0 to 1)",
                crate::arena::spec::UNTIMED_DEPTH
            ),
            Kind::Preset => "a preset's name".to_string(),
            Kind::Network => "mlp or ntuple:SET".to_string(),
        };
        what + &none
    }

    /// Its value from `text` as the command line writes it (a list comma-separated, none
    /// as its word), before [`Setting::check`].
    pub fn parse_text(&self, text: &str) -> Result<Value, ConfigError> {
        if self.none_word == Some(text) {
            return Ok(Value::Null);
        }
        let wrong = || {
            ConfigError(format!(
                "{} takes {}, not '{}'",
                mark(self.name),
                self.accepts(),
                text.escape_debug()
            ))
        };
        let whole = |item: &str| item.trim().parse::<u64>().map(Value::from);
        Ok(match self.kind {
            Kind::Whole { .. } => whole(text).map_err(|_| wrong())?,
            Kind::Real { .. } => text
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(serde_json::Number::from_f64)
                .map(Value::Number)
                .ok_or_else(wrong)?,
            Kind::Switch => text.parse::<bool>().map(Value::Bool).map_err(|_| wrong())?,
            Kind::Text | Kind::Preset | Kind::Network => Value::String(text.to_string()),
            Kind::Wholes { .. } if text.is_empty() => Value::Array(Vec::new()),
            Kind::Wholes { .. } => Value::Array(
                text.split(',')
                    .map(whole)
                    .collect::<Result<_, _>>()
                    .map_err(|_| wrong())?,
            ),
            Kind::Texts | Kind::Plays if text.is_empty() => Value::Array(Vec::new()),
            Kind::Texts | Kind::Plays => Value::Array(
                text.split(',')
                    .map(|item| Value::String(item.to_string()))
                    .collect(),
            ),
        })
    }

    /// The value a front end gave under `spelling`, as `run.json` holds it: text parsed as
    /// the command line's ([`Setting::parse_text`]), a switch that turns the setting off or
    /// to none applied. `None`: the spelling leaves the setting as it is (a none switch
    /// given as false).
    pub fn value_from(
        &self,
        spelling: Spelling,
        value: Value,
    ) -> Result<Option<Value>, ConfigError> {
        let value = match (spelling, value) {
            (Spelling::NoneSwitch, Value::Bool(true)) => return Ok(Some(Value::Null)),
            (Spelling::NoneSwitch, Value::Bool(false)) => return Ok(None),
            (Spelling::NoneSwitch, other) => {
                return Err(ConfigError(format!(
                    "{} takes true or false, not {}",
                    self.none_switch.unwrap_or(self.name),
                    shown(&other)
                )));
            }
            (_, Value::String(text)) if !matches!(self.kind, Kind::Text | Kind::Preset) => {
                self.parse_text(&text)?
            }
            (Spelling::Flag, Value::Bool(on)) if matches!(self.flag, Flag::Off(_)) => {
                Value::Bool(!on)
            }
            (_, value) => value,
        };
        self.check(&value)?;
        Ok(Some(value))
    }
}

/// How a front end named a setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// By its `run.json` name.
    Name,
    /// By its flag (or Python keyword).
    Flag,
    /// By the switch that sets it to none.
    NoneSwitch,
}

/// The setting named `key` — by its `run.json` name, its flag or its Python keyword (`-`
/// and `_` alike, a trailing `_` dropped), or the switch that sets it to none — and how it
/// was named.
pub fn find(key: &str) -> Option<(&'static Setting, Spelling)> {
    let key = key.replace('-', "_");
    let key = key.strip_suffix('_').unwrap_or(&key);
    let same = |name: &str| name.replace('-', "_") == key;
    SETTINGS.iter().find_map(|setting| {
        if setting.name == key {
            Some((setting, Spelling::Name))
        } else if same(setting.flag.name()) {
            Some((setting, Spelling::Flag))
        } else if setting.none_switch.is_some_and(same) {
            Some((setting, Spelling::NoneSwitch))
        } else {
            None
        }
    })
}

/// The setting whose `run.json` name is `name`.
pub fn named(name: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|setting| setting.name == name)
}

/// `value` as help texts and messages write it: numbers as they are, a switch on or off,
/// lists comma-separated, none as `none`, an n-tuple network as `ntuple:SET`.
pub fn shown(value: &Value) -> String {
    match value {
        Value::Null => "none".to_string(),
        Value::Bool(true) => "on".to_string(),
        Value::Bool(false) => "off".to_string(),
        Value::String(text) => text.clone(),
        Value::Array(items) if items.is_empty() => "none".to_string(),
        Value::Array(items) => items.iter().map(shown).collect::<Vec<_>>().join(","),
        Value::Object(fields) => fields
            .iter()
            .map(|(key, value)| format!("{key}:{}", shown(value)))
            .collect::<Vec<_>>()
            .join(","),
        // An `f32` setting is held as the `f64` nearest it: written as the `f32` it is.
        Value::Number(number) => match number.as_f64() {
            Some(real) if number.is_f64() && f64::from(real as f32) == real => {
                (real as f32).to_string()
            }
            Some(real) if number.is_f64() => real.to_string(),
            _ => number.to_string(),
        },
    }
}

/// A setting that makes no sense. Its message names settings by [`mark`], which
/// `Display` shows as their `run.json` names and [`ConfigError::spelled`] in a front
/// end's terms.
#[derive(Debug, thiserror::Error)]
#[error("invalid evolution setting: {}", self.spelled(|setting| setting.name.to_string()))]
pub struct ConfigError(pub String);

const MARK_OPEN: char = '\u{2039}';
const MARK_CLOSE: char = '\u{203a}';

/// `name` marked as a setting's in a [`ConfigError`]'s message.
pub fn mark(name: &str) -> String {
    debug_assert!(named(name).is_some(), "{name} is no setting");
    format!("{MARK_OPEN}{name}{MARK_CLOSE}")
}

impl ConfigError {
    /// The message with each setting it names written by `spell` (a name that is no
    /// setting's stays as it is).
    pub fn spelled(&self, spell: impl Fn(&Setting) -> String) -> String {
        let mut text = String::with_capacity(self.0.len());
        let mut rest = self.0.as_str();
        while let Some((before, after)) = rest.split_once(MARK_OPEN) {
            text.push_str(before);
            match after.split_once(MARK_CLOSE) {
                Some((name, after)) => {
                    match named(name) {
                        Some(setting) => text.push_str(&spell(setting)),
                        None => text.push_str(name),
                    }
                    rest = after;
                }
                None => {
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        text
    }
}

/// How the command line writes a setting: its flag (`--td-games`).
pub fn as_flag(setting: &Setting) -> String {
    format!("--{}", setting.flag.name())
}

/// How Python writes a setting: its keyword (`td_games=`).
pub fn as_keyword(setting: &Setting) -> String {
    format!("{}=", setting.keyword())
}

/// A one-line summary of a setting's default over presets and games, for help: `rows` are
/// `(preset, game, default)`, in the order presets and games are listed. The same value
/// everywhere is written alone; otherwise per preset (presets with the same defaults
/// together, the most common last as "others"), per game within a preset where the games
/// differ.
pub fn describe_defaults(rows: &[(&str, &str, Value)]) -> String {
    let mut presets: Vec<&str> = Vec::new();
    for (preset, _, _) in rows {
        if !presets.contains(preset) {
            presets.push(preset);
        }
    }
    let per_preset: Vec<(&str, String)> = presets
        .iter()
        .map(|&preset| {
            let games: Vec<(&str, String)> = rows
                .iter()
                .filter(|(p, _, _)| *p == preset)
                .map(|(_, game, value)| (*game, shown(value)))
                .collect();
            (preset, by_value(&games, "for"))
        })
        .collect();
    let mut groups: Vec<(Vec<&str>, String)> = Vec::new();
    for (preset, text) in per_preset {
        match groups.iter_mut().find(|(_, t)| *t == text) {
            Some((names, _)) => names.push(preset),
            None => groups.push((vec![preset], text)),
        }
    }
    if groups.len() == 1 {
        return groups.remove(0).1;
    }
    let largest = (0..groups.len())
        .max_by_key(|&i| (groups[i].0.len(), std::cmp::Reverse(i)))
        .unwrap_or(0);
    let others = groups.remove(largest);
    let mut parts: Vec<String> = groups
        .into_iter()
        .map(|(names, text)| format!("{}: {text}", and_list(&names)))
        .collect();
    parts.push(format!("others: {}", others.1));
    parts.join("; ")
}

/// `items` (label, value) grouped by value: "V" when all agree, else "V1 for a and b, V2
/// for c".
fn by_value(items: &[(&str, String)], word: &str) -> String {
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for (label, value) in items {
        match groups.iter_mut().find(|(v, _)| v == value) {
            Some((_, labels)) => labels.push(label),
            None => groups.push((value.clone(), vec![label])),
        }
    }
    if groups.len() == 1 {
        return groups.remove(0).0;
    }
    groups
        .iter()
        .map(|(value, labels)| format!("{value} {word} {}", and_list(labels)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// "a", "a and b", "a, b and c".
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_flags_and_keywords_are_unique_and_found_by_every_spelling() {
        let mut seen = std::collections::HashSet::new();
        for setting in SETTINGS {
            for spelling in [
                setting.name.to_string(),
                setting.flag.name().replace('-', "_"),
                setting.keyword(),
            ] {
                let (found, _) = find(&spelling).unwrap_or_else(|| panic!("{spelling}"));
                assert_eq!(found.name, setting.name, "{spelling}");
            }
            assert!(seen.insert(setting.name), "{} twice", setting.name);
            assert!(
                setting.flag.name() == setting.name.replace('_', "-")
                    || seen.insert(setting.flag.name()),
                "{}",
                setting.flag.name()
            );
        }
        assert_eq!(
            find("td-depth").map(|(s, how)| (s.name, how)),
            Some(("td_play_depth", Spelling::Flag))
        );
        assert_eq!(find("lambda_").map(|(s, _)| s.name), Some("td_lambda"));
        assert_eq!(
            find("unbounded_steps").map(|(s, how)| (s.name, how)),
            Some(("sigma_bound", Spelling::NoneSwitch))
        );
        assert!(find("td_gams").is_none());
    }

    #[test]
    fn values_are_parsed_and_bounded_as_their_kind_says() {
        let (games, _) = find("td_games").unwrap();
        assert_eq!(games.parse_text("300").unwrap(), json!(300));
        let over = games.check(&json!(MAX_TD_GAMES + 1)).unwrap_err();
        assert_eq!(
            over.to_string(),
            format!(
                "invalid evolution setting: td_games takes a whole number from 0 to {MAX_TD_GAMES}, not 10000001"
            )
        );
        assert_eq!(
            over.spelled(as_flag),
            format!("td_games takes a whole number from 0 to {MAX_TD_GAMES}, not 10000001")
                .replace("td_games", "--td-games")
        );
        let (keep, _) = find("keep_checkpoints").unwrap();
        assert_eq!(keep.parse_text("all").unwrap(), Value::Null);
        assert!(keep.check(&json!(0)).is_err());
        let (mean, _) = find("mean_rate").unwrap();
        assert!(mean.check(&json!(0.0)).is_err());
        assert!(mean.check(&json!(1.0)).is_ok());
        let (hidden, _) = find("hidden").unwrap();
        assert_eq!(hidden.parse_text("64,32").unwrap(), json!([64, 32]));
        assert!(hidden.check(&json!([0])).is_err());
        let (league, how) = find("no-league").unwrap();
        assert_eq!(
            league.value_from(how, json!(true)).unwrap(),
            Some(json!(false))
        );
        let (bound, how) = find("unbounded-steps").unwrap();
        assert_eq!(
            bound.value_from(how, json!(true)).unwrap(),
            Some(Value::Null)
        );
        assert_eq!(bound.value_from(how, json!(false)).unwrap(), None);
    }

    #[test]
    fn defaults_are_described_per_preset_and_game_only_where_they_differ() {
        let rows = |values: &[(&'static str, &'static str, Value)]| describe_defaults(values);
        assert_eq!(
            rows(&[
                ("td", "othello", json!(2)),
                ("td", "kalah", json!(2)),
                ("paper", "othello", json!(2))
            ]),
            "2"
        );
        assert_eq!(
            rows(&[
                ("td", "othello", json!(0)),
                ("td", "kalah", json!(10)),
                ("td", "oware", json!(10)),
                ("paper", "othello", json!(0)),
                ("paper", "kalah", json!(0)),
                ("modern", "othello", json!(0)),
                ("modern", "kalah", json!(0)),
            ]),
            "td: 0 for othello, 10 for kalah and oware; others: 0"
        );
    }
}
