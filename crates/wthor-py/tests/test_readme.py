"""The README's Python example runs as written on the real archive
(WTHOR_DATA), in a temporary directory: every call it shows works there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


def readme_example() -> str:
    """The first ``python`` block of the README's Python section."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1]
    m = re.search(r"```python\n(.*?)```", section, re.S)
    assert m, "README: no python block in the Python section"
    return m.group(1)


def test_the_readme_example_runs_on_the_real_archive(real_dir, tmp_path):
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it): the example reads a log of `wthor analyze`")
    code = readme_example()
    assert '"path/to/wthor"' in code
    code = code.replace('"path/to/wthor"', repr(str(real_dir)))
    # The log that db.accuracy reads, as the README's comment makes it
    # (a few games: the example only reads it).
    log = re.search(r"# (\S+): the log of `wthor (analyze [^`]*)`", code)
    assert log, "README: the example says how its analysis log is made"
    args = log.group(2).replace("path/to/wthor", str(real_dir)).split()
    subprocess.run([exe, *args, "--limit", "20", "--empties", "12"], cwd=tmp_path, check=True, capture_output=True)
    assert (tmp_path / log.group(1)).is_file()
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    # The kept ratings go to a cache directory of the test's own.
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, check=False, env=env)
    assert out.returncode == 0, out.stderr
    # The real files store the theoretical score at 24 empties: the
    # analysis from 20 says it did not reach it.
    assert "'status': 'not_reached', 'depth': 24" in out.stdout, out.stdout
    for written in ["board.svg", "tastet.ggf", "games.out"]:
        assert (tmp_path / written).stat().st_size > 0, written
