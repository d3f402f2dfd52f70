//! A command's failure and its exit code: every error type a command meets is sorted once,
//! here, as bad input (exit 2) or failure (exit 1).

use evoboard::arena::accuracy::AccuracyError;
use evoboard::arena::journal::JournalError;
use evoboard::arena::profile::ProfileError;
use evoboard::arena::tournament::KeptTournamentError;
use evoboard::arena::{OpeningError, SpecError};
use evoboard::eval::EvaluatorError;
use evoboard::evolve::EvolveError;
use evoboard::experiments::ExperimentError;
use evoboard::experiments::status::StatusError;
use evoboard::games::GameError;
use evoboard::learn::distill::DistillError;
use evoboard::nn::TopologyError;
use evoboard::persist::PersistError;
use evoboard::report::plot::PlotError;
use evoboard::search::endgame::EndgameError;
use evoboard::search::probcut::CalibrationError;
use evoboard::search::solve::SolveError;
use evoboard::statistics::RatingError;

/// The status of a process that Ctrl-C stopped, as for a process a signal ended.
pub const INTERRUPTED: u8 = 130;

/// Input the user got wrong, found by a command (not by a parser with its own error type).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadInput(pub String);

/// A command's failure, sorted by who is to blame; the exit code follows from the sort.
/// Every error type a command can meet is sorted below, and there is no catch-all
/// conversion: `?` on an error type that has not been sorted does not compile.
#[derive(Debug)]
pub enum CliError {
    /// The user's input was wrong: a position, move, spec, flag value or file (exit 2).
    Input(Box<dyn std::error::Error + Send + Sync>),
    /// Anything else: the machine, the file system, a fault of ours (exit 1).
    Failure(Box<dyn std::error::Error + Send + Sync>),
    /// Ctrl-C stopped the work; the line says how to continue it (exit 130).
    Interrupted(String),
}

/// What every command returns.
pub type CliResult<T = ()> = Result<T, CliError>;

impl CliError {
    /// The process's exit status for this failure.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Failure(_) => 1,
            CliError::Interrupted(_) => INTERRUPTED,
        }
    }
}

/// The error and each of its causes, joined by ": ".
impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (CliError::Input(error) | CliError::Failure(error)) = self else {
            let CliError::Interrupted(line) = self else {
                unreachable!("every other variant holds an error")
            };
            return write!(f, "{line}");
        };
        f.write_str(&evoboard::errors::chain(error.as_ref()))
    }
}

/// Sorts error types: each listed type converts into the variant named.
macro_rules! blame {
    ($variant:ident: $($error:ty),+ $(,)?) => {
        $(impl From<$error> for CliError {
            fn from(error: $error) -> CliError {
                CliError::$variant(Box::new(error))
            }
        })+
    };
}

blame!(
    Input: BadInput,
    GameError,
    SpecError,
    EvaluatorError,
    OpeningError,
    TopologyError,
    RatingError,
    StatusError,
);
blame!(
    Failure: std::io::Error,
    serde_json::Error,
    indicatif::style::TemplateError,
    rayon::ThreadPoolBuildError,
    evoboard::arena::Forfeit,
);

/// Sorts error types that know themselves whether the input was at fault.
macro_rules! blame_by_kind {
    ($($error:ty),+) => {
        $(impl From<$error> for CliError {
            fn from(error: $error) -> CliError {
                if error.is_bad_input() {
                    CliError::Input(Box::new(error))
                } else {
                    CliError::Failure(Box::new(error))
                }
            }
        })+
    };
}

blame_by_kind!(
    AccuracyError,
    PlotError,
    EvolveError,
    PersistError,
    SolveError,
    EndgameError,
    ExperimentError,
    DistillError,
    CalibrationError,
    JournalError,
    ProfileError,
    KeptTournamentError
);
