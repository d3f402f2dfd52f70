"""benchmark, panel, tournament and solve: the command line's JSON fields."""

import json
import pathlib

import pytest

import evoboard

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_benchmark_equals_the_command_line_json(cli):
    ours = evoboard.benchmark("kalah", "heuristic:2", "random", games=20, seed=5)
    theirs = json.loads(cli("benchmark", "--game", "kalah", "--player", "heuristic:2", "--opponent", "random",
                            "--games", "20", "--seed", "5", "--json"))
    timing = ("player_time", "opponent_time")
    assert {k: v for k, v in ours.items() if k not in timing} == {k: v for k, v in theirs.items() if k not in timing}
    assert ours["player_time"]["moves"] == theirs["player_time"]["moves"]


def test_the_league_protocol_fixes_its_opponent():
    result = evoboard.benchmark("othello", "wpc:3", games=20, protocol="league")
    assert result["protocol"] == "league" and result["opponent"] == "wpc:1@0.1"
    assert 0 <= result["score"] <= 1
    with pytest.raises(ValueError, match="opponent is fixed"):
        evoboard.benchmark("othello", "wpc:1", "random", protocol="league")
    with pytest.raises(ValueError, match="even number"):
        evoboard.benchmark("kalah", "random", games=3)


def test_panel_equals_the_command_line_json(cli):
    ours = evoboard.panel("oware", "heuristic:1", games=4)
    theirs = json.loads(cli("panel", "--game", "oware", "--player", "heuristic:1", "--games", "4", "--json"))
    assert ours == theirs


def test_tournament_with_ratings():
    result = evoboard.tournament("kalah", ["random", "heuristic:1", "heuristic:3"], games=10, ratings=True,
                                 bootstrap=20)
    assert [a["agent"] for a in result["agents"]] == ["random", "heuristic:1", "heuristic:3"]
    assert result["matrix"][0][0] is None and result["ratings"]["anchor"] == "random"


def test_solve_kalah_and_an_othello_endgame():
    assert evoboard.solve("kalah", pits=3, seeds=3)["first_player_margin"] == evoboard.solve(
        "kalah", pits=3, seeds=3, table_mb=1)["first_player_margin"]
    # White to move with a2 and b1 empty; whoever plays, black's a1 corner decides.
    position = "X-" + "X" * 6 + "-" + "O" * 55 + " O"
    result = evoboard.solve("othello", position=position)
    assert result["empties"] == 2 and result["best"] in (None, "a2", "b1", "pass")
    with pytest.raises(ValueError):
        evoboard.solve("othello", pits=3)


def test_an_endgame_solve_is_the_same_whatever_orders_its_moves():
    # FFO #40 (20 empties, +38 by a2): the network's ordering searches run from 16 empties.
    lines = (ROOT / "tests" / "data" / "ffo-40-49.tsv").read_text().splitlines()
    ffo_40 = next(line.split("\t")[1] for line in lines if line.startswith("40\t"))
    by_network = evoboard.solve("othello", position=ffo_40)
    by_heuristic = evoboard.solve("othello", position=ffo_40, order_by="heuristic")
    assert (by_network["margin"], by_network["best"]) == (38, "a2")
    assert (by_heuristic["margin"], by_heuristic["best"]) == (38, "a2")
    assert by_network["nodes"] != by_heuristic["nodes"]
    with pytest.raises(ValueError, match="no/such.evo"):
        evoboard.solve("othello", position=ffo_40, order_by="no/such.evo")
    # Kalah takes no order_by, not even the Othello default's name.
    for order_by in ["heuristic", "shipped"]:
        with pytest.raises(ValueError):
            evoboard.solve("kalah", pits=3, seeds=3, order_by=order_by)
    assert evoboard.solve("kalah", pits=3, seeds=3)["first_player_margin"] is not None
