//! The round robin among an experiment's champions: every champion (and the plan's fixed
//! anchors) against every other, rated on the Elo scale (`statistics::rate`). Played once
//! all runs are measured, and kept in `round-robin.json`, so a resumed experiment does not
//! play it again.

use std::collections::BTreeMap;

use crate::arena::AgentSpec;
use crate::arena::tournament::{TournamentConfig, round_robin};
use crate::eval::NamedEvaluators;
use crate::experiments::plan::{Plan, RATING, RoundRobinMeasure};
use crate::experiments::rebuild::ensure_champion;
use crate::experiments::runner::{
    ExperimentDir, ExperimentObserver, Measured, RunLabel, RunMeasures,
};
use crate::experiments::{ExperimentError, read_kept, write_kept};
use crate::statistics::{Ratings, rate};

/// `round-robin.json`: the ratings, and what they were played for.
#[derive(serde::Serialize, serde::Deserialize)]
struct KeptRatings {
    #[serde(flatten)]
    ratings: Ratings,
    #[serde(default)]
    taken_for: Option<String>,
    /// Each champion's SHA-256 (as its run's evaluation records it), by its name among the
    /// players.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    champion_sha256: BTreeMap<String, String>,
}

/// Bootstrap resamples behind the ratings' intervals.
const BOOTSTRAP: usize = 1000;

/// The name of run (`variant`, `seed`)'s champion among the players.
fn champion_name(variant: &str, seed: u64) -> String {
    format!("{variant}/seed-{seed}")
}

/// Adds each run's rating to `runs`, playing the round robin unless it was played before.
pub fn rate_champions<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    measure: &RoundRobinMeasure,
    experiment: &ExperimentDir,
    runs: &mut [RunMeasures],
    observer: &dyn ExperimentObserver,
) -> Result<Ratings, ExperimentError> {
    let file = experiment.dir.join("round-robin.json");
    // What the ratings were played for: the measure and the champions (a plan edited in
    // place may ask for another round robin, or have other runs).
    let champions: Vec<String> = runs
        .iter()
        .map(|run| {
            format!(
                "{} at generation {}",
                champion_name(&run.variant, run.seed),
                run.champion_generation
            )
        })
        .collect();
    let taken_for = serde_json::json!({ "measure": measure, "champions": champions }).to_string();
    let champion_sha256: BTreeMap<String, String> = runs
        .iter()
        .filter_map(|run| {
            let hash = run.champion_sha256.clone()?;
            Some((champion_name(&run.variant, run.seed), hash))
        })
        .collect();
    let kept: Option<KeptRatings> = read_kept(&file, "play the round robin again")?;
    let ratings = match kept.filter(|kept| kept.taken_for.as_ref() == Some(&taken_for)) {
        Some(kept) if kept.champion_sha256 == champion_sha256 => kept.ratings,
        // Played before champions were recorded by hash: the hashes are filled in.
        Some(kept) => {
            let kept = KeptRatings {
                champion_sha256,
                ..kept
            };
            write_kept(&file, &kept)?;
            kept.ratings
        }
        None => {
            let ratings = play(start, plan, measure, experiment, runs, observer)?;
            let kept = KeptRatings {
                ratings,
                taken_for: Some(taken_for),
                champion_sha256,
            };
            write_kept(&file, &kept)?;
            kept.ratings
        }
    };
    for run in runs.iter_mut() {
        let name = champion_name(&run.variant, run.seed);
        if let Some(player) = ratings.players.iter().find(|p| p.player == name) {
            run.measures.push(Measured {
                measure: RATING.to_string(),
                value: player.elo,
                games: player.games as usize,
            });
        }
    }
    Ok(ratings)
}

/// Plays the round robin and rates its players.
fn play<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    measure: &RoundRobinMeasure,
    experiment: &ExperimentDir,
    runs: &[RunMeasures],
    observer: &dyn ExperimentObserver,
) -> Result<Ratings, ExperimentError> {
    let mut names = Vec::new();
    let mut agents = Vec::new();
    for (index, run) in runs.iter().enumerate() {
        let run_dir = experiment.run_dir(&run.variant, run.seed);
        let label = RunLabel {
            index,
            total: runs.len(),
            variant: &run.variant,
            seed: run.seed,
        };
        ensure_champion(
            start,
            &run_dir,
            run.champion_sha256.as_deref(),
            label,
            observer,
        )?;
        let path = run_dir.join("champion.evo");
        let spec: AgentSpec = format!("champion:{}", path.display()).parse()?;
        names.push(champion_name(&run.variant, run.seed));
        agents.push((
            names.last().cloned().expect("just pushed"),
            spec.build(start)?,
        ));
    }
    for anchor in &measure.anchors {
        names.push(anchor.clone());
        agents.push((anchor.clone(), anchor.parse::<AgentSpec>()?.build(start)?));
    }
    let config = TournamentConfig {
        games_per_pair: measure.games,
        opening_plies: measure.openings,
        seed: measure.seed,
        timed_moves: None,
    };
    let result = round_robin(start, &agents, config, &|| {})?;
    if let Some(forfeits) = result.forfeits.warning() {
        return Err(ExperimentError::Forfeited {
            measure: "the ratings' round robin".to_string(),
            forfeits,
        });
    }
    let anchor = measure.anchors.first().cloned().unwrap_or_else(|| {
        let baseline = &plan.variants[plan.baseline].name;
        champion_name(baseline, plan.seeds[0])
    });
    Ok(rate(
        &names,
        &result.pair_games,
        &anchor,
        BOOTSTRAP,
        measure.seed,
    )?)
}
