//! `cargo xtask ci`: what `.ci/run` runs, in order, failing fast.

use anyhow::{Context, Result};

use crate::{fixtures, util};

/// The README's test command, run exactly as written there.
pub(crate) const TEST_COMMAND: &[&str] = &["test", "--workspace"];

pub(crate) fn run() -> Result<()> {
    match std::env::var_os("WTHOR_DATA") {
        Some(dir) => eprintln!("WTHOR_DATA={}", dir.to_string_lossy()),
        None => {
            eprintln!("note: WTHOR_DATA is not set: the tests that read the real files will skip")
        }
    }

    util::header("format: cargo fmt --all --check");
    util::run(util::cargo().args(["fmt", "--all", "--check"]))
        .context("code is not formatted: run `cargo fmt --all`")?;

    util::header("lint: cargo clippy --workspace --all-targets -- -D warnings");
    util::run(util::cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--",
        "-D",
        "warnings",
    ]))?;

    util::header("test: cargo test --workspace");
    util::run(util::cargo().args(TEST_COMMAND))?;

    util::header("fixtures: cargo xtask fixtures --check");
    fixtures::check()?;

    util::header("docs: RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps");
    util::run(
        util::cargo()
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;

    util::header("ci: all steps passed");
    Ok(())
}
