"""Turn the WTHOR archive into a training set for an Othello network.

Every position of the 8x8 games (optionally with its 8 symmetric images) as
NumPy arrays, ready for PyTorch, JAX or scikit-learn:

- ``x``: the board as two 8x8 planes, the side to move's discs then the
  opponent's (uint8, shape ``(n, 2, 8, 8)``, row-major from a1);
- ``policy``: the move played (0-63, ``8 * row + column``; 64 = pass);
- ``value``: the game's final disc difference from the side to move's view
  (-64..64), and ``theoretical`` the perfect-play one where the archive has it
  (``wthor.NO_SCORE`` = -128 elsewhere);
- ``game``, ``year``: where each position comes from, to split train and test
  sets by game or by year (never by position: positions of one game are not
  independent).

Usage::

    pip install ./crates/wthor-py
    python examples/training_set.py path/to/wthor out.npz [--augment] [--test-from 2024]

With no argument, it reads the fixture database ``testdata/`` and writes
``target/training_set.npz``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import wthor


def planes(bits: np.ndarray) -> np.ndarray:
    """uint64 bitboards (bit i = square i) as (n, 8, 8) uint8 planes."""
    as_bytes = bits.astype("<u8").view(np.uint8).reshape(-1, 8)  # byte r = row r
    return np.unpackbits(as_bytes, axis=1, bitorder="little").reshape(-1, 8, 8)


def main() -> None:
    root = Path(__file__).resolve().parents[1]
    parser = argparse.ArgumentParser(description="The WTHOR archive as a training set (.npz).")
    parser.add_argument("archive", nargs="?", default=root / "testdata", type=Path)
    parser.add_argument("out", nargs="?", default=root / "target" / "training_set.npz", type=Path)
    parser.add_argument("--augment", action="store_true", help="add the 8 symmetric images of each position")
    parser.add_argument("--test-from", type=int, default=None, help="games of this year and later form the test set")
    args = parser.parse_args()

    start = time.perf_counter()
    db = wthor.Database(args.archive)
    pos = db.positions(augment=args.augment)
    games = db.games_table()
    built = time.perf_counter() - start

    year = games["year"][pos["game"]]
    data = {
        "x": np.stack([planes(pos["player"]), planes(pos["opponent"])], axis=1),
        "policy": pos["move"],
        "value": pos["final"],
        "theoretical": pos["theoretical"],
        "game": pos["game"],
        "year": year,
    }
    if args.test_from is not None:
        test = year >= args.test_from
        data["is_test"] = test
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, **data)
    n = len(pos["move"])
    print(
        f"{len(db)} games, {n} positions{' (8 symmetries)' if args.augment else ''} "
        f"read in {built:.2f} s; wrote {args.out} "
        f"({args.out.stat().st_size / 1e6:.1f} MB: x {data['x'].shape}, passes {int(np.sum(pos['move'] == wthor.PASS))})"
    )


if __name__ == "__main__":
    main()
