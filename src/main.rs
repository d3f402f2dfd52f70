//! The `evoboard` command line. Errors print as one line on stderr; bad input exits 2,
//! other failures exit 1.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = evoboard::cli::Cli::parse();
    match evoboard::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::from(evoboard::cli::exit_code(&error))
        }
    }
}
