"""Shared fixtures: the fixture database, the real one through WTHOR_DATA,
and the `wthor` command (WTHOR_CLI, set by `cargo xtask py-test`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="session")
def testdata() -> Path:
    return TESTDATA


@pytest.fixture(scope="session")
def real_dir() -> Path:
    """$WTHOR_DATA/wthor; skips with a message when WTHOR_DATA is unset,
    fails when it names a missing folder."""
    data = os.environ.get("WTHOR_DATA")
    if not data:
        pytest.skip("WTHOR_DATA is not set: skipping the tests on the real WTHOR files")
    path = Path(data) / "wthor"
    assert path.is_dir(), f"WTHOR_DATA={data} has no wthor/ folder"
    return path


@pytest.fixture(scope="session")
def cli():
    """Runs `wthor ARGS --json` and returns the parsed output."""
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it): skipping the CLI comparisons")
    assert Path(exe).is_file(), f"WTHOR_CLI={exe} does not exist"

    def run(*args: str):
        out = subprocess.run([exe, *args, "--json"], capture_output=True, text=True, check=False)
        assert out.returncode in (0, 1), out.stderr
        return json.loads(out.stdout)

    return run


@pytest.fixture(scope="session")
def cli_text():
    """Runs `wthor ARGS` and returns its standard output (the command must
    succeed)."""
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it): skipping the CLI comparisons")

    def run(*args: str) -> str:
        out = subprocess.run([exe, *args], capture_output=True, text=True, check=False, encoding="utf-8")
        assert out.returncode == 0, out.stderr
        return out.stdout

    return run
