//! The series a plan's measures play with a run's champion: against a fixed opponent, the
//! League's, and the paper's panel. The runner takes its validation measures of every run
//! with them, and [`super::held_out`] its held-out ones of the run validation chose.

use std::path::Path;

use crate::arena::{
    AgentSpec, Forfeits, SeriesConfig, SeriesStats, WinRecord, league_agents, league_series,
    panel_opponents, play_panel, play_series,
};
use crate::eval::NamedEvaluators;
use crate::experiments::ExperimentError;
use crate::experiments::plan::{BenchmarkMeasure, LeagueMeasure, PanelMeasure};

/// The champion in `file` as an agent spec, at `depth` (`None`: the depth it evolved at).
pub fn champion_spec(file: &Path, depth: Option<u32>) -> Result<AgentSpec, ExperimentError> {
    let depth = depth.map(|d| format!(":{d}")).unwrap_or_default();
    Ok(format!("champion:{}{depth}", file.display()).parse()?)
}

/// The champion in `file` against the measure's opponent: its record over the measure's
/// games and openings.
pub fn play_benchmark<G: NamedEvaluators>(
    start: &G,
    file: &Path,
    measure: &BenchmarkMeasure,
) -> Result<WinRecord, ExperimentError> {
    let config = SeriesConfig {
        games: measure.games,
        opening_plies: measure.openings,
        seed: measure.seed,
    };
    let opponent = measure.opponent.parse::<AgentSpec>()?;
    play_specs(
        start,
        &champion_spec(file, measure.depth)?,
        &opponent,
        config,
    )
}

/// The champion in `file` as the League measures it: at one ply with ε-random moves,
/// against the League's opponent; its score is the measure.
pub fn play_league<G: NamedEvaluators>(
    start: &G,
    file: &Path,
    measure: &LeagueMeasure,
) -> Result<WinRecord, ExperimentError> {
    let (player, opponent) = league_agents(&champion_spec(file, None)?)?;
    let config = league_series(measure.games, measure.seed);
    play_specs(start, &player, &opponent, config)
}

/// `player`'s record against `opponent` over the series `config`; a forfeited game is an
/// error, never a result.
pub fn play_specs<G: NamedEvaluators>(
    start: &G,
    player: &AgentSpec,
    opponent: &AgentSpec,
    config: SeriesConfig,
) -> Result<WinRecord, ExperimentError> {
    let (player, opponent) = (player.build(start)?, opponent.build(start)?);
    let records = play_series(start, player.as_ref(), opponent.as_ref(), config, &|| {})?;
    let mut forfeits = Forfeits::default();
    forfeits.add(&records, "");
    refuse_forfeits(
        &format!("{} vs {}", player.name(), opponent.name()),
        &forfeits,
    )?;
    Ok(SeriesStats::from_records(&records).record)
}

/// Refuses a measure (named `measure`) in which a game was forfeited: its number would
/// count a failure as a result.
fn refuse_forfeits(measure: &str, forfeits: &Forfeits) -> Result<(), ExperimentError> {
    match forfeits.warning() {
        Some(warning) => Err(ExperimentError::Forfeited {
            measure: measure.to_string(),
            forfeits: warning,
        }),
        None => Ok(()),
    }
}

/// The champion in `file` against each opponent of the game's panel: the opponent's spec
/// and the champion's record against it, in panel order.
pub fn play_panel_rows<G: NamedEvaluators>(
    start: &G,
    file: &Path,
    measure: &PanelMeasure,
) -> Result<Vec<(String, WinRecord)>, ExperimentError> {
    let player = champion_spec(file, measure.player_depth)?.build(start)?;
    let opponents = panel_opponents::<G>(measure.depth)
        .into_iter()
        .map(|spec| Ok((spec.clone(), spec.parse::<AgentSpec>()?.build(start)?)))
        .collect::<Result<Vec<_>, ExperimentError>>()?;
    let config = SeriesConfig {
        games: measure.games,
        opening_plies: measure.openings,
        seed: measure.seed,
    };
    let rows = play_panel(start, player.as_ref(), &opponents, config, &|_| {}, &|| {})?;
    for row in &rows {
        refuse_forfeits(
            &format!("the panel's series against {}", row.opponent),
            &row.forfeits,
        )?;
    }
    Ok(rows
        .into_iter()
        .map(|row| (row.opponent, row.record))
        .collect())
}
