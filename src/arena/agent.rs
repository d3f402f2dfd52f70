//! Agents: anything that picks a move. Agents hold no per-game state, so one instance can be
//! shared by every game of a parallel series; randomness comes from the caller's generator.

use rand::RngExt;

use crate::eval::SharedEvaluator;
use crate::games::{Game, MoveList};
use crate::rng::GameRng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::search::probcut::ProbCut;
use crate::search::{
    Limits, Pruning, SearchResult, move_values, move_values_within, search_pruned, search_within,
};
use std::sync::Arc;

/// Why an agent gave up a game instead of moving: what an external engine did wrong,
/// in words that name the engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[error("{reason}")]
pub struct Forfeit {
    pub reason: String,
}

/// The game so far: where it started and every move since, for agents that replay it to
/// another program (GTP engines know games, not positions), and how long each side has
/// thought, for agents on a game clock.
#[derive(Debug)]
pub struct History<'a, G: Game> {
    pub start: &'a G,
    pub moves: &'a [G::Move],
    /// Each side's thinking time so far in this game (indexed by [`crate::games::Player::index`]),
    /// if the caller measures it.
    pub spent: Option<[Duration; 2]>,
}

impl<'a, G: Game> History<'a, G> {
    /// The history of a game that starts at `game`, for callers that know no earlier moves
    /// (an agent that needs them, a GTP engine, then looks for a line from the start).
    pub fn at(game: &'a G) -> History<'a, G> {
        History {
            start: game,
            moves: &[],
            spent: None,
        }
    }
}

// Derived, these would ask `G: Copy`; two references copy whatever `G` is.
impl<G: Game> Clone for History<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for History<'_, G> {}

/// A player of game `G`.
pub trait Agent<G: Game>: Send + Sync {
    /// Picks a legal move at `game` (called only while it is not over), which `history`
    /// led to, or forfeits: an agent that can fail (an external engine that dies, answers
    /// nonsense or runs out of time) says so here, and every caller must count it, so a
    /// failure never turns into a move nobody chose.
    fn choose(
        &self,
        game: &G,
        history: History<'_, G>,
        rng: &mut GameRng,
    ) -> Result<G::Move, Forfeit>;

    /// A short description for tables (usually the spec it was built from).
    fn name(&self) -> String;

    /// What the agent did over every game it played, for the end of a series, if it keeps
    /// such an account (a clocked agent: how its moves were decided).
    fn summary(&self) -> Option<String> {
        None
    }
}

fn legal<G: Game>(game: &G) -> MoveList<G::Move> {
    let mut moves = MoveList::new();
    game.legal_moves(&mut moves);
    assert!(
        !moves.is_empty(),
        "an agent was asked to move in a finished game"
    );
    moves
}

/// Plays a uniformly random legal move.
pub struct RandomAgent;

impl<G: Game> Agent<G> for RandomAgent {
    fn choose(&self, game: &G, _: History<'_, G>, rng: &mut GameRng) -> Result<G::Move, Forfeit> {
        let moves = legal(game);
        Ok(moves[rng.random_range(0..moves.len())])
    }

    fn name(&self) -> String {
        "random".to_string()
    }
}

/// Plays the first legal move in generation order (Kalah's H0 in Gifford et al. 2008).
pub struct FirstMoveAgent;

impl<G: Game> Agent<G> for FirstMoveAgent {
    fn choose(&self, game: &G, _: History<'_, G>, _: &mut GameRng) -> Result<G::Move, Forfeit> {
        Ok(legal(game)[0])
    }

    fn name(&self) -> String {
        "first".to_string()
    }
}

/// Negamax with alpha-beta to a fixed depth over a shared evaluator, optionally searching
/// only the moves a second evaluator ranks best (forward pruning, the Congkak report's NMM),
/// and optionally within a time limit per move.
pub struct SearchAgent<G: Game> {
    pub depth: u32,
    pub evaluator: SharedEvaluator<G>,
    pub label: String,
    /// The ranker and how many of its best moves are searched at each node.
    pub pruning: Option<(SharedEvaluator<G>, usize)>,
    /// At most this long a move: iterative deepening up to `depth`, answering from the
    /// deepest search finished in time (then the play depends on the machine's speed).
    pub move_time: Option<Duration>,
    /// Selective search: Multi-ProbCut's calibrated cuts of the evaluator.
    pub probcut: Option<Arc<ProbCut>>,
}

/// The stop flag of searches that only a clock stops.
static NEVER_STOPPED: AtomicBool = AtomicBool::new(false);

impl<G: Game> SearchAgent<G> {
    /// A full-width search.
    pub fn new(depth: u32, evaluator: SharedEvaluator<G>, label: String) -> SearchAgent<G> {
        SearchAgent {
            depth,
            evaluator,
            label,
            pruning: None,
            move_time: None,
            probcut: None,
        }
    }

    /// The limits of one move's search starting now, if the agent has a time limit.
    fn limits_from_now(&self) -> Option<Limits<'static>> {
        self.move_time.map(|time| Limits {
            deadline: Instant::now() + time,
            stop: &NEVER_STOPPED,
        })
    }

    /// Every legal move of `game` with its value, best first, and the depth searched:
    /// the agent's depth, or within `limits` (or the agent's own time limit) the deepest
    /// values finished in time (depth 1 always is).
    pub fn move_values(&self, game: &G, limits: Option<Limits<'_>>) -> (Vec<(G::Move, f32)>, u32) {
        let evaluator = self.evaluator.as_ref();
        match limits.or_else(|| self.limits_from_now()) {
            Some(limits) => move_values_within(game, self.depth, evaluator, limits),
            None => (move_values(game, self.depth, evaluator), self.depth),
        }
    }

    /// Searches `game` as this agent does, returning the move, value and nodes.
    pub fn search(&self, game: &G) -> SearchResult<G::Move> {
        search_pruned(
            game,
            self.depth,
            self.evaluator.as_ref(),
            self.forward_pruning(),
            self.probcut.as_deref(),
        )
    }

    /// [`SearchAgent::search`] by iterative deepening, as deep as `limits` allow up to the
    /// agent's depth: the result and the depth reached.
    pub fn search_within(&self, game: &G, limits: Limits<'_>) -> (SearchResult<G::Move>, u32) {
        search_within(
            game,
            self.depth,
            self.evaluator.as_ref(),
            self.forward_pruning(),
            self.probcut.as_deref(),
            limits,
        )
    }

    fn forward_pruning(&self) -> Option<Pruning<'_, G>> {
        self.pruning.as_ref().map(|(ranker, width)| Pruning {
            ranker: ranker.as_ref(),
            width: *width,
        })
    }
}

impl<G: Game> Agent<G> for SearchAgent<G> {
    fn choose(&self, game: &G, _: History<'_, G>, _: &mut GameRng) -> Result<G::Move, Forfeit> {
        let result = match self.limits_from_now() {
            Some(limits) => self.search_within(game, limits).0,
            None => self.search(game),
        };
        Ok(result
            .best
            .expect("search returns a move while the game is not over"))
    }

    fn name(&self) -> String {
        self.label.clone()
    }
}

/// With probability `epsilon` plays a uniformly random legal move, otherwise asks `inner`:
/// the usual way to add variety to deterministic players.
pub struct EpsilonAgent<G: Game> {
    pub inner: Box<dyn Agent<G>>,
    pub epsilon: f64,
}

impl<G: Game> Agent<G> for EpsilonAgent<G> {
    fn choose(
        &self,
        game: &G,
        history: History<'_, G>,
        rng: &mut GameRng,
    ) -> Result<G::Move, Forfeit> {
        if rng.random_bool(self.epsilon) {
            RandomAgent.choose(game, history, rng)
        } else {
            self.inner.choose(game, history, rng)
        }
    }

    fn name(&self) -> String {
        format!("{}@{}", self.inner.name(), self.epsilon)
    }

    fn summary(&self) -> Option<String> {
        self.inner.summary()
    }
}
