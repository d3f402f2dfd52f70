"""evolve: a short Kalah run with a callback, and Ctrl-C keeping the last checkpoint."""

import os
import pathlib
import shutil
import signal

import pytest

import evoboard

SMALL = dict(td_games=300, bench_games=10, selection_games=10, candidates=2, seed=3)


def test_evolve_calls_back_each_generation_and_returns_the_stats(tmp_path):
    rows = []
    result = evoboard.evolve("kalah", out=tmp_path / "run", generations=2, on_generation=rows.append, **SMALL)
    assert [row["generation"] for row in rows] == [1, 2]
    assert all(row["bench_games"] == 10 and 0 <= row["bench_win_rate"] <= 1 for row in rows)
    assert os.path.exists(result["champion"]) and result["generation"] == 2
    assert [row["generation"] for row in result["stats"]] == [1, 2]
    assert result["stats"][0]["bench_wins"] == rows[0]["bench_wins"]
    agent = evoboard.agent(f"champion:{result['champion']}", game="kalah")
    assert agent.choose(evoboard.Game("kalah").start()) in [str(p) for p in range(1, 7)]


def test_unknown_settings_and_existing_runs_raise_value_error(tmp_path):
    with pytest.raises(ValueError, match="unknown setting 'popluation'"):
        evoboard.evolve("kalah", out=tmp_path / "a", popluation=3)
    evoboard.evolve("kalah", out=tmp_path / "b", generations=1, **SMALL)
    # Worded for Python: the keyword argument, not the command line's --resume.
    with pytest.raises(ValueError, match=r"already holds a run: continue it with resume=True, or choose another out"):
        evoboard.evolve("kalah", out=tmp_path / "b", generations=1, **SMALL)


def test_ctrl_c_stops_after_the_generation_and_resume_finishes_the_run(tmp_path):
    out = tmp_path / "run"

    def interrupt(row):
        if row["generation"] == 1:
            signal.raise_signal(signal.SIGINT)  # as Ctrl-C would

    # Python's own Ctrl-C handler, as in an interactive session: a process started in the
    # background (a CI runner's, say) inherits SIGINT ignored, and Python then installs none.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            evoboard.evolve("kalah", out=out, generations=3, on_generation=interrupt, **SMALL)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert [row["generation"] for row in evoboard.read_stats(out)] == [1]
    resumed = evoboard.evolve(out=out, resume=True)
    assert [row["generation"] for row in resumed["stats"]] == [1, 2, 3]
    fresh = evoboard.evolve("kalah", out=tmp_path / "fresh", generations=3, **SMALL)
    strip = lambda rows: [{k: v for k, v in row.items() if k != "seconds"} for row in rows]  # noqa: E731
    assert strip(resumed["stats"]) == strip(fresh["stats"])  # exact resume


def test_resuming_a_finished_run_without_checkpoints_raises_and_changes_nothing(tmp_path):
    shipped = pathlib.Path(__file__).resolve().parents[2] / "populations" / "kalah"
    out = tmp_path / "kalah"
    out.mkdir()
    for name in ["run.json", "stats.csv", "champion.evo"]:
        shutil.copy(shipped / name, out / name)
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    with pytest.raises(ValueError, match="no checkpoint"):
        evoboard.evolve(out=out, resume=True, generations=1)
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before
