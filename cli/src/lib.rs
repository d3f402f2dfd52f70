//! The `evoboard` command line as a library: its commands parse flags (clap), show
//! progress (indicatif), print, and sort errors into exit codes; the work is the
//! `evoboard` library's. Two programs run them:
//! - [`run_evoboard`], the `evoboard` binary: every command, on the built-in games that
//!   `--game` names, and the commands tied to one of them;
//! - [`run_game`], one game's program: the commands that serve any game, on a game added
//!   from outside the library (`cli/examples/connect_four` is one: its `main` is a line).
//!
//! Errors print as one line on stderr; bad input exits 2, other failures exit 1.

mod accuracy;
mod any_game;
mod bench;
mod benchmark;
mod blend;
mod builtin;
mod calibrate;
mod common;
mod distill;
mod endgame_ordering;
mod error;
mod evolve;
mod experiment;
mod gifford;
mod glance;
mod gtp;
mod launch;
mod nboard;
mod panel;
mod perft;
mod plans;
mod play;
mod plot;
mod profile;
mod prune;
mod ratings;
mod sample;
#[cfg(feature = "serve")]
mod serve;
mod setting_flags;
mod show;
mod solve;
mod stop;
mod tournament;

pub use any_game::run_game;
pub use builtin::run_evoboard;
