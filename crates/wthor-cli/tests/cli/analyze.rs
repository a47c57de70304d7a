//! `wthor analyze`: the table (snapshot), the JSON object against its own
//! rules, the theoretical score checked (a wrong one is a finding), and
//! the games it refuses.

use crate::info::stderr;
use crate::{check, workspace_root, wthor};

#[test]
fn analyze_table_of_a_fixture_game() {
    insta::assert_snapshot!(check(
        &[
            "analyze",
            "testdata/WTH_2001.wtb",
            "3",
            "--empties",
            "16",
            "--threads",
            "1"
        ],
        0
    ));
}

#[test]
fn analyze_jsonl_holds_every_move_with_its_loss_and_the_check() {
    for game in ["2001:3", "2002:0", "2002:1"] {
        let text = check(
            &[
                "analyze",
                game,
                "--db",
                "testdata",
                "--empties",
                "14",
                "--format",
                "jsonl",
            ],
            0,
        );
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["game"], game);
        assert_eq!(v["empties"], 14);
        let moves = v["moves"].as_array().unwrap();
        assert!(moves.len() > 20, "{game}");
        for (i, m) in moves.iter().enumerate() {
            let value = m["value"].as_i64().unwrap();
            let played = m["played"].as_i64().unwrap();
            assert_eq!(m["loss"].as_i64().unwrap(), value - played, "{game} {m}");
            assert!(m["loss"].as_i64().unwrap() >= 0, "{game} {m}");
            assert_eq!(
                m["exact"],
                m["empties"].as_u64().unwrap() <= 14,
                "{game} {m}"
            );
            if i > 0 {
                assert!(m["index"].as_u64() > moves[i - 1]["index"].as_u64());
            }
        }
        // 14 empties is short of the files' depth (16): no check.
        assert!(v["theoretical"].is_null(), "{game}");
    }
}

#[test]
fn a_wrong_theoretical_score_is_reported_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(workspace_root().join("testdata/WTH_2001.wtb")).unwrap();
    // Game #3's theoretical score (byte 7 of its record) made wrong.
    bytes[16 + 68 * 3 + 7] -= 2;
    let file = dir.path().join("WTH_2001.wtb");
    std::fs::write(&file, bytes).unwrap();
    let f = file.to_str().unwrap();
    let text = check(&["analyze", f, "3", "--empties", "16"], 1);
    assert!(
        text.contains(
            "theoretical score at 16 empties: stored black 55, solved black 57: mismatch"
        ),
        "{text}"
    );
    let ok = check(
        &["analyze", "testdata/WTH_2001.wtb", "3", "--empties", "16"],
        0,
    );
    assert!(ok.contains("stored black 57, solved black 57: ok"), "{ok}");
}

#[test]
fn ten_by_ten_and_illegal_games_are_refused() {
    let out = wthor(&["analyze", "testdata/WTH_2001.wtd", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("WTH_2001.wtd:0: a 10x10 game: only 8x8 games are analysed"),
        "{}",
        stderr(&out)
    );
    let text = check(&["analyze", "testdata/malformed/illegal_move.wtb", "0"], 1);
    assert!(text.contains("illegal move 2 (a1)"), "{text}");
    let out = wthor(&["analyze", "testdata/WTH_2001.wtb", "99"]);
    assert_eq!(out.status.code(), Some(2));
}
