"""Agents from spec strings and with Python evaluators."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import evoboard

CHAMPION = pathlib.Path(__file__).resolve().parents[2] / "populations" / "othello" / "champion.evo"


def test_spec_agents_choose_legal_moves():
    state = evoboard.Game("othello").start()
    for spec in ["random", "first", "heuristic:2", "wpc:1@0.1", "heuristic:30~0.05", f"champion:{CHAMPION}:2"]:
        assert evoboard.agent(spec, game="othello").choose(state) in state.legal_moves()


def test_a_fixed_depth_search_is_deterministic():
    state = evoboard.Game("kalah").start()
    moves = {evoboard.agent("heuristic:4", game="kalah").choose(state) for _ in range(3)}
    assert len(moves) == 1


def test_evaluate_gives_each_position_its_value_for_the_side_to_move():
    states = [evoboard.Game("othello").start()]
    states.append(states[0].child("d3"))
    champion = evoboard.agent(f"champion:{CHAMPION}", game="othello")
    values = champion.evaluate(states)
    assert values.dtype == np.float32 and values.shape == (2,)
    heuristic = evoboard.agent("heuristic:3", game="othello")
    assert heuristic.evaluate(states)[0] == 0.0  # the start is symmetric
    with pytest.raises(ValueError, match="no evaluator"):
        evoboard.agent("random", game="othello").evaluate(states)
    with pytest.raises(ValueError, match="does not play"):
        heuristic.evaluate([evoboard.Game("kalah").start()])


def test_bad_specs_raise_value_error():
    with pytest.raises(ValueError, match="bad agent spec"):
        evoboard.agent("heuristic:x", game="othello")
    with pytest.raises(ValueError):
        evoboard.agent("champion:/nonexistent.evo", game="othello")
    with pytest.raises(ValueError, match="game is over"):
        over = evoboard.Game("kalah").position("0,0,0,0,0,0 0,0,0,0,0,0 24 24 S")
        evoboard.agent("random", game="kalah").choose(over)


def test_a_python_evaluator_drives_the_search():
    calls = []

    def stores(board, to_move):
        calls.append(to_move)
        return float(board[6] - board[13])  # own store minus the opponent's

    agent = evoboard.search_agent("kalah", stores, depth=2)
    state = evoboard.Game("kalah").start()
    assert agent.choose(state) == evoboard.agent("minimax:2:stores", game="kalah").choose(state)
    assert calls and set(calls) <= {0, 1}
    result = evoboard.benchmark("kalah", agent, "random", games=4)
    assert result["player"] == "python:2" and result["games"] == 4


def test_a_python_evaluator_that_gives_up_the_gil_plays_on_every_thread():
    # The evaluator sleeps, giving up the GIL inside every call, while the library's
    # threads play several games at once: nothing may wait for the GIL while holding what
    # the thread that gave it up needs. A deadlock, which once happened here, holds the
    # GIL for good, so the games run in a child process that a timeout can stop.
    program = """
import time, evoboard
def slow_stores(board, to_move):
    time.sleep(0.0001)
    return float(board[6] - board[13])
agent = evoboard.search_agent("kalah", slow_stores, depth=1)
print(evoboard.benchmark("kalah", agent, "random", games=8)["games"])
"""
    child = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "RAYON_NUM_THREADS": "4"},
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "8"


def test_a_python_evaluator_that_raises_raises_from_choose():
    def broken(board, to_move):
        raise RuntimeError("broken evaluator")

    agent = evoboard.search_agent("othello", broken, depth=1)
    with pytest.raises(RuntimeError, match="broken evaluator"):
        agent.choose(evoboard.Game("othello").start())
