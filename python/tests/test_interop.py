"""PettingZoo, Gymnasium and OpenSpiel: each checked by its own checker, or against its
own bots. A missing extra fails the test (install ./python[test,pettingzoo,gymnasium,openspiel])."""

import importlib

import numpy as np
import pytest

GAMES = ["othello", "kalah", "oware", "congklak", "congkak"]


def need(module):
    """The module, or a failure that names the extra to install (never a silent skip)."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        pytest.fail(f"{module} is not installed ({error}): pip install './python[test,pettingzoo,gymnasium,openspiel]'")


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game):
    api_test = need("pettingzoo.test").api_test
    environments = need("evoboard.pettingzoo")
    api_test(environments.env(game, render_mode="ansi"), num_cycles=300)


def test_pettingzoo_congkak_opening_hides_the_first_choice():
    environments = need("evoboard.pettingzoo")
    env = environments.env("congkak")
    env.reset()
    before = env.observe("player_1")["observation"].copy()
    assert env.agent_selection == "player_0"
    env.step(2)
    assert env.agent_selection == "player_1"
    assert np.array_equal(env.observe("player_1")["observation"], before)
    env.step(4)
    assert env.state.position != environments.Game("congkak").start().position


@pytest.mark.parametrize("game", ["othello", "kalah", "congkak"])
def test_gymnasium_check_env(game):
    check_env = need("gymnasium.utils.env_checker").check_env
    environments = need("evoboard.gymnasium")
    check_env(environments.EvoboardEnv(game, opponent="heuristic:1"), skip_render_check=True)


def test_gymnasium_episode_against_random():
    environments = need("evoboard.gymnasium")
    env = environments.EvoboardEnv("kalah", opponent="random", player=1)
    observation, info = env.reset(seed=4)
    done, reward = False, 0.0
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        observation, reward, done, _, info = env.step(action)
    assert reward in (-1.0, 0.0, 1.0) and env.state.is_over()


@pytest.mark.parametrize("name", ["othello", "mancala", "oware"])
def test_openspiel_games_against_openspiel_bots(name):
    pyspiel = need("pyspiel")
    uniform_random = need("open_spiel.python.bots.uniform_random")
    bridge = need("evoboard.openspiel")
    game = pyspiel.load_game(name)
    for seed in range(4):
        ours_first = seed % 2 == 0
        theirs = uniform_random.UniformRandomBot(1 if ours_first else 0, np.random.RandomState(seed))
        ours = bridge.bot(game, "heuristic:2", seed=seed)
        bots = [ours, theirs] if ours_first else [theirs, ours]
        state = game.new_initial_state()
        mirror = bridge.to_evoboard(state)
        while not state.is_terminal():
            # Both sides agree on what is legal, every ply.
            assert bridge.legal_actions(mirror, name) == sorted(state.legal_actions())
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            mirror.play(bridge.move_of(name, action, mirror.to_move))
            state.apply_action(action)
        assert mirror.is_over()
        returns = state.returns()
        assert mirror.outcome() == int(np.sign(returns[0] - returns[1]))
        assert returns[0 if ours_first else 1] >= 0  # heuristic:2 does not lose to random
