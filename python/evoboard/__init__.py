"""evoboard from Python: the five games, agents from the command line's spec strings,
benchmarks, panels, tournaments, exact solvers, perft and whole evolution runs.

>>> import evoboard
>>> state = evoboard.Game("othello").start()
>>> state.legal_moves()
['d3', 'c4', 'f5', 'e6']
>>> evoboard.agent("heuristic:2", game="othello").choose(state) in state.legal_moves()
True

Players are numbered 0 (first: black, South) and 1. Moves and positions are strings in
the game's notation (docs/games.md). Bad input raises ValueError; other failures
EvoboardError. Every call into Rust that searches or plays games releases the GIL.
See docs/python.md.
"""

from __future__ import annotations

import csv
import os
from typing import Any, Callable, Dict, List, Optional, Union

from ._evoboard import (
    Agent,
    EvoboardError,
    Game,
    State,
    __version__,
    _game_at,
    agent,
    benchmark,
    panel,
    perft,
    search_agent,
    settings,
    solve,
    tournament,
)
from ._evoboard import evolve as _evolve

__all__ = [
    "Agent",
    "EvoboardError",
    "Game",
    "State",
    "agent",
    "benchmark",
    "evolve",
    "panel",
    "perft",
    "read_stats",
    "search_agent",
    "settings",
    "solve",
    "tournament",
]


def _number(text: str) -> Union[int, float, str, None]:
    """A stats.csv cell as a number (None when empty; text if it is no number)."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def read_stats(run: Union[str, "os.PathLike[str]"]) -> List[Dict[str, Any]]:
    """The rows of a run's stats.csv as a list of dicts (one per generation, its columns
    as keys, numbers as numbers and empty cells as None): `pandas.DataFrame(rows)` reads it."""
    path = os.path.join(os.fspath(run), "stats.csv")
    with open(path, newline="") as file:
        return [{key: _number(value) for key, value in row.items()} for row in csv.DictReader(file)]


def evolve(
    game: Union[str, Game, None] = None,
    *,
    out: Union[str, "os.PathLike[str]"],
    preset: Optional[str] = None,
    generations: Optional[int] = None,
    resume: bool = False,
    on_generation: Optional[Callable[[Dict[str, Any]], None]] = None,
    plots: Union[str, "os.PathLike[str]", None] = None,
    **settings: Any,
) -> Dict[str, Any]:
    """Runs an evolution (the command line's `evolve`) into the run directory `out`.

    A new run takes `game`, `preset` (td, ctdl, cmaes, cocmaes, modern, paper; default td),
    `generations` and any setting of `evoboard evolve` by keyword, named like its flags
    with `_` for `-` or as in run.json (`population=8`, `bench_games=20`,
    `td_games=2000`, `network="ntuple:pairs"`, `sparring=["heuristic:1@0.1"]`,
    `no_league=True`, `td_depth=2`, and `lambda_` for `--lambda`); the settings are listed
    below and by `settings()`, with the same bounds as the command line's and plans'.
    `resume=True` continues the run in `out` from its last checkpoint (`generations`,
    `keep_checkpoints` and `snapshots` may change; other settings are the run's own).

    `on_generation(row)` is called after each generation with a dict named like the
    columns of stats.csv (generation, fitness_max/mean/min, bench_games, bench_wins,
    bench_draws, bench_losses, bench_win_rate, bench_ci_low, bench_ci_high, diversity,
    seconds) plus `generations`, the budget. An exception it raises stops the run after
    that generation, its checkpoint kept, and is raised here. Ctrl-C stops the run the
    same way (KeyboardInterrupt is raised once the generation under way has been saved):
    `evolve(out=..., resume=True)` continues it exactly.

    `plots` names a directory to draw the run's plots into at the end.

    Returns a dict: `run` (the directory), `champion` (the path of champion.evo, or None),
    `generation` (generations done), `gate_reached`, and `stats`, the rows of stats.csv
    (see `read_stats`).
    """
    report = _evolve(
        game,
        out=os.fspath(out),
        preset=preset,
        generations=generations,
        resume=resume,
        on_generation=on_generation,
        plots=None if plots is None else os.fspath(plots),
        **settings,
    )
    report["stats"] = read_stats(report["run"])
    return report


def _settings_table() -> str:
    """The settings `evolve` takes, one line each, from the library's schema."""
    lines = ["", "    Settings (keyword: what it takes; what it does):", ""]
    for setting in settings():
        lines.append(f"    {setting['keyword']}: {setting['accepts']}; {setting['doc']}.")
    return "\n".join(lines) + "\n"


evolve.__doc__ = (evolve.__doc__ or "") + _settings_table()
