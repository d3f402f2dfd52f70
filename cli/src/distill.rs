//! `evoboard distill`: an MLP fitted offline to a champion's values, epoch by epoch, the
//! epoch with the lowest validation loss kept as the champion (`learn::distill::run`).
//! Its setting flags are made from the library's table of settings
//! ([`evoboard::learn::distill::SETTINGS`]), which plans read too.

use std::path::{Path, PathBuf};

use clap::{Arg, ArgAction, ArgMatches, Args, Command, FromArgMatches};
use serde_json::Value;

use crate::common::{GameName, configure_threads, game_parser, with_game};
use crate::error::{BadInput, CliError, CliResult};
use crate::stop::{as_started, interrupted, stop_on_ctrl_c};
use evoboard::eval::neural::NeuralInput;
use evoboard::learn::distill::run::read_record;
use evoboard::learn::distill::settings::{Kind, Setting, as_flag};
use evoboard::learn::distill::{
    Begin, DistillError, DistillSettings, FitObserver, FitRow, SETTINGS, run_fit,
};
use evoboard::persist::LockError;

/// Fit an MLP to a champion's values offline: positions from the teacher's own games,
/// minibatches and Adam over many epochs (distillation without TD's one step a position).
#[derive(Debug, Args)]
pub struct DistillArgs {
    /// Game of the teacher and the student (with --resume, the fit's own).
    #[arg(long, value_parser = game_parser())]
    game: Option<GameName>,
    #[command(flatten)]
    settings: FitFlags,
    /// Continue the fit in --out, stopped by Ctrl-C or a crash, with the settings its
    /// distill.json records (give no other setting).
    #[arg(long)]
    resume: bool,
    /// Worker threads (0 = one per core). Results do not depend on it.
    #[arg(long, default_value_t = 0)]
    threads: u16,
    /// Directory of the fit: distill.json, stats.csv, champion.evo and the state it
    /// resumes from (created; must hold no fit yet, unless --resume).
    #[arg(long)]
    out: PathBuf,
}

/// The settings the command line gave, each under its flag.
#[derive(Clone, Debug, Default)]
struct FitFlags {
    given: Vec<(String, Value)>,
}

/// The flag of one setting, its help the setting's line and default.
fn flag((order, setting): (usize, &'static Setting)) -> Arg {
    let arg = Arg::new(setting.name)
        .display_order(order)
        .long(setting.flag);
    let doc = setting.doc;
    match (setting.kind, setting.default) {
        (Kind::Switch, _) => arg.help(format!("{doc}.")).action(ArgAction::SetTrue),
        (kind, default) => {
            let default = match (kind, default) {
                (Kind::File { required: true }, _) => " [required unless --resume]".into(),
                (_, Some(default)) => format!(" [default: {default}]"),
                (_, None) => String::new(),
            };
            arg.help(format!("{doc}.{default}"))
                .value_name(setting.value_name)
                .action(ArgAction::Set)
        }
    }
}

impl Args for FitFlags {
    fn augment_args(command: Command) -> Command {
        command.args(SETTINGS.iter().enumerate().map(flag))
    }

    fn augment_args_for_update(command: Command) -> Command {
        Self::augment_args(command)
    }
}

impl FromArgMatches for FitFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for setting in SETTINGS {
            let value = match setting.kind {
                Kind::Switch => matches.get_flag(setting.name).then_some(Value::Bool(true)),
                _ => matches
                    .get_one::<String>(setting.name)
                    .map(|text| Value::String(text.clone())),
            };
            if let Some(value) = value {
                given.push((setting.name.to_string(), value));
            }
        }
        Ok(FitFlags { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

pub fn run(args: &DistillArgs) -> CliResult {
    configure_threads(usize::from(args.threads))?;
    let (game, settings, begin) = if args.resume {
        resumed(args)?
    } else {
        let game = args.game.ok_or_else(|| {
            BadInput("--game is required (or --resume, to continue a fit)".to_string())
        })?;
        let settings = DistillSettings::resolve(&args.settings.given)
            .map_err(|error| BadInput(error.spelled(as_flag)))?;
        (game, settings, Begin::New)
    };
    with_game!(game, |start| distill(&start, &settings, begin, args))
}

/// The game and settings of the fit `--resume` continues: its record's.
fn resumed(args: &DistillArgs) -> CliResult<(GameName, DistillSettings, Begin)> {
    if let Some((name, _)) = args.settings.given.first() {
        return Err(BadInput(format!(
            "{}: --resume continues the fit with the settings its distill.json records; give only --out (and --threads)",
            as_flag(name)
        ))
        .into());
    }
    let record = read_record(&args.out).map_err(|error| in_flag_terms(error, &args.out))?;
    let game = record.game.parse::<GameName>().map_err(|_| {
        BadInput(format!(
            "{}: the fit's game '{}' is not one of this build",
            args.out.display(),
            record.game.escape_debug()
        ))
    })?;
    if args.game.is_some_and(|given| given != game) {
        return Err(BadInput(format!(
            "--game: {} holds a fit of {}",
            args.out.display(),
            record.game
        ))
        .into());
    }
    Ok((game, record.settings, Begin::Resume))
}

fn distill<G: NeuralInput>(
    start: &G,
    settings: &DistillSettings,
    begin: Begin,
    args: &DistillArgs,
) -> CliResult {
    stop_on_ctrl_c()?;
    let outcome = run_fit(start, settings, &args.out, begin, &Progress)
        .map_err(|error| in_flag_terms(error, &args.out))?;
    println!(
        "champion: {} (epoch {}, validation loss {:.5})",
        outcome.champion.display(),
        outcome.best_epoch,
        outcome.best_loss
    );
    Ok(())
}

/// `error` as the command line's: settings named by their flags, the fit's directory by
/// `--out`, and a stop saying how to continue.
fn in_flag_terms(error: DistillError, out: &Path) -> CliError {
    match error {
        DistillError::Setting(error) => BadInput(error.spelled(as_flag)).into(),
        DistillError::File { setting, error } => {
            BadInput(format!("{}: {error}", as_flag(setting))).into()
        }
        DistillError::Exists(dir) => BadInput(format!(
            "{dir} already holds a fit: continue it with --resume, or choose another --out"
        ))
        .into(),
        DistillError::Lock(LockError::Held { dir, holder }) => BadInput(format!(
            "{dir} is in use by another evoboard process (pid {holder}): wait for it to end, \
             or choose another --out"
        ))
        .into(),
        DistillError::Interrupted(_) => interrupted(&as_started(&format!(
            "distill --resume --out {}",
            out.display()
        ))),
        other => other.into(),
    }
}

/// A line on stderr once the positions are sampled and after every epoch.
struct Progress;

impl FitObserver for Progress {
    fn sampled(&self, train: usize, validation: usize, seconds: f64, epochs_done: u32) {
        let resumed = if epochs_done > 0 {
            format!("; resuming after epoch {epochs_done}")
        } else {
            String::new()
        };
        eprintln!(
            "sampled {train} training and {validation} validation positions in {seconds:.1} s{resumed}"
        );
    }

    fn epoch_done(&self, row: &FitRow, epochs: u32, seconds: f64) {
        eprintln!(
            "epoch {}/{epochs}: step {:.5}, training loss {:.5}, validation loss {:.5}, {seconds:.1} s",
            row.epoch,
            row.learning_rate.0,
            row.train_loss.map_or(f64::NAN, |loss| loss.0),
            row.validation_loss.0,
        );
    }
}
