//! Plots of a run, one per question a reader asks: is fitness rising (`fitness`), does the
//! champion beat the benchmark (`benchmark`, with its 95% interval and the gate), is the
//! population still diverse (`diversity`). Each is written as PNG and SVG.
//!
//! Text is drawn with DejaVu Sans embedded in the binary, so PNG rendering needs no system
//! font library (fontconfig, freetype) on the machine.

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::FontStyle;

use crate::evolve::checkpoint::RunDir;
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
    let [generation, max, mean, min, rate, low, high, diversity] = [
        "generation",
        "fitness_max",
        "fitness_mean",
        "fitness_min",
        "bench_win_rate",
        "bench_ci_low",
        "bench_ci_high",
        "diversity",
    ]
    .map(column);
    let (generation, max, mean, min) = (generation?, max?, mean?, min?);
    let (rate, low, high, diversity) = (rate?, low?, high?, diversity?);
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
            let benchmark = match (number(rate), number(low), number(high)) {
                (Some(r), Some(l), Some(h)) => Some((r, l, h)),
                _ => None,
            };
            Ok(PlotRow {
                generation: fields
                    .get(generation)
                    .and_then(|f| f.parse().ok())
                    .ok_or_else(bad)?,
                fitness_max: number(max).ok_or_else(bad)?,
                fitness_mean: number(mean).ok_or_else(bad)?,
                fitness_min: number(min).ok_or_else(bad)?,
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

/// Draws `fitness`, `benchmark` and `diversity` (PNG and SVG) into `out`, each titled
/// and captioned with `caption` (game, preset, seed …); `gate` is drawn on the benchmark
/// plot. Files are written atomically. Returns the paths written.
pub fn draw_run(
    rows: &[PlotRow],
    caption: &str,
    shown: &Shown,
    out: &Path,
) -> Result<Vec<PathBuf>, PlotError> {
    register_font();
    std::fs::create_dir_all(out).map_err(|e| PlotError::Draw {
        path: out.to_path_buf(),
        reason: e.to_string(),
    })?;
    let mut charts = Vec::new();
    if let Some(label) = shown.fitness {
        charts.push(("fitness", Chart::Fitness { label }));
    }
    charts.push(("benchmark", Chart::Benchmark { gate: shown.gate }));
    if shown.diversity {
        charts.push(("diversity", Chart::Diversity));
    }
    let mut written = Vec::new();
    for (name, chart) in charts {
        for extension in ["png", "svg"] {
            let path = out.join(format!("{name}.{extension}"));
            // The bitmap backend picks its encoder from the extension: keep it on the temp.
            let temp = out.join(format!(".{name}.tmp-{}.{extension}", std::process::id()));
            let result = if extension == "png" {
                chart.draw(
                    BitMapBackend::new(&temp, SIZE).into_drawing_area(),
                    rows,
                    caption,
                )
            } else {
                chart.draw(
                    SVGBackend::new(&temp, SIZE).into_drawing_area(),
                    rows,
                    caption,
                )
            };
            let result =
                result.and_then(|()| std::fs::rename(&temp, &path).map_err(|e| e.to_string()));
            if let Err(reason) = result {
                let _ = std::fs::remove_file(&temp);
                return Err(PlotError::Draw { path, reason });
            }
            written.push(path);
        }
    }
    Ok(written)
}

/// Makes "sans-serif" resolve to the embedded DejaVu Sans.
fn register_font() {
    static REGISTER: Once = Once::new();
    REGISTER.call_once(|| {
        plotters::style::register_font("sans-serif", FontStyle::Normal, dejavu::sans::regular())
            .unwrap_or_else(|_| panic!("the embedded DejaVu Sans font is valid"));
    });
}

/// Colours of the benchmark opponents' lines, the first (whose interval is drawn) blue.
const PALETTE: [RGBColor; 10] = [
    RGBColor(0, 0, 255),
    RGBColor(230, 120, 0),
    RGBColor(0, 150, 0),
    RGBColor(200, 0, 200),
    RGBColor(120, 70, 20),
    RGBColor(0, 170, 170),
    RGBColor(128, 128, 0),
    RGBColor(240, 60, 60),
    RGBColor(90, 90, 90),
    RGBColor(150, 100, 255),
];

/// Generations averaged by the trend line of the benchmark plot (drawn once a run has at
/// least twice as many benchmarked generations): single benchmarks of 100 games are noisy.
const TREND_WINDOW: usize = 25;

/// Which charts a run has and what they mark: its fitness axis (none for a lone network
/// learning by self-play, whose "fitness" is constant), its gate (none when it is 100%,
/// which no run stops at) and its diversity (none for a lone network).
pub struct Shown {
    pub fitness: Option<&'static str>,
    pub gate: Option<f64>,
    pub diversity: bool,
}

#[derive(Clone, Copy)]
enum Chart {
    Fitness { label: &'static str },
    Benchmark { gate: Option<f64> },
    Diversity,
}

/// Axis range covering `values` with a little room above and below.
fn padded_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !low.is_finite() {
        return 0.0..1.0;
    }
    let pad = ((high - low) * 0.05).max(0.5);
    (low - pad).max(0.0)..high + pad
}

impl Chart {
    fn draw<DB: DrawingBackend>(
        self,
        root: DrawingArea<DB, Shift>,
        rows: &[PlotRow],
        caption: &str,
    ) -> Result<(), String> {
        let text = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
        root.fill(&WHITE).map_err(text)?;
        let first = rows.first().map_or(1, |r| r.generation);
        let last = rows.last().map_or(1, |r| r.generation).max(first + 1);
        let x_range = first..last;
        let (title, y_desc, y_range) = match self {
            Chart::Fitness { label } => (
                "Fitness per generation",
                label,
                padded_range(rows.iter().flat_map(|r| [r.fitness_min, r.fitness_max])),
            ),
            Chart::Benchmark { .. } => (
                "Champion vs benchmark per generation",
                "win rate",
                -0.02..1.02,
            ),
            Chart::Diversity => (
                "Population diversity per generation",
                "mean pairwise distance",
                padded_range(rows.iter().map(|r| r.diversity)),
            ),
        };
        // The title on its own line, the run's description smaller below it: long network
        // names would not fit beside the title.
        let root = root.titled(title, ("sans-serif", 22)).map_err(text)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 15))
            .margin(16)
            .x_label_area_size(48)
            .y_label_area_size(70)
            .build_cartesian_2d(x_range, y_range)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_desc("generation")
            .y_desc(y_desc)
            .label_style(("sans-serif", 15))
            .axis_desc_style(("sans-serif", 17))
            .draw()
            .map_err(text)?;
        // Per-generation series are drawn thin: thick polylines grow miter spikes at the
        // sharp turns of noisy data. Reference lines (trend, gate) are drawn thick.
        let line = |points: Vec<(u32, f64)>, colour: RGBColor, label: &str| {
            (points, colour, label.to_string(), 1)
        };
        let thick = |points: Vec<(u32, f64)>, colour: RGBColor, label: &str| {
            (points, colour, label.to_string(), 2)
        };
        let mut lines = Vec::new();
        match self {
            Chart::Fitness { .. } => {
                lines.push(line(
                    rows.iter().map(|r| (r.generation, r.fitness_max)).collect(),
                    BLUE,
                    "best",
                ));
                lines.push(line(
                    rows.iter()
                        .map(|r| (r.generation, r.fitness_mean))
                        .collect(),
                    RGBColor(0, 140, 0),
                    "mean",
                ));
                lines.push(line(
                    rows.iter().map(|r| (r.generation, r.fitness_min)).collect(),
                    RED,
                    "worst",
                ));
            }
            Chart::Benchmark { gate } => {
                let played: Vec<(u32, (f64, f64, f64))> = rows
                    .iter()
                    .filter_map(|r| r.benchmark.map(|b| (r.generation, b)))
                    .collect();
                let band: Vec<(u32, f64)> = played
                    .iter()
                    .map(|&(g, (_, low, _))| (g, low))
                    .chain(played.iter().rev().map(|&(g, (_, _, high))| (g, high)))
                    .collect();
                if !band.is_empty() {
                    chart
                        .draw_series(std::iter::once(Polygon::new(band, BLUE.mix(0.18).filled())))
                        .map_err(text)?
                        .label("95% interval")
                        .legend(|(x, y)| {
                            Rectangle::new([(x, y - 5), (x + 20, y + 5)], BLUE.mix(0.18).filled())
                        });
                }
                let specs: Vec<&str> = rows
                    .iter()
                    .flat_map(|r| r.opponents.iter().map(|(spec, _)| spec.as_str()))
                    .fold(Vec::new(), |mut specs, spec| {
                        if !specs.contains(&spec) {
                            specs.push(spec);
                        }
                        specs
                    });
                if specs.is_empty() {
                    lines.push(line(
                        played.iter().map(|&(g, (rate, _, _))| (g, rate)).collect(),
                        BLUE,
                        "win rate",
                    ));
                }
                // One line per opponent; the first (the band's) in blue.
                for (k, spec) in specs.iter().enumerate() {
                    let points = rows
                        .iter()
                        .filter_map(|r| {
                            let rate = r.opponents.iter().find(|(s, _)| s == spec)?.1;
                            Some((r.generation, rate))
                        })
                        .collect();
                    lines.push(line(points, PALETTE[k % PALETTE.len()], spec));
                }
                if played.len() >= 2 * TREND_WINDOW {
                    let trend = played
                        .windows(TREND_WINDOW)
                        .map(|w| {
                            let total: f64 = w.iter().map(|&(_, (rate, _, _))| rate).sum();
                            (w[TREND_WINDOW - 1].0, total / TREND_WINDOW as f64)
                        })
                        .collect();
                    let label = format!("mean of last {TREND_WINDOW}");
                    lines.push(thick(trend, RGBColor(0, 0, 0), &label));
                }
                if let Some(gate) = gate {
                    lines.push(thick(
                        vec![(first, gate), (last, gate)],
                        RED,
                        &format!("gate {:.0}%", 100.0 * gate),
                    ));
                }
            }
            Chart::Diversity => {
                lines.push(line(
                    rows.iter().map(|r| (r.generation, r.diversity)).collect(),
                    BLUE,
                    "diversity",
                ));
            }
        }
        for (points, colour, label, width) in lines {
            chart
                .draw_series(LineSeries::new(points, colour.stroke_width(width)))
                .map_err(text)?
                .label(label)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(width))
                });
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", 15))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(text)?;
        root.present().map_err(text)
    }
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
    draw_run(&rows, &caption, &shown, out)
}
