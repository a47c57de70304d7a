//! `cargo xtask py-test`: the tests of the Python package `wthor`
//! (`crates/wthor-py`), in a virtual environment under `target/` so that the
//! machine's Python is not touched.
//!
//! 1. `python3 -m venv target/py-venv` (once; `PYTHON` names another
//!    interpreter), then `pip install maturin numpy pytest pyarrow` from PyPI into
//!    it (again only when one of them is missing; pyarrow reads the
//!    Parquet files the CLI writes);
//! 2. `cargo test --workspace --exclude wthor-py --no-run`: the `wthor` command the tests
//!    compare their answers with (`WTHOR_CLI`), built as `cargo test`
//!    builds it (nothing to do after `cargo test`; `cargo build -p
//!    wthor-cli` would unify other features and rebuild the crates twice);
//! 3. `maturin develop` builds the extension into the environment, in the
//!    workspace's `target/` and its dev profile, where the crates doing the
//!    work (wthor-db, othello-core) are optimised (root `Cargo.toml`;
//!    `wthor-py` itself only converts): the build reuses
//!    what `cargo test` built, where a release build would compile every
//!    dependency again (minutes on CI's two cores). The benchmark builds in
//!    release mode;
//! 4. `python -m pytest crates/wthor-py/tests`, with `WTHOR_DATA` passed
//!    through (the tests on the real files skip without it).
//!
//! `cargo xtask test` and `ci` make step 1 beside the Rust build, and
//! steps 3 and 4 (`built_in`, `pytest`) beside the Rust tests.
//!
//! pandas is not installed: the tests that convert to it skip when it is
//! missing.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::util;

/// The packages the tests need, from PyPI.
const PACKAGES: &[&str] = &["maturin>=1.8,<2", "numpy", "pytest", "pyarrow"];

/// The virtual environment, under the workspace's `target/`.
pub(crate) fn venv_dir() -> PathBuf {
    util::project_root().join("target").join("py-venv")
}

/// A program of the virtual environment.
fn bin(venv: &Path, name: &str) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join(format!("{name}.exe"))
    } else {
        venv.join("bin").join(name)
    }
}

/// A command run inside the virtual environment (as `activate` would set it).
fn in_venv(venv: &Path, program: &Path) -> Command {
    let mut cmd = Command::new(program);
    let bin_dir = program.parent().unwrap_or(venv);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut dirs = vec![bin_dir.to_path_buf()];
    dirs.extend(std::env::split_paths(&path));
    cmd.env("VIRTUAL_ENV", venv)
        .env("PATH", std::env::join_paths(dirs).unwrap_or(path))
        .env_remove("PYTHONHOME")
        .current_dir(util::project_root());
    cmd
}

/// Creates the virtual environment and installs the packages, unless they
/// are there already (`cargo xtask test` and `ci` start it beside the Rust
/// build: on a fresh clone it takes about 20 s, mostly pip).
pub(crate) fn ensure_venv() -> Result<PathBuf> {
    let venv = venv_dir();
    let python = bin(&venv, "python");
    if !python.exists() {
        let system = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
        util::run(
            Command::new(&system)
                .args(["-m", "venv"])
                .arg(&venv)
                .current_dir(util::project_root()),
        )
        .with_context(|| {
            format!(
                "could not create a virtual environment with {} (on Debian: apt-get install python3-venv)",
                system.to_string_lossy()
            )
        })?;
    }
    let ready = util::succeeds(
        in_venv(&venv, &python).args(["-c", "import numpy, pytest, pyarrow.parquet"]),
    ) && util::succeeds(in_venv(&venv, &bin(&venv, "maturin")).arg("--version"));
    if !ready {
        // `--no-compile`: Python compiles the modules the tests import when
        // they import them, not every module of numpy and pyarrow
        // beforehand (3 CPU-s instead of 6-7, beside the Rust build).
        util::run(
            in_venv(&venv, &python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                    "--no-compile",
                ])
                .args(PACKAGES),
        )
        .context("could not install the Python test packages from PyPI")?;
    }
    Ok(venv)
}

/// Builds the extension into the virtual environment, in the dev or the
/// release profile.
fn develop(venv: &Path, release: bool) -> Result<()> {
    let manifest = util::project_root().join("crates/wthor-py/Cargo.toml");
    let mut cmd = in_venv(venv, &bin(venv, "maturin"));
    cmd.args(["develop", "--quiet"]);
    if release {
        cmd.arg("--release");
    } else {
        // The features the Rust tests built the shared crates with: only
        // pyo3, numpy and the extension itself are compiled here.
        cmd.args(["--features", "workspace-hack"]);
    }
    util::run(cmd.arg("-m").arg(manifest))
}

/// The virtual environment with the package built into it: what the
/// Python tests and benchmarks run in.
fn prepared(release: bool) -> Result<PathBuf> {
    let venv = ensure_venv()?;
    develop(&venv, release)?;
    Ok(venv)
}

/// `cargo xtask py-test [-- PYTEST ARGS]`.
pub(crate) fn test(pytest_args: &[String]) -> Result<()> {
    // The `wthor` binary the tests compare with (what `cargo xtask test`
    // built already: nothing to do then).
    crate::ci::build_tests()?;
    let venv = prepared(false)?;
    pytest(&venv, pytest_args)
}

/// The virtual environment of `made` (a thread making it) with the
/// extension built into it (dev profile): what `cargo xtask test` and
/// `ci` run beside the Rust tests, once the Rust crates are compiled.
pub(crate) fn built_in(made: std::thread::JoinHandle<Result<PathBuf>>) -> Result<PathBuf> {
    let venv = match made.join() {
        Ok(venv) => venv?,
        Err(_) => bail!("making the Python environment panicked"),
    };
    develop(&venv, false)?;
    Ok(venv)
}

/// `python -m pytest crates/wthor-py/tests` in `venv` (the extension built
/// into it), with the `wthor` command of the dev build as `WTHOR_CLI`.
pub(crate) fn pytest(venv: &Path, pytest_args: &[String]) -> Result<()> {
    let cli = util::project_root()
        .join("target")
        .join("debug")
        .join(if cfg!(windows) { "wthor.exe" } else { "wthor" });
    if !cli.is_file() {
        bail!("{} was not built", cli.display());
    }
    util::run(
        in_venv(venv, &bin(venv, "python"))
            .args(["-m", "pytest", "crates/wthor-py/tests", "-q", "-rs"])
            .args(pytest_args)
            .env("WTHOR_CLI", &cli),
    )
}

/// `cargo xtask py-bench [-- ARGS]`: the positions benchmark
/// (`crates/wthor-py/bench/positions.py`) in the virtual environment, the
/// extension built in release mode.
pub(crate) fn bench(args: &[String]) -> Result<()> {
    let venv = prepared(true)?;
    util::run(
        in_venv(&venv, &bin(&venv, "python"))
            .arg("crates/wthor-py/bench/positions.py")
            .args(args),
    )
}
