//! `evoboard prune`: the Congkak report's forward-pruning study (`experiments::prune`), one row
//! per pruning width as it is measured.

use std::path::PathBuf;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::common::{GameName, SeriesArgs, configure_threads, game_parser, with_game};
use crate::error::CliResult;
use evoboard::arena::SeriesConfig;
use evoboard::eval::NamedEvaluators;
use evoboard::experiments::prune::{PruneConfig, PruneStudy};

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Game to measure (a mancala game: MM evaluates the store difference).
    #[arg(long, value_parser = game_parser())]
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
        return Err(crate::error::BadInput("--widths must all be at least 1".to_string()).into());
    }
    if matches!(args.game, GameName::Othello) {
        return Err(crate::error::BadInput(
            "prune studies the Congkak report's MM, a search on the store difference: --game must \
             be kalah, oware, congklak or congkak"
                .to_string(),
        )
        .into());
    }
    configure_threads(usize::from(args.series.threads))?;
    with_game!(args.game, |start| study(start, args))
}

fn study<G: NamedEvaluators>(start: G, args: &PruneArgs) -> CliResult {
    let name = start.name();
    let config = PruneConfig {
        depth: args.depth,
        widths: args.widths.clone(),
        ranker: args.ranker.clone(),
        positions: usize::from(args.positions),
        position_plies: args.position_plies,
        seed: args.series.seed,
    };
    let study = PruneStudy::new(start, &config)?;
    println!(
        "{name}: {} positions ({} random plies, seed {}), depth {}, timed on one thread",
        study.positions(),
        args.position_plies,
        args.series.seed,
        args.depth
    );
    println!(
        "{:<28} {:>12} {:>10} {:>9} {:>11} {:>22}",
        "agent", "nodes/move", "ms/move", "vs MM", "optimal", "strength vs MM (w/d/l)"
    );
    let mm = study.full_width_cost();
    println!(
        "{:<28} {:>12.0} {:>10.3} {:>9} {:>11} {:>22}",
        study.mm_spec, mm.nodes, mm.ms, "1.00×", "100.0%", "-"
    );
    let series = SeriesConfig {
        games: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
    };
    for (k, width) in study.widths().into_iter().enumerate() {
        let progress = ProgressBar::new(u64::from(args.series.games)).with_style(
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games")?
                .progress_chars("=> "),
        );
        progress.set_prefix(format!("width {width} vs MM"));
        let row = study.pruned(k, series, &|| progress.inc(1))?;
        progress.finish_and_clear();
        let record = row.record;
        println!(
            "nmm width {width:<18} {:>12.0} {:>10.3} {:>8.2}× {:>10.1}% {:>14} {:>6.1}%",
            row.cost.nodes,
            row.cost.ms,
            row.cost.ms / mm.ms.max(f64::MIN_POSITIVE),
            row.optimal,
            format!("{}/{}/{}", record.wins, record.draws, record.losses),
            100.0 * record.win_rate
        );
    }
    Ok(())
}
