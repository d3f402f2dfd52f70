"""The settings of `evolve` come from the library's schema: every one is a keyword, bounded
as on the command line and in plans, and an error names it as Python writes it."""

import json

import pytest

import evoboard


def one_past(setting):
    """The values one past a setting's bounds (none for a bound that is its type's own)."""
    kind, low, high = setting["kind"], setting["min"], setting["max"]
    if kind == "Whole":
        past = [high + 1] if high < 2**64 - 1 else []
        return past + ([low - 1] if low > 0 else [])
    if kind == "Real":
        open_low = setting["accepts"].startswith("a number above")
        below = low if open_low else low - 1
        return [below] if high > 1e38 else [high + 1, below]
    if kind == "Wholes":
        return [[high + 1]]
    return []


def test_every_setting_is_a_keyword_of_evolve_documented_in_its_docstring():
    settings = evoboard.settings()
    assert len(settings) >= 40
    for setting in settings:
        assert f"    {setting['keyword']}: {setting['accepts']}; {setting['doc']}." in evoboard.evolve.__doc__


def test_each_bound_is_refused_one_past_it_naming_the_keyword(tmp_path):
    checked = 0
    for setting in evoboard.settings():
        for value in one_past(setting):
            out = tmp_path / f"{setting['name']}-{checked}"
            keyword = setting["keyword"]
            with pytest.raises(ValueError) as refused:
                evoboard.evolve("othello", out=out, **{keyword: value})
            assert f"{keyword}= takes {setting['accepts']}" in str(refused.value), str(refused.value)
            assert not out.exists()
            checked += 1
    assert checked >= 40


def test_renamed_keywords_and_run_json_names_set_the_same_setting(tmp_path):
    small = dict(generations=1, td_games=20, bench_games=0, selection_games=0, candidates=1)
    for name, keyword in [("td_play_depth", "td_depth"), ("td_lambda", "lambda_"), ("td_opening_plies", "td_openings")]:
        for spelled in (name, keyword):
            out = tmp_path / spelled
            evoboard.evolve("kalah", out=out, **small, **{spelled: 2 if "depth" in name or "plies" in name else 0.5})
            config = json.loads((out / "run.json").read_text())["config"]
            assert config[name] == (2 if "depth" in name or "plies" in name else 0.5)


def test_a_resumed_run_changes_only_what_a_resume_may(tmp_path):
    out = tmp_path / "run"
    evoboard.evolve("kalah", out=out, generations=1, td_games=20, bench_games=0, selection_games=0, candidates=1)
    with pytest.raises(ValueError, match=r"but td_games= would change; only generations=, keep_checkpoints=, snapshots= may"):
        evoboard.evolve(out=out, resume=True, td_games=30)
    result = evoboard.evolve(out=out, resume=True, generations=2, keep_checkpoints=None, td_games=20)
    assert result["generation"] == 2
    assert json.loads((out / "run.json").read_text())["config"]["keep_checkpoints"] is None
