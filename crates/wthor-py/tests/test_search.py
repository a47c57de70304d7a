"""Database.search / count / positions(filters): the same games as
`wthor search --count` and `wthor search --format csv`, on the fixture
database and (WTHOR_DATA) the real archive; bad filters raise."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

import wthor

# Filters as `Database.search` keywords, each checked against the CLI.
FIXTURE_FILTERS = [
    {},
    {"player": "helene"},
    {"player": ("Hélène", "maximilien")},
    {"black": "edax", "result": "black"},
    {"white": "Anna Kowalska", "exact": True},
    {"player": "anna", "exact": True},
    {"tournament": "noel", "years": (2002, None)},
    {"years": (None, 2001)},
    {"years": 2002, "result": "draw"},
    {"program": True},
    {"human": True, "result": "white"},
    {"black_discs": (33, None), "theoretical": (None, 32)},
    {"theoretical": (20, 40), "sort": "score", "limit": 5},
    {"sort": "black"},
    {"sort": "tournament", "limit": 7},
    {"opening": "f5d6"},
    {"opening": "f5d6", "as_played": True},
    {"opening": "f5f6e6"},
    {"position_after": "f5d6c3"},
    {"position_after": "f5f6e6f4e3", "result": "black"},
    {"opening": "f7g7", "size": 10},
    {"opening_name": "tiger"},
    {"opening_name": "TÔRA", "result": "black"},
    {"opening_name": "Leader's Tiger", "result": "white"},
    {"position_after": "f7", "size": 10, "exact": False},
]


def cli_args(filters: dict) -> list:
    """The `wthor search` flags of a filters dict."""
    args = []
    for key, value in filters.items():
        flag = "--" + key.replace("_", "-")
        if key == "years":
            low, high = (value, value) if isinstance(value, int) else value
            args += ["--year", f"{'' if low is None else low}..{'' if high is None else high}"]
        elif key in ("black_discs", "theoretical"):
            low, high = value
            args += [flag, f"{'' if low is None else low}..{'' if high is None else high}"]
        elif key == "player" and not isinstance(value, str):
            for name in value:
                args += ["--player", name]
        elif value is True:
            args.append(flag)
        elif value is False:
            continue
        elif key == "position":
            args.append(f"{flag}={value}")
        else:
            args += [flag, str(value)]
    return args


def rows_of(db: wthor.Database, games) -> list:
    """The CSV rows `wthor search --format csv` prints for these games: the
    one schema of a game, the export's (a name beyond its file empty)."""
    out = []
    for g in games:
        out.append(
            [
                g.id,
                str(g.year),
                str(g.size),
                str(g.tournament_number),
                g.tournament or "",
                str(g.black_number),
                g.black or "",
                str(g.white_number),
                g.white or "",
                str(g.real_score),
                str(g.theoretical_score),
                str(g.depth),
                g.transcript,
                g.opening or "",
                "" if g.black_rating is None else f"{g.black_rating:.1f}",
                "" if g.white_rating is None else f"{g.white_rating:.1f}",
            ]
        )
    return out


def check_against_cli(db, cli_text, source, filters):
    args = ["search", "--db", str(source), *cli_args(filters)]
    games = db.search(**filters)
    assert all(isinstance(g, wthor.Game) for g in games)
    text = cli_text(*args, "--format", "csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][0] == "game"
    assert rows_of(db, games) == rows[1:], filters
    n = int(cli_text(*args, "--count"))
    assert db.count(**filters) == n == len(games), filters
    return games


@pytest.mark.parametrize("filters", FIXTURE_FILTERS, ids=lambda f: ",".join(f) or "all")
def test_search_and_count_match_the_cli_on_the_fixtures(testdata, cli_text, filters):
    db = wthor.Database(testdata)
    check_against_cli(db, cli_text, testdata, filters)


def test_the_fixture_filters_are_not_trivial(testdata):
    """Most filters select some games and leave out others (else the CLI
    comparison would prove little)."""
    db = wthor.Database(testdata)
    counts = [db.count(**f) for f in FIXTURE_FILTERS[1:]]
    assert sum(0 < n < len(db) for n in counts) >= len(counts) - 2, counts


def test_position_queries_match_the_cli(testdata, cli_text):
    db = wthor.Database(testdata)
    board = wthor.Board.from_transcript("f5d6c3d3")
    games = check_against_cli(db, cli_text, testdata, {"position": board.obf()})
    assert games
    # A Board is accepted for position=, in any orientation.
    assert db.search(position=board.symmetry(5)) == db.search(position=board.obf())
    assert [g.id for g in games] == [g.id for g in db.search(position_after="f5d6c3d3")]


def test_player_pairs_and_search_results(testdata):
    db = wthor.Database(testdata)
    pair = db.search(player=("Hélène", "Maximilien"))
    assert pair and all({g.black, g.white} == {"Hélène Dupré", "Maximilien Ferrière"} for g in pair)
    assert db.search(player=["maximilien", "Hélène"]) == pair
    # Games are the objects `db[...]` gives, in database order unless sorted.
    numbers = [g.number for g in db.search(years=2001)]
    assert numbers == sorted(numbers) and all(db[n].year == 2001 for n in numbers)
    scores = [g.real_score for g in db.search(sort="score")]
    assert scores == sorted(scores)
    assert db.search(limit=0) == [] and db.count(limit=3) == 3
    # None leaves a filter out.
    assert db.count(player=None, years=None) == len(db)


def test_positions_of_a_query(testdata):
    db = wthor.Database(testdata)
    games = db.search(player="helene", years=(2001, 2001))
    assert games
    by_query = db.positions(player="helene", years=(2001, 2001))
    by_games = db.positions(games=games)
    by_numbers = db.positions(games=[g.number for g in games])
    by_ids = db.positions(games=[g.id for g in games])
    for col in by_query:
        assert np.array_equal(by_query[col], by_games[col])
        assert np.array_equal(by_query[col], by_numbers[col])
        assert np.array_equal(by_query[col], by_ids[col])
    # 10x10 games have no rows.
    assert set(by_query["game"].tolist()) == {g.number for g in games if g.size == 8}
    assert any(g.size == 10 for g in games)
    aug = db.positions(player="helene", years=(2001, 2001), augment=True)
    assert len(aug["player"]) == 8 * len(by_query["player"])
    with pytest.raises(ValueError, match="games= or"):
        db.positions(games=games, player="helene")


def test_game_opening_and_the_opening_name_filter(testdata, cli_text):
    """Game.opening is the CLI's column; opening_name= finds the games
    through the named position (their opening that one or further on),
    as many as `wthor openings --db` counts; a 10x10 game has none."""
    db = wthor.Database(testdata)
    games = list(db)
    assert all(g.opening is None for g in games if g.size == 10)
    named = [g for g in games if g.opening]
    assert len(named) > len(games) // 2
    tiger = db.search(opening_name="tiger")
    assert tiger and len(tiger) == db.count(opening_name="Tora")
    # Every game whose own opening is the Tiger passes through it.
    own = {g.id for g in games if g.opening == "Tiger"}
    assert own and own <= {g.id for g in tiger}
    table = cli_text("openings", "--db", str(testdata))
    counts = {line[:36].rstrip(): int(line[37:].split()[1]) for line in table.splitlines()[1:] if line[:1] not in (" ", "")}
    for name in ["Tiger", "Leader's Tiger", "Stephenson", "Perpendicular Opening", "Buffalo"]:
        assert db.count(opening_name=name) == counts[name], name


def test_an_unknown_opening_name_finds_nothing_and_warns(testdata):
    db = wthor.Database(testdata)
    with pytest.warns(UserWarning, match="no opening is named 'Tigre'|no opening is named \"Tigre\"; the closest names: Tiger"):
        assert db.search(opening_name="Tigre") == []
    with pytest.warns(UserWarning, match="closest names: Buffalo"):
        assert db.stats(opening_name="bufallo")["totals"]["games"] == 0
    with pytest.raises(TypeError, match="opening_name= expects a str"):
        db.count(opening_name=3)


def test_bad_filters_raise(testdata):
    db = wthor.Database(testdata)
    with pytest.raises(wthor.NotationError, match=r"position=: bad OBF position at character 3.*found 'Z'"):
        db.search(position="--Z" + "-" * 61 + " X")
    with pytest.raises(wthor.NotationError, match="opening=: bad transcript"):
        db.count(opening="f5z9")
    with pytest.raises(wthor.IllegalMoveError, match="position_after=: move 2"):
        db.search(position_after="f5f5")
    with pytest.raises(wthor.WthorError, match="empty year range 2003..2001"):
        db.search(years=(2003, 2001))
    with pytest.raises(wthor.WthorError, match="empty black discs range 40..30"):
        db.count(black_discs=(40, 30))
    with pytest.raises(wthor.WthorError, match="empty theoretical score range"):
        db.positions(theoretical=(40, 30))
    with pytest.raises(wthor.WthorError, match="unknown sort key"):
        db.search(sort="colour")
    with pytest.raises(ValueError, match="result="):
        db.search(result="win")
    with pytest.raises(ValueError, match="exclude each other"):
        db.search(program=True, human=True)
    with pytest.raises(ValueError, match="needs an opening"):
        db.search(as_played=True)
    with pytest.raises(ValueError, match="not both"):
        db.search(position_after="f5", position=wthor.Board().obf())
    with pytest.raises(ValueError, match="8 or 10"):
        db.search(size=9)
    with pytest.raises(TypeError, match="unexpected keyword argument 'colour'"):
        db.search(colour="black")
    with pytest.raises(TypeError, match="pair"):
        db.search(years=("a", "b"))
    # An end past the type's bounds is out of range, with the range (as
    # the CLI's --year 0..99999).
    with pytest.raises(ValueError, match="years=: 99999 is out of range: give a number from 0 to 65535"):
        db.search(years=(0, 99999))
    with pytest.raises(ValueError, match="years=: -1 is out of range"):
        db.count(years=-1)
    with pytest.raises(ValueError, match="black_discs=: 300 is out of range: give a number from 0 to 255"):
        db.count(black_discs=(None, 300))
    with pytest.raises(TypeError, match="player="):
        db.search(player=3)
    with pytest.raises(wthor.WthorError, match="at most two players"):
        db.search(player=("a", "b", "c"))
    with pytest.raises(IndexError):
        db.positions(games=[len(db)])
    with pytest.raises(KeyError, match="no game file"):
        db.positions(games=["1999:0"])


REAL_FILTERS = [
    {"player": "tastet"},
    {"player": ("Tastet", "Shaman"), "sort": "year"},
    {"position_after": "f5d6c3d3c4f4f6f3e6e7"},
    {"opening": "f5f6e6f4e3c5c4", "years": (2000, 2010)},
    {"opening_name": "rose", "years": (2000, None)},
    {"tournament": "championnat de france", "result": "draw", "years": (1990, None)},
]


@pytest.mark.parametrize("filters", REAL_FILTERS, ids=lambda f: ",".join(f))
def test_search_and_count_match_the_cli_on_the_real_files(real_dir, cli_text, filters):
    db = wthor.Database(real_dir)
    games = check_against_cli(db, cli_text, real_dir, filters)
    assert 0 < len(games) < len(db), filters


def test_a_fresh_index_answers_position_queries_and_a_stale_one_warns(tmp_path, testdata, cli_text):
    """The index `wthor index build` writes is used as `wthor search` uses
    it: same answers; a stale one is a UserWarning and a scan."""
    import shutil
    import warnings

    for f in testdata.iterdir():
        if f.is_file() and f.suffix != ".md":
            shutil.copy(f, tmp_path / f.name)
    cli_text("index", "build", "--db", str(tmp_path))
    assert (tmp_path / "wthor.idx").is_file()
    filters = {"position_after": "f5d6c3d3"}
    scanned = wthor.Database(tmp_path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        indexed = wthor.Database(tmp_path)
        assert [g.id for g in indexed.search(**filters)] == [g.id for g in scanned.search(**filters)]
        assert indexed.count(**filters) == scanned.count(**filters) > 0
        assert indexed.stats(**filters) == scanned.stats(**filters)
    # An index asked for by path that is not there.
    missing = wthor.Database(tmp_path, index=tmp_path / "nowhere.idx")
    with pytest.warns(UserWarning, match="nowhere.idx missing; scanning every game"):
        assert missing.count(**filters) == scanned.count(**filters)
    # A game file changed after the build: stale, said, and scanned.
    with open(tmp_path / "WTH_2001.wtb", "ab") as f:
        f.write(bytes(68))
    changed = wthor.Database(tmp_path)
    with pytest.warns(UserWarning, match="stale"):
        n = changed.count(**filters)
    assert n == wthor.Database(tmp_path, index=False).count(**filters)
