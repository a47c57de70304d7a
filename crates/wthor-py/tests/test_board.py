"""Board and solve against the plain-Python rules; errors."""

from __future__ import annotations

import itertools
import os

import pytest

import reference
import wthor

FFO_1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"


def name(sq: int) -> str:
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def test_start_and_transcript():
    b = wthor.Board()
    assert b.size == 8 and b.side_to_move == "black" and b.counts() == (2, 2)
    assert b.legal_moves() == ["d3", "c4", "f5", "e6"]
    assert b.black == reference.START_BLACK and b.white == reference.START_WHITE
    after = b.play("f5").play("d6").play(name(18))  # c3
    assert after == wthor.Board.from_transcript("f5d6c3")
    assert hash(after) == hash(wthor.Board.from_transcript("F5 D6 C3"))
    assert wthor.Board(after.obf()) == after
    assert wthor.Board(size=10).size == 10 and wthor.Board(size=10).counts() == (2, 2)


def test_legal_moves_and_play_follow_the_plain_rules(testdata):
    rec = reference.read_game_file(testdata / "WTH_2001.wtb").records[22]
    board = wthor.Board()
    for sq in rec.moves:
        me, opp = board.player, board.opponent
        legal = [name(s) for s in range(64) if reference.flips(me, opp, s)]
        assert board.legal_moves() == legal
        if not legal:
            assert board.must_pass()
            board = board.pass_()
        nxt = board.play(sq)
        f = reference.flips(board.player, board.opponent, sq)
        assert (nxt.player, nxt.opponent) == (board.opponent & ~f, board.player | f | (1 << sq))
        board = nxt


def test_symmetries_by_hand():
    b = wthor.Board.from_transcript("f5d6c3d3c4")
    images = b.symmetries()
    assert images[0] == b and len(set(images)) == 8
    from test_positions import transform_bits

    for k, img in enumerate(images):
        assert img == b.symmetry(k)
        assert img.black == transform_bits(k, b.black) and img.white == transform_bits(k, b.white)
        assert img.side_to_move == b.side_to_move


def negamax(me: int, opp: int, passed: bool = False) -> int:
    moves = [s for s in range(64) if reference.flips(me, opp, s)]
    if not moves:
        if passed:
            m, o = bin(me).count("1"), bin(opp).count("1")
            e = 64 - m - o
            return m - o + (e if m > o else -e if m < o else 0)
        return -negamax(opp, me, True)
    best = -65
    for s in moves:
        f = reference.flips(me, opp, s)
        best = max(best, -negamax(opp & ~f, me | f | (1 << s)))
    return best


def test_solve_ffo_1_and_small_endgames_against_negamax(testdata):
    s = wthor.solve(FFO_1, threads=1, tt_bits=16)
    assert (s.score, s.best_moves) == (18, ["g8"])
    assert wthor.solve(wthor.Board(FFO_1), all_best=False).best_moves == ["g8"]
    # Positions with 7 empties from fixture games: exact against a plain negamax.
    f = reference.read_game_file(testdata / "WTH_2002.wtb")
    for rec in f.records[:6]:
        rows = [r for r in reference.positions(rec, f.depth) if 64 - bin(r[0] | r[1]).count("1") == 7]
        for me, opp, side, *_ in rows[:1]:
            black, white = (me, opp) if side == 0 else (opp, me)
            obf = "".join("X" if black >> q & 1 else "O" if white >> q & 1 else "-" for q in range(64))
            got = wthor.solve(obf + " " + "XO"[side], threads=1, tt_bits=12)
            assert got.score == negamax(me, opp)


def test_bad_obf_and_illegal_moves_raise_clear_errors():
    with pytest.raises(wthor.NotationError, match="bad OBF position"):
        wthor.Board("XO-")
    with pytest.raises(wthor.NotationError, match="OBF"):
        wthor.solve("z" * 64 + " X")
    with pytest.raises(wthor.IllegalMoveError, match="a1"):
        wthor.Board().play("a1")
    with pytest.raises(wthor.IllegalMoveError, match="pass"):
        wthor.Board().pass_()
    with pytest.raises(wthor.IllegalMoveError, match="move 2"):
        wthor.Board.from_transcript("f5f5")
    with pytest.raises(wthor.NotationError, match="transcript"):
        wthor.Board.from_transcript("f5z9")
    with pytest.raises(ValueError, match="10x10"):
        wthor.solve(wthor.Board(size=10))
    assert issubclass(wthor.FormatError, wthor.WthorError) and issubclass(wthor.WthorError, ValueError)


def test_bad_paths_raise_clear_errors(testdata, tmp_path):
    missing = tmp_path / "no-such-dir"
    with pytest.raises(FileNotFoundError, match="no-such-dir"):
        wthor.Database(missing)
    bad = testdata / "malformed" / "short_header.wtb"
    with pytest.raises(wthor.FormatError, match="short_header.wtb") as err:
        wthor.Database([bad])
    assert err.value.path.endswith("short_header.wtb") and err.value.offset == 0
    # A file cut inside a record gives its whole records, with a warning
    # (as `wthor search` says it on stderr).
    with pytest.warns(UserWarning, match="truncated_record.wtb: .* 1 whole record read, 48 bytes ignored"):
        cut = wthor.Database([testdata / "malformed" / "truncated_record.wtb"])
    assert len(cut) == 1
    with pytest.raises(TypeError):
        wthor.Database(42)


def test_a_damaged_file_is_left_out_with_a_warning_unless_strict(testdata, tmp_path):
    # The one rule of every front end (wthor search --db says the same).
    for name in ["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN"]:
        (tmp_path / name).write_bytes((testdata / name).read_bytes())
    (tmp_path / "WTH_1999.wtb").write_bytes((testdata / "malformed" / "short_header.wtb").read_bytes())
    with pytest.warns(UserWarning, match=r"WTH_1999\.wtb: .*; file skipped"):
        db = wthor.Database(tmp_path)
    assert len(db) == len(wthor.Database(testdata / "WTH_2001.wtb"))
    assert [g.id for g in db] == [g.id for g in wthor.Database(testdata / "WTH_2001.wtb")]
    with pytest.raises(wthor.FormatError, match=r"WTH_1999\.wtb"):
        wthor.Database(tmp_path, strict=True)


def test_a_folder_without_game_files_is_no_database(testdata, tmp_path):
    # A wrong folder is said to be one, rather than a database where
    # nothing matches (the same words as `wthor search --db`).
    with pytest.raises(wthor.WthorError, match="no WTHOR game files in .*looked for"):
        wthor.Database(tmp_path)
    (tmp_path / "WTHOR.JOU").write_bytes((testdata / "WTHOR.JOU").read_bytes())
    with pytest.raises(wthor.WthorError, match="no WTHOR game files"):
        wthor.Database(tmp_path)


def test_a_missing_file_in_a_list_is_named(tmp_path):
    missing = tmp_path / "gone" / "WTH_1999.wtb"
    with pytest.raises(FileNotFoundError, match="WTH_1999.wtb"):
        wthor.Database([missing])


def test_a_table_size_out_of_range_is_a_value_error_not_an_abort():
    board = wthor.Board.from_transcript("f5d6c3d3c4f4f6f3e6e7")
    for bits in (3, 33, 40):
        with pytest.raises(ValueError, match="from 2\\^4 to 2\\^32 entries"):
            wthor.solve(board, tt_bits=bits)


def test_evaluate_is_the_midgame_search_and_exact_near_the_end(testdata):
    db = wthor.Database(testdata)
    moves = db["2001:3"].transcript
    # 14 empties: a depth reaching the end is the exact score, and every
    # move's value is minus the solved value of the position after it.
    near = wthor.Board.from_transcript(moves[: 2 * 46])
    assert near.empties == 14
    e = near.evaluate(depth=14, all_moves=True)
    assert e.exact and e.value == wthor.solve(near, threads=1, tt_bits=16).score
    assert e.depth == 14 and e.nodes > 0 and e.best_move == e.pv[0]
    assert sorted(m for m, _, _ in e.moves) == sorted(near.legal_moves())
    for square, value, exact in e.moves:
        assert exact and value == -wthor.solve(near.play(square), threads=1, tt_bits=16).score, square
    assert e.moves[0][1] == e.value
    # Far from the end: an estimate at the depth asked; with no limit 12
    # plies, so that it repeats.
    far = wthor.Board.from_transcript(moves[:20])
    a, b = far.evaluate(), far.evaluate()
    assert not a.exact and a.depth == 12 and (a.value, a.best_move) == (b.value, b.best_move)
    assert a.best_move in far.legal_moves() and abs(a.value) < 64
    assert far.evaluate(nodes=1000).nodes >= 1
    assert "Evaluation(value=" in repr(a) and f"best_move='{a.best_move}'" in repr(a)


def test_evaluate_refuses_what_it_cannot_judge():
    with pytest.raises(ValueError, match="no 10x10 evaluation"):
        wthor.Board(size=10).evaluate(depth=2)
    with pytest.raises(ValueError, match="from 1 to 60"):
        wthor.Board().evaluate(depth=0)
    with pytest.raises(ValueError, match="from 1 to 60"):
        wthor.Board().evaluate(depth=61)
    with pytest.raises(ValueError, match="0 nodes"):
        wthor.Board().evaluate(nodes=0)
    with pytest.raises(ValueError, match="time_ms=0: give at least 1 ms"):
        wthor.Board().evaluate(time_ms=0)
    for threads in (0, 257):
        with pytest.raises(ValueError, match=f"threads={threads}: give 1 to 256"):
            wthor.solve(FFO_1, threads=threads)


def test_ctrl_c_stops_a_long_evaluation():
    # A search of a thousand seconds, interrupted: KeyboardInterrupt, soon
    # (it ran to its end, Ctrl-C ignored). The 120 s bound only keeps a
    # failure from hanging the tests.
    import signal
    import subprocess
    import sys

    script = (
        "import sys, wthor\n"
        "print('searching', flush=True)\n"
        "try:\n"
        "    wthor.Board().evaluate(time_ms=1_000_000)\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "searching"
        import time

        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 3 and "interrupted" in out, (proc.returncode, out)
