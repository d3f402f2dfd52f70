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

/// One generation's row of `stats.csv`: the one type a row is written from and read back
/// into, by the run itself (timings on resume), the plots, the web page's charts and the
/// experiments' learning curves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct StatsRow {
    /// 1-based generation number.
    pub generation: u32,
    pub fitness_max: f64,
    pub fitness_mean: f64,
    pub fitness_min: f64,
    /// Benchmark games played against the first opponent (0 when none were; the other
    /// benchmark numbers are then `None`).
    pub bench_games: usize,
    pub bench_wins: Option<usize>,
    pub bench_draws: Option<usize>,
    pub bench_losses: Option<usize>,
    /// The first opponent's win rate and its 95% interval.
    pub win_rate: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Each named benchmark opponent and its win rate (runs with several opponents; `None`
    /// where the generation has none, or the cell is not a number).
    pub opponents: Vec<(String, Option<f64>)>,
    pub diversity: f64,
    /// The generation's wall time, empty if unknown (timings are informative only).
    pub seconds: String,
}

impl StatsRow {
    /// The row of `stats`, with its wall time `seconds`, naming the benchmark opponents
    /// `named` when a run has several.
    pub fn of_generation(stats: &GenerationStats, named: &[String], seconds: &str) -> StatsRow {
        let b = stats.benchmark.as_ref();
        let mut rates = stats.benchmark.iter().chain(&stats.others);
        StatsRow {
            generation: stats.generation,
            fitness_max: stats.fitness_max,
            fitness_mean: stats.fitness_mean,
            fitness_min: stats.fitness_min,
            bench_games: b.map_or(0, |b| b.games),
            bench_wins: b.map(|b| b.wins),
            bench_draws: b.map(|b| b.draws),
            bench_losses: b.map(|b| b.losses),
            win_rate: b.map(|b| b.win_rate),
            ci_low: b.map(|b| b.ci_low),
            ci_high: b.map(|b| b.ci_high),
            opponents: named
                .iter()
                .map(|spec| (spec.clone(), rates.next().map(|record| record.win_rate)))
                .collect(),
            diversity: stats.diversity,
            seconds: seconds.to_string(),
        }
    }

    /// The first opponent's win rate and its interval, when all three are finite numbers.
    pub fn benchmark(&self) -> Option<(f64, f64, f64)> {
        let finite = |x: Option<f64>| x.filter(|x| x.is_finite());
        Some((
            finite(self.win_rate)?,
            finite(self.ci_low)?,
            finite(self.ci_high)?,
        ))
    }

    /// The named opponents whose win rate is a finite number, with it.
    pub fn opponent_rates(&self) -> impl Iterator<Item = (&str, f64)> {
        self.opponents
            .iter()
            .filter_map(|(spec, rate)| Some((spec.as_str(), rate.filter(|r| r.is_finite())?)))
    }

    /// The columns of the row in the file: before the opponents' win rates, those, and
    /// after.
    fn columns(&self) -> (Head, Vec<Option<Fixed<4>>>, Tail) {
        let head = Head {
            generation: self.generation,
            fitness_max: Fixed(self.fitness_max),
            fitness_mean: Fixed(self.fitness_mean),
            fitness_min: Fixed(self.fitness_min),
            bench_games: self.bench_games,
            bench_wins: self.bench_wins,
            bench_draws: self.bench_draws,
            bench_losses: self.bench_losses,
            bench_win_rate: self.win_rate.map(Fixed),
            bench_ci_low: self.ci_low.map(Fixed),
            bench_ci_high: self.ci_high.map(Fixed),
        };
        let rates = self.opponents.iter().map(|(_, r)| r.map(Fixed)).collect();
        let tail = Tail {
            diversity: Fixed(self.diversity),
            seconds: self.seconds.clone(),
        };
        (head, rates, tail)
    }

    /// The row of the file's columns `head`, `opponents` and `tail`.
    fn from_columns(head: Head, opponents: Vec<(String, Option<f64>)>, tail: Tail) -> StatsRow {
        StatsRow {
            generation: head.generation,
            fitness_max: head.fitness_max.0,
            fitness_mean: head.fitness_mean.0,
            fitness_min: head.fitness_min.0,
            bench_games: head.bench_games,
            bench_wins: head.bench_wins,
            bench_draws: head.bench_draws,
            bench_losses: head.bench_losses,
            win_rate: head.bench_win_rate.map(|x| x.0),
            ci_low: head.bench_ci_low.map(|x| x.0),
            ci_high: head.bench_ci_high.map(|x| x.0),
            opponents,
            diversity: tail.diversity.0,
            seconds: tail.seconds,
        }
    }
}

/// The columns of `stats.csv` before the benchmark opponents' win rates, as the file
/// holds them: numbers with fixed decimals, so identical runs give identical files.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Head {
    generation: u32,
    fitness_max: Fixed<3>,
    fitness_mean: Fixed<3>,
    fitness_min: Fixed<3>,
    bench_games: usize,
    bench_wins: Option<usize>,
    bench_draws: Option<usize>,
    bench_losses: Option<usize>,
    bench_win_rate: Option<Fixed<4>>,
    bench_ci_low: Option<Fixed<4>>,
    bench_ci_high: Option<Fixed<4>>,
}

/// The columns of `stats.csv` after the benchmark opponents' win rates.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Tail {
    diversity: Fixed<6>,
    #[serde(default)]
    seconds: String,
}

/// Prefix of the column of each benchmark opponent's win rate (`win_rate:SPEC`), written
/// when a run has more than one opponent.
pub const OPPONENT_WIN_RATE: &str = "win_rate:";

/// The whole `stats.csv` text for `history`, with timings from `seconds`; `named` names the
/// benchmark opponents when there are several.
pub fn csv_text(
    history: &[GenerationStats],
    seconds: &HashMap<u32, String>,
    named: &[String],
) -> String {
    let mut header = column_names(&Head::default());
    header.extend(
        named
            .iter()
            .map(|spec| format!("{OPPONENT_WIN_RATE}{spec}")),
    );
    header.extend(column_names(&Tail::default()));
    let rows = history.iter().map(|stats| {
        let time = seconds.get(&stats.generation).map_or("", String::as_str);
        StatsRow::of_generation(stats, named, time).columns()
    });
    csv_rows::csv_text(&header, rows, csv::QuoteStyle::Necessary)
}

/// The largest `stats.csv` read: a generation's row takes a few hundred bytes, so runs
/// hundreds of times longer than any preset's fit.
pub const MAX_STATS_BYTES: u64 = 64 << 20;

/// Every row of the `stats.csv` at `path` (a regular file of at most [`MAX_STATS_BYTES`]),
/// in order. Each row is read on its own, so a caller chooses how strict to be with a
/// damaged one.
pub fn read_stats_csv(path: &Path) -> Result<Vec<Result<StatsRow, csv::Error>>, csv::Error> {
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
        let opponents = named
            .iter()
            .map(|(c, spec)| (spec.clone(), record.get(*c).and_then(|f| f.parse().ok())))
            .collect();
        Ok(StatsRow::from_columns(
            record.deserialize(Some(&headers))?,
            opponents,
            record.deserialize(Some(&headers))?,
        ))
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
        .map(|row| (row.generation, row.seconds))
        .collect()
}
