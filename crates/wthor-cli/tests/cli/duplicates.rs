//! `wthor duplicates`: the copies of the fixture games, and a directory
//! made here where games of 2002 were entered twice (one turned).

use std::path::Path;

use othello_core::symmetry::Symmetry;
use othello_core::{Size, Square};

use crate::{check, workspace_root, wthor};

#[track_caller]
fn snapshot(args: &[&str], name: &str) {
    let out = check(args, 0);
    insta::assert_snapshot!(name, out);
}

#[test]
fn the_fixture_copies_in_every_format() {
    snapshot(&["duplicates", "--db", "testdata"], "duplicates_testdata");
    snapshot(
        &["duplicates", "--db", "testdata", "--format", "csv"],
        "duplicates_testdata_csv",
    );
    // The games where black has 9 discs: 1 group of 2 copies.
    snapshot(
        &[
            "duplicates",
            "--db",
            "testdata",
            "--black-discs",
            "9",
            "--format",
            "jsonl",
        ],
        "duplicates_nine_discs_jsonl",
    );
}

#[test]
fn filters_choose_the_games_compared() {
    // 2001 and 2002 hold no copy: only the counts.
    snapshot(
        &["duplicates", "--db", "testdata", "--year", "..2002"],
        "duplicates_no_copy",
    );
    // The Rabbit, f5d6c5f4e3 in any orientation: 3 of the 6 groups, in
    // two orientations (e6f4e3d6c5 too), one with a copy in 2008.
    snapshot(
        &[
            "duplicates",
            "--db",
            "testdata",
            "--opening",
            "f5d6c5f4e3",
            "--format",
            "csv",
        ],
        "duplicates_rabbit_csv",
    );
}

/// The first four games of `WTH_2002.wtb` again in `WTH_2002_copy.wtb` (same
/// players and year: double entries), the second one turned by the half
/// turn, the third with other players.
fn entered_twice(dir: &Path) {
    let testdata = workspace_root().join("testdata");
    for name in ["WTHOR.JOU", "WTHOR.TRN", "WTH_2002.wtb"] {
        std::fs::copy(testdata.join(name), dir.join(name)).unwrap();
    }
    let bytes = std::fs::read(testdata.join("WTH_2002.wtb")).unwrap();
    let mut extra = bytes[..16 + 4 * 68].to_vec();
    extra[4..8].copy_from_slice(&4u32.to_le_bytes());
    let second = &mut extra[16 + 68..16 + 2 * 68];
    for b in &mut second[8..] {
        if let Some(sq) = Square::from_wthor(*b, Size::Eight) {
            *b = Symmetry::ROTATE_180
                .square(sq, Size::Eight)
                .to_wthor(Size::Eight);
        }
    }
    let third = &mut extra[16 + 2 * 68..16 + 3 * 68];
    // Black's player number (bytes 2–3) changed.
    third[2] ^= 1;
    std::fs::write(dir.join("WTH_2002_copy.wtb"), extra).unwrap();
}

#[test]
fn a_game_entered_twice_is_a_double_entry() {
    let dir = tempfile::tempdir().unwrap();
    entered_twice(dir.path());
    let db = dir.path().to_str().unwrap();
    snapshot(&["duplicates", "--db", db], "duplicates_entered_twice");
    // Export without the later copies.
    let all = check(&["export", "--db", db, "--format", "transcript"], 0);
    let kept = check(
        &["export", "--db", db, "--format", "transcript", "--dedupe"],
        0,
    );
    assert_eq!(all.lines().count(), 24);
    assert_eq!(kept.lines().count(), 20);
    let expected: String = all.lines().take(20).map(|l| format!("{l}\n")).collect();
    assert_eq!(kept, expected);
    // Parquet too: the games written are counted on stderr.
    let out_path = dir.path().join("kept.parquet");
    let out = out_path.to_str().unwrap();
    let run = wthor(&["export", "--db", db, "--dedupe", "-o", out]);
    assert_eq!(run.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&run.stderr),
        format!("wthor: {out}: 20 games written\n")
    );
}

#[test]
fn a_missing_database_is_a_usage_error() {
    let out = wthor(&["duplicates", "--db", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
}
