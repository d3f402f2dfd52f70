//! Agents from Python: built from the command line's spec strings, or searching with an
//! evaluator written in Python. [`DynAgent`] hides the game type; [`Typed`] is an agent
//! of one game with its static evaluator, if it has one.

use std::any::Any;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;

use evoboard::arena::spec::{AgentKind, LoadedChampion, UNTIMED_DEPTH};
use evoboard::arena::{Agent, AgentSpec, Forfeit, History, SearchAgent, SpecError};
use evoboard::eval::{Evaluator, SharedEvaluator};
use evoboard::games::Player;
use evoboard::games::joint::format_part;
use evoboard::rng::{GameRng, rng_for};

use crate::errors::{EvoboardError, bad, bad_input};
use crate::position::{Member, Position};
use crate::state::{PyGame, PyState, dense_input};
use crate::with_position;

/// An agent of some game, seen without its game type.
pub trait DynAgent: Send + Sync {
    /// The move (or, at a simultaneous decision with `player`, that player's own part)
    /// the agent chooses at `position`.
    fn choose(
        &self,
        position: &Position,
        player: Option<Player>,
        rng: &mut GameRng,
    ) -> PyResult<String>;
    /// The static evaluation of `position` for its side to move.
    fn evaluate(&self, position: &Position) -> PyResult<f32>;
    /// What a Python evaluator of the agent raised since this was last asked (its games
    /// were forfeited from then on): every call that used the agent raises it.
    fn take_raised(&self) -> Option<PyErr>;
    /// The agent as its own type, for the commands that play it ([`Typed`]).
    fn as_any(&self) -> &dyn Any;
}

/// An agent of game `G` (whose positions look like `start`: the same board and rules),
/// with the evaluator its search uses (none for `random`, `first` and external engines).
pub struct Typed<G: Member> {
    pub agent: Arc<dyn Agent<G>>,
    pub evaluator: Option<SharedEvaluator<G>>,
    pub start: G,
    /// Where a Python evaluator keeps what it raised (search agents over one).
    pub raised: Option<Raised>,
}

impl<G: Member> Typed<G> {
    /// `position` as a position of the agent's game, or why it is not one.
    fn own<'a>(&self, position: &'a Position) -> PyResult<&'a G> {
        let game = G::peek(position)
            .ok_or_else(|| bad(format!("the agent does not play {}", position.game_name())))?;
        if !self.start.same_variant(game) {
            return Err(bad(format!(
                "the state {:?} is not a position of the agent's game, whose start is {:?} (another board size or rules)",
                game.to_position_string(),
                self.start.to_position_string()
            )));
        }
        Ok(game)
    }
}

impl<G: Member> DynAgent for Typed<G> {
    fn choose(
        &self,
        position: &Position,
        player: Option<Player>,
        rng: &mut GameRng,
    ) -> PyResult<String> {
        let game = self.own(position)?;
        if game.outcome().is_some() {
            return Err(bad("the game is over: no move to choose"));
        }
        let mut pick = |view: &G| {
            self.agent
                .choose(view, History::at(view), rng)
                .map_err(|forfeit| EvoboardError::new_err(forfeit.reason))
        };
        match (game.joint(), player) {
            (Some(joint), Some(player)) => {
                let mv = pick(&joint.seen_by(player))?;
                Ok(format_part(game, mv, player))
            }
            (Some(joint), None) => {
                let first = pick(&joint.seen_by(Player::First))?;
                let second = pick(&joint.seen_by(Player::Second))?;
                Ok(game.format_move(joint.merge(first, second)))
            }
            (None, _) => Ok(game.format_move(pick(game)?)),
        }
    }

    fn evaluate(&self, position: &Position) -> PyResult<f32> {
        let evaluator = self.evaluator.as_ref().ok_or_else(|| {
            bad(format!(
                "{} has no evaluator (random, first and engines do not evaluate)",
                self.agent.name()
            ))
        })?;
        let game = self.own(position)?;
        Ok(evaluator.evaluate(game, game.to_move()))
    }

    fn take_raised(&self) -> Option<PyErr> {
        self.raised.as_ref()?.take()
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The agent `spec` names for `start`'s game, with its evaluator; a champion file is read
/// once for both.
fn build_spec<G: Member>(start: &G, spec: &AgentSpec) -> Result<Arc<dyn DynAgent>, SpecError> {
    let loaded: Mutex<HashMap<PathBuf, LoadedChampion>> = Mutex::default();
    let load = |path: &Path| -> Result<LoadedChampion, SpecError> {
        let mut loaded = loaded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(champion) = loaded.get(path) {
            return Ok(champion.clone());
        }
        let champion = spec.load_champion(path, start)?;
        loaded.insert(path.to_path_buf(), champion.clone());
        Ok(champion)
    };
    let agent = Arc::from(spec.build_with(&load)?);
    let evaluator = match spec.kind {
        AgentKind::Engine { .. } => None,
        _ => spec
            .searcher_with::<G>(&load)?
            .map(|search| search.evaluator),
    };
    Ok(Arc::new(Typed {
        agent,
        evaluator,
        start: start.clone(),
        raised: None,
    }))
}

/// A player of a game: `evoboard.agent(spec, game=...)` or `evoboard.search_agent(...)`.
#[pyclass(module = "evoboard", name = "Agent", frozen)]
pub struct PyAgent {
    /// The spec it was built from (or the search agent's label).
    pub spec: String,
    pub game: PyGame,
    pub inner: Arc<dyn DynAgent>,
    /// The agent's random choices (`random`, `@EPS`), seeded.
    rng: Mutex<GameRng>,
}

thread_local! {
    /// The agents choosing a move on this thread (by address): a Python evaluator that
    /// asks its own agent for a move would wait for itself forever.
    static CHOOSING: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An agent's place in [`CHOOSING`], left when dropped.
struct Choosing(usize);

impl Choosing {
    /// Enters `agent`'s choice on this thread, unless it is choosing here already.
    fn enter(agent: &Arc<dyn DynAgent>) -> PyResult<Choosing> {
        let key = Arc::as_ptr(agent).cast::<()>() as usize;
        CHOOSING.with_borrow_mut(|choosing| {
            if choosing.contains(&key) {
                return Err(pyo3::exceptions::PyRuntimeError::new_err(
                    "the agent is already choosing a move here: its evaluator called the agent it evaluates for (build another agent for that)",
                ));
            }
            choosing.push(key);
            Ok(Choosing(key))
        })
    }
}

impl Drop for Choosing {
    fn drop(&mut self) {
        CHOOSING.with_borrow_mut(|choosing| choosing.retain(|&k| k != self.0));
    }
}

/// Raises the first exception a Python evaluator of `agents` raised during the call that
/// used them, clearing every one (so that none surfaces in a later, unrelated call).
pub fn raise_evaluator_errors(agents: &[&Arc<dyn DynAgent>]) -> PyResult<()> {
    let mut raised = agents.iter().filter_map(|agent| agent.take_raised());
    match raised.next() {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

impl PyAgent {
    /// The agent built from `spec` for `game` (a spec string, or an `Agent` of that game).
    pub fn from_arg(spec: &Bound<'_, PyAny>, game: &PyGame) -> PyResult<Arc<dyn DynAgent>> {
        if let Ok(agent) = spec.cast::<PyAgent>() {
            let agent = agent.get();
            if agent.game != *game {
                return Err(bad(format!("agent {} plays another game", agent.spec)));
            }
            return Ok(Arc::clone(&agent.inner));
        }
        PyAgent::from_text(&spec.extract::<String>()?, game)
    }

    /// The agent the spec string `text` names for `game`.
    fn from_text(text: &str, game: &PyGame) -> PyResult<Arc<dyn DynAgent>> {
        let spec: AgentSpec = text.parse().map_err(bad_input)?;
        with_position!(&game.start, |start| build_spec(start, &spec)).map_err(bad_input)
    }

    /// Its name in reports: the spec string.
    pub fn label(spec: &Bound<'_, PyAny>) -> PyResult<String> {
        match spec.cast::<PyAgent>() {
            Ok(agent) => Ok(agent.get().spec.clone()),
            Err(_) => spec.extract(),
        }
    }
}

#[pymethods]
impl PyAgent {
    /// The spec the agent was built from.
    #[getter]
    fn spec(&self) -> &str {
        &self.spec
    }

    /// The game it plays.
    #[getter]
    fn game(&self) -> PyGame {
        self.game.clone()
    }

    /// The move the agent chooses at `state`, in the game's notation (the GIL is released
    /// while it searches). At Congkak's simultaneous opening: with `player`, that
    /// player's own hole; without, the whole joint move, each part chosen unseen.
    #[pyo3(signature = (state, player = None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: PyRef<'_, PyState>,
        player: Option<usize>,
    ) -> PyResult<String> {
        let player = player.map(crate::state::player).transpose()?;
        let position = state.position.clone();
        drop(state);
        let _choosing = Choosing::enter(&self.inner)?;
        let chosen = py.detach(|| {
            let mut rng = self.rng.lock().unwrap_or_else(|e| e.into_inner());
            self.inner.choose(&position, player, &mut rng)
        });
        raise_evaluator_errors(&[&self.inner])?;
        chosen
    }

    /// The static value of each state for its side to move, as the agent's search values
    /// a leaf (float32 array): a champion's network, a heuristic's weighted features. Only
    /// agents with an evaluator: `random`, `first` and engines raise ValueError. Static
    /// evaluations are short, so they run with the GIL held (no copy of the states).
    fn evaluate<'py>(
        &self,
        py: Python<'py>,
        states: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let mut values = Vec::with_capacity(states.len().unwrap_or(0));
        let mut value_of = |state: &Bound<'py, PyAny>| -> PyResult<()> {
            let state = state.cast::<PyState>()?.borrow();
            values.push(self.inner.evaluate(&state.position)?);
            Ok(())
        };
        match states.cast::<PyList>() {
            Ok(list) => list.iter().try_for_each(|state| value_of(&state))?,
            Err(_) => states.try_iter()?.try_for_each(|state| value_of(&state?))?,
        }
        raise_evaluator_errors(&[&self.inner])?;
        Ok(PyArray1::from_vec(py, values))
    }

    fn __repr__(&self) -> String {
        format!(
            "Agent({:?}, game={:?})",
            self.spec,
            self.game.start.game_name().as_str()
        )
    }
}

/// Builds the agent a spec string names: `random`, `first`, `heuristic:D`, `wpc:D`,
/// `minimax:D:EVAL`, `champion:PATH[:D]`, `normal`, `expert`, `impossible`,
/// `nmm:D:W:PATH`, `nboard:COMMAND`, `gtp:COMMAND`, with `~SECONDS` and `@EPS`
/// suffixes (docs/guide.md, "Agent specs"). `seed` seeds its random choices.
#[pyfunction]
#[pyo3(signature = (spec, game, *, seed = 1))]
pub fn agent(spec: &str, game: &Bound<'_, PyAny>, seed: u64) -> PyResult<PyAgent> {
    let game = PyGame::from_arg(game)?;
    let inner = PyAgent::from_text(spec, &game)?;
    Ok(PyAgent {
        spec: spec.to_string(),
        game,
        inner,
        rng: Mutex::new(rng_for(seed, &[])),
    })
}

/// The first exception a Python evaluator raised, kept until the call that used it
/// raises it.
#[derive(Clone, Default)]
pub struct Raised(Arc<Mutex<Option<PyErr>>>);

impl Raised {
    fn is_set(&self) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).is_some()
    }

    fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A leaf evaluator written in Python: `callable(board, to_move) -> float`, the board as
/// `State.board()` gives it for the side to move, the value for that side.
struct PyEvaluator {
    callable: Py<PyAny>,
    /// The first error the callable raised; the search then finishes on zeros, and its
    /// agent forfeits ([`PySearchAgent`]).
    error: Raised,
}

/// A search over a Python evaluator: once the evaluator has raised, the agent forfeits
/// every move (the search's values are no longer the evaluator's), until the call that
/// used it raises the exception.
struct PySearchAgent<G: Member> {
    search: SearchAgent<G>,
    error: Raised,
}

impl<G: Member> Agent<G> for PySearchAgent<G> {
    fn choose(
        &self,
        game: &G,
        history: History<'_, G>,
        rng: &mut GameRng,
    ) -> Result<G::Move, Forfeit> {
        let forfeit = || Forfeit {
            reason: format!(
                "the Python evaluator of {} raised an exception",
                self.search.label
            ),
        };
        if self.error.is_set() {
            return Err(forfeit());
        }
        let mv = self.search.choose(game, history, rng)?;
        if self.error.is_set() {
            return Err(forfeit());
        }
        Ok(mv)
    }

    fn name(&self) -> String {
        self.search.label.clone()
    }
}

impl<G: Member> Evaluator<G> for PyEvaluator {
    fn evaluate(&self, game: &G, perspective: Player) -> f32 {
        // The error's lock is never held while Python runs: the callable may give up the
        // GIL (NumPy does, and the interpreter hands it over every few milliseconds), and
        // a thread that then took the GIL would wait on the lock forever while this one
        // waits for the GIL.
        if self.error.is_set() {
            return 0.0;
        }
        Python::attach(|py| {
            let mover = game.to_move();
            let board = PyArray1::from_vec(py, dense_input(game, mover));
            let value = self
                .callable
                .call1(py, (board, mover.index()))
                .and_then(|value| value.extract::<f32>(py))
                .and_then(|value| {
                    if value.is_finite() {
                        Ok(value)
                    } else {
                        Err(bad(format!(
                            "the evaluator returned {value}: values must be finite"
                        )))
                    }
                });
            match value {
                Ok(value) if perspective == mover => value,
                Ok(value) => -value,
                Err(raised) => {
                    // The first error is kept; a later one is dropped after the lock is
                    // let go, as dropping it may run Python.
                    let later = {
                        let mut first = self.error.0.lock().unwrap_or_else(|e| e.into_inner());
                        match *first {
                            None => first.replace(raised),
                            Some(_) => Some(raised),
                        }
                    };
                    drop(later);
                    0.0
                }
            }
        })
    }
}

/// An alpha-beta search to `depth` whose leaves `evaluate(board, to_move)` values: `board`
/// is `State.board()` for the side to move (a float32 NumPy array), `to_move` 0 or 1, and
/// the float returned is the value for the side to move (higher is better; finished games
/// are valued exactly by the search). Each leaf takes the GIL and calls Python (about a
/// microsecond of overhead per leaf besides the callable's own time); an exception raised
/// by the callable ends the search's use of it and is raised by `choose`.
#[pyfunction]
#[pyo3(signature = (game, evaluate, *, depth = 2, seed = 1, name = None))]
pub fn search_agent(
    game: &Bound<'_, PyAny>,
    evaluate: Py<PyAny>,
    depth: u32,
    seed: u64,
    name: Option<String>,
) -> PyResult<PyAgent> {
    let game = PyGame::from_arg(game)?;
    if !(1..=UNTIMED_DEPTH).contains(&depth) {
        return Err(bad(format!("depth {depth}: use 1 to {UNTIMED_DEPTH}")));
    }
    let label = name.unwrap_or_else(|| format!("python:{depth}"));
    fn typed<G: Member>(
        start: &G,
        depth: u32,
        evaluator: PyEvaluator,
        label: &str,
    ) -> Arc<dyn DynAgent> {
        let error = evaluator.error.clone();
        let evaluator: SharedEvaluator<G> = Arc::new(evaluator);
        let search = SearchAgent::new(depth, Arc::clone(&evaluator), label.to_string());
        Arc::new(Typed {
            agent: Arc::new(PySearchAgent {
                search,
                error: error.clone(),
            }),
            evaluator: Some(evaluator),
            start: start.clone(),
            raised: Some(error),
        })
    }
    let evaluator = PyEvaluator {
        callable: evaluate,
        error: Raised::default(),
    };
    let inner = with_position!(&game.start, |start| typed(start, depth, evaluator, &label));
    Ok(PyAgent {
        spec: label,
        game,
        inner,
        rng: Mutex::new(rng_for(seed, &[])),
    })
}
