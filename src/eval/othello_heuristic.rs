//! The weighted Othello heuristic of the Othello ENN paper §2.4.4 (the benchmark opponent) as
//! a feature table of the generic weighted sum, and the names under which Othello evaluators can be
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
    const FEATURES: &'static [Feature<Self>] = &OTHELLO_FEATURES;

    fn context(&self, perspective: Player) -> Sides {
        Sides::new(self, perspective)
    }
}

/// The feature of `othello_features` called `$name`, which reads the context [`Sides`], at
/// default weight `$weight`.
macro_rules! on_sides {
    ($name:ident, $weight:expr) => {
        Feature {
            name: stringify!($name),
            default_weight: $weight,
            value: |e| feature::$name(&e.context),
        }
    };
}

/// The seven features with their default weights, chosen so one corner outweighs a
/// handful of discs, and so that mobility and stability dominate raw disc count until the
/// end: greedy 1, forfeit 10, mobility 8, stability 12, frontier 3, corner 30, parity 4.
static OTHELLO_FEATURES: [Feature<Othello>; 7] = [
    on_sides!(greedy, 1.0),
    on_sides!(forfeit, 10.0),
    on_sides!(mobility, 8.0),
    on_sides!(stability, 12.0),
    on_sides!(frontier, 3.0),
    on_sides!(corner, 30.0),
    on_sides!(parity, 4.0),
];

impl NamedEvaluators for Othello {
    /// `heuristic` (default weights), `wpc` (standard WPC), a feature name (`greedy`,
    /// `mobility`, …), sums of them (`mobility+corner`), or a JSON weights file.
    fn evaluator(name: &str) -> Result<SharedEvaluator<Othello>, EvaluatorError> {
        if name == "wpc" {
            return Ok(Arc::new(Wpc::standard()));
        }
        let extras = Self::panel_extras();
        Ok(WeightedSum::named(name, "othello", extras)?.shared())
    }

    /// The seven features of the Othello ENN paper's heuristic.
    fn panel_features() -> Vec<&'static str> {
        feature_names::<Self>()
    }

    /// The CEC 2006 competition's standard WPC.
    fn panel_extras() -> &'static [&'static str] {
        &["wpc"]
    }
}
