//! Gifford et al.'s (2008) experiment: every non-empty combination of the Kalah heuristics H1–H6 (63
//! players, equal weights) at one look-ahead against `random`, half the games first and
//! half second, ranked by win %.

use rayon::prelude::*;
use serde::Serialize;

use crate::arena::tables::SummaryColumns;
use crate::arena::tournament::{AgentSummary, series_summary};
use crate::arena::{AgentSpec, SeriesConfig, play_series};
use crate::csv_rows::{column_names, csv_text};
use crate::experiments::ExperimentError;
use crate::games::mancala::Kalah;
use crate::rng::derive_seed;

/// How the experiment is played.
#[derive(Clone, Copy, Debug)]
pub struct GiffordConfig {
    /// Look-ahead (search depth) of every heuristic player.
    pub depth: u32,
    /// Games going first and, again, going second for each player (Gifford et al.: 100).
    pub games_per_seat: usize,
    /// Seed of the openings and of the players' random choices (each combination of
    /// heuristics derives its own).
    pub seed: u64,
}

/// Players in the experiment: every non-empty set of the six heuristics.
pub const PLAYERS: u32 = 63;

/// One player's results.
#[derive(Clone, Debug)]
pub struct GiffordRow {
    /// The heuristics it adds up (bit k = H(k+1)).
    pub mask: u32,
    pub summary: AgentSummary,
}

/// The spec of the player using the heuristics in `mask` (bit k = H(k+1)).
pub fn spec_for(mask: u32, depth: u32) -> String {
    let names: Vec<String> = (0..6)
        .filter(|k| mask >> k & 1 == 1)
        .map(|k| format!("h{}", k + 1))
        .collect();
    format!("minimax:{depth}:{}", names.join("+"))
}

/// Plays every player's series against `random` (in parallel; the result does not depend
/// on the thread count) and ranks them by win %, then mean margin, then mask.
/// `on_game_done` is called after each game.
pub fn rank_players(
    config: GiffordConfig,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<GiffordRow>, ExperimentError> {
    let start = Kalah::game(6, 4, false);
    let random = "random".parse::<AgentSpec>()?.build(&start)?;
    let mut rows: Vec<GiffordRow> = (1..=PLAYERS)
        .into_par_iter()
        .map(|mask| {
            let spec = spec_for(mask, config.depth);
            let player = spec.parse::<AgentSpec>()?.build(&start)?;
            let series = SeriesConfig {
                games: 2 * config.games_per_seat,
                opening_plies: 0,
                seed: derive_seed(config.seed, &[u64::from(mask)]),
            };
            let records = play_series(
                &start,
                player.as_ref(),
                random.as_ref(),
                series,
                on_game_done,
            )?;
            let summary = series_summary(spec, &records);
            Ok(GiffordRow { mask, summary })
        })
        .collect::<Result<_, ExperimentError>>()?;
    rows.sort_by(|a, b| {
        let (x, y) = (&a.summary, &b.summary);
        y.win_rate
            .total_cmp(&x.win_rate)
            .then(y.avg_margin.total_cmp(&x.avg_margin))
            .then(a.mask.cmp(&b.mask))
    });
    Ok(rows)
}

/// The start of a row of the CSV table: the rank, which heuristics (0 or 1 each) and the
/// look-ahead.
#[derive(Serialize)]
struct RankRow {
    rank: usize,
    h1: u32,
    h2: u32,
    h3: u32,
    h4: u32,
    h5: u32,
    h6: u32,
    lookahead: u32,
}

/// A row of the CSV table for the player ranked `rank`.
fn csv_row(rank: usize, row: &GiffordRow, depth: u32) -> (RankRow, SummaryColumns<'_>) {
    let h = |k: u32| row.mask >> k & 1;
    let head = RankRow {
        rank,
        h1: h(0),
        h2: h(1),
        h3: h(2),
        h4: h(3),
        h5: h(4),
        h6: h(5),
        lookahead: depth,
    };
    (head, SummaryColumns(&row.summary))
}

/// The ranked `rows` as CSV, with every statistic of Gifford et al.
pub fn ranking_csv(rows: &[GiffordRow], depth: u32) -> String {
    let unplayed = GiffordRow {
        mask: 0,
        summary: AgentSummary::default(),
    };
    let header = column_names(&csv_row(0, &unplayed, depth));
    let rows = rows
        .iter()
        .enumerate()
        .map(|(k, row)| csv_row(k + 1, row, depth));
    csv_text(&header, rows, csv::QuoteStyle::Necessary)
}
