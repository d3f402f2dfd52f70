//! `evoboard` with one more learner, `random-search` (`learner.rs`), registered through the
//! library's public API before the command line is parsed: every command that takes a
//! preset — `evolve` (and its `--help`), experiment plans — offers it.

mod learner;

use std::process::ExitCode;

fn main() -> ExitCode {
    evoboard::evolve::learner::register(&learner::RandomSearch)
        .expect("random-search is a new learner's name");
    evoboard_cli::run_evoboard()
}
