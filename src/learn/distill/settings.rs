//! The settings of a distillation fit, declared once in [`SETTINGS`]: each one's name (as
//! `distill.json` and plans write it; the command line's flag is the name with `-` for
//! `_`), the values it takes, its default and what it does. The `distill` command's flags
//! and help, a plan's keys and the checks both pass through are read from the table, so a
//! setting means, spells and bounds the same everywhere.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::learn::distill::fit::{FitSettings, SampleSettings};

/// One setting of a fit.
#[derive(Debug)]
pub struct Setting {
    /// Its name in `distill.json`, plans and library messages.
    pub name: &'static str,
    /// Its flag on the command line, without `--`: the name with `-` for `_`.
    pub flag: &'static str,
    /// What values it takes, within which bounds.
    pub kind: Kind,
    /// Its default as the command line would write it; `None`: a file setting that is
    /// required (`teacher`) or else none.
    pub default: Option<&'static str>,
    /// The placeholder of its value in help texts.
    pub value_name: &'static str,
    /// What it does, in one line.
    pub doc: &'static str,
}

/// The values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Whole { min: u64, max: u64 },
    /// A probability, from 0 to 1 (held as an `f64`).
    Probability,
    /// A step size above 0 and at most 1 (held as an `f32`).
    StepSize,
    /// On or off.
    Switch,
    /// A champion file's path: required, or else none by default.
    File { required: bool },
}

/// Every setting of a fit, in the order help lists them.
pub const SETTINGS: &[Setting] = &[
    Setting {
        name: "teacher",
        flag: "teacher",
        kind: Kind::File { required: true },
        default: None,
        value_name: "FILE",
        doc: "The champion file whose values the student learns",
    },
    Setting {
        name: "teacher_depth",
        flag: "teacher-depth",
        kind: Kind::Whole { min: 0, max: 4 },
        default: Some("0"),
        value_name: "PLIES",
        doc: "Plies the teacher searches for each position's value (0: its static value)",
    },
    Setting {
        name: "hidden",
        flag: "hidden",
        kind: Kind::Whole { min: 1, max: 128 },
        default: Some("42"),
        value_name: "UNITS",
        doc: "Hidden units of the student (one hidden layer, sigmoid, as the Othello ENN paper's 64-42-1)",
    },
    Setting {
        name: "start_from",
        flag: "start-from",
        kind: Kind::File { required: false },
        default: None,
        value_name: "FILE",
        doc: "A champion MLP of the same shape to start from, instead of Nguyen-Widrow weights",
    },
    Setting {
        name: "positions",
        flag: "positions",
        kind: Kind::Whole {
            min: 1,
            max: 20_000_000,
        },
        default: Some("1000000"),
        value_name: "N",
        doc: "Training positions",
    },
    Setting {
        name: "validation_positions",
        flag: "validation-positions",
        kind: Kind::Whole {
            min: 1,
            max: 2_000_000,
        },
        default: Some("50000"),
        value_name: "N",
        doc: "Validation positions (other games), which choose the epoch kept",
    },
    Setting {
        name: "sample_with",
        flag: "sample-with",
        kind: Kind::File { required: false },
        default: None,
        value_name: "FILE",
        doc: "A champion file whose network plays the sampling games instead of the teacher's (e.g. the student's own start, so that it learns on the positions it reaches)",
    },
    Setting {
        name: "opening_plies",
        flag: "opening-plies",
        kind: Kind::Whole { min: 0, max: 400 },
        default: Some("8"),
        value_name: "PLIES",
        doc: "Random plies that open each sampling game",
    },
    Setting {
        name: "exploration",
        flag: "exploration",
        kind: Kind::Probability,
        default: Some("0.1"),
        value_name: "P",
        doc: "Probability that the teacher plays a random move in its sampling games",
    },
    Setting {
        name: "epochs",
        flag: "epochs",
        kind: Kind::Whole {
            min: 1,
            max: 10_000,
        },
        default: Some("20"),
        value_name: "N",
        doc: "Passes over the training positions",
    },
    Setting {
        name: "minibatch",
        flag: "minibatch",
        kind: Kind::Whole {
            min: 1,
            max: 65_536,
        },
        default: Some("256"),
        value_name: "N",
        doc: "Positions per gradient step",
    },
    Setting {
        name: "learning_rate",
        flag: "learning-rate",
        kind: Kind::StepSize,
        default: Some("0.001"),
        value_name: "STEP",
        doc: "Adam's step size in the first epoch",
    },
    Setting {
        name: "learning_rate_end",
        flag: "learning-rate-end",
        kind: Kind::StepSize,
        default: Some("0.0001"),
        value_name: "STEP",
        doc: "Adam's step size in the last epoch (geometric in between)",
    },
    Setting {
        name: "search_leaves",
        flag: "search-leaves",
        kind: Kind::Switch,
        default: Some("false"),
        value_name: "",
        doc: "Fit the leaves of each sampled position's 2-ply search as one group, its mean error taken out: the student learns what tells apart the positions a depth-2 player compares, not their level (positions and validation_positions then count leaves)",
    },
    Setting {
        name: "symmetries",
        flag: "symmetries",
        kind: Kind::Switch,
        default: Some("false"),
        value_name: "",
        doc: "Show each position in a symmetric image drawn afresh each epoch",
    },
    Setting {
        name: "seed",
        flag: "seed",
        kind: Kind::Whole {
            min: 0,
            max: u64::MAX,
        },
        default: Some("1"),
        value_name: "SEED",
        doc: "Seed of the sampling games, the starting weights and the epochs' orders",
    },
];

/// A fit's settings, checked: what `distill.json` records. Its fields are [`SETTINGS`]'
/// names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DistillSettings {
    pub teacher: PathBuf,
    pub teacher_depth: u32,
    pub hidden: u16,
    pub start_from: Option<PathBuf>,
    pub positions: u32,
    pub validation_positions: u32,
    pub sample_with: Option<PathBuf>,
    pub opening_plies: u32,
    pub exploration: f64,
    pub epochs: u32,
    pub minibatch: u32,
    pub learning_rate: f32,
    pub learning_rate_end: f32,
    pub search_leaves: bool,
    pub symmetries: bool,
    pub seed: u64,
}

/// A setting given a value it does not take, or a name no setting has. `setting` is the
/// name as [`SETTINGS`] has it (or as it was given, when no setting has it), so that each
/// front end can write it in its own terms ([`SettingError::spelled`]).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{setting}: {reason}")]
pub struct SettingError {
    pub setting: String,
    pub reason: String,
}

impl SettingError {
    pub fn new(setting: &str, reason: impl Into<String>) -> SettingError {
        SettingError {
            setting: setting.to_string(),
            reason: reason.into(),
        }
    }

    /// The message with the setting written by `spell` (the command line's `--flag`).
    pub fn spelled(&self, spell: impl Fn(&str) -> String) -> String {
        format!("{}: {}", spell(&self.setting), self.reason)
    }
}

/// The setting named `key`, by its name or its flag.
pub fn find(key: &str) -> Option<&'static Setting> {
    let key = key.trim_start_matches("--");
    SETTINGS
        .iter()
        .find(|setting| setting.name == key || setting.flag == key)
}

/// How the command line writes the setting `name` (`--teacher-depth`); a name no setting
/// has, as it is.
pub fn as_flag(name: &str) -> String {
    find(name).map_or(name.to_string(), |setting| format!("--{}", setting.flag))
}

impl Setting {
    /// Its value, as `distill.json` holds it, from `value` as a front end gave it: text as
    /// the command line writes it, or a number, switch or path as a plan does.
    pub fn value_from(&self, value: &Value) -> Result<Value, SettingError> {
        let wrong = |what: &str| {
            SettingError::new(
                self.name,
                format!("{} is not {what}", shown(value).escape_debug()),
            )
        };
        match self.kind {
            Kind::Whole { min, max } => {
                let number = match value {
                    Value::String(text) => text.trim().parse::<u64>().ok(),
                    other => other.as_u64(),
                };
                match number {
                    Some(n) if (min..=max).contains(&n) => Ok(Value::from(n)),
                    _ => Err(wrong(&format!("a whole number from {min} to {max}"))),
                }
            }
            Kind::Probability => match real_text(value).and_then(|t| t.parse::<f64>().ok()) {
                Some(p) if (0.0..=1.0).contains(&p) => Ok(Value::from(p)),
                _ => Err(wrong("a probability from 0 to 1")),
            },
            // Parsed from its text as an f32, so that a plan's number and the command
            // line's text give the same step.
            Kind::StepSize => match real_text(value).and_then(|t| t.parse::<f32>().ok()) {
                Some(rate) if rate > 0.0 && rate <= 1.0 => Ok(Value::from(f64::from(rate))),
                _ => Err(wrong("a step size above 0 and at most 1")),
            },
            Kind::Switch => match value {
                Value::Bool(on) => Ok(Value::Bool(*on)),
                Value::String(text) => text
                    .parse::<bool>()
                    .map(Value::Bool)
                    .map_err(|_| wrong("true or false")),
                _ => Err(wrong("true or false")),
            },
            Kind::File { .. } => match value {
                Value::String(path) if !path.is_empty() => Ok(Value::String(path.clone())),
                _ => Err(wrong("a file's path")),
            },
        }
    }

    /// Its default as `distill.json` holds it; `None` for a required setting.
    fn default_value(&self) -> Option<Value> {
        match (self.kind, self.default) {
            (Kind::File { required: true }, _) => None,
            (_, None) => Some(Value::Null),
            (_, Some(text)) => Some(
                self.value_from(&Value::String(text.to_string()))
                    .expect("every default is a value of its setting"),
            ),
        }
    }
}

/// A real number's text: as given, or as the shortest text of the number a plan gave.
fn real_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.trim().to_string()),
        Value::Number(number) => number.as_f64().map(|real| real.to_string()),
        _ => None,
    }
}

/// A value as messages write it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

impl DistillSettings {
    /// The settings of a fit from those a front end gave (name or flag, value), each
    /// checked against its setting's bounds, the rest their defaults; a later value of a
    /// setting replaces an earlier one (a plan's variant over its base).
    pub fn resolve(given: &[(String, Value)]) -> Result<DistillSettings, SettingError> {
        let mut fields = Map::new();
        for setting in SETTINGS {
            if let Some(value) = setting.default_value() {
                fields.insert(setting.name.to_string(), value);
            }
        }
        for (key, value) in given {
            let setting = find(key).ok_or_else(|| {
                let names: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
                SettingError::new(
                    key,
                    format!("no such setting of a fit ({})", names.join(", ")),
                )
            })?;
            fields.insert(setting.name.to_string(), setting.value_from(value)?);
        }
        if let Some(missing) = SETTINGS.iter().find(|s| !fields.contains_key(s.name)) {
            return Err(SettingError::new(
                missing.name,
                format!("required ({})", missing.doc.to_lowercase()),
            ));
        }
        serde_json::from_value(Value::Object(fields))
            .map_err(|error| SettingError::new("settings", error.to_string()))
    }

    /// How the positions are drawn.
    pub fn sample_settings(&self, validation: bool) -> SampleSettings {
        let positions = if validation {
            self.validation_positions
        } else {
            self.positions
        };
        SampleSettings {
            positions: positions as usize,
            opening_plies: self.opening_plies,
            exploration: self.exploration,
            leaves: self.search_leaves,
        }
    }

    /// How the student is fitted.
    pub fn fit_settings(&self) -> FitSettings {
        FitSettings {
            epochs: self.epochs as usize,
            minibatch: self.minibatch as usize,
            learning_rate: self.learning_rate,
            learning_rate_end: self.learning_rate_end,
            symmetries: self.symmetries,
        }
    }

    /// The settings that differ from `other`'s, each as `name is OTHER, not THIS` (by
    /// `distill.json`'s names), for messages refusing a fit of other settings.
    pub fn differences(&self, other: &DistillSettings) -> Vec<String> {
        let fields = |settings: &DistillSettings| match serde_json::to_value(settings) {
            Ok(Value::Object(map)) => map,
            _ => Map::new(),
        };
        let (own, others) = (fields(self), fields(other));
        own.iter()
            .filter(|&(name, value)| others.get(name) != Some(value))
            .map(|(name, value)| {
                let found = others.get(name).map_or("nothing".into(), shown);
                format!("{name} is {found}, not {}", shown(value))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(given: &[(&str, Value)]) -> Result<DistillSettings, SettingError> {
        let given: Vec<(String, Value)> = given
            .iter()
            .map(|(key, value)| (key.to_string(), value.clone()))
            .collect();
        DistillSettings::resolve(&given)
    }

    fn teacher() -> (&'static str, Value) {
        ("teacher", Value::from("teacher.evo"))
    }

    #[test]
    fn the_table_and_the_record_name_the_same_settings() {
        let settings = resolved(&[teacher()]).unwrap();
        let Value::Object(fields) = serde_json::to_value(&settings).unwrap() else {
            panic!("settings are an object");
        };
        let names: Vec<&str> = fields.keys().map(String::as_str).collect();
        let mut table: Vec<&str> = SETTINGS.iter().map(|s| s.name).collect();
        table.sort();
        assert_eq!(names, table);
        for setting in SETTINGS {
            assert_eq!(setting.flag, setting.name.replace('_', "-"));
        }
        assert_eq!(settings.hidden, 42);
        assert_eq!(settings.learning_rate, 0.001);
        assert_eq!(settings.exploration, 0.1);
        assert_eq!(settings.start_from, None);
    }

    #[test]
    fn a_plans_numbers_and_the_command_lines_text_give_the_same_settings() {
        let from_text = resolved(&[
            teacher(),
            ("--hidden", Value::from("128")),
            ("learning-rate", Value::from("0.0003")),
            ("learning_rate_end", Value::from("0.00003")),
            ("exploration", Value::from("0.5")),
            ("symmetries", Value::from("true")),
        ])
        .unwrap();
        let from_plan = resolved(&[
            teacher(),
            ("hidden", Value::from(128)),
            ("learning_rate", Value::from(0.0003)),
            ("learning_rate_end", Value::from(0.00003)),
            ("exploration", Value::from(0.5)),
            ("symmetries", Value::from(true)),
        ])
        .unwrap();
        assert_eq!(from_text, from_plan);
        assert_eq!(from_text.learning_rate, "0.0003".parse::<f32>().unwrap());
        assert_eq!(
            from_text.learning_rate_end,
            "0.00003".parse::<f32>().unwrap()
        );
    }

    #[test]
    fn values_out_of_bounds_unknown_names_and_a_missing_teacher_are_refused_by_name() {
        let refused = |given: &[(&str, Value)]| resolved(given).unwrap_err().to_string();
        assert_eq!(
            refused(&[teacher(), ("hidden", Value::from(500))]),
            "hidden: 500 is not a whole number from 1 to 128"
        );
        assert!(refused(&[teacher(), ("exploration", Value::from(1.5))]).contains("probability"));
        assert!(refused(&[teacher(), ("learning_rate", Value::from("0"))]).contains("step size"));
        assert!(refused(&[teacher(), ("positions", Value::from(-3))]).starts_with("positions: "));
        assert!(refused(&[teacher(), ("hiden", Value::from(5))]).starts_with("hiden: no such"));
        assert!(refused(&[]).starts_with("teacher: required"));
        // A later value replaces an earlier one.
        let later = resolved(&[
            teacher(),
            ("epochs", Value::from(3)),
            ("epochs", Value::from(5)),
        ]);
        assert_eq!(later.unwrap().epochs, 5);
    }

    #[test]
    fn differences_name_each_setting_that_differs() {
        let one = resolved(&[teacher()]).unwrap();
        let other = DistillSettings {
            hidden: 128,
            seed: 2,
            ..one.clone()
        };
        assert_eq!(
            one.differences(&other),
            ["hidden is 128, not 42", "seed is 2, not 1"]
        );
        assert!(one.differences(&one).is_empty());
    }
}
