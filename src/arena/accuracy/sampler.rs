//! Where the measured positions come from: games between two copies of one agent (by
//! default `random`), stopped after a number of plies drawn uniformly from a range, keeping
//! the distinct positions that are not over, offer a real choice (two moves or more) and
//! that the exact solver takes.

use std::collections::HashSet;
use std::ops::RangeInclusive;

use rand::RngExt;

use crate::arena::{Agent, History};
use crate::games::Notation;
use crate::rng::rng_for;

/// How a sample is drawn: reproducible from these fields alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sampler {
    /// The agent spec both sides of the sampling games play (as text, for the cache key).
    pub player: String,
    /// Plies played before the position is taken, drawn uniformly from this range.
    pub plies: RangeInclusive<u32>,
    /// Positions wanted.
    pub positions: usize,
    pub seed: u64,
}

/// A position of the sample and the moves from the start that reached it (an agent that
/// knows games, not positions, such as a GTP engine, is given them).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled<G: Notation> {
    pub game: G,
    pub line: Vec<G::Move>,
}

/// Why a sample could not be drawn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SampleError {
    #[error("the sampler {player} gave up sampling game {game}: {reason}")]
    Forfeit {
        player: String,
        game: u64,
        reason: String,
    },
    #[error(
        "the sampler found only {found} of {wanted} positions in {games} games: draw them from more random plies or ask for fewer positions"
    )]
    TooFew {
        found: usize,
        wanted: usize,
        games: u64,
    },
}

/// Games the sampler plays per position wanted before it gives up.
const GAMES_PER_POSITION: u64 = 50;

/// The stream of the sampling games.
const SAMPLE_STREAM: u64 = 0x5a3e;

impl Sampler {
    /// One line naming everything the sample depends on (with `game`'s name and `solver`,
    /// what the solver admits): the cache's key.
    pub fn describe(&self, game: &str, solver: &str) -> String {
        format!(
            "{game}; positions {} after {}..={} plies of {} against itself; seed {}; {solver}",
            self.positions,
            self.plies.start(),
            self.plies.end(),
            self.player,
            self.seed
        )
    }

    /// Draws the sample: game g is played with the generator of (seed, g), and a
    /// position is kept if `admits` takes it.
    pub fn draw<G: Notation>(
        &self,
        start: &G,
        agent: &dyn Agent<G>,
        admits: impl Fn(&G) -> bool,
    ) -> Result<Vec<Sampled<G>>, SampleError> {
        let mut seen = HashSet::new();
        let mut kept = Vec::new();
        let games = GAMES_PER_POSITION * self.positions as u64;
        for g in 0..games {
            if kept.len() == self.positions {
                break;
            }
            let mut rng = rng_for(self.seed, &[SAMPLE_STREAM, g]);
            let plies = rng.random_range(self.plies.clone());
            let mut game = start.clone();
            let mut line = Vec::new();
            for _ in 0..plies {
                if game.outcome().is_some() {
                    break;
                }
                let history = History {
                    start,
                    moves: &line,
                    spent: None,
                };
                let mv = agent.choose(&game, history, &mut rng).map_err(|forfeit| {
                    SampleError::Forfeit {
                        player: self.player.clone(),
                        game: g + 1,
                        reason: forfeit.reason,
                    }
                })?;
                game.play_unchecked(mv);
                line.push(mv);
            }
            if game.outcome().is_none()
                && game.count_moves() >= 2
                && admits(&game)
                && seen.insert(game.to_position_string())
            {
                kept.push(Sampled { game, line });
            }
        }
        if kept.len() < self.positions {
            return Err(SampleError::TooFew {
                found: kept.len(),
                wanted: self.positions,
                games,
            });
        }
        Ok(kept)
    }
}
