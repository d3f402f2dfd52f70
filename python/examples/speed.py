"""Speed of the Python API against the library (docs/python.md, "Speed").

python python/examples/speed.py [CHAMPION]

Prints: the per-call overhead of a cheap call; positions evaluated per second through
`agent.evaluate` (the Othello heuristic and the shipped n-tuple champion, in batches);
`choose` calls per second at 1 ply; and whole Othello games per second between two 1-ply
heuristic players driven from Python (state.play + agent.choose each move) against the
same games played inside Rust (`benchmark` on one thread: RAYON_NUM_THREADS=1).
"""

import os
import random
import sys
import time

os.environ.setdefault("RAYON_NUM_THREADS", "1")  # before the library's thread pool starts

import evoboard  # noqa: E402

CHAMPION = sys.argv[1] if len(sys.argv) > 1 else "populations/othello/champion.evo"


def best_rate(work, count, repeats=5):
    """The best of `repeats` timings of `work()`, as `count` per second."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return count / best


def positions(count, seed=1):
    """`count` Othello positions from random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = evoboard.Game("othello").start()
        while not state.is_over() and len(found) < count:
            state.play(rng.choice(state.legal_moves()))
            found.append(state.copy())
    return found


def main():
    start = evoboard.Game("othello").start()
    calls = 100_000
    rate = best_rate(lambda: [start.to_move for _ in range(calls)], calls)
    print(f"per-call overhead (State.to_move): {1e9 / rate:.0f} ns")
    rate = best_rate(lambda: [start.legal_moves() for _ in range(calls)], calls)
    print(f"State.legal_moves(): {1e9 / rate:.0f} ns a call")

    batch = positions(100_000)
    for spec in ["heuristic:1", f"champion:{CHAMPION}:1"]:
        agent = evoboard.agent(spec, game="othello")
        rate = best_rate(lambda: agent.evaluate(batch), len(batch))
        print(f"agent.evaluate, {spec}: {rate / 1e6:.2f} M positions/s ({1e9 / rate:.0f} ns each)")

    agent = evoboard.agent("heuristic:1", game="othello")
    sample = batch[:20_000]
    rate = best_rate(lambda: [agent.choose(s) for s in sample if not s.is_over()], len(sample), 3)
    print(f"agent.choose, heuristic:1: {rate / 1e3:.1f} k calls/s")

    games = 200
    players = [evoboard.agent("heuristic:1@0.1", game="othello", seed=s) for s in (1, 2)]

    def python_games():
        for _ in range(games):
            state = evoboard.Game("othello").start()
            while not state.is_over():
                state.play(players[state.to_move].choose(state))

    rate = best_rate(python_games, games, 3)
    print(f"1-ply Othello games from Python: {rate:.0f} games/s")
    rate = best_rate(
        lambda: evoboard.benchmark("othello", "heuristic:1@0.1", "heuristic:1@0.1", games=games, openings=0),
        games,
        3,
    )
    print(f"the same games inside Rust (benchmark, 1 thread): {rate:.0f} games/s")


if __name__ == "__main__":
    main()
