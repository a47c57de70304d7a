//! `cargo xtask snapshots`: runs the insta snapshot tests and reviews changes.
//!
//! With `cargo-insta` installed this is `cargo insta test --workspace
//! --review` (or `--accept`). Without it, the tests run with
//! `INSTA_UPDATE=new INSTA_FORCE_PASS=1`, so that every changed snapshot is
//! written beside the old one as `*.snap.new`; the task lists them, and
//! `--accept` renames them over the old ones.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::util;

pub(crate) fn run(accept: bool) -> Result<()> {
    if util::succeeds(util::cargo().args(["insta", "--version"])) {
        let mode = if accept { "--accept" } else { "--review" };
        return util::run(util::cargo().args(["insta", "test", "--workspace", mode]));
    }

    eprintln!("cargo-insta is not installed: running the tests with INSTA_UPDATE=new");
    let tests = util::run(
        util::cargo()
            .args(["test", "--workspace"])
            .env("INSTA_UPDATE", "new")
            .env("INSTA_FORCE_PASS", "1"),
    );
    let root = util::project_root();
    let pending = pending(&root)?;
    if pending.is_empty() {
        eprintln!("no snapshot changed");
        return tests;
    }
    let rel = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    if accept {
        for new in &pending {
            if new.extension().is_some_and(|e| e == "new") {
                let old = new.with_extension("");
                std::fs::rename(new, &old)
                    .with_context(|| format!("renaming {} to {}", rel(new), rel(&old)))?;
                eprintln!("accepted {}", rel(&old));
            } else {
                eprintln!(
                    "left {}: inline snapshots need `cargo insta accept` (cargo install cargo-insta)",
                    rel(new)
                );
            }
        }
    } else {
        eprintln!("\n{} snapshot(s) changed:", pending.len());
        for new in &pending {
            eprintln!("  {}", rel(new));
        }
        eprintln!(
            "\nreview each with `git diff --no-index <file>.snap <file>.snap.new`, then\n\
             accept them all with `cargo xtask snapshots --accept`, or delete the\n\
             `.snap.new` files to reject them (`cargo install cargo-insta` gives an\n\
             interactive review instead)."
        );
    }
    tests
}

/// The `*.snap.new` and `*.pending-snap` files under `dir`, sorted; `target/`
/// and hidden folders are skipped.
fn pending(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = util::files_under(dir, |name| name.starts_with('.') || name == "target")?;
    files.retain(|path| {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        name.ends_with(".snap.new") || name.ends_with(".pending-snap")
    });
    Ok(files)
}
