//! `wthor novelties` on the fixture database: the list most followed
//! first, the summary's counts adding up to the games, bad input.

use crate::{check, wthor};

#[test]
fn list_and_summary() {
    let out = check(
        &[
            "novelties",
            "--db",
            "testdata",
            "--top",
            "5",
            "--format",
            "jsonl",
        ],
        0,
    );
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 5);
    for pair in rows.windows(2) {
        assert!(pair[0]["followed"].as_u64() >= pair[1]["followed"].as_u64());
    }
    for r in &rows {
        // The line is the game's moves up to its novelty.
        assert_eq!(
            r["line"].as_str().unwrap().len(),
            2 * r["move"].as_u64().unwrap() as usize
        );
        assert!(
            r["year"].as_u64().unwrap() > 2001,
            "the first year has no novelty"
        );
    }
    let s: serde_json::Value = serde_json::from_str(&check(
        &[
            "novelties",
            "--db",
            "testdata",
            "--summary",
            "--format",
            "jsonl",
        ],
        0,
    ))
    .unwrap();
    let games = s["games"].as_u64().unwrap();
    assert_eq!(
        s["novelties"].as_u64().unwrap()
            + s["inKnownPlay"].as_u64().unwrap()
            + s["copies"].as_u64().unwrap()
            + s["firstYear"].as_u64().unwrap(),
        games
    );
    assert_eq!(
        s["uniqueGames"].as_u64().unwrap() + s["neverUnique"].as_u64().unwrap(),
        games
    );
    let by_move: u64 = s["byMove"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["novelties"].as_u64().unwrap())
        .sum();
    assert_eq!(by_move, s["novelties"].as_u64().unwrap());
    // Filters choose the games listed: 2003's only.
    let out = check(
        &[
            "novelties",
            "--db",
            "testdata",
            "--year",
            "2003",
            "--top",
            "0",
            "--format",
            "csv",
        ],
        0,
    );
    assert!(
        out.lines()
            .skip(1)
            .all(|l| l.split(',').nth(1) == Some("2003"))
    );
    let out = wthor(&["novelties", "--db", "testdata", "--sort", "year"]);
    assert_eq!(out.status.code(), Some(2));
}
