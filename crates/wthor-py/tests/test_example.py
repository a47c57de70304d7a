"""The README's example script runs and writes what it says."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import reference
from conftest import ROOT


def test_training_set_example(testdata, tmp_path):
    out = tmp_path / "set.npz"
    script = ROOT / "examples" / "training_set.py"
    subprocess.run([sys.executable, str(script), str(testdata), str(out), "--test-from", "2002"], check=True)
    d = np.load(out)
    n = len(d["policy"])
    assert d["x"].shape == (n, 2, 8, 8)
    # The first row is the start position, black to move: e4 d5 black, d4 e5 white.
    start = {(r, c) for r, c in zip(*np.nonzero(d["x"][0, 0]))}
    assert start == {(s // 8, s % 8) for s in range(64) if reference.START_BLACK >> s & 1}
    assert set(np.unique(d["year"])) == set(range(2001, 2009))
    assert np.array_equal(d["is_test"], d["year"] >= 2002)
