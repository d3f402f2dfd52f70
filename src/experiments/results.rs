//! An experiment's results as a reader quotes them: every run's measures
//! (`results.csv`), every variant's mean learning curve (`learning.csv`), and per variant
//! and measure the mean over seeds with its 95% interval and the comparison with the
//! baseline (`summary.csv`, `summary.md`): the difference, its interval and Welch's p.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::csv_rows::{Fixed, column_names, csv_text};
use crate::experiments::held_out::HeldOutResult;
use crate::experiments::plan::Plan;
use crate::experiments::runner::{ExperimentDir, RunMeasures};
use crate::experiments::{ExperimentError, write_file};
use crate::report::plot::read_stats;
use crate::statistics::{Comparison, Summary};

/// One measure of one run: a row of `results.csv`.
#[derive(Clone, Debug, Serialize)]
struct ResultRow<'a> {
    variant: &'a str,
    seed: u64,
    measure: &'a str,
    value: Fixed<6>,
    games: usize,
    champion_generation: u32,
}

/// A variant's learning curve at one generation: the mean over its runs of the
/// per-generation benchmark win rate (against the first benchmark opponent).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CurvePoint {
    pub variant: String,
    pub generation: u32,
    pub runs: usize,
    pub mean: f64,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
}

/// One variant's one measure over seeds, and how it compares with the baseline's.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantSummary {
    pub variant: String,
    pub measure: String,
    pub summary: Summary,
    /// `None` for the baseline itself, and when either side has fewer than two runs.
    pub against_baseline: Option<Comparison>,
    /// Each run's value, in seed order.
    pub values: Vec<f64>,
}

/// A row of `summary.csv`.
#[derive(Serialize)]
struct SummaryRow<'a> {
    variant: &'a str,
    measure: &'a str,
    runs: usize,
    mean: Fixed<6>,
    sd: Fixed<6>,
    ci_low: Option<Fixed<6>>,
    ci_high: Option<Fixed<6>>,
    difference: Option<Fixed<6>>,
    difference_ci_low: Option<Fixed<6>>,
    difference_ci_high: Option<Fixed<6>>,
    p_value: Option<Fixed<6>>,
}

/// A row of `learning.csv`.
#[derive(Serialize)]
struct CurveRow<'a> {
    variant: &'a str,
    generation: u32,
    runs: usize,
    mean: Fixed<6>,
    ci_low: Option<Fixed<6>>,
    ci_high: Option<Fixed<6>>,
}

/// A finite number as a fixed-decimal cell, an empty cell otherwise.
fn cell(value: f64) -> Option<Fixed<6>> {
    value.is_finite().then_some(Fixed(value))
}

/// Every variant's summary of every measure, in plan order.
pub fn summarise(plan: &Plan, runs: &[RunMeasures]) -> Vec<VariantSummary> {
    let values = |variant: &str, measure: &str| -> Vec<f64> {
        let mut found: Vec<(u64, f64)> = runs
            .iter()
            .filter(|r| r.variant == variant)
            .flat_map(|r| {
                r.measures
                    .iter()
                    .filter(|m| m.measure == measure)
                    .map(move |m| (r.seed, m.value))
            })
            .collect();
        found.sort_by_key(|&(seed, _)| plan.seeds.iter().position(|&s| s == seed));
        found.into_iter().map(|(_, value)| value).collect()
    };
    let baseline = &plan.variants[plan.baseline].name;
    let mut summaries = Vec::new();
    for measure in plan.evaluation.measure_names() {
        let base = Summary::of(&values(baseline, &measure));
        for variant in &plan.variants {
            let own = values(&variant.name, &measure);
            let Some(summary) = Summary::of(&own) else {
                continue;
            };
            let against_baseline = match &base {
                Some(base) if &variant.name != baseline => Comparison::welch(&summary, base),
                _ => None,
            };
            summaries.push(VariantSummary {
                variant: variant.name.clone(),
                measure: measure.clone(),
                summary,
                against_baseline,
                values: own,
            });
        }
    }
    summaries
}

/// Every variant's mean learning curve, read from its runs' `stats.csv`.
pub fn learning_curves(
    plan: &Plan,
    experiment: &ExperimentDir,
) -> Result<Vec<CurvePoint>, ExperimentError> {
    let mut points = Vec::new();
    for variant in &plan.variants {
        let mut by_generation: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
        for &seed in &plan.seeds {
            let stats = experiment.run_dir(&variant.name, seed).join("stats.csv");
            if !stats.exists() {
                continue;
            }
            let rows = read_stats(&stats)
                .map_err(|error| ExperimentError::Directory(error.to_string()))?;
            for row in rows {
                if let Some((rate, _, _)) = row.benchmark() {
                    by_generation.entry(row.generation).or_default().push(rate);
                }
            }
        }
        for (generation, rates) in by_generation {
            let summary = Summary::of(&rates).expect("a generation listed has a rate");
            let finite = |v: f64| v.is_finite().then_some(v);
            points.push(CurvePoint {
                variant: variant.name.clone(),
                generation,
                runs: summary.n,
                mean: summary.mean,
                ci_low: finite(summary.ci_low),
                ci_high: finite(summary.ci_high),
            });
        }
    }
    Ok(points)
}

/// Writes `results.csv`, `learning.csv`, `summary.csv` and `summary.md` (with the held-out
/// section, if any) into the experiment's directory; returns the summaries and the curves (for the plots).
pub fn write_results(
    plan: &Plan,
    experiment: &ExperimentDir,
    runs: &[RunMeasures],
    held_out: Option<&HeldOutResult>,
) -> Result<(Vec<VariantSummary>, Vec<CurvePoint>), ExperimentError> {
    let rows: Vec<ResultRow> = runs
        .iter()
        .flat_map(|run| {
            run.measures.iter().map(move |m| ResultRow {
                variant: &run.variant,
                seed: run.seed,
                measure: &m.measure,
                value: Fixed(m.value),
                games: m.games,
                champion_generation: run.champion_generation,
            })
        })
        .collect();
    let dir = &experiment.dir;
    write_csv(&dir.join("results.csv"), &rows)?;
    let curves = learning_curves(plan, experiment)?;
    let curve_rows: Vec<CurveRow> = curves
        .iter()
        .map(|p| CurveRow {
            variant: &p.variant,
            generation: p.generation,
            runs: p.runs,
            mean: Fixed(p.mean),
            ci_low: p.ci_low.map(Fixed),
            ci_high: p.ci_high.map(Fixed),
        })
        .collect();
    write_csv(&dir.join("learning.csv"), &curve_rows)?;
    let summaries = summarise(plan, runs);
    let summary_rows: Vec<SummaryRow> = summaries.iter().map(summary_row).collect();
    write_csv(&dir.join("summary.csv"), &summary_rows)?;
    write_file(
        &dir.join("summary.md"),
        summary_markdown(plan, &summaries, held_out).as_bytes(),
    )?;
    Ok((summaries, curves))
}

/// Writes `rows` as the CSV file `path` (nothing when there are none: no header to take).
fn write_csv<T: Serialize>(path: &std::path::Path, rows: &[T]) -> Result<(), ExperimentError> {
    match rows.first() {
        Some(first) => {
            let text = csv_text(&column_names(first), rows, csv::QuoteStyle::Necessary);
            write_file(path, text.as_bytes())
        }
        None => Ok(()),
    }
}

fn summary_row(s: &VariantSummary) -> SummaryRow<'_> {
    let against = s.against_baseline.as_ref();
    SummaryRow {
        variant: &s.variant,
        measure: &s.measure,
        runs: s.summary.n,
        mean: Fixed(s.summary.mean),
        sd: Fixed(s.summary.sd),
        ci_low: cell(s.summary.ci_low),
        ci_high: cell(s.summary.ci_high),
        difference: against.map(|c| Fixed(c.difference)),
        difference_ci_low: against.map(|c| Fixed(c.ci_low)),
        difference_ci_high: against.map(|c| Fixed(c.ci_high)),
        p_value: against.map(|c| Fixed(c.p_value)),
    }
}

/// `summary.md`: the plan in a sentence, an overview to quote, then a table per measure
/// with the comparisons against the baseline, and the held-out measures of the run
/// validation chose, if the plan takes them.
pub fn summary_markdown(
    plan: &Plan,
    summaries: &[VariantSummary],
    held_out: Option<&HeldOutResult>,
) -> String {
    let mut text = String::new();
    let baseline = &plan.variants[plan.baseline].name;
    let seeds: Vec<String> = plan.seeds.iter().map(u64::to_string).collect();
    let _ = writeln!(text, "# Results\n");
    if !plan.description.trim().is_empty() {
        let _ = writeln!(text, "{}\n", plan.description.trim());
    }
    let _ = writeln!(
        text,
        "{}: {} variants × {} seeds ({}); baseline `{baseline}`. Means over seeds with 95% \
         t intervals; differences from the baseline with Welch's t test (two-sided p).\n",
        plan.game,
        plan.variants.len(),
        plan.seeds.len(),
        seeds.join(", ")
    );
    overview(&mut text, plan, summaries);
    for measure in plan.evaluation.measure_names() {
        let _ = writeln!(text, "## {measure}\n");
        let _ = writeln!(
            text,
            "| variant | runs | mean | 95% interval | sd | vs `{baseline}` | 95% interval | p |"
        );
        let _ = writeln!(
            text,
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        let digits = digits(&measure);
        let number = |value: f64| format!("{value:.digits$}");
        let interval = |low: f64, high: f64| {
            if low.is_finite() && high.is_finite() {
                format!("{} – {}", number(low), number(high))
            } else {
                "–".to_string()
            }
        };
        for s in summaries.iter().filter(|s| s.measure == measure) {
            let (difference, difference_interval, p) = match &s.against_baseline {
                Some(c) => (
                    format!("{:+.digits$}", c.difference),
                    interval(c.ci_low, c.ci_high),
                    p_value(c.p_value),
                ),
                None => ("–".to_string(), "–".to_string(), "–".to_string()),
            };
            let _ = writeln!(
                text,
                "| `{}` | {} | {} | {} | {} | {difference} | {difference_interval} | {p} |",
                s.variant,
                s.summary.n,
                number(s.summary.mean),
                interval(s.summary.ci_low, s.summary.ci_high),
                number(s.summary.sd),
            );
        }
        let _ = writeln!(text);
    }
    if let Some(result) = held_out {
        text.push_str(&crate::experiments::held_out::markdown(result));
    }
    text
}

/// Decimals a measure is reported with: win rates and scores to a tenth of a point,
/// ratings to the Elo point.
fn digits(measure: &str) -> usize {
    if measure == crate::experiments::plan::RATING {
        0
    } else {
        3
    }
}

/// The table to quote: a row per variant, a column per measure, each cell the mean over
/// seeds with its 95% interval.
fn overview(text: &mut String, plan: &Plan, summaries: &[VariantSummary]) {
    let measures = plan.evaluation.measure_names();
    let _ = writeln!(text, "## Overview: mean (95% interval)\n");
    let _ = writeln!(text, "| variant | runs | {} |", measures.join(" | "));
    let _ = writeln!(text, "| --- | ---: |{}", " ---: |".repeat(measures.len()));
    for variant in &plan.variants {
        let of = |measure: &String| {
            summaries
                .iter()
                .find(|s| s.variant == variant.name && &s.measure == measure)
        };
        let runs = measures.first().and_then(of).map_or(0, |s| s.summary.n);
        let cells: Vec<String> = measures
            .iter()
            .map(|measure| {
                let d = digits(measure);
                match of(measure) {
                    Some(s) if s.summary.ci_low.is_finite() && s.summary.ci_high.is_finite() => {
                        format!(
                            "{:.d$} ({:.d$} – {:.d$})",
                            s.summary.mean, s.summary.ci_low, s.summary.ci_high
                        )
                    }
                    Some(s) => format!("{:.d$}", s.summary.mean),
                    None => "–".to_string(),
                }
            })
            .collect();
        let _ = writeln!(
            text,
            "| `{}` | {runs} | {} |",
            variant.name,
            cells.join(" | ")
        );
    }
    let _ = writeln!(text);
}

/// A p-value as a reader takes it: three decimals, and "< 0.001" below them (the CSV keeps
/// the value itself).
fn p_value(p: f64) -> String {
    if p < 0.001 {
        "< 0.001".to_string()
    } else {
        format!("{p:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::p_value;

    #[test]
    fn p_values_below_a_thousandth_are_not_printed_as_zero() {
        assert_eq!(p_value(0.0004), "< 0.001");
        assert_eq!(p_value(0.001), "0.001");
        assert_eq!(p_value(0.0204), "0.020");
    }
}
