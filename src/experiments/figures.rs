//! An experiment's plots: every variant's learning curve on one axis (the mean over
//! seeds with its 95% band), and for each measure every variant's runs (a dot per seed)
//! with their mean and 95% interval.

use std::path::{Path, PathBuf};

use plotters::style::Color;

use crate::experiments::ExperimentError;
use crate::experiments::plan::{Metric, Plan, RATING, RunKind};
use crate::experiments::results::{CurvePoint, VariantSummary};
use crate::report::plot::{
    Figure, Mark, PALETTE, Shape, Stroke, YAxis, draw_figures, padded_range, percent_range,
};

/// The figures of an experiment, drawn into `dir`; returns the files written.
pub fn plot_experiment(
    plan: &Plan,
    summaries: &[VariantSummary],
    curves: &[CurvePoint],
    dir: &Path,
) -> Result<Vec<PathBuf>, ExperimentError> {
    let mut figures = Vec::new();
    if !curves.is_empty() {
        figures.push(learning_figure(plan, curves));
    }
    for measure in plan.evaluation.measure_names() {
        figures.push(measure_figure(plan, summaries, &measure));
    }
    let seeds: Vec<String> = plan.seeds.iter().map(u64::to_string).collect();
    let caption = format!("{} · seeds {}", plan.game, seeds.join(", "));
    draw_figures(&figures, &caption, dir)
        .map_err(|error| ExperimentError::Directory(error.to_string()))
}

fn colour(k: usize) -> plotters::style::RGBColor {
    PALETTE[k % PALETTE.len()]
}

/// Every variant's mean benchmark win rate per generation, with its 95% band; for a plan
/// of distillation fits, its mean validation loss per epoch, on a log scale (a fit's loss
/// falls by a decade or more from the start's).
pub fn learning_figure(plan: &Plan, curves: &[CurvePoint]) -> Figure {
    let fits = plan.kind == RunKind::Distill;
    // Where a value lies on the axis: percent, or its base-10 logarithm (none below 0).
    let on_axis = |value: f64| {
        if fits {
            (value > 0.0).then(|| value.log10())
        } else {
            Some(100.0 * value)
        }
    };
    let mut marks = Vec::new();
    let mut first = u32::MAX;
    let mut last = 0;
    for (k, variant) in plan.variants.iter().enumerate() {
        let points: Vec<&CurvePoint> = curves
            .iter()
            .filter(|p| p.variant == variant.name)
            .collect();
        let band: Vec<(u32, f64, f64)> = points
            .iter()
            .filter_map(|p| Some((p.generation, on_axis(p.ci_low?)?, on_axis(p.ci_high?)?)))
            .collect();
        for p in &points {
            first = first.min(p.generation);
            last = last.max(p.generation);
        }
        marks.push(Mark {
            label: None,
            shape: Shape::Band {
                points: band,
                colour: colour(k).mix(0.15),
            },
        });
        marks.push(Mark {
            label: Some(variant.name.clone()),
            shape: Shape::Line {
                points: points
                    .iter()
                    .filter_map(|p| Some((p.generation, on_axis(p.mean)?)))
                    .collect(),
                stroke: Stroke {
                    colour: colour(k),
                    width: 2,
                    dashed: false,
                },
            },
        });
    }
    let values = curves
        .iter()
        .flat_map(|p| [Some(p.mean), p.ci_low, p.ci_high].into_iter().flatten());
    let first = first.min(last);
    let (title, y_desc, y_axis) = if fits {
        let logarithms: Vec<f64> = values.filter_map(on_axis).collect();
        let low = logarithms.iter().copied().fold(f64::INFINITY, f64::min);
        let high = logarithms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let decades = if low <= high {
            low.floor() as i32..(high.ceil() as i32).max(low.floor() as i32 + 1)
        } else {
            -2..0
        };
        (
            "Validation loss per epoch: mean over seeds, 95% band",
            "validation loss (log scale)",
            YAxis::Log(decades),
        )
    } else {
        (
            "Benchmark win rate per generation: mean over seeds, 95% band",
            "win rate",
            YAxis::Percent(percent_range(values)),
        )
    };
    Figure {
        name: "learning".to_string(),
        title: title.to_string(),
        y_desc: y_desc.to_string(),
        generations: first..last.max(first + 1),
        x_desc: plan.kind.step(),
        categories: Vec::new(),
        y_axis,
        marks,
        notes: Vec::new(),
    }
}

/// Each variant's runs of `measure` (a dot per seed), their mean and 95% interval.
pub fn measure_figure(plan: &Plan, summaries: &[VariantSummary], measure: &str) -> Figure {
    let mut marks = Vec::new();
    let mut values = Vec::new();
    // Ratings are in Elo; win rates and scores are drawn in percent.
    let rating = measure == RATING;
    let scale = if rating { 1.0 } else { 100.0 };
    for (k, variant) in plan.variants.iter().enumerate() {
        let Some(summary) = summaries
            .iter()
            .find(|s| s.variant == variant.name && s.measure == measure)
        else {
            continue;
        };
        let at = k as u32 + 1;
        let percent = |v: f64| scale * v;
        let s = &summary.summary;
        if s.ci_low.is_finite() && s.ci_high.is_finite() {
            values.extend([s.ci_low, s.ci_high]);
            marks.push(Mark {
                label: None,
                shape: Shape::Interval {
                    at,
                    low: percent(s.ci_low),
                    high: percent(s.ci_high),
                    colour: plotters::style::RGBColor(110, 110, 110),
                },
            });
        }
        values.extend(summary.values.iter().copied());
        marks.push(Mark {
            label: None,
            shape: Shape::Dots {
                points: summary.values.iter().map(|&v| (at, percent(v))).collect(),
                colour: colour(k),
            },
        });
        marks.push(Mark {
            label: None,
            shape: Shape::Point {
                at: (at, percent(s.mean)),
                colour: colour(k),
            },
        });
    }
    Figure {
        name: crate::experiments::plan::measure_figure_name(measure),
        title: format!("{measure}: each seed, and the mean with its 95% interval"),
        // A benchmark measures the win rate, the League the score: the axis says which.
        y_desc: match Metric::of(measure) {
            Metric::Score if measure == "league" => "League score".to_string(),
            metric => metric.name().to_string(),
        },
        generations: 0..plan.variants.len() as u32 + 1,
        x_desc: "variant",
        categories: plan.variants.iter().map(|v| v.name.clone()).collect(),
        y_axis: if rating {
            YAxis::Linear(padded_range(values.into_iter()))
        } else {
            YAxis::Percent(percent_range(values.into_iter()))
        },
        marks,
        notes: vec![
            "small dots: one run each; large dot: their mean; bar: its 95% interval".into(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::plan::PlanFile;
    use crate::games::othello::Othello;

    /// A benchmark's value is a win rate (wins / games), the League's a score ((wins +
    /// draws/2) / games): each axis says which.
    #[test]
    fn measure_axes_name_the_win_rate_a_rating_or_the_league_score() {
        let plan = PlanFile::parse(
            "game = \"othello\"\nseeds = [1]\n[variants.a]\n\
             [[evaluation.benchmark]]\nopponent = \"heuristic:1\"\ngames = 10\nseed = 777\n",
        )
        .and_then(|plan| plan.resolve(&Othello::start()))
        .unwrap();
        let axis = |measure: &str| measure_figure(&plan, &[], measure).y_desc;
        assert_eq!(axis("vs heuristic:1"), "win rate");
        assert_eq!(axis("league"), "League score");
        assert_eq!(axis(RATING), "Elo");
    }
}
