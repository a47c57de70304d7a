//! `wthor openings`: the table, and the games of the fixture database
//! reaching each named opening.

use crate::wthor;

#[track_caller]
fn check(args: &[&str], name: &str) {
    let out = wthor(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stderr, b"");
    insta::assert_snapshot!(name, String::from_utf8(out.stdout).unwrap());
}

#[test]
fn lists_the_table() {
    check(&["openings"], "openings_table");
}

#[test]
fn counts_the_games_of_a_database() {
    check(&["openings", "--db", "testdata"], "openings_testdata");
}

#[test]
fn a_missing_database_is_a_usage_error() {
    let out = wthor(&["openings", "--db", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
}
