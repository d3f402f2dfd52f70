//! A run's progress on an absolute scale: the networks `evolve --snapshots K` kept, each
//! in a gauntlet against fixed anchors (the anchors also play each other), rated on the
//! Elo scale. A TD learner's or a coevolutionary run's own fitness says nothing absolute;
//! this does.

use std::path::Path;

use crate::arena::AgentSpec;
use crate::arena::tournament::{TournamentConfig, play_pairs};
use crate::csv_rows::{Fixed, column_names, csv_text};
use crate::eval::NamedEvaluators;
use crate::evolve::checkpoint::RunDir;
use crate::experiments::{ExperimentError, write_file};
use crate::report::plot::RatingRow;
use crate::statistics::rate;

/// How the kept generations are rated.
#[derive(Clone, Debug)]
pub struct Gauntlet {
    /// Fixed opponents (agent specs); the first is the 0 of the scale.
    pub anchors: Vec<String>,
    /// Games of each pair (even: each opening with both colours).
    pub games: usize,
    pub opening_plies: u32,
    pub seed: u64,
    /// Bootstrap resamples behind the intervals.
    pub bootstrap: usize,
}

/// The generations whose networks the run in `dir` kept, in order.
pub fn kept_generations(dir: &Path) -> Vec<u32> {
    let mut generations: Vec<u32> = std::fs::read_dir(dir.join("snapshots"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            name.strip_prefix("gen-")?
                .strip_suffix(".evo")?
                .parse()
                .ok()
        })
        .collect();
    generations.sort_unstable();
    generations
}

/// Rates every kept generation of the run in `dir` against `gauntlet`'s anchors and
/// writes `ratings.csv` there; returns its rows (the generations, then the anchors).
pub fn rate_generations<G: NamedEvaluators>(
    start: &G,
    dir: &Path,
    gauntlet: &Gauntlet,
    on_game_done: &(dyn Fn() + Sync),
) -> Result<Vec<RatingRow>, ExperimentError> {
    let run = RunDir {
        dir: dir.to_path_buf(),
    };
    let generations = kept_generations(dir);
    if generations.is_empty() {
        return Err(ExperimentError::Directory(format!(
            "{} kept no networks: evolve runs keep them with the setting snapshots = K",
            dir.display()
        )));
    }
    if gauntlet.anchors.is_empty() {
        return Err(ExperimentError::Directory(
            "name at least one anchor to rate against".into(),
        ));
    }
    let mut names = gauntlet.anchors.clone();
    let mut agents = Vec::new();
    for anchor in &gauntlet.anchors {
        agents.push((anchor.clone(), anchor.parse::<AgentSpec>()?.build(start)?));
    }
    for &generation in &generations {
        let name = format!("generation {generation}");
        let spec = format!("champion:{}", run.snapshot(generation).display());
        agents.push((name.clone(), spec.parse::<AgentSpec>()?.build(start)?));
        names.push(name);
    }
    let anchors = gauntlet.anchors.len();
    let pairs: Vec<(usize, usize)> = (0..anchors)
        .flat_map(|i| (i + 1..anchors).map(move |j| (i, j)))
        .chain((anchors..names.len()).flat_map(|k| (0..anchors).map(move |a| (a, k))))
        .collect();
    let config = TournamentConfig {
        games_per_pair: gauntlet.games,
        opening_plies: gauntlet.opening_plies,
        seed: gauntlet.seed,
        timed_moves: None,
    };
    let result = play_pairs(start, &agents, &pairs, config, on_game_done)?;
    if let Some(forfeits) = result.forfeits.warning() {
        return Err(ExperimentError::Forfeited {
            measure: "the gauntlet".to_string(),
            forfeits,
        });
    }
    let ratings = rate(
        &names,
        &result.pair_games,
        &gauntlet.anchors[0],
        gauntlet.bootstrap,
        gauntlet.seed,
    )?;
    let row = |name: &str, generation: Option<u32>| {
        let p = ratings
            .players
            .iter()
            .find(|p| p.player == name)
            .expect("every player is rated");
        RatingRow {
            player: name.to_string(),
            generation,
            elo: Fixed(p.elo),
            ci_low: Fixed(p.ci_low),
            ci_high: Fixed(p.ci_high),
            games: p.games,
        }
    };
    let rows: Vec<RatingRow> = generations
        .iter()
        .map(|&g| row(&format!("generation {g}"), Some(g)))
        .chain(gauntlet.anchors.iter().map(|a| row(a, None)))
        .collect();
    let text = csv_text(&column_names(&rows[0]), &rows, csv::QuoteStyle::Necessary);
    write_file(&dir.join("ratings.csv"), text.as_bytes())?;
    Ok(rows)
}
