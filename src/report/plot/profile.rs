//! The figure of performance profiles (`evoboard profile`): each player's score against
//! each bin of the rated pool, weakest bin first, with its 95% interval as a band.

use plotters::style::Color;

use super::figure::{Figure, Mark, PALETTE, Shape, Stroke, YAxis};
use crate::arena::profile::{Profile, RatedPool};

/// One line per player over the pool's bins (named by their ratings), over a band of its
/// 95% intervals, on a score axis from 0 to 100%.
pub fn profile_figure(pool: &RatedPool, profiles: &[Profile]) -> Figure {
    let mut marks = Vec::new();
    for (k, profile) in profiles.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let at = |bin: usize| bin as u32 + 1;
        marks.push(Mark {
            label: None,
            shape: Shape::Band {
                points: profile
                    .points
                    .iter()
                    .map(|p| (at(p.bin), 100.0 * p.ci_low, 100.0 * p.ci_high))
                    .collect(),
                colour: colour.mix(0.15),
            },
        });
        marks.push(Mark {
            label: Some(format!(
                "{} ({:.1}% overall)",
                profile.player,
                100.0 * profile.overall
            )),
            shape: Shape::Line {
                points: profile
                    .points
                    .iter()
                    .map(|p| (at(p.bin), 100.0 * p.score))
                    .collect(),
                stroke: Stroke {
                    colour,
                    width: 2,
                    dashed: false,
                },
            },
        });
    }
    Figure {
        name: "profile".to_string(),
        title: format!(
            "Performance profile: score against {} opponents in {} bins by rating ({} = 0)",
            pool.members.len(),
            pool.bins.len(),
            pool.anchor
        ),
        y_desc: "score (wins + draws/2), 95% interval".to_string(),
        generations: 0..pool.bins.len() as u32 + 1,
        x_desc: "the opponents' bins: lowest to highest Elo of each (equal numbers of opponents)",
        categories: pool
            .bins
            .iter()
            .map(|bin| format!("{:.0} to {:.0}", bin.low_elo, bin.high_elo))
            .collect(),
        y_axis: YAxis::Percent(0.0..100.0),
        marks,
        notes: Vec::new(),
    }
}
