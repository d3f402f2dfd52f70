//! A run's progress on an absolute scale: `ratings.csv` (written by
//! `experiments::generations`), one row per rated player — every kept generation and the
//! fixed anchors — and the figure that draws it.

use std::path::Path;

use plotters::style::Color;
use serde::{Deserialize, Serialize};

use super::PlotError;
use super::figure::{Figure, Mark, PALETTE, Shape, Stroke, YAxis, padded_range};
use crate::csv_rows::Fixed;

/// One rated player: a generation's network (`generation` set) or an anchor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRow {
    pub player: String,
    pub generation: Option<u32>,
    pub elo: Fixed<1>,
    pub ci_low: Fixed<1>,
    pub ci_high: Fixed<1>,
    pub games: u64,
}

/// The rows of a run's `ratings.csv`.
pub fn read_ratings(path: &Path) -> Result<Vec<RatingRow>, PlotError> {
    let failure = |reason: String| PlotError::Read {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = crate::persist::read_limited(path, 1 << 24).map_err(|e| failure(e.to_string()))?;
    csv::Reader::from_reader(bytes.as_slice())
        .deserialize()
        .collect::<Result<Vec<RatingRow>, _>>()
        .map_err(|e| failure(e.to_string()))
}

/// The generations' ratings with their 95% band, and each anchor as a level line.
pub fn rating_figure(rows: &[RatingRow]) -> Figure {
    let generations: Vec<&RatingRow> = rows.iter().filter(|r| r.generation.is_some()).collect();
    let at = |r: &RatingRow| r.generation.expect("a generation's row");
    let mut marks = vec![
        Mark {
            label: Some("95% interval".to_string()),
            shape: Shape::Band {
                points: generations
                    .iter()
                    .map(|r| (at(r), r.ci_low.0, r.ci_high.0))
                    .collect(),
                colour: PALETTE[0].mix(0.2),
            },
        },
        Mark {
            label: Some("the generation's network".to_string()),
            shape: Shape::Line {
                points: generations.iter().map(|r| (at(r), r.elo.0)).collect(),
                stroke: Stroke {
                    colour: PALETTE[0],
                    width: 2,
                    dashed: false,
                },
            },
        },
    ];
    for (k, anchor) in rows.iter().filter(|r| r.generation.is_none()).enumerate() {
        marks.push(Mark {
            label: Some(format!("{} ({:+.0})", anchor.player, anchor.elo.0)),
            shape: Shape::Level {
                value: anchor.elo.0,
                stroke: Stroke {
                    colour: PALETTE[(k + 1) % PALETTE.len()],
                    width: 2,
                    dashed: true,
                },
            },
        });
    }
    let first = generations.iter().map(|r| at(r)).min().unwrap_or(1);
    let last = generations.iter().map(|r| at(r)).max().unwrap_or(1);
    let anchor = rows
        .iter()
        .find(|r| r.generation.is_none() && r.elo.0 == 0.0)
        .map_or("the first anchor".to_string(), |r| r.player.clone());
    Figure {
        name: "rating".to_string(),
        title: format!("Rating of each kept generation's network ({anchor} = 0)"),
        y_desc: "Elo".to_string(),
        generations: first..last.max(first + 1),
        x_desc: "generation",
        categories: Vec::new(),
        y_axis: YAxis::Linear(padded_range(
            rows.iter().flat_map(|r| [r.elo.0, r.ci_low.0, r.ci_high.0]),
        )),
        marks,
        notes: Vec::new(),
    }
}
