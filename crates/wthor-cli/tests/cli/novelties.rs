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

/// `--novelty` on `wthor search --format jsonl` adds each game's novelty,
/// the same as `wthor novelties` lists; `wthor show --novelty` says it.
#[test]
fn novelty_on_search_and_show() {
    let listed = check(
        &[
            "novelties",
            "--db",
            "testdata",
            "--year",
            "2003",
            "--top",
            "0",
            "--format",
            "jsonl",
        ],
        0,
    );
    let listed: std::collections::HashMap<String, serde_json::Value> = listed
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| (v["game"].as_str().unwrap().to_owned(), v))
        .collect();
    let out = check(
        &[
            "search",
            "--db",
            "testdata",
            "--year",
            "2003",
            "--format",
            "jsonl",
            "--novelty",
        ],
        0,
    );
    let mut novelties = 0;
    for line in out.lines() {
        let g: serde_json::Value = serde_json::from_str(line).unwrap();
        let n = &g["novelty"];
        assert!(
            g["blackScore"].is_u64(),
            "the export's record is kept: {line}"
        );
        if n["kind"] == "novelty" {
            let l = &listed[g["game"].as_str().unwrap()];
            for key in ["move", "before", "sameYear", "followed", "uniqueFrom"] {
                assert_eq!(n[key], l[key], "{key}: {line}");
            }
            novelties += 1;
        } else {
            assert!(!listed.contains_key(g["game"].as_str().unwrap()));
        }
    }
    assert_eq!(novelties, listed.len());
    let (game, n) = listed.iter().next().unwrap();
    let show = check(&["show", game, "--db", "testdata", "--novelty"], 0);
    assert!(
        show.contains(&format!("novelty at move {}:", n["move"])),
        "{show}"
    );
    let out = wthor(&["search", "--db", "testdata", "--novelty"]);
    assert_eq!(out.status.code(), Some(2));
}
