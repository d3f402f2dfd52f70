//! `evoboard bench`: engine speed on fixed work, single-threaded: perft leaves per second
//! from the start position, and alpha-beta nodes per second over fixed positions.

use std::time::Instant;

use clap::Args;

use crate::arena::random_openings;
use crate::cli::{GameName, with_game};
use crate::eval::NamedEvaluators;
use crate::games::perft;
use crate::search::search;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Game to measure.
    #[arg(long, default_value = "othello")]
    game: GameName,
    /// perft depth from the start position.
    #[arg(long, default_value_t = 9)]
    perft_depth: u32,
    /// Deepest alpha-beta search (depths 4 up to this are measured).
    #[arg(long, default_value_t = 6)]
    search_depth: u32,
    /// Number of fixed positions (seeded 10-ply openings) searched at each depth.
    #[arg(long, default_value_t = 20)]
    positions: usize,
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    with_game!(args.game, |start| measure(start, args))
}

fn measure<G: NamedEvaluators>(start: G, args: &BenchArgs) -> anyhow::Result<()> {
    let clock = Instant::now();
    let leaves = perft(&start, args.perft_depth);
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "perft({}) = {leaves} in {seconds:.3} s: {:.1} M leaves/s",
        args.perft_depth,
        leaves as f64 / seconds / 1e6
    );
    let positions = random_openings(&start, args.positions, 10, 2024)?;
    for name in ["heuristic", "wpc"] {
        let evaluator = G::evaluator(name)?;
        for depth in 4..=args.search_depth {
            let clock = Instant::now();
            let nodes: u64 = positions
                .iter()
                .map(|game| search(game, depth, evaluator.as_ref()).nodes)
                .sum();
            let seconds = clock.elapsed().as_secs_f64();
            println!(
                "alpha-beta {name} depth {depth}: {nodes} nodes over {} positions in {seconds:.3} s: {:.2} M nodes/s, {:.1} ms/position",
                positions.len(),
                nodes as f64 / seconds / 1e6,
                1000.0 * seconds / positions.len() as f64
            );
        }
    }
    Ok(())
}
