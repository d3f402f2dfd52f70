//! The weighted Othello heuristic of seed 004 §2.4.4 (the benchmark opponent) as a feature
//! table of the generic weighted sum, and the names under which Othello evaluators can be
//! chosen in agent specs.

use std::sync::Arc;

use crate::eval::othello_features::{self as feature, Sides};
use crate::eval::weighted::{Feature, Featured, WeightedSum, feature_names};
use crate::eval::wpc::Wpc;
use crate::eval::{EvaluatorError, NamedEvaluators, SharedEvaluator};
use crate::games::Player;
use crate::games::othello::Othello;

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
