//! The `evoboard` command line. Errors print as one line on stderr; bad input exits 2,
//! other failures exit 1.

use std::process::ExitCode;

use clap::error::ErrorKind;

fn main() -> ExitCode {
    restore_default_sigpipe();
    // Under an MPI launcher (built with the `mpi` feature), join the job first, so that
    // only its leader prints.
    let launch = evoboard::farm::launch();
    let cli = match evoboard::cli::Cli::parse_args() {
        Ok(cli) => cli,
        // --help and --version; a bare `evoboard` prints the help (exit 2) as it is.
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
    match evoboard::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
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

/// Rust ignores SIGPIPE, so printing into a closed pipe (`evoboard bench | head`) would
/// panic; restoring the default lets the process end quietly like other Unix tools.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid handler.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
