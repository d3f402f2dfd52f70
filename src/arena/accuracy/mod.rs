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

use crate::arena::stats::wilson_interval;
use crate::arena::{Agent, Forfeit, History};
use crate::farm::map_jobs;
use crate::games::{Game, Notation};
use crate::rng::rng_for;
use crate::statistics::Summary;

pub use oracle::{ExactMoves, KalahOracle, OthelloOracle};
pub use sampler::{SampleError, Sampled, Sampler};

/// Largest final margin a cached value may have: far above any game's, so that a crafted
/// value cannot overflow the losses.
pub const MAX_MARGIN: i32 = 10_000;

/// A sampled position, the moves from the sample's start that reached it, and the exact
/// final margin (the mover's score minus the opponent's, under perfect play from then on)
/// after each of its legal moves.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuedPosition<G: Game> {
    pub game: G,
    pub line: Vec<G::Move>,
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

    /// What the worst move loses: the price of a forfeit, as a lost game is a forfeit's.
    pub fn worst_loss(&self) -> i32 {
        self.best() - self.values.iter().map(|&(_, v)| v).min().unwrap_or(0)
    }
}

/// An agent's losses over a sample, position by position, and the positions where it
/// gave up instead of moving (an external engine that failed): each is counted as its
/// worst move, and reports say how many there were.
#[derive(Clone, Debug, PartialEq)]
pub struct Losses {
    pub per_position: Vec<i32>,
    pub forfeited: usize,
    /// The first forfeit, naming the position.
    pub first_forfeit: Option<String>,
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
    /// Positions where the agent gave up (each counted as its worst move).
    pub forfeited: usize,
    pub first_forfeit: Option<String>,
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

/// What `agent` loses against the best move in each of `positions`, drawn from `start`:
/// its move in the k-th uses the generator of (`seed`, k), whatever other agents are
/// measured and however the work is spread over threads.
pub fn losses<G: Notation>(
    agent: &dyn Agent<G>,
    start: &G,
    positions: &[ValuedPosition<G>],
    seed: u64,
) -> Losses {
    let answers: Vec<Result<i32, Forfeit>> = map_jobs(positions.len(), |k| {
        let position = &positions[k];
        let mut rng = rng_for(seed, &[CHOICE_STREAM, k as u64]);
        let history = History {
            start,
            moves: &position.line,
            spent: None,
        };
        let chosen = agent.choose(&position.game, history, &mut rng)?;
        Ok(position
            .loss(chosen)
            .expect("an agent chooses one of the position's legal moves"))
    });
    let mut losses = Losses {
        per_position: Vec::with_capacity(positions.len()),
        forfeited: 0,
        first_forfeit: None,
    };
    for (k, (answer, position)) in answers.into_iter().zip(positions).enumerate() {
        let loss = answer.unwrap_or_else(|forfeit| {
            losses.forfeited += 1;
            losses.first_forfeit.get_or_insert_with(|| {
                format!(
                    "position {} ({}): {}",
                    k + 1,
                    position.game.to_position_string(),
                    forfeit.reason
                )
            });
            position.worst_loss()
        });
        losses.per_position.push(loss);
    }
    losses
}

impl Accuracy {
    /// The accuracy of `player`, whose losses position by position are `losses`.
    pub fn of(player: &str, measured: &Losses) -> Accuracy {
        let losses = &measured.per_position;
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
            forfeited: measured.forfeited,
            first_forfeit: measured.first_forfeit.clone(),
            versus: None,
        }
    }

    /// The warning for people, if the agent gave up at any position.
    pub fn warning(&self) -> Option<String> {
        let first = self.first_forfeit.as_ref()?;
        Some(format!(
            "{} forfeited {} of {} positions (each counted as its worst move); the first, {first}",
            self.player, self.forfeited, self.positions
        ))
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
/// `oracle`: drawn, then its values read from `cache_dir` if that holds exactly this
/// sample (the same positions, reached by the same moves, every legal move valued once
/// within [`MAX_MARGIN`]), else solved (`progress` hears (solved, wanted) after each
/// position) and written there. `cache_dir` is checked before anything is solved.
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
    if let Some(dir) = cache_dir {
        std::fs::create_dir_all(dir).map_err(|source| AccuracyError::CacheDir {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    let file = cache_dir.map(|dir| cache::path(dir, &key));
    let drawn = sampler.draw(start, sampler_agent, |game| oracle.admits(game))?;
    let mut ignored = None;
    if let Some(file) = &file {
        match cache::load(file, &key, start, &drawn) {
            Ok(Some(positions)) => return Ok((positions, Source::Cache)),
            Ok(None) => {}
            Err(reason) => ignored = Some(reason.to_string()),
        }
    }
    let mut positions = Vec::with_capacity(drawn.len());
    for Sampled { game, line } in drawn {
        let values = oracle.move_values(&game);
        positions.push(ValuedPosition { game, line, values });
        progress(positions.len(), sampler.positions);
    }
    if let Some(file) = &file {
        cache::store(file, &key, start, &positions).map_err(|source| {
            AccuracyError::WriteCache {
                path: file.clone(),
                source,
            }
        })?;
    }
    Ok((positions, Source::Solved { ignored }))
}

/// Why a sample could not be valued.
#[derive(Debug, thiserror::Error)]
pub enum AccuracyError {
    #[error(transparent)]
    Sample(#[from] SampleError),
    #[error("the cache directory {path} cannot be used: {source}")]
    CacheDir {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write the cache {path}: {source}")]
    WriteCache {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
}

impl AccuracyError {
    /// Whether the request was at fault (a sampler that cannot find the positions asked
    /// for, a cache path that is not a directory) rather than the machine or an engine.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            AccuracyError::Sample(SampleError::TooFew { .. }) | AccuracyError::CacheDir { .. }
        )
    }
}

#[cfg(test)]
mod tests;
