"""Database.ratings: the rating list of `wthor ratings`, kept between runs."""

import csv
import io
import warnings

import pytest

import wthor


def test_a_year_is_the_cli_list(testdata, tmp_path, cli_text, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = wthor.Database(testdata)
    cols = db.ratings(2003)
    rows = list(csv.DictReader(io.StringIO(cli_text(
        "ratings", "--db", str(testdata), "--year", "2003", "--top", "0", "--format", "csv"))))
    assert len(cols["name"]) == len(rows) > 10
    by_name = {r["player"]: r for r in rows}
    for i, name in enumerate(cols["name"]):
        r = by_name[name]
        assert int(r["year"]) == cols["year"][i] == 2003
        assert float(r["rating"]) == pytest.approx(cols["rating"][i], abs=0.051)
        assert float(r["sd"]) == pytest.approx(cols["sd"][i], abs=0.051)
        assert int(r["games"]) == cols["games"][i]
        assert float(r["points"]) == cols["points"][i]
        assert (r["program"] == "true") == bool(cols["program"][i])
        assert (r["provisional"] == "true") == bool(cols["provisional"][i])
        assert (int(r["rank"]) if r["rank"] else 0) == cols["rank"][i]
    # Kept in the user's cache directory, and read back the same.
    kept = list((tmp_path / "cache" / "wthor").glob("ratings-*.json"))
    assert len(kept) == 1
    again = db.ratings(2003)
    assert list(again["rating"]) == list(cols["rating"])


def test_every_year_and_a_file_of_ones_own(testdata, tmp_path):
    db = wthor.Database(testdata)
    path = tmp_path / "r.json"
    every = db.ratings(ratings=path)
    assert path.is_file()
    years = set(int(y) for y in every["year"])
    assert len(years) >= 3
    one = db.ratings(min(years), ratings=path)
    assert set(one["year"]) == {min(years)}
    assert len(one["name"]) == sum(1 for y in every["year"] if y == min(years))
    # A damaged file: a warning, fitted again, the same ratings.
    path.write_text('{"format":')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replaced = db.ratings(ratings=path)
    assert any("damaged" in str(w.message) for w in caught)
    assert list(replaced["rating"]) == list(every["rating"])
    with pytest.raises(ValueError, match="to="):
        db.ratings(to="excel", ratings=path)


def test_the_rating_filter_selects_the_cli_s_games(testdata, tmp_path, cli_text, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = wthor.Database(testdata)
    for bound in (1500, 1600):
        ids = [str(g.id) for g in db.search(min_rating=bound)]
        cli = cli_text("search", "--db", str(testdata), "--min-rating", str(bound), "--format", "csv")
        rows = list(csv.DictReader(io.StringIO(cli)))
        assert ids == [r["game"] for r in rows] and 0 < len(ids) < len(db)
        assert db.count(min_rating=bound) == len(ids)
    # Both players rated at least the bound in the game's year.
    ratings = db.ratings()
    rating = {(n, int(y)): r for n, y, r in zip(ratings["name"], ratings["year"], ratings["rating"])}
    for g in db.search(min_rating=1600, limit=20):
        for name in (g.black, g.white):
            if (name, g.year) in rating:
                assert rating[(name, g.year)] >= 1600
    with pytest.raises(ValueError, match="minimum rating 5000 out of range"):
        db.search(min_rating=5000)

