"""Games and states: rules through the Python API, notation, errors, copies and pickling."""

import copy
import pickle
import random

import numpy as np
import pytest

import evoboard

GAMES = ["othello", "kalah", "oware", "congklak", "congkak"]


def random_game(name, seed, plies=None):
    """The states of a random game of `name` from the start (at most `plies` moves)."""
    rng = random.Random(seed)
    state = evoboard.Game(name).start()
    states = [state.copy()]
    while not state.is_over() and (plies is None or len(states) <= plies):
        state.play(rng.choice(state.legal_moves()))
        states.append(state.copy())
    return states


def test_othello_perft_equals_the_published_counts():
    # The Othello perft sequence from the start position (tests/othello_perft.rs).
    assert [evoboard.perft("othello", depth) for depth in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]
    assert evoboard.Game("othello").start().perft(3) == 56


def test_mancala_perft_equals_the_documented_counts():
    # docs/games.md: Oware's published Abapa counts, Kalah(6,4) and Congkak as recorded.
    assert [evoboard.perft("oware", d) for d in range(1, 6)] == [6, 36, 190, 1014, 5219]
    assert [evoboard.perft("kalah", d) for d in range(1, 5)] == [6, 35, 185, 942]
    assert [evoboard.perft("congkak", d) for d in range(1, 3)] == [49, 511]


def test_a_game_plays_to_its_end_with_scores_and_outcome():
    state = evoboard.Game("othello").start()
    assert state.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert (state.to_move, state.score, state.is_over(), state.outcome()) == (0, (2, 2), False, None)
    last = random_game("othello", 3)[-1]
    assert last.is_over() and last.legal_moves() == []
    first, second = last.score
    assert last.outcome() == (first > second) - (first < second)


def test_play_child_and_undo():
    state = evoboard.Game("kalah").start()
    child = state.child("3")  # the last seed lands in the store: South moves again
    assert child.to_move == 0 and state.to_move == 0 and state != child
    state.play("3")
    assert state == child and hash(state) == hash(child)
    state.undo()
    assert state == evoboard.Game("kalah").start()
    with pytest.raises(ValueError, match="no move to undo"):
        state.undo()


def test_bad_moves_and_positions_raise_value_error_with_the_library_message():
    state = evoboard.Game("othello").start()
    with pytest.raises(ValueError, match="illegal move 'a1'"):
        state.play("a1")
    with pytest.raises(ValueError, match="malformed move"):
        state.play("z9")
    with pytest.raises(ValueError, match="malformed position"):
        evoboard.Game("kalah").position("not a position")
    with pytest.raises(ValueError, match="unknown game"):
        evoboard.Game("chess")
    with pytest.raises(ValueError):
        evoboard.Game("othello", pits=4)
    assert state == evoboard.Game("othello").start()  # a refused move changes nothing


@pytest.mark.parametrize("name", GAMES)
def test_positions_pickle_copy_and_read_back(name):
    for state in random_game(name, 7):
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state
        assert evoboard.State.from_position(name, state.position) == state
        assert len({state, state.copy()}) == 1
    game = evoboard.Game(name)
    assert pickle.loads(pickle.dumps(game)) == game


def test_kalah_sizes_and_rules():
    small = evoboard.Game("kalah", pits=4, seeds=3, empty_capture=True)
    assert small.start().position == "3,3,3,3 3,3,3,3 0 0 S empty-capture"
    assert small.start().legal_moves() == ["1", "2", "3", "4"]
    assert pickle.loads(pickle.dumps(small.start().child("1"))) == small.start().child("1")
    with pytest.raises(ValueError):
        evoboard.Game("kalah", pits=11)


def test_board_is_the_network_input_for_a_perspective():
    state = evoboard.Game("othello").start()
    board = state.board()
    assert board.dtype == np.float32 and board.shape == (64,)
    # d4 is white's (index 27), e4 black's (28): black (to move) sees its own disc as +1.
    assert board[27] == -1 and board[28] == 1 and board.sum() == 0
    assert np.array_equal(state.board(1), -board)
    assert evoboard.Game("kalah").start().board().shape == (14,)


def test_str_is_the_command_line_board(cli):
    state = evoboard.Game("kalah").start().child("2")
    shown = cli("show", "--game", "kalah", "--position", state.position)
    assert str(state) in shown


def test_simultaneous_opening_of_congkak():
    state = evoboard.Game("congkak").start()
    assert state.is_simultaneous()
    assert state.legal_moves(0) == [str(hole) for hole in range(1, 8)]
    joint = state.child("3/5")
    state.play_parts("3", "5")
    assert state == joint and not evoboard.Game("othello").start().is_simultaneous()
