//! `cargo xtask bench`: runs the benchmarks and prints one table of figures.
//!
//! The benchmarks of the workspace are `[[bench]] harness = false` binaries
//! that print their results as lines `bench: <name> = <value> <unit>`. This
//! task streams their output through and gathers those lines into a table.
//! A filter is passed to every benchmark binary as its first argument, and
//! `--quick` sets `WTHOR_BENCH_QUICK=1` for the benchmarks that offer a short
//! run; the rest of the environment (`WTHOR_DATA` above all) passes through.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use anyhow::{Context, Result, bail};

use crate::util;

/// What `cargo xtask bench` was asked for.
pub(crate) struct Options {
    pub(crate) package: Option<String>,
    pub(crate) quick: bool,
    pub(crate) filter: Option<String>,
}

/// One figure: a `bench:` line.
#[derive(Debug, PartialEq)]
pub(crate) struct Figure {
    name: String,
    value: String,
    unit: String,
}

pub(crate) fn run(options: &Options) -> Result<()> {
    if std::env::var_os("WTHOR_DATA").is_none() {
        eprintln!(
            "note: WTHOR_DATA is not set: benchmarks over the real WTHOR files will skip \
             (set it to the folder holding wthor/, ffo/, …)"
        );
    }
    let mut cmd = util::cargo();
    cmd.args(["bench", "--benches"]);
    match &options.package {
        Some(p) => cmd.args(["--package", p]),
        None => cmd.arg("--workspace"),
    };
    if let Some(filter) = &options.filter {
        cmd.args(["--", filter]);
    }
    if options.quick {
        cmd.env("WTHOR_BENCH_QUICK", "1");
    }
    let line = util::display(&cmd);
    eprintln!("$ {line}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start `{line}`"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut figures = Vec::new();
    for text in BufReader::new(stdout).lines() {
        let text = text.context("reading the benchmarks' output")?;
        println!("{text}");
        figures.extend(parse_line(&text));
    }
    let status = child.wait()?;
    println!("\n{}", table(&figures));
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Reads `bench: <name> = <value> <unit>`; the unit may hold spaces
/// (`games/s`, `ns per node`) and may be empty.
pub(crate) fn parse_line(line: &str) -> Option<Figure> {
    let rest = line.trim().strip_prefix("bench:")?;
    let (name, rest) = rest.split_once('=')?;
    let rest = rest.trim();
    let (value, unit) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    let name = name.trim();
    if name.is_empty() || value.is_empty() {
        return None;
    }
    Some(Figure {
        name: name.to_owned(),
        value: value.to_owned(),
        unit: unit.trim().to_owned(),
    })
}

/// The figures as an aligned table, in the order they were printed.
pub(crate) fn table(figures: &[Figure]) -> String {
    if figures.is_empty() {
        return "no benchmark printed a `bench: <name> = <value> <unit>` line".to_owned();
    }
    let w_name = figures
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(0)
        .max(9);
    let w_value = figures
        .iter()
        .map(|f| f.value.len())
        .max()
        .unwrap_or(0)
        .max(5);
    let mut out = format!("{:<w_name$}  {:>w_value$}  unit\n", "benchmark", "value");
    out += &format!("{}  {}  ----\n", "-".repeat(w_name), "-".repeat(w_value));
    for f in figures {
        out += &format!("{:<w_name$}  {:>w_value$}  {}\n", f.name, f.value, f.unit);
    }
    out.pop();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(name: &str, value: &str, unit: &str) -> Figure {
        Figure {
            name: name.into(),
            value: value.into(),
            unit: unit.into(),
        }
    }

    #[test]
    fn reads_bench_lines() {
        assert_eq!(
            parse_line("bench: perft8_depth9 = 123.4 Mnodes/s"),
            Some(figure("perft8_depth9", "123.4", "Mnodes/s"))
        );
        assert_eq!(
            parse_line("  bench: scan all games = 1.5 ns per game "),
            Some(figure("scan all games", "1.5", "ns per game"))
        );
        assert_eq!(
            parse_line("bench: count = 42"),
            Some(figure("count", "42", ""))
        );
        assert_eq!(parse_line("running 0 tests"), None);
        assert_eq!(parse_line("bench: = 3 s"), None);
    }

    #[test]
    fn aligns_the_table() {
        let t = table(&[figure("a", "1.5", "s"), figure("longer name", "1234", "ms")]);
        assert_eq!(
            t,
            "benchmark    value  unit\n\
             -----------  -----  ----\n\
             a              1.5  s\n\
             longer name   1234  ms"
        );
    }
}
