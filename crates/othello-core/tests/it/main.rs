//! Integration tests of `othello-core`: one test binary, one module per topic.

use std::path::PathBuf;

/// The real-data directory from `WTHOR_DATA`: `None` (and a message) when the
/// variable is unset, a failed test when it names a missing folder.
#[allow(dead_code)]
pub(crate) fn wthor_data() -> Option<PathBuf> {
    match std::env::var_os("WTHOR_DATA") {
        None => {
            eprintln!("skipped: WTHOR_DATA not set");
            None
        }
        Some(dir) => {
            let dir = PathBuf::from(dir);
            assert!(
                dir.is_dir(),
                "WTHOR_DATA={} is not a directory",
                dir.display()
            );
            Some(dir)
        }
    }
}

mod differential;
mod midgame;
mod perft;
mod replay;
mod signed;
mod solver;
