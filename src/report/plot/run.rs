//! The plots of a run directory, drawn from its `run.json` and `stats.csv` (and its
//! `ratings.csv`, when it has one), with what the run's settings tell about them.

use std::path::{Path, PathBuf};

use crate::champion::Champion;
use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::EvolveConfig;
use crate::evolve::gating_benchmark;
use crate::evolve::league::{credited_games, fixed_mean_fitness};

use super::{
    PlotError, RunNotes, Shown, draw_annotated, draw_figures, rating_figure, read_ratings,
    read_stats,
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
    let caption = format!(
        "{} · {} preset · seed {} · {} · depth {}",
        info.game,
        config.preset,
        config.seed,
        info.architecture.name(),
        config.depth
    );
    let shown = Shown::for_config(config);
    let notes = RunNotes {
        champion: Champion::generation_of(&run.champion(), &info.game).ok(),
        ..run_notes(config)
    };
    let mut written = draw_annotated(&rows, &caption, &shown, &notes, out)?;
    let ratings = run.dir.join("ratings.csv");
    if ratings.exists() {
        let figure = rating_figure(&read_ratings(&ratings)?);
        written.extend(draw_figures(&[figure], &caption, out)?);
    }
    Ok(written)
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
    }
}

/// What each generation of the run puts up against the benchmark.
fn benchmarked(config: &EvolveConfig) -> &'static str {
    config.preset.learner().offered_label(config)
}
