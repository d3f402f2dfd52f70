"""OpenSpiel bridge: an evoboard agent as a `pyspiel.Bot` for OpenSpiel's `othello`,
`mancala` (Kalah(6,4)) and `oware`, and the translation of OpenSpiel states and actions.

Action encodings (OpenSpiel's):
- `othello`: square row * 8 + column (a1 = 0, h8 = 63), pass = 64 — evoboard's action
  set (`evoboard._actions.actions`) exactly.
- `mancala`: the first player's pits 1..6 are actions 1..6, the second player's 8..13
  (7 and 0 are the stores); evoboard numbers each side's pits 1..6 from its own left, so
  the second player's pit p is action 7 + p.
- `oware`: actions 0..5 are the mover's houses from their own left, evoboard's pits 1..6.

`bot(game, "champion:populations/kalah/champion.evo")` plays any agent spec. The bot
replays the OpenSpiel state's history into an evoboard state before each move, so each
step also checks that OpenSpiel's moves are legal for evoboard. Needs the `openspiel`
extra (the `open_spiel` wheel).
"""

from __future__ import annotations

from typing import Dict, List

import pyspiel

from ._evoboard import Agent, State, agent

#: OpenSpiel's game names and the evoboard game each one is.
GAMES: Dict[str, str] = {"othello": "othello", "mancala": "kalah", "oware": "oware"}

_COLUMNS = "abcdefgh"


def _game(name: str) -> str:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"no evoboard game for OpenSpiel's {name!r}: {', '.join(GAMES)}") from None


def move_of(game: str, action: int, player: int) -> str:
    """The evoboard move (in its notation) of OpenSpiel `game`'s `action` by `player`."""
    name = _game(game)
    if name == "othello":
        return "pass" if action == 64 else f"{_COLUMNS[action % 8]}{action // 8 + 1}"
    if name == "kalah":
        return str(action if player == 0 else action - 7)
    return str(action + 1)


def action_of(game: str, move: str, player: int) -> int:
    """OpenSpiel `game`'s action for the evoboard `move` by `player`."""
    name = _game(game)
    if name == "othello":
        return 64 if move == "pass" else (int(move[1]) - 1) * 8 + _COLUMNS.index(move[0])
    if name == "kalah":
        return int(move) if player == 0 else int(move) + 7
    return int(move) - 1


def to_evoboard(state: "pyspiel.State") -> State:
    """The evoboard state of an OpenSpiel state, by replaying its moves from the start;
    raises ValueError if OpenSpiel played a move evoboard finds illegal."""
    name = state.get_game().get_type().short_name
    import evoboard

    ours = evoboard.Game(_game(name)).start()
    for action in state.history():
        ours.play(move_of(name, action, ours.to_move))
    return ours


def legal_actions(state: State, game: str) -> List[int]:
    """evoboard's legal moves at `state` as OpenSpiel `game`'s actions, sorted."""
    return sorted(action_of(game, move, state.to_move) for move in state.legal_moves())


class EvoboardBot(pyspiel.Bot):
    """A `pyspiel.Bot` that plays an evoboard agent (any spec string)."""

    def __init__(self, game: "pyspiel.Game", spec: str, seed: int = 1):
        pyspiel.Bot.__init__(self)
        self.name = game.get_type().short_name
        self.agent: Agent = agent(spec, game=_game(self.name), seed=seed)

    def step(self, state: "pyspiel.State") -> int:
        ours = to_evoboard(state)
        move = self.agent.choose(ours)
        return action_of(self.name, move, ours.to_move)

    def restart_at(self, state: "pyspiel.State") -> None:
        pass


def bot(game: "pyspiel.Game", spec: str, seed: int = 1) -> EvoboardBot:
    """An OpenSpiel bot for `game` (OpenSpiel's othello, mancala or oware) playing the
    evoboard agent `spec`."""
    return EvoboardBot(game, spec, seed)
