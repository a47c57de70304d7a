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
    assert!(
        !wthor(&["perft", "--size", "12", "--depth", "2"])
            .status
            .success()
    );
    assert!(
        !wthor(&["perft", "--depth", "2", "--threads", "0"])
            .status
            .success()
    );
}
