//! `evoboard sample`: positions from seeded games of one agent against itself, one a line
//! in the `--position` notation, so that a test set (such as the endgames `solve
//! --positions` times) is drawn by a command and reproducible from its seed.

use clap::Args;

use crate::common::plies_range;
use crate::error::CliResult;
use evoboard::arena::AgentSpec;
use evoboard::arena::accuracy::{AccuracyError, Sampler};
use evoboard::eval::NamedEvaluators;

/// Positions from seeded games of one agent against itself (the sampler of `accuracy`),
/// printed one a line in the `--position` notation after a `#` line naming how they were
/// drawn: test sets reproducible from their seed.
#[derive(Debug, Args)]
pub struct SampleArgs {
    /// The agent spec that plays both sides of the games (an @EPS suffix varies them; a
    /// deterministic agent plays one game over and over).
    #[arg(long, default_value = "random")]
    player: String,
    /// Positions wanted (distinct, not over, with two legal moves or more).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    positions: u32,
    /// Plies played before a position is taken, drawn uniformly from MIN..MAX (inclusive).
    #[arg(long, value_parser = plies_range)]
    plies: (u32, u32),
    /// Seed of the games: game g is played with the generator of (seed, g).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run<G: NamedEvaluators>(start: G, args: &SampleArgs) -> CliResult {
    let agent = args.player.parse::<AgentSpec>()?.build(&start)?;
    let (low, high) = args.plies;
    let sampler = Sampler {
        player: args.player.clone(),
        plies: low..=high,
        positions: args.positions as usize,
        seed: args.seed,
    };
    // Too few positions is the request's fault, a sampler that gave up is not.
    let drawn = sampler
        .draw(&start, agent.as_ref(), |_| true)
        .map_err(AccuracyError::Sample)?;
    println!(
        "# evoboard sample: {}",
        sampler.describe(
            start.name(),
            "every position not over with two moves or more"
        )
    );
    for sampled in drawn {
        println!("{}", sampled.game.to_position_string());
    }
    Ok(())
}
