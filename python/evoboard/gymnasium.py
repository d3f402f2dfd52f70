"""A single-agent Gymnasium environment: the learner plays one side of an evoboard game
against a fixed opponent, any agent spec (`heuristic:2`, `random`, `champion:PATH`).

`evoboard.gymnasium.EvoboardEnv("kalah", opponent="heuristic:1", player=0)`. The
observation is `State.board(player)` (float32), the action one of the game's fixed action
set (`evoboard._actions.actions`), `info["action_mask"]` the legal ones. An illegal
action ends the episode with reward -1; otherwise the reward is +1/-1/0 at the end of the
game and 0 before. The opponent moves (with the GIL released) until it is the learner's
turn again; at Congkak's simultaneous opening it chooses its own hole without seeing the
learner's. Needs the `gymnasium` extra.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces

from ._actions import actions, legal_mask
from ._evoboard import Game, agent


class EvoboardEnv(gymnasium.Env):
    """One side of a game against a fixed evoboard agent (see the module's doc)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: Union[str, Game] = "othello",
        opponent: str = "heuristic:1",
        player: int = 0,
        render_mode: Optional[str] = None,
    ):
        self.game = game if isinstance(game, Game) else Game(game)
        self.names = actions(self.game)
        self.opponent_spec = opponent
        self.player = player
        self.render_mode = render_mode
        self.opponent = agent(opponent, game=self.game)
        size = len(self.game.start().board())
        self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.action_space = spaces.Discrete(len(self.names))
        self.state = self.game.start()

    def _observation(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        return self.state.board(self.player), {"action_mask": legal_mask(self.state, self.names, self.player)}

    def _reward(self) -> float:
        outcome = self.state.outcome()
        return float(outcome if self.player == 0 else -outcome)

    def _opponent_moves(self) -> None:
        """The opponent plays until the learner is to choose or the game is over."""
        while not self.state.is_over() and not self.state.is_simultaneous() and self.state.to_move != self.player:
            self.state.play(self.opponent.choose(self.state))

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None):
        super().reset(seed=seed)
        if seed is not None:
            self.opponent = agent(self.opponent_spec, game=self.game, seed=seed)
        self.state = self.game.start()
        self._opponent_moves()
        return self._observation()

    def step(self, action: int):
        if not legal_mask(self.state, self.names, self.player)[int(action)]:
            observation, info = self._observation()
            return observation, -1.0, True, False, dict(info, illegal=True)
        move = self.names[int(action)]
        if self.state.is_simultaneous():
            theirs = self.opponent.choose(self.state, player=1 - self.player)
            parts = (move, theirs) if self.player == 0 else (theirs, move)
            self.state.play_parts(*parts)
        else:
            self.state.play(move)
        self._opponent_moves()
        observation, info = self._observation()
        if self.state.is_over():
            return observation, self._reward(), True, False, info
        return observation, 0.0, False, False, info

    def render(self) -> Optional[str]:
        return str(self.state) if self.render_mode == "ansi" else None
