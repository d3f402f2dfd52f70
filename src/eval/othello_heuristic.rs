//! The weighted Othello heuristic of seed 004 §2.4.4 (the benchmark opponent), and the
//! names under which Othello evaluators can be chosen in agent specs.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::eval::othello_features::{self as feature, Sides};
use crate::eval::weighted::{Feature, Featured, WeightedSum, feature_names};
use crate::eval::wpc::Wpc;
use crate::eval::{Evaluator, EvaluatorError, NamedEvaluators, SharedEvaluator};
use crate::games::Player;
use crate::games::othello::Othello;

/// Weights of the seven features; the value is Σ weight × feature.
///
/// Defaults (chosen so one corner outweighs a handful of discs, and so that mobility and
/// stability dominate raw disc count until the end): greedy 1, forfeit 10, mobility 8,
/// stability 12, frontier 3, corner 30, parity 4. A JSON file may override any subset, e.g.
/// `{"greedy": 0.5, "corner": 40}`; missing keys keep their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OthelloWeights {
    pub greedy: f32,
    pub forfeit: f32,
    pub mobility: f32,
    pub stability: f32,
    pub frontier: f32,
    pub corner: f32,
    pub parity: f32,
}

impl Default for OthelloWeights {
    fn default() -> Self {
        OthelloWeights {
            greedy: 1.0,
            forfeit: 10.0,
            mobility: 8.0,
            stability: 12.0,
            frontier: 3.0,
            corner: 30.0,
            parity: 4.0,
        }
    }
}

/// Names of the features, in the order of [`FEATURES`].
pub const FEATURE_NAMES: [&str; 7] = [
    "greedy",
    "forfeit",
    "mobility",
    "stability",
    "frontier",
    "corner",
    "parity",
];

type OldFeature = fn(&Sides) -> f32;

/// The feature functions, in the order of [`FEATURE_NAMES`].
pub const FEATURES: [OldFeature; 7] = [
    feature::greedy,
    feature::forfeit,
    feature::mobility,
    feature::stability,
    feature::frontier,
    feature::corner,
    feature::parity,
];

impl OthelloWeights {
    /// The weights in the order of [`FEATURE_NAMES`].
    pub fn as_array(&self) -> [f32; 7] {
        [
            self.greedy,
            self.forfeit,
            self.mobility,
            self.stability,
            self.frontier,
            self.corner,
            self.parity,
        ]
    }

    /// Weight 1 on the named feature and 0 elsewhere: that feature alone as an evaluator.
    pub fn single(name: &str) -> Option<OthelloWeights> {
        let index = FEATURE_NAMES.iter().position(|&n| n == name)?;
        let mut weights = [0.0; 7];
        weights[index] = 1.0;
        Some(OthelloWeights::from_array(weights))
    }

    /// The weights from an array in the order of [`FEATURE_NAMES`].
    pub fn from_array(weights: [f32; 7]) -> OthelloWeights {
        let [
            greedy,
            forfeit,
            mobility,
            stability,
            frontier,
            corner,
            parity,
        ] = weights;
        OthelloWeights {
            greedy,
            forfeit,
            mobility,
            stability,
            frontier,
            corner,
            parity,
        }
    }

    /// Reads weights from a JSON file (a partial object overrides the defaults).
    pub fn from_json_file(path: &str) -> Result<OthelloWeights, EvaluatorError> {
        let failure = |reason: String| EvaluatorError::WeightsFile {
            path: path.to_string(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| failure(e.to_string()))?;
        let weights: OthelloWeights =
            serde_json::from_str(&text).map_err(|e| failure(e.to_string()))?;
        if !weights.as_array().iter().all(|w| w.is_finite()) {
            return Err(failure("every weight must be a finite number".to_string()));
        }
        Ok(weights)
    }
}

/// The seed-004 benchmark evaluator: a weighted sum of the seven features.
#[derive(Clone, Debug)]
pub struct OthelloHeuristic {
    weights: [f32; 7],
}

impl OthelloHeuristic {
    pub fn new(weights: OthelloWeights) -> OthelloHeuristic {
        OthelloHeuristic {
            weights: weights.as_array(),
        }
    }
}

impl Evaluator<Othello> for OthelloHeuristic {
    fn evaluate(&self, game: &Othello, perspective: Player) -> f32 {
        let sides = Sides::new(game, perspective);
        self.weights
            .iter()
            .zip(FEATURES)
            .filter(|(weight, _)| **weight != 0.0)
            .map(|(weight, feature)| weight * feature(&sides))
            .sum()
    }
}

/// Othello's features share both disc sets and both sides' move sets (three need the
/// moves, and move generation is the costly part), so they are computed once.
impl Featured for Othello {
    type Context = Sides;

    fn context(&self, perspective: Player) -> Sides {
        Sides::new(self, perspective)
    }
}

/// The seven features with their default weights, chosen so one corner outweighs a
/// handful of discs, and so that mobility and stability dominate raw disc count until the
/// end: greedy 1, forfeit 10, mobility 8, stability 12, frontier 3, corner 30, parity 4.
pub static OTHELLO_FEATURES: [Feature<Othello>; 7] = [
    Feature {
        name: "greedy",
        default_weight: 1.0,
        value: |e| feature::greedy(&e.context),
    },
    Feature {
        name: "forfeit",
        default_weight: 10.0,
        value: |e| feature::forfeit(&e.context),
    },
    Feature {
        name: "mobility",
        default_weight: 8.0,
        value: |e| feature::mobility(&e.context),
    },
    Feature {
        name: "stability",
        default_weight: 12.0,
        value: |e| feature::stability(&e.context),
    },
    Feature {
        name: "frontier",
        default_weight: 3.0,
        value: |e| feature::frontier(&e.context),
    },
    Feature {
        name: "corner",
        default_weight: 30.0,
        value: |e| feature::corner(&e.context),
    },
    Feature {
        name: "parity",
        default_weight: 4.0,
        value: |e| feature::parity(&e.context),
    },
];

impl NamedEvaluators for Othello {
    /// `heuristic` (default weights), `wpc` (standard WPC), a feature name (`greedy`,
    /// `mobility`, …), sums of them (`mobility+corner`), or a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Othello>, EvaluatorError> {
        if name == "wpc" {
            return Ok(Arc::new(Wpc::standard()));
        }
        let extras = Self::panel_extras();
        Ok(WeightedSum::named(&OTHELLO_FEATURES, name, "othello", extras)?.shared())
    }

    /// The seven features of the seed-004 heuristic.
    fn panel_features() -> Vec<&'static str> {
        feature_names(&OTHELLO_FEATURES)
    }

    /// The CEC 2006 competition's standard WPC.
    fn panel_extras() -> &'static [&'static str] {
        &["wpc"]
    }
}
