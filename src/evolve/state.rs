//! The full state of a run between generations: what every checkpoint holds, and what a
//! resumed run continues from exactly.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::champion::Champion;
use crate::evolve::config::EvolveConfig;
use crate::evolve::population::Individual;
use crate::evolve::stats::GenerationStats;
use crate::nn::{Architecture, check_weights};
use crate::rng::GameRng;

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
    /// What the learner keeps besides the population (see [`LearnerState`]).
    pub learner_state: LearnerState,
}

/// What a learner keeps between generations besides its population — CMA-ES's search
/// distribution, the paper's X(n−1) of each individual, the modern strategy's steps —
/// encoded by the learner ([`LearnerState::of`], [`LearnerState::read`]) and opaque to the
/// rest of a run, which keeps it in every checkpoint. Empty for a learner without state.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LearnerState(Vec<u8>);

impl LearnerState {
    /// The state holding `value`.
    pub fn of<T: Serialize>(value: &T) -> LearnerState {
        LearnerState(crate::persist::encode_message(value))
    }

    /// The value the state holds, or why it holds none of type `T`.
    pub fn read<T: DeserializeOwned>(&self) -> Result<T, String> {
        crate::persist::decode_message(&self.0)
            .ok_or_else(|| "its learner's state cannot be read".to_string())
    }

    /// Whether it holds nothing (a learner without state).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
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
    pub(crate) fn champions(&self) -> impl Iterator<Item = &Champion> {
        self.champion
            .iter()
            .chain(&self.selected)
            .chain(&self.candidates)
    }

    /// Why the state's networks cannot be played, if one of its weights is not usable (see
    /// [`crate::nn::usable_weight`]): checked when a checkpoint is read, and after every
    /// generation, whose learning may have diverged (the learner's own state is checked by
    /// the learner, `Learner::check_state`).
    pub fn check_weights(&self) -> Result<(), String> {
        let individuals = self.population.iter().map(|i| &i.genes);
        let champions = self.champions().map(|c| &c.genes);
        individuals
            .chain(&self.hall_of_fame)
            .chain(champions)
            .try_for_each(|genes| check_weights(genes))
    }
}

/// Serde adapter writing a value as JSON text inside a binary payload: self-describing,
/// so fields with defaults can be added without changing the payload's layout.
pub(crate) mod json_text {
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
