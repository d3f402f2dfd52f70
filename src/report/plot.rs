//! Plots of a run, one per question a reader asks: is fitness rising (`fitness`), does each
//! generation's network beat the benchmark (`benchmark`, with its 95% interval and the
//! gate), is the population still diverse (`diversity`). Each is written as PNG and SVG.
//!
//! A plot is first computed as a [`Figure`] (title, axis, marks, legend notes), then drawn:
//! what a figure shows can be tested without looking at pixels. Legends sit in a strip
//! above the chart, so they never hide data.
//!
//! Text is drawn with DejaVu Sans embedded in the binary, so PNG rendering needs no system
//! font library (fontconfig, freetype) on the machine.

use std::ops::{Range, RangeInclusive};
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::FontStyle;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::evolve::checkpoint::RunDir;
use crate::evolve::config::{EvolveConfig, Preset};
use crate::evolve::gating_benchmark;
use crate::evolve::league::{credited_games, fixed_mean_fitness};
use crate::evolve::stats::OPPONENT_WIN_RATE;

/// Pixel size of the PNG and SVG plots.
pub const SIZE: (u32, u32) = (1000, 600);

/// Why a plot could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    #[error("cannot read {path}: {reason}")]
    Read { path: PathBuf, reason: String },
    #[error("{path} has no generations to plot")]
    Empty { path: PathBuf },
    #[error("cannot draw {path}: {reason}")]
    Draw { path: PathBuf, reason: String },
}

impl PlotError {
    /// True when the run directory given to us is at fault (exit code 2), false when
    /// drawing or writing failed.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, PlotError::Draw { .. })
    }
}

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

/// Which charts a run has and what they mark: its fitness axis (none for a lone network
/// learning by self-play, whose "fitness" is constant), its gate (none when it is 100%,
/// which no run stops at) and its diversity (none for a lone network).
pub struct Shown {
    pub fitness: Option<&'static str>,
    pub gate: Option<f64>,
    pub diversity: bool,
}

/// What the plots explain beyond the numbers, known from the run's settings (plots drawn
/// from statistics alone go without).
#[derive(Clone, Debug, Default)]
pub struct RunNotes {
    /// What each generation puts up against the benchmark, e.g. "each generation's best
    /// network".
    pub benchmarked: Option<&'static str>,
    /// The benchmark opponent, for statistics that name none (runs with one opponent).
    pub opponent: Option<String>,
    /// Fitness games an individual is credited with per generation once the hall of fame
    /// is full, fewest to most: each is worth at most 3 points.
    pub fitness_games: Option<RangeInclusive<usize>>,
    /// The mean fitness when the league fixes it by construction (less the draws).
    pub fixed_mean: Option<f64>,
    /// The last generation whose hall of fame was still filling (fewer fitness games).
    pub hall_filling: Option<u32>,
}

/// Draws `fitness`, `benchmark` and `diversity` (PNG and SVG) into `out`, each titled
/// and captioned with `caption` (game, preset, seed …), from the statistics alone; `gate`
/// is marked on the benchmark plot. Files are written atomically. Returns the paths
/// written.
pub fn draw_run(
    rows: &[PlotRow],
    caption: &str,
    shown: &Shown,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    draw_annotated(rows, caption, shown, &RunNotes::default(), out)
}

/// [`draw_run`] with what the run's settings tell about its numbers.
pub fn draw_annotated(
    rows: &[PlotRow],
    caption: &str,
    shown: &Shown,
    notes: &RunNotes,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    register_font();
    std::fs::create_dir_all(out).map_err(|e| PlotError::Draw {
        path: out.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut written = Vec::new();
    for figure in figures(rows, shown, notes) {
        for extension in ["png", "svg"] {
            written.push(write_figure(&figure, caption, out, extension)?);
        }
    }
    Ok(written)
}

/// Writes `figure` as `out/NAME.extension` through a temporary file renamed into place.
fn write_figure(
    figure: &Figure,
    caption: &str,
    out: &Path,
    extension: &str,
) -> Result<PathBuf, PlotError> {
    let name = figure.name;
    let path = out.join(format!("{name}.{extension}"));
    // The bitmap backend picks its encoder from the extension: keep it on the temp.
    let temp = out.join(format!(".{name}.tmp-{}.{extension}", std::process::id()));
    let result = if extension == "png" {
        render(
            BitMapBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    } else {
        render(
            SVGBackend::new(&temp, SIZE).into_drawing_area(),
            figure,
            caption,
        )
    };
    let result = result.and_then(|()| std::fs::rename(&temp, &path).map_err(|e| e.to_string()));
    if let Err(reason) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(PlotError::Draw { path, reason });
    }
    Ok(path)
}

/// Makes "sans-serif" resolve to the embedded DejaVu Sans.
fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font is valid"));
    });
}

/// One chart, computed from the statistics and ready to draw.
#[derive(Clone, Debug)]
pub struct Figure {
    /// The file name, without extension.
    pub name: &'static str,
    pub title: String,
    pub y_desc: String,
    pub generations: Range<u32>,
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
    /// Generations `from` to `to`, shaded over the whole height.
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
const PALETTE: [RGBColor; 10] = [
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
pub fn figures(rows: &[PlotRow], shown: &Shown, notes: &RunNotes) -> Vec<Figure> {
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
fn generations(rows: &[PlotRow]) -> Range<u32> {
    let first = rows.first().map_or(1, |r| r.generation);
    let last = rows.last().map_or(1, |r| r.generation);
    first..last.max(first + 1)
}

/// Best, mean and worst fitness; the title says what the points are out of, the mean is
/// greyed when the league fixes it, and the generations whose hall of fame was still
/// filling (fewer games, so fewer points) are shaded. A long run's noisy values are drawn
/// thin and pale beneath their running means.
fn fitness_figure(rows: &[PlotRow], label: &'static str, notes: &RunNotes) -> Figure {
    let series = |value: fn(&PlotRow) -> f64| -> Vec<(u32, f64)> {
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
        name: "fitness",
        title: format!("Fitness per generation{}", out_of(notes)),
        y_desc: label.to_string(),
        y_axis: YAxis::Linear(padded_range(
            rows.iter().flat_map(|r| [r.fitness_min, r.fitness_max]),
        )),
        generations: x,
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
fn is_dense(rows: &[PlotRow]) -> bool {
    rows.len() > DENSE_GENERATIONS
}

/// The width of per-generation lines.
fn series_width(rows: &[PlotRow]) -> u32 {
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
            // Up to the first generation with a full hall.
            to: (last + 1).min(x.end),
            colour: PALETTE[1].mix(0.35),
        },
    )
}

/// The benchmark win rate in percent, zoomed to the data: its 95% interval, a line per
/// opponent, the trend of a long run, and the gate (a line when in view, else a note).
fn benchmark_figure(rows: &[PlotRow], gate: Option<f64>, notes: &RunNotes) -> Figure {
    let percent = |rate: f64| 100.0 * rate;
    let played: Vec<(u32, (f64, f64, f64))> = rows
        .iter()
        .filter_map(|r| r.benchmark.map(|b| (r.generation, b)))
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
                    let rate = r.opponents.iter().find(|(s, _)| s == spec)?.1;
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
    let range = percent_range(
        played
            .iter()
            .flat_map(|&(_, (r, low, high))| [r, low, high])
            .chain(rows.iter().flat_map(|r| r.opponents.iter().map(|o| o.1))),
    );
    let mut figure_notes = Vec::new();
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
        name: "benchmark",
        title: benchmark_title(rows, &specs, notes),
        y_desc: "win rate".to_string(),
        generations: generations(rows),
        y_axis: YAxis::Percent(range),
        marks,
        notes: figure_notes,
    }
}

/// The specs named by the `win_rate:SPEC` columns, in column order.
fn opponent_specs(rows: &[PlotRow]) -> Vec<&str> {
    rows.iter()
        .flat_map(|r| r.opponents.iter().map(|(spec, _)| spec.as_str()))
        .fold(Vec::new(), |mut specs, spec| {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
            specs
        })
}

/// "Each generation's best network vs heuristic:2 (100 games a point)": who played whom,
/// and how many games each point stands for.
fn benchmark_title(rows: &[PlotRow], specs: &[&str], notes: &RunNotes) -> String {
    let subject = capitalised(notes.benchmarked.unwrap_or("each generation's network"));
    let opponent = match (specs, &notes.opponent) {
        ([one], _) => one.to_string(),
        ([], Some(spec)) => spec.clone(),
        ([], None) => "the benchmark".to_string(),
        (many, _) => format!("{} benchmark opponents", many.len()),
    };
    let games = rows
        .iter()
        .filter(|r| r.benchmark.is_some())
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
fn diversity_figure(rows: &[PlotRow]) -> Figure {
    let values: Vec<f64> = rows.iter().map(|r| r.diversity).collect();
    let y_axis = diversity_axis(&values);
    let width = series_width(rows);
    let marks = match &y_axis {
        YAxis::Log(decades) => {
            let (zero, positive): (Vec<&PlotRow>, Vec<&PlotRow>) =
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
        name: "diversity",
        title: format!("Population diversity per generation{scale}"),
        y_desc: "mean pairwise distance".to_string(),
        generations: generations(rows),
        y_axis,
        marks,
        notes: Vec::new(),
    }
}

/// The axis for diversities `values`: whole decades on a log scale when the positive ones
/// span [`LOG_SPAN`] or more, else linear.
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
fn padded_range(values: impl Iterator<Item = f64>) -> Range<f64> {
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
    fn range(&self) -> Range<f64> {
        match self {
            YAxis::Linear(range) | YAxis::Percent(range) => range.clone(),
            YAxis::Log(decades) => f64::from(decades.start)..f64::from(decades.end),
        }
    }

    /// How many ticks at most: one a decade on a log axis, so every tick is a power of 10.
    fn ticks(&self) -> usize {
        match self {
            YAxis::Log(decades) => (decades.end - decades.start + 1) as usize,
            _ => 8,
        }
    }

    /// The text of the tick at `value`.
    fn label(&self, value: f64) -> String {
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

const FONT: &str = "sans-serif";
/// Layout in pixels: space around the chart and for its axis labels.
const MARGIN: u32 = 16;
const Y_LABEL_AREA: u32 = 80;
const X_LABEL_AREA: u32 = 48;
/// Height of a row of the legend strip, and the length of a legend swatch.
const LEGEND_ROW: u32 = 24;
const SWATCH: i32 = 26;
/// Space between legend entries, and between a swatch and its text.
const ENTRY_GAP: u32 = 28;
const SWATCH_GAP: i32 = 7;

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu32, RangedCoordf64>>;

/// Draws `figure` with its run description `caption` below the title.
fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    figure: &Figure,
    caption: &str,
) -> Result<(), String> {
    let text = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(text)?;
    // The title on its own line, the run's description smaller below it: long network
    // names would not fit beside the title.
    let area = root.titled(&figure.title, (FONT, 22)).map_err(text)?;
    let area = area.titled(caption, (FONT, 15)).map_err(text)?;
    let plot = legend_strip(&area, figure).map_err(text)?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(MARGIN)
        .margin_top(6)
        .x_label_area_size(X_LABEL_AREA)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d(figure.generations.clone(), figure.y_axis.range())
        .map_err(text)?;
    let y_label = |value: &f64| figure.y_axis.label(*value);
    chart
        .configure_mesh()
        .x_desc("generation")
        .y_desc(&figure.y_desc)
        .y_labels(figure.y_axis.ticks())
        .y_label_formatter(&y_label)
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 17))
        .bold_line_style(BLACK.mix(0.1))
        .light_line_style(TRANSPARENT)
        .draw()
        .map_err(text)?;
    for mark in &figure.marks {
        draw_mark(&mut chart, &mark.shape).map_err(text)?;
    }
    root.present().map_err(text)
}

/// Draws the legend of `figure` in rows at the top of `area`, aligned with the chart's
/// left edge, and returns the area below it.
fn legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    figure: &Figure,
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    let entries = legend_entries(figure);
    let widths = entries
        .iter()
        .map(|entry| entry.width(area))
        .collect::<Result<Vec<u32>, _>>()?;
    let room = area.dim_in_pixel().0 - MARGIN - Y_LABEL_AREA - MARGIN;
    let rows = wrap(&widths, room);
    let height = rows.len() as u32 * LEGEND_ROW + if rows.is_empty() { 0 } else { 4 };
    let (legend, below) = area.split_vertically(height);
    for (r, row) in rows.iter().enumerate() {
        let y = (r as u32 * LEGEND_ROW + LEGEND_ROW / 2) as i32;
        let mut x = (MARGIN + Y_LABEL_AREA) as i32;
        for k in row.clone() {
            entries[k].draw(&legend, (x, y))?;
            x += (widths[k] + ENTRY_GAP) as i32;
        }
    }
    Ok(below)
}

/// Draws one mark on the chart; lines and bands break where a generation is missing.
fn draw_mark<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    shape: &Shape,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let x = chart.x_range();
    let y = chart.y_range();
    match shape {
        Shape::Line { points, stroke } => {
            for run in points.chunk_by(|a, b| b.0 == a.0 + 1) {
                draw_line(chart, run.to_vec(), stroke)?;
            }
        }
        Shape::Level { value, stroke } => {
            draw_line(chart, vec![(x.start, *value), (x.end, *value)], stroke)?;
        }
        Shape::Band { points, colour } => {
            for run in points.chunk_by(|a, b| b.0 == a.0 + 1) {
                let outline = run
                    .iter()
                    .map(|&(g, low, _)| (g, low))
                    .chain(run.iter().rev().map(|&(g, _, high)| (g, high)));
                chart.draw_series(std::iter::once(Polygon::new(
                    outline.collect::<Vec<_>>(),
                    colour.filled(),
                )))?;
            }
        }
        Shape::Span { from, to, colour } => {
            let corners = [(*from, y.end), (*to, y.start)];
            chart.draw_series(std::iter::once(Rectangle::new(corners, colour.filled())))?;
        }
    }
    Ok(())
}

/// Draws a polyline of `points` in `stroke`.
fn draw_line<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    points: Vec<(u32, f64)>,
    stroke: &Stroke,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let style = stroke.colour.stroke_width(stroke.width);
    if stroke.dashed {
        chart.draw_series(DashedLineSeries::new(points, 10, 6, style))?;
    } else {
        chart.draw_series(LineSeries::new(points, style))?;
    }
    Ok(())
}

/// One entry of the legend strip: a mark's swatch and label, or a note alone.
struct Entry<'a> {
    swatch: Option<&'a Shape>,
    text: &'a str,
}

/// The legend of `figure`: its labelled marks when there are two or more (one series
/// needs no legend: the title names it), then its notes.
fn legend_entries(figure: &Figure) -> Vec<Entry<'_>> {
    let series: Vec<Entry> = figure
        .marks
        .iter()
        .filter_map(|m| {
            Some(Entry {
                swatch: Some(&m.shape),
                text: m.label.as_deref()?,
            })
        })
        .collect();
    let series = if series.len() >= 2 {
        series
    } else {
        Vec::new()
    };
    let notes = figure.notes.iter().map(|note| Entry {
        swatch: None,
        text: note,
    });
    series.into_iter().chain(notes).collect()
}

/// The legend's font.
fn legend_font() -> TextStyle<'static> {
    TextStyle::from((FONT, 15).into_font()).pos(Pos::new(HPos::Left, VPos::Center))
}

impl Entry<'_> {
    /// Its width in pixels on `area`.
    fn width<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
    ) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
        let (text, _) = area.estimate_text_size(self.text, &legend_font())?;
        let swatch = if self.swatch.is_some() {
            (SWATCH + SWATCH_GAP) as u32
        } else {
            0
        };
        Ok(swatch + text)
    }

    /// Draws it on `area` from `(x, y)`, `y` being the middle of its row.
    fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        (x, y): (i32, i32),
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        let mut x = x;
        if let Some(shape) = self.swatch {
            let ends = vec![(x, y), (x + SWATCH, y)];
            match shape {
                Shape::Line { stroke, .. } | Shape::Level { stroke, .. } => {
                    let style = stroke.colour.stroke_width(stroke.width);
                    if stroke.dashed {
                        area.draw(&DashedPathElement::new(ends, 7, 4, style))?;
                    } else {
                        area.draw(&PathElement::new(ends, style))?;
                    }
                }
                Shape::Band { colour, .. } | Shape::Span { colour, .. } => {
                    let corners = [(x, y - 7), (x + SWATCH, y + 7)];
                    area.draw(&Rectangle::new(corners, colour.filled()))?;
                }
            }
            x += SWATCH + SWATCH_GAP;
        }
        area.draw(&Text::new(self.text, (x, y), legend_font()))
    }
}

/// Splits entries of `widths` into rows that fit in `room` pixels (an entry wider than the
/// room gets a row of its own).
fn wrap(widths: &[u32], room: u32) -> Vec<Range<usize>> {
    let mut rows = Vec::new();
    let (mut start, mut used) = (0, 0);
    for (k, &width) in widths.iter().enumerate() {
        if k > start && used + ENTRY_GAP + width > room {
            rows.push(start..k);
            (start, used) = (k, 0);
        }
        used += if k > start { ENTRY_GAP } else { 0 } + width;
    }
    if start < widths.len() {
        rows.push(start..widths.len());
    }
    rows
}

/// Draws the plots of the run in `run_dir` (its `run.json` and `stats.csv`) into `out`.
pub fn plot_run(run_dir: &Path, out: &Path) -> Result<Vec<PathBuf>, PlotError> {
    let run = RunDir {
        dir: run_dir.to_path_buf(),
    };
    let info = run.read_info().map_err(|e| PlotError::Read {
        path: run.run_json(),
        reason: e.to_string(),
    })?;
    let rows = read_stats(&run.stats_csv())?;
    let config = &info.config;
    let caption = format!(
        "{} · {} preset · seed {} · {} · depth {}",
        info.game,
        config.preset,
        config.seed,
        info.architecture.name(),
        config.depth
    );
    let shown = Shown {
        fitness: if config.evolves() {
            Some("league points")
        } else if !config.sparring.is_empty() {
            Some("score against sparring partners")
        } else {
            None
        },
        gate: (config.gate < 1.0).then_some(config.gate),
        diversity: config.population > 1,
    };
    draw_annotated(&rows, &caption, &shown, &run_notes(config), out)
}

/// What a run's settings tell about its plots.
pub fn run_notes(config: &EvolveConfig) -> RunNotes {
    let evolves = config.evolves();
    RunNotes {
        benchmarked: Some(benchmarked(config)),
        opponent: Some(gating_benchmark(config)),
        fitness_games: evolves.then(|| credited_games(config, config.hall_of_fame)),
        fixed_mean: fixed_mean_fitness(config),
        // One champion joins the hall after each generation (see `Evolution::step`).
        hall_filling: (evolves && config.hall_of_fame > 0)
            .then(|| u32::try_from(config.hall_of_fame).unwrap_or(u32::MAX)),
    }
}

/// What each generation of the run puts up against the benchmark.
fn benchmarked(config: &EvolveConfig) -> &'static str {
    match config.preset {
        Preset::Cmaes => "each generation's mean network",
        _ if config.population == 1 => "the network after each generation",
        _ => "each generation's best network",
    }
}
