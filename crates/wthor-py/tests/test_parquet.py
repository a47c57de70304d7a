"""Parquet export (`wthor export --format parquet`, `--positions`): the
files the CLI writes, read back with pyarrow, against the CSV export of
the same games, `Database.games_table()` and `Database.positions()`.
Skipped when pyarrow is not installed (`cargo xtask py-test` installs it)."""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pytest

import wthor

pa = pytest.importorskip("pyarrow", reason="pyarrow is not installed: skipping the Parquet tests")
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow.parquet is missing: skipping the Parquet tests")

# The CSV's column for each column of the Parquet games table.
CSV_COLUMNS = {
    "id": "game",
    "year": "year",
    "size": "boardSize",
    "tournament_number": "tournamentId",
    "tournament": "tournamentName",
    "black_number": "blackPlayerId",
    "black": "blackPlayerName",
    "white_number": "whitePlayerId",
    "white": "whitePlayerName",
    "real_score": "blackScore",
    "theoretical_score": "blackTheoreticalScore",
    "depth": "depth",
    "transcript": "transcript",
    "opening": "opening",
}


def export(cli_text, tmp_path, testdata, *args: str):
    """The Parquet table `wthor export --db testdata ARGS -o FILE` writes."""
    path = tmp_path / "out.parquet"
    cli_text("export", "--db", str(testdata), *args, "-o", str(path))
    return pq.read_table(path)


@pytest.mark.parametrize("filters", [[], ["--player", "ferriere", "--sort", "score"]])
def test_games_table_is_the_csv_export(testdata, cli_text, tmp_path, filters):
    table = export(cli_text, tmp_path, testdata, "--format", "parquet", *filters)
    text = cli_text("export", "--db", str(testdata), "--format", "csv", *filters)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert rows and table.num_rows == len(rows)
    for column, csv_column in CSV_COLUMNS.items():
        got = table.column(column).to_pylist()
        want = [r[csv_column] for r in rows]
        if pa.types.is_integer(table.schema.field(column).type):
            want = [int(v) for v in want]
        else:
            # A name beyond its names file: null in Parquet, "" in the CSV.
            got = ["" if v is None else v for v in got]
        assert got == want, column
    # The squares are the transcript's moves, side * row + column.
    for squares, r in zip(table.column("squares").to_pylist(), rows):
        t, side = r["transcript"], int(r["boardSize"])
        cells = re.findall(r"[a-j](?:10|[1-9])", t)
        assert squares == [(int(c[1:]) - 1) * side + (ord(c[0]) - ord("a")) for c in cells]


def test_games_table_holds_games_table_columns(testdata, cli_text, tmp_path):
    """Every column of Database.games_table(), same values, same types."""
    table = export(cli_text, tmp_path, testdata, "--format", "parquet")
    db = wthor.Database(testdata)
    expected = db.games_table()
    for column, values in expected.items():
        field = table.schema.field(column)
        if isinstance(values, np.ndarray):
            assert field.type == pa.from_numpy_dtype(values.dtype), column
            values = values.tolist()
        else:
            assert field.type == pa.string(), column
        assert table.column(column).to_pylist() == values, column
    assert table.column("number").to_pylist() == list(range(len(db)))
    assert table.column("number").to_pylist() == [g.number for g in db]


@pytest.mark.parametrize(
    "filters,keywords",
    [([], {}), (["--year", "2001..2002", "--player", "kowalska"], {"years": (2001, 2002), "player": "kowalska"})],
)
def test_positions_table_is_database_positions(testdata, cli_text, tmp_path, filters, keywords):
    table = export(cli_text, tmp_path, testdata, "--format", "parquet", "--positions", *filters)
    pos = wthor.Database(testdata).positions(**keywords)
    assert table.column_names == list(pos)
    assert table.num_rows == len(pos["player"]) > 0
    for column, values in pos.items():
        assert table.schema.field(column).type == pa.from_numpy_dtype(values.dtype), column
        got = table.column(column).to_numpy()
        assert got.dtype == values.dtype and np.array_equal(got, values), column


def test_positions_join_the_games_table(testdata, cli_text, tmp_path):
    games = export(cli_text, tmp_path, testdata, "--year", "2002", "--format", "parquet")
    positions = export(cli_text, tmp_path, testdata, "--year", "2002", "--format", "parquet", "--positions")
    eight = [n for n, s in zip(games.column("number").to_pylist(), games.column("size").to_pylist()) if s == 8]
    assert sorted(set(positions.column("game").to_pylist())) == sorted(eight)


@pytest.mark.parametrize(
    "ext,flags,keywords",
    [
        (".parquet", [], {}),
        (".parquet", ["--positions", "--year", "2001..2002"], {"positions": True, "years": (2001, 2002)}),
    ],
)
def test_python_export_writes_the_cli_s_parquet(testdata, tmp_path, cli_text, ext, flags, keywords):
    """Database.export(..., format="parquet") writes what the CLI writes:
    the same table, and the same bytes."""
    theirs, mine = tmp_path / f"cli{ext}", tmp_path / f"py{ext}"
    cli_text("export", "--db", str(testdata), *flags, "-o", str(theirs))
    counts = wthor.Database(testdata).export(mine, **keywords)
    table = pq.read_table(mine)
    assert counts["written"] == table.num_rows > 0
    assert table.equals(pq.read_table(theirs))
    assert mine.read_bytes() == theirs.read_bytes()


def test_python_export_refuses_positions_in_text(testdata, tmp_path):
    db = wthor.Database(testdata)
    with pytest.raises(ValueError, match="positions=True.*Parquet only"):
        db.export(tmp_path / "p.csv", positions=True)
    assert not (tmp_path / "p.csv").exists()
