//! evoboard: evolves neural-network board evaluators for two-player games and benchmarks
//! them against heuristic search players. See README.md for the commands.

pub mod arena;
pub mod champion;
pub mod cli;
pub mod csv_rows;
pub mod eval;
pub mod evolve;
pub mod experiments;
pub mod games;
pub mod learn;
pub mod nn;
pub mod persist;
pub mod report;
pub mod rng;
pub mod search;

pub use games::othello::Othello;
pub use games::{Describe, Game, MoveList, Notation, Outcome, Player};
