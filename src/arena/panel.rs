//! The paper's panel of opponents (the Othello ENN paper's evaluation): negamax players each
//! built from one feature of the game's heuristic, then the whole heuristic, the game's reference
//! evaluators, and a random player. `panel` plays them all; `evolve` can benchmark each
//! generation against them. The panel is played as one series per opponent.

use serde::Serialize;

use crate::arena::agent::Agent;
use crate::arena::openings::OpeningError;
use crate::arena::series::{SeriesConfig, play_series};
use crate::arena::stats::{Forfeits, SeriesStats, WinRecord};
use crate::eval::NamedEvaluators;
use crate::games::Describe;

/// The panel's specs at `depth`: each feature alone, the heuristic, the game's extra
/// reference evaluators, then `random` as the floor.
pub fn panel_opponents<G: NamedEvaluators>(depth: u32) -> Vec<String> {
    panel_evaluators::<G>()
        .into_iter()
        .map(|name| search_spec(depth, name))
        .chain(["random".to_string()])
        .collect()
}

/// The names of the panel's evaluators: each feature of the game's heuristic alone, the
/// heuristic, then the game's extra reference evaluators.
pub fn panel_evaluators<G: NamedEvaluators>() -> Vec<&'static str> {
    let features = G::panel_features().into_iter();
    features
        .chain(["heuristic"])
        .chain(G::panel_extras().iter().copied())
        .collect()
}

/// A `depth`-ply search over evaluator `name`, in the short form where specs have one
/// (`heuristic:D`, `wpc:D`), so the rows read as people write the specs.
pub(crate) fn search_spec(depth: u32, name: &str) -> String {
    match name {
        "heuristic" | "wpc" => format!("{name}:{depth}"),
        _ => format!("minimax:{depth}:{name}"),
    }
}

/// One opponent's series, from the player's side.
#[derive(Clone, Debug, Serialize)]
pub struct PanelRow {
    pub opponent: String,
    #[serde(flatten)]
    pub record: WinRecord,
    /// The games of the series that a side forfeited (in reports, their number).
    #[serde(rename = "forfeited", serialize_with = "forfeit_count")]
    pub forfeits: Forfeits,
}

/// A series' forfeits as reports give them: how many games were forfeited.
fn forfeit_count<S: serde::Serializer>(
    forfeits: &Forfeits,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_u64(forfeits.forfeited as u64)
}

/// One series of `player` against each of `opponents` (name, agent), each from the same
/// openings and seed, so rows differ only in the opponent. `on_series` is called with each
/// opponent's name before its series, `on_game_done` after each game (for progress bars).
pub fn play_panel<G: Describe>(
    start: &G,
    player: &dyn Agent<G>,
    opponents: &[(String, Box<dyn Agent<G>>)],
    config: SeriesConfig,
    on_series: &dyn Fn(&str),
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<PanelRow>, OpeningError> {
    opponents
        .iter()
        .map(|(name, opponent)| {
            on_series(name);
            let records = play_series(start, player, opponent.as_ref(), config, on_game_done)?;
            let mut forfeits = Forfeits::default();
            forfeits.add(&records, &format!("{} vs {name}", player.name()));
            Ok(PanelRow {
                opponent: name.clone(),
                record: SeriesStats::from_records(&records).record,
                forfeits,
            })
        })
        .collect()
}

/// All rows' games pooled. Its interval treats them as one sample, which is conservative
/// here: a fixed number of games per opponent varies less than one binomial sample.
pub fn pooled(rows: &[PanelRow]) -> WinRecord {
    let sum = |count: fn(&WinRecord) -> usize| rows.iter().map(|row| count(&row.record)).sum();
    WinRecord::new(sum(|r| r.wins), sum(|r| r.draws), sum(|r| r.losses))
}
