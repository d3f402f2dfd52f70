//! Evaluators that are a weighted sum of named features: one mechanism for every game's
//! heuristics, so that names, feature combinations and JSON weight files work alike.
//!
//! Features of one game often need the same costly facts (both sides' Othello move
//! sets). The game computes them once per evaluation as its [`Featured::Context`], which
//! every feature then reads; games whose features share nothing use `()`.

use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

use crate::eval::{Evaluator, EvaluatorError, SharedEvaluator};
use crate::games::{Game, Player};

/// Games whose heuristic is a table of [`Feature`]s.
pub trait Featured: Sized + 'static {
    /// What the features share, computed once per evaluation; `()` when nothing is shared.
    type Context;

    /// The features, in the order `panel` plays them alone. A constant, so that the
    /// evaluator's loop over them compiles to direct (inlined) calls.
    const FEATURES: &'static [Feature<Self>];

    /// The context of this position seen from `perspective`.
    fn context(&self, perspective: Player) -> Self::Context;
}

/// One evaluation as each feature reads it: the position, the evaluated side, and the
/// context the game computed for them.
pub struct Evaluated<'a, G: Featured> {
    pub game: &'a G,
    pub side: Player,
    pub context: G::Context,
}

/// One feature: its name in specs and weight files, its default weight in `heuristic`,
/// and the function computing it for the evaluated side (positive is good for that side).
pub struct Feature<G: Featured> {
    pub name: &'static str,
    pub default_weight: f32,
    pub value: fn(&Evaluated<'_, G>) -> f32,
}

/// The names of a game's features, in table order (`panel` plays each feature alone).
pub fn feature_names<G: Featured>() -> Vec<&'static str> {
    G::FEATURES.iter().map(|feature| feature.name).collect()
}

/// Σ weight × feature over a game's feature table.
pub struct WeightedSum<G> {
    /// One weight per feature of `G::FEATURES`.
    weights: Vec<f32>,
    game: PhantomData<fn() -> G>,
}

impl<G: Game + Featured> WeightedSum<G> {
    /// Every feature at its default weight.
    fn defaults() -> WeightedSum<G> {
        WeightedSum::with(G::FEATURES.iter().map(|f| f.default_weight).collect())
    }

    fn with(weights: Vec<f32>) -> WeightedSum<G> {
        WeightedSum {
            weights,
            game: PhantomData,
        }
    }

    /// Resolves an evaluator name against the game's feature table:
    /// `heuristic` (default weights), one feature name or several joined by `+` (weight 1
    /// each, e.g. `h1+h2+h4`), or a path ending in `.json` holding an object of weights by
    /// feature name (missing names keep their defaults, unknown names are an error).
    /// `others` are the game's names outside the table (such as Othello's `wpc`), which
    /// the game resolves itself; they are listed when a name is unknown.
    pub fn named(
        name: &str,
        game: &'static str,
        others: &[&str],
    ) -> Result<WeightedSum<G>, EvaluatorError> {
        if name == "heuristic" {
            return Ok(WeightedSum::defaults());
        }
        if name.ends_with(".json") {
            return Self::from_json_file(name);
        }
        let mut weights = vec![0.0; G::FEATURES.len()];
        for part in name.split('+') {
            let index = G::FEATURES
                .iter()
                .position(|f| f.name == part)
                .ok_or_else(|| {
                    let names = feature_names::<G>();
                    let known: Vec<&str> = ["heuristic"].iter().chain(others).copied().collect();
                    EvaluatorError::Unknown {
                        name: name.to_string(),
                        game,
                        known: format!(
                            "{}, {}, sums such as {}+{}, or FILE.json",
                            known.join(", "),
                            names.join(", "),
                            names[0],
                            names[names.len().min(2) - 1]
                        ),
                    }
                })?;
            weights[index] = 1.0;
        }
        Ok(WeightedSum::with(weights))
    }

    fn from_json_file(path: &str) -> Result<WeightedSum<G>, EvaluatorError> {
        let failure = |reason: String| EvaluatorError::WeightsFile {
            path: path.to_string(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| failure(e.to_string()))?;
        let given: BTreeMap<String, f32> =
            serde_json::from_str(&text).map_err(|e| failure(e.to_string()))?;
        let mut sum = WeightedSum::defaults();
        for (name, weight) in given {
            if !crate::nn::usable_weight(weight) {
                return Err(failure(format!(
                    "the weight of '{name}' is not a finite number of magnitude at most {:e}",
                    crate::nn::MAX_WEIGHT
                )));
            }
            let index = G::FEATURES
                .iter()
                .position(|f| f.name == name)
                .ok_or_else(|| failure(format!("unknown feature '{name}'")))?;
            sum.weights[index] = weight;
        }
        Ok(sum)
    }

    /// Shares it as an evaluator.
    pub fn shared(self) -> SharedEvaluator<G> {
        Arc::new(self)
    }
}

impl<G: Game + Featured> Evaluator<G> for WeightedSum<G> {
    fn evaluate(&self, game: &G, perspective: Player) -> f32 {
        let evaluated = Evaluated {
            game,
            side: perspective,
            context: game.context(perspective),
        };
        // A slice of constant length, so the loop over the constant table unrolls.
        let weights = &self.weights[..G::FEATURES.len()];
        G::FEATURES
            .iter()
            .zip(weights)
            .filter(|(_, w)| **w != 0.0)
            .map(|(f, w)| w * (f.value)(&evaluated))
            .sum()
    }
}
