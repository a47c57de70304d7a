//! Integration tests of the `wthor` binary: one test binary, one module per
//! subcommand (each module owned by the issue that builds its command).

mod analyze;
mod convert;
mod duplicates;
mod export;
mod help;
mod history;
mod import;
mod info;
mod install;
mod interrupt;
mod no_panic;
mod novelties;
mod openings;
mod perft;
mod puzzles;
mod ratings;
mod replay;
mod report;
mod results;
mod search;
mod serve;
mod show;
mod solve;
mod stats;
mod stream;
mod validate;

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs the `wthor` binary with `args` from the workspace root.
pub(crate) fn wthor(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(args)
        .current_dir(workspace_root())
        .env("XDG_CACHE_HOME", test_cache())
        .output()
        .expect("the wthor binary runs")
}

/// The user's cache directory of the commands the tests run (the kept
/// ratings go there): under the build's folder for tests, not the home.
pub(crate) fn test_cache() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cache")
}

/// Runs `wthor ARGS`, checks its exit code (showing both outputs when it
/// differs) and returns its standard output.
#[track_caller]
pub(crate) fn check(args: &[&str], code: i32) -> String {
    let out = wthor(args);
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {}\nstderr: {}",
        info::stdout(&out),
        info::stderr(&out)
    );
    info::stdout(&out)
}

/// The workspace root (where `testdata/` is).
pub(crate) fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub(crate) use wthor_test_data::wthor_data;

#[test]
fn help_lists_the_subcommands() {
    let out = wthor(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for cmd in help::COMMANDS {
        assert!(text.contains(cmd), "--help lacks {cmd}");
    }
}

/// `--threads` takes 1 to 256 wherever it exists, with one range message
/// (1000 was accepted, and slowed a solve from 0.3 s to 5 s on 2 cores).
#[test]
fn threads_beyond_the_bound_are_refused_everywhere() {
    let commands: [&[&str]; 6] = [
        &[
            "solve",
            "--game",
            "testdata/WTH_2001.wtb",
            "3",
            "--empties",
            "14",
        ],
        &["analyze", "testdata/WTH_2001.wtb", "3"],
        &[
            "import",
            "testdata/WTH_2001.wtb",
            "--into",
            "x",
            "--dry-run",
        ],
        &["perft", "--depth", "2"],
        &["puzzles", "--verify", "testdata/Solitaires_12.pzz"],
        &["validate", "--solve", "testdata/WTH_2001.wtb"],
    ];
    for args in commands {
        for n in ["257", "1000"] {
            let mut all = args.to_vec();
            all.extend(["--threads", n]);
            let out = wthor(&all);
            assert_eq!(out.status.code(), Some(2), "{all:?}");
            assert_eq!(out.stdout, b"", "{all:?}");
            assert!(
                String::from_utf8_lossy(&out.stderr).starts_with(&format!(
                    "error: invalid value '{n}' for '--threads <N>': {n} threads is out of \
                     range: from 1 to 256 (more threads than cores only slow the search; leave \
                     --threads out for all cores)\n"
                )),
                "{all:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
