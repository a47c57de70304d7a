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
