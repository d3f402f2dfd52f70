//! The `evoboard` binary: the command line of the library `evoboard_cli`.

fn main() -> std::process::ExitCode {
    evoboard_cli::run_evoboard()
}
