"""docs/python.md runs as written: every ```python block of the page, each on its own, from a
fresh working directory that sees the repository's shipped runs (`populations/NAME`, read
only) but keeps whatever a block writes, with `tempfile` pointed into the test's directory,
so that nothing lands in the repository. A block that needs an extra must say which
`pip install` gives it; a missing extra fails the test with that command."""

import os
import pathlib
import re
import tempfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "python.md"

#: The extras an environment module needs, by the module the block imports.
EXTRAS = {"evoboard.pettingzoo": "pettingzoo", "evoboard.gymnasium": "gymnasium", "evoboard.openspiel": "openspiel"}


def blocks():
    """(line, code) for each ```python block of the page, line counting from 1."""
    text = PAGE.read_text(encoding="utf-8")
    found = []
    for match in re.finditer(r"^```python\n(.*?)^```$", text, flags=re.DOTALL | re.MULTILINE):
        line = text.count("\n", 0, match.start(1)) + 1
        found.append((line, match.group(1)))
    return found


BLOCKS = blocks()


def test_the_page_has_python_blocks():
    assert len(BLOCKS) >= 4, f"{PAGE} has {len(BLOCKS)} python blocks"


@pytest.mark.parametrize("line,code", BLOCKS, ids=[f"python.md:{line}" for line, _ in BLOCKS])
def test_block_runs_as_written(line, code, tmp_path, monkeypatch):
    needed = [extra for module, extra in EXTRAS.items() if module in code]
    for extra in needed:
        assert f'pip install "./python[{extra}]"' in code, f"the block at line {line} uses the {extra} extra without saying how to install it"
    work = tmp_path / "work"
    (work / "populations").mkdir(parents=True)
    for shipped in (ROOT / "populations").iterdir():
        if not shipped.name.startswith("."):
            (work / "populations" / shipped.name).symlink_to(shipped, target_is_directory=shipped.is_dir())
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    before = sorted(os.listdir(ROOT / "populations")), sorted(os.listdir(ROOT / "plots"))
    try:
        exec(compile(code, f"{PAGE}:{line}", "exec"), {"__name__": "__main__"})
    except ModuleNotFoundError as error:
        if needed:
            pytest.fail(f"{error}: pip install './python[test,pettingzoo,gymnasium,openspiel]'")
        raise
    assert (sorted(os.listdir(ROOT / "populations")), sorted(os.listdir(ROOT / "plots"))) == before
