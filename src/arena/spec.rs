//! Agent spec strings, parsed in one place for every command:
//! `random`, `first`, `heuristic:DEPTH`, `wpc:DEPTH`, `minimax:DEPTH:EVAL`, each with an
//! optional `@EPS` suffix (play a random move with probability EPS, e.g. `wpc:1@0.1`).

use std::fmt;
use std::str::FromStr;

use crate::arena::agent::{Agent, EpsilonAgent, FirstMoveAgent, RandomAgent, SearchAgent};
use crate::eval::{EvaluatorError, NamedEvaluators};

/// Deepest search a spec may ask for; deeper full-width searches would not finish.
pub const MAX_DEPTH: u32 = 30;

/// Why a spec could not be read or built.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    #[error("bad agent spec '{spec}': {reason}")]
    Malformed { spec: String, reason: String },
    #[error("agent spec '{spec}'")]
    Evaluator {
        spec: String,
        #[source]
        source: EvaluatorError,
    },
}

/// What kind of agent a spec names.
#[derive(Clone, Debug, PartialEq)]
pub enum AgentKind {
    Random,
    First,
    /// Alpha-beta to `depth` with the evaluator named `evaluator` (game-specific names).
    Minimax {
        depth: u32,
        evaluator: String,
    },
}

/// A parsed agent spec; [`AgentSpec::build`] turns it into an agent for a game.
#[derive(Clone, Debug, PartialEq)]
pub struct AgentSpec {
    pub kind: AgentKind,
    pub epsilon: Option<f64>,
    text: String,
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<AgentSpec, SpecError> {
        let malformed = |reason: &str| SpecError::Malformed {
            spec: text.to_string(),
            reason: reason.to_string(),
        };
        let (body, epsilon) = match text.rsplit_once('@') {
            None => (text, None),
            Some((body, eps)) => {
                let eps: f64 = eps
                    .parse()
                    .map_err(|_| malformed("the @EPS suffix must be a number"))?;
                if !(0.0..=1.0).contains(&eps) {
                    return Err(malformed("the @EPS suffix must lie in [0, 1]"));
                }
                (body, Some(eps))
            }
        };
        let parts: Vec<&str> = body.splitn(3, ':').collect();
        let depth = |s: &str| -> Result<u32, SpecError> {
            match s.parse::<u32>() {
                Ok(d) if (1..=MAX_DEPTH).contains(&d) => Ok(d),
                _ => Err(malformed(&format!(
                    "the depth must be a whole number from 1 to {MAX_DEPTH}"
                ))),
            }
        };
        let minimax = |depth, evaluator: &str| AgentKind::Minimax {
            depth,
            evaluator: evaluator.to_string(),
        };
        let kind = match parts.as_slice() {
            ["random"] => AgentKind::Random,
            ["first"] => AgentKind::First,
            ["heuristic", d] => minimax(depth(d)?, "heuristic"),
            ["wpc", d] => minimax(depth(d)?, "wpc"),
            ["minimax", d, eval] if !eval.is_empty() => minimax(depth(d)?, eval),
            _ => {
                return Err(malformed(
                    "expected random, first, heuristic:DEPTH, wpc:DEPTH or minimax:DEPTH:EVAL, \
                     optionally followed by @EPS",
                ));
            }
        };
        Ok(AgentSpec {
            kind,
            epsilon,
            text: text.to_string(),
        })
    }
}

impl AgentSpec {
    /// Builds the agent for game `G`, resolving evaluator names for that game.
    pub fn build<G: NamedEvaluators>(&self) -> Result<Box<dyn Agent<G>>, SpecError> {
        let base: Box<dyn Agent<G>> = match &self.kind {
            AgentKind::Random => Box::new(RandomAgent),
            AgentKind::First => Box::new(FirstMoveAgent),
            AgentKind::Minimax { depth, evaluator } => Box::new(SearchAgent {
                depth: *depth,
                evaluator: G::evaluator(evaluator).map_err(|source| SpecError::Evaluator {
                    spec: self.text.clone(),
                    source,
                })?,
                label: self.text.split('@').next().unwrap_or_default().to_string(),
            }),
        };
        Ok(match self.epsilon {
            Some(epsilon) if epsilon > 0.0 => Box::new(EpsilonAgent {
                inner: base,
                epsilon,
            }),
            _ => base,
        })
    }
}
