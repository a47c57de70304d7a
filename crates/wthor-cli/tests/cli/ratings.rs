//! `wthor ratings` on the fixture database `testdata/`: the list of a
//! year, a player's history, the formats, the validation's keys, and bad
//! input (a player not rated, a year without games, options that do not
//! apply).

use crate::info::{stderr, stdout};
use crate::{check, wthor, wthor_data};

#[test]
fn lists_and_histories() {
    let out = check(&["ratings", "--db", "testdata", "--top", "8"], 0);
    insta::assert_snapshot!("ratings_last_year", out);
    let out = check(
        &[
            "ratings",
            "--db",
            "testdata",
            "--year",
            "2001..2002",
            "--top",
            "4",
            "--format",
            "csv",
        ],
        0,
    );
    insta::assert_snapshot!("ratings_years_csv", out);
    let out = check(
        &[
            "ratings",
            "--db",
            "testdata",
            "--player",
            "nakamura",
            "--player",
            "Saio (romano)",
        ],
        0,
    );
    insta::assert_snapshot!("ratings_players", out);
    let out = check(
        &[
            "ratings",
            "--db",
            "testdata",
            "--player",
            "logistello",
            "--format",
            "jsonl",
        ],
        0,
    );
    insta::assert_snapshot!("ratings_player_jsonl", out);
}

/// The CSV and JSON Lines rows carry the same values, and the list's
/// games per player add up to twice the games of the year rated.
#[test]
fn formats_agree() {
    let csv = check(
        &[
            "ratings", "--db", "testdata", "--year", "2003", "--top", "0", "--format", "csv",
        ],
        0,
    );
    let jsonl = check(
        &[
            "ratings", "--db", "testdata", "--year", "2003", "--top", "0", "--format", "jsonl",
        ],
        0,
    );
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    let objects: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), objects.len());
    let mut games = 0;
    for (row, object) in rows.iter().zip(&objects) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[2], object["player"].as_str().unwrap());
        let rank = object["rank"]
            .as_u64()
            .map_or_else(String::new, |r| r.to_string());
        assert_eq!(fields[1], rank);
        // CSV to the tenth of a point, JSON to the hundredth.
        let rating: f64 = fields[3].parse().unwrap();
        assert!((rating - object["rating"].as_f64().unwrap()).abs() <= 0.06);
        games += object["games"].as_u64().unwrap();
    }
    // The fixture's 2003 games: all between named players.
    let count = check(
        &["search", "--db", "testdata", "--year", "2003", "--count"],
        0,
    );
    let count: u64 = count.trim().parse().unwrap();
    assert_eq!(games, 2 * count);
}

#[test]
fn the_validation_prints_one_object_with_each_model() {
    let out = check(
        &[
            "ratings",
            "--db",
            "testdata",
            "--evaluate",
            "2003..2003",
            "--format",
            "jsonl",
        ],
        0,
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let e: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    for key in ["whr", "elo", "glicko2", "constant"] {
        let loss = e[key].as_f64().unwrap_or_else(|| panic!("{key}: {out}"));
        assert!(loss > 0.0 && loss < 1.0, "{key}: {loss}");
    }
    assert_eq!(e["games"], 1500);
    assert_eq!(
        (e["first"].as_u64(), e["last"].as_u64()),
        (Some(2003), Some(2003))
    );
    let out = check(
        &["ratings", "--db", "testdata", "--evaluate", "2003..2003"],
        0,
    );
    assert!(
        out.starts_with("validation 2003..2003: 1500 games of 6 tournaments"),
        "{out}"
    );
}

#[test]
fn bad_input_is_said_plainly() {
    // A player nobody is: the closest names.
    let out = wthor(&["ratings", "--db", "testdata", "--player", "Takuji Nakamur"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = wthor(&["ratings", "--db", "testdata", "--player", "Zzyzx Nakamuro"]);
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!("ratings_unknown_player", stderr(&out));
    // Nothing close: said so, no unrelated names.
    let out = wthor(&["ratings", "--db", "testdata", "--player", "zzz"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no rated player named \"zzz\", and no name is close to it\n"
    );
    // A part of several names.
    let out = wthor(&["ratings", "--db", "testdata", "--player", "a"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("give the whole name"),
        "{}",
        stderr(&out)
    );
    // A year without games: said, not an error.
    let out = check(&["ratings", "--db", "testdata", "--year", "1990"], 0);
    assert!(out.ends_with("\n1990: no rated games\n"), "{out}");
    let out = wthor(&[
        "ratings", "--db", "testdata", "--year", "1990", "--format", "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "");
    assert_eq!(stderr(&out), "wthor: 1990: no rated games\n");
    // A range of years without games, or with some: the rated years only.
    let out = check(&["ratings", "--db", "testdata", "--year", "1900..1990"], 0);
    assert_eq!(out, "no rated games in 1900..1990\n");
    let out = check(
        &[
            "ratings", "--db", "testdata", "--year", "..2001", "--top", "1",
        ],
        0,
    );
    assert_eq!(out.matches(" players rated").count(), 1, "{out}");
    // Options that do not apply, ranges that cannot be.
    for (args, says) in [
        (vec!["--sort", "year"], "--sort and --limit do not apply"),
        (vec!["--evaluate", "2003.."], "both ends"),
        (vec!["--evaluate", "2003..2001"], "empty range"),
        (
            vec!["--evaluate", "1990..1991"],
            "no rated game in 1990..1991",
        ),
        (
            vec!["--evaluate", "2003", "--year", "2003"],
            "--year chooses a list",
        ),
    ] {
        let mut all = vec!["ratings", "--db", "testdata"];
        all.extend(args);
        let out = wthor(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        assert!(stderr(&out).contains(says), "{all:?}: {}", stderr(&out));
    }
}

/// The real archive: the list of 2025 and the validation's shape (its
/// figures are the benchmark's, `cargo bench -p wthor-db --bench
/// ratings`).
#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_archive_ratings() {
    let data = wthor_data();
    let db = data.join("wthor");
    let db = db.to_str().unwrap();
    let out = check(
        &[
            "ratings", "--db", db, "--year", "2025", "--top", "0", "--format", "jsonl",
        ],
        0,
    );
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(rows.len() > 500, "{}", rows.len());
    assert!(rows.iter().all(|r| r["player"] != "???"));
    let out = check(&["ratings", "--db", db, "--player", "Edax (delorme)"], 0);
    assert!(out.contains("Edax (delorme) (program)"), "{out}");
}

/// The whole database's ratings are kept in a file (`--ratings FILE`, or
/// the user's cache directory) and read back: the same list, from a file
/// that exists after the first run; a damaged file is a warning, fitted
/// again and replaced; with filters the option is refused.
#[test]
fn the_whole_database_s_ratings_are_kept_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kept.json");
    let file_arg = file.to_str().unwrap();
    let args = [
        "ratings",
        "--db",
        "testdata",
        "--top",
        "5",
        "--ratings",
        file_arg,
    ];
    let fitted = wthor(&args);
    assert_eq!(fitted.status.code(), Some(0), "{}", stderr(&fitted));
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept.contains("\"format\":1") && kept.contains("\"database\":\""),
        "{kept}"
    );
    let read = wthor(&args);
    assert_eq!(stdout(&read), stdout(&fitted));
    assert_eq!(stderr(&read), "");
    // The list without --ratings (fitted, or read from the tests' cache
    // directory) is the same list.
    assert_eq!(
        check(&["ratings", "--db", "testdata", "--top", "5"], 0),
        stdout(&fitted)
    );
    std::fs::write(&file, "{\"format\":1,").unwrap();
    let damaged = wthor(&args);
    assert_eq!(stdout(&damaged), stdout(&fitted));
    assert!(
        stderr(&damaged).contains("were damaged: fitted again and replaced"),
        "{}",
        stderr(&damaged)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), kept);
    // Filters choose other games: their ratings are not the kept ones.
    let filtered = wthor(&[
        "ratings",
        "--db",
        "testdata",
        "--human",
        "--ratings",
        file_arg,
    ]);
    assert_ne!(filtered.status.code(), Some(0));
    assert!(
        stderr(&filtered).contains("keeps the whole database's ratings"),
        "{}",
        stderr(&filtered)
    );
}

/// `--min-rating R` keeps the 8x8 games whose two players were both rated
/// at least R in the game's year, by the list `wthor ratings` prints (a
/// player without games that year: the fitted curve's value, which the
/// list does not show, so only listed player-years are checked).
#[test]
fn the_rating_filter_keeps_games_of_players_rated_at_least_r() {
    let list = check(
        &[
            "ratings",
            "--db",
            "testdata",
            "--year",
            "2001..2003",
            "--top",
            "0",
            "--format",
            "csv",
        ],
        0,
    );
    let mut rating = std::collections::HashMap::new();
    for row in list.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        rating.insert(
            (f[2].to_owned(), f[0].to_owned()),
            f[3].parse::<f64>().unwrap(),
        );
    }
    let all: usize = check(&["search", "--db", "testdata", "--count"], 0)
        .trim()
        .parse()
        .unwrap();
    let out = check(
        &[
            "search",
            "--db",
            "testdata",
            "--min-rating",
            "1600",
            "--format",
            "csv",
        ],
        0,
    );
    let games: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert!(!games.is_empty() && games.len() < all);
    let mut checked = 0;
    for g in &games {
        for name in [g[6], g[8]] {
            if let Some(r) = rating.get(&(name.to_owned(), g[1].to_owned())) {
                assert!(*r >= 1600.0 - 0.05, "{name} {} {r}", g[1]);
                checked += 1;
            }
        }
    }
    assert!(checked > games.len(), "{checked}");
    let count: usize = check(
        &[
            "search",
            "--db",
            "testdata",
            "--min-rating",
            "1600",
            "--count",
        ],
        0,
    )
    .trim()
    .parse()
    .unwrap();
    assert_eq!(count, games.len());
    let out = wthor(&["search", "--db", "testdata", "--min-rating", "5000"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("out of range"), "{}", stderr(&out));
}
