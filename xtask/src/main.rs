//! Maintenance tasks of the wthor workspace, run as `cargo xtask <task>`.
//!
//! The alias lives in `.cargo/config.toml`. Tasks:
//!
//! - `ci`: everything `.ci/run` checks, in order, failing fast;
//! - `fixtures [--check]`: (re)generate the fixture database in `testdata/`,
//!   or check that the committed one is what the generator makes now;
//! - `snapshots [--accept]`: run the insta snapshot tests and review changes;
//! - `fuzz [--seconds N] [TARGET]`: time-boxed runs of the fuzz targets;
//! - `bench [--package P] [--quick] [BENCH] [-- ARGS]`: run the benchmarks
//!   and print one table of their figures;
//! - `man [--out DIR]`: the man pages of `wthor` (clap_mangen, through the
//!   binary's hidden `wthor man DIR`), into `target/man` by default.
//! - `test`: every test, `cargo test --workspace` with `py-test` and
//!   `e2e` beside it (and the examples, run after the test build);
//! - `examples`: the library crates' examples, run on `testdata/` from
//!   the test build (which builds them);
//! - `e2e`: the browser test of `wthor serve` (headless Chromium, when one
//!   is found);
//! - `py-test [-- ARGS]`: the Python package's tests (pytest in a virtual
//!   environment under `target/`);
//! - `py-bench [-- ARGS]`: the Python positions benchmark.
//! - `train [--data DIR] [--sample N] [--test-years N] [--iterations N]
//!   [--lambda X] [--deviations N] [--out FILE]`: fit the pattern
//!   evaluation on the archive (and on `N` solved lines off each training
//!   game) and write `crates/othello-core/src/eval.bin`.
//!
//! Arguments are parsed by hand: a handful of flags does not need clap's
//! compile time on every `cargo xtask`.

mod bench;
mod ci;
mod e2e;
mod examples;
mod fixtures;
mod fuzz;
mod python;
mod snapshots;
mod train;
mod util;
#[cfg(test)]
mod workspace_hack;

use std::process::ExitCode;

use anyhow::{Context, Result, bail};

const USAGE: &str = "\
usage: cargo xtask <task> [options]

tasks:
  ci                             fmt check, clippy -D warnings, tests (Rust and Python), fixture check, docs
  fixtures [--check]             regenerate testdata/ (or check it is up to date)
  snapshots [--accept]           run the insta snapshot tests and review the changes
  fuzz [--seconds N] [TARGET]    run each fuzz target for N seconds (default 60)
  bench [--package P] [--quick] [BENCH] [-- ARGS]
                                 run the benchmarks (or the bench targets named BENCH)
                                 and print a table of their figures
  man [--out DIR]                write the man pages of wthor into DIR (default target/man)
  test                           every test: cargo test --workspace, py-test and e2e beside it (and the examples)
  examples                       build the tests (and with them the examples), run each example on testdata/
  e2e                            the browser test of wthor serve (headless Chromium; skipped without one)
  py-test [-- ARGS]              the Python package's tests (pytest, in target/py-venv)
  py-bench [-- ARGS]             the Python positions benchmark (in target/py-venv)
  train [--data DIR] [--sample N] [--test-years N] [--iterations N] [--lambda X]
        [--deviations N] [--out FILE]
                                 fit the pattern evaluation on $WTHOR_DATA/wthor (and on N
                                 solved lines off each training game), print the held-out
                                 error, write crates/othello-core/src/eval.bin
";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Vec<String>) -> Result<()> {
    let mut args = Args::new(args);
    let Some(task) = args.next_positional() else {
        eprint!("{USAGE}");
        bail!("no task given");
    };
    match task.as_str() {
        "ci" => {
            args.finish()?;
            ci::run()
        }
        "fixtures" => {
            let check = args.flag("--check");
            args.finish()?;
            if check {
                fixtures::check()
            } else {
                fixtures::update()
            }
        }
        "snapshots" => {
            let accept = args.flag("--accept");
            args.finish()?;
            snapshots::run(accept)
        }
        "fuzz" => {
            let seconds = match args.value("--seconds")? {
                Some(s) => s
                    .parse()
                    .with_context(|| format!("--seconds expects a whole number, not {s:?}"))?,
                None => fuzz::DEFAULT_SECONDS,
            };
            let target = args.next_positional();
            args.finish()?;
            fuzz::run(seconds, target.as_deref())
        }
        "bench" => {
            let passed = args.after_double_dash();
            let options = bench::Options {
                package: args.value("--package")?.or(args.value("-p")?),
                quick: args.flag("--quick"),
                bench: args.next_positional(),
                args: passed,
            };
            args.finish()?;
            bench::run(&options)
        }
        "man" => {
            let out = args
                .value("--out")?
                .map_or_else(|| util::project_root().join("target/man"), Into::into);
            args.finish()?;
            // The binary knows its command line: it writes the pages.
            util::run(
                util::cargo()
                    .args([
                        "run",
                        "--quiet",
                        "--package",
                        "wthor-cli",
                        "--bin",
                        "wthor",
                        "--",
                        "man",
                    ])
                    .arg(&out),
            )
        }
        "test" => {
            args.finish()?;
            ci::test()
        }
        "examples" => {
            args.finish()?;
            ci::build_tests()?;
            examples::run()
        }
        "e2e" => {
            args.finish()?;
            e2e::run()
        }
        "py-test" => {
            let passed = args.after_double_dash();
            args.finish()?;
            python::test(&passed)
        }
        "py-bench" => {
            let passed = args.after_double_dash();
            args.finish()?;
            python::bench(&passed)
        }
        "train" if cfg!(debug_assertions) => {
            // The fit needs optimised code and xtask is built for a quick
            // start (dev profile): run the task again from a release build.
            util::run(
                util::cargo()
                    .args(["run", "--release", "--package", "xtask", "--"])
                    .args(std::env::args_os().skip(1)),
            )
        }
        "train" => {
            let number = |v: Option<String>, name: &str, default: f64| -> Result<f64> {
                match v {
                    Some(s) => s
                        .parse()
                        .with_context(|| format!("{name} expects a number, not {s:?}")),
                    None => Ok(default),
                }
            };
            let options = train::Options {
                data: args.value("--data")?.map(Into::into),
                sample: number(args.value("--sample")?, "--sample", 1.0)?.max(1.0) as usize,
                test_years: number(args.value("--test-years")?, "--test-years", 2.0)? as usize,
                iterations: number(args.value("--iterations")?, "--iterations", 40.0)? as usize,
                lambda: number(args.value("--lambda")?, "--lambda", 4.0)?,
                deviations: number(args.value("--deviations")?, "--deviations", 0.0)? as usize,
                out: args.value("--out")?.map(Into::into),
            };
            args.finish()?;
            train::run(&options)
        }
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => {
            eprint!("{USAGE}");
            bail!("unknown task {other:?}")
        }
    }
}

/// The arguments after the task name, consumed flag by flag; whatever is
/// left at the end is an error.
struct Args(Vec<String>);

impl Args {
    fn new(args: Vec<String>) -> Self {
        Self(args)
    }

    /// Removes `name` if present.
    fn flag(&mut self, name: &str) -> bool {
        let before = self.0.len();
        self.0.retain(|a| a != name);
        self.0.len() != before
    }

    /// Removes `name VALUE` or `name=VALUE` and returns the value.
    fn value(&mut self, name: &str) -> Result<Option<String>> {
        let prefix = format!("{name}=");
        if let Some(i) = self.0.iter().position(|a| a.starts_with(&prefix)) {
            return Ok(Some(self.0.remove(i)[prefix.len()..].to_owned()));
        }
        let Some(i) = self.0.iter().position(|a| a == name) else {
            return Ok(None);
        };
        if i + 1 >= self.0.len() {
            bail!("{name} expects a value");
        }
        self.0.remove(i);
        Ok(Some(self.0.remove(i)))
    }

    /// Removes and returns everything after `--`.
    fn after_double_dash(&mut self) -> Vec<String> {
        match self.0.iter().position(|a| a == "--") {
            Some(i) => self.0.split_off(i).into_iter().skip(1).collect(),
            None => Vec::new(),
        }
    }

    /// Removes and returns the first argument that is not a flag.
    fn next_positional(&mut self) -> Option<String> {
        let i = self.0.iter().position(|a| !a.starts_with('-'))?;
        Some(self.0.remove(i))
    }

    fn finish(self) -> Result<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            bail!("unexpected arguments: {}", self.0.join(" "))
        }
    }
}
