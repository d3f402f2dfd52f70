//! Drawing a [`Figure`] with plotters: the chart, its marks and the legend strip above it.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordf64, RangedCoordu32};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Figure, Shape, Stroke};

const FONT: &str = "sans-serif";
/// Layout in pixels: space around the chart and for its axis labels.
const MARGIN: u32 = 16;
const Y_LABEL_AREA: u32 = 80;
const X_LABEL_AREA: u32 = 48;
/// Rows of category names under the axis at most, the height of each row, and the least
/// space between two names on one row.
const MAX_CATEGORY_ROWS: u32 = 4;
const CATEGORY_ROW: u32 = 18;
const CATEGORY_GAP: u32 = 10;
/// Height of a row of the legend strip, and the length of a legend swatch.
const LEGEND_ROW: u32 = 24;
const SWATCH: i32 = 26;
/// Space between legend entries, and between a swatch and its text.
const ENTRY_GAP: u32 = 28;
const SWATCH_GAP: i32 = 7;
/// Width of interval bars.
const LINE_WIDTH_INTERVAL: u32 = 2;

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordu32, RangedCoordf64>>;

/// Whether `line` fits across `area` within the margins at font `size`.
fn fits<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, line: &str, size: u32) -> bool {
    let room = area.dim_in_pixel().0.saturating_sub(2 * MARGIN);
    area.estimate_text_size(line, &(FONT, size).into_text_style(area))
        .is_ok_and(|(width, _)| width <= room)
}

/// The largest font size from `largest` down to `smallest` at which `line` fits across
/// `area` within the margins: a long measure's name would otherwise run off both edges
/// of a centred title.
fn fitting_size<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    line: &str,
    largest: u32,
    smallest: u32,
) -> u32 {
    (smallest..=largest)
        .rev()
        .find(|&size| fits(area, line, size))
        .unwrap_or(smallest)
}

/// The run's description as the lines it is drawn on, and their font size: one line at
/// the largest size from `largest` down to `smallest` that fits, else two, else as many
/// as it takes at `smallest`, broken between its " · "-separated settings. A run started
/// from a file names that file's path, which alone can fill half the width.
fn caption_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    caption: &str,
    largest: u32,
    smallest: u32,
) -> (Vec<String>, u32) {
    let wrapped = |size: u32| {
        let mut lines: Vec<String> = Vec::new();
        for part in caption.split(" · ") {
            match lines.last_mut() {
                Some(line) if fits(area, &format!("{line} · {part}"), size) => {
                    line.push_str(" · ");
                    line.push_str(part);
                }
                _ => lines.push(part.to_string()),
            }
        }
        lines
    };
    let size = [1, 2]
        .into_iter()
        .find_map(|most| {
            (smallest..=largest)
                .rev()
                .find(|&size| wrapped(size).len() <= most)
        })
        .unwrap_or(smallest);
    (wrapped(size), size)
}

/// Draws `figure` with its run description `caption` below the title.
pub(super) fn render<DB: DrawingBackend>(
    root: DrawingArea<DB, Shift>,
    figure: &Figure,
    caption: &str,
) -> Result<(), String> {
    let text = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(text)?;
    // The title on its own line, the run's description smaller below it: long network
    // names would not fit beside the title.
    let title_size = fitting_size(&root, &figure.title, 22, 12);
    let area = root
        .titled(&figure.title, (FONT, title_size))
        .map_err(text)?;
    let (lines, caption_size) = caption_lines(&area, caption, 15, 10);
    let mut area = area;
    for line in &lines {
        area = area.titled(line, (FONT, caption_size)).map_err(text)?;
    }
    let plot = legend_strip(&area, figure).map_err(text)?;
    let rows = category_rows(&plot, &figure.categories).map_err(text)?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(MARGIN)
        .margin_top(6)
        .x_label_area_size(X_LABEL_AREA + (rows - 1) * CATEGORY_ROW)
        .y_label_area_size(Y_LABEL_AREA)
        .build_cartesian_2d(figure.generations.clone(), figure.y_axis.range())
        .map_err(text)?;
    let y_label = |value: &f64| figure.y_axis.label(*value);
    let categories = &figure.categories;
    // Category names are drawn below by `draw_categories`, staggered if they are long; the
    // mesh only draws their ticks.
    let x_label = |value: &u32| {
        if categories.is_empty() {
            value.to_string()
        } else {
            String::new()
        }
    };
    let mut mesh = chart.configure_mesh();
    if !categories.is_empty() {
        mesh.x_labels(categories.len() + 2);
    }
    mesh.x_desc(figure.x_desc)
        .x_label_formatter(&x_label)
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
    draw_categories(&root, &chart, categories, rows).map_err(text)?;
    root.present().map_err(text)
}

/// The fewest rows of category names (1 to [`MAX_CATEGORY_ROWS`]) in which, with names
/// dealt to the rows in turn, no name overlaps its neighbour on the same row; the slots are
/// the chart's width over the categories and the empty place at each end.
fn category_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    categories: &[String],
) -> Result<u32, DrawingAreaErrorKind<DB::ErrorType>> {
    let widths = categories
        .iter()
        .map(|name| Ok(area.estimate_text_size(name, &category_font())?.0))
        .collect::<Result<Vec<u32>, _>>()?;
    let chart_width = area
        .dim_in_pixel()
        .0
        .saturating_sub(2 * MARGIN + Y_LABEL_AREA);
    let slot = chart_width / (categories.len() as u32 + 1).max(1);
    let fits = |rows: usize| {
        widths
            .iter()
            .zip(widths.iter().skip(rows))
            .all(|(a, b)| (a + b) / 2 + CATEGORY_GAP <= rows as u32 * slot)
    };
    Ok((1..MAX_CATEGORY_ROWS)
        .find(|&rows| fits(rows as usize))
        .unwrap_or(MAX_CATEGORY_ROWS))
}

/// Writes each category's name centred under its place on the axis, the k-th on row
/// k mod `rows`.
fn draw_categories<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart<'_, DB>,
    categories: &[String],
    rows: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let bottom = chart.y_range().start;
    let font = category_font().pos(Pos::new(HPos::Center, VPos::Top));
    for (k, name) in categories.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(k as u32 + 1, bottom));
        let row = (k as u32 % rows) * CATEGORY_ROW;
        root.draw(&Text::new(
            name.as_str(),
            (x, y + 8 + row as i32),
            font.clone(),
        ))?;
    }
    Ok(())
}

fn category_font() -> TextStyle<'static> {
    (FONT, 15).into_font().color(&BLACK)
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

/// The smallest gap between successive generations: 1 for per-generation series, K for
/// networks kept every K generations.
fn smallest_step(generations: impl Iterator<Item = u32>) -> u32 {
    let mut previous = None;
    let mut step = u32::MAX;
    for generation in generations {
        if let Some(previous) = previous {
            step = step.min(generation.saturating_sub(previous).max(1));
        }
        previous = Some(generation);
    }
    if step == u32::MAX { 1 } else { step }
}

/// Draws one mark on the chart; lines and bands break where a point of their series is
/// missing (a generation, or a kept network).
fn draw_mark<DB: DrawingBackend>(
    chart: &mut Chart<'_, DB>,
    shape: &Shape,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let x = chart.x_range();
    let y = chart.y_range();
    match shape {
        Shape::Line { points, stroke } => {
            let step = smallest_step(points.iter().map(|p| p.0));
            for run in points.chunk_by(|a, b| b.0 == a.0 + step) {
                draw_line(chart, run.to_vec(), stroke)?;
            }
        }
        Shape::Level { value, stroke } => {
            draw_line(chart, vec![(x.start, *value), (x.end, *value)], stroke)?;
        }
        Shape::Band { points, colour } => {
            let step = smallest_step(points.iter().map(|p| p.0));
            for run in points.chunk_by(|a, b| b.0 == a.0 + step) {
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
        Shape::Point { at, colour } => {
            chart.draw_series(dot(*at, *colour))?;
        }
        Shape::Dots { points, colour } => {
            chart.draw_series(points.iter().map(|&at| Circle::new(at, 4, colour.filled())))?;
        }
        Shape::Interval {
            at,
            low,
            high,
            colour,
        } => {
            let style = colour.stroke_width(LINE_WIDTH_INTERVAL);
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(*at, *low), (*at, *high)],
                style,
            )))?;
            let area = chart.plotting_area();
            let (base_x, base_y) = area.get_base_pixel();
            let pixels = area.strip_coord_spec();
            for value in [*low, *high] {
                let (x, y) = area.map_coordinate(&(*at, value));
                let cap = [(x - 8 - base_x, y - base_y), (x + 8 - base_x, y - base_y)];
                pixels.draw(&PathElement::new(cap.to_vec(), style))?;
            }
        }
        Shape::Span { from, to, colour } => {
            // In pixels: the half-generation beyond each end is not a point of the axis.
            let area = chart.plotting_area();
            let pixel = |generation: u32, value: f64| area.map_coordinate(&(generation, value));
            let half = (pixel(x.start + 1, y.start).0 - pixel(x.start, y.start).0) / 2;
            let (left, top) = pixel(*from, y.end);
            let (right, bottom) = pixel(*to, y.start);
            let (low, high) = (pixel(x.start, y.start).0, pixel(x.end, y.start).0);
            let (base_x, base_y) = area.get_base_pixel();
            let corners = [
                ((left - half).max(low) - base_x, top - base_y),
                ((right + half).min(high) - base_x, bottom - base_y),
            ];
            let pixels = area.strip_coord_spec();
            pixels.draw(&Rectangle::new(corners, colour.filled()))?;
        }
    }
    Ok(())
}

/// A dot that stands out on lines and bands: filled, with a white rim.
fn dot<C: Clone>(at: C, colour: RGBColor) -> [Circle<C, i32>; 2] {
    [
        Circle::new(at.clone(), 8, WHITE.filled()),
        Circle::new(at, 6, colour.filled()),
    ]
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
                Shape::Interval { colour, .. } => {
                    let ends = vec![(x + SWATCH / 2, y - 7), (x + SWATCH / 2, y + 7)];
                    area.draw(&PathElement::new(
                        ends,
                        colour.stroke_width(LINE_WIDTH_INTERVAL),
                    ))?;
                }
                Shape::Dots { colour, .. } => {
                    area.draw(&Circle::new((x + SWATCH / 2, y), 4, colour.filled()))?;
                }
                Shape::Point { colour, .. } => {
                    for circle in dot((x + SWATCH / 2, y), *colour) {
                        area.draw(&circle)?;
                    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn rows_for(names: &[&str]) -> u32 {
        super::super::draw::register_font();
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        category_rows(&area, &names).unwrap()
    }

    #[test]
    fn a_title_too_long_for_the_width_is_set_smaller_until_it_fits() {
        super::super::draw::register_font();
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
        assert_eq!(fitting_size(&area, "Fitness per generation", 22, 12), 22);
        let long = "vs the shipped champion at depth 2, validation seed 4242: each seed, \
                    and the mean with its 95% interval";
        let size = fitting_size(&area, long, 22, 12);
        assert!((12..22).contains(&size), "size {size}");
        let width = |size: u32| {
            area.estimate_text_size(long, &(FONT, size).into_text_style(&area))
                .unwrap()
                .0
        };
        assert!(width(size) <= 1000 - 2 * MARGIN && width(size + 1) > 1000 - 2 * MARGIN);
    }

    #[test]
    fn a_caption_too_long_for_one_line_is_broken_between_its_settings() {
        super::super::draw::register_font();
        let mut svg = String::new();
        let area = SVGBackend::with_string(&mut svg, (1000, 600)).into_drawing_area();
        let short = "othello · td preset · seed 1 · ntuple logistello · depth 1";
        assert_eq!(
            caption_lines(&area, short, 15, 10),
            (vec![short.to_string()], 15)
        );
        let long = "othello · cmaes preset · seed 3 · ntuple logistello+discs+mobility+wipeout · \
                    depth 1 · sparring wpc:1@0.1 · from experiments/results/othello-league/runs/\
                    learn-exploring/seed-3/champion.evo · random moves in play ε 0.1 · mean rate 0.1";
        assert!(!fits(&area, long, 10));
        let (lines, size) = caption_lines(&area, long, 15, 10);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert_eq!(lines.join(" · "), long);
        assert!(lines.iter().all(|line| fits(&area, line, size)));
        assert!(size == 15 || caption_lines(&area, long, size + 1, size + 1).0.len() > 2);
    }

    #[test]
    fn short_category_names_share_one_row() {
        assert_eq!(rows_for(&["td", "ctdl"]), 1);
        assert_eq!(rows_for(&["paper", "modern", "td"]), 1);
    }

    #[test]
    fn long_category_names_are_staggered_until_none_overlap() {
        let nine = [
            "self-play",
            "small-step",
            "explore-0.25",
            "quarter-heuristic-1",
            "half-heuristic-1",
            "quarter-greedy",
            "half-wpc-diagnostic",
            "counts",
            "counts-quarter-heuristic-1",
        ];
        assert_eq!(rows_for(&nine), 2);
        let long = ["a-very-long-variant-name-indeed-for-this-axis"; 12];
        assert_eq!(rows_for(&long), MAX_CATEGORY_ROWS);
    }
}
