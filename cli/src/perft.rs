//! `evoboard perft`: leaf counts of the game tree, the standard move-generator check.

use clap::Args;

use crate::common::position_or_start;
use crate::error::CliResult;
use evoboard::games::{Notation, Perft};

/// Count the leaves of the game tree to a depth (move-generator check).
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to search (a forced pass or an extra turn counts as one ply), at most 20.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Start from this position string instead of the initial position.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
}

pub fn run<G: Notation + Perft>(start: G, args: &PerftArgs) -> CliResult {
    let game = position_or_start(start, args.position.as_deref())?;
    println!("{}", game.perft_fast(args.depth));
    Ok(())
}
