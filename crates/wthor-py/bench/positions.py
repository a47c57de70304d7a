"""Benchmark: every position of the WTHOR archive into NumPy arrays.

``wthor.Database(...).positions()`` (Rust, one pass, parallel) against the
baseline most machine-learning projects use: a plain-Python reader that
unpacks the records with ``struct`` and replays the moves square by square
(``tests/reference.py``, the same reader the tests check the package
against), collecting the same columns into NumPy arrays.

The baseline runs on a sample of the games (``--sample N`` games spread over
every file, default 3000) and is extrapolated to the whole archive by its
rate per position; the printout says so. The figures are wall-clock times on
a shared machine: compare runs made one after the other, and read the
on-CPU time beside them.

Usage: ``WTHOR_DATA=../shared/data python crates/wthor-py/bench/positions.py
[--sample N] [--repeat R]`` (or ``cargo xtask py-bench -- --sample N``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

import wthor

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import reference  # noqa: E402


def timed(f):
    wall, cpu = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def baseline(files, sample):
    """The plain-Python reader on `sample` games spread over `files`:
    (positions, seconds)."""
    parsed = [reference.read_game_file(p) for p in files]
    total_games = sum(len(f.records) for f in parsed)
    step = max(1, total_games // sample)
    chosen = [(f, rec) for f in parsed for rec in f.records][::step][:sample]

    def run():
        cols = {c: [] for c in ["player", "opponent", "side", "ply", "move", "final", "theoretical"]}
        for f, rec in chosen:
            for row in reference.positions(rec, f.depth):
                for c, v in zip(cols, row):
                    cols[c].append(v)
        return {
            "player": np.array(cols["player"], dtype=np.uint64),
            "opponent": np.array(cols["opponent"], dtype=np.uint64),
            **{c: np.array(cols[c]) for c in ["side", "ply", "move", "final", "theoretical"]},
        }

    # Reading and unpacking the files is part of the baseline's work: time it
    # on the whole set, scaled to the sample.
    _, read_wall, read_cpu = timed(lambda: [reference.read_game_file(p) for p in files])
    cols, wall, cpu = timed(run)
    n = len(cols["player"])
    share = len(chosen) / total_games
    return n, wall + read_wall * share, cpu + read_cpu * share


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=3000, help="games replayed by the Python baseline")
    parser.add_argument("--repeat", type=int, default=3, help="runs of the Rust path (the best is reported)")
    args = parser.parse_args()
    data = os.environ.get("WTHOR_DATA")
    if not data:
        print("bench: skipped: WTHOR_DATA is not set (the archive is $WTHOR_DATA/wthor)")
        return
    root = Path(data) / "wthor"
    db = wthor.Database(root)
    runs = []
    for _ in range(args.repeat):
        pos, wall, cpu = timed(db.positions)
        runs.append((wall, cpu))
    n = len(pos["player"])
    wall, cpu = min(runs)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} (shared with other work)")
    print(f"rust: {len(db)} games, {n} positions in {wall:.3f} s wall ({cpu:.3f} s CPU), best of {args.repeat}: "
          + ", ".join(f"{w:.3f}" for w, _ in runs))
    files = sorted(p for p in root.iterdir() if p.suffix.lower() == ".wtb")
    m, py_wall, py_cpu = baseline(files, args.sample)
    rate = m / py_wall
    extrapolated = n / rate
    extrapolated_cpu = py_cpu * n / m
    print(f"python: {m} positions of {args.sample} games in {py_wall:.2f} s wall ({py_cpu:.2f} s CPU, "
          f"{rate:,.0f} positions/s); extrapolated to the {n} positions: {extrapolated:.0f} s wall "
          f"({extrapolated_cpu:.0f} s CPU)")
    print(f"bench: py_positions_rust = {wall:.3f} s (wall; {cpu:.3f} s CPU)")
    print(f"bench: py_positions_python = {extrapolated:.1f} s (wall, extrapolated from {args.sample} games)")
    print(f"bench: py_positions_ratio = {extrapolated / wall:.0f} x (wall; CPU {extrapolated_cpu / cpu:.0f} x)")


if __name__ == "__main__":
    main()
