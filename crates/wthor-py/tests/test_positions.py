"""Positions: checked row by row against the plain-Python replay, the
theoretical scores against the solver, and augment=True against the 8
symmetries applied by hand."""

from __future__ import annotations

import numpy as np
import pytest

import reference
import wthor

COLUMNS = ["player", "opponent", "side", "ply", "move", "final", "theoretical"]


def rows_of(pos, select=None):
    idx = range(len(pos["player"])) if select is None else np.flatnonzero(select)
    return [tuple(int(pos[c][i]) for c in COLUMNS) for i in idx]


def reference_rows(path, index=None):
    f = reference.read_game_file(path)
    records = f.records if index is None else [f.records[index]]
    return [r for rec in records for r in reference.positions(rec, f.depth)]


def test_columns_and_dtypes(testdata):
    pos = wthor.Database(testdata).positions()
    dtypes = {k: v.dtype for k, v in pos.items()}
    assert dtypes == {
        "player": np.uint64,
        "opponent": np.uint64,
        "side": np.uint8,
        "ply": np.uint8,
        "move": np.uint8,
        "final": np.int8,
        "theoretical": np.int8,
        "game": np.uint32,
    }
    assert len({len(v) for v in pos.values()}) == 1


def test_a_game_with_a_pass_move_by_move(testdata):
    db = wthor.Database(testdata)
    game = db["2001:22"]  # a side passes during this game (testdata/README.md)
    mine = rows_of(game.positions())
    theirs = reference_rows(testdata / "WTH_2001.wtb", 22)
    assert wthor.PASS in [r[4] for r in mine]
    assert len(mine) == len(theirs)
    for ply, (a, b) in enumerate(zip(mine, theirs)):
        assert a == b, f"ply {ply}"
    # The game column is the game's number, and the rows are those of the database.
    pos = db.positions()
    assert rows_of(pos, pos["game"] == game.number) == mine


def test_every_fixture_position_matches_the_plain_replay(testdata):
    pos = wthor.Database(testdata).positions()
    files = ["WTH_2001.wtb", "WTH_2002.wtb"] + [f"WTH_{y}.wtb" for y in range(2003, 2009)]
    expected = [r for f in files for r in reference_rows(testdata / f)]
    assert rows_of(pos) == expected


def test_real_games_match_the_plain_replay(real_dir):
    db = wthor.Database(real_dir)
    pos = db.positions()
    # Games are built in parallel in chunks of 2048: games on both sides of
    # the chunk boundaries too.
    numbers = [0, 2047, 2048, 2049, 4095, 4096, len(db) - 1, db["2025:100"].number]
    for n in numbers:
        game = db[n]
        expected = reference_rows(real_dir / game.file, game.index)
        assert rows_of(pos, pos["game"] == n) == expected, game.id
    # Rows come game after game, each from ply 0 upwards.
    game, ply = pos["game"].astype(np.int64), pos["ply"].astype(np.int64)
    new_game = np.concatenate([[True], np.diff(game) != 0])
    assert np.all(np.diff(game) >= 0)
    assert np.all(ply[new_game] == 0) and np.all(ply[1:][~new_game[1:]] == ply[:-1][~new_game[1:]] + 1)
    # The same rows for chosen games, in any order.
    some = db.positions(games=numbers[::-1])
    for n in numbers:
        assert rows_of(some, some["game"] == n) == rows_of(pos, pos["game"] == n)


def test_theoretical_scores_are_the_solvers_at_the_depth(testdata):
    db = wthor.Database(testdata)
    pos = db.positions()
    # Each file's depth: 16 empties in the small files, 12 in WTH_2003.wtb.
    depth = db.games_table()["depth"][pos["game"]].astype(np.int64)
    assert set(depth.tolist()) == {16, 12}
    empties = 64 - np.array([bin(int(p | o)).count("1") for p, o in zip(pos["player"], pos["opponent"])])
    at_depth = np.flatnonzero(empties == depth)
    # Every game of the small files, and the first 100 of the 2003 file.
    at_depth = at_depth[pos["game"][at_depth] < 66 + 100]
    assert len(at_depth) > 100
    for i in at_depth:
        obf = obf_of(int(pos["player"][i]), int(pos["opponent"][i]), int(pos["side"][i]))
        assert wthor.solve(obf, threads=1, tt_bits=16).score == pos["theoretical"][i]
    # Earlier positions have no theoretical score.
    assert np.all((pos["theoretical"] == wthor.NO_SCORE) == (empties > depth))


def transform(k: int, sq: int) -> int:
    """Symmetry k by hand: transpose if k & 4, then mirror columns if k & 1,
    then rows if k & 2."""
    row, col = divmod(sq, 8)
    if k & 4:
        row, col = col, row
    if k & 1:
        col = 7 - col
    if k & 2:
        row = 7 - row
    return row * 8 + col


def transform_bits(k: int, bits: int) -> int:
    return sum(1 << transform(k, s) for s in range(64) if bits >> s & 1)


def transform_columns(k: int, bits: np.ndarray) -> np.ndarray:
    """transform_bits over a column of bitboards at once (the same square
    map, one square at a time for every row)."""
    bits = bits.astype(np.uint64)
    out = np.zeros_like(bits)
    for s in range(64):
        out |= ((bits >> np.uint64(s)) & np.uint64(1)) << np.uint64(transform(k, s))
    return out


def test_augment_is_the_8_symmetries_by_hand(testdata):
    db = wthor.Database(testdata)
    plain = db.positions()
    aug = db.positions(augment=True)
    n = len(plain["player"])
    assert all(len(v) == 8 * n for v in aug.values())
    assert set(aug) == set(plain) | {"symmetry"}
    for k in range(8):
        block = slice(k * n, (k + 1) * n)
        assert np.all(aug["symmetry"][block] == k)
        for c in ["side", "ply", "final", "theoretical", "game"]:
            assert np.array_equal(aug[c][block], plain[c])
        # Every row, the squares mapped by hand a column at a time.
        for c in ["player", "opponent"]:
            assert np.array_equal(aug[c][block].astype(np.uint64), transform_columns(k, plain[c]))
        square_map = np.array([transform(k, s) for s in range(64)])
        moves = plain["move"].astype(np.int64)
        played = moves != wthor.PASS
        want = np.where(played, square_map[np.where(played, moves, 0)], moves)
        assert np.array_equal(aug["move"][block].astype(np.int64), want)
        # A few rows through the one-board-at-a-time map too.
        for i in range(0, n, 997):
            assert int(aug["player"][k * n + i]) == transform_bits(k, int(plain["player"][i]))


def obf_of(player: int, opponent: int, side: int) -> str:
    black, white = (player, opponent) if side == 0 else (opponent, player)
    squares = "".join("X" if black >> s & 1 else "O" if white >> s & 1 else "-" for s in range(64))
    return squares + " " + "XO"[side]


def test_board_symmetries_agree_with_augment(testdata):
    pos = wthor.Database(testdata).positions(augment=True)
    n = len(pos["player"]) // 8
    for i in range(0, n, 97):
        board = wthor.Board(obf_of(int(pos["player"][i]), int(pos["opponent"][i]), int(pos["side"][i])))
        for k, image in enumerate(board.symmetries()):
            assert (image.player, image.opponent) == (int(pos["player"][k * n + i]), int(pos["opponent"][k * n + i]))


def test_positions_of_selected_games(testdata):
    db = wthor.Database(testdata)
    pos = db.positions()
    table = db.games_table()
    chosen = np.flatnonzero(table["year"] == 2002)
    some = db.positions(games=chosen[::-1])
    # 10x10 games give no rows; the others' rows come in the order asked.
    expected = [n for n in chosen[::-1] if table["size"][n] == 8]
    assert list(dict.fromkeys(some["game"].tolist())) == expected
    for n in expected[:3]:
        assert rows_of(some, some["game"] == n) == rows_of(pos, pos["game"] == n)
    assert len(db.positions(games=[])["player"]) == 0
    with pytest.raises(IndexError, match="out of range"):
        db.positions(games=[len(db)])


def test_ten_by_ten_games_have_no_uint64_positions(testdata):
    db = wthor.Database(testdata)
    ten = db["WTH_2001.wtd:0"]
    with pytest.raises(ValueError, match="10x10"):
        ten.positions()
    assert ten.number not in set(db.positions()["game"].tolist())
    # Its moves replay on a 10x10 board all the same.
    board = wthor.Board.from_transcript(ten.transcript, size=10)
    assert board.size == 10 and sum(board.counts()) == 4 + len(ten.squares)
