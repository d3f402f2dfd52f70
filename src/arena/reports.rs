//! The reports of a benchmark, a panel and a tournament as JSON objects: what `--json`
//! prints and what the Python package returns as dicts, built once here so every front end
//! reports the same fields (their layout is documented in docs/guide.md).

use serde::Serialize;
use serde_json::{Value, json};

use crate::arena::panel::{PanelRow, pooled};
use crate::arena::tournament::{TournamentConfig, TournamentResult};
use crate::arena::{SeriesConfig, SeriesStats};
use crate::statistics::Ratings;

/// The `benchmark` report (`evoboard.benchmark/1`): the settings (the agents as their
/// specs), every [`SeriesStats`] field, the games forfeited, and under the League protocol (`league`) its score.
pub fn benchmark_report(
    game: &str,
    player: &str,
    opponent: &str,
    league: bool,
    config: SeriesConfig,
    stats: &SeriesStats,
    forfeited: usize,
) -> Value {
    let mut report = with_fields(
        json!({
            "schema": "evoboard.benchmark/1",
            "game": game,
            "player": player,
            "opponent": opponent,
            "protocol": if league { "league" } else { "standard" },
            "seed": config.seed,
            "opening_plies": config.opening_plies,
        }),
        stats,
    );
    let (low, high) = stats.record.score_interval();
    report["score"] = json!(stats.record.score());
    report["score_ci_low"] = json!(low);
    report["score_ci_high"] = json!(high);
    report["forfeited"] = json!(forfeited);
    report
}

/// The `panel` report (`evoboard.panel/1`): the settings, one row per opponent, and the
/// pooled record.
pub fn panel_report(
    game: &str,
    player: &str,
    depth: u32,
    config: SeriesConfig,
    rows: &[PanelRow],
) -> Value {
    json!({
        "schema": "evoboard.panel/1",
        "game": game,
        "player": player,
        "depth": depth,
        "games": config.games,
        "seed": config.seed,
        "opening_plies": config.opening_plies,
        "rows": rows,
        "overall": pooled(rows),
    })
}

/// The `tournament` report (`evoboard.tournament/1`): the settings, each agent's summary,
/// the pairwise matrix, the games forfeited and the ratings if asked for.
pub fn tournament_report(
    game: &str,
    config: &TournamentConfig,
    result: &TournamentResult,
    ratings: Option<&Ratings>,
) -> Value {
    json!({
        "schema": "evoboard.tournament/1",
        "game": game,
        "games_per_pair": config.games_per_pair,
        "opening_plies": config.opening_plies,
        "seed": config.seed,
        "agents": result.agents,
        "matrix": result.matrix,
        "forfeited": result.forfeits.forfeited,
        "ratings": ratings,
    })
}

/// `object` with the fields of `fields`' JSON object added: a report's settings followed
/// by a statistics struct, without a wrapper type for each report.
fn with_fields(mut object: Value, fields: &impl Serialize) -> Value {
    if let (Some(object), Ok(Value::Object(fields))) =
        (object.as_object_mut(), serde_json::to_value(fields))
    {
        object.extend(fields);
    }
    object
}
