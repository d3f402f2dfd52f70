//! Calibrating Multi-ProbCut for one evaluator: positions from its own games (1 ply, a
//! random move one time in ten), each searched full width at every depth from 0 to the
//! deepest, and for each stage group and deep depth the least-squares line of the deep
//! value on the shallow one, with its residuals' spread. The calibration names the champion
//! file it was made for by SHA-256, and sits beside it ([`calibration_path`]).

use std::path::{Path, PathBuf};

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::{MIN_DEPTH, shallow_depth};
use crate::eval::{Evaluator, HEURISTIC_BOUND};
use crate::farm::map_jobs;
use crate::games::{Game, MoveList};
use crate::persist::{MAX_FILE_BYTES, read_limited, sha256_hex, write_atomic};
use crate::rng::rng_for;
use crate::search::{MAX_DEPTH, search};

/// The calibration file's format; a reader refuses any other.
pub const FORMAT: u32 = 1;

/// Stages per group: Othello's 60 empty squares make six groups of ten.
pub const STAGE_WIDTH: u32 = 10;

/// Fewest pairs a line is fitted from: with fewer, its spread is itself a guess.
pub const MIN_SAMPLES: usize = 30;

/// Most fits a calibration may hold (a stage group for each of 256 stages times every depth):
/// a bound on what a crafted file can make a search allocate.
const MAX_FITS: usize = 256 * MAX_DEPTH as usize;

/// Most stage groups a fit may name.
const MAX_STAGE_GROUP: u32 = 255;

/// Largest calibration file read: a full one is a few hundred kilobytes of JSON.
const MAX_CALIBRATION_BYTES: u64 = 4 << 20;

/// Probability of a random move in the games positions are sampled from: enough variety
/// that games differ, few enough that the positions are those a player meets.
const RANDOM_MOVE: f64 = 0.1;

/// A game gives every this many plies a position (its first at its index modulo this), so
/// that one game's positions cover every stage without being near copies.
const SAMPLE_STRIDE: usize = 4;

/// The line of one stage group and depth pair: `deep ≈ slope · shallow + intercept`, with
/// residuals of standard deviation `sigma`, fitted from `samples` positions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fit {
    /// The stage group: stages `stage · stage_width` to the next group's.
    pub stage: u32,
    pub deep: u32,
    pub shallow: u32,
    pub slope: f64,
    pub intercept: f64,
    pub sigma: f64,
    pub samples: u32,
}

/// A champion's calibration, as stored beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    pub format: u32,
    /// The game the champion plays (for people: the hash binds the file).
    pub game: String,
    /// The SHA-256 of the champion file calibrated.
    pub champion_sha256: String,
    /// Positions searched, games they came from, and the seed of those games.
    pub positions: u32,
    pub games: u32,
    pub seed: u64,
    /// The deepest search of every position.
    pub deepest: u32,
    pub stage_width: u32,
    pub fits: Vec<Fit>,
}

/// Why a calibration cannot be read or used.
#[derive(Debug, thiserror::Error)]
pub enum CalibrationError {
    #[error("cannot read the selective search's calibration {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("{path} is not a selective search's calibration: {reason}")]
    Malformed { path: String, reason: String },
    #[error(
        "the calibration {path} was made for another champion (SHA-256 {calibrated}, this \
         one's is {actual}): calibrate this champion again"
    )]
    OtherChampion {
        path: String,
        calibrated: String,
        actual: String,
    },
    #[error("cannot write {path}: {reason}")]
    Write { path: String, reason: String },
}

impl CalibrationError {
    /// Whether the user's file is at fault (every error but a failed write).
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, CalibrationError::Write { .. })
    }
}

/// Where the calibration of the champion file `champion` is kept: beside it, its name's
/// extension replaced (`champion.evo` → `champion.probcut.json`).
pub fn calibration_path(champion: &Path) -> PathBuf {
    champion.with_extension("probcut.json")
}

impl Calibration {
    /// Reads the calibration beside the champion file `champion`, checking that every
    /// number is one a search can use and that it was made for these very bytes.
    pub fn load_for(champion: &Path) -> Result<Calibration, CalibrationError> {
        let path = calibration_path(champion);
        let shown = path.display().to_string();
        let read = |file: &Path, limit| {
            read_limited(file, limit).map_err(|error| CalibrationError::Read {
                path: file.display().to_string(),
                reason: error.to_string(),
            })
        };
        // Beside the champion means in its directory: a link could lead anywhere (the web
        // page lets people name champions inside its runs directory only).
        if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.file_type().is_symlink()) {
            return Err(CalibrationError::Read {
                path: shown,
                reason: "a symbolic link, not a file beside the champion".to_string(),
            });
        }
        let bytes = read(&path, MAX_CALIBRATION_BYTES)?;
        let calibration: Calibration =
            serde_json::from_slice(&bytes).map_err(|error| CalibrationError::Malformed {
                path: shown.clone(),
                reason: error.to_string(),
            })?;
        calibration
            .check()
            .map_err(|reason| CalibrationError::Malformed {
                path: shown.clone(),
                reason,
            })?;
        let actual = sha256_hex(&read(champion, MAX_FILE_BYTES)?);
        if actual != calibration.champion_sha256 {
            return Err(CalibrationError::OtherChampion {
                path: shown,
                calibrated: calibration.champion_sha256,
                actual,
            });
        }
        Ok(calibration)
    }

    /// Writes the calibration to `path` (atomically: a reader never sees half of it).
    pub fn save(&self, path: &Path) -> Result<(), CalibrationError> {
        let mut text = serde_json::to_string_pretty(self).expect("a calibration serialises");
        text.push('\n');
        write_atomic(path, text.as_bytes()).map_err(|error| CalibrationError::Write {
            path: path.display().to_string(),
            reason: error.to_string(),
        })
    }

    /// Whether every field is one a search can use: in words, what is not.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!(
                "format {} (this version reads format {FORMAT})",
                self.format
            ));
        }
        if !(1..=64).contains(&self.stage_width) {
            return Err(format!("stage_width {} is not 1 to 64", self.stage_width));
        }
        if !(MIN_DEPTH..=MAX_DEPTH).contains(&self.deepest) {
            return Err(format!(
                "deepest {} is not {MIN_DEPTH} to {MAX_DEPTH}",
                self.deepest
            ));
        }
        if self.fits.len() > MAX_FITS {
            return Err(format!("{} fits (at most {MAX_FITS})", self.fits.len()));
        }
        let mut seen = std::collections::BTreeSet::new();
        for fit in &self.fits {
            let at = format!("the fit of stage group {} depth {}", fit.stage, fit.deep);
            let problem = if fit.stage > MAX_STAGE_GROUP {
                Some(format!("stage group above {MAX_STAGE_GROUP}"))
            } else if !(MIN_DEPTH..=self.deepest).contains(&fit.deep) {
                Some(format!("depth not {MIN_DEPTH} to {}", self.deepest))
            } else if fit.shallow != shallow_depth(fit.deep) {
                Some(format!(
                    "shallow depth {}, not {}",
                    fit.shallow,
                    shallow_depth(fit.deep)
                ))
            } else if !(fit.slope.is_finite() && fit.slope > 0.0 && fit.slope < 1e3) {
                Some(format!("slope {} is not in (0, 1000)", fit.slope))
            } else if !fit.intercept.is_finite()
                || fit.intercept.abs() >= f64::from(HEURISTIC_BOUND)
            {
                Some(format!("intercept {} is out of range", fit.intercept))
            } else if !(fit.sigma > 0.0 && fit.sigma < f64::from(HEURISTIC_BOUND)) {
                Some(format!("sigma {} is not positive and in range", fit.sigma))
            } else if (fit.samples as usize) < MIN_SAMPLES {
                Some(format!("{} samples (at least {MIN_SAMPLES})", fit.samples))
            } else if !seen.insert((fit.stage, fit.deep)) {
                Some("given twice".to_string())
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(format!("{at}: {problem}"));
            }
        }
        Ok(())
    }
}

/// `count` positions (fewer only if the games end too soon to give them) from seeded
/// games of `evaluator` at 1 ply against itself, a random move one time in ten, and how
/// many games were played: game k is `rng_for(seed, [k])`'s, and gives its positions at
/// plies k, k + 4, k + 8, … (modulo 4).
pub fn sample_positions<G: Game, E: Evaluator<G> + ?Sized>(
    start: &G,
    evaluator: &E,
    count: usize,
    seed: u64,
) -> (Vec<G>, u32) {
    let mut positions = Vec::with_capacity(count);
    let mut games = 0u32;
    let mut moves = MoveList::new();
    // Each game gives at least one position (its first ply, the start, when k is 0 mod 4
    // and otherwise one later), so the loop ends; a bound guards games that end at once.
    while positions.len() < count && games < u32::try_from(count).unwrap_or(u32::MAX) {
        let mut rng = rng_for(seed, &[u64::from(games)]);
        let mut game = start.clone();
        let mut ply = 0usize;
        loop {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            if ply % SAMPLE_STRIDE == games as usize % SAMPLE_STRIDE && positions.len() < count {
                positions.push(game.clone());
            }
            let mv = if rng.random_bool(RANDOM_MOVE) {
                moves[rng.random_range(0..moves.len())]
            } else {
                search(&game, 1, evaluator).best.expect("the game goes on")
            };
            game.play_unchecked(mv);
            ply += 1;
        }
        games += 1;
    }
    (positions, games)
}

/// The lines of Multi-ProbCut for `evaluator` from `positions`: each searched full width
/// at depths 0 to `deepest` (in parallel; the fits do not depend on the thread count),
/// `progress` called as each is done. A position whose shallow or deep value is exact (the
/// game ends within the search) gives no pair for that depth. A stage group and depth with
/// fewer than [`MIN_SAMPLES`] pairs, or whose line does not rise, has no fit.
pub fn calibrate<G: Game, E: Evaluator<G> + ?Sized + Sync>(
    positions: &[G],
    deepest: u32,
    evaluator: &E,
    progress: &(dyn Fn() + Sync),
) -> Vec<Fit> {
    let values: Vec<(u32, Vec<f32>)> = map_jobs(positions.len(), |k| {
        let game = &positions[k];
        let values = (0..=deepest)
            .map(|depth| search(game, depth, evaluator).value)
            .collect();
        progress();
        (game.stage() / STAGE_WIDTH, values)
    });
    let groups = values.iter().map(|(group, _)| *group).max().unwrap_or(0);
    let mut fits = Vec::new();
    for stage in 0..=groups {
        for deep in MIN_DEPTH..=deepest {
            let shallow = shallow_depth(deep);
            let pairs: Vec<(f64, f64)> = values
                .iter()
                .filter(|(group, _)| *group == stage)
                .map(|(_, values)| (values[shallow as usize], values[deep as usize]))
                .filter(|(x, y)| x.abs() < HEURISTIC_BOUND && y.abs() < HEURISTIC_BOUND)
                .map(|(x, y)| (f64::from(x), f64::from(y)))
                .collect();
            if let Some((slope, intercept, sigma)) = least_squares(&pairs) {
                fits.push(Fit {
                    stage,
                    deep,
                    shallow,
                    slope,
                    intercept,
                    sigma,
                    samples: pairs.len() as u32,
                });
            }
        }
    }
    fits
}

/// The least-squares line through `pairs` (x, y) and its residuals' standard deviation
/// (n − 2 degrees of freedom): `None` with fewer than [`MIN_SAMPLES`] pairs, no spread in
/// x or y, or a line that does not rise.
fn least_squares(pairs: &[(f64, f64)]) -> Option<(f64, f64, f64)> {
    if pairs.len() < MIN_SAMPLES {
        return None;
    }
    let n = pairs.len() as f64;
    let mean_x = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let slope = sxy / sxx;
    let intercept = mean_y - slope * mean_x;
    let residuals: f64 = pairs
        .iter()
        .map(|p| (p.1 - slope * p.0 - intercept).powi(2))
        .sum();
    let sigma = (residuals / (n - 2.0)).sqrt();
    (slope > 0.0 && sigma > 0.0 && sigma.is_finite()).then_some((slope, intercept, sigma))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn least_squares_finds_a_known_line_and_spread() {
        // y = 2x + 1 with residuals ±1 alternating: sigma² = n / (n − 2).
        let pairs: Vec<(f64, f64)> = (0..40)
            .map(|k| {
                let x = f64::from(k);
                (x, 2.0 * x + 1.0 + if k % 2 == 0 { 1.0 } else { -1.0 })
            })
            .collect();
        let (slope, intercept, sigma) = least_squares(&pairs).unwrap();
        assert!((slope - 2.0).abs() < 0.01, "{slope}");
        assert!((intercept - 1.0).abs() < 0.2, "{intercept}");
        assert!((sigma - (40.0f64 / 38.0).sqrt()).abs() < 0.01, "{sigma}");
    }

    #[test]
    fn too_few_pairs_or_a_falling_line_give_no_fit() {
        let few: Vec<(f64, f64)> = (0..10).map(|k| (f64::from(k), f64::from(k))).collect();
        assert_eq!(least_squares(&few), None);
        let falling: Vec<(f64, f64)> = (0..40)
            .map(|k| (f64::from(k), -f64::from(k) + f64::from(k % 3)))
            .collect();
        assert_eq!(least_squares(&falling), None);
    }
}
