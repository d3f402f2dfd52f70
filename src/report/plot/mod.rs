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
//!
//! Figures are computed in `figure.rs` (and `ratings.rs`), rendered in `render.rs`,
//! written as files in `draw.rs`; `run.rs` makes a run directory's plots.

mod draw;
mod figure;
mod profile;
mod ratings;
mod render;
mod run;
mod stats;

pub use draw::{draw_annotated, draw_figures, draw_run};
pub use figure::{
    Figure, GatePosition, Mark, PALETTE, Shape, Stroke, YAxis, diversity_axis, figures,
    gate_position, padded_range, percent_range,
};
pub use profile::profile_figure;
pub use ratings::{RatingRow, rating_figure, read_ratings};
pub use run::{champion_notes, plot_run, run_notes};
pub use stats::read_stats;

use std::ops::RangeInclusive;
use std::path::PathBuf;

use serde::Serialize;

use crate::arena::stats::wilson_interval;
use crate::evolve::config::EvolveConfig;

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
            gate: config.gate_level(),
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
    /// The champion's final test, once the run has played it.
    pub champion_test: Option<ChampionTest>,
}

/// The final test of a run's champion: its best candidates replayed against the first
/// benchmark opponent on openings used nowhere else (`--selection-games` each), the
/// champion the best of them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChampionTest {
    /// The generation whose network became the champion.
    pub generation: u32,
    pub games: usize,
    pub win_rate: f64,
    /// The 95% Wilson interval of the win rate, as the benchmark's.
    pub ci_low: f64,
    pub ci_high: f64,
}

impl ChampionTest {
    /// The test of generation `generation`'s network, won at `win_rate` over `games`.
    pub fn new(generation: u32, win_rate: f64, games: usize) -> ChampionTest {
        let wins = (win_rate * games as f64).round() as usize;
        let (ci_low, ci_high) = wilson_interval(wins.min(games), games);
        ChampionTest {
            generation,
            games,
            win_rate,
            ci_low,
            ci_high,
        }
    }
}
