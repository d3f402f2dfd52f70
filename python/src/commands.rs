//! The commands that play or count many games, with the command line's settings and its
//! `--json` fields: `benchmark`, `panel`, `tournament`, `perft` and `solve`. Each releases
//! the GIL while the library works; games run on every core (rayon's global pool:
//! `RAYON_NUM_THREADS` sets its size) and results do not depend on the number of threads.

use std::sync::Arc;
use std::time::Instant;

use pyo3::prelude::*;

use evoboard::arena::panel::PanelRow;
use evoboard::arena::reports::{benchmark_report, panel_report, tournament_report};
use evoboard::arena::spec::UNTIMED_DEPTH;
use evoboard::arena::tournament::{TournamentConfig, round_robin};
use evoboard::arena::{
    Agent, AgentSpec, Forfeits, LEAGUE_GAMES, LEAGUE_OPPONENT, MAX_SERIES_GAMES, SeriesConfig,
    SeriesStats, league_agents, league_series, panel_opponents, play_panel, play_series,
};
use evoboard::champion::{ENDGAME_ORDERING_DEFAULT, endgame_ordering};
use evoboard::games::{Game, GameName, Notation};
use evoboard::search::endgame::{EndgameOptions, solve_endgame_within};
use evoboard::statistics::rate;

use crate::agent::{DynAgent, PyAgent, Typed, raise_evaluator_errors};
use crate::errors::{Sorted, bad, bad_input};
use crate::json::to_python;
use crate::position::{Member, Position};
use crate::state::{PyGame, check_perft_depth};
use crate::with_position;

/// `agent` as an agent of game `G` (it was built for the same game).
fn typed<G: Member>(agent: &dyn DynAgent) -> PyResult<&Arc<dyn Agent<G>>> {
    agent
        .as_any()
        .downcast_ref::<Typed<G>>()
        .map(|typed| &typed.agent)
        .ok_or_else(|| bad("an agent of another game"))
}

/// Checks a series' number of games as `--games` does: even, from 2 to the series limit.
fn even_games(games: usize) -> PyResult<usize> {
    if games == 0 || games > MAX_SERIES_GAMES || games % 2 == 1 {
        return Err(bad(format!(
            "{games} games: use an even number from 2 to {MAX_SERIES_GAMES} (each opening is played with both colours)"
        )));
    }
    Ok(games)
}

/// A series between two agents of `start`'s game: its statistics and the games forfeited.
fn series<G: Member>(
    start: &G,
    player: &dyn DynAgent,
    opponent: &dyn DynAgent,
    config: SeriesConfig,
) -> PyResult<(SeriesStats, usize)> {
    let records = play_series(
        start,
        typed(player)?.as_ref(),
        typed(opponent)?.as_ref(),
        config,
        &|| {},
    )
    .map_err(bad_input)?;
    let mut forfeits = Forfeits::default();
    forfeits.add(&records, "");
    Ok((SeriesStats::from_records(&records), forfeits.forfeited))
}

/// A series of games between `player` and `opponent` (spec strings or `Agent`s) with the
/// win rate, its 95% interval, margins, lengths and think times: the fields of
/// `evoboard benchmark --json`. `protocol="league"` is the Othello League measure (the
/// player's evaluator at 1 ply with 10% random moves against `wpc:1@0.1`, 1000 games from
/// the start position unless `games` says otherwise; it fixes `opponent` and `openings`).
#[pyfunction]
#[pyo3(signature = (game, player, opponent = None, *, games = None, openings = None, seed = 1, protocol = "standard"))]
#[allow(clippy::too_many_arguments)]
pub fn benchmark<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    player: &Bound<'py, PyAny>,
    opponent: Option<&Bound<'py, PyAny>>,
    games: Option<usize>,
    openings: Option<u32>,
    seed: u64,
    protocol: &str,
) -> PyResult<Bound<'py, PyAny>> {
    let game = PyGame::from_arg(game)?;
    let (player_agent, opponent_agent, player_name, opponent_name, config, league) = match protocol
    {
        "standard" => {
            let opponent = match opponent {
                Some(opponent) => opponent.clone(),
                None => "heuristic:2".into_pyobject(py)?.into_any(),
            };
            let config = SeriesConfig {
                games: even_games(games.unwrap_or(100))?,
                opening_plies: openings.unwrap_or(6),
                seed,
            };
            (
                PyAgent::from_arg(player, &game)?,
                PyAgent::from_arg(&opponent, &game)?,
                PyAgent::label(player)?,
                PyAgent::label(&opponent)?,
                config,
                false,
            )
        }
        "league" => {
            let refuse = |message: String| Err(bad(format!("protocol league: {message}")));
            if game.start.game_name() != GameName::Othello {
                return refuse("the Othello League measure is defined for othello only".into());
            }
            if opponent.is_some() {
                return refuse(format!(
                    "the opponent is fixed ({LEAGUE_OPPONENT}); drop opponent"
                ));
            }
            if openings.is_some() {
                return refuse("every game starts from the start position; drop openings".into());
            }
            let spec: AgentSpec = PyAgent::label(player)?.parse().map_err(bad_input)?;
            let (player_spec, opponent_spec) = league_agents(&spec).map_err(bad_input)?;
            let config = league_series(even_games(games.unwrap_or(LEAGUE_GAMES))?, seed);
            let build = |spec: &AgentSpec| -> PyResult<Arc<dyn DynAgent>> {
                PyAgent::from_arg(&spec.to_string().into_pyobject(py)?.into_any(), &game)
            };
            (
                build(&player_spec)?,
                build(&opponent_spec)?,
                player_spec.to_string(),
                opponent_spec.to_string(),
                config,
                true,
            )
        }
        other => return Err(bad(format!("protocol '{other}': standard or league"))),
    };
    let start = &game.start;
    let played = py.detach(|| {
        with_position!(start, |start| series(
            start,
            player_agent.as_ref(),
            opponent_agent.as_ref(),
            config
        ))
    });
    raise_evaluator_errors(&[&player_agent, &opponent_agent])?;
    let (stats, forfeited) = played?;
    let name = start.game_name().as_str();
    let report = benchmark_report(
        name,
        &player_name,
        &opponent_name,
        league,
        config,
        &stats,
        forfeited,
    );
    to_python(py, &report)
}

/// The panel's rows for `start`'s game.
fn panel_rows<G: Member>(
    start: &G,
    player: &dyn DynAgent,
    opponents: &[String],
    config: SeriesConfig,
) -> PyResult<Vec<PanelRow>> {
    let opponents = opponents
        .iter()
        .map(|text| {
            let spec: AgentSpec = text.parse().map_err(bad_input)?;
            Ok((text.clone(), spec.build(start).map_err(bad_input)?))
        })
        .collect::<PyResult<Vec<_>>>()?;
    play_panel(
        start,
        typed(player)?.as_ref(),
        &opponents,
        config,
        &|_| {},
        &|| {},
    )
    .map_err(bad_input)
}

/// The ENN paper's panel: the player against search players at `depth` that each use one
/// feature of the game's heuristic, then the whole heuristic, the WPC (Othello) and
/// `random`, one series each: the fields of `evoboard panel --json`.
#[pyfunction]
#[pyo3(signature = (game, player, *, depth = 2, games = 100, openings = 6, seed = 1))]
pub fn panel<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    player: &Bound<'py, PyAny>,
    depth: u32,
    games: usize,
    openings: u32,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let game = PyGame::from_arg(game)?;
    if !(1..=UNTIMED_DEPTH).contains(&depth) {
        return Err(bad(format!("depth {depth}: use 1 to {UNTIMED_DEPTH}")));
    }
    let agent = PyAgent::from_arg(player, &game)?;
    let config = SeriesConfig {
        games: even_games(games)?,
        opening_plies: openings,
        seed,
    };
    let start = &game.start;
    fn opponents<G: Member>(_: &G, depth: u32) -> Vec<String> {
        panel_opponents::<G>(depth)
    }
    let specs = with_position!(start, |start| opponents(start, depth));
    let rows = py.detach(|| {
        with_position!(start, |start| panel_rows(
            start,
            agent.as_ref(),
            &specs,
            config
        ))
    });
    raise_evaluator_errors(&[&agent])?;
    let rows = rows?;
    let name = start.game_name().as_str();
    to_python(
        py,
        &panel_report(name, &PyAgent::label(player)?, depth, config, &rows),
    )
}

/// A round robin: every pair plays `games` games, each agent first in half: the fields of
/// `evoboard tournament --json` (per agent Gifford et al.'s statistics and think times, the
/// pairwise matrix, and with `ratings` Elo ratings anchored at that agent, or at the first
/// with `ratings=True`).
#[pyfunction]
#[pyo3(signature = (game, agents, *, games = 100, openings = 6, seed = 1, timed_moves = None, ratings = None, bootstrap = 1000))]
#[allow(clippy::too_many_arguments)]
pub fn tournament<'py>(
    py: Python<'py>,
    game: &Bound<'py, PyAny>,
    agents: Vec<Bound<'py, PyAny>>,
    games: usize,
    openings: u32,
    seed: u64,
    timed_moves: Option<usize>,
    ratings: Option<&Bound<'py, PyAny>>,
    bootstrap: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let game = PyGame::from_arg(game)?;
    if agents.len() < 2 {
        return Err(bad("a tournament needs at least two agents"));
    }
    let names = agents
        .iter()
        .map(PyAgent::label)
        .collect::<PyResult<Vec<_>>>()?;
    let anchor = match ratings {
        None => None,
        Some(value) if value.extract::<bool>().is_ok() => {
            value.extract::<bool>()?.then(|| names[0].clone())
        }
        Some(value) => {
            let anchor: String = value.extract()?;
            if !names.contains(&anchor) {
                return Err(bad(format!(
                    "ratings {anchor}: the anchor must be one of the agents"
                )));
            }
            Some(anchor)
        }
    };
    evoboard::statistics::check_bootstrap(bootstrap).map_err(bad_input)?;
    let built = agents
        .iter()
        .map(|agent| PyAgent::from_arg(agent, &game))
        .collect::<PyResult<Vec<_>>>()?;
    let config = TournamentConfig {
        games_per_pair: even_games(games)?,
        opening_plies: openings,
        seed,
        timed_moves,
    };
    fn play<G: Member>(
        start: &G,
        names: &[String],
        agents: &[Arc<dyn DynAgent>],
        config: TournamentConfig,
        anchor: Option<&str>,
        bootstrap: usize,
    ) -> PyResult<serde_json::Value> {
        let agents = names
            .iter()
            .zip(agents)
            .map(|(name, agent)| {
                let agent = Arc::clone(typed::<G>(agent.as_ref())?);
                Ok((name.clone(), Box::new(Shared(agent)) as Box<dyn Agent<G>>))
            })
            .collect::<PyResult<Vec<_>>>()?;
        let result = round_robin(start, &agents, config, &|| {}).map_err(bad_input)?;
        let ratings = match anchor {
            Some(anchor) => Some(
                rate(names, &result.pair_games, anchor, bootstrap, config.seed)
                    .map_err(bad_input)?,
            ),
            None => None,
        };
        Ok(tournament_report(
            start.name(),
            &config,
            &result,
            ratings.as_ref(),
        ))
    }
    let start = &game.start;
    let report = py.detach(|| {
        with_position!(start, |start| play(
            start,
            &names,
            &built,
            config,
            anchor.as_deref(),
            bootstrap
        ))
    });
    raise_evaluator_errors(&built.iter().collect::<Vec<_>>())?;
    to_python(py, &report?)
}

/// An agent shared with a round robin, which owns its agents.
struct Shared<G: Game>(Arc<dyn Agent<G>>);

impl<G: Game> Agent<G> for Shared<G> {
    fn choose(
        &self,
        game: &G,
        history: evoboard::arena::History<'_, G>,
        rng: &mut evoboard::rng::GameRng,
    ) -> Result<G::Move, evoboard::arena::Forfeit> {
        self.0.choose(game, history, rng)
    }

    fn name(&self) -> String {
        self.0.name()
    }

    fn summary(&self) -> Option<String> {
        self.0.summary()
    }
}

/// Leaf count of the game tree `depth` plies deep from the start (or from `position`), as
/// `evoboard perft`.
#[pyfunction]
#[pyo3(signature = (game, depth, *, position = None))]
pub fn perft(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    depth: u32,
    position: Option<&str>,
) -> PyResult<u64> {
    let game = PyGame::from_arg(game)?;
    check_perft_depth(depth)?;
    let from = match position {
        Some(text) => game.start.parse_like(text).map_err(bad_input)?,
        None => game.start.clone(),
    };
    Ok(py.detach(|| {
        with_position!(&from, |game| evoboard::games::Perft::perft_fast(
            game, depth
        ))
    }))
}

/// Exact values, as `evoboard solve`. `game="kalah"` with `pits` and `seeds` (and
/// `empty_capture`, `table_mb`): the first player's final store margin under perfect
/// play and a best first move (searched on rayon's threads). `game="othello"` with `position` (at most 30 empty squares; `time_limit` in
/// seconds raises EvoboardError when it runs out; `order_by` as `--order-by`: "shipped",
/// the default, "heuristic" or a champion file's path, which orders the moves and so
/// changes only the nodes and time): the final disc difference for the side to move and a
/// best move.
/// Returns a dict.
#[pyfunction]
#[pyo3(signature = (game, *, pits = None, seeds = None, empty_capture = false, table_mb = 3600, position = None, time_limit = None, order_by = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve<'py>(
    py: Python<'py>,
    game: &str,
    pits: Option<u8>,
    seeds: Option<u8>,
    empty_capture: bool,
    table_mb: u64,
    position: Option<&str>,
    time_limit: Option<f64>,
    order_by: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    let clock = Instant::now();
    let report = match (crate::state::game_name(game)?, pits, seeds, position) {
        // Kalah takes no `order_by`, not even the default's name, as `solve --game kalah`.
        (GameName::Kalah, Some(pits), Some(seeds), None)
            if time_limit.is_none() && order_by.is_none() =>
        {
            let board = PyGame::new_kalah(pits, seeds, empty_capture)?;
            let Position::Kalah(start) = board.start else {
                unreachable!("a kalah game starts with a kalah position")
            };
            let table_bytes =
                usize::try_from(table_mb.saturating_mul(1_000_000)).unwrap_or(usize::MAX);
            let solution = py
                .detach(|| {
                    let threads = rayon::current_num_threads();
                    evoboard::search::solve::solve(&start, table_bytes, threads, |_| {})
                })
                .map_err(Sorted::into_py)?;
            serde_json::json!({
                "game": "kalah",
                "pits": pits,
                "seeds": seeds,
                "empty_capture": empty_capture,
                "first_player_margin": solution.first_player_margin,
                "best_pit": solution.best_pit,
                "nodes": solution.nodes,
                "table_entries": solution.table_entries,
                "seconds": clock.elapsed().as_secs_f64(),
            })
        }
        (GameName::Othello, None, None, Some(text)) if !empty_capture => {
            let start = evoboard::Othello::from_position_string(text).map_err(bad_input)?;
            let ordering = endgame_ordering(order_by.unwrap_or(ENDGAME_ORDERING_DEFAULT))
                .map_err(|error| bad(format!("order_by: {error}")))?;
            let deadline = match time_limit {
                Some(seconds) => Some(
                    clock
                        + evoboard::search::time_limit(seconds)
                            .map_err(|reason| bad(format!("time_limit: {reason}")))?,
                ),
                None => None,
            };
            let solution = py
                .detach(|| {
                    let options = EndgameOptions {
                        deadline,
                        ordering,
                        ..EndgameOptions::default()
                    };
                    solve_endgame_within(&start, &options, &mut |_| {})
                })
                .map_err(Sorted::into_py)?;
            serde_json::json!({
                "game": "othello",
                "position": text,
                "to_move": start.to_move().index(),
                "empties": start.empties().count_ones(),
                "margin": solution.margin,
                "best": solution.best.map(|mv| start.format_move(mv)),
                "nodes": solution.nodes,
                "seconds": clock.elapsed().as_secs_f64(),
            })
        }
        _ => {
            return Err(bad(
                "solve kalah with pits and seeds (and empty_capture, table_mb), or othello with position (and time_limit, order_by)",
            ));
        }
    };
    to_python(py, &report)
}
