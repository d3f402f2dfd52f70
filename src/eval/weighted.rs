//! Evaluators that are a weighted sum of named features: one mechanism for every game's
//! heuristics, so that names, feature combinations and JSON weight files work alike.
//!
//! Features of one game often need the same costly facts (both sides' Othello move
//! sets). The game computes them once per evaluation as its [`Featured::Context`], which
//! every feature then reads; games whose features share nothing use `()`.

use std::fmt;
use std::marker::PhantomData;
use std::path::Path;
use std::sync::Arc;

use serde::de::{DeserializeSeed, Error as _, MapAccess, Visitor};

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

/// The largest weights file read: a few dozen names and numbers take a few hundred bytes.
pub const MAX_WEIGHTS_BYTES: u64 = 1 << 20;

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

    /// Reads a weights file: a regular file of at most [`MAX_WEIGHTS_BYTES`], read through
    /// the bounded reader. Errors say what is wrong and where, never quoting the file.
    fn from_json_file(path: &str) -> Result<WeightedSum<G>, EvaluatorError> {
        let failure = |reason: String| EvaluatorError::WeightsFile {
            path: path.to_string(),
            reason,
        };
        let bytes = crate::persist::read_limited(Path::new(path), MAX_WEIGHTS_BYTES)
            .map_err(|e| failure(e.to_string()))?;
        let mut reader = serde_json::Deserializer::from_slice(&bytes);
        let weights = WeightsSeed::<G>(PhantomData)
            .deserialize(&mut reader)
            .and_then(|weights| reader.end().map(|()| weights))
            .map_err(|e| failure(e.to_string()))?;
        Ok(WeightedSum::with(weights))
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

/// Reads a JSON object of weights by feature name into one weight per feature of `G`
/// (defaults for the names it leaves out). Its errors name the feature or the kind of
/// value at fault, never the file's text, and the JSON reader adds the line and column.
struct WeightsSeed<G>(PhantomData<fn() -> G>);

impl<'de, G: Featured> DeserializeSeed<'de> for WeightsSeed<G> {
    type Value = Vec<f32>;

    fn deserialize<D: serde::Deserializer<'de>>(self, reader: D) -> Result<Vec<f32>, D::Error> {
        reader.deserialize_any(self)
    }
}

impl<'de, G: Featured> Visitor<'de> for WeightsSeed<G> {
    type Value = Vec<f32>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object of weights by feature name")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<f32>, A::Error> {
        let mut weights: Vec<f32> = G::FEATURES.iter().map(|f| f.default_weight).collect();
        while let Some(name) = map.next_key::<String>()? {
            let Some(index) = G::FEATURES.iter().position(|f| f.name == name) else {
                return Err(A::Error::custom(format!(
                    "a name that is not a feature (the features are {})",
                    feature_names::<G>().join(", ")
                )));
            };
            let feature = G::FEATURES[index].name;
            let weight = map
                .next_value::<serde_json::Value>()?
                .as_f64()
                .map(|w| w as f32)
                .filter(|&w| crate::nn::usable_weight(w))
                .ok_or_else(|| {
                    A::Error::custom(format!(
                        "the weight of '{feature}' is not a finite number of magnitude at most {:e}",
                        crate::nn::MAX_WEIGHT
                    ))
                })?;
            weights[index] = weight;
        }
        Ok(weights)
    }

    // Anything but an object: say what it is, never what it holds.
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<Vec<f32>, E> {
        Err(not_an_object("a string"))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<Vec<f32>, E> {
        Err(not_an_object("true or false"))
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<Vec<f32>, E> {
        Err(not_an_object("a number"))
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<Vec<f32>, E> {
        Err(not_an_object("a number"))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<Vec<f32>, E> {
        Err(not_an_object("a number"))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Vec<f32>, E> {
        Err(not_an_object("null"))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, _: A) -> Result<Vec<f32>, A::Error> {
        Err(not_an_object("a list"))
    }
}

fn not_an_object<E: serde::de::Error>(found: &str) -> E {
    E::custom(format!(
        "the file holds {found}, not an object of weights by feature name"
    ))
}
