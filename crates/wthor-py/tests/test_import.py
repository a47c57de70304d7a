"""Database.import_games writes the bytes `wthor import` writes for the same
inputs and options; a dry run or a rejected game writes nothing; the
database holds the new games afterwards."""

from __future__ import annotations

import datetime
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import wthor

DATE = "2026-01-01"
FIXTURES = ["WTH_2001.wtb", "WTH_2002.wtb", "WTHOR.JOU", "WTHOR.TRN"]


def eight_by_eight(testdata: Path, into: Path) -> Path:
    """A directory holding the 8x8 fixture files of 2001 and 2002 and their
    names files (not 2003's games, which the tests import)."""
    into.mkdir()
    for f in FIXTURES:
        shutil.copy(testdata / f, into / f)
    return into


def contents(d: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir())}


@pytest.fixture()
def games_2003(testdata, tmp_path) -> Path:
    """Six games of 2003 with their names, as JSON Lines."""
    path = tmp_path / "games.jsonl"
    wthor.Database(testdata).export(path, years=2003, limit=6)
    return path


# Keywords of import_games and the flags of `wthor import` that say the same.
OPTIONS = [
    ({}, []),
    ({"year": 2002, "tournament": "Imported Cup"}, ["--year", "2002", "--tournament", "Imported Cup"]),
    ({"keep_duplicates": True, "threads": 1}, ["--keep-duplicates", "--threads", "1"]),
]


@pytest.mark.parametrize("options,flags", OPTIONS)
def test_import_writes_the_cli_s_bytes(testdata, tmp_path, cli_text, games_2003, options, flags):
    theirs = eight_by_eight(testdata, tmp_path / "cli")
    mine = eight_by_eight(testdata, tmp_path / "py")
    out = cli_text("import", str(games_2003), "--into", str(theirs), "--depth", "14", "--date", DATE, *flags)
    assert out.endswith("written\n"), out
    db = wthor.Database(mine)
    before = len(db)
    report = db.import_games(games_2003, depth=14, date=DATE, **options)
    assert report["written"] is True
    assert (report["read"], report["imported"], report["rejected"]) == (6, 6, [])
    assert report["created"] == DATE
    assert contents(mine) == contents(theirs)
    # The database was opened again: it holds the new games, with their names.
    assert len(db) == before + 6
    year = options.get("year", 2003)
    new = [g for g in db if g.year == year][-6:]
    source = wthor.Database(testdata).search(years=2003, limit=6)
    # The moves are turned to start with f5; names and scores are kept.
    assert [g.transcript[:2] for g in new] == ["f5"] * 6
    assert [(g.black, g.white, g.real_score) for g in new] == [(g.black, g.white, g.real_score) for g in source]
    assert all(g.tournament == options.get("tournament", s.tournament) for g, s in zip(new, source))


def test_the_same_import_again_adds_nothing(testdata, tmp_path, games_2003):
    d = eight_by_eight(testdata, tmp_path / "db")
    db = wthor.Database(d)
    db.import_games(games_2003, depth=14, date=DATE)
    after = contents(d)
    again = db.import_games(games_2003, depth=14, date=DATE)
    assert (again["imported"], again["written"]) == (0, False)
    assert len(again["duplicates"]) == 6
    assert again["duplicates"][0] == f"{games_2003}:1: already in {d / 'WTH_2003.wtb'} (game 0)"
    assert contents(d) == after


def test_a_dry_run_writes_nothing(testdata, tmp_path, games_2003):
    d = eight_by_eight(testdata, tmp_path / "db")
    before = contents(d)
    db = wthor.Database(d)
    n = len(db)
    report = db.import_games(games_2003, depth=14, dry_run=True, date=datetime.date(2026, 1, 1))
    assert report["written"] is False
    assert report["imported"] == 6
    assert report["created"] == DATE
    [f] = report["files"]
    assert f == {"path": str(d / "WTH_2003.wtb"), "year": 2003, "existed": False, "before": 0, "added": 6, "depth": 14}
    assert report["players"]["existed"] and report["players"]["path"] == str(d / "WTHOR.JOU")
    assert contents(d) == before
    assert len(db) == n


def test_a_rejected_game_writes_nothing_unless_skipped(testdata, tmp_path, cli_text):
    d = eight_by_eight(testdata, tmp_path / "db")
    theirs = eight_by_eight(testdata, tmp_path / "cli")
    before = contents(d)
    games = tmp_path / "games.txt"
    games.write_text("f5d6c3d3c4\nf5f5\n", encoding="utf-8")
    db = wthor.Database(d)
    report = db.import_games(games, year=2002, date=DATE)
    assert report["written"] is False
    assert report["rejected"] == [f"{games}:2: move 2 (f5) is illegal: square occupied"]
    [note] = report["notes"]
    assert note.startswith(f"{games}:1: unfinished: stops after 5 moves")
    assert report["imported"] == 0 and report["files"] == []
    assert contents(d) == before

    report = db.import_games(games, year=2002, date=DATE, skip_illegal=True)
    assert (report["written"], report["imported"], len(report["rejected"])) == (True, 1, 1)
    assert db["2002:20"].transcript == "f5d6c3d3c4"
    # `wthor import --skip-illegal` exits 1 (a game rejected): the same bytes.
    run = subprocess.run(
        [os.environ["WTHOR_CLI"], "import", str(games), "--into", str(theirs), "--year", "2002"]
        + ["--date", DATE, "--skip-illegal"],
        check=False,
        capture_output=True,
    )
    assert run.returncode == 1, run.stderr
    assert contents(d) == contents(theirs)


def test_errors(testdata, tmp_path, games_2003):
    d = eight_by_eight(testdata, tmp_path / "db")
    with pytest.raises(ValueError, match="opened over 2 paths"):
        wthor.Database([d, testdata]).import_games(games_2003)
    with pytest.raises(ValueError, match="over the file"):
        wthor.Database(d / "WTH_2001.wtb").import_games(games_2003)
    db = wthor.Database(d)
    with pytest.raises(FileNotFoundError):
        db.import_games(tmp_path / "missing.txt")
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        db.import_games(games_2003, date="2026-13-01")
    with pytest.raises(ValueError, match="depth=0"):
        db.import_games(games_2003, depth=0)
    assert contents(d) == {f: (testdata / f).read_bytes() for f in FIXTURES}
