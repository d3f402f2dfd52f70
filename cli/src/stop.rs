//! Ctrl-C during long work (`evolve`, `experiment`): the first asks the work to stop at its
//! next stopping point through the library's [`evoboard::interrupt`] flag, so it ends with
//! its last checkpoint written, and the command says how to continue; a second Ctrl-C ends
//! the process at once. Either way the status is 130, as for a process a signal ended.

use std::path::Path;
use std::sync::Arc;

use crate::error::{CliError, CliResult, INTERRUPTED};

/// Sets Ctrl-C (SIGINT) to ask for a stop, and a second one to end the process.
pub fn stop_on_ctrl_c() -> CliResult {
    use signal_hook::consts::SIGINT;
    let flag = evoboard::interrupt::flag();
    // Registered first, so it sees the flag as it was before this signal set it.
    signal_hook::flag::register_conditional_shutdown(
        SIGINT,
        i32::from(INTERRUPTED),
        Arc::clone(&flag),
    )?;
    signal_hook::flag::register(SIGINT, flag)?;
    Ok(())
}

/// The error of work that Ctrl-C stopped, saying to continue it with `command`.
pub fn interrupted(command: &str) -> CliError {
    CliError::Interrupted(format!("interrupted: continue with `{command}`"))
}

/// `result`, or, if the work failed once a stop was asked for, how to continue it
/// (`continue_with` gives the command).
pub fn unless_interrupted<T, E>(
    result: Result<T, E>,
    continue_with: impl FnOnce() -> String,
) -> CliResult<T>
where
    CliError: From<E>,
{
    match result {
        Err(_) if evoboard::interrupt::requested() => Err(interrupted(&continue_with())),
        other => Ok(other?),
    }
}

/// The command line `PROGRAM ARGS` written the way this process was started (see
/// [`command_line`]).
pub fn as_started(args: &str) -> String {
    let program = std::env::args_os()
        .next()
        .unwrap_or_else(|| "evoboard".into());
    let by_cargo = std::env::var_os("CARGO").is_some();
    command_line(Path::new(&program), by_cargo, args)
}

/// The command line that runs `args` with the program as this process was started
/// (`program` being its first argument): with the program as the user typed it (a path,
/// or a name the shell found on the PATH), or as `cargo run` when cargo (`by_cargo`)
/// started a binary or an example (a program over `run_game`) of its target
/// directory, which is not on the PATH.
pub fn command_line(program: &Path, by_cargo: bool, args: &str) -> String {
    // An example is built into target/PROFILE/examples/.
    let (dir, example) = match program.parent() {
        Some(dir) if dir.file_name().is_some_and(|name| name == "examples") => {
            (dir.parent(), program.file_name())
        }
        dir => (dir, None),
    };
    // target/PROFILE/PROGRAM, or target/TRIPLE/PROFILE/PROGRAM when cross-compiled.
    let profile = dir.and_then(|dir| {
        let in_target = |d: &Path| d.file_name().is_some_and(|name| name == "target");
        let above = dir.parent()?;
        let target = in_target(above) || above.parent().is_some_and(in_target);
        target.then(|| dir.file_name()?.to_str()).flatten()
    });
    match profile {
        Some(profile) if by_cargo => {
            let flags = match profile {
                "release" => " --release".to_string(),
                "debug" => String::new(),
                other => format!(" --profile {other}"),
            };
            let example = example.map_or(String::new(), |name| {
                format!(" --example {}", name.to_string_lossy())
            });
            format!("cargo run{flags}{example} -- {args}")
        }
        _ => format!("{} {args}", program.display()),
    }
}
