//! One row of statistics per generation, and `stats.csv`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::WinRecord;

/// What a generation produced (wall time is kept apart: it is the one thing that differs
/// between identical runs, and checkpoints must not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationStats {
    /// 1-based generation number.
    pub generation: u32,
    pub fitness_max: f64,
    pub fitness_mean: f64,
    pub fitness_min: f64,
    pub benchmark: Option<WinRecord>,
    /// The benchmarks against the other benchmark opponents, in their order.
    pub others: Vec<WinRecord>,
    pub diversity: f64,
}

/// The columns of `stats.csv` before the other benchmark opponents' columns.
const CSV_HEAD: &str = "generation,fitness_max,fitness_mean,fitness_min,bench_games,bench_wins,bench_draws,bench_losses,bench_win_rate,bench_ci_low,bench_ci_high";

/// Prefix of the column of each benchmark opponent's win rate (`win_rate:SPEC`), written
/// when a run has more than one opponent.
pub const OPPONENT_WIN_RATE: &str = "win_rate:";

/// The header of `stats.csv` for a run whose benchmark opponents are `named` (empty when
/// there is one, whose results are the `bench_*` columns).
pub fn csv_header(named: &[String]) -> String {
    let mut header = String::from(CSV_HEAD);
    for spec in named {
        let _ = write!(header, ",{OPPONENT_WIN_RATE}{spec}");
    }
    header.push_str(",diversity,seconds");
    header
}

impl GenerationStats {
    /// The CSV row; `seconds` is the generation's wall time (empty if unknown), `named` the
    /// number of opponent win-rate columns. Numbers have fixed decimals so identical runs
    /// give identical files.
    pub fn csv_row(&self, seconds: &str, named: usize) -> String {
        let mut row = format!(
            "{},{:.3},{:.3},{:.3},",
            self.generation, self.fitness_max, self.fitness_mean, self.fitness_min
        );
        match &self.benchmark {
            Some(b) => {
                let _ = write!(
                    row,
                    "{},{},{},{},{:.4},{:.4},{:.4},",
                    b.games, b.wins, b.draws, b.losses, b.win_rate, b.ci_low, b.ci_high
                );
            }
            None => row.push_str("0,,,,,,,"),
        }
        let rates = self.benchmark.iter().chain(&self.others);
        let mut rates = rates.map(|record| record.win_rate);
        for _ in 0..named {
            match rates.next() {
                Some(rate) => {
                    let _ = write!(row, "{rate:.4},");
                }
                None => row.push(','),
            }
        }
        let _ = write!(row, "{:.6},{seconds}", self.diversity);
        row
    }
}

/// The `seconds` column of an existing `stats.csv`, by generation (empty if the file is
/// missing or unreadable: timings are informative only).
pub fn read_seconds(path: &Path) -> HashMap<u32, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let generation = line.split(',').next()?.parse().ok()?;
            let seconds = line.rsplit(',').next()?.to_string();
            Some((generation, seconds))
        })
        .collect()
}

/// The whole `stats.csv` text for `history`, with timings from `seconds`; `named` names the
/// benchmark opponents when there are several.
pub fn csv_text(
    history: &[GenerationStats],
    seconds: &HashMap<u32, String>,
    named: &[String],
) -> String {
    let mut text = csv_header(named);
    text.push('\n');
    for row in history {
        let time = seconds.get(&row.generation).map_or("", String::as_str);
        text.push_str(&row.csv_row(time, named.len()));
        text.push('\n');
    }
    text
}
