//! The `evoboard` command line. Errors print as one line on stderr; bad input exits 2,
//! other failures exit 1.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = evoboard::cli::Cli::parse();
    match evoboard::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(evoboard::cli::exit_code(&error))
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
