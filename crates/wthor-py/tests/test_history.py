"""Database.history: the year table of `wthor history`."""

import csv
import io
import shutil

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


def fixtures_and_a_game_in_known_play(testdata, folder):
    """A copy of the fixtures in `folder` with a game in known play, which
    the database of the fixtures does not hold:
    testdata/known-play/WTH_2009.wtb (see testdata/README.md) beside
    them."""
    for f in testdata.iterdir():
        if f.is_file():
            shutil.copyfile(f, folder / f.name)
    shutil.copyfile(testdata / "known-play" / "WTH_2009.wtb", folder / "WTH_2009.wtb")
    return folder


def test_game_novelty_is_its_row_of_novelties(testdata, tmp_path):
    db = wthor.Database(fixtures_and_a_game_in_known_play(testdata, tmp_path))
    cols = db.novelties()
    rows = {g: i for i, g in enumerate(cols["game"])}
    kinds = set()
    # A game of each kind, and a spread of the others (each is a pass over
    # the database).
    for i, game in enumerate(db):
        if game.size != 8:
            assert game.novelty() is None
            continue
        r = rows[game.id]
        kind = cols["kind"][r]
        if kind in kinds and i % 500:
            continue
        kinds.add(kind)
        n = game.novelty()
        assert (n["game"], n["year"], n["kind"]) == (game.id, cols["year"][r], kind)
        assert n["followed"] == cols["followed"][r]
        assert (n["unique_from"] or 0) == cols["unique_from"][r]
        if kind == "novelty":
            assert n["move"] == cols["move"][r] > 0
            assert n["square"] == game.moves[n["move"] - 1]
            assert (n["before"], n["same_year"]) == (cols["before"][r], cols["same_year"][r])
        else:
            assert n["move"] is n["square"] is n["before"] is n["same_year"] is None
            assert n["value"] is n["loss"] is n["exact"] is n["value_depth"] is None
    assert kinds == {"novelty", "known", "copy", "first-year"}
    assert [g for g, k in zip(cols["game"], cols["kind"]) if k == "known"] == ["2009:0"]
    # From a search too; equal games whatever their source.
    found = db.search(years=(2005, 2005), limit=1)[0]
    assert found.novelty() == db[found.id].novelty()
    assert found == db[found.id]


def test_game_novelty_value_is_show_s(testdata, cli_text):
    """The novelty move's value and loss: `wthor show --novelty`'s search."""
    db = wthor.Database(testdata)
    # An estimate, an exact best move, an exact move that loses.
    for gid, exact in [("2003:1", False), ("2004:31", True), ("2004:130", True)]:
        n = db[gid].novelty()
        assert n["kind"] == "novelty" and n["exact"] is exact
        assert (n["value_depth"] is None) is exact
        shown = cli_text("show", gid, "--db", str(testdata), "--novelty")
        how = "exact" if exact else f'{n["value_depth"]} plies'
        assert f'value {n["value"]:+} ({how}), loss {n["loss"]}' in shown, shown
        assert db[gid].novelty() == n
    assert db["2004:31"].novelty()["loss"] == 0
    assert db["2004:130"].novelty()["loss"] > 0
