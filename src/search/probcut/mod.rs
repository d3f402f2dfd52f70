//! Selective search by Multi-ProbCut (Buro, "Experiments with Multi-ProbCut and a New
//! High-Quality Evaluation Function for Othello", 1997).
//!
//! A deep search's value `v_d` is close to a straight line in a shallow one's `v_s`:
//! `v_d ≈ slope · v_s + intercept`, with residuals of spread `sigma`. Fitted from an
//! evaluator's own searches ([`calibration`]), per game stage and depth pair, the line lets
//! a node of depth `d` first ask a cheap null-window question at depth `s`: if the shallow
//! value says the deep one lies above the window's top (or below its bottom) with the
//! stated confidence, the node is cut without its deep search. Every strong Othello
//! program reaches its depth this way.

pub mod calibration;

pub use calibration::{
    Calibration, CalibrationError, Fit, calibrate, calibration_path, sample_positions,
};

use crate::eval::HEURISTIC_BOUND;
use crate::statistics::distributions::normal_quantile;

/// Shallowest deep depth checked: below it the shallow search is the static value of a
/// node whose subtree is a few dozen evaluations, and the check costs what it saves.
pub const MIN_DEPTH: u32 = 3;

/// Confidences a selective search may state, in percent: below 60 the cuts are guesses,
/// above 99.9 the band is so wide that hardly anything is cut.
pub const CONFIDENCES: std::ops::RangeInclusive<f64> = 60.0..=99.9;

/// The shallow depth checked for deep depth `deep` (at least 2): about half of it, of the
/// same parity, because searches that end on the mover's ply and on the opponent's differ
/// systematically (3 → 1, 4 → 2, 5 → 1, 6 → 2, 7 → 3, 8 → 4, 9 → 3, 10 → 4, …).
pub fn shallow_depth(deep: u32) -> u32 {
    let half = deep / 2;
    if half % 2 == deep % 2 {
        half
    } else {
        half.saturating_sub(1)
    }
}

/// One calibrated check, ready for the search: where a shallow value must lie for the
/// deep one to be taken as beyond a bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    pub shallow: u32,
    slope: f32,
    intercept: f32,
    /// The confidence's number of standard deviations times the residuals' spread.
    band: f32,
}

impl Cut {
    /// The shallow value at or above which the deep value is taken as at least `beta`;
    /// `None` where no heuristic value could say so (a bound in the exact values' range).
    pub fn high_bound(&self, beta: f32) -> Option<f32> {
        self.shallow_bound(beta, self.band)
    }

    /// The shallow value at or below which the deep value is taken as at most `alpha`.
    pub fn low_bound(&self, alpha: f32) -> Option<f32> {
        self.shallow_bound(alpha, -self.band)
    }

    fn shallow_bound(&self, deep: f32, band: f32) -> Option<f32> {
        if deep.abs() >= HEURISTIC_BOUND {
            return None;
        }
        let bound = (deep + band - self.intercept) / self.slope;
        (bound.abs() < HEURISTIC_BOUND).then_some(bound)
    }
}

/// A calibration at a stated confidence: the cuts a search looks up by stage and depth.
#[derive(Clone, Debug, PartialEq)]
pub struct ProbCut {
    /// Cuts by stage group, then by deep depth.
    cuts: Vec<Vec<Option<Cut>>>,
    stage_width: u32,
    confidence: f64,
}

impl ProbCut {
    /// The cuts of `calibration` at `confidence` percent (within [`CONFIDENCES`]): a node
    /// is cut when the deep value lies beyond its window with at least that probability.
    pub fn new(calibration: &Calibration, confidence: f64) -> ProbCut {
        debug_assert!(CONFIDENCES.contains(&confidence), "confidence {confidence}");
        let deviations = normal_quantile(confidence / 100.0) as f32;
        let mut cuts: Vec<Vec<Option<Cut>>> = Vec::new();
        for fit in &calibration.fits {
            let stage = fit.stage as usize;
            if cuts.len() <= stage {
                cuts.resize(stage + 1, Vec::new());
            }
            let depths = &mut cuts[stage];
            let deep = fit.deep as usize;
            if depths.len() <= deep {
                depths.resize(deep + 1, None);
            }
            depths[deep] = Some(Cut {
                shallow: fit.shallow,
                slope: fit.slope as f32,
                intercept: fit.intercept as f32,
                band: deviations * fit.sigma as f32,
            });
        }
        ProbCut {
            cuts,
            stage_width: calibration.stage_width,
            confidence,
        }
    }

    /// The check of a node at `stage` searched `depth` deep, if one was calibrated.
    #[inline]
    pub fn cut(&self, stage: u32, depth: u32) -> Option<&Cut> {
        let group = (stage / self.stage_width) as usize;
        self.cuts.get(group)?.get(depth as usize)?.as_ref()
    }

    /// The confidence the cuts were made for, in percent.
    pub fn confidence(&self) -> f64 {
        self.confidence
    }
}
