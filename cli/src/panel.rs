//! `evoboard panel`: the Othello ENN paper's evaluation (Gunawan et al.
//! 2012). The player meets a panel of
//! search players at one depth, each built from a single feature of the game's heuristic,
//! then the whole heuristic, the game's reference players and `random`: which parts of
//! the heuristic has an evolved evaluator learned, and which does it still lose to?

use clap::Args;

use crate::benchmark::{RecordColumns, games_progress};
use crate::common::{SeriesArgs, configure_threads};
use crate::error::CliResult;
use evoboard::arena::panel::pooled;
use evoboard::arena::reports::panel_report;
use evoboard::arena::spec::UNTIMED_DEPTH;
use evoboard::arena::{AgentSpec, Forfeits, PanelRow, SeriesConfig, panel_opponents, play_panel};
use evoboard::eval::NamedEvaluators;

/// The ENN paper's evaluation: the player against a search over each heuristic feature.
#[derive(Debug, Args)]
pub struct PanelArgs {
    /// The agent measured, played as given: its own depth and @EPS (champion:PATH without
    /// a depth plays at the depth it evolved at).
    #[arg(long)]
    player: String,
    /// Search depth of the opponents (the player keeps its spec's depth).
    #[arg(long, default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(UNTIMED_DEPTH)))]
    depth: u32,
    #[command(flatten)]
    series: SeriesArgs,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run<G: NamedEvaluators>(start: G, args: &PanelArgs) -> CliResult {
    let player_spec = args.player.parse::<AgentSpec>()?;
    configure_threads(usize::from(args.series.threads))?;
    let player = player_spec.build(&start)?;
    // Every opponent is built before the first game, so a bad one fails at once.
    let opponents = panel_opponents::<G>(args.depth)
        .into_iter()
        .map(|spec| {
            let agent = spec.parse::<AgentSpec>()?.build(&start)?;
            Ok((spec, agent))
        })
        .collect::<CliResult<Vec<_>>>()?;
    let config = SeriesConfig {
        games: args.series.games as usize,
        opening_plies: args.series.openings,
        seed: args.series.seed,
    };
    let progress = games_progress((opponents.len() * config.games) as u64)?;
    let rows = play_panel(
        &start,
        player.as_ref(),
        &opponents,
        config,
        &|opponent| progress.set_prefix(format!("{} vs {opponent}", player.name())),
        &|| progress.inc(1),
    )?;
    progress.finish_and_clear();
    let mut forfeits = Forfeits::default();
    for row in &rows {
        forfeits.join(&row.forfeits);
    }
    if let Some(warning) = forfeits.warning() {
        eprintln!("warning: {warning}");
    }
    if args.json {
        println!(
            "{}",
            panel_report(start.name(), &args.player, args.depth, config, &rows)
        );
    } else {
        print_panel(start.name(), args, &rows);
    }
    Ok(())
}

fn print_panel(game: &str, args: &PanelArgs, rows: &[PanelRow]) {
    println!(
        "{game}: {} against depth-{} opponents, {} games each ({} random opening plies, seed {})",
        args.player, args.depth, args.series.games, args.series.openings, args.series.seed
    );
    let width = rows
        .iter()
        .map(|row| row.opponent.chars().count())
        .max()
        .unwrap_or(0)
        .max("opponent".len());
    println!("{:<width$} {}", "opponent", RecordColumns::header());
    for row in rows {
        println!("{:<width$} {}", row.opponent, RecordColumns(&row.record));
    }
    println!("{:<width$} {}", "overall", RecordColumns(&pooled(rows)));
}
