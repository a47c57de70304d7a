//! `wthor report player` on the fixture database: the tree's counts are
//! those of `wthor search --count` with the same filters, the archive's
//! too; the formats; bad input.

use crate::info::stderr;
use crate::{check, wthor};

fn count(args: &[&str]) -> u64 {
    check(
        &[&["search", "--db", "testdata", "--count"], args].concat(),
        0,
    )
    .trim()
    .parse()
    .unwrap()
}

/// Every line of the tree: the player's games through it are `wthor
/// search` with the player's colour filter and the line as an opening
/// (the 8 symmetries: the line's f5-first image of every game), and the
/// archive's are the same search without the player.
#[test]
fn the_tree_counts_what_search_counts() {
    for (side, flag) in [("black", "--black"), ("white", "--white")] {
        let out = check(
            &[
                "report", "player", "nakamura", "--db", "testdata", "--as", side, "--format",
                "json",
            ],
            0,
        );
        let r: serde_json::Value = serde_json::from_str(&out).unwrap();
        let name = r["player"].as_str().unwrap();
        assert_eq!(name, "Takuji Nakamura");
        assert_eq!(
            r["tree"]["player"]["games"].as_u64().unwrap(),
            count(&[flag, name, "--exact"])
        );
        let mut lines = vec![&r["tree"]];
        let mut checked = 0;
        while let Some(l) = lines.pop() {
            lines.extend(l["lines"].as_array().unwrap());
            let moves = l["moves"].as_str().unwrap();
            if moves.is_empty() || checked > 12 {
                continue;
            }
            checked += 1;
            assert_eq!(
                l["player"]["games"].as_u64().unwrap(),
                count(&[flag, name, "--exact", "--opening", moves]),
                "{side} {moves}"
            );
            assert_eq!(
                l["archive"]["games"].as_u64().unwrap(),
                count(&["--opening", moves]),
                "{moves}"
            );
            // A line shown is followed by at least 5% of the games.
            assert!(
                l["player"]["games"].as_f64().unwrap()
                    >= 0.05 * r["tree"]["player"]["games"].as_f64().unwrap()
            );
        }
        assert!(checked > 5, "{side}: {checked} lines");
        let results: u64 = ["againstStronger", "againstWeaker", "againstUnrated"]
            .iter()
            .map(|k| r[k]["games"].as_u64().unwrap())
            .sum();
        assert_eq!(results, r["tree"]["player"]["games"].as_u64().unwrap());
    }
}

#[test]
fn markdown_and_bad_input() {
    let md = check(
        &[
            "report", "player", "saio", "--db", "testdata", "--as", "white", "--since", "2002",
        ],
        0,
    );
    assert!(
        md.starts_with("# Saio (romano) as white since 2002\n"),
        "{md}"
    );
    for part in [
        "## Lines",
        "## Where Saio (romano) leaves",
        "| rated above Saio (romano) |",
    ] {
        assert!(md.contains(part), "{part}\n{md}");
    }
    assert!(md.contains("](/?play=f5"), "links to the explorer\n{md}");
    // A name nobody has: the closest names, exit 2.
    let out = wthor(&["report", "player", "Takuji Nakamurx", "--db", "testdata"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Takuji Nakamura"), "{}", stderr(&out));
    // No game with that colour in those years.
    let out = wthor(&[
        "report", "player", "nakamura", "--db", "testdata", "--since", "2100",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("has no 8x8 game with black since 2100"),
        "{}",
        stderr(&out)
    );
}

/// `wthor analyze` of `filters`' games into a results log in `dir`
/// (exact from 10 empties: quick); its path.
fn analysis_log(dir: &std::path::Path, filters: &[&str]) -> String {
    let log = dir.join("results.jsonl");
    let log = log.to_str().unwrap().to_owned();
    check(
        &[
            &[
                "analyze",
                "--db",
                "testdata",
                "--empties",
                "10",
                "--estimate-depth",
                "2",
                "--results",
                &log,
            ],
            filters,
        ]
        .concat(),
        0,
    );
    log
}

/// The HTML page: self-contained (no script, no outside file), every line
/// of the JSON tree a link to the explorer with the player's filter, the
/// worst mistakes those of the log (the largest loss of the player's
/// moves with that colour).
#[test]
fn html_is_self_contained_and_links_every_line_to_the_explorer() {
    let dir = tempfile::tempdir().unwrap();
    let log = analysis_log(dir.path(), &["--player", "nakamura", "--year", "2006"]);
    let args = [
        "report",
        "player",
        "nakamura",
        "--db",
        "testdata",
        "--as",
        "white",
        "--since",
        "2006",
        "--analysis",
        &log,
    ];
    let html = check(&[&args[..], &["--format", "html"]].concat(), 0);
    assert!(html.starts_with("<!doctype html>\n"), "{html}");
    assert!(html.trim_end().ends_with("</body></html>"));
    for outside in ["<script", "<link", "src=", "@import", "url("] {
        assert!(!html.contains(outside), "{outside}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&check(&[&args[..], &["--format", "json"]].concat(), 0)).unwrap();
    fn lines(l: &serde_json::Value, out: &mut Vec<String>) {
        for c in l["lines"].as_array().unwrap() {
            out.push(c["moves"].as_str().unwrap().to_owned());
            lines(c, out);
        }
    }
    let mut all = Vec::new();
    lines(&json["tree"], &mut all);
    assert!(all.len() > 3, "{all:?}");
    assert_eq!(html.matches("<li>").count(), all.len());
    for moves in &all {
        let href = format!(
            "href=\"http://127.0.0.1:8080/?play={moves}&amp;white=Takuji%20Nakamura&amp;exact=true\""
        );
        assert!(html.contains(&href), "{href}");
    }
    // The mistakes: the log's largest losses of white's moves by Nakamura.
    let mut losses: Vec<i64> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|g| g["white"] == "Takuji Nakamura")
        .flat_map(|g| {
            g["moves"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["side"] == "white")
                .map(|m| m["loss"].as_i64().unwrap())
                .filter(|&l| l > 0)
                .collect::<Vec<_>>()
        })
        .collect();
    losses.sort_unstable_by(|a, b| b.cmp(a));
    losses.truncate(10);
    let got: Vec<i64> = json["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["loss"].as_i64().unwrap())
        .collect();
    assert!(!got.is_empty());
    assert_eq!(got, losses);
    assert!(html.contains("<h2>Worst endgame mistakes</h2>"));
    let md = check(&[&args[..], &["--format", "md"]].concat(), 0);
    assert!(md.contains("## Worst endgame mistakes"), "{md}");
}

/// Logs of another database: its games are left out with a warning; the
/// report is made.
#[test]
fn a_log_of_another_database_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let log = analysis_log(
        dir.path(),
        &["--player", "nakamura", "--year", "2005..2006"],
    );
    let out = wthor(&[
        "report",
        "player",
        "nakamura",
        "--db",
        "testdata/WTH_2005.wtb",
        "--analysis",
        &log,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("analysed games are not games of this database"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("## Worst endgame mistakes"));
}

/// A player with one game with that colour: said plainly, exit 2, no tree.
#[test]
fn a_player_with_one_game_is_said_plainly() {
    use wthor_format::{BoardSize, Game, Header, write_game_file};
    let dir = tempfile::tempdir().unwrap();
    for f in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            crate::workspace_root().join("testdata").join(f),
            dir.path().join(f),
        )
        .unwrap();
    }
    // Edax (2) has black once, against Léa Fontaine (36) twice as white.
    let moves = ["f5", "d6", "c3", "d3", "c4"];
    let games = [
        Game::from_squares(0, 2, 36, 40, 40, &moves, BoardSize::Eight).unwrap(),
        Game::from_squares(0, 36, 2, 20, 20, &moves, BoardSize::Eight).unwrap(),
        Game::from_squares(0, 36, 2, 50, 50, &moves, BoardSize::Eight).unwrap(),
    ];
    let header = Header {
        year: 2010,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2010.wtb"), &bytes).unwrap();
    let out = crate::info::wthor_in(
        dir.path(),
        &["report", "player", "edax", "--db", ".", "--format", "html"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        "wthor: report: Edax (delorme) has only one 8x8 game with black (2010:0): too few for a report\n"
    );
    // As white, two games: a report (too few for lines, said so).
    let out = crate::info::wthor_in(
        dir.path(),
        &["report", "player", "edax", "--db", ".", "--as", "white"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("2 games"));
}
