//! `wthor replay`.

use crate::validate::{WIPEOUT, write_sample};
use crate::wthor;

#[test]
fn a_transcript_prints_every_position() {
    let moves = WIPEOUT.concat().to_uppercase();
    let out = wthor(&["replay", "--moves", &moves]);
    assert!(out.status.success());
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.starts_with("start\n  a b c d e f g h\n"), "{t}");
    assert!(t.contains("1. black d3\n"), "{t}");
    assert!(t.contains("9. black f4\n"), "{t}");
    assert!(t.contains("status: finished\n"));
    assert!(t.contains("discs: black 13, white 0\n"));
    assert!(t.contains("score (WTHOR rule): black 64, white 0\n"));
}

#[test]
fn a_10x10_transcript() {
    let out = wthor(&["replay", "--size", "10", "--moves", "g6 pa", "--final-only"]);
    // A pass while moves exist is illegal: reported, exit 1.
    assert_eq!(out.status.code(), Some(1));
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(
        t.contains("     a b c d e f g h i j\n") || t.contains("   a b c d e f g h i j\n"),
        "{t}"
    );
    assert!(
        t.contains("illegal move 2 (pass) for white: pass while a move is legal"),
        "{t}"
    );
}

#[test]
fn a_bad_transcript_names_the_position() {
    let out = wthor(&["replay", "--moves", "f5d6z9"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "wthor: reading the transcript: bad transcript at character 5 (move 3): square off the board\n"
    );
}

#[test]
fn a_game_of_a_file_by_index() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let file = dir.path().join("WTH_2001.wtb");
    let out = wthor(&["replay", file.to_str().unwrap(), "0", "--final-only"]);
    assert!(out.status.success());
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.contains("stored score: black 64 (matches)"), "{t}");
    let out = wthor(&["replay", file.to_str().unwrap(), "1"]);
    let t = String::from_utf8(out.stdout).unwrap();
    assert!(t.contains("status: unfinished"), "{t}");
    assert!(t.contains("the stored score is the recorded result"), "{t}");
    let out = wthor(&["replay", file.to_str().unwrap(), "2"]);
    assert_eq!(out.status.code(), Some(1), "an illegal game is a finding");
    let out = wthor(&["replay", file.to_str().unwrap(), "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        format!(
            "wthor: {}: no record 4 (the file holds 4 games, indices from 0)\n",
            file.display()
        )
    );
}

/// Every command numbers moves from 1, as players count: the eighth move
/// of a transcript is move 8 wherever it is reported.
#[test]
fn moves_are_numbered_from_1_everywhere() {
    let out = wthor(&["replay", "--moves", "f5d6c3d3c4f4f6a1"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("illegal move 8 (a1) for white"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = wthor(&[
        "search",
        "--db",
        "testdata",
        "--opening",
        "f5d6c3d3c4f4f6a1",
    ]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 8 (a1)"));
    // The bad square is the 7th character and the 4th move.
    let out = wthor(&["search", "--db", "testdata", "--opening", "f5d6c3zz"]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("at character 7 (move 4)"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A game file without any names file beside it: the warning says there
/// is none (it said each number "is beyond its names file").
#[test]
fn a_game_without_names_files_says_there_are_none() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("WTH_2001.wtb");
    std::fs::copy(crate::workspace_root().join("testdata/WTH_2001.wtb"), &file).unwrap();
    let out = wthor(&["replay", file.to_str().unwrap(), "3", "--final-only"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "wthor: warning: 2001:3: <player 5>: no names file for its game file\n\
         wthor: warning: 2001:3: <player 9>: no names file for its game file\n\
         wthor: warning: 2001:3: <tournament 1>: no names file for its game file\n"
    );
    // Beside a players file that is too short: beyond it.
    let mut jou = std::fs::read(crate::workspace_root().join("testdata/WTHOR.JOU")).unwrap();
    jou.truncate(16 + 20 * 6);
    jou[8..10].copy_from_slice(&6u16.to_le_bytes());
    std::fs::write(dir.path().join("WTHOR.JOU"), jou).unwrap();
    let out = wthor(&["replay", file.to_str().unwrap(), "3", "--final-only"]);
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "wthor: warning: 2001:3: <player 9> is beyond its names file\n\
         wthor: warning: 2001:3: <tournament 1>: no names file for its game file\n"
    );
}
