//! The statistics a plot reads: one row per generation of `stats.csv`.

use std::path::Path;

use crate::csv_rows::Fixed;
use crate::evolve::stats::{StatsRecord, read_stats_csv};

use super::PlotError;

/// One generation's numbers, as read from `stats.csv`.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotRow {
    pub generation: u32,
    pub fitness_max: f64,
    pub fitness_mean: f64,
    pub fitness_min: f64,
    /// Benchmark games played against the first opponent (0 when none were).
    pub bench_games: u32,
    /// Benchmark win rate and its 95% interval, when a benchmark was played.
    pub benchmark: Option<(f64, f64, f64)>,
    /// Each named benchmark opponent's win rate (runs with several opponents).
    pub opponents: Vec<(String, f64)>,
    pub diversity: f64,
}

/// Reads the rows of a `stats.csv` (columns found by name, so added columns do no harm).
pub fn read_stats(path: &Path) -> Result<Vec<PlotRow>, PlotError> {
    let failure = |reason: String| PlotError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let records = read_stats_csv(path).map_err(|e| failure(e.to_string()))?;
    let rows = records
        .into_iter()
        .map(|record| {
            let record = record.map_err(|e| failure(e.to_string()))?;
            let generation = record.head.generation;
            plot_row(record).ok_or_else(|| {
                failure(format!(
                    "generation {generation} has a number that is not finite"
                ))
            })
        })
        .collect::<Result<Vec<PlotRow>, PlotError>>()?;
    if rows.is_empty() {
        return Err(PlotError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(rows)
}

/// The plot's view of a row: `None` if a number it needs is not finite. A benchmark or an
/// opponent's win rate that is missing or not finite is left out.
fn plot_row(record: StatsRecord) -> Option<PlotRow> {
    let finite = |x: f64| x.is_finite().then_some(x);
    let StatsRecord {
        head,
        opponents,
        tail,
    } = record;
    let rate = |cell: Option<Fixed<4>>| finite(cell?.0);
    let benchmark = match (
        rate(head.bench_win_rate),
        rate(head.bench_ci_low),
        rate(head.bench_ci_high),
    ) {
        (Some(r), Some(l), Some(h)) => Some((r, l, h)),
        _ => None,
    };
    Some(PlotRow {
        generation: head.generation,
        fitness_max: finite(head.fitness_max.0)?,
        fitness_mean: finite(head.fitness_mean.0)?,
        fitness_min: finite(head.fitness_min.0)?,
        bench_games: u32::try_from(head.bench_games).ok()?,
        benchmark,
        opponents: opponents
            .into_iter()
            .filter_map(|(spec, rate)| Some((spec, finite(rate?)?)))
            .collect(),
        diversity: finite(tail.diversity.0)?,
    })
}
