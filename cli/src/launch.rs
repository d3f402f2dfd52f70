//! What every program over these commands does around its command: the default SIGPIPE,
//! joining an MPI job, parsing the arguments into one line of error at most, refusing a
//! command that does not run over MPI there, and the exit status of the command's result
//! (bad input 2, failure 1, Ctrl-C 130), its error printed as one line on stderr.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Command, FromArgMatches};

use crate::error::{self, BadInput, CliError, CliResult};

/// Runs a program: parses its arguments against `command` into `T`, then `run`s them.
pub(crate) fn main<T: FromArgMatches>(
    command: Command,
    run: impl FnOnce(T) -> CliResult,
) -> ExitCode {
    restore_default_sigpipe();
    if let Err(error) = crate::stop::end_engines_with_the_process() {
        eprintln!("error: {error}");
        return ExitCode::FAILURE;
    }
    // Under an MPI launcher (built with the `mpi` feature), join the job first, so that
    // only its leader prints.
    let launch = evoboard::farm::launch();
    let parsed = match parse_args(command) {
        Ok(parsed) => parsed,
        // --help and --version; a bare command line prints the help (exit 2) as it is.
        Err(error)
            if !error.use_stderr()
                || error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            error.exit()
        }
        Err(error) => {
            // clap spreads an error over several lines (tips, usage); keep it to one.
            let rendered = error.render().to_string();
            let message: Vec<&str> = rendered
                .lines()
                .map(str::trim)
                .filter(|line| {
                    !line.is_empty()
                        && !line.starts_with("Usage:")
                        && !line.starts_with("For more information")
                })
                .collect();
            return launch.fail(2, &format!("{} (see --help)", message.join(" ")));
        }
    };
    match run(parsed) {
        Ok(()) => ExitCode::SUCCESS,
        // Below the progress bar the work left on the terminal.
        Err(CliError::Interrupted(line)) => launch.fail(error::INTERRUPTED, &format!("\n{line}")),
        Err(error) => {
            // One line, even when the offending input itself contains line breaks.
            let message: String = error
                .to_string()
                .chars()
                .flat_map(|c| {
                    let escaped: Vec<char> = if c.is_control() {
                        c.escape_default().collect()
                    } else {
                        vec![c]
                    };
                    escaped
                })
                .collect();
            launch.fail(error.exit_code(), &format!("error: {message}"))
        }
    }
}

/// Refuses, in an MPI job of more than one process, a command that does not spread its
/// work over the processes (`spreads` false); `spreading` lists those that do.
pub(crate) fn check_spreads(spreads: bool, spreading: &str) -> CliResult {
    if !spreads && evoboard::farm::process_count() > 1 {
        return Err(BadInput(format!(
            "only {spreading} run over MPI: run this command without mpirun"
        ))
        .into());
    }
    Ok(())
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`evoboard bench | head`) would
/// panic; restoring the default lets the process end quietly like other Unix tools.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Parses the process's arguments. Any value may be a negative number (clap would
/// otherwise take `-10` for a flag and answer "unexpected argument '-1'"), and a
/// negative number given for a count is answered as such.
fn parse_args<T: FromArgMatches>(command: Command) -> Result<T, clap::Error> {
    let mut command =
        command.mut_subcommands(|sub| sub.mut_args(|arg| arg.allow_negative_numbers(true)));
    let matches = command
        .try_get_matches_from_mut(std::env::args_os())
        .map_err(|error| negative_count(error, &mut command))?;
    T::from_arg_matches(&matches).map_err(|error| negative_count(error, &mut command))
}

/// A value a flag refused because it is a negative whole number: said plainly, as every
/// whole-number flag counts something (games, plies, threads, a seed).
fn negative_count(error: clap::Error, command: &mut Command) -> clap::Error {
    use clap::error::{ContextKind, ContextValue};
    let text = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let negative = |value: &str| {
        value
            .strip_prefix('-')
            .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
    };
    let refused = matches!(
        error.kind(),
        ErrorKind::ValueValidation | ErrorKind::InvalidValue
    );
    match (
        text(ContextKind::InvalidArg),
        text(ContextKind::InvalidValue),
    ) {
        (Some(arg), Some(value)) if refused && negative(value) => clap::Error::raw(
            ErrorKind::ValueValidation,
            format!("invalid value '{value}' for '{arg}': must be a positive integer\n"),
        )
        .format(command),
        _ => error,
    }
}
