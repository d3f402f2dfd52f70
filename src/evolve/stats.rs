//! One row of statistics per generation, and `stats.csv`: its row types, writer and reader.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::WinRecord;
use crate::csv_rows::{self, Fixed, column_names};
use crate::persist;

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

/// The columns of `stats.csv` before the benchmark opponents' win rates. Numbers have
/// fixed decimals so identical runs give identical files.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct StatsHead {
    pub generation: u32,
    pub fitness_max: Fixed<3>,
    pub fitness_mean: Fixed<3>,
    pub fitness_min: Fixed<3>,
    /// 0 when the generation played no benchmark; the other `bench_` columns are then empty.
    pub bench_games: usize,
    pub bench_wins: Option<usize>,
    pub bench_draws: Option<usize>,
    pub bench_losses: Option<usize>,
    pub bench_win_rate: Option<Fixed<4>>,
    pub bench_ci_low: Option<Fixed<4>>,
    pub bench_ci_high: Option<Fixed<4>>,
}

/// The columns of `stats.csv` after the benchmark opponents' win rates.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct StatsTail {
    pub diversity: Fixed<6>,
    /// The generation's wall time, empty if unknown (timings are informative only).
    #[serde(default)]
    pub seconds: String,
}

/// Prefix of the column of each benchmark opponent's win rate (`win_rate:SPEC`), written
/// when a run has more than one opponent.
pub const OPPONENT_WIN_RATE: &str = "win_rate:";

/// One row of `stats.csv` as read back.
#[derive(Debug)]
pub struct StatsRecord {
    pub head: StatsHead,
    /// Each named benchmark opponent and its win rate (`None` where the cell is not a number).
    pub opponents: Vec<(String, Option<f64>)>,
    pub tail: StatsTail,
}

impl GenerationStats {
    /// The row's columns: before the opponents' win rates, those of the `named` opponents
    /// (empty where a generation has fewer), and after; `seconds` is the wall time.
    fn csv_row(
        &self,
        seconds: &str,
        named: usize,
    ) -> (StatsHead, Vec<Option<Fixed<4>>>, StatsTail) {
        let b = self.benchmark.as_ref();
        let head = StatsHead {
            generation: self.generation,
            fitness_max: Fixed(self.fitness_max),
            fitness_mean: Fixed(self.fitness_mean),
            fitness_min: Fixed(self.fitness_min),
            bench_games: b.map_or(0, |b| b.games),
            bench_wins: b.map(|b| b.wins),
            bench_draws: b.map(|b| b.draws),
            bench_losses: b.map(|b| b.losses),
            bench_win_rate: b.map(|b| Fixed(b.win_rate)),
            bench_ci_low: b.map(|b| Fixed(b.ci_low)),
            bench_ci_high: b.map(|b| Fixed(b.ci_high)),
        };
        let mut rates = self.benchmark.iter().chain(&self.others);
        let rates = (0..named)
            .map(|_| rates.next().map(|record| Fixed(record.win_rate)))
            .collect();
        let tail = StatsTail {
            diversity: Fixed(self.diversity),
            seconds: seconds.to_string(),
        };
        (head, rates, tail)
    }
}

/// The whole `stats.csv` text for `history`, with timings from `seconds`; `named` names the
/// benchmark opponents when there are several.
pub fn csv_text(
    history: &[GenerationStats],
    seconds: &HashMap<u32, String>,
    named: &[String],
) -> String {
    let mut header = column_names(&StatsHead::default());
    header.extend(
        named
            .iter()
            .map(|spec| format!("{OPPONENT_WIN_RATE}{spec}")),
    );
    header.extend(column_names(&StatsTail::default()));
    let rows = history.iter().map(|row| {
        let time = seconds.get(&row.generation).map_or("", String::as_str);
        row.csv_row(time, named.len())
    });
    csv_rows::csv_text(&header, rows, csv::QuoteStyle::Necessary)
}

/// The largest `stats.csv` read: a generation's row takes a few hundred bytes, so runs
/// hundreds of times longer than any preset's fit.
pub const MAX_STATS_BYTES: u64 = 64 << 20;

/// Every row of the `stats.csv` at `path` (a regular file of at most [`MAX_STATS_BYTES`]),
/// in order. Each row is read on its own, so a caller chooses how strict to be with a
/// damaged one.
pub fn read_stats_csv(path: &Path) -> Result<Vec<Result<StatsRecord, csv::Error>>, csv::Error> {
    let bytes = persist::read_limited(path, MAX_STATS_BYTES)?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let headers = reader.headers()?.clone();
    let named: Vec<(usize, String)> = headers
        .iter()
        .enumerate()
        .filter_map(|(c, h)| Some((c, h.strip_prefix(OPPONENT_WIN_RATE)?.to_string())))
        .collect();
    let records = reader.records().map(|record| {
        let record = record?;
        Ok(StatsRecord {
            head: record.deserialize(Some(&headers))?,
            opponents: named
                .iter()
                .map(|(c, spec)| (spec.clone(), record.get(*c).and_then(|f| f.parse().ok())))
                .collect(),
            tail: record.deserialize(Some(&headers))?,
        })
    });
    Ok(records.collect())
}

/// The `seconds` column of an existing `stats.csv`, by generation (empty if the file is
/// missing or unreadable, and without the rows that cannot be read: timings are
/// informative only).
pub fn read_seconds(path: &Path) -> HashMap<u32, String> {
    read_stats_csv(path)
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .map(|record| (record.head.generation, record.tail.seconds))
        .collect()
}
