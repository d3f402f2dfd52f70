"""The quick start of docs/python.md: play a game, benchmark the shipped champion, evolve
a Kalah evaluator with a callback, and step a PettingZoo environment.

python python/examples/quickstart.py   (from the repository root)
"""

import tempfile

import evoboard

# Play a game: the heuristic against the shipped Othello champion, move by move.
game = evoboard.Game("othello")
state = game.start()
players = [evoboard.agent("heuristic:2", game=game), evoboard.agent("champion:populations/othello/champion.evo:2", game=game)]
while not state.is_over():
    state.play(players[state.to_move].choose(state))
print(state)
print("outcome for black:", state.outcome())

# Benchmark the champion: the same fields as `evoboard benchmark --json`.
result = evoboard.benchmark("othello", "champion:populations/othello/champion.evo:1", "heuristic:1", games=40)
print(f"champion vs heuristic:1: {result['win_rate']:.0%} ({result['ci_low']:.0%}-{result['ci_high']:.0%})")

# Evolve a Kalah evaluator for 3 generations, printing each one.
with tempfile.TemporaryDirectory() as tmp:
    run = evoboard.evolve(
        "kalah",
        out=f"{tmp}/run",
        generations=3,
        td_games=2000,
        bench_games=20,
        on_generation=lambda row: print(f"generation {row['generation']}: {row['bench_win_rate']:.0%} vs heuristic:2"),
    )
    print("champion:", run["champion"], "rows:", len(run["stats"]))

# A PettingZoo environment (needs ./python[pettingzoo]): random legal play.
try:
    import numpy as np

    from evoboard.pettingzoo import env as pettingzoo_env
except ImportError:
    print("pettingzoo not installed: pip install './python[pettingzoo]'")
else:
    env = pettingzoo_env("congkak")
    env.reset(seed=1)
    totals = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] = totals.get(agent, 0) + reward
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if termination or truncation else int(legal[0]))
    print("congkak rewards:", totals)
