//! `evoboard perft`: leaf counts of the game tree, the standard move-generator check.

use clap::Args;

use crate::common::{GameName, game_parser, position_or_start, with_game};
use crate::error::CliResult;
use evoboard::games::Perft;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Game to count.
    #[arg(long, value_parser = game_parser())]
    game: GameName,
    /// Plies to search (a forced pass or an extra turn counts as one ply), at most 20.
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    depth: u32,
    /// Start from this position string instead of the initial position.
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
}

pub fn run(args: &PerftArgs) -> CliResult {
    with_game!(args.game, |start| {
        let game = position_or_start(start, args.position.as_deref())?;
        println!("{}", game.perft_fast(args.depth));
        Ok(())
    })
}
