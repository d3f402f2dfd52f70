//! Ctrl-C during long work (`evolve`, `distill`, `experiment`): the first asks the work to
//! stop at its next stopping point through the library's [`evoboard::interrupt`] flag, so
//! it ends with its last checkpoint written, and the command says how to continue; a
//! second Ctrl-C ends the process at once. Either way the status is 130, as for a process
//! a signal ended.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::error::{CliError, CliResult, INTERRUPTED};

/// Whether Ctrl-C asks for a stop (see [`stop_on_ctrl_c`]) rather than ending the process.
static STOPS_GRACEFULLY: AtomicBool = AtomicBool::new(false);

/// Whether the command ends itself on SIGINT and SIGTERM (the server closes its
/// connections first); it runs no external engine.
static ENDS_ITSELF: AtomicBool = AtomicBool::new(false);

/// Leaves SIGINT and SIGTERM to the command, which ends itself in its own way and runs no
/// external engine (`serve`).
pub fn signals_end_the_command_itself() {
    ENDS_ITSELF.store(true, Ordering::SeqCst);
}

/// Makes the signals that end the process (SIGINT, SIGTERM, SIGHUP) kill the external
/// engines' process groups first: each engine leads a group of its own, which a signal
/// sent to evoboard never reaches, so they would outlive it. The process then ends with
/// status 128 + the signal (130 for Ctrl-C, 143 for SIGTERM). Under [`stop_on_ctrl_c`], the
/// first Ctrl-C only asks for a stop.
pub fn end_engines_with_the_process() -> CliResult {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let requested = evoboard::interrupt::flag();
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let requested = Arc::clone(&requested);
        let end = move || {
            let first_stop = signal == SIGINT
                && STOPS_GRACEFULLY.load(Ordering::SeqCst)
                && !requested.load(Ordering::SeqCst);
            let left_to_command = signal != SIGHUP && ENDS_ITSELF.load(Ordering::SeqCst);
            if !first_stop && !left_to_command {
                evoboard::arena::process_groups::kill_all();
                signal_hook::low_level::exit(128 + signal);
            }
        };
        // SAFETY: `end` only reads atomics, sends signals and calls `_exit`, all
        // async-signal-safe.
        unsafe { signal_hook::low_level::register(signal, end) }?;
    }
    Ok(())
}

/// Sets Ctrl-C (SIGINT) to ask for a stop, and a second one to end the process.
pub fn stop_on_ctrl_c() -> CliResult {
    use signal_hook::consts::SIGINT;
    STOPS_GRACEFULLY.store(true, Ordering::SeqCst);
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
