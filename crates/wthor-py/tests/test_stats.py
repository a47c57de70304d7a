"""Database.stats: the same numbers as `wthor stats --format jsonl` (its rows
gathered into the dict `stats` returns), on the fixture database and
(WTHOR_DATA) the real archive."""

from __future__ import annotations

import json

import pytest

import wthor
from test_search import cli_args

# (stats options, query filters), each checked against the CLI.
FIXTURE_CASES = [
    ({}, {}),
    ({}, {"years": 2003, "result": "draw"}),
    ({"next_moves": True}, {}),
    ({"next_moves": True}, {"position_after": "f5d6c3"}),
    # A position given shows its next moves unless told not to, as the CLI.
    ({}, {"position_after": "f5d6c3"}),
    ({"next_moves": False}, {"position_after": "f5d6c3"}),
    ({"next_moves": True}, {"position_after": "f5f6e6f4", "human": True}),
    ({"player_records": True}, {}),
    ({"player_records": True, "top": 5}, {"years": (2003, None)}),
    ({"player_records": True}, {"player": "helene"}),
    ({"by_year": True}, {"player": ("Hélène", "maximilien")}),
    ({"openings": 4}, {"years": (2003, None)}),
    ({"openings": 6, "top": 3}, {}),
    ({"next_moves": True, "player_records": True, "openings": 2}, {"tournament": "noel"}),
    ({"next_moves": True}, {"opening": "f7g7", "size": 10, "position_after": "f7"}),
    # Names beside the openings and the next moves.
    ({"next_moves": True, "openings": 5}, {"opening_name": "tiger", "position_after": "f5d6c3d3"}),
    ({"next_moves": True}, {"position_after": "f5"}),
]

OPTION_FLAGS = {"next_moves": "--next", "solve": "--solve", "player_records": "--player-records", "by_year": "--by-year"}


def cli_stats(cli_text, source, options: dict, filters: dict) -> dict:
    """`wthor stats --format jsonl` as the dict `Database.stats` returns
    (without the key the CLI does not print: `openings_shorter`)."""
    args = ["stats", "--db", str(source), "--no-index", "--format", "jsonl", *cli_args(filters)]
    for key, value in options.items():
        if key == "next_moves" and value is False:
            args.append("--no-next")
        elif key in OPTION_FLAGS and value:
            args.append(OPTION_FLAGS[key])
        elif key in ("openings", "top"):
            args += [f"--{key}", str(value)]
    if "top" not in options:
        args += ["--top", "0"]
    out = {"totals": None, "next_moves": None, "players": [], "openings": []}
    for line in cli_text(*args).splitlines():
        row = json.loads(line)
        kind = row.pop("kind")
        if kind == "totals":
            out["totals"] = row
        elif kind == "position":
            row["position"] = row.pop("obf")
            out["next_moves"] = {**row, "moves": []}
        elif kind == "next":
            out["next_moves"]["moves"].append(row)
        elif kind == "player":
            out["players"].append(row)
        elif kind == "opening":
            out["openings"].append(row)
    return out


def comparable(stats: dict) -> dict:
    stats = dict(stats)
    stats.pop("openings_shorter")
    return stats


def check(db, cli_text, source, options, filters):
    got = db.stats(**options, **filters)
    assert comparable(got) == cli_stats(cli_text, source, options, filters), (options, filters)
    # The totals are those of the games search finds.
    games = db.search(**filters)
    assert got["totals"]["games"] == len(games)
    assert got["totals"]["black_wins"] == sum(2 * g.real_score > g.size * g.size for g in games)
    if games:
        mean = sum(g.theoretical_score for g in games) / len(games)
        assert got["totals"]["mean_black_theoretical"] == pytest.approx(mean, rel=1e-12)
    return got


@pytest.mark.parametrize("case", FIXTURE_CASES, ids=lambda c: ",".join([*c[0], *c[1]]) or "totals")
def test_stats_match_the_cli_on_the_fixtures(testdata, cli_text, case):
    options, filters = case
    check(wthor.Database(testdata), cli_text, testdata, options, filters)


def test_stats_shapes_and_solve(testdata, cli_text):
    db = wthor.Database(testdata)
    plain = db.stats()
    assert plain["next_moves"] is None and plain["players"] == [] and plain["openings"] == []
    assert plain["totals"]["games"] == len(db)
    # From the start, f5 stands for the four first moves.
    start = db.stats(next_moves=True)["next_moves"]
    assert [m["move"] for m in start["moves"]] == ["f5"] and start["solved"] is None
    # A position of the 2003 file 12 empties from the end: solved.
    game = db["2003:0"]
    board = wthor.Board.from_transcript("".join(game.moves[: len(game.moves) - 12]))
    assert board.empties == 12
    solved = check(db, cli_text, testdata, {"solve": True}, {"position": board.obf()})
    nxt = solved["next_moves"]
    assert nxt["solved"] is True and nxt["reached"] >= 1
    best = wthor.solve(board, threads=1)
    # Each move's exact score is the solver's after that move, from the mover's view.
    for m in nxt["moves"]:
        assert m["exact"] == -wthor.solve(board.play(m["move"]), threads=1).score, m
    assert max(m["exact"] for m in nxt["moves"]) == best.score
    # Not solvable: said, not raised.
    far = db.stats(solve=True, position_after="f5d6")["next_moves"]
    assert far["solved"].startswith("not solved: 58 empty squares")


def test_stats_bad_filters_raise(testdata):
    db = wthor.Database(testdata)
    with pytest.raises(wthor.WthorError, match="empty year range"):
        db.stats(years=(2003, 2001))
    with pytest.raises(wthor.NotationError, match="position=: bad OBF"):
        db.stats(next_moves=True, position="x")
    with pytest.raises(TypeError, match="unexpected keyword argument 'next'"):
        db.stats(next=True)


REAL_CASES = [
    ({"player_records": True, "by_year": True}, {"player": "tastet"}),
    ({"next_moves": True}, {"position_after": "f5d6c3d3c4"}),
    ({"openings": 6, "top": 10}, {"years": (2020, None)}),
]


@pytest.mark.parametrize("case", REAL_CASES, ids=lambda c: ",".join([*c[0], *c[1]]))
def test_stats_match_the_cli_on_the_real_files(real_dir, cli_text, case):
    options, filters = case
    got = check(wthor.Database(real_dir), cli_text, real_dir, options, filters)
    assert got["totals"]["games"] > 0
