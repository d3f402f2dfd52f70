//! The statistics a plot reads: one row per generation of `stats.csv`.

use std::path::Path;

use crate::evolve::stats::OPPONENT_WIN_RATE;

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
    let text = std::fs::read_to_string(path).map_err(|e| failure(e.to_string()))?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|&h| h == name)
            .ok_or_else(|| failure(format!("no '{name}' column")))
    };
    let [
        generation,
        max,
        mean,
        min,
        games,
        rate,
        low,
        high,
        diversity,
    ] = [
        "generation",
        "fitness_max",
        "fitness_mean",
        "fitness_min",
        "bench_games",
        "bench_win_rate",
        "bench_ci_low",
        "bench_ci_high",
        "diversity",
    ]
    .map(column);
    let (generation, max, mean, min) = (generation?, max?, mean?, min?);
    let (games, rate, low, high, diversity) = (games?, rate?, low?, high?, diversity?);
    let named: Vec<(usize, String)> = header
        .iter()
        .enumerate()
        .filter_map(|(c, h)| Some((c, h.strip_prefix(OPPONENT_WIN_RATE)?.to_string())))
        .collect();
    let rows: Result<Vec<PlotRow>, PlotError> = lines
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            let fields: Vec<&str> = line.split(',').collect();
            let bad = || failure(format!("line {} is malformed", i + 2));
            let number = |c: usize| {
                fields
                    .get(c)
                    .and_then(|f| f.parse::<f64>().ok())
                    .filter(|x| x.is_finite())
            };
            let integer = |c: usize| fields.get(c).and_then(|f| f.parse::<u32>().ok());
            let benchmark = match (number(rate), number(low), number(high)) {
                (Some(r), Some(l), Some(h)) => Some((r, l, h)),
                _ => None,
            };
            Ok(PlotRow {
                generation: integer(generation).ok_or_else(bad)?,
                fitness_max: number(max).ok_or_else(bad)?,
                fitness_mean: number(mean).ok_or_else(bad)?,
                fitness_min: number(min).ok_or_else(bad)?,
                bench_games: integer(games).ok_or_else(bad)?,
                benchmark,
                opponents: named
                    .iter()
                    .filter_map(|(c, spec)| Some((spec.clone(), number(*c)?)))
                    .collect(),
                diversity: number(diversity).ok_or_else(bad)?,
            })
        })
        .collect();
    let rows = rows?;
    if rows.is_empty() {
        return Err(PlotError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok(rows)
}
