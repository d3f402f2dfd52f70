//! `evolve`'s setting flags, made from the library's schema of settings
//! ([`evoboard::evolve::schema::SETTINGS`]): one flag per setting, listed under its group,
//! its help the setting's line and its defaults per preset and game as the library
//! computes them. The flags keep what the user wrote; the library resolves and checks it,
//! and errors come back naming flags ([`in_flag_terms`]).

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use serde_json::Value;

use crate::error::{BadInput, CliError};
use evoboard::evolve::EvolveError;
use evoboard::evolve::config::{DEFAULT_PRESET, EvolveConfig, Preset};
use evoboard::evolve::learner::users_of;
use evoboard::evolve::schema::{self, ConfigError, Flag, SETTINGS, Setting, describe_defaults};

/// The settings the command line gave, each under the flag that gave it.
#[derive(Clone, Debug, Default)]
pub struct SettingFlags {
    pub given: Vec<(String, Value)>,
}

/// The flags of one setting: its own, and the switch that sets it to none if it has one.
fn flags((order, setting): (usize, &'static Setting)) -> Vec<Arg> {
    let arg = Arg::new(setting.name)
        .display_order(order)
        .long(setting.flag.name())
        .help_heading(setting.group.heading())
        .help(format!("{}.", setting.doc));
    let arg = match setting.flag {
        Flag::Value(_) => arg.value_name(setting.value_name).action(ArgAction::Set),
        Flag::On(_) | Flag::Off(_) => arg.action(ArgAction::SetTrue),
    };
    let none = setting.none_switch.map(|switch| {
        Arg::new(switch)
            .display_order(order)
            .long(switch)
            .help_heading(setting.group.heading())
            .help(format!("Sets {} to none.", schema::as_flag(setting)))
            .action(ArgAction::SetTrue)
            .conflicts_with(setting.name)
    });
    std::iter::once(arg).chain(none).collect()
}

impl Args for SettingFlags {
    fn augment_args(command: Command) -> Command {
        command.args(SETTINGS.iter().enumerate().flat_map(flags))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for SettingFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for setting in SETTINGS {
            let flag = setting.flag.name().to_string();
            match setting.flag {
                Flag::Value(_) => {
                    if let Some(text) = matches.get_one::<String>(setting.name) {
                        given.push((flag, Value::String(text.clone())));
                    }
                }
                Flag::On(_) | Flag::Off(_) => {
                    if matches.get_flag(setting.name) {
                        given.push((flag, Value::Bool(true)));
                    }
                }
            }
            if let Some(switch) = setting.none_switch
                && matches.get_flag(switch)
            {
                given.push((switch.to_string(), Value::Bool(true)));
            }
        }
        Ok(SettingFlags { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// `command` (evolve's) with each setting's help ending in its defaults: `defaults` holds
/// the defaults of every preset for each game the command plays, `(game, config)`.
pub fn document_defaults(command: Command, defaults: &[(&str, EvolveConfig)]) -> Command {
    let fields: Vec<(&str, String, serde_json::Map<String, Value>)> = defaults
        .iter()
        .map(|(game, config)| {
            let Ok(Value::Object(fields)) = serde_json::to_value(config) else {
                unreachable!("a configuration serialises to an object")
            };
            (*game, config.preset.to_string(), fields)
        })
        .collect();
    // In place, so that the flags keep their order (and their groups theirs).
    command.mut_args(|arg| {
        let Some(setting) = schema::named(arg.get_id().as_str()) else {
            return arg;
        };
        let rows: Vec<(&str, &str, Value)> = fields
            .iter()
            .map(|(game, preset, fields)| {
                let value = fields.get(setting.name).cloned().unwrap_or(Value::Null);
                let value = match (value, setting.none_word) {
                    (Value::Null, Some(word)) => Value::String(word.to_string()),
                    (value, _) => value,
                };
                (preset.as_str(), *game, value)
            })
            .collect();
        let help = match setting.name {
            "preset" => format!(
                "{}: {}. [default: {DEFAULT_PRESET}]",
                setting.doc,
                presets()
            ),
            _ => format!(
                "{}.{} [default: {}]",
                setting.doc,
                users(setting),
                describe_defaults(&rows)
            ),
        };
        arg.help(help)
    })
}

/// For a parameter of some learners only, which use it (the others refuse it).
fn users(setting: &Setting) -> String {
    if !setting.learner_parameter {
        return String::new();
    }
    let users: Vec<String> = users_of(setting.name)
        .iter()
        .map(Preset::to_string)
        .collect();
    format!(" [used by: {}]", users.join(", "))
}

/// Every preset with what it is, from the learner registry.
fn presets() -> String {
    Preset::all()
        .iter()
        .map(|preset| format!("`{preset}` ({})", preset.learner().about()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `error` as the command line's: settings named by their flags, the run's directory by
/// `--out` and continuing by `--resume`.
pub fn in_flag_terms(error: EvolveError) -> CliError {
    match error {
        EvolveError::Config(error) => config_error(&error).into(),
        EvolveError::RunExists(dir) => BadInput(format!(
            "{dir} already holds a run: continue it with --resume, or choose another --out"
        ))
        .into(),
        EvolveError::NotEmpty(dir) => BadInput(format!(
            "{dir} is not an empty directory and holds no run: --out must be a new or empty \
             directory (or a run to --resume)"
        ))
        .into(),
        EvolveError::Locked { dir, holder } => BadInput(format!(
            "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, \
             or choose another --out"
        ))
        .into(),
        other => other.into(),
    }
}

/// A settings error with each setting named by its flag.
pub fn config_error(error: &ConfigError) -> BadInput {
    BadInput(format!(
        "invalid evolution setting: {}",
        error.spelled(schema::as_flag)
    ))
}
