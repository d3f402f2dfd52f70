"""The fixed action set of each game, shared by the PettingZoo, Gymnasium and OpenSpiel
modules: action i is the move written ACTIONS[i] in the game's notation."""

from __future__ import annotations

from typing import List, Union

import numpy as np

from ._evoboard import Game, State

_COLUMNS = "abcdefgh"


def actions(game: Union[str, Game]) -> List[str]:
    """The game's moves by action number. Othello: the 64 squares a1, b1, ..., h8 (row by
    row), then `pass` (64). Kalah and Oware: pits 1..m as actions 0..m-1. Congklak: holes
    1..7, then `pass` (7). Congkak: holes 1..7 (at the simultaneous opening, each player's
    own hole)."""
    game = game if isinstance(game, Game) else Game(game)
    if game.name == "othello":
        return [f"{_COLUMNS[i % 8]}{i // 8 + 1}" for i in range(64)] + ["pass"]
    pits = len(game.start().position.split(" ")[0].split(","))
    names = [str(pit) for pit in range(1, pits + 1)]
    return names + ["pass"] if game.name == "congklak" else names


def legal_mask(state: State, names: List[str], player: int) -> np.ndarray:
    """1 for each action `player` may take now (their own part at a simultaneous
    decision), else 0 (int8)."""
    index = {name: i for i, name in enumerate(names)}
    mask = np.zeros(len(names), dtype=np.int8)
    if state.is_over():
        return mask
    if state.is_simultaneous():
        legal = state.legal_moves(player)
    elif state.to_move == player:
        legal = state.legal_moves()
    else:
        legal = []
    for move in legal:
        mask[index[move]] = 1
    return mask
