"""PettingZoo AEC environments of the five games: `evoboard.pettingzoo.env("othello")`.

Agents are `player_0` (first: black, South) and `player_1`. Each observation is a dict:
`observation`, the board as `State.board(perspective)` gives it for that agent (float32),
and `action_mask` (int8) over the game's fixed action set (`evoboard._actions.actions`:
Othello 65 = 64 squares + pass, Kalah and Oware one per pit, Congklak 7 holes + pass,
Congkak 7 holes). Rewards are +1/-1 (0 for a draw) at the end, 0 before. Turns follow
the rules: Kalah's and Congklak's extra turns give the same agent the next step.

Congkak's opening is a simultaneous decision: both choose a hole unseen. Here the two
agents act in turn, `player_0` then `player_1`; neither observation shows the other's
choice (the board does not change until both have chosen), and the environment merges the
two holes into the joint move once both are in. Needs the `pettingzoo` extra.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Union

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ._actions import actions, legal_mask
from ._evoboard import Game


def env(game: Union[str, Game] = "othello", render_mode: Optional[str] = None) -> "EvoboardEnv":
    """The AEC environment of `game` (a name or a `Game`)."""
    return EvoboardEnv(game, render_mode=render_mode)


class EvoboardEnv(AECEnv):
    """One game of evoboard as a PettingZoo AEC environment (see the module's doc)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "evoboard_v0", "is_parallelizable": False}

    def __init__(self, game: Union[str, Game] = "othello", render_mode: Optional[str] = None):
        super().__init__()
        self.game = game if isinstance(game, Game) else Game(game)
        self.metadata = dict(self.metadata, name=f"evoboard_{self.game.name}_v0")
        self.names = actions(self.game)
        self.possible_agents = ["player_0", "player_1"]
        size = len(self.game.start().board())
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (len(self.names),), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(len(self.names)) for agent in self.possible_agents}
        self.render_mode = render_mode
        self.state = self.game.start()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        player = self.possible_agents.index(agent)
        return {
            "observation": self.state.board(player),
            "action_mask": legal_mask(self.state, self.names, player),
        }

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self.state = self.game.start()
        self.pending: Optional[str] = None
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self._chooser()

    def _chooser(self) -> str:
        """The agent who acts next: the side to move, or at a simultaneous decision
        player_0 and then player_1."""
        if self.state.is_simultaneous():
            return self.possible_agents[0 if self.pending is None else 1]
        return self.possible_agents[self.state.to_move]

    def step(self, action: Optional[int]) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        player = self.possible_agents.index(agent)
        if not legal_mask(self.state, self.names, player)[int(action)]:
            raise ValueError(f"illegal action {action} ({self.names[int(action)]}) for {agent}")
        move = self.names[int(action)]
        self._cumulative_rewards[agent] = 0
        if self.state.is_simultaneous():
            if self.pending is None:
                self.pending = move
            else:
                self.state.play_parts(self.pending, move)
                self.pending = None
        else:
            self.state.play(move)
        self.rewards = {a: 0 for a in self.agents}
        if self.state.is_over():
            outcome = self.state.outcome()
            self.rewards = {"player_0": outcome, "player_1": -outcome}
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self._chooser()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Optional[str]:
        if self.render_mode is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
