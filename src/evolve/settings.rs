//! A run's settings set by name, as `run.json` names them: how experiment plans and the
//! Python package set them over a preset's defaults (the command line has its own flags),
//! and the settings that those the user gave imply.

use serde_json::Value;

use crate::evolve::config::{EvolveConfig, NetworkChoice};

/// `config` with each `(name, value)` set (a `-` in a name may stand for `_`). Each value is
/// checked on its own, so an unknown name or a value of the wrong kind is named; a network
/// may be written as on the command line (`ntuple:SET`). The result is not yet validated
/// as a whole (see [`EvolveConfig::validate`]) and implies nothing (see
/// [`EvolveConfig::imply`]).
pub fn set_named<'a>(
    config: &EvolveConfig,
    named: impl IntoIterator<Item = (&'a str, Value)>,
) -> Result<EvolveConfig, String> {
    let Ok(Value::Object(defaults)) = serde_json::to_value(config) else {
        unreachable!("a configuration serialises to an object")
    };
    let mut fields = defaults.clone();
    for (key, value) in named {
        let field = key.replace('-', "_");
        if !defaults.contains_key(&field) {
            return Err(format!(
                "unknown setting '{key}' (settings are named as in run.json)"
            ));
        }
        let value = match (field.as_str(), value) {
            ("network", Value::String(text)) => {
                let network = text
                    .parse::<NetworkChoice>()
                    .map_err(|e| format!("{key}: {e}"))?;
                serde_json::to_value(network).map_err(|e| format!("{key}: {e}"))?
            }
            (_, value) => value,
        };
        let mut alone = defaults.clone();
        alone.insert(field.clone(), value.clone());
        serde_json::from_value::<EvolveConfig>(Value::Object(alone))
            .map_err(|e| format!("{key}: {e}"))?;
        fields.insert(field, value);
    }
    serde_json::from_value(Value::Object(fields)).map_err(|error| error.to_string())
}

impl EvolveConfig {
    /// Sets what the settings the user gave imply, as `evolve`'s flags do: sparring
    /// partners without a share play half of the learning games, and a step that decays
    /// without a span decays over the whole budget. `given(name)` says whether the user set
    /// the setting `name` (named as in `run.json`).
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
    use crate::evolve::config::Preset;
    use serde_json::json;

    #[test]
    fn names_are_those_of_run_json_and_values_are_checked_one_by_one() {
        let base = EvolveConfig::new(Preset::Td);
        let set = set_named(
            &base,
            [
                ("td-lambda", json!(0.5)),
                ("network", json!("ntuple:straight2")),
            ],
        )
        .unwrap();
        assert_eq!(set.td_lambda, 0.5);
        assert_eq!(set.network, NetworkChoice::NTuple("straight2".to_string()));
        let unknown = set_named(&base, [("td_gams", json!(3))]).unwrap_err();
        assert!(
            unknown.starts_with("unknown setting 'td_gams'"),
            "{unknown}"
        );
        let kind = set_named(&base, [("td_lambda", json!("half"))]).unwrap_err();
        assert!(
            kind.starts_with("td_lambda: invalid type: string"),
            "{kind}"
        );
    }

    #[test]
    fn partners_and_a_decaying_step_imply_their_share_and_span() {
        let mut config = EvolveConfig {
            sparring: vec!["random".to_string()],
            learning_rate_end: Some(0.001),
            generations: 30,
            ..EvolveConfig::new(Preset::Td)
        };
        config.imply(|name| name == "sparring" || name == "learning_rate_end");
        assert_eq!((config.sparring_share, config.decay_generations), (0.5, 30));
        let mut chosen = EvolveConfig {
            sparring_share: 0.25,
            decay_generations: 10,
            ..config.clone()
        };
        chosen.imply(|_| true);
        assert_eq!(
            (chosen.sparring_share, chosen.decay_generations),
            (0.25, 10)
        );
    }
}
