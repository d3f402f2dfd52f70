"""A failure never becomes a number: evaluators that raise, agents asked about another board,
engines that cannot start, and bounds every front end shares."""

import pathlib

import pytest

import evoboard

KALAH = pathlib.Path(__file__).resolve().parents[2] / "populations" / "kalah" / "champion.evo"


def raising_once():
    """An evaluator that raises at its 50th call, then evaluates again."""
    calls = []

    def evaluate(board, to_move):
        calls.append(1)
        if len(calls) == 50:
            raise KeyError("the 50th leaf")
        return float(board[0])

    return evaluate


@pytest.mark.parametrize("command", ["benchmark", "tournament"])
def test_an_evaluator_that_raises_in_a_series_raises_from_that_call(command):
    agent = evoboard.search_agent("kalah", raising_once(), depth=2)
    with pytest.raises(KeyError, match="the 50th leaf"):
        if command == "benchmark":
            evoboard.benchmark("kalah", agent, "random", games=20)
        else:
            evoboard.tournament("kalah", [agent, "random"], games=20)
    # Nothing stale is left for a later, unrelated call.
    assert agent.choose(evoboard.Game("kalah").start()) in [str(p) for p in range(1, 7)]


def test_an_evaluator_that_raises_in_a_panel_raises_from_it():
    agent = evoboard.search_agent("kalah", raising_once(), depth=2)
    with pytest.raises(KeyError, match="the 50th leaf"):
        evoboard.panel("kalah", agent, depth=1, games=4)


def test_an_evaluator_that_asks_its_own_agent_raises_instead_of_waiting_forever():
    holder = {}

    def evaluate(board, to_move):
        holder["agent"].choose(evoboard.Game("kalah").start())
        return 0.0

    holder["agent"] = evoboard.search_agent("kalah", evaluate, depth=1)
    with pytest.raises(RuntimeError, match="already choosing a move"):
        holder["agent"].choose(evoboard.Game("kalah").start())


def test_an_agent_refuses_a_state_of_another_board():
    agent = evoboard.agent(f"champion:{KALAH}:1", game="kalah")
    small = evoboard.State.from_position("kalah", "3,3,3 3,3,3 0 0 S")
    with pytest.raises(ValueError, match="not a position of the agent's game"):
        agent.choose(small)
    with pytest.raises(ValueError, match="not a position of the agent's game"):
        agent.evaluate([small])
    assert agent.choose(evoboard.Game("kalah").start()) in [str(p) for p in range(1, 7)]


def test_an_engine_that_cannot_start_raises_before_any_game():
    for call in [
        lambda: evoboard.agent("gtp:/nonexistent/engine", game="othello"),
        lambda: evoboard.panel("othello", "nboard:/nonexistent/engine", depth=1, games=2),
        lambda: evoboard.benchmark("othello", "random", "gtp:/nonexistent/engine", games=2),
    ]:
        with pytest.raises(ValueError, match="could not be started"):
            call()


def test_bounds_of_the_command_line_hold_in_python(tmp_path):
    with pytest.raises(ValueError, match="td_games= takes a whole number from 0 to 10000000, not 4294967295"):
        evoboard.evolve("kalah", out=tmp_path / "run", td_games=2**32 - 1)
    with pytest.raises(ValueError, match="bootstrap samples: at most 100000"):
        evoboard.tournament("kalah", ["random", "first"], games=2, ratings=True, bootstrap=10**15)
    position = "X-" + "X" * 6 + "-" + "O" * 55 + " O"
    for seconds in [1e300, 1.5e19, float("inf"), 0.0, -1.0]:
        with pytest.raises(ValueError, match="time_limit"):
            evoboard.solve("othello", position=position, time_limit=seconds)
