"""Duplicate games and position sets: positions(dedupe=True) against the
CLI's `wthor duplicates`, positions(unique=True) and split() against plain
Python (the 8 symmetries by hand, dicts and sets)."""

from __future__ import annotations

import json
import math
import os
import subprocess
from collections import defaultdict

import numpy as np
import pytest

import wthor
from test_positions import transform_bits


# The image of byte b of row r under symmetry k, by hand (test_positions).
ROWS = [[[transform_bits(k, b << (8 * r)) for b in range(256)] for r in range(8)] for k in range(8)]


def image(k: int, bits: int) -> int:
    table = ROWS[k]
    return sum(table[r][(bits >> (8 * r)) & 0xFF] for r in range(8))


def canonical(player: int, opponent: int) -> tuple:
    return min((image(k, player), image(k, opponent)) for k in range(8))


def keys(pos) -> set:
    return {
        canonical(int(p), int(o)) + (int(s),)
        for p, o, s in zip(pos["player"], pos["opponent"], pos["side"])
    }


def later_copies(testdata) -> set:
    """The later copies `wthor duplicates --format jsonl` lists."""
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it)")
    out = subprocess.run(
        [exe, "duplicates", "--db", str(testdata), "--format", "jsonl"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    return {copy["game"]["game"] for group in lines[1:] for copy in group["later"]}


def test_dedupe_leaves_out_the_later_copies(testdata):
    db = wthor.Database(testdata)
    later = later_copies(testdata)
    assert len(later) == 6
    later_numbers = {db[g].number for g in later}
    pos = db.positions(dedupe=True)
    everything = db.positions()
    assert set(pos["game"].tolist()) == set(everything["game"].tolist()) - later_numbers
    kept = ~np.isin(everything["game"], list(later_numbers))
    for column in pos:
        assert np.array_equal(pos[column], everything[column][kept])
    # With filters: the copies among the games they select.
    some = db.positions(dedupe=True, years=2003)
    assert set(some["game"].tolist()) == set(pos["game"].tolist()) - {g.number for g in db if g.year != 2003}


def test_unique_merges_the_orientations(testdata):
    db = wthor.Database(testdata)
    pos = db.positions(years=2001)
    u = db.positions(unique=True, years=2001)
    assert {k: v.dtype for k, v in u.items()} == {
        "player": np.uint64,
        "opponent": np.uint64,
        "side": np.uint8,
        "count": np.uint32,
        "final": np.float64,
        "theoretical": np.float64,
        "theoretical_count": np.uint32,
    }
    groups = defaultdict(list)
    for i in range(len(pos["player"])):
        key = canonical(int(pos["player"][i]), int(pos["opponent"][i])) + (int(pos["side"][i]),)
        groups[key].append(i)
    assert len(u["player"]) == len(groups)
    for j, (key, rows) in enumerate(sorted(groups.items(), key=lambda kv: kv[1][0])):
        # Canonical orientation: the smallest image.
        assert (int(u["player"][j]), int(u["opponent"][j]), int(u["side"][j])) == key
        assert u["count"][j] == len(rows)
        assert u["final"][j] == pytest.approx(np.mean(pos["final"][rows].astype(np.float64)))
        known = [int(pos["theoretical"][i]) for i in rows if pos["theoretical"][i] != wthor.NO_SCORE]
        assert u["theoretical_count"][j] == len(known)
        if known:
            assert u["theoretical"][j] == pytest.approx(sum(known) / len(known))
        else:
            assert math.isnan(u["theoretical"][j])
    # The start position, once per 8x8 game of 2001.
    assert u["count"][0] == 24
    with pytest.raises(ValueError, match="exclude each other"):
        db.positions(unique=True, augment=True)


@pytest.mark.parametrize("test,by", [(2002, "year"), ((2002, None), "year"), (0.25, "game")])
def test_split_is_disjoint_under_symmetry(testdata, test, by):
    db = wthor.Database(testdata)
    # The 8x8 games of 2001 and 2002 (plain Python is slow).
    train, test_set = db.split(test, by=by, seed=3, years=(None, 2002))
    assert len(train["game"]) > 0 and len(test_set["game"]) > 0
    assert keys(train).isdisjoint(keys(test_set))
    every = db.positions(years=(None, 2002))
    train_games = set(train["game"].tolist())
    test_games = set(test_set["game"].tolist())
    assert train_games.isdisjoint(test_games)
    # The train set is whole; the test set lost exactly the positions the
    # train set holds.
    in_train = np.isin(every["game"], list(train_games))
    assert len(train["game"]) == int(in_train.sum())
    train_keys = keys(train)
    if by == "year":
        test_rows = np.flatnonzero(np.isin(every["game"], [g.number for g in db.search(years=2002)]))
        kept = [i for i in test_rows if canonical(int(every["player"][i]), int(every["opponent"][i])) + (int(every["side"][i]),) not in train_keys]
        assert test_set["player"].tolist() == every["player"][kept].tolist()


def test_split_by_game_follows_the_seed(testdata):
    db = wthor.Database(testdata)
    a = db.split(0.2, by="game", seed=1)[1]
    b = db.split(0.2, by="game", seed=1)[1]
    c = db.split(0.2, by="game", seed=2)[1]
    assert np.array_equal(a["game"], b["game"])
    assert not np.array_equal(a["game"], c["game"])
    with pytest.raises(ValueError, match="by="):
        db.split(0.2, by="player")
    with pytest.raises(ValueError, match="share"):
        db.split(1.5, by="game")
    with pytest.raises(TypeError):
        db.split("2002", by="game")
