//! Distance to perfect play: how often an agent picks a move that keeps the exact value of
//! the position, and how much it gives away when it does not. Positions come from games
//! played by a stated sampler ([`Sampler`]); an exact solver ([`ExactMoves`]) values every
//! legal move of each; the sample and its values are cached on disk ([`cache`]), so measuring
//! more agents later costs only their moves.

pub mod cache;
mod oracle;
mod sampler;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::arena::Agent;
use crate::arena::stats::wilson_interval;
use crate::farm::map_jobs;
use crate::games::{Game, Notation};
use crate::rng::rng_for;
use crate::statistics::Summary;

pub use oracle::{ExactMoves, KalahOracle, OthelloOracle};
pub use sampler::{SampleError, Sampler};

/// A sampled position and the exact final margin (the mover's score minus the opponent's,
/// under perfect play from then on) after each of its legal moves.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuedPosition<G: Game> {
    pub game: G,
    pub values: Vec<(G::Move, i32)>,
}

impl<G: Game> ValuedPosition<G> {
    /// The value of the position: that of its best move.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// What `mv` loses against the best move (0 for an optimal move); `None` if `mv` is
    /// not one of the position's moves.
    pub fn loss(&self, mv: G::Move) -> Option<i32> {
        let value = self.values.iter().find(|&&(m, _)| m == mv)?.1;
        Some(self.best() - value)
    }
}

/// One agent's accuracy over a sample: the share of optimal moves (95% Wilson interval)
/// and the mean loss in final margin (95% t interval); and, when it is compared with a
/// reference agent on the same positions, the mean of its loss minus the reference's (a
/// paired 95% t interval: the positions' own difficulty cancels out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    pub player: String,
    pub positions: usize,
    pub optimal: usize,
    pub optimal_share: f64,
    pub optimal_ci_low: f64,
    pub optimal_ci_high: f64,
    pub mean_loss: f64,
    pub loss_ci_low: f64,
    pub loss_ci_high: f64,
    pub versus: Option<Versus>,
}

/// An agent's mean loss minus a reference agent's, position by position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    pub reference: String,
    pub mean_difference: f64,
    pub ci_low: f64,
    pub ci_high: f64,
}

/// The stream of the agents' own random choices, apart from the sampler's games.
const CHOICE_STREAM: u64 = 0xacc0;

/// What `agent` loses against the best move in each of `positions`: its move in the k-th
/// uses the generator of (`seed`, k), whatever other agents are measured and however the
/// work is spread over threads.
pub fn losses<G: Game>(
    agent: &dyn Agent<G>,
    positions: &[ValuedPosition<G>],
    seed: u64,
) -> Vec<i32> {
    map_jobs(positions.len(), |k| {
        let position = &positions[k];
        let mut rng = rng_for(seed, &[CHOICE_STREAM, k as u64]);
        let chosen = agent.choose(&position.game, &mut rng);
        position
            .loss(chosen)
            .expect("an agent chooses one of the position's legal moves")
    })
}

impl Accuracy {
    /// The accuracy of `player`, whose losses position by position are `losses`.
    pub fn of(player: &str, losses: &[i32]) -> Accuracy {
        let optimal = losses.iter().filter(|&&loss| loss == 0).count();
        let (optimal_ci_low, optimal_ci_high) = wilson_interval(optimal, losses.len());
        let values: Vec<f64> = losses.iter().map(|&l| f64::from(l)).collect();
        let (mean_loss, loss_ci_low, loss_ci_high) =
            Summary::of(&values).map_or((0.0, 0.0, 0.0), |s| (s.mean, s.ci_low, s.ci_high));
        Accuracy {
            player: player.to_string(),
            positions: losses.len(),
            optimal,
            optimal_share: if losses.is_empty() {
                0.0
            } else {
                optimal as f64 / losses.len() as f64
            },
            optimal_ci_low,
            optimal_ci_high,
            mean_loss,
            loss_ci_low,
            loss_ci_high,
            versus: None,
        }
    }

    /// This accuracy compared with `reference`'s on the same positions (`losses` and
    /// `reference_losses` position by position).
    pub fn versus(self, losses: &[i32], reference: &str, reference_losses: &[i32]) -> Accuracy {
        assert_eq!(losses.len(), reference_losses.len(), "the same positions");
        let differences: Vec<f64> = losses
            .iter()
            .zip(reference_losses)
            .map(|(&a, &b)| f64::from(a - b))
            .collect();
        let versus = Summary::of(&differences).map(|s| Versus {
            reference: reference.to_string(),
            mean_difference: s.mean,
            ci_low: s.ci_low,
            ci_high: s.ci_high,
        });
        Accuracy { versus, ..self }
    }
}

/// Where a sample's values came from.
#[derive(Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from the cache file.
    Cache,
    /// Sampled and solved now (and written to the cache, if there is one); `ignored` says
    /// why a cache file that was there could not be used.
    Solved { ignored: Option<String> },
}

/// The sample `sampler` draws from `start` with `sampler_agent`, every move valued by
/// `oracle`: read from `cache_dir` if it holds it, else drawn, solved (`progress` hears
/// (solved, wanted) after each position) and written there.
pub fn valued_sample<G: Notation>(
    start: &G,
    sampler: &Sampler,
    sampler_agent: &dyn Agent<G>,
    oracle: &mut dyn ExactMoves<G>,
    cache_dir: Option<&Path>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Vec<ValuedPosition<G>>, Source), AccuracyError> {
    let game = format!("{} from {}", start.name(), start.to_position_string());
    let key = sampler.describe(&game, &oracle.describe());
    let file = cache_dir.map(|dir| cache::path(dir, &key));
    let mut ignored = None;
    if let Some(file) = &file {
        match cache::load(file, &key) {
            Ok(Some(positions)) => return Ok((positions, Source::Cache)),
            Ok(None) => {}
            Err(reason) => ignored = Some(reason.to_string()),
        }
    }
    let games = sampler.draw(start, sampler_agent, |game| oracle.admits(game))?;
    let mut positions = Vec::with_capacity(games.len());
    for game in games {
        let values = oracle.move_values(&game);
        positions.push(ValuedPosition { game, values });
        progress(positions.len(), sampler.positions);
    }
    if let Some(file) = &file {
        cache::store(file, &key, &positions).map_err(|source| AccuracyError::WriteCache {
            path: file.clone(),
            source,
        })?;
    }
    Ok((positions, Source::Solved { ignored }))
}

/// Why a sample could not be valued.
#[derive(Debug, thiserror::Error)]
pub enum AccuracyError {
    #[error(transparent)]
    Sample(#[from] SampleError),
    #[error("cannot write the cache {path}: {source}")]
    WriteCache {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl AccuracyError {
    /// Whether the request was at fault (a sampler that cannot find the positions asked
    /// for) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, AccuracyError::Sample(_))
    }
}

#[cfg(test)]
mod tests;
