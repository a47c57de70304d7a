//! `cargo xtask fuzz`: time-boxed runs of the targets of the `fuzz/` project.
//!
//! Needs `cargo-fuzz` and a nightly toolchain (libFuzzer's sanitizer flags
//! are nightly-only); without them the task says so and succeeds, so that a
//! machine with only stable Rust is not an error. Each target starts from its
//! corpus in `fuzz/corpus/<target>` plus the fixture database in `testdata/`
//! (well-formed and malformed files) as seeds.

use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::util;

pub(crate) const DEFAULT_SECONDS: u64 = 60;

pub(crate) fn run(seconds: u64, only: Option<&str>) -> Result<()> {
    let root = util::project_root();
    let fuzz_dir = root.join("fuzz");
    if !fuzz_dir.join("Cargo.toml").is_file() {
        eprintln!("skipped: there is no fuzz/ project");
        return Ok(());
    }
    if !util::succeeds(Command::new("rustup").args(["which", "--toolchain", "nightly", "cargo"])) {
        eprintln!(
            "skipped: fuzzing needs a nightly toolchain (`rustup toolchain install nightly`)"
        );
        return Ok(());
    }
    if !util::succeeds(nightly_cargo().args(["fuzz", "--version"])) {
        eprintln!("skipped: fuzzing needs cargo-fuzz (`cargo install cargo-fuzz`)");
        return Ok(());
    }

    let targets = targets()?;
    let targets: Vec<&String> = match only {
        Some(name) => {
            let Some(t) = targets.iter().find(|t| *t == name) else {
                bail!(
                    "no fuzz target {name:?}; the targets are: {}",
                    targets.join(", ")
                );
            };
            vec![t]
        }
        None => targets.iter().collect(),
    };
    eprintln!(
        "fuzzing {} target(s) for {seconds} s each: {}",
        targets.len(),
        targets
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    for target in targets {
        util::header(&format!("fuzz: {target}"));
        let corpus = fuzz_dir.join("corpus").join(target);
        std::fs::create_dir_all(&corpus)
            .with_context(|| format!("creating {}", corpus.display()))?;
        util::run(
            nightly_cargo()
                .current_dir(&fuzz_dir)
                .args(["fuzz", "run", target.as_str()])
                .arg(&corpus)
                .arg(root.join("testdata"))
                .arg("--")
                .arg(format!("-max_total_time={seconds}")),
        )
        .with_context(|| {
            format!(
                "fuzz target {target} failed: the crashing input is under fuzz/artifacts/{target}/"
            )
        })?;
    }
    Ok(())
}

/// `cargo` of the nightly toolchain, through rustup.
fn nightly_cargo() -> Command {
    let mut cmd = Command::new("rustup");
    cmd.args(["run", "nightly", "cargo"]);
    cmd
}

/// The fuzz targets, as `cargo fuzz list` gives them.
fn targets() -> Result<Vec<String>> {
    let out = nightly_cargo()
        .current_dir(util::project_root().join("fuzz"))
        .args(["fuzz", "list"])
        .output()
        .context("could not run `cargo fuzz list`")?;
    if !out.status.success() {
        bail!(
            "`cargo fuzz list` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let targets: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect();
    if targets.is_empty() {
        bail!("`cargo fuzz list` lists no target");
    }
    Ok(targets)
}
