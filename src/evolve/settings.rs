//! A run's settings as a front end gives them — by name, each in the front end's own
//! spelling ([`schema::find`]) — resolved over a preset's defaults: the one way the command
//! line, experiment plans and the Python package make a configuration, and check what a
//! resumed run may change.

use serde_json::Value;

use crate::eval::NamedEvaluators;
use crate::evolve::config::{DEFAULT_PRESET, EvolveConfig, NetworkChoice, Preset};
use crate::evolve::schema::{self, ConfigError, Kind, Setting, mark};
use crate::evolve::{EvolveError, check_for_game};

/// The settings a front end gave: each `(key, value)` with the key as the user spelled it
/// (a `run.json` name, a flag or a Python keyword) and the value as JSON or as the command
/// line's text.
pub type Given = [(String, Value)];

/// `config` with each given setting set. Each value is checked on its own against its
/// setting's kind and bounds, so an unknown name or a wrong value is named; the result is
/// not yet validated as a whole (see [`EvolveConfig::validate`]) and implies nothing (see
/// [`EvolveConfig::imply`]).
pub fn set_named(config: &EvolveConfig, given: &Given) -> Result<EvolveConfig, ConfigError> {
    let Ok(Value::Object(mut fields)) = serde_json::to_value(config) else {
        unreachable!("a configuration serialises to an object")
    };
    for (setting, value) in parsed(given)? {
        fields.insert(setting.name.to_string(), value);
    }
    serde_json::from_value(Value::Object(fields)).map_err(|error| ConfigError(error.to_string()))
}

/// Each given setting with its value as `run.json` holds it, checked on its own and typed
/// as [`EvolveConfig`] types it (a value that fits the bounds but not the field, such as
/// an unknown network, is refused here by name).
fn parsed(given: &Given) -> Result<Vec<(&'static Setting, Value)>, ConfigError> {
    let mut parsed = Vec::new();
    for (key, value) in given {
        let Some((setting, spelling)) = schema::find(key) else {
            return Err(ConfigError(format!(
                "unknown setting '{}' (settings are named as in run.json, or as evolve's flags)",
                key.escape_debug()
            )));
        };
        let Some(value) = setting.value_from(spelling, value.clone())? else {
            continue;
        };
        parsed.push((setting, typed(setting, value)?));
    }
    Ok(parsed)
}

/// `value` as its setting's field holds it: a network written as on the command line
/// (`ntuple:SET`) as `run.json` writes it, a preset checked against the registry.
fn typed(setting: &Setting, value: Value) -> Result<Value, ConfigError> {
    let named = |error: String| ConfigError(format!("{}: {error}", mark(setting.name)));
    match (setting.kind, &value) {
        (Kind::Network, Value::String(text)) => {
            let network = text.parse::<NetworkChoice>().map_err(named)?;
            serde_json::to_value(network).map_err(|e| named(e.to_string()))
        }
        (Kind::Network, _) => {
            serde_json::from_value::<NetworkChoice>(value.clone())
                .map_err(|e| named(e.to_string()))?;
            Ok(value)
        }
        (Kind::Preset, Value::String(text)) => {
            let preset = text.parse::<Preset>().map_err(named)?;
            serde_json::to_value(preset).map_err(|e| named(e.to_string()))
        }
        _ => Ok(value),
    }
}

/// The settings of a new run of the game at `start`: the defaults of the preset given (or
/// [`DEFAULT_PRESET`]) for the game, every given setting set, what they imply, checked as
/// a whole and for the game ([`check_for_game`]).
pub fn resolve<G: NamedEvaluators>(start: &G, given: &Given) -> Result<EvolveConfig, EvolveError> {
    let settings = parsed(given)?;
    let preset = settings
        .iter()
        .rev()
        .find(|(setting, _)| setting.name == "preset")
        .map_or(Ok(DEFAULT_PRESET), |(_, value)| {
            serde_json::from_value::<Preset>(value.clone())
        })
        .map_err(|error| ConfigError(error.to_string()))?;
    let mut config = set_named(&EvolveConfig::for_game(preset, start), given)?;
    config.imply(|name| settings.iter().any(|(setting, _)| setting.name == name));
    check_for_game(start, &config)?;
    Ok(config)
}

/// The settings of a run stored as `stored`, resumed with `given`: a resumed run keeps its
/// settings, so the given ones may repeat them, and change only those that change no
/// result already played (the schema's `resumable` settings: the budget and the files kept).
pub fn resumed(stored: &EvolveConfig, given: &Given) -> Result<EvolveConfig, ConfigError> {
    let wanted = set_named(stored, given)?;
    let (Ok(Value::Object(old)), Ok(Value::Object(new))) =
        (serde_json::to_value(stored), serde_json::to_value(&wanted))
    else {
        unreachable!("a configuration serialises to an object")
    };
    let changed: Vec<String> = schema::SETTINGS
        .iter()
        .filter(|setting| !setting.resumable && old.get(setting.name) != new.get(setting.name))
        .map(|setting| mark(setting.name))
        .collect();
    if !changed.is_empty() {
        let may: Vec<String> = schema::SETTINGS
            .iter()
            .filter(|setting| setting.resumable)
            .map(|setting| mark(setting.name))
            .collect();
        return Err(ConfigError(format!(
            "a resumed run keeps its own settings (see its run.json), but {} would change; only {} may",
            changed.join(", "),
            may.join(", ")
        )));
    }
    wanted.validate()?;
    Ok(wanted)
}

impl EvolveConfig {
    /// Sets what the settings the user gave imply: sparring partners without a share play
    /// half of the learning games, and a step that decays without a span decays over the
    /// whole budget. `given(name)` says whether the user set the setting `name` (named as
    /// in `run.json`).
    pub fn imply(&mut self, given: impl Fn(&str) -> bool) {
        if given("sparring") && !given("sparring_share") {
            self.sparring_share = 0.5;
        }
        if self.learning_rate_end.is_some() && !given("decay_generations") {
            self.decay_generations = self.generations;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::othello::Othello;
    use serde_json::json;

    fn given(pairs: &[(&str, Value)]) -> Vec<(String, Value)> {
        pairs
            .iter()
            .map(|(key, value)| (key.to_string(), value.clone()))
            .collect()
    }

    #[test]
    fn settings_are_named_in_any_front_ends_spelling_and_checked_one_by_one() {
        let base = EvolveConfig::new(Preset::TD);
        let set = set_named(
            &base,
            &given(&[
                ("td-lambda", json!(0.5)),
                ("network", json!("ntuple:straight2")),
                ("td_depth", json!(2)),
                ("league_openings", json!("3")),
            ]),
        )
        .unwrap();
        assert_eq!(set.td_lambda, 0.5);
        assert_eq!(set.network, NetworkChoice::NTuple("straight2".to_string()));
        assert_eq!((set.td_play_depth, set.league_opening_plies), (2, 3));
        let unknown = set_named(&base, &given(&[("td_gams", json!(3))])).unwrap_err();
        assert!(
            unknown.to_string().contains("unknown setting 'td_gams'"),
            "{unknown}"
        );
        let kind = set_named(&base, &given(&[("td_lambda", json!("half"))])).unwrap_err();
        assert_eq!(
            kind.spelled(schema::as_keyword),
            "lambda_= takes a number from 0 to 1, not 'half'"
        );
    }

    #[test]
    fn partners_and_a_decaying_step_imply_their_share_and_span() {
        let config = resolve(
            &Othello::start(),
            &given(&[
                ("sparring", json!(["random"])),
                ("learning_rate_end", json!(0.001)),
                ("generations", json!(30)),
            ]),
        )
        .unwrap();
        assert_eq!((config.sparring_share, config.decay_generations), (0.5, 30));
        let chosen = resolve(
            &Othello::start(),
            &given(&[
                ("sparring", json!(["random"])),
                ("sparring_share", json!(0.25)),
                ("learning_rate_end", json!(0.001)),
                ("decay_generations", json!(10)),
            ]),
        )
        .unwrap();
        assert_eq!(
            (chosen.sparring_share, chosen.decay_generations),
            (0.25, 10)
        );
    }

    #[test]
    fn a_resumed_run_changes_only_its_budget_and_the_files_it_keeps() {
        let stored = EvolveConfig::for_game(Preset::TD, &Othello::start());
        let longer = resumed(
            &stored,
            &given(&[
                ("generations", json!(80)),
                ("td_games", json!(stored.td_games)),
            ]),
        )
        .unwrap();
        assert_eq!(longer.generations, 80);
        let changed = resumed(
            &stored,
            &given(&[("td_games", json!(7)), ("seed", json!(9))]),
        )
        .unwrap_err();
        assert_eq!(
            changed.spelled(schema::as_flag),
            "a resumed run keeps its own settings (see its run.json), but --seed, --td-games would change; only --generations, --keep-checkpoints, --snapshots may"
        );
    }
}
