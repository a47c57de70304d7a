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

/// The novelty move's value: `wthor show --novelty` searches it (exact
/// near the end: a best move loses 0, another more); `wthor novelties`
/// takes the losses of the analysis logs given, the same, and leaves the
/// games they do not judge, or of another database, without (null); a
/// 10x10 game has none.
#[test]
fn novelty_values_from_the_engine_and_the_logs() {
    let dir = tempfile::tempdir().unwrap();
    let mut logs = Vec::new();
    let mut shown = Vec::new();
    // 2004:31 plays a best move at its novelty (move 55, 6 empties),
    // 2004:130 loses 2 discs at its (move 43, 18 empties).
    for (game, sentence, filters) in [
        (
            "2004:31",
            "novelty at move 55:",
            [
                "--black",
                "zebra",
                "--white",
                "lefèvre",
                "--black-discs",
                "46..46",
            ],
        ),
        (
            "2004:130",
            "novelty at move 43:",
            [
                "--black",
                "nakamura",
                "--white",
                "saio",
                "--black-discs",
                "30..30",
            ],
        ),
    ] {
        let show = check(&["show", game, "--db", "testdata", "--novelty"], 0);
        assert!(show.contains(sentence), "{show}");
        let words = show.lines().find(|l| l.contains(sentence)).unwrap();
        let loss: i32 = words
            .rsplit("loss ")
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        assert!(words.contains("(exact), loss"), "{words}");
        shown.push((game, loss));
        let log = dir.path().join(format!("{}.jsonl", game.replace(':', "_")));
        let log = log.to_str().unwrap().to_owned();
        // A batch of that one game (exact from 20 empties).
        let mut args = vec![
            "analyze",
            "--db",
            "testdata",
            "--year",
            "2004",
            "--estimate-depth",
            "2",
            "--results",
            &log,
        ];
        args.extend(filters);
        check(&args, 0);
        let line: serde_json::Value =
            serde_json::from_str(std::fs::read_to_string(&log).unwrap().trim()).unwrap();
        assert_eq!(line["game"], game, "one game: {line}");
        logs.push(log);
    }
    assert_eq!(shown[0].1, 0, "a best move");
    assert!(shown[1].1 > 0, "{shown:?}");
    let rows = |db: &str| -> (std::collections::HashMap<String, serde_json::Value>, String) {
        let mut args = vec![
            "novelties",
            "--db",
            db,
            "--year",
            "2004",
            "--top",
            "0",
            "--format",
            "jsonl",
            "--analysis",
        ];
        args.extend(logs.iter().map(String::as_str));
        let out = wthor(&args);
        assert_eq!(out.status.code(), Some(0));
        let rows = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .map(|v| (v["game"].as_str().unwrap().to_owned(), v))
            .collect();
        (rows, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (here, _) = rows("testdata");
    for (game, loss) in &shown {
        let r = &here[*game];
        assert_eq!(r["loss"], *loss, "{r}");
        assert_eq!(r["exact"], true, "{r}");
        assert!(r["value"].is_null(), "the logs keep no values: {r}");
    }
    let others = here
        .iter()
        .filter(|(g, _)| !shown.iter().any(|(s, _)| s == g));
    for (_, r) in others {
        for key in ["value", "loss", "exact", "valueDepth"] {
            assert!(r[key].is_null(), "not in the logs: {r}");
        }
    }
    // Another database with the same games (its 2004 file made on
    // another day): the logs' games are not its own.
    let other = dir.path().join("db");
    std::fs::create_dir(&other).unwrap();
    for f in std::fs::read_dir(crate::workspace_root().join("testdata")).unwrap() {
        let f = f.unwrap();
        if f.file_type().unwrap().is_file() {
            std::fs::copy(f.path(), other.join(f.file_name())).unwrap();
        }
    }
    let file = other.join("WTH_2004.wtb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[3] += 1; // the header's day of creation
    std::fs::write(&file, bytes).unwrap();
    let (there, err) = rows(other.to_str().unwrap());
    assert!(err.contains("not games of this database"), "{err}");
    for (game, _) in &shown {
        let (r, h) = (&there[*game], &here[*game]);
        assert_eq!(r["move"], h["move"], "the same novelty: {r}");
        assert!(r["loss"].is_null() && r["value"].is_null(), "{r}");
    }
    // The table shows them.
    let mut args = vec![
        "novelties",
        "--db",
        "testdata",
        "--year",
        "2004",
        "--top",
        "0",
        "--analysis",
    ];
    args.extend(logs.iter().map(String::as_str));
    let table = check(&args, 0);
    assert!(
        table.lines().next().unwrap().contains("value loss"),
        "{table}"
    );
    let row = table.lines().find(|l| l.starts_with("2004:130 ")).unwrap();
    assert!(row.contains(&format!(" - {:>4}  ", shown[1].1)), "{row}");
    // A 10x10 game: no novelty, no value.
    let ten = check(&["show", "testdata/WTH_2001.wtd", "3", "--novelty"], 0);
    assert!(
        ten.contains("no novelty and no value: a 10x10 game"),
        "{ten}"
    );
}
