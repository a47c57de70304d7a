//! `cargo xtask e2e`, and a step of `cargo xtask test` and `ci`: the
//! end-to-end test of `wthor serve` in a real browser
//! (`crates/wthor-server/e2e/browser.mjs`): the system's headless Chromium
//! (Debian's `chromium`) driven by `playwright-core` from npm, installed
//! with `npm ci` into `target/e2e-node` (the lock file pins it; no browser
//! is downloaded). It starts `wthor serve` over `testdata/` on a free
//! loopback port, plays moves by clicking, checks the explorer's table
//! against the API, steps through a game with the keyboard, finds a player
//! through the autocomplete, downloads the CSV and compares it with `wthor
//! export`; screenshots go to `target/e2e/`.
//!
//! Without a Chromium (or without node and npm) the step says plainly that
//! it skipped; under CI (`CI` set) it fails instead: CI always runs it
//! (`.ci/run` installs both).

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::util;

/// The Chromium to drive: `CHROMIUM`, else the first of the usual names on
/// `PATH`.
fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| on_path(name))
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Skips (with a plain message) or, under CI, fails.
fn missing(what: &str) -> Result<()> {
    if std::env::var_os("CI").is_some() {
        bail!("{what}: CI runs the browser test (apt-get install chromium nodejs npm)");
    }
    eprintln!(
        "e2e: SKIPPED the browser test of wthor serve: {what} (apt-get install chromium nodejs npm)"
    );
    Ok(())
}

/// `cargo xtask e2e`: builds the tests' `wthor` (as the test build does)
/// and runs the browser test.
pub(crate) fn run() -> Result<()> {
    run_with(crate::ci::build_tests)
}

/// The browser test on the `wthor` the test build already made (`cargo
/// xtask test` and `ci`, after their build step): no cargo call, which
/// would wait for the build lock that maturin holds beside it.
pub(crate) fn run_built() -> Result<()> {
    run_with(|| Ok(()))
}

fn run_with(build: impl FnOnce() -> Result<()>) -> Result<()> {
    let Some(chromium) = find_chromium() else {
        return missing("no Chromium found (set CHROMIUM to use another)");
    };
    let (Some(node), Some(npm)) = (on_path("node"), on_path("npm")) else {
        return missing("no node and npm found");
    };
    let root = util::project_root();
    let source = root.join("crates/wthor-server/e2e");
    let work = root.join("target/e2e-node");
    std::fs::create_dir_all(&work).with_context(|| format!("creating {}", work.display()))?;
    let lock_changed = copy_if_changed(&source, &work, "package-lock.json")?;
    copy_if_changed(&source, &work, "package.json")?;
    copy_if_changed(&source, &work, "browser.mjs")?;
    if lock_changed || !work.join("node_modules/playwright-core").is_dir() {
        util::run(
            Command::new(&npm)
                .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
                .current_dir(&work),
        )?;
    }
    build()?;
    let wthor = util::target_dir().join("debug").join("wthor");
    util::run(
        Command::new(node)
            .arg("browser.mjs")
            .current_dir(&work)
            .env("WTHOR_BIN", &wthor)
            .env("CHROMIUM", &chromium)
            .env("WORKSPACE", &root)
            .env("SHOTS", root.join("target/e2e")),
    )
}

/// Copies `dir/name` into `work` unless the same bytes are there; whether
/// it copied.
fn copy_if_changed(dir: &Path, work: &Path, name: &str) -> Result<bool> {
    let from = dir.join(name);
    let bytes = std::fs::read(&from).with_context(|| format!("reading {}", from.display()))?;
    let to = work.join(name);
    if std::fs::read(&to).is_ok_and(|old| old == bytes) {
        return Ok(false);
    }
    std::fs::write(&to, bytes).with_context(|| format!("writing {}", to.display()))?;
    Ok(true)
}
