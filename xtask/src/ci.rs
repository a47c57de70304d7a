//! `cargo xtask ci`: what `.ci/run` runs, in order, failing fast.
//!
//! Each step is printed as a header and timed; the first failing step ends
//! the run with a non-zero exit. Only the Rust toolchain is needed (rustfmt
//! and clippy come with rustup's default profile).

use std::time::Instant;

use anyhow::{Context, Result};

use crate::{fixtures, util};

pub(crate) fn run() -> Result<()> {
    match std::env::var_os("WTHOR_DATA") {
        Some(dir) => eprintln!("WTHOR_DATA={}", dir.to_string_lossy()),
        None => {
            eprintln!("note: WTHOR_DATA is not set: the tests that read the real files will skip")
        }
    }
    let start = Instant::now();
    step("format: cargo fmt --all --check", || {
        util::run(util::cargo().args(["fmt", "--all", "--check"]))
            .context("code is not formatted: run `cargo fmt --all`")
    })?;
    step(
        "lint: cargo clippy --workspace --all-targets -- -D warnings",
        || {
            util::run(util::cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]))
        },
    )?;
    // The README's test command, exactly as written there.
    step("test: cargo test --workspace", || {
        util::run(util::cargo().args(["test", "--workspace"]))
    })?;
    step("fixtures: cargo xtask fixtures --check", fixtures::check)?;
    step(
        "docs: RUSTDOCFLAGS='-D warnings' cargo doc --workspace --no-deps",
        || {
            util::run(
                util::cargo()
                    .args(["doc", "--workspace", "--no-deps"])
                    .env("RUSTDOCFLAGS", "-D warnings"),
            )
        },
    )?;
    eprintln!(
        "\nci: every step passed in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Runs one step between a header and a line with its outcome and time.
fn step(title: &str, f: impl FnOnce() -> Result<()>) -> Result<()> {
    util::header(title);
    let start = Instant::now();
    let result = f();
    let outcome = if result.is_ok() { "ok" } else { "FAILED" };
    eprintln!(
        "---- {outcome} in {:.1} s: {title}",
        start.elapsed().as_secs_f64()
    );
    result
}
