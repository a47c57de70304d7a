//! `wthor perft`.

use crate::wthor;

fn count(args: &[&str]) -> String {
    let out = wthor(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn prints_the_published_8x8_counts() {
    assert_eq!(count(&["perft", "--size", "8", "--depth", "6"]), "8200\n");
    assert_eq!(
        count(&["perft", "--depth", "9", "--threads", "2"]),
        "3005288\n"
    );
}

#[test]
fn prints_10x10_counts_sequential_and_parallel() {
    assert_eq!(
        count(&["perft", "--size", "10", "--depth", "8", "--threads", "1"]),
        "392268\n"
    );
    assert_eq!(
        count(&["perft", "--size", "10", "--depth", "9"]),
        "3045812\n"
    );
}

#[test]
fn rejects_other_sizes_and_zero_threads() {
    let out = wthor(&["perft", "--size", "12", "--depth", "2"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert_eq!(out.stdout, b"");
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(
            "error: invalid value '12' for '--size <SIZE>': the board size is 8 or 10\n"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = wthor(&["perft", "--depth", "2", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert_eq!(out.stdout, b"");
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(
            "error: invalid value '0' for '--threads <N>': 0 threads: give 1 or more, or leave --threads out for all cores\n"
        ),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
