//! The statistics a plot reads: the rows of `stats.csv` whose numbers can be drawn.

use std::path::Path;

use crate::evolve::stats::{StatsRow, read_stats_csv};

use super::PlotError;

/// Reads the rows of a `stats.csv` (columns found by name, so added columns do no harm).
/// Every row's fitness and diversity must be finite numbers; a benchmark or an opponent's
/// win rate that is missing or not finite is left out of the plots (see
/// [`StatsRow::benchmark`] and [`StatsRow::opponent_rates`]).
pub fn read_stats(path: &Path) -> Result<Vec<StatsRow>, PlotError> {
    let failure = |reason: String| PlotError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let records = read_stats_csv(path).map_err(|e| failure(e.to_string()))?;
    let rows = records
        .into_iter()
        .map(|record| {
            let row = record.map_err(|e| failure(e.to_string()))?;
            let drawable = [
                row.fitness_max,
                row.fitness_mean,
                row.fitness_min,
                row.diversity,
            ]
            .iter()
            .all(|x| x.is_finite());
            if drawable {
                Ok(row)
            } else {
                Err(failure(format!(
                    "generation {} has a number that is not finite",
                    row.generation
                )))
            }
        })
        .collect::<Result<Vec<StatsRow>, PlotError>>()?;
    if rows.is_empty() {
        return Err(PlotError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(rows)
}
