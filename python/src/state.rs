//! `Game` and `State`: the rules of the five games from Python, moves and positions in the
//! project's notation.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use evoboard::eval::neural::NeuralInput;
use evoboard::games::joint::{is_joint, parse_part};
use evoboard::games::mancala::MAX_PITS;
use evoboard::games::{Describe, Game, GameName, Notation, Perft, Player};
use evoboard::session::legal_parts;

use crate::errors::{bad, bad_input};
use crate::position::{Member, Position};
use crate::with_position;

/// Reads a game's name (or alias), as `--game` does.
pub fn game_name(name: &str) -> PyResult<GameName> {
    name.parse().map_err(bad_input)
}

/// A player from Python: 0 (first: black, South) or 1 (second: white, North).
pub fn player(index: usize) -> PyResult<Player> {
    match index {
        0 => Ok(Player::First),
        1 => Ok(Player::Second),
        _ => Err(bad(format!("player {index}: use 0 (first) or 1 (second)"))),
    }
}

/// One of evoboard's games: `Game("othello")`, `Game("kalah", pits=6, seeds=4)`,
/// `Game("oware")` (or `"ayo"`), `Game("congklak")`, `Game("congkak")`.
///
/// Kalah alone takes options: `pits` (1 to 10), `seeds` per pit and `empty_capture`
/// (capture even when the opposite pit is empty). The other games have fixed sizes.
#[pyclass(module = "evoboard", name = "Game", frozen, eq, hash)]
#[derive(Clone, Debug)]
pub struct PyGame {
    pub start: Position,
    /// The start's position string, which names the game's size and rules.
    key: (String, String),
}

impl PartialEq for PyGame {
    fn eq(&self, other: &PyGame) -> bool {
        self.key == other.key
    }
}

impl std::hash::Hash for PyGame {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key.hash(state)
    }
}

impl PyGame {
    /// Kalah with `pits` pits of `seeds` seeds a side, checked.
    pub fn new_kalah(pits: u8, seeds: u8, empty_capture: bool) -> PyResult<PyGame> {
        let pits = usize::from(pits);
        if !(1..=MAX_PITS).contains(&pits) || seeds == 0 || 2 * pits * usize::from(seeds) > 255 {
            return Err(bad(format!(
                "kalah({pits},{seeds}): use 1 to {MAX_PITS} pits and at least one seed, at most 255 seeds on the board"
            )));
        }
        Ok(PyGame::of(Position::start(
            GameName::Kalah,
            (pits, seeds, empty_capture),
        )))
    }

    pub fn of(start: Position) -> PyGame {
        let key = (
            start.game_name().to_string(),
            with_position!(&start, |game| game.to_position_string()),
        );
        PyGame { start, key }
    }

    /// A game given by name (its default size) or as a `Game` object.
    pub fn from_arg(game: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        if let Ok(game) = game.cast::<PyGame>() {
            return Ok(game.get().clone());
        }
        let name: String = game.extract()?;
        Ok(PyGame::of(Position::start(
            game_name(&name)?,
            (6, 4, false),
        )))
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (name, *, pits = None, seeds = None, empty_capture = false))]
    fn new(
        name: &str,
        pits: Option<u8>,
        seeds: Option<u8>,
        empty_capture: bool,
    ) -> PyResult<PyGame> {
        let game = game_name(name)?;
        if game != GameName::Kalah && (pits.is_some() || seeds.is_some() || empty_capture) {
            return Err(bad(format!(
                "{game} has a fixed size: pits, seeds and empty_capture are for kalah"
            )));
        }
        match game {
            GameName::Kalah => {
                PyGame::new_kalah(pits.unwrap_or(6), seeds.unwrap_or(4), empty_capture)
            }
            other => Ok(PyGame::of(Position::start(other, (6, 4, false)))),
        }
    }

    /// The game's name (`othello`, `kalah`, `oware`, `congklak`, `congkak`).
    #[getter]
    fn name(&self) -> &'static str {
        self.start.game_name().as_str()
    }

    /// The initial position.
    fn start(&self) -> PyState {
        PyState::new(self.start.clone())
    }

    /// The position written `position` (a position string of this game, as `show`
    /// prints it); raises ValueError if it is malformed.
    fn position(&self, position: &str) -> PyResult<PyState> {
        Ok(PyState::new(
            self.start.parse_like(position).map_err(bad_input)?,
        ))
    }

    /// Every game's name, in the order the command line lists them.
    #[staticmethod]
    fn names() -> Vec<&'static str> {
        GameName::ALL.iter().map(|game| game.as_str()).collect()
    }

    fn __repr__(&self) -> String {
        format!("Game({:?}) starting at {:?}", self.key.0, self.key.1)
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let module = py.import("evoboard")?;
        (
            module.getattr("_game_at")?,
            (self.key.0.clone(), self.key.1.clone()),
        )
            .into_pyobject(py)
    }
}

/// Rebuilds a pickled `Game` from its name and start position.
#[pyfunction]
pub fn _game_at(name: &str, start: &str) -> PyResult<PyGame> {
    let base = Position::start(game_name(name)?, (6, 4, false));
    Ok(PyGame::of(base.parse_like(start).map_err(bad_input)?))
}

/// A position of a game, with the moves played since it was made (for `undo`).
///
/// Players are numbered 0 (first: black in Othello, South in the mancala games) and 1.
/// Moves and positions are strings in the game's notation (docs/games.md).
#[pyclass(module = "evoboard", name = "State")]
#[derive(Clone, Debug)]
pub struct PyState {
    pub position: Position,
    /// The positions before each move played on this object, for `undo`.
    previous: Vec<Position>,
}

impl PyState {
    pub fn new(position: Position) -> PyState {
        PyState {
            position,
            previous: Vec::new(),
        }
    }

    fn text(&self) -> String {
        with_position!(&self.position, |game| game.to_position_string())
    }

    /// The position after `mv`, checked.
    fn after(&self, mv: &str) -> PyResult<Position> {
        fn play<G: Member>(game: &G, text: &str) -> Result<Position, evoboard::games::GameError> {
            let mv = game.parse_move(text)?;
            Ok(game.play(mv)?.wrap())
        }
        with_position!(&self.position, |game| play(game, mv)).map_err(bad_input)
    }
}

/// The dense network input of `game` as `perspective` sees it.
pub fn dense_input<G: NeuralInput>(game: &G, perspective: Player) -> Vec<f32> {
    let mut input = vec![0.0; game.input_len()];
    game.encode(perspective, &mut input);
    input
}

#[pymethods]
impl PyState {
    /// The position written `position` in `game`'s notation (what `str(state.position)`
    /// gives); pickling goes through it.
    #[staticmethod]
    fn from_position(game: &Bound<'_, PyAny>, position: &str) -> PyResult<PyState> {
        let game = PyGame::from_arg(game)?;
        Ok(PyState::new(
            game.start.parse_like(position).map_err(bad_input)?,
        ))
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.position.game_name().as_str()
    }

    /// The position string (reads back with `Game.position` or `State.from_position`).
    #[getter]
    fn position(&self) -> String {
        self.text()
    }

    /// The player to move: 0 (first) or 1 (second). At Congkak's simultaneous opening
    /// both choose; the position then names one of them.
    #[getter]
    fn to_move(&self) -> usize {
        with_position!(&self.position, |game| game.to_move().index())
    }

    /// Points of the first and second player (discs, or seeds in store); final scores
    /// once the game is over.
    #[getter]
    fn score(&self) -> (i32, i32) {
        let [first, second] = with_position!(&self.position, |game| game.score());
        (first, second)
    }

    /// The legal moves in the game's notation; empty once the game is over. With
    /// `player` at a simultaneous decision (Congkak's opening): that player's own parts
    /// (holes), which `play_parts` combines.
    #[pyo3(signature = (player = None))]
    fn legal_moves(&self, player: Option<usize>) -> PyResult<Vec<String>> {
        let player = player.map(crate::state::player).transpose()?;
        Ok(with_position!(&self.position, |game| match player {
            Some(player) => legal_parts(game, player),
            None => {
                let mut moves = evoboard::MoveList::new();
                game.legal_moves(&mut moves);
                moves.iter().map(|&mv| game.format_move(mv)).collect()
            }
        }))
    }

    /// Whether both players choose the next move at once, unseen (Congkak's opening).
    fn is_simultaneous(&self) -> bool {
        with_position!(&self.position, |game| is_joint(game))
    }

    /// Plays `move` (in the game's notation) on this state; ValueError if it is
    /// malformed or illegal.
    #[pyo3(name = "play", text_signature = "($self, move)")]
    fn play(&mut self, r#move: &str) -> PyResult<()> {
        let next = self.after(r#move)?;
        self.previous
            .push(std::mem::replace(&mut self.position, next));
        Ok(())
    }

    /// At a simultaneous decision, plays the move made of each player's own part (as
    /// `legal_moves(player)` lists them).
    fn play_parts(&mut self, first: &str, second: &str) -> PyResult<()> {
        fn merge<G: Member>(game: &G, first: &str, second: &str) -> Result<String, PyErr> {
            let joint = game
                .joint()
                .ok_or_else(|| bad("not a simultaneous decision: use play"))?;
            let a = parse_part(game, first, Player::First).map_err(bad_input)?;
            let b = parse_part(game, second, Player::Second).map_err(bad_input)?;
            Ok(game.format_move(joint.merge(a, b)))
        }
        let mv = with_position!(&self.position, |game| merge(game, first, second))?;
        self.play(&mv)
    }

    /// A new state: this one after `move`.
    #[pyo3(text_signature = "($self, move)")]
    fn child(&self, r#move: &str) -> PyResult<PyState> {
        Ok(PyState::new(self.after(r#move)?))
    }

    /// Takes back the last move played on this object (ValueError if there is none: a
    /// state made by `start`, `child`, `copy` or unpickling starts with no history).
    fn undo(&mut self) -> PyResult<()> {
        self.position = self.previous.pop().ok_or_else(|| bad("no move to undo"))?;
        Ok(())
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        with_position!(&self.position, |game| game.outcome().is_some())
    }

    /// +1 if the first player won, -1 if the second did, 0 for a draw; None while the
    /// game goes on.
    fn outcome(&self) -> Option<i32> {
        with_position!(&self.position, |game| game.outcome())
            .map(|outcome| outcome.sign_for(Player::First))
    }

    /// The board as networks read it (float32, 1-D): the dense MLP input as `perspective`
    /// (default: the player to move) sees it, own material positive. Othello: 64 squares
    /// a1..h8, +1 own disc, -1 opponent's, 0 empty. Kalah and Oware: own pits, own store,
    /// opponent's pits and store, over the total seeds. Congklak adds passes; Congkak
    /// burnt holes and the round (docs/games.md).
    #[pyo3(signature = (perspective = None))]
    fn board<'py>(
        &self,
        py: Python<'py>,
        perspective: Option<usize>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let perspective = match perspective {
            Some(index) => player(index)?,
            None => with_position!(&self.position, |game| game.to_move()),
        };
        let input = with_position!(&self.position, |game| dense_input(game, perspective));
        Ok(PyArray1::from_vec(py, input))
    }

    /// Leaf count of the game tree `depth` plies deep (perft).
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        check_perft_depth(depth)?;
        let position = &self.position;
        Ok(py.detach(|| with_position!(position, |game| game.perft_fast(depth))))
    }

    /// A copy (without the history `undo` uses).
    fn copy(&self) -> PyState {
        PyState::new(self.position.clone())
    }

    fn __copy__(&self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyState>().is_ok_and(|other| {
            let other = other.borrow();
            other.position.game_name() == self.position.game_name() && other.text() == self.text()
        })
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.game(), self.text()).hash(&mut hasher);
        hasher.finish()
    }

    /// The board as the command line draws it.
    fn __str__(&self) -> String {
        with_position!(&self.position, |game| game.board_lines().join("\n"))
    }

    fn __repr__(&self) -> String {
        format!("State({:?}, {:?})", self.game(), self.text())
    }

    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let class = py.get_type::<PyState>();
        // A position string names the game's size and rules (Kalah's too).
        (class.getattr("from_position")?, (self.game(), self.text())).into_pyobject(py)
    }
}

/// Perft's depth bound, as the command line's.
pub fn check_perft_depth(depth: u32) -> PyResult<()> {
    if depth > 20 {
        return Err(bad(format!("perft depth {depth}: at most 20")));
    }
    Ok(())
}
