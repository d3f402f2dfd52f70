//! `evoboard prune`: seed 000's research question, "can MM be sped up if using NN as a
//! forward-pruning method?". Over fixed positions it measures nodes and time per move of
//! minimax on the store difference (seed 000's MM) and of the same search keeping only the
//! WIDTH moves a network ranks best at each node (NMM); then it plays each NMM against MM
//! at equal depth for the strength cost. "Optimal" is the share of positions where the
//! pruned search's move is worth as much, to the full-width search, as the best move.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::arena::{
    AgentSpec, SearchAgent, SeriesConfig, SeriesStats, play_series, random_openings,
};
use crate::cli::{CliResult, GameName, SeriesArgs, configure_threads, with_game};
use crate::eval::NamedEvaluators;
use crate::games::joint::is_joint;
use crate::search::search;

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Game to measure (a mancala game: MM evaluates the store difference).
    #[arg(long)]
    game: GameName,
    /// The network that ranks moves: a saved champion.
    #[arg(long)]
    ranker: PathBuf,
    /// Search depth of MM and of every NMM.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..=12))]
    depth: u32,
    /// Moves NMM keeps at each node, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1,2,3,4")]
    widths: Vec<usize>,
    /// Positions timed (seeded random openings of --position-plies plies).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u16).range(1..=10000))]
    positions: u16,
    /// Random plies that make each timed position.
    #[arg(long, default_value_t = 12)]
    position_plies: u32,
    #[command(flatten)]
    series: SeriesArgs,
}

pub fn run(args: &PruneArgs) -> CliResult {
    if args.widths.contains(&0) {
        return Err(crate::cli::BadInput("--widths must all be at least 1".to_string()).into());
    }
    if matches!(args.game, GameName::Othello) {
        return Err(crate::cli::BadInput(
            "prune studies seed 000's MM, a search on the store difference: --game must be \
             kalah, oware, congklak or congkak"
                .to_string(),
        )
        .into());
    }
    configure_threads(usize::from(args.series.threads))?;
    with_game!(args.game, |start| study(start, args))
}

/// Mean nodes and milliseconds per move of `agent` over `positions`, and its moves.
fn cost<G: NamedEvaluators>(agent: &SearchAgent<G>, positions: &[G]) -> (f64, f64, Vec<G::Move>) {
    let (mut nodes, mut seconds, mut moves) = (0u64, 0.0, Vec::new());
    for game in positions {
        let clock = Instant::now();
        let result = agent.search(game);
        seconds += clock.elapsed().as_secs_f64();
        nodes += result.nodes;
        moves.extend(result.best);
    }
    let n = positions.len().max(1) as f64;
    (nodes as f64 / n, 1000.0 * seconds / n, moves)
}

/// Share of `positions` where `moves` are worth, to full-width `mm`, as much as its best.
fn optimal_share<G: NamedEvaluators>(
    mm: &SearchAgent<G>,
    positions: &[G],
    moves: &[G::Move],
) -> f64 {
    let optimal = positions
        .iter()
        .zip(moves)
        .filter(|&(game, &mv)| {
            let best = mm.search(game).value;
            let mut child = game.clone();
            child.play_unchecked(mv);
            let value = search(&child, mm.depth - 1, mm.evaluator.as_ref()).value;
            let value = if child.to_move() == game.to_move() {
                value
            } else {
                -value
            };
            value >= best - 1e-3
        })
        .count();
    100.0 * optimal as f64 / positions.len().max(1) as f64
}

fn study<G: NamedEvaluators>(start: G, args: &PruneArgs) -> CliResult {
    let mm_spec = format!("minimax:{}:stores", args.depth);
    let mm = mm_spec
        .parse::<AgentSpec>()?
        .searcher(&start)?
        .expect("minimax is a search");
    // Every pruned searcher is built (and the ranker read) before any output, so a
    // ranker that cannot serve this game fails before the table starts.
    let pruned = args
        .widths
        .iter()
        .map(|&width| {
            let spec = format!("nmm:{}:{width}:{}", args.depth, args.ranker.display());
            let nmm = spec.parse::<AgentSpec>()?.searcher(&start)?;
            Ok((width, nmm.expect("nmm is a search")))
        })
        .collect::<CliResult<Vec<_>>>()?;
    let positions: Vec<G> = random_openings(
        &start,
        usize::from(args.positions),
        args.position_plies,
        args.series.seed,
    )?
    .into_iter()
    .filter(|game| game.count_moves() > 0 && !is_joint(game))
    .collect();
    println!(
        "{}: {} positions ({} random plies, seed {}), depth {}, timed on one thread",
        start.name(),
        positions.len(),
        args.position_plies,
        args.series.seed,
        args.depth
    );
    println!(
        "{:<28} {:>12} {:>10} {:>9} {:>11} {:>22}",
        "agent", "nodes/move", "ms/move", "vs MM", "optimal", "strength vs MM (w/d/l)"
    );
    let (mm_nodes, mm_ms, _) = cost(&mm, &positions);
    println!(
        "{mm_spec:<28} {mm_nodes:>12.0} {mm_ms:>10.3} {:>9} {:>11} {:>22}",
        "1.00×", "100.0%", "-"
    );
    let config = SeriesConfig {
        games: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
    };
    for (width, nmm) in pruned {
        let (nodes, ms, moves) = cost(&nmm, &positions);
        let optimal = optimal_share(&mm, &positions, &moves);
        let progress = ProgressBar::new(u64::from(args.series.games)).with_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games")?
                .progress_chars("=> "),
        );
        progress.set_prefix(format!("width {width} vs MM"));
        let records = play_series(&start, &nmm, &mm, config, &|| progress.inc(1))?;
        progress.finish_and_clear();
        let record = SeriesStats::from_records(&records).record;
        println!(
            "nmm width {width:<18} {nodes:>12.0} {ms:>10.3} {:>8.2}× {:>10.1}% {:>14} {:>6.1}%",
            ms / mm_ms.max(f64::MIN_POSITIVE),
            optimal,
            format!("{}/{}/{}", record.wins, record.draws, record.losses),
            100.0 * record.win_rate
        );
    }
    Ok(())
}
