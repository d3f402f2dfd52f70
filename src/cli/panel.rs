//! `evoboard panel`: the ENN paper's evaluation (seed 004). The player meets a panel of
//! search players at one depth, each built from a single feature of the game's heuristic,
//! then the whole heuristic, the game's reference players and `random`: which parts of
//! the heuristic has an evolved evaluator learned, and which does it still lose to?

use clap::Args;
use serde::Serialize;
use serde_json::json;

use crate::arena::spec::UNTIMED_DEPTH;
use crate::arena::{
    Agent, AgentSpec, SeriesConfig, SeriesStats, WinRecord, panel_opponents, play_series,
};
use crate::cli::benchmark::{RecordColumns, games_progress};
use crate::cli::{CliResult, GameName, SeriesArgs, configure_threads, with_game};
use crate::eval::NamedEvaluators;

#[derive(Debug, Args)]
pub struct PanelArgs {
    /// Game to play.
    #[arg(long)]
    game: GameName,
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

/// One opponent's series, from the player's side.
#[derive(Debug, Serialize)]
struct Row {
    opponent: String,
    #[serde(flatten)]
    record: WinRecord,
}

pub fn run(args: &PanelArgs) -> CliResult {
    let player = args.player.parse::<AgentSpec>()?;
    configure_threads(usize::from(args.series.threads))?;
    with_game!(args.game, |start| run_panel(start, args, &player))
}

fn run_panel<G: NamedEvaluators>(start: G, args: &PanelArgs, player_spec: &AgentSpec) -> CliResult {
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
    let rows = play_rows(&start, player.as_ref(), &opponents, config)?;
    if args.json {
        println!("{}", panel_json(start.name(), args, &rows));
    } else {
        print_panel(start.name(), args, &rows);
    }
    Ok(())
}

/// One series per opponent, each from the same openings and seed (so rows differ only in
/// the opponent), under one progress bar over all games.
fn play_rows<G: NamedEvaluators>(
    start: &G,
    player: &dyn Agent<G>,
    opponents: &[(String, Box<dyn Agent<G>>)],
    config: SeriesConfig,
) -> CliResult<Vec<Row>> {
    let progress = games_progress((opponents.len() * config.games) as u64)?;
    let mut rows = Vec::with_capacity(opponents.len());
    for (spec, opponent) in opponents {
        progress.set_prefix(format!("{} vs {spec}", player.name()));
        let records = play_series(start, player, opponent.as_ref(), config, &|| {
            progress.inc(1)
        })?;
        rows.push(Row {
            opponent: spec.clone(),
            record: SeriesStats::from_records(&records).record,
        });
    }
    progress.finish_and_clear();
    Ok(rows)
}

/// All rows' games pooled. Its interval treats them as one sample, which is conservative
/// here: a fixed number of games per opponent varies less than one binomial sample.
fn overall(rows: &[Row]) -> WinRecord {
    let sum = |count: fn(&WinRecord) -> usize| rows.iter().map(|row| count(&row.record)).sum();
    WinRecord::new(sum(|r| r.wins), sum(|r| r.draws), sum(|r| r.losses))
}

/// The `panel --json` object: the settings, one row per opponent, and the pooled record.
fn panel_json(game: &str, args: &PanelArgs, rows: &[Row]) -> serde_json::Value {
    json!({
        "schema": "evoboard.panel/1",
        "game": game,
        "player": args.player,
        "depth": args.depth,
        "games": args.series.games,
        "seed": args.series.seed,
        "opening_plies": args.series.openings,
        "rows": rows,
        "overall": overall(rows),
    })
}

fn print_panel(game: &str, args: &PanelArgs, rows: &[Row]) {
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
    println!("{:<width$} {}", "overall", RecordColumns(&overall(rows)));
}
