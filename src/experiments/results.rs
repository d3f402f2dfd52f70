//! An experiment's results as a reader quotes them: every run's measures
//! (`results.csv`), every variant's mean learning curve (`learning.csv`), and per variant
//! and measure the mean over seeds with its 95% interval and the comparison with the
//! baseline (`summary.csv`, `summary.md`): the difference, its interval, the test's p
//! (paired by seed where the runs share seeds, Welch's otherwise) and that p adjusted by
//! Holm's method over every comparison of the plan. Every table names its metric (a
//! benchmark's win rate, the League's score, the round robin's Elo).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::Serialize;

use crate::csv_rows::{Fixed, column_names, csv_text};
use crate::experiments::held_out::HeldOutResult;
use crate::experiments::plan::{Metric, Plan, RunKind};
use crate::experiments::runner::{ExperimentDir, RunMeasures};
use crate::experiments::{ExperimentError, write_file};
use crate::report::plot::read_stats;
use crate::statistics::{Comparison, Summary, Test, holm};

/// One measure of one run: a row of `results.csv`.
#[derive(Clone, Debug, Serialize)]
struct ResultRow<'a> {
    variant: &'a str,
    seed: u64,
    measure: &'a str,
    metric: &'static str,
    value: Fixed<6>,
    games: usize,
    champion_generation: u32,
    /// The champion file's SHA-256 (empty when none was recorded).
    champion_sha256: &'a str,
}

/// A variant's learning curve at one generation: the mean over its runs of the
/// per-generation benchmark win rate (against the first benchmark opponent); in a plan of
/// distillation fits, at one epoch: the mean validation loss.
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
    /// The comparison's p-value adjusted by Holm's method over all the plan's comparisons.
    pub p_holm: Option<f64>,
    /// Each run's value, in seed order.
    pub values: Vec<f64>,
}

/// A row of `summary.csv`.
#[derive(Serialize)]
struct SummaryRow<'a> {
    variant: &'a str,
    measure: &'a str,
    metric: &'static str,
    runs: usize,
    mean: Fixed<6>,
    sd: Fixed<6>,
    ci_low: Option<Fixed<6>>,
    ci_high: Option<Fixed<6>>,
    difference: Option<Fixed<6>>,
    difference_ci_low: Option<Fixed<6>>,
    difference_ci_high: Option<Fixed<6>>,
    test: Option<&'static str>,
    pairs: Option<usize>,
    p: Option<Fixed<6>>,
    p_holm: Option<Fixed<6>>,
}

/// A row of `learning.csv`: the mean over runs of a generation's benchmark (of a fit's
/// epoch's validation loss, [`learning_header`]).
#[derive(Serialize)]
struct CurveRow<'a> {
    variant: &'a str,
    step: u32,
    runs: usize,
    mean: Fixed<6>,
    ci_low: Option<Fixed<6>>,
    ci_high: Option<Fixed<6>>,
}

/// The columns of `learning.csv`, named for what a plan's runs step through and measure.
fn learning_header(kind: RunKind) -> Vec<String> {
    let (step, mean) = match kind {
        RunKind::Evolve => ("generation", "mean"),
        RunKind::Distill => ("epoch", "validation_loss"),
    };
    ["variant", step, "runs", mean, "ci_low", "ci_high"]
        .map(String::from)
        .to_vec()
}

/// A finite number as a fixed-decimal cell, an empty cell otherwise.
fn cell(value: f64) -> Option<Fixed<6>> {
    value.is_finite().then_some(Fixed(value))
}

/// Every variant's summary of every measure, in plan order, each compared with the
/// baseline by seed and the p-values adjusted together.
pub fn summarise(plan: &Plan, runs: &[RunMeasures]) -> Vec<VariantSummary> {
    let values = |variant: &str, measure: &str| -> Vec<(u64, f64)> {
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
        found
    };
    let baseline = &plan.variants[plan.baseline].name;
    let mut summaries = Vec::new();
    for measure in plan.evaluation.measure_names() {
        let base = values(baseline, &measure);
        for variant in &plan.variants {
            let own = values(&variant.name, &measure);
            let own_values: Vec<f64> = own.iter().map(|&(_, value)| value).collect();
            let Some(summary) = Summary::of(&own_values) else {
                continue;
            };
            let against_baseline = if &variant.name == baseline {
                None
            } else {
                Comparison::by_seed(&own, &base)
            };
            summaries.push(VariantSummary {
                variant: variant.name.clone(),
                measure: measure.clone(),
                summary,
                against_baseline,
                p_holm: None,
                values: own_values,
            });
        }
    }
    let p_values: Vec<f64> = summaries
        .iter()
        .map(|s| s.against_baseline.map_or(f64::NAN, |c| c.p_value))
        .collect();
    for (summary, adjusted) in summaries.iter_mut().zip(holm(&p_values)) {
        summary.p_holm = adjusted.is_finite().then_some(adjusted);
    }
    summaries
}

/// Every variant's mean learning curve, read from its runs' `stats.csv`.
pub fn learning_curves(
    plan: &Plan,
    experiment: &ExperimentDir,
) -> Result<Vec<CurvePoint>, ExperimentError> {
    if plan.kind == RunKind::Distill {
        return crate::experiments::fits::learning_curves(plan, experiment);
    }
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
        points.extend(mean_curve(&variant.name, by_generation));
    }
    Ok(points)
}

/// `variant`'s curve: at each step, the mean of the values its runs had there, with its
/// 95% interval.
pub(crate) fn mean_curve(variant: &str, by_step: BTreeMap<u32, Vec<f64>>) -> Vec<CurvePoint> {
    by_step
        .into_iter()
        .map(|(step, values)| {
            let summary = Summary::of(&values).expect("a step listed has a value");
            let finite = |v: f64| v.is_finite().then_some(v);
            CurvePoint {
                variant: variant.to_string(),
                generation: step,
                runs: summary.n,
                mean: summary.mean,
                ci_low: finite(summary.ci_low),
                ci_high: finite(summary.ci_high),
            }
        })
        .collect()
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
                metric: Metric::of(&m.measure).key(),
                value: Fixed(m.value),
                games: m.games,
                champion_generation: run.champion_generation,
                champion_sha256: run.champion_sha256.as_deref().unwrap_or_default(),
            })
        })
        .collect();
    let dir = &experiment.dir;
    write_csv(&dir.join("results.csv"), &rows)?;
    let curves = learning_curves(plan, experiment)?;
    if !curves.is_empty() {
        let rows = curves.iter().map(|p| CurveRow {
            variant: &p.variant,
            step: p.generation,
            runs: p.runs,
            mean: Fixed(p.mean),
            ci_low: p.ci_low.map(Fixed),
            ci_high: p.ci_high.map(Fixed),
        });
        let text = csv_text(
            &learning_header(plan.kind),
            rows,
            csv::QuoteStyle::Necessary,
        );
        write_file(&dir.join("learning.csv"), text.as_bytes())?;
    }
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
        metric: Metric::of(&s.measure).key(),
        runs: s.summary.n,
        mean: Fixed(s.summary.mean),
        sd: Fixed(s.summary.sd),
        ci_low: cell(s.summary.ci_low),
        ci_high: cell(s.summary.ci_high),
        difference: against.map(|c| Fixed(c.difference)),
        difference_ci_low: against.map(|c| Fixed(c.ci_low)),
        difference_ci_high: against.map(|c| Fixed(c.ci_high)),
        test: against.map(|c| c.test.name()),
        pairs: against.map(|c| c.pairs),
        p: against.map(|c| Fixed(c.p_value)),
        p_holm: s.p_holm.map(Fixed),
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
    let comparisons = summaries
        .iter()
        .filter(|s| s.against_baseline.is_some())
        .count();
    let _ = writeln!(
        text,
        "{}: {} variants × {} seeds ({}); baseline `{baseline}`. Means over seeds with 95% \
         t intervals. Each variant is compared with the baseline {}; p is two-sided, and \
         p (Holm) is it adjusted by Holm's method over the plan's {comparisons} comparisons.\n",
        plan.game,
        plan.variants.len(),
        plan.seeds.len(),
        seeds.join(", "),
        tests_used(summaries),
    );
    overview(&mut text, plan, summaries);
    for measure in plan.evaluation.measure_names() {
        let metric = Metric::of(&measure);
        let _ = writeln!(text, "## {measure}\n");
        let _ = writeln!(
            text,
            "Values are the {}: {}.\n",
            metric.name(),
            metric.definition()
        );
        let _ = writeln!(
            text,
            "| variant | runs | mean | 95% interval | sd | vs `{baseline}` | 95% interval | test | p | p (Holm) |"
        );
        let _ = writeln!(
            text,
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"
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
            let (difference, difference_interval, test, p) = match &s.against_baseline {
                Some(c) => (
                    format!("{:+.digits$}", c.difference),
                    interval(c.ci_low, c.ci_high),
                    test_cell(c),
                    p_value(c.p_value),
                ),
                None => ("–".into(), "–".into(), "–".into(), "–".into()),
            };
            let p_holm = s.p_holm.map_or("–".to_string(), p_value);
            let _ = writeln!(
                text,
                "| `{}` | {} | {} | {} | {} | {difference} | {difference_interval} | {test} | {p} | {p_holm} |",
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
        text.push_str(&crate::experiments::held_out::markdown(
            result,
            plan.kind.step(),
        ));
    }
    text
}

/// How the summary's opening says the variants were compared: paired where they share
/// seeds, Welch's test where they do not.
fn tests_used(summaries: &[VariantSummary]) -> &'static str {
    let used = |test| {
        summaries
            .iter()
            .any(|s| s.against_baseline.is_some_and(|c| c.test == test))
    };
    match (used(Test::Paired), used(Test::Welch)) {
        (true, false) => {
            "paired by seed (a t test on the per-seed differences: the runs share seeds)"
        }
        (false, true) => "by Welch's t test (the runs share no seeds)",
        _ => {
            "paired by seed where they share seeds (a t test on the per-seed differences), by Welch's t test where they do not"
        }
    }
}

/// A comparison's test as a table cell: `paired t (5)` with its pairs, or `Welch t`.
fn test_cell(c: &Comparison) -> String {
    match c.test {
        Test::Paired => format!("{} ({})", c.test.name(), c.pairs),
        Test::Welch => c.test.name().to_string(),
    }
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
    let headings: Vec<String> = measures
        .iter()
        .map(|m| format!("{m} ({})", Metric::of(m).name()))
        .collect();
    let _ = writeln!(text, "| variant | runs | {} |", headings.join(" | "));
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
