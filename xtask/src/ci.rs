//! `cargo xtask ci`: what `.ci/run` runs, in order, failing fast.
//!
//! Each step is printed as a header and timed; the first failing step ends
//! the run with a non-zero exit. Steps: fmt, clippy, the test build, the
//! library crates' examples (run from that build), the workspace tests
//! (Rust, with the Python package's and the browser test of `wthor serve`
//! beside them), the othello-core tests built with
//! AVX2 (when the CPU has it), the fixture check, the docs, the
//! packaging of every crate. The Rust
//! toolchain is needed (rustfmt and clippy come with rustup's default
//! profile), and Python 3 with `venv` for the Python package's tests (which
//! install their packages from PyPI into `target/py-venv`).

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::{e2e, examples, fixtures, python, util};

/// The Rust tests: every crate but the Python extension, which has no Rust
/// tests and which maturin builds once for the Python tests (with
/// `extension-module`: built here too, pyo3 and numpy would compile twice).
const TEST_ARGS: &[&str] = &["test", "--workspace", "--exclude", "wthor-py"];

/// Builds the Rust tests without running them — and with them
/// `target/debug/wthor`, the binary the CLI, Python and browser tests run.
/// Every task that needs that binary builds it this way: `cargo build -p
/// wthor-cli` would resolve other features and compile 40 crates again
/// (52 s on a fresh clone).
pub(crate) fn build_tests() -> Result<()> {
    util::run(util::cargo().args(TEST_ARGS).arg("--no-run"))
}

/// `cargo xtask test`: `cargo test --workspace --exclude wthor-py` (with
/// `-- --include-ignored` when `WTHOR_DATA` is set: the tests on the real
/// archive), with the Python tests and the browser test beside it;
/// before them, the examples that the test build made, run.
pub(crate) fn test() -> Result<()> {
    let venv = std::thread::spawn(python::ensure_venv);
    step(
        "build: cargo test --workspace --exclude wthor-py --no-run",
        build_tests,
    )?;
    step(EXAMPLES_STEP, examples::run)?;
    rust_and_python_tests(venv)
}

/// The examples' step, after the test build that made them.
const EXAMPLES_STEP: &str =
    "examples: the library crates' examples on testdata/ (cargo xtask examples)";

/// Runs the Rust tests (compiled) while the Python extension builds and
/// its tests run beside them, and the browser test beside both (it needs
/// only the `wthor` binary, built, and waits on the browser and the server
/// more than it computes: 8 CPU-s in 24 s alone): cargo releases the build
/// lock while tests run, so on 2 cores they overlap and the CPU stays busy.
/// The Rust tests run at a lower priority ([`yielding`]): the Python chain
/// (build, then pytest) is the one that would otherwise end last. All run
/// to the end; the first failure is returned.
fn rust_and_python_tests(venv: std::thread::JoinHandle<Result<std::path::PathBuf>>) -> Result<()> {
    let python = std::thread::spawn(move || -> Result<()> {
        let venv = step("python: maturin develop (beside the Rust tests)", || {
            python::built_in(venv).map(drop)
        });
        venv.and_then(|()| {
            step("python: pytest", || {
                python::pytest(&python::venv_dir(), &[])
            })
        })
    });
    let browser = std::thread::spawn(|| {
        step(
            "e2e: the browser test of wthor serve (beside the Rust and Python tests)",
            e2e::run_built,
        )
    });
    let rust = step(
        "test: the Rust tests, two executables at a time (cargo test --workspace --exclude wthor-py; --include-ignored with WTHOR_DATA)",
        rust_tests,
    );
    let joined = |handle: std::thread::JoinHandle<Result<()>>, what: &str| match handle.join() {
        Ok(done) => done,
        Err(_) => Err(anyhow::anyhow!("the {what} panicked")),
    };
    let python = joined(python, "Python tests");
    let browser = joined(browser, "browser test");
    rust.and(python).and(browser)
}

/// The Rust tests, as `cargo test` runs them, but two test executables at
/// a time instead of one after the other: on 2 cores the Python tests end
/// first, and one executable alone leaves a core idle in its last tests
/// (the CLI's, 27 s, ends on a long one; the fixture check and the doc
/// tests are single-threaded). The executables are those the test build
/// made (`cargo test --no-run` lists them), each run from its package's
/// folder as cargo runs it, the longest first; the doc tests last (`cargo
/// test --doc`). Each one's output is printed whole when it ends; every
/// one runs, and the failures are named at the end.
fn rust_tests() -> Result<()> {
    let mut binaries = test_executables()?;
    binaries.sort_by_key(|b| {
        LONGEST
            .iter()
            .position(|name| *name == b.name)
            .unwrap_or(LONGEST.len())
    });
    let mut jobs: VecDeque<Job> = binaries.into_iter().map(Job::Binary).collect();
    jobs.push_back(Job::Doctests);
    let jobs = Mutex::new(jobs);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let Some(job) = jobs.lock().expect("no panic").pop_front() else {
                        break;
                    };
                    if let Err(e) = job.run() {
                        failed.lock().expect("no panic").push(format!("{e:#}"));
                    }
                }
            });
        }
    });
    let failed = failed.into_inner().expect("no panic");
    if failed.is_empty() {
        Ok(())
    } else {
        anyhow::bail!(
            "{} of the Rust tests failed:\n  {}",
            failed.len(),
            failed.join("\n  ")
        )
    }
}

/// The test executables that take longest, by target name, in the order
/// they start (the others follow in cargo's order).
const LONGEST: &[&str] = &["cli", "it", "db", "othello_core", "server", "xtask"];

/// A test executable of the test build.
struct TestBinary {
    /// The target's name (`cli`, `othello_core`).
    name: String,
    /// Its package's folder, where cargo runs it.
    package: PathBuf,
    executable: PathBuf,
}

enum Job {
    Binary(TestBinary),
    Doctests,
}

impl Job {
    /// Runs the job with its output captured, prints the output whole
    /// and a line with the outcome.
    fn run(&self) -> Result<()> {
        let (mut cmd, what) = match self {
            Job::Binary(b) => {
                let mut cmd = yielding(b.executable.as_os_str());
                cmd.current_dir(&b.package)
                    .args(include_ignored().iter().skip(1));
                let package = b.package.file_name().unwrap_or_default().to_string_lossy();
                (cmd, format!("{} ({package})", b.name))
            }
            Job::Doctests => {
                let mut cmd = yielding(&util::cargo_program());
                cmd.current_dir(util::project_root())
                    .args(TEST_ARGS)
                    .arg("--doc")
                    .args(include_ignored());
                (cmd, "the doc tests".to_owned())
            }
        };
        let start = Instant::now();
        let out = cmd
            .output()
            .with_context(|| format!("could not start {}", util::display(&cmd)))?;
        let outcome = if out.status.success() { "ok" } else { "FAILED" };
        let mut stdout = std::io::stdout().lock();
        let mut stderr = std::io::stderr().lock();
        // Best effort: a closed terminal does not change the outcome.
        let _ = writeln!(stderr, "$ {}", util::display(&cmd));
        let _ = stderr.write_all(&out.stderr);
        let _ = stdout.write_all(&out.stdout);
        let _ = stdout.flush();
        let _ = writeln!(
            stderr,
            "-- {outcome} in {:.1} s: {what}",
            start.elapsed().as_secs_f64()
        );
        if out.status.success() {
            Ok(())
        } else {
            anyhow::bail!("{what}: {}", out.status)
        }
    }
}

/// A command for `program` that yields the CPU to the Python and browser
/// tests beside it: run by `nice -n 10` where there is one. The Python
/// side is one chain (the extension's build, then pytest: 65-76 s of a
/// fresh clone's test phase on 2 cores) that ended last, after the Rust
/// tests; at a lower priority the Rust tests take what that chain leaves,
/// and the phase ends when the work is done. (Without `nice` it runs as
/// is.)
fn yielding(program: &std::ffi::OsStr) -> Command {
    static NICE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let nice = *NICE.get_or_init(|| {
        cfg!(unix)
            && Command::new("nice")
                .arg("true")
                .output()
                .is_ok_and(|out| out.status.success())
    });
    if nice {
        let mut cmd = Command::new("nice");
        cmd.args(["-n", "10"]).arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

/// The test executables of the test build, from the messages of `cargo
/// test --no-run` (already built: it compiles nothing).
fn test_executables() -> Result<Vec<TestBinary>> {
    let mut cmd = util::cargo();
    cmd.args(TEST_ARGS)
        .args(["--no-run", "--message-format=json-render-diagnostics"])
        .stderr(std::process::Stdio::inherit());
    let out = cmd
        .output()
        .with_context(|| format!("could not start {}", util::display(&cmd)))?;
    if !out.status.success() {
        anyhow::bail!("`{}` failed ({})", util::display(&cmd), out.status);
    }
    let mut found = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let (Some(executable), Some(manifest), Some(name)) = (
            message["executable"].as_str(),
            message["manifest_path"].as_str(),
            message["target"]["name"].as_str(),
        ) else {
            continue;
        };
        if message["profile"]["test"] != serde_json::Value::Bool(true) {
            continue;
        }
        found.push(TestBinary {
            name: name.to_owned(),
            package: Path::new(manifest)
                .parent()
                .context("a manifest path without a folder")?
                .to_path_buf(),
            executable: executable.into(),
        });
    }
    if found.is_empty() {
        anyhow::bail!("`{}` listed no test executable", util::display(&cmd));
    }
    Ok(found)
}

/// The arguments that run the tests that need the real archive: those are
/// `#[ignore = "needs WTHOR_DATA"]` (cargo counts them as ignored without
/// it) and run, with `-- --include-ignored`, when `WTHOR_DATA` is set.
/// Each fails when the folder is missing (`wthor-test-data`).
fn include_ignored() -> &'static [&'static str] {
    if std::env::var_os("WTHOR_DATA").is_some() {
        &["--", "--include-ignored"]
    } else {
        &[]
    }
}

pub(crate) fn run() -> Result<()> {
    match std::env::var_os("WTHOR_DATA") {
        Some(dir) => eprintln!("WTHOR_DATA={}", dir.to_string_lossy()),
        None => {
            eprintln!("note: WTHOR_DATA is not set: the tests that read the real files are ignored")
        }
    }
    let start = Instant::now();
    let venv = std::thread::spawn(python::ensure_venv);
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
    step(
        "build: cargo test --workspace --exclude wthor-py --no-run",
        build_tests,
    )?;
    step(EXAMPLES_STEP, examples::run)?;
    rust_and_python_tests(venv)?;
    step(
        "avx2: RUSTFLAGS='-C target-feature=+avx2' cargo test -p othello-core --target-dir target/avx2",
        avx2_tests,
    )?;
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
    step(
        "package: cargo package --workspace --exclude xtask --exclude wthor-py --exclude wthor-cli --exclude wthor-workspace-hack --exclude wthor-db-tests --exclude wthor-test-data",
        || {
            // Each library crate packaged and built from its package alone
            // (path dependencies resolved by version among the packaged
            // crates): what a consumer of one crate gets. The CLI, which
            // nothing depends on, is left out: verifying it built every
            // crate a third time (221 s of a 12.6-minute CI run). The Python
            // package is distributed as a wheel: maturin builds it from its
            // metadata in the Python step; the workspace hack is build-time
            // only, wthor-db-tests holds tests only and wthor-test-data serves them. `--allow-dirty` so that the step
            // also runs in a work tree with uncommitted changes.
            forget_packaged_sources()?;
            util::run(util::cargo().args([
                "package",
                "--workspace",
                "--exclude",
                "xtask",
                "--exclude",
                "wthor-py",
                "--exclude",
                "wthor-cli",
                "--exclude",
                "wthor-workspace-hack",
                "--exclude",
                "wthor-db-tests",
                "--exclude",
                "wthor-test-data",
                "--allow-dirty",
            ]))
        },
    )?;
    eprintln!(
        "\nci: every step passed in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Removes the sources cargo extracted from our own packages at an
/// earlier `cargo package --workspace`. It verifies each package against
/// the others through a local registry overlay whose packages it extracts
/// under `$CARGO_HOME/registry/src/<hash of the overlay's path>/NAME-VERSION`,
/// and reuses a directory already there: with the version unchanged (0.1.0)
/// and the checkout at the same path, a later run verified wthor-db against
/// the othello-core of an older run (seen: 20 errors for functions added
/// since). Only directories named after our crates are removed, never
/// crates.io's (`index.*`). The verification builds in `target/debug`,
/// where what it compiled from such a registry crate is reused by name and
/// version, not by its files: those builds are forgotten too (their
/// fingerprints, found by the dep-info that names an overlay's sources).
fn forget_packaged_sources() -> Result<()> {
    let debug = util::project_root().join("target").join("debug");
    if let Ok(deps) = std::fs::read_dir(debug.join("deps")) {
        for dep in deps.flatten() {
            let path = dep.path();
            if path.extension().is_none_or(|e| e != "d") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            // Overlay sources sit in `registry/src/-<hash>/`, crates.io's
            // in `registry/src/index.crates.io-<hash>/`.
            if !text.contains("/registry/src/-") {
                continue;
            }
            let Some(hash) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.rsplit_once('-'))
                .map(|(_, h)| h.to_owned())
            else {
                continue;
            };
            for fp in std::fs::read_dir(debug.join(".fingerprint"))?.flatten() {
                if fp
                    .file_name()
                    .to_string_lossy()
                    .ends_with(&format!("-{hash}"))
                {
                    std::fs::remove_dir_all(fp.path())
                        .with_context(|| format!("cannot remove {}", fp.path().display()))?;
                }
            }
        }
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".cargo")));
    let Some(src) = home.map(|h| h.join("registry").join("src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&src) else {
        return Ok(());
    };
    let ours: Vec<String> = std::fs::read_dir(util::project_root().join("crates"))?
        .filter_map(|e| Some(e.ok()?.file_name().to_str()?.to_owned()))
        .collect();
    let version = env!("CARGO_PKG_VERSION");
    for registry in registries.flatten() {
        if registry.file_name().to_string_lossy().starts_with("index.") {
            continue;
        }
        for name in &ours {
            let stale = registry.path().join(format!("{name}-{version}"));
            if stale.is_dir() {
                std::fs::remove_dir_all(&stale)
                    .with_context(|| format!("cannot remove {}", stale.display()))?;
            }
        }
    }
    Ok(())
}

/// The othello-core tests with AVX2 enabled at build time, so that the AVX2
/// kernels (which the repository's builds never compile) are checked
/// against the portable ones. In its own target directory, not to
/// invalidate the main build. Skipped, saying so, when this CPU lacks AVX2
/// (the tests could not run).
fn avx2_tests() -> Result<()> {
    if !cpu_has_avx2() {
        eprintln!("skipped: this CPU has no AVX2 (the AVX2 kernels cannot run here)");
        return Ok(());
    }
    let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
    if !flags.is_empty() {
        flags.push(' ');
    }
    flags.push_str("-C target-feature=+avx2");
    let target_dir = util::project_root().join("target/avx2");
    util::run(
        util::cargo()
            .args(["test", "-p", "othello-core", "--target-dir"])
            .arg(&target_dir)
            .args(include_ignored())
            .env("RUSTFLAGS", flags),
    )
}

/// Whether the CPU running us has AVX2 (detected at run time).
fn cpu_has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The commands of the README's quick start: the lines of its `sh` blocks.
    fn quick_start() -> Vec<String> {
        let path = util::project_root().join("README.md");
        let readme = std::fs::read_to_string(&path).expect("README.md is readable");
        let section = readme
            .split("\n## Quick start\n")
            .nth(1)
            .expect("README.md has a `## Quick start` section");
        let section = section.split("\n## ").next().unwrap_or(section);
        let mut commands = Vec::new();
        let mut in_block = false;
        for line in section.lines() {
            match line.trim() {
                "```sh" => in_block = true,
                "```" => in_block = false,
                l if in_block && !l.is_empty() => commands.push(l.to_owned()),
                _ => {}
            }
        }
        commands
    }

    /// The READMEs and changelogs of the crates that can be published
    /// (no `publish = false`) link absolute addresses only: crates.io
    /// resolves a relative link against the `repository`, which the
    /// crates do not have yet, and a path out of the package is not
    /// there anyway.
    #[test]
    fn published_docs_link_absolute_addresses_only() {
        let crates = util::project_root().join("crates");
        for krate in std::fs::read_dir(&crates).expect("crates/ is readable") {
            let dir = krate.expect("a crate folder").path();
            let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
            if manifest.is_empty() || manifest.contains("\npublish = false") {
                continue;
            }
            for name in ["README.md", "CHANGELOG.md"] {
                let path = dir.join(name);
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                // Inline links `[text](target)` and definitions `[label]: target`.
                let inline = text.split("](").skip(1).filter_map(|t| t.split(')').next());
                let defined = text.lines().filter_map(|l| {
                    l.strip_prefix('[')
                        .and_then(|l| l.split_once("]: "))
                        .map(|(_, t)| t)
                });
                for target in inline.chain(defined) {
                    assert!(
                        target.starts_with("https://"),
                        "{}: the link {target:?} is not an absolute address",
                        path.display()
                    );
                }
            }
        }
    }

    #[test]
    fn readme_gives_two_commands_and_ci_runs_its_test_command() {
        let commands = quick_start();
        assert_eq!(
            commands.len(),
            2,
            "the quick start has exactly two commands: {commands:?}"
        );
        assert!(
            commands[0].starts_with("cargo run --release -- ")
                && commands[0].ends_with(" testdata"),
            "the first command runs wthor on testdata/: {}",
            commands[0]
        );
        // The README's test command runs every test, Rust then Python
        // (`test` below).
        assert_eq!(commands[1], "cargo xtask test");
    }
}
