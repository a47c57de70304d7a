"""Game.analyze, Database.analyze and Database.accuracy: the numbers of
`wthor analyze` and `wthor stats --accuracy` on the fixture database."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import wthor

COLUMNS = ["game", "index", "square", "black", "empties", "exact", "depth", "value", "played", "loss"]


@pytest.fixture(scope="module")
def db(testdata):
    return wthor.Database(testdata)


def test_a_game_has_the_values_and_losses_of_the_cli(db, cli_text, testdata):
    g = db["2001:3"]
    # At a quicker depth than the default (18): the same on both sides.
    a = g.analyze(empties=16, estimate_depth=10)
    n = len(a["index"])
    assert n == len(g.moves)
    assert all(len(a[c]) == n for c in COLUMNS)
    assert a["square"].tolist() == g.squares
    assert (a["game"] == g.number).all()
    line = json.loads(cli_text("analyze", "2001:3", "--db", str(testdata), "--empties", "16", "--estimate-depth", "10", "--format", "jsonl"))
    moves = line["moves"]
    black = [m["color"] == "black" for m in moves]
    assert a["black"].tolist() == black
    # The CLI gives the mover's view, Python black's.
    sign = np.where(a["black"], 1, -1)
    assert (a["value"] * sign).tolist() == [m["value"] for m in moves]
    assert (a["played"] * sign).tolist() == [m["played"] for m in moves]
    assert a["loss"].tolist() == [m["loss"] for m in moves]
    assert a["exact"].tolist() == [m["exact"] for m in moves]
    assert a["exact"].tolist() == (a["empties"] <= 16).tolist()
    # Every estimate flagged with the depth of its search (here 10),
    # as the CLI gives it; an exact value has none (0).
    assert a["estimate"] == {"search": "midgame", "depth": 10} == line["estimate"]
    assert a["depth"].tolist() == [m.get("depth", 0) for m in moves]
    assert a["depth"].tolist() == np.where(a["exact"], 0, 10).tolist()
    assert a["final_depth"] is None
    # The loss is the value minus the move's, for the mover.
    assert ((a["value"] - a["played"]) * sign == a["loss"]).all()
    assert (a["loss"] >= 0).all()
    assert a["ending"] == "finished"
    assert a["theoretical"]["status"] == "ok"
    assert a["theoretical"]["stored"] == g.theoretical_score



def test_an_unreached_theoretical_score_says_why(db):
    # The file stores its theoretical scores at `depth` empties: an analysis
    # exact from fewer does not check it, and says so (never None).
    g = db["2001:3"]
    a = g.analyze(empties=g.depth - 2, estimate_depth=6)
    assert a["theoretical"] == {
        "status": "not_reached",
        "depth": g.depth,
        "stored": g.theoretical_score,
        "empties": g.depth - 2,
    }
    assert g.analyze(empties=g.depth, estimate_depth=6)["theoretical"]["status"] == "ok"

def test_many_games_are_the_games_one_by_one(db):
    games = ["2001:3", "2002:4", "2003:7"]
    many = db.analyze(games=games, empties=12, estimate_depth=6)
    one = [db[g].analyze(empties=12, estimate_depth=6) for g in games]
    for c in COLUMNS:
        assert many[c].tolist() == np.concatenate([o[c] for o in one]).tolist(), c
    assert many["value"].dtype == np.int16 and many["exact"].dtype == np.bool_


def test_filters_select_the_games_of_search_and_10x10_is_left_out(db):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = db.analyze(empties=8, years=2002, estimate_depth=2)
    found = {g.number for g in db.search(years=2002) if g.size == 8}
    assert set(a["game"].tolist()) == found
    ten = next(g for g in db if g.size == 10)
    with pytest.warns(UserWarning, match="10x10"):
        b = db.analyze(games=[ten, "2001:3"], empties=8, estimate_depth=2)
    assert set(b["game"].tolist()) == {db["2001:3"].number}
    with pytest.raises(ValueError, match="10x10"):
        ten.analyze()
    with pytest.raises(ValueError, match="at most 30"):
        db["2001:3"].analyze(empties=31)
    with pytest.raises(ValueError, match="from 2 to 20"):
        db.analyze(games=["2001:3"], estimate_depth=1)
    with pytest.raises(ValueError, match="from 2 to 20"):
        db["2001:3"].analyze(estimate_depth=21)
    with pytest.raises(ValueError, match="not both"):
        db["2001:3"].analyze(estimate_depth=4, time_ms=10)
    with pytest.raises(ValueError, match="not both"):
        db.analyze(games=["2001:3"], years=2001)


def test_a_timed_analysis_marks_the_depths_it_reached(db):
    # Not repeatable: only the marks are checked.
    a = db["2001:3"].analyze(empties=14, time_ms=5)
    assert a["estimate"] == {"search": "midgame", "time_ms": 5}
    estimated = ~a["exact"]
    assert estimated.any() and (a["depth"][estimated] >= 1).all()
    assert (a["depth"][a["exact"]] == 0).all()


def test_accuracy_is_the_cli_table(db, testdata, tmp_path, cli_text):
    log = tmp_path / "a.jsonl"
    cli_text(
        "analyze", "--db", str(testdata), "--year", "2001..2002", "--empties", "10", "--estimate-depth", "2",
        "--results", str(log),
    )

    def cli(*extra: str):
        out = cli_text("stats", "--accuracy", "--results", str(log), "--format", "jsonl", "--top", "0", *extra)
        rows = [json.loads(line) for line in out.splitlines()]
        for r in rows:
            del r["kind"]
        return rows

    rows = db.accuracy(log)
    assert len(rows) > 3
    assert rows == cli("--db", str(testdata))
    assert db.accuracy([log], min_moves=30, by_year=True) == cli(
        "--db", str(testdata), "--min-moves", "30", "--by-year"
    )
    name = rows[0]["player"]
    mine = db.accuracy(log, player=name, exact=True)
    assert mine == cli("--db", str(testdata), "--player", name, "--exact")
    assert [r["player"] for r in mine] == [name]
    # A year the log does not hold: no row.
    assert db.accuracy(log, years=2003) == []


def test_a_damaged_log_line_is_a_warning(db, testdata, tmp_path, cli_text):
    log = tmp_path / "a.jsonl"
    cli_text(
        "analyze", "--db", str(testdata), "--year", "2001", "--empties", "8", "--estimate-depth", "2",
        "--results", str(log),
    )
    good = db.accuracy(log)
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text(lines[0] + '{"game": "2001:9", "ye\n' + "".join(lines[1:]), encoding="utf-8")
    with pytest.warns(UserWarning, match="line 2"):
        assert db.accuracy(log) == good
    with pytest.raises(OSError, match="cannot read the results file"):
        db.accuracy(tmp_path / "missing.jsonl")


def test_a_log_of_another_command_is_refused(db, testdata, tmp_path, cli_text):
    # A `validate --solve` log is no analysis: one ValueError naming the
    # line, not warnings and an empty table.
    log = tmp_path / "v.jsonl"
    cli_text("validate", "--solve", str(testdata / "WTH_2001.wtb"), "--sample", "3", "--results", str(log))
    with pytest.raises(ValueError, match=r"v\.jsonl:1: a result of wthor validate --solve"):
        db.accuracy(log)
