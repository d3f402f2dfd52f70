//! Teachers: values a TD learner's positions learn instead of the learner's own value one
//! move later (see [`super::td::train`]). A stronger network teaches every position
//! (distillation); an endgame database teaches the late positions whose result perfect
//! play has already fixed, and leaves the rest to TD; a search over the learner's own
//! weights teaches each position what looking further ahead makes of it (bootstrapping
//! from search: Samuel 1959's checkers player; Veness, Silver, Uther & Blair 2009).

use std::any::Any;

use crate::eval::neural::{NetworkView, NeuralInput};
use crate::games::mancala::{Kalah, Mancala};
use crate::games::{Game, Notation};
use crate::nn::Network;
use crate::search::solve::LateValues;
use crate::search::{WIN_VALUE, search};

/// What a learner may be taught: a target for some positions.
pub trait Teacher<G>: Send + Sync {
    /// The value `position` should learn for its side to move (in [−1, 1], as a result is),
    /// or `None` where the teacher does not know it; `learner` is the learner's network as
    /// it plays the game.
    fn value_for_mover(&self, position: &G, learner: &Network) -> Option<f32>;

    /// Memory the teacher holds, in bytes, counted in the run's memory bound.
    fn bytes(&self) -> usize;
}

/// A network whose values a learner distils, at every position: its static value, or the
/// value its alpha-beta search of a few plies finds. A searching teacher passes on what the
/// network makes of a position as a player that looks ahead, so that a student's shallow
/// search sees some of what the teacher's deeper one does.
pub struct NetworkTeacher {
    network: Network,
    bytes: usize,
    depth: u32,
}

impl NetworkTeacher {
    /// `network` as a teacher searching `depth` plies (0: its static value), which holds
    /// `bytes` (its weights and index tables).
    pub fn new(network: Network, bytes: usize, depth: u32) -> NetworkTeacher {
        NetworkTeacher {
            network,
            bytes,
            depth,
        }
    }
}

impl<G: NeuralInput> Teacher<G> for NetworkTeacher {
    fn value_for_mover(&self, position: &G, _learner: &Network) -> Option<f32> {
        Some(match self.depth {
            0 => position.value_for_mover(&self.network),
            depth => searched_value(position, depth, &self.network),
        })
    }

    fn bytes(&self) -> usize {
        self.bytes
    }
}

/// Kalah positions with few seeds left on the board, valued exactly: they learn the result
/// of perfect play (+1, 0, −1) instead of what self-play makes of them.
pub struct ExactLateTeacher {
    values: LateValues,
}

impl ExactLateTeacher {
    /// A teacher of the exact results of positions like `start` with at most `max_seeds`
    /// seeds on the board (`evolve --teacher exact:SEEDS`), its database built now; only
    /// Kalah has an endgame database to teach from.
    pub fn for_game<G: Notation>(start: &G, max_seeds: u32) -> Result<Box<dyn Teacher<G>>, String> {
        let Some(kalah) = as_kalah(start) else {
            return Err(format!(
                "{} has no exact late values to teach: only Kalah has an endgame database",
                start.name()
            ));
        };
        let values = LateValues::build(kalah, max_seeds).map_err(|e| e.to_string())?;
        Ok(Box::new(ExactLateTeacher { values }))
    }
}

/// `game` as a Kalah position, if it is one: a teacher made for Kalah is handed positions
/// of the generic learner's game type.
fn as_kalah<G: Game>(game: &G) -> Option<&Mancala<Kalah>> {
    (game as &dyn Any).downcast_ref()
}

impl<G: Game> Teacher<G> for ExactLateTeacher {
    fn value_for_mover(&self, position: &G, _learner: &Network) -> Option<f32> {
        self.values
            .margin_for_mover(as_kalah(position)?)
            .map(|margin| margin.signum() as f32)
    }

    fn bytes(&self) -> usize {
        self.values.bytes()
    }
}

/// The learner's own alpha-beta search of `depth` plies: each position learns the value
/// the search finds for it (a finished game's exact result where the search sees the end).
/// At depth 1 that is TD(0)'s own target, the value of the best move; deeper, the target
/// looks further ahead than the one-ply play it comes from.
pub struct SearchTeacher {
    pub depth: u32,
}

impl<G: NeuralInput> Teacher<G> for SearchTeacher {
    fn value_for_mover(&self, position: &G, learner: &Network) -> Option<f32> {
        Some(searched_value(position, self.depth, learner))
    }

    fn bytes(&self) -> usize {
        0
    }
}

/// What `network`'s alpha-beta search of `depth` plies finds for `position`'s mover, as a
/// target: the result (±1) of a finished game it sees, or else its value squashed into
/// (−1, 1) as the network squashes its own.
fn searched_value<G: NeuralInput>(position: &G, depth: u32, network: &Network) -> f32 {
    let value = search(position, depth, &NetworkView(network)).value;
    if value.abs() >= WIN_VALUE / 2.0 {
        value.signum()
    } else {
        network.squash(value)
    }
}
