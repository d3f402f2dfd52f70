"""Shared helpers of the Python package's tests."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """Runs the command line `evoboard` (target/release/evoboard, built by `cargo build
    --release`; EVOBOARD_BIN overrides it) and returns its stdout."""
    binary = pathlib.Path(os.environ.get("EVOBOARD_BIN", ROOT / "target" / "release" / "evoboard"))
    if not binary.exists():
        pytest.fail(f"{binary} is missing: build it with `cargo build --release` (or set EVOBOARD_BIN)")

    def run(*args: str) -> str:
        return subprocess.run([str(binary), *args], check=True, capture_output=True, text=True, cwd=ROOT).stdout

    return run
