"""Database and Game: counts against the CLI, records and names against the
plain-Python reader, identities, the games table."""

from __future__ import annotations

import sys
import types

import numpy as np
import pytest

import reference
import wthor

GAME_FILES_8 = ["WTH_2001.wtb", "WTH_2002.wtb"] + [f"WTH_{y}.wtb" for y in range(2003, 2009)]


def test_counts_match_the_cli_on_the_fixtures(testdata, cli):
    db = wthor.Database(testdata)
    everything = cli("validate", str(testdata))
    assert len(db) == everything["games"] == 66 + 1500 + 5 * 150
    # Positions are the 8x8 games' moves and passes (one row before each).
    eight = cli("validate", *(str(testdata / f) for f in GAME_FILES_8))
    assert len(db.positions()["player"]) == eight["moves"] + eight["passes"]
    assert sum(1 for g in db if g.size == 8) == eight["games"]


def test_counts_match_the_cli_on_the_real_files(real_dir, cli):
    db = wthor.Database(real_dir)
    summary = cli("validate", str(real_dir))
    assert len(db) == summary["games"]
    pos = db.positions()
    # Every game of the real directory is 8x8.
    assert len(pos["player"]) == summary["moves"] + summary["passes"]
    assert len(np.unique(pos["game"])) == summary["games"]


def test_games_are_the_records_with_their_names(testdata):
    db = wthor.Database(testdata)
    players = reference.read_names(testdata / "WTHOR.JOU", 20)
    tournaments = reference.read_names(testdata / "WTHOR.TRN", 26)
    games = (g for g in db if g.size == 8)
    for name in GAME_FILES_8:
        f = reference.read_game_file(testdata / name)
        for i, rec in enumerate(f.records):
            g = next(games)
            assert (g.file, g.index, g.year, g.depth, g.size) == (name, i, f.year, f.depth, 8)
            assert (g.tournament_number, g.black_number, g.white_number) == rec[:3]
            assert (g.tournament, g.black, g.white) == (
                tournaments[rec.tournament],
                players[rec.black],
                players[rec.white],
            )
            assert (g.real_score, g.theoretical_score) == (rec.real_score, rec.theoretical_score)
            assert g.squares == rec.moves
            names = ["abcdefgh"[s % 8] + str(s // 8 + 1) for s in rec.moves]
            assert g.moves == names and g.transcript == "".join(names)
    # Windows-1252: the fixtures' accented names come out right.
    assert any("Suède" in t for t in tournaments)
    accented = [g for g in db if g.black and any(c in g.black for c in "éèçàï")]
    assert accented and all(g.black in players for g in accented)


def test_identities(testdata):
    db = wthor.Database(testdata)
    assert db["2001:0"].file == "WTH_2001.wtb"
    # YEAR:INDEX is the yearly 8x8 file; the 10x10 one goes by its name.
    assert db["2001:23"].id == "2001:23"
    with pytest.raises(KeyError, match="2001 has 24 games"):
        db["2001:24"]
    ten = db["wth_2001.WTD:3"]
    assert (ten.id, ten.file, ten.index, ten.size, ten.year) == ("WTH_2001.wtd:3", "WTH_2001.wtd", 3, 10, 2001)
    assert db["WTH_2002.wtb:5"].id == "2002:5"
    for i, g in enumerate(db):
        assert g.number == i
        assert db[g.id].number == i
        assert db[i].id == g.id
    assert db[-1].number == len(db) - 1
    with pytest.raises(KeyError, match="no game file"):
        db["1999:0"]
    with pytest.raises(IndexError):
        db[len(db)]
    with pytest.raises(wthor.NotationError, match="YEAR:INDEX"):
        db["twenty"]
    with pytest.raises(wthor.NotationError):
        db["2001:x"]


def test_files_can_be_listed_with_their_names(testdata):
    # A game file listed alone is read with the names files beside it, as
    # in a database of its folder (as `wthor search --db FILE`), or with
    # the ones listed or given (issue 36, item 2).
    full = wthor.Database(testdata)

    def named_as_in_the_folder(db):
        return all(
            (g.black, g.white, g.tournament) == (h.black, h.white, h.tournament)
            for g, h in zip(db, (full[f"2002:{i}"] for i in range(20)))
        )

    alone = wthor.Database([testdata / "WTH_2002.wtb"])
    assert len(alone) == 20
    assert alone[0].black is not None and alone[0].tournament is not None
    assert named_as_in_the_folder(alone)
    listed = wthor.Database([testdata / "WTH_2002.wtb", testdata / "WTHOR.JOU"])
    assert named_as_in_the_folder(listed)
    given = wthor.Database(
        [testdata / "WTH_2002.wtb"], players=testdata / "WTHOR.JOU", tournaments=testdata / "WTHOR.TRN"
    )
    assert named_as_in_the_folder(given)
    with pytest.raises(wthor.WthorError, match="WTHOR.TRN"):
        wthor.Database([testdata / "WTH_2002.wtb"], players=testdata / "WTHOR.TRN")


def test_games_table(testdata):
    db = wthor.Database(testdata)
    t = db.games_table()
    n = len(db)
    assert all(len(col) == n for col in t.values())
    for i, g in enumerate(db):
        assert t["id"][i] == g.id and t["file"][i] == g.file
        assert (t["black"][i], t["white"][i], t["tournament"][i]) == (g.black, g.white, g.tournament)
        assert t["real_score"][i] == g.real_score and t["theoretical_score"][i] == g.theoretical_score
        assert t["moves"][i] == len(g.squares) and t["size"][i] == g.size and t["year"][i] == g.year
    assert t["year"].dtype == np.uint16 and t["real_score"].dtype == np.uint8
    with pytest.raises(ValueError, match="pandas"):
        db.games_table(to="excel")


def test_games_table_to_pandas(testdata):
    pd = pytest.importorskip("pandas")
    frame = wthor.Database(testdata).games_table(to="pandas")
    assert isinstance(frame, pd.DataFrame) and len(frame) == 2316


def test_games_table_conversions_without_pandas_or_pyarrow(testdata, monkeypatch):
    """The conversion hands the columns to pandas.DataFrame / pyarrow.table
    (stand-ins here, neither package being required), and says when the
    package is missing."""
    db = wthor.Database(testdata)
    for name, attr in [("pandas", "DataFrame"), ("pyarrow", "table")]:
        fake = types.ModuleType(name)
        setattr(fake, attr, lambda columns, _name=name: (_name, columns))
        monkeypatch.setitem(sys.modules, name, fake)
        got, columns = db.games_table(to=name)
        assert got == name and columns["id"] == db.games_table()["id"]
        monkeypatch.setitem(sys.modules, name, None)
        with pytest.raises(ImportError):
            db.games_table(to=name)


def test_real_names_are_the_newest_release(real_dir):
    db = wthor.Database(real_dir)
    # WTH.JOU (2026) is newer than WTHOR.JOU (2022): the 2025 games' players
    # all have names in it.
    last = [g for g in db if g.year == 2025]
    assert last and all(g.black is not None and g.white is not None for g in last)
