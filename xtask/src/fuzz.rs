//! `cargo xtask fuzz`: time-boxed runs of the targets of the `fuzz/` project.
//!
//! Fuzzing needs a nightly toolchain (libFuzzer's coverage flags are
//! nightly-only). With `cargo-fuzz` installed each target runs through
//! `cargo fuzz run` (with AddressSanitizer); without it, the task builds the
//! targets itself with the coverage flags cargo-fuzz uses (no sanitizer:
//! panics are what safe Rust can show) and runs the libFuzzer binaries. Without
//! nightly it says so and succeeds, so that a machine with only stable Rust is
//! not an error. Each target starts from its corpus in `fuzz/corpus/<target>`
//! plus the fixture database in `testdata/` (good and malformed files) as
//! seeds; a crash leaves its input in `fuzz/artifacts/<target>/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::util;

pub(crate) const DEFAULT_SECONDS: u64 = 60;

/// The flags `cargo fuzz build` passes to rustc, less the sanitizer.
const COVERAGE_RUSTFLAGS: &str = "--cfg fuzzing \
    -Cpasses=sancov-module \
    -Cllvm-args=-sanitizer-coverage-level=4 \
    -Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
    -Cllvm-args=-sanitizer-coverage-pc-table \
    -Cllvm-args=-sanitizer-coverage-trace-compares \
    -Cdebug-assertions \
    -Coverflow-checks";

pub(crate) fn run(seconds: u64, only: Option<&str>) -> Result<()> {
    let fuzz_dir = util::project_root().join("fuzz");
    if !fuzz_dir.join("Cargo.toml").is_file() {
        eprintln!("skipped: there is no fuzz/ project");
        return Ok(());
    }
    if !util::succeeds(Command::new("rustup").args(["which", "--toolchain", "nightly", "cargo"])) {
        eprintln!(
            "skipped: fuzzing needs a nightly toolchain \
             (`rustup toolchain install nightly`, then `cargo install cargo-fuzz`)"
        );
        return Ok(());
    }
    let cargo_fuzz = util::succeeds(nightly_cargo().args(["fuzz", "--version"]));
    if !cargo_fuzz {
        eprintln!(
            "note: cargo-fuzz is not installed: building the targets with the coverage \
             flags directly, without AddressSanitizer (`cargo install cargo-fuzz` for it)"
        );
    }

    let all = targets(&fuzz_dir)?;
    let targets: Vec<&String> = match only {
        Some(name) => {
            let Some(t) = all.iter().find(|t| *t == name) else {
                bail!(
                    "no fuzz target {name:?}; the targets are: {}",
                    all.join(", ")
                );
            };
            vec![t]
        }
        None => all.iter().collect(),
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
        let artifacts = fuzz_dir.join("artifacts").join(target);
        for dir in [&corpus, &artifacts] {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let seeds = util::project_root().join("testdata");
        let libfuzzer_args = [
            format!("-max_total_time={seconds}"),
            format!("-artifact_prefix={}/", artifacts.display()),
        ];
        let result = if cargo_fuzz {
            util::run(
                nightly_cargo()
                    .current_dir(&fuzz_dir)
                    .args(["fuzz", "run", target.as_str()])
                    .args([&corpus, &seeds])
                    .arg("--")
                    .args(&libfuzzer_args),
            )
        } else {
            let binary = build(&fuzz_dir, target)?;
            util::run(
                Command::new(binary)
                    .args([&corpus, &seeds])
                    .args(&libfuzzer_args),
            )
        };
        result.with_context(|| {
            format!("fuzz target {target} failed: the input is under fuzz/artifacts/{target}/")
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

/// Builds `target` with the coverage flags; returns the binary. The host
/// triple is passed explicitly, as cargo-fuzz does, so that `RUSTFLAGS` do not
/// reach build scripts and proc macros (which are not linked with libFuzzer).
fn build(fuzz_dir: &Path, target: &str) -> Result<PathBuf> {
    let out = Command::new("rustup")
        .args(["run", "nightly", "rustc", "-vV"])
        .output()
        .context("could not run the nightly rustc")?;
    let version = String::from_utf8_lossy(&out.stdout);
    let Some(host) = version.lines().find_map(|l| l.strip_prefix("host: ")) else {
        bail!("`rustc -vV` names no host triple");
    };
    let target_dir = fuzz_dir.join("target").join("xtask");
    util::run(
        nightly_cargo()
            .current_dir(fuzz_dir)
            .args(["build", "--release", "--bin", target, "--target", host])
            .arg("--target-dir")
            .arg(&target_dir)
            .env("RUSTFLAGS", COVERAGE_RUSTFLAGS),
    )?;
    Ok(target_dir.join(host).join("release").join(target))
}

/// The fuzz targets: the files of `fuzz/fuzz_targets/` (cargo-fuzz names each
/// binary after its file).
fn targets(fuzz_dir: &Path) -> Result<Vec<String>> {
    let dir = fuzz_dir.join("fuzz_targets");
    let mut targets: Vec<String> = util::files_under(&dir, |_| true)?
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
        .collect();
    targets.sort();
    if targets.is_empty() {
        bail!("{} holds no fuzz target", dir.display());
    }
    Ok(targets)
}
