//! Plots of a run, one per question a reader asks: is fitness rising (`fitness`), does each
//! generation's network beat the benchmark (`benchmark`, with its 95% interval and the
//! gate), is the population still diverse (`diversity`). Each is written as PNG and SVG.
//!
//! A plot is first computed as a [`Figure`] (title, axis, marks, legend notes), then drawn:
//! what a figure shows can be tested without looking at pixels. Legends sit in a strip
//! above the chart, so they never hide data.
//!
//! Text is drawn with DejaVu Sans embedded in the binary, so PNG rendering needs no system
//! font library (fontconfig, freetype) on the machine.

mod figure;
mod ratings;
mod render;
use render::render;
mod stats;

pub use figure::{
    Figure, GatePosition, Mark, PALETTE, Shape, Stroke, YAxis, diversity_axis, figures,
    gate_position, padded_range, percent_range,
};
pub use ratings::{RatingRow, rating_figure, read_ratings};
pub use stats::read_stats;

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::champion::Champion;
use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::EvolveConfig;
use crate::evolve::gating_benchmark;
use crate::evolve::league::{credited_games, fixed_mean_fitness};
use crate::evolve::stats::StatsRow;

/// Pixel size of the PNG and SVG plots.
pub const SIZE: (u32, u32) = (1000, 600);

/// Why a plot could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot read {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("{path} has no generations to plot")]
    Empty { path: PathBuf },
    #[error("cannot draw {path}: {reason}")]
    Draw { path: PathBuf, reason: String },
}

impl PlotError {
    /// True when the run directory given to us is at fault (exit code 2), false when
    /// drawing or writing failed.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, PlotError::Draw { .. })
    }
}

/// Which charts a run has and what they mark: its fitness axis (none for a lone network
/// learning by self-play, whose "fitness" is constant), its gate (none when it is 100%,
/// which no run stops at) and its diversity (none for a lone network).
pub struct Shown {
    pub fitness: Option<&'static str>,
    pub gate: Option<f64>,
    pub diversity: bool,
}

impl Shown {
    /// What a run of `config` has to show: every series that means something for its
    /// learner. A lone network learning by self-play has no fitness (a constant) and no
    /// diversity (one network); the console and the web page leave them out too.
    pub fn for_config(config: &EvolveConfig) -> Shown {
        Shown {
            fitness: if config.evolves() {
                Some("league points")
            } else if !config.sparring.is_empty() {
                Some("score against sparring partners")
            } else {
                None
            },
            gate: (config.gate < 1.0).then_some(config.gate),
            diversity: config.population > 1,
        }
    }
}

/// What the plots explain beyond the numbers, known from the run's settings (plots drawn
/// from statistics alone go without).
#[derive(Clone, Debug, Default)]
pub struct RunNotes {
    /// What each generation puts up against the benchmark, e.g. "each generation's best
    /// network".
    pub benchmarked: Option<&'static str>,
    /// The benchmark opponent, for statistics that name none (runs with one opponent).
    pub opponent: Option<String>,
    /// Fitness games an individual is credited with per generation once the hall of fame
    /// is full, fewest to most: each is worth at most 3 points.
    pub fitness_games: Option<RangeInclusive<usize>>,
    /// The mean fitness when the league fixes it by construction (less the draws).
    pub fixed_mean: Option<f64>,
    /// The last generation whose hall of fame was still filling (fewer fitness games).
    pub hall_filling: Option<u32>,
    /// The generation whose network became the run's champion, once it has one.
    pub champion: Option<u32>,
}

/// Draws `fitness`, `benchmark` and `diversity` (PNG and SVG) into `out`, each titled
/// and captioned with `caption` (game, preset, seed …), from the statistics alone; `gate`
/// is marked on the benchmark plot. Files are written atomically. Returns the paths
/// written.
pub fn draw_run(
    rows: &[StatsRow],
    caption: &str,
    shown: &Shown,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    draw_annotated(rows, caption, shown, &RunNotes::default(), out)
}

/// [`draw_run`] with what the run's settings tell about its numbers.
pub fn draw_annotated(
    rows: &[StatsRow],
    caption: &str,
    shown: &Shown,
    notes: &RunNotes,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    draw_figures(&figures(rows, shown, notes), caption, out)
}

/// Draws each of `figures` (PNG and SVG) into `out`, captioned with `caption`; files are
/// written atomically. Returns the paths written.
pub fn draw_figures(
    figures: &[Figure],
    caption: &str,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    register_font();
    std::fs::create_dir_all(out).map_err(|e| PlotError::Draw {
        path: out.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut written = Vec::new();
    for figure in figures {
        for extension in ["png", "svg"] {
            written.push(write_figure(figure, caption, out, extension)?);
        }
    }
    Ok(written)
}

/// Writes `figure` as `out/NAME.extension` through a temporary file renamed into place.
fn write_figure(
    figure: &Figure,
    caption: &str,
    out: &Path,
    extension: &str,
) -> Result<PathBuf, PlotError> {
    let name = &figure.name;
    let path = out.join(format!("{name}.{extension}"));
    // The bitmap backend picks its encoder from the extension: keep it on the temp.
    let temp = out.join(format!(".{name}.tmp-{}.{extension}", std::process::id()));
    let result = if extension == "png" {
        render(
            BitMapBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    } else {
        render(
            SVGBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    };
    let result = result.and_then(|()| std::fs::rename(&temp, &path).map_err(|e| e.to_string()));
    if let Err(reason) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(PlotError::Draw { path, reason });
    }
    Ok(path)
}

/// Makes "sans-serif" resolve to the embedded DejaVu Sans.
fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font is valid"));
    });
}

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
