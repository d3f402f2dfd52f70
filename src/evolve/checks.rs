//! Whether a run's settings make sense — each within its bounds (the schema), and against
//! each other and the learner — and whether the run fits in memory: checked wherever a
//! configuration enters (new run, plan, Python, `run.json`, checkpoint).

use crate::evolve::config::{EvolveConfig, Preset, TeacherSpec};
use crate::evolve::learner::Kind;
use crate::evolve::schema::{ConfigError, SETTINGS, mark};

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

impl EvolveConfig {
    /// Whether a league (or sparring fitness) ranks the population each generation.
    pub fn evolves(&self) -> bool {
        matches!(self.preset.learner().kind(), Kind::Population(_))
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
        let population = self
            .population
            .saturating_mul(chromosome + std::mem::size_of::<Vec<f32>>());
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
        self.preset.learner().check(self)?;
        if self.sparring_share > 0.0 && self.sparring.is_empty() {
            return needs("sparring_share", &format!("{} partners", mark("sparring")));
        }
        if self.sparring_games > 0 && self.sparring.is_empty() {
            return needs("sparring_games", &format!("{} partners", mark("sparring")));
        }
        if !self.sparring_play.is_empty() && self.sparring_play.len() != self.sparring.len() {
            return fail(format!(
                "{} names {} plays for {} {} partners: give one per partner",
                mark("sparring_play"),
                self.sparring_play.len(),
                self.sparring.len(),
                mark("sparring")
            ));
        }
        if !self.sparring_play.is_empty() && self.sparring_games == 0 {
            return needs(
                "sparring_play",
                &format!(
                    "fitness games against sparring partners ({})",
                    mark("sparring_games")
                ),
            );
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
        self.check_learner_parameters(&fields)?;
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

    /// Refuses a parameter of other learners set away from its default: the run's learner
    /// would ignore it. `fields` are the settings as `run.json` holds them.
    fn check_learner_parameters(
        &self,
        fields: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), ConfigError> {
        let learner = self.preset.learner();
        let Ok(serde_json::Value::Object(defaults)) =
            serde_json::to_value(EvolveConfig::new(self.preset))
        else {
            unreachable!("a configuration serialises to an object")
        };
        let foreign = SETTINGS.iter().find(|setting| {
            setting.learner_parameter
                && !learner.parameters().contains(&setting.name)
                && fields.get(setting.name) != defaults.get(setting.name)
        });
        let Some(setting) = foreign else {
            return Ok(());
        };
        let users: Vec<String> = crate::evolve::learner::users_of(setting.name)
            .iter()
            .map(Preset::to_string)
            .collect();
        let users = match users.as_slice() {
            [one] => format!("the {one} preset"),
            [init @ .., last] => format!("the {} and {last} presets", init.join(", ")),
            [] => "no registered preset".to_string(),
        };
        Err(ConfigError(format!(
            "{} is a parameter of {users} only: the {} preset does not use it",
            mark(setting.name),
            self.preset
        )))
    }
}
