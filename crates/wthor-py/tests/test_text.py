"""Database.export writes the bytes `wthor export -o` writes for the same
filters, in every format; wthor.read_games reads back what was exported
(the reader of `wthor import`)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

import wthor

# Filters as Python keywords and as `wthor export` flags.
FILTERS = [
    ({}, []),
    ({"years": (2002, None)}, ["--year", "2002.."]),
    ({"player": "anna", "result": "white"}, ["--player", "anna", "--result", "white"]),
    ({"opening": "f5d6", "sort": "score", "limit": 5}, ["--opening", "f5d6", "--sort", "score", "--limit", "5"]),
]


@pytest.fixture(scope="module")
def wthor_cli() -> str:
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it): skipping the CLI comparisons")
    return exe


def cli_export(exe: str, testdata: Path, out: Path, *args: str) -> None:
    run = subprocess.run(
        [exe, "export", "--db", str(testdata), *args, "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode in (0, 1), run.stderr


@pytest.mark.parametrize("ext", ["csv", "jsonl", "ggf", "txt", "obf"])
@pytest.mark.parametrize("filters,flags", FILTERS)
def test_export_is_the_cli_s_bytes(testdata, tmp_path, wthor_cli, ext, filters, flags):
    db = wthor.Database(testdata)
    mine = tmp_path / f"py.{ext}"
    counts = db.export(mine, **filters)
    theirs = tmp_path / f"cli.{ext}"
    cli_export(wthor_cli, testdata, theirs, *flags)
    assert mine.read_bytes() == theirs.read_bytes()
    if ext != "obf":
        assert counts["written"] == db.count(**filters)


def test_export_format_given_and_obf_empties(testdata, tmp_path, wthor_cli):
    db = wthor.Database(testdata)
    mine = tmp_path / "games.out"
    db.export(mine, "ggf", years=2001)
    theirs = tmp_path / "cli.out"
    cli_export(wthor_cli, testdata, theirs, "--format", "ggf", "--year", "2001")
    assert mine.read_bytes() == theirs.read_bytes()
    db.export(mine, format="obf", empties=0)
    cli_export(wthor_cli, testdata, theirs, "--format", "obf", "--empties", "0")
    assert mine.read_bytes() == theirs.read_bytes()


def test_export_refuses_unknown_formats_and_keywords(testdata, tmp_path):
    db = wthor.Database(testdata)
    with pytest.raises(ValueError, match="give format="):
        db.export(tmp_path / "games.wtb")
    with pytest.raises(ValueError, match='format="pgn"'):
        db.export(tmp_path / "games.csv", format="pgn")
    with pytest.raises(ValueError, match="empties=97: the games selected have at most 96 empty squares"):
        db.export(tmp_path / "games.obf", empties=97)
    with pytest.raises(ValueError, match="at most 60 empty squares"):
        db.export(tmp_path / "games.obf", empties=70, opening="f5")
    assert not (tmp_path / "games.obf").exists()
    with pytest.raises(TypeError):
        db.export(tmp_path / "games.csv", colour="black")
    with pytest.raises(FileNotFoundError):
        db.export(tmp_path / "no" / "such" / "games.csv")
    assert not (tmp_path / "games.csv").exists()


def named(name, unknown="?"):
    """A name as the reader gives it: trimmed, or the placeholder."""
    return (name or "").strip() or unknown


@pytest.mark.parametrize("ext", ["csv", "jsonl", "ggf", "txt"])
def test_read_games_gives_back_the_exported_games(testdata, tmp_path, ext):
    db = wthor.Database(testdata)
    # The 8x8 games (those that open with f5 in some orientation): only
    # 8x8 games are read.
    games = db.search(opening="f5")
    assert len(games) > 10
    path = tmp_path / f"games.{ext}"
    db.export(path, opening="f5")
    read = wthor.read_games(path)
    assert len(read) == len(games)
    for game, got in zip(games, read):
        # GGF writes the passes, the others leave them to replay.
        assert [m for m in got["moves"] if m != "pa"] == [m for m in game.moves if m != "pa"]
        if ext == "txt":
            assert got["black"] == "?" and got["year"] is None
            continue
        assert (got["black"], got["white"]) == (named(game.black), named(game.white))
        assert (got["year"], got["score"]) == (game.year, game.real_score)
        assert got["tournament"] == named(game.tournament, path.stem)


def test_read_games_names_the_bad_line(tmp_path):
    path = tmp_path / "games.txt"
    path.write_text("f5d6c3\n# a comment\nf5z9\n+d3-c3: -04 10\n", encoding="utf-8")
    with pytest.raises(wthor.NotationError, match=r"games\.txt:3: bad transcript"):
        wthor.read_games(path)
    games = wthor.read_games(path, errors="skip")
    assert [g["transcript"] for g in games] == ["f5d6c3", "d3c3"]
    assert [g["line"] for g in games] == [1, 4]
    assert games[1]["score"] == 30
    with pytest.raises(FileNotFoundError):
        wthor.read_games(tmp_path / "missing.ggf")
    with pytest.raises(ValueError, match="errors="):
        wthor.read_games(path, errors="ignore")
