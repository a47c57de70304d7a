"""Database.history: the year table of `wthor history`."""

import csv
import io

import wthor


def test_history_is_the_cli_s(testdata, cli_text):
    db = wthor.Database(testdata)
    for line, filters, flags in [("f5d6c3", {}, []), ("f5d6c5f4e3f6", {"human": True}, ["--human"])]:
        cols = db.history(line, **filters)
        rows = list(csv.DictReader(io.StringIO(cli_text(
            "history", line, "--db", str(testdata), "--format", "csv", *flags))))
        assert [int(r["year"]) for r in rows] == list(cols["year"])
        for key in ("games", "black_wins", "draws", "black_losses"):
            assert [int(r[key]) for r in rows] == list(cols[key]), (line, key)
        assert sum(cols["games"]) == db.count(position_after=line, **filters)
    # An OBF position and a Board give the same history.
    board = wthor.Board.from_transcript("f5d6c3")
    assert list(db.history(board)["games"]) == list(db.history("f5d6c3")["games"])
    assert list(db.history(board.obf())["games"]) == list(db.history("f5d6c3")["games"])


def test_novelties_are_the_cli_s(testdata, cli_text):
    db = wthor.Database(testdata)
    cols = db.novelties(years=(2003, 2003))
    rows = list(csv.DictReader(io.StringIO(cli_text(
        "novelties", "--db", str(testdata), "--year", "2003", "--top", "0", "--format", "csv"))))
    novel = {g: (int(m), int(b), bool(s), int(f)) for g, m, b, s, f in zip(
        cols["game"], cols["move"], cols["before"], cols["same_year"], cols["followed"])}
    assert len(rows) == sum(1 for k in cols["kind"] if k == "novelty") > 0
    for r in rows:
        m, b, s, f = novel[r["game"]]
        assert (m, b, f) == (int(r["move"]), int(r["before"]), int(r["followed"]))
        assert str(s).lower() == r["same_year"]
    assert set(cols["year"]) == {2003}
    assert set(cols["kind"]) <= {"novelty", "known", "copy"}
