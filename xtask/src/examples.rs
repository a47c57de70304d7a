//! `cargo xtask examples`: the examples of the library crates
//! (`crates/*/examples/*.rs`), each run on the fixture database
//! `testdata/` or on a position, from the executables of the test build:
//! `cargo test` builds every example (to check that it compiles), so that
//! running them costs their run time only (a fraction of a second for
//! all). A step of `cargo xtask test` and `cargo xtask ci`, after the test
//! build; the first example that exits non-zero fails it, its output
//! shown.

use std::process::Command;
use std::time::Instant;

use anyhow::{Result, bail};

use crate::util;

/// Every example, by its name (its file's name under a crate's
/// `examples/`: unique in the workspace, since cargo puts every example's
/// executable in one folder), with the arguments it runs with, from the
/// workspace root. A test checks that every example is here.
pub(crate) const EXAMPLES: &[(&str, &[&str])] = &[
    // wthor-db
    ("open", &["testdata"]),
    ("search", &["testdata", "f5d6c3d3c4"]),
    ("explorer", &["testdata", "f5d6"]),
    ("game", &["testdata", "2001:1"]),
    // othello-core
    ("solve", &[]), // FFO endgame #1
    ("midgame", &["f5d6c3d3c4", "10"]),
];

/// Runs every example from `target/debug/examples` (built by
/// [`crate::ci::build_tests`], which the caller runs first).
pub(crate) fn run() -> Result<()> {
    let dir = util::target_dir().join("debug").join("examples");
    for (name, args) in EXAMPLES {
        let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
        if !exe.is_file() {
            bail!(
                "{} was not built (`cargo test --workspace --exclude wthor-py --no-run` builds it)",
                exe.display()
            );
        }
        let mut cmd = Command::new(&exe);
        cmd.args(*args).current_dir(util::project_root());
        let line = [*name]
            .iter()
            .chain(args.iter())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let start = Instant::now();
        let output = cmd.output()?;
        if !output.status.success() {
            eprint!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            bail!("the example `{line}` failed ({})", output.status);
        }
        eprintln!(
            "ok {:.2} s: {line} ({} lines)",
            start.elapsed().as_secs_f64(),
            output.stdout.iter().filter(|&&b| b == b'\n').count()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of every crate: `crates/NAME/examples/*.rs`.
    fn example_files() -> Vec<String> {
        let crates = util::project_root().join("crates");
        let mut found = Vec::new();
        for krate in std::fs::read_dir(&crates).expect("crates/ is readable") {
            let examples = krate.expect("a crate folder").path().join("examples");
            let Ok(files) = std::fs::read_dir(&examples) else {
                continue;
            };
            for file in files {
                let path = file.expect("an example file").path();
                assert!(
                    path.extension().is_some_and(|e| e == "rs"),
                    "{}: an example is one .rs file (a folder would need its place in EXAMPLES' rule)",
                    path.display()
                );
                let stem = path.file_stem().expect("a file name").to_string_lossy();
                found.push(stem.into_owned());
            }
        }
        found.sort();
        found
    }

    #[test]
    fn every_example_runs_once() {
        let files = example_files();
        let mut unique = files.clone();
        unique.dedup();
        assert_eq!(files, unique, "two crates have an example of the same name");
        let mut listed: Vec<String> = EXAMPLES.iter().map(|(n, _)| (*n).to_owned()).collect();
        listed.sort();
        assert_eq!(
            listed, files,
            "xtask/src/examples.rs' EXAMPLES lists each example of crates/*/examples once"
        );
    }
}
