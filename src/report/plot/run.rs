//! The plots of a run directory, drawn from its `run.json` and `stats.csv` (and its
//! `ratings.csv`, when it has one), with what the run's settings tell about them.

use std::path::{Path, PathBuf};

use crate::champion::Champion;
use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::EvolveConfig;
use crate::evolve::gating_benchmark;
use crate::evolve::league::{credited_games, fixed_mean_fitness};

use super::{
    ChampionTest, PlotError, RunNotes, Shown, draw_annotated, draw_figures, rating_figure,
    read_ratings, read_stats,
};

/// Draws the plots of the run in `run_dir` (its `run.json` and `stats.csv`) into `out`.
pub fn plot_run(run_dir: &Path, out: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let run = RunDir {
        dir: run_dir.to_path_buf(),
    };
    let info = run.read_info().map_err(|e| PlotError::Read {
        path: run.run_json(),
        reason: e.to_string(),
    })?;
    let rows = read_stats(&run.stats_csv())?;
    let config = &info.config;
    let mut caption = format!(
        "{} · {} preset · seed {} · {} · depth {}",
        info.game,
        config.preset,
        config.seed,
        info.architecture.name(),
        config.depth
    );
    for note in learning_notes(config) {
        caption.push_str(" · ");
        caption.push_str(&note);
    }
    let shown = Shown::for_config(config);
    let notes = champion_notes(Some(&run.champion()), &info.game, config);
    let mut written = draw_annotated(&rows, &caption, &shown, &notes, out)?;
    let ratings = run.dir.join("ratings.csv");
    if ratings.exists() {
        let figure = rating_figure(&read_ratings(&ratings)?);
        written.extend(draw_figures(&[figure], &caption, out)?);
    }
    Ok(written)
}

/// What a run's settings and its champion file `champion` (of `game`; none there while the
/// run goes on) tell about its plots: [`run_notes`] with the champion's generation and
/// final test.
pub fn champion_notes(champion: Option<&Path>, game: &str, config: &EvolveConfig) -> RunNotes {
    let tested = champion.and_then(|path| Champion::tested_of(path, game).ok());
    RunNotes {
        champion: tested.map(|(generation, _)| generation),
        champion_test: tested.and_then(|(generation, rate)| {
            let games = config.selection_games;
            Some(ChampionTest::new(generation, rate?, games)).filter(|_| games > 0)
        }),
        ..run_notes(config)
    }
}

/// What a run's settings tell about its plots.
pub fn run_notes(config: &EvolveConfig) -> RunNotes {
    let evolves = config.evolves();
    RunNotes {
        benchmarked: Some(benchmarked(config)),
        opponent: Some(gating_benchmark(config)),
        fitness_games: evolves.then(|| credited_games(config, config.hall_of_fame)),
        fixed_mean: fixed_mean_fitness(config),
        // One champion joins the hall after each generation (see `Evolution::step`).
        hall_filling: (evolves && config.hall_of_fame > 0)
            .then(|| u32::try_from(config.hall_of_fame).unwrap_or(u32::MAX)),
        champion: None,
        champion_test: None,
    }
}

/// The settings that make a run learn differently from its preset's plain form, as the
/// caption names them: two plots with the same preset, seed and network may otherwise
/// look like the same run.
pub fn learning_notes(config: &EvolveConfig) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(end) = config.learning_rate_end {
        notes.push(format!("α {} → {end}", config.learning_rate));
    }
    if config.td_lambda > 0.0 {
        notes.push(format!("λ {}", config.td_lambda));
    }
    if config.learn_exploring {
        notes.push("learning from random moves".to_string());
    }
    if config.learn_symmetries {
        notes.push("learning symmetric images".to_string());
    }
    if !config.sparring.is_empty() {
        notes.push(format!("sparring {}", config.sparring.join(", ")));
    }
    if let Some(teacher) = &config.teacher {
        notes.push(match config.teacher_depth {
            0 => format!("teacher {teacher}"),
            depth => format!("teacher {teacher} searching {depth} plies"),
        });
    }
    if config.teacher_ranking > 0.0 {
        notes.push(format!(
            "ranking its moves at temperature {}",
            config.teacher_ranking
        ));
    }
    if let Some(start) = &config.start_from {
        notes.push(format!("from {start}"));
    }
    if config.play_epsilon > 0.0 {
        notes.push(format!("random moves in play ε {}", config.play_epsilon));
    }
    if config.mean_rate != 1.0 {
        notes.push(format!("mean rate {}", config.mean_rate));
    }
    if config.common_random_moves {
        notes.push("common random moves".into());
    }
    notes
}

/// What each generation of the run puts up against the benchmark.
fn benchmarked(config: &EvolveConfig) -> &'static str {
    config.preset.learner().offered_label(config)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evolve::config::Preset;

    #[test]
    fn the_caption_names_what_changes_the_learning() {
        let mut config = EvolveConfig::new(Preset::TD);
        assert!(learning_notes(&config).is_empty());
        config.learn_exploring = true;
        config.learning_rate = 0.002;
        config.learning_rate_end = Some(0.0002);
        config.sparring = vec!["wpc:1@0.1".to_string()];
        assert_eq!(
            learning_notes(&config),
            [
                "α 0.002 → 0.0002",
                "learning from random moves",
                "sparring wpc:1@0.1"
            ]
        );
        config.teacher = Some("teacher.evo".to_string());
        config.teacher_ranking = 0.1;
        assert_eq!(
            learning_notes(&config)[3..],
            [
                "teacher teacher.evo",
                "ranking its moves at temperature 0.1"
            ]
        );
    }
}
