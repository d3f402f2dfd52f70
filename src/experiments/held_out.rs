//! The held-out test of a plan (its `[held_out]` table): once every run is measured, the
//! run validation ranks first is measured again on games no run trained on and no choice
//! was made on, and `held-out.json` keeps what it scored. Choosing the best of many runs on
//! the validation games flatters that run's validation figure; the held-out figures are
//! the ones to quote.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::arena::WinRecord;
use crate::eval::NamedEvaluators;
use crate::experiments::measures::{play_benchmark, play_league, play_panel_rows};
use crate::experiments::plan::{HeldOut, Plan};
use crate::experiments::rebuild::ensure_champion;
use crate::experiments::runner::{ExperimentDir, ExperimentObserver, RunLabel, RunMeasures};
use crate::experiments::{ExperimentError, read_kept, write_kept};

/// The run validation chose and its held-out measures, as `held-out.json` keeps them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOutResult {
    pub variant: String,
    pub seed: u64,
    /// The evaluation measure that chose the run (or its targets, and then the value is
    /// the run's smallest margin over them), the variants it chose among (none named: every
    /// one), and the run's value of it.
    pub chosen_by: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub among: Vec<String>,
    pub validation: f64,
    pub champion_generation: u32,
    /// The champion's SHA-256, as the run's evaluation records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub champion_sha256: Option<String>,
    /// The plan's `[held_out]` table these measures were taken for: a resumed experiment
    /// whose plan now asks for others takes them again.
    #[serde(default)]
    pub table: Option<HeldOut>,
    pub measures: Vec<HeldOutMeasure>,
}

/// One held-out series: its record, with the score (wins plus half the draws, per game)
/// and its 95% interval beside the win rate's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOutMeasure {
    pub measure: String,
    #[serde(flatten)]
    pub record: WinRecord,
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
}

impl HeldOutMeasure {
    fn new(measure: String, record: WinRecord) -> HeldOutMeasure {
        let (score_low, score_high) = record.score_interval();
        HeldOutMeasure {
            measure,
            score: record.score(),
            score_low,
            score_high,
            record,
        }
    }
}

/// The run `held_out` chooses among `runs`: the highest of its measure `choose_by`, or of
/// its smallest margin over the `targets` (value less target), the first in `runs`' order
/// on a tie, among the runs of the variants `among` names (of every variant if it names
/// none); runs without a measure it needs are passed over. `None` when no run has them.
pub fn choose<'a>(runs: &'a [RunMeasures], held_out: &HeldOut) -> Option<(&'a RunMeasures, f64)> {
    let mut best: Option<(&RunMeasures, f64)> = None;
    let among = &held_out.among;
    let eligible = |run: &&RunMeasures| among.is_empty() || among.contains(&run.variant);
    for run in runs.iter().filter(eligible) {
        let value_of = |measure: &str| {
            run.measures
                .iter()
                .find(|m| m.measure == measure)
                .map(|m| m.value)
        };
        let value = match &held_out.choose_by {
            Some(measure) => value_of(measure),
            None => held_out
                .targets
                .iter()
                .map(|(measure, target)| value_of(measure).map(|value| value - target))
                .try_fold(f64::INFINITY, |low, margin| margin.map(|m| low.min(m))),
        };
        let Some(value) = value else {
            continue;
        };
        if best.is_none_or(|(_, top)| value > top) {
            best = Some((run, value));
        }
    }
    best
}

/// How `held_out` chooses, in words: its measure, or its targets and the margin ranked.
pub fn choice_rule(held_out: &HeldOut) -> String {
    match &held_out.choose_by {
        Some(measure) => measure.clone(),
        None => {
            let targets: Vec<String> = held_out
                .targets
                .iter()
                .map(|(measure, target)| format!("{measure} ≥ {target}"))
                .collect();
            format!(
                "the smallest margin (value less target) over {}",
                targets.join(", ")
            )
        }
    }
}

/// Takes the plan's held-out measures of the run validation chose among `runs`, unless an
/// earlier invocation took the same ones of that same run (`held-out.json`); `None` for a
/// plan without a `[held_out]` table.
pub fn measure_held_out<G: NamedEvaluators>(
    start: &G,
    plan: &Plan,
    experiment: &ExperimentDir,
    runs: &[RunMeasures],
    observer: &dyn ExperimentObserver,
) -> Result<Option<HeldOutResult>, ExperimentError> {
    let Some(held_out) = &plan.held_out else {
        return Ok(None);
    };
    let Some((chosen, validation)) = choose(runs, held_out) else {
        return Ok(None);
    };
    let file = experiment.held_out_file();
    if let Some(kept) = read_kept::<HeldOutResult>(&file, "measure the chosen run again")?
        && kept.variant == chosen.variant
        && kept.seed == chosen.seed
        && kept.table.as_ref() == Some(held_out)
    {
        if kept.champion_sha256.is_some() || chosen.champion_sha256.is_none() {
            return Ok(Some(kept));
        }
        // A file from before champions were recorded by hash: the run's is filled in.
        let kept = HeldOutResult {
            champion_sha256: chosen.champion_sha256.clone(),
            ..kept
        };
        write_kept(&file, &kept)?;
        return Ok(Some(kept));
    }
    eprintln!(
        "held-out measures of {} seed {} (chosen by {}: {validation:.3})",
        chosen.variant,
        chosen.seed,
        choice_rule(held_out)
    );
    let run_dir = experiment.run_dir(&chosen.variant, chosen.seed);
    let run = RunLabel {
        index: runs
            .iter()
            .position(|run| std::ptr::eq(run, chosen))
            .unwrap_or(0),
        total: runs.len(),
        variant: &chosen.variant,
        seed: chosen.seed,
    };
    ensure_champion(
        start,
        &run_dir,
        chosen.champion_sha256.as_deref(),
        run,
        observer,
    )?;
    let champion = run_dir.join("champion.evo");
    let result = HeldOutResult {
        variant: chosen.variant.clone(),
        seed: chosen.seed,
        chosen_by: choice_rule(held_out),
        among: held_out.among.clone(),
        validation,
        champion_generation: chosen.champion_generation,
        champion_sha256: chosen.champion_sha256.clone(),
        table: Some(held_out.clone()),
        measures: take_measures(start, held_out, &champion)?,
    };
    write_kept(&file, &result)?;
    Ok(Some(result))
}

/// Every measure of `held_out` taken of the champion in `file`: the benchmarks, the
/// League, then a row per panel opponent.
fn take_measures<G: NamedEvaluators>(
    start: &G,
    held_out: &HeldOut,
    file: &std::path::Path,
) -> Result<Vec<HeldOutMeasure>, ExperimentError> {
    let mut measures = Vec::new();
    for benchmark in &held_out.benchmark {
        let record = play_benchmark(start, file, benchmark)?;
        measures.push(HeldOutMeasure::new(benchmark.name(), record));
    }
    if let Some(league) = &held_out.league {
        let record = play_league(start, file, league)?;
        measures.push(HeldOutMeasure::new("league".to_string(), record));
    }
    if let Some(panel) = &held_out.panel {
        for (opponent, record) in play_panel_rows(start, file, panel)? {
            measures.push(HeldOutMeasure::new(format!("panel: vs {opponent}"), record));
        }
    }
    Ok(measures)
}

/// The held-out section of `summary.md`: which run was chosen and how, then a row per
/// measure with its record and both intervals; `step` names what the champion is from
/// (a generation, or a fit's epoch).
pub fn markdown(result: &HeldOutResult, step: &str) -> String {
    let mut text = String::new();
    let _ = writeln!(text, "## Held out\n");
    let among = match result.among.as_slice() {
        [] => String::new(),
        names => {
            let names: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
            format!(" among {}", names.join(", "))
        }
    };
    let _ = writeln!(
        text,
        "Chosen by `{}`{among}: `{}` seed {} ({:.3} on validation; its champion from {step} \
         {}). Measured on games of seeds no run trained on and no choice was made on, with 95% \
         intervals (Wilson's for the win rate, the normal approximation for the score).\n",
        result.chosen_by,
        result.variant,
        result.seed,
        result.validation,
        result.champion_generation
    );
    let _ = writeln!(
        text,
        "| measure | games | wins–draws–losses | win rate | 95% interval | score | 95% interval |"
    );
    let _ = writeln!(text, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for m in &result.measures {
        let r = &m.record;
        let _ = writeln!(
            text,
            "| {} | {} | {}–{}–{} | {:.3} | {:.3} – {:.3} | {:.3} | {:.3} – {:.3} |",
            m.measure,
            r.games,
            r.wins,
            r.draws,
            r.losses,
            r.win_rate,
            r.ci_low,
            r.ci_high,
            m.score,
            m.score_low,
            m.score_high
        );
    }
    let _ = writeln!(text);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::runner::Measured;

    fn run(variant: &str, seed: u64, league: Option<f64>) -> RunMeasures {
        RunMeasures {
            variant: variant.to_string(),
            seed,
            champion_generation: 7,
            champion_sha256: None,
            measures: league
                .map(|value| Measured {
                    measure: "league".to_string(),
                    value,
                    games: 100,
                })
                .into_iter()
                .collect(),
            taken_for: None,
        }
    }

    fn by(measure: &str, among: &[&str]) -> HeldOut {
        HeldOut {
            choose_by: Some(measure.to_string()),
            targets: Default::default(),
            among: among.iter().map(|name| name.to_string()).collect(),
            benchmark: Vec::new(),
            league: None,
            panel: None,
        }
    }

    #[test]
    fn validation_chooses_the_highest_value_and_the_first_of_a_tie_among_the_variants_named() {
        let runs = [
            run("a", 1, Some(0.90)),
            run("b", 1, Some(0.95)),
            run("a", 2, None),
            run("b", 2, Some(0.95)),
        ];
        let (chosen, value) = choose(&runs, &by("league", &[])).unwrap();
        assert_eq!(
            (chosen.variant.as_str(), chosen.seed, value),
            ("b", 1, 0.95)
        );
        let (chosen, value) = choose(&runs, &by("league", &["a"])).unwrap();
        assert_eq!(
            (chosen.variant.as_str(), chosen.seed, value),
            ("a", 1, 0.90)
        );
        assert!(choose(&runs, &by("vs heuristic:2", &[])).is_none());
    }

    #[test]
    fn targets_choose_the_run_whose_worst_shortfall_is_smallest() {
        let with = |variant: &str, league: f64, depth_two: Option<f64>| {
            let mut run = run(variant, 1, Some(league));
            run.measures.extend(depth_two.map(|value| Measured {
                measure: "vs heuristic:2".to_string(),
                value,
                games: 100,
            }));
            run
        };
        // a is best at the League, b at depth 2, c short of both by the least.
        let runs = [
            with("a", 0.97, Some(0.80)),
            with("b", 0.85, Some(0.99)),
            with("c", 0.94, Some(0.95)),
            with("d", 0.99, None),
        ];
        let mut held_out = by("league", &[]);
        held_out.choose_by = None;
        held_out.targets = [
            ("league".to_string(), 0.96),
            ("vs heuristic:2".to_string(), 0.97),
        ]
        .into_iter()
        .collect();
        let (chosen, margin) = choose(&runs, &held_out).unwrap();
        assert_eq!(chosen.variant, "c");
        assert!((margin - -0.02).abs() < 1e-12, "{margin}");
        assert_eq!(
            choice_rule(&held_out),
            "the smallest margin (value less target) over league ≥ 0.96, vs heuristic:2 ≥ 0.97"
        );
        assert_eq!(choice_rule(&by("league", &[])), "league");
    }

    #[test]
    fn the_summary_section_names_the_choice_and_each_record() {
        let result = HeldOutResult {
            variant: "b".to_string(),
            seed: 3,
            chosen_by: "league".to_string(),
            among: vec!["a".to_string(), "b".to_string()],
            validation: 0.97,
            champion_generation: 2875,
            champion_sha256: None,
            table: None,
            measures: vec![HeldOutMeasure::new(
                "league".to_string(),
                WinRecord::new(9589, 63, 348),
            )],
        };
        let text = markdown(&result, "generation");
        assert!(
            text.contains("Chosen by `league` among `a`, `b`: `b` seed 3 (0.970 on validation"),
            "{text}"
        );
        assert!(
            text.contains("| league | 10000 | 9589–63–348 | 0.959 |"),
            "{text}"
        );
        assert!(text.contains("| 0.962 | 0.958 – 0.966 |"), "{text}");
    }
}
