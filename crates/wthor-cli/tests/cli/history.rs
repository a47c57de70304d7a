//! `wthor history` on the fixture database: its rows sum to the counts of
//! `wthor stats` (the explorer's table) for the same position and filters;
//! every year of the range in CSV; 10x10; bad input.

use std::collections::BTreeMap;

use crate::check;
use crate::info::stderr;

fn lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The history's years and moves against `wthor stats` of the same
/// position and filters: games, black's results, and each next move's
/// games summed over the years.
#[test]
fn history_rows_sum_to_the_explorer_s_counts() {
    for (line, filters) in [
        ("f5d6c3", vec![]),
        ("f5d6c5f4e3f6", vec!["--human"]),
        ("c4e3", vec!["--year", "2002.."]),
        ("f5d6c3d3c4f4f6f3e6e7", vec![]),
    ] {
        let mut args = vec![
            "history",
            line,
            "--db",
            "testdata",
            "--by-move",
            "--format",
            "jsonl",
        ];
        args.extend(&filters);
        let history = lines(&check(&args, 0));
        let mut args = vec![
            "stats",
            "--db",
            "testdata",
            "--position-after",
            line,
            "--format",
            "jsonl",
        ];
        args.extend(&filters);
        let stats = lines(&check(&args, 0));
        let years: Vec<&serde_json::Value> =
            history.iter().filter(|v| v["kind"] == "year").collect();
        let totals = stats.iter().find(|v| v["kind"] == "totals").unwrap();
        for key in ["games", "blackWins", "draws", "blackLosses"] {
            let sum: u64 = years.iter().map(|y| y[key].as_u64().unwrap()).sum();
            let stats_key = match key {
                "blackWins" => "black_wins",
                "blackLosses" => "black_losses",
                k => k,
            };
            assert_eq!(
                sum,
                totals[stats_key].as_u64().unwrap(),
                "{line} {filters:?} {key}"
            );
        }
        let mut by_move: BTreeMap<String, u64> = BTreeMap::new();
        for y in &years {
            for (m, r) in y["moves"].as_object().unwrap() {
                *by_move.entry(m.clone()).or_default() += r["games"].as_u64().unwrap();
            }
        }
        let next: BTreeMap<String, u64> = stats
            .iter()
            .filter(|v| v["kind"] == "next")
            .map(|v| {
                (
                    v["move"].as_str().unwrap().to_owned(),
                    v["games"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(by_move, next, "{line} {filters:?}");
        // Each move's first and latest game are named.
        for m in history.iter().filter(|v| v["kind"] == "move") {
            assert_eq!(
                m["games"].as_u64(),
                next.get(m["move"].as_str().unwrap()).copied()
            );
            assert!(m["first"].is_string() && m["latest"].is_string());
        }
    }
}

/// In CSV every year of the database's range is a row (the fixtures'
/// 8x8 files: 2001-2003), zero rows included; the rows sum to the total.
#[test]
fn csv_has_every_year_and_ten_by_ten_works() {
    let csv = check(
        &[
            "history",
            "f5d6c3d3c4f4f6f3e6e7d7",
            "--db",
            "testdata",
            "--format",
            "csv",
        ],
        0,
    );
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "year,games,black_wins,draws,black_losses");
    let years: Vec<&str> = rows[1..]
        .iter()
        .map(|r| r.split(',').next().unwrap())
        .collect();
    assert_eq!(
        years,
        [
            "2001", "2002", "2003", "2004", "2005", "2006", "2007", "2008"
        ],
        "{csv}"
    );
    assert!(
        rows[1..].iter().any(|r| r.split(',').nth(1) == Some("0")),
        "a year without games: {csv}"
    );
    // 10x10: the start of the fixture's 10x10 games.
    let out = check(
        &[
            "history", "--size", "10", "g6", "--db", "testdata", "--format", "csv",
        ],
        0,
    );
    let games: u64 = out
        .lines()
        .skip(1)
        .map(|r| r.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert!(games > 0, "{out}");
}

#[test]
fn bad_input_is_said_plainly() {
    // A legal position no game reaches: said, exit 0.
    let out = check(&["history", "f5f4e3d6", "--db", "testdata"], 0);
    assert!(out.contains("no game reaches this position"), "{out}");
    // An illegal move, a sort: usage errors.
    let out = crate::wthor(&["history", "a1", "--db", "testdata"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("illegal"), "{}", stderr(&out));
    let out = crate::wthor(&["history", "f5", "--db", "testdata", "--sort", "year"]);
    assert_eq!(out.status.code(), Some(2));
    // An empty year range: no game, every year zero.
    let out = check(
        &[
            "history",
            "f5",
            "--db",
            "testdata",
            "--year",
            "1990..1991",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(
        out.lines()
            .skip(1)
            .all(|r| r.split(',').nth(1) == Some("0")),
        "{out}"
    );
}
