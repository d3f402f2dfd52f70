//! What each plot shows, computed from the statistics: title, axis, marks and legend
//! notes, testable without drawing a pixel.

use std::ops::Range;

use plotters::prelude::*;

use super::{RunNotes, Shown};
use crate::evolve::stats::StatsRow;

/// One chart, computed from the statistics and ready to draw.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The file name, without extension.
    pub name: String,
    pub title: String,
    pub y_desc: String,
    /// The horizontal axis: generations (or a fit's epochs), or categories at 1, 2, … when
    /// `categories` is not empty (the axis then runs from 0 to one past the last).
    pub generations: Range<u32>,
    /// What the horizontal axis counts or names: `generation`, `epoch`, `variant`.
    pub x_desc: &'static str,
    /// Names of the categories on the horizontal axis (e.g. an experiment's variants).
    pub categories: Vec<String>,
    pub y_axis: YAxis,
    /// Drawn in order: earlier marks lie beneath later ones.
    pub marks: Vec<Mark>,
    /// Legend lines without a mark, e.g. a gate outside the plotted range.
    pub notes: Vec<String>,
}

/// The vertical axis of a figure; marks are given in its units.
#[derive(Clone, Debug, PartialEq)]
pub enum YAxis {
    Linear(Range<f64>),
    /// Percent from `start` to `end` (marks in percent).
    Percent(Range<f64>),
    /// The decades 10^start to 10^end on a log scale (marks as base-10 logarithms).
    Log(Range<i32>),
}

/// Something drawn on a chart, named in the legend when it has a label.
#[derive(Clone, Debug)]
pub struct Mark {
    pub label: Option<String>,
    pub shape: Shape,
}

/// What a mark looks like, in the units of its figure's axes.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Per-generation values, joined where generations follow each other.
    Line {
        points: Vec<(u32, f64)>,
        stroke: Stroke,
    },
    /// A horizontal line across the chart at `value`.
    Level { value: f64, stroke: Stroke },
    /// An interval (generation, low, high), filled.
    Band {
        points: Vec<(u32, f64, f64)>,
        colour: RGBAColor,
    },
    /// One value picked out with a dot, e.g. the generation that became the champion.
    Point { at: (u32, f64), colour: RGBColor },
    /// Small dots, one per value (e.g. one per seed).
    Dots {
        points: Vec<(u32, f64)>,
        colour: RGBColor,
    },
    /// An interval from `low` to `high` at `at`: a vertical bar with caps.
    Interval {
        at: u32,
        low: f64,
        high: f64,
        colour: RGBColor,
    },
    /// Generations `from` to `to` (both included), shaded over the whole height out to
    /// halfway to their neighbours, so a single generation is shaded too.
    Span {
        from: u32,
        to: u32,
        colour: RGBAColor,
    },
}

/// How a line is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Stroke {
    pub colour: RGBColor,
    pub width: u32,
    pub dashed: bool,
}

/// Colours of series (Tableau 10): distinct for the several benchmark opponents, and
/// readable by most colour-blind readers in the first few.
pub const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];
const BLUE_SERIES: RGBColor = PALETTE[0];
const GREEN_SERIES: RGBColor = PALETTE[2];
const RED_SERIES: RGBColor = PALETTE[3];
const GREY_SERIES: RGBColor = PALETTE[7];
/// The champion's final test on the benchmark plot.
const TEST_COLOUR: RGBColor = PALETTE[1];

/// Width of per-generation lines; reference lines (trend, gate) are one pixel wider.
const LINE_WIDTH: u32 = 2;

/// Runs of more generations than this draw per-generation lines one pixel wide (at 1000 by
/// 600 pixels a generation gets less than 3 pixels).
const DENSE_GENERATIONS: usize = 300;

/// Generations averaged by trend lines (on the benchmark plot once a run has at least
/// twice as many benchmarked generations): single benchmarks of 100 games are noisy.
const TREND_WINDOW: usize = 25;

/// Positive diversities spanning this factor or more get a log axis: a population that
/// collapses (or explodes) early would otherwise show as a flat line for most of the run.
const LOG_SPAN: f64 = 100.0;

/// A plain line of `width`.
fn stroke(colour: RGBColor, width: u32) -> Stroke {
    Stroke {
        colour,
        width,
        dashed: false,
    }
}

/// A labelled mark.
fn mark(label: impl Into<String>, shape: Shape) -> Mark {
    Mark {
        label: Some(label.into()),
        shape,
    }
}

/// A labelled line of per-generation values.
fn line(label: impl Into<String>, points: Vec<(u32, f64)>, stroke: Stroke) -> Mark {
    mark(label, Shape::Line { points, stroke })
}

/// The figures a run's plots show, in file order.
pub fn figures(rows: &[StatsRow], shown: &Shown, notes: &RunNotes) -> Vec<Figure> {
    let mut figures = Vec::new();
    if let Some(label) = shown.fitness {
        figures.push(fitness_figure(rows, label, notes));
    }
    figures.push(benchmark_figure(rows, shown.gate, notes));
    if shown.diversity {
        figures.push(diversity_figure(rows));
    }
    figures
}

/// The generations on the horizontal axis (at least two, so the axis has a width).
fn generations(rows: &[StatsRow]) -> Range<u32> {
    let first = rows.first().map_or(1, |r| r.generation);
    let last = rows.last().map_or(1, |r| r.generation);
    first..last.max(first + 1)
}

/// Best, mean and worst fitness; the title says what the points are out of, the mean is
/// greyed when the league fixes it, and the generations whose hall of fame was still
/// filling (fewer games, so fewer points) are shaded. A long run's noisy values are drawn
/// thin and pale beneath their running means.
fn fitness_figure(rows: &[StatsRow], label: &'static str, notes: &RunNotes) -> Figure {
    let series = |value: fn(&StatsRow) -> f64| -> Vec<(u32, f64)> {
        rows.iter().map(|r| (r.generation, value(r))).collect()
    };
    let mean = match notes.fixed_mean {
        Some(fixed) => (
            format!("mean (fixed by the league: {} less draws)", tick(fixed)),
            GREY_SERIES,
        ),
        None => ("mean".to_string(), GREEN_SERIES),
    };
    let curves = [
        ("best".to_string(), series(|r| r.fitness_max), BLUE_SERIES),
        (mean.0, series(|r| r.fitness_mean), mean.1),
        ("worst".to_string(), series(|r| r.fitness_min), RED_SERIES),
    ];
    let x = generations(rows);
    let mut marks: Vec<Mark> = notes
        .hall_filling
        .filter(|&last| last >= x.start)
        .map(|last| hall_span(&x, last))
        .into_iter()
        .collect();
    let mut figure_notes = Vec::new();
    if is_dense(rows) {
        for (_, points, colour) in &curves {
            marks.push(Mark {
                label: None,
                shape: Shape::Line {
                    points: points.clone(),
                    stroke: stroke(pale(*colour), 1),
                },
            });
        }
        for (label, points, colour) in curves {
            let trend = running_mean(&points);
            marks.push(line(label, trend, stroke(colour, LINE_WIDTH + 1)));
        }
        figure_notes.push(format!(
            "pale: each generation; bold: mean of the last {TREND_WINDOW}"
        ));
    } else {
        for (label, points, colour) in curves {
            marks.push(line(label, points, stroke(colour, LINE_WIDTH)));
        }
    }
    Figure {
        name: "fitness".to_string(),
        categories: Vec::new(),
        title: format!("Fitness per generation{}", out_of(notes)),
        y_desc: label.to_string(),
        y_axis: YAxis::Linear(padded_range(
            rows.iter().flat_map(|r| [r.fitness_min, r.fitness_max]),
        )),
        generations: x,
        x_desc: "generation",
        marks,
        notes: figure_notes,
    }
}

/// What the fitness points are out of, for the title (empty when unknown).
fn out_of(notes: &RunNotes) -> String {
    match &notes.fitness_games {
        Some(games) if games.start() == games.end() => {
            let games = games.end();
            format!(": points out of {} ({games} games × 3)", 3 * games)
        }
        Some(games) => format!(
            ": points out of 3 × {}–{} games",
            games.start(),
            games.end()
        ),
        None => String::new(),
    }
}

/// True when the run has too many generations for per-generation lines to be drawn thick:
/// they would merge into a solid block.
fn is_dense(rows: &[StatsRow]) -> bool {
    rows.len() > DENSE_GENERATIONS
}

/// The width of per-generation lines.
fn series_width(rows: &[StatsRow]) -> u32 {
    if is_dense(rows) { 1 } else { LINE_WIDTH }
}

/// `colour` halfway to white.
fn pale(RGBColor(r, g, b): RGBColor) -> RGBColor {
    let half = |c: u8| c / 2 + 128;
    RGBColor(half(r), half(g), half(b))
}

/// The shaded generations from the first on `x` to `last` (as far as `x` goes), whose hall
/// of fame was filling.
fn hall_span(x: &Range<u32>, last: u32) -> Mark {
    let last = last.min(x.end);
    let which = if last == x.start {
        format!("generation {last}")
    } else {
        format!("generations {}–{last}", x.start)
    };
    mark(
        format!("hall of fame filling ({which}: fewer games)"),
        Shape::Span {
            from: x.start,
            to: last,
            colour: PALETTE[1].mix(0.35),
        },
    )
}

/// The benchmark win rate in percent, zoomed to the data: its 95% interval, a line per
/// opponent, the trend of a long run, and the gate (a line when in view, else a note).
fn benchmark_figure(rows: &[StatsRow], gate: Option<f64>, notes: &RunNotes) -> Figure {
    let percent = |rate: f64| 100.0 * rate;
    let played: Vec<(u32, (f64, f64, f64))> = rows
        .iter()
        .filter_map(|r| r.benchmark().map(|b| (r.generation, b)))
        .collect();
    let specs = opponent_specs(rows);
    let width = series_width(rows);
    // The first opponent's, which the band, the trend and the gate are about.
    let rates: Vec<(u32, f64)> = played
        .iter()
        .map(|&(g, (r, _, _))| (g, percent(r)))
        .collect();
    let band = Shape::Band {
        points: played
            .iter()
            .map(|&(g, (_, low, high))| (g, percent(low), percent(high)))
            .collect(),
        colour: BLUE_SERIES.mix(0.2),
    };
    let mut marks = vec![mark(
        match specs.first() {
            Some(first) if specs.len() > 1 => format!("95% interval vs {first}"),
            _ => "95% interval".to_string(),
        },
        band,
    )];
    if specs.len() > 1 {
        for (k, spec) in specs.iter().enumerate() {
            let points = rows
                .iter()
                .filter_map(|r| {
                    let rate = r.opponent_rates().find(|(s, _)| s == spec)?.1;
                    Some((r.generation, percent(rate)))
                })
                .collect();
            let colour = PALETTE[k % PALETTE.len()];
            marks.push(line(*spec, points, stroke(colour, width)));
        }
    } else {
        marks.push(line("win rate", rates.clone(), stroke(BLUE_SERIES, width)));
    }
    if rates.len() >= 2 * TREND_WINDOW {
        let label = format!("mean of the last {TREND_WINDOW}");
        let trend = running_mean(&rates);
        marks.push(line(
            label,
            trend,
            stroke(RGBColor(0, 0, 0), LINE_WIDTH + 1),
        ));
    }
    let test = notes.champion_test;
    let range = percent_range(
        played
            .iter()
            .flat_map(|&(_, (r, low, high))| [r, low, high])
            .chain(rows.iter().flat_map(|r| r.opponent_rates().map(|o| o.1)))
            .chain(test.iter().flat_map(|t| [t.ci_low, t.ci_high])),
    );
    if let Some(test) = test {
        // Beneath the champion's dot: its bar and its own dot at the test's win rate.
        marks.push(mark(
            format!(
                "champion's final test: {}% of {} fresh games (95% interval)",
                tick(percent(test.win_rate)),
                test.games
            ),
            Shape::Interval {
                at: test.generation,
                low: percent(test.ci_low),
                high: percent(test.ci_high),
                colour: TEST_COLOUR,
            },
        ));
        marks.push(Mark {
            label: None,
            shape: Shape::Point {
                at: (test.generation, percent(test.win_rate)),
                colour: TEST_COLOUR,
            },
        });
    }
    let mut figure_notes = Vec::new();
    if let Some(generation) = notes.champion {
        let label = format!("champion (generation {generation})");
        match rates.iter().find(|&&(g, _)| g == generation) {
            Some(&at) => marks.push(mark(
                label,
                Shape::Point {
                    at,
                    colour: RED_SERIES,
                },
            )),
            None => figure_notes.push(format!("{label}: not benchmarked")),
        }
    }
    if let Some(gate) = gate {
        let label = format!("gate {}%", tick(percent(gate)));
        match gate_position(&range, gate) {
            GatePosition::InView => marks.push(mark(
                label,
                Shape::Level {
                    value: percent(gate),
                    stroke: Stroke {
                        colour: RED_SERIES,
                        width: LINE_WIDTH + 1,
                        dashed: true,
                    },
                },
            )),
            GatePosition::Above => figure_notes.push(format!("{label}: above the plotted range")),
            GatePosition::Below => figure_notes.push(format!("{label}: below the plotted range")),
        }
    }
    Figure {
        name: "benchmark".to_string(),
        categories: Vec::new(),
        title: benchmark_title(rows, &specs, notes),
        y_desc: "win rate".to_string(),
        generations: generations(rows),
        x_desc: "generation",
        y_axis: YAxis::Percent(range),
        marks,
        notes: figure_notes,
    }
}

/// The specs named by the `win_rate:SPEC` columns, in column order.
fn opponent_specs(rows: &[StatsRow]) -> Vec<&str> {
    rows.iter()
        .flat_map(|r| r.opponent_rates().map(|(spec, _)| spec))
        .fold(Vec::new(), |mut specs, spec| {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
            specs
        })
}

/// "Each generation's best network vs heuristic:2 (100 games a point)": who played whom,
/// and how many games each point stands for.
fn benchmark_title(rows: &[StatsRow], specs: &[&str], notes: &RunNotes) -> String {
    let subject = capitalised(notes.benchmarked.unwrap_or("each generation's network"));
    let opponent = match (specs, &notes.opponent) {
        ([one], _) => one.to_string(),
        ([], Some(spec)) => spec.clone(),
        ([], None) => "the benchmark".to_string(),
        (many, _) => format!("{} benchmark opponents", many.len()),
    };
    let games = rows
        .iter()
        .filter(|r| r.benchmark().is_some())
        .map(|r| r.bench_games);
    let games = match (games.clone().min(), games.max()) {
        (Some(fewest), Some(most)) if fewest == most => format!("{most} games a point"),
        (Some(fewest), Some(most)) => format!("{fewest}–{most} games a point"),
        _ => "no games played".to_string(),
    };
    format!("{subject} vs {opponent} ({games})")
}

/// `text` with its first letter in upper case.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The running mean of the last [`TREND_WINDOW`] values, from the first generation that
/// has that many (empty for shorter series).
fn running_mean(points: &[(u32, f64)]) -> Vec<(u32, f64)> {
    points
        .windows(TREND_WINDOW)
        .map(|w| {
            let total: f64 = w.iter().map(|&(_, value)| value).sum();
            (w[TREND_WINDOW - 1].0, total / TREND_WINDOW as f64)
        })
        .collect()
}

/// Where the gate lies relative to a percent axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GatePosition {
    InView,
    Above,
    Below,
}

/// Where the gate win rate `gate` (a fraction) lies on the percent axis `range`.
pub fn gate_position(range: &Range<f64>, gate: f64) -> GatePosition {
    let gate = 100.0 * gate;
    if gate > range.end {
        GatePosition::Above
    } else if gate < range.start {
        GatePosition::Below
    } else {
        GatePosition::InView
    }
}

/// The percent axis for win rates `rates` (fractions): zoomed to the data with a point of
/// air, out to multiples of 5%, at least 10 points tall (so its ticks are whole percents),
/// within 0–100%.
pub fn percent_range(rates: impl Iterator<Item = f64>) -> Range<f64> {
    let Some((low, high)) = bounds(rates) else {
        return 0.0..100.0;
    };
    let low = (((100.0 * low - 1.0) / 5.0).floor() * 5.0).max(0.0);
    let high = (((100.0 * high + 1.0) / 5.0).ceil() * 5.0).min(100.0);
    if high - low >= 10.0 {
        low..high
    } else if low + 10.0 <= 100.0 {
        low..low + 10.0
    } else {
        high - 10.0..high
    }
}

/// Population diversity, on a log axis when it spans [`LOG_SPAN`] or more; there,
/// generations of diversity 0 (identical individuals) lie on the bottom edge.
fn diversity_figure(rows: &[StatsRow]) -> Figure {
    let values: Vec<f64> = rows.iter().map(|r| r.diversity).collect();
    let y_axis = diversity_axis(&values);
    let width = series_width(rows);
    let marks = match &y_axis {
        YAxis::Log(decades) => {
            let (zero, positive): (Vec<&StatsRow>, Vec<&StatsRow>) =
                rows.iter().partition(|r| r.diversity <= 0.0);
            let logarithms = positive
                .iter()
                .map(|r| (r.generation, r.diversity.log10()))
                .collect();
            let mut marks = vec![line("diversity", logarithms, stroke(BLUE_SERIES, width))];
            if !zero.is_empty() {
                let floor = f64::from(decades.start);
                let bottom = zero.iter().map(|r| (r.generation, floor)).collect();
                let label = "0: all individuals identical";
                marks.push(line(label, bottom, stroke(GREY_SERIES, 2 * LINE_WIDTH)));
            }
            marks
        }
        _ => {
            let points = rows.iter().map(|r| (r.generation, r.diversity)).collect();
            vec![line("diversity", points, stroke(BLUE_SERIES, width))]
        }
    };
    let scale = if matches!(y_axis, YAxis::Log(_)) {
        " (log scale)"
    } else {
        ""
    };
    Figure {
        name: "diversity".to_string(),
        categories: Vec::new(),
        title: format!("Population diversity per generation{scale}"),
        y_desc: "mean pairwise distance".to_string(),
        generations: generations(rows),
        x_desc: "generation",
        y_axis,
        marks,
        notes: Vec::new(),
    }
}

/// The axis for diversities `values`: whole decades on a log scale when the positive ones
/// span `LOG_SPAN` or more, else linear.
pub fn diversity_axis(values: &[f64]) -> YAxis {
    match bounds(values.iter().copied().filter(|&v| v > 0.0)) {
        Some((low, high)) if high >= LOG_SPAN * low => {
            YAxis::Log(low.log10().floor() as i32..high.log10().ceil() as i32)
        }
        _ => YAxis::Linear(padded_range(values.iter().copied())),
    }
}

/// The smallest and largest of `values`, if there are any.
fn bounds(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |acc, v| match acc {
        None => Some((v, v)),
        Some((low, high)) => Some((v.min(low), v.max(high))),
    })
}

/// Axis range covering `values` with 5% of their span above and below (not below 0 for
/// values that are not negative).
pub fn padded_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let Some((low, high)) = bounds(values) else {
        return 0.0..1.0;
    };
    // A constant gets a band of 1 around it.
    let pad = if high > low { (high - low) * 0.05 } else { 0.5 };
    let bottom = if low >= 0.0 {
        (low - pad).max(0.0)
    } else {
        low - pad
    };
    bottom..high + pad
}

/// `value` with as few decimals as it needs (at most 3).
fn tick(value: f64) -> String {
    let text = format!("{value:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" => "0".to_string(),
        _ => text.to_string(),
    }
}

impl YAxis {
    /// The plotted range, in the units of the marks.
    pub(super) fn range(&self) -> Range<f64> {
        match self {
            YAxis::Linear(range) | YAxis::Percent(range) => range.clone(),
            YAxis::Log(decades) => f64::from(decades.start)..f64::from(decades.end),
        }
    }

    /// How many ticks at most: one a decade on a log axis, so every tick is a power of 10.
    pub(super) fn ticks(&self) -> usize {
        match self {
            YAxis::Log(decades) => (decades.end - decades.start + 1) as usize,
            _ => 8,
        }
    }

    /// The text of the tick at `value`.
    pub(super) fn label(&self, value: f64) -> String {
        match self {
            YAxis::Linear(_) => tick(value),
            YAxis::Percent(_) => format!("{}%", tick(value)),
            YAxis::Log(_) => {
                let decimals = (-value.round()).max(0.0) as usize;
                format!("{:.*}", decimals, 10f64.powf(value))
            }
        }
    }
}
