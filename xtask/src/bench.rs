//! `cargo xtask bench`: runs the benchmarks and prints one table of figures.
//!
//! The benchmarks of the workspace are `[[bench]] harness = false` binaries
//! that print their results as lines `bench: <name> = <value> <unit> [note]`.
//! This task runs `cargo bench --workspace --benches` (or one package, or the
//! bench targets matching a name), streams their output through, and gathers
//! those lines into a table, with the benchmarks that skipped listed below
//! it. Arguments after `--` go to every benchmark binary.
//!
//! The environment passes through: `WTHOR_DATA` above all (most benchmarks
//! read the real files), and each benchmark's own knobs (`FFO`, `SAMPLE`,
//! `THREADS`…). `--quick` sets `WTHOR_BENCH_QUICK=1` and, unless they are
//! already set, the knobs that shorten the long benchmarks: `FFO=40-42`
//! (FFO positions solved) and `SAMPLE=5` (games solved at 24 empties).

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use anyhow::{Context, Result, bail};

use crate::util;

/// The environment `--quick` sets when it is not set already.
const QUICK_ENV: &[(&str, &str)] = &[
    ("WTHOR_BENCH_QUICK", "1"),
    ("FFO", "40-42"),
    ("SAMPLE", "5"),
];

/// What `cargo xtask bench` was asked for.
pub(crate) struct Options {
    /// Only this package's benchmarks.
    pub(crate) package: Option<String>,
    /// Shorter runs.
    pub(crate) quick: bool,
    /// Only the bench targets of this name (a glob, as `cargo bench --bench`).
    pub(crate) bench: Option<String>,
    /// Arguments for every benchmark binary.
    pub(crate) args: Vec<String>,
}

/// One figure: a `bench:` line.
#[derive(Debug, PartialEq)]
pub(crate) struct Figure {
    name: String,
    value: String,
    unit: String,
    note: String,
}

/// A line of the benchmarks' output that matters here.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    Figure(Figure),
    /// A benchmark that did not run, and why.
    Skipped(String),
}

pub(crate) fn run(options: &Options) -> Result<()> {
    if std::env::var_os("WTHOR_DATA").is_none() {
        eprintln!(
            "note: WTHOR_DATA is not set: the benchmarks over the real files will skip \
             (set it to the folder holding wthor/ and ffo/, e.g. ../shared/data)"
        );
    }
    let mut cmd = util::cargo();
    cmd.arg("bench");
    match &options.package {
        Some(p) => cmd.args(["--package", p]),
        None => cmd.arg("--workspace"),
    };
    match &options.bench {
        Some(name) => cmd.args(["--bench", name]),
        None => cmd.arg("--benches"),
    };
    if !options.args.is_empty() {
        cmd.arg("--").args(&options.args);
    }
    if options.quick {
        for (key, value) in QUICK_ENV {
            if std::env::var_os(key).is_none() {
                cmd.env(key, value);
            }
        }
    }
    let line = util::display(&cmd);
    eprintln!("$ {line}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .with_context(|| format!("could not start `{line}`"))?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut figures = Vec::new();
    let mut skipped = Vec::new();
    for text in BufReader::new(stdout).lines() {
        let text = text.context("reading the benchmarks' output")?;
        println!("{text}");
        match parse_line(&text) {
            Some(Line::Figure(f)) => figures.push(f),
            Some(Line::Skipped(why)) => skipped.push(why),
            None => {}
        }
    }
    let status = child.wait()?;
    println!("\n{}", table(&figures));
    for why in &skipped {
        println!("skipped: {why}");
    }
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Reads `bench: <name> = <value> <unit> [note]`, and the lines that say a
/// benchmark skipped (`bench: <name> skipped: <why>`, `skipped: <why>`).
pub(crate) fn parse_line(line: &str) -> Option<Line> {
    let line = line.trim();
    if let Some(why) = line.strip_prefix("skipped:") {
        return Some(Line::Skipped(why.trim().to_owned()));
    }
    let rest = line.strip_prefix("bench:")?.trim();
    if let Some((name, why)) = rest.split_once(" skipped:") {
        return Some(Line::Skipped(format!("{}: {}", name.trim(), why.trim())));
    }
    let (name, rest) = rest.split_once('=')?;
    let mut words = rest.split_whitespace();
    let (name, value) = (name.trim(), words.next()?);
    if name.is_empty() {
        return None;
    }
    let unit = words.next().unwrap_or("");
    let note = words.collect::<Vec<_>>().join(" ");
    Some(Line::Figure(Figure {
        name: name.to_owned(),
        value: value.to_owned(),
        unit: unit.to_owned(),
        note,
    }))
}

/// The figures as an aligned table, in the order they were printed.
pub(crate) fn table(figures: &[Figure]) -> String {
    if figures.is_empty() {
        return "no benchmark printed a `bench: <name> = <value> <unit>` line".to_owned();
    }
    let width = |f: fn(&Figure) -> &str, title: &str| {
        figures
            .iter()
            .map(|x| f(x).chars().count())
            .chain([title.len()])
            .max()
            .unwrap_or(0)
    };
    let w_name = width(|f| &f.name, "benchmark");
    let w_value = width(|f| &f.value, "value");
    let w_unit = width(|f| &f.unit, "unit");
    let row = |name: &str, value: &str, unit: &str, note: &str| {
        format!("{name:<w_name$}  {value:>w_value$}  {unit:<w_unit$}  {note}")
            .trim_end()
            .to_owned()
    };
    let mut lines = vec![
        row("benchmark", "value", "unit", ""),
        row(
            &"-".repeat(w_name),
            &"-".repeat(w_value),
            &"-".repeat(w_unit),
            "",
        ),
    ];
    lines.extend(
        figures
            .iter()
            .map(|f| row(&f.name, &f.value, &f.unit, &f.note)),
    );
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure(name: &str, value: &str, unit: &str, note: &str) -> Figure {
        Figure {
            name: name.into(),
            value: value.into(),
            unit: unit.into(),
            note: note.into(),
        }
    }

    #[test]
    fn reads_bench_lines() {
        let read = |l| match parse_line(l) {
            Some(Line::Figure(f)) => Some(f),
            _ => None,
        };
        assert_eq!(
            read("bench: perft8.d11.rate = 123.4 Mleaves/s"),
            Some(figure("perft8.d11.rate", "123.4", "Mleaves/s", ""))
        );
        assert_eq!(
            read("bench: solver.ffo40 = 0.512 s  (20 empties, score +38)"),
            Some(figure(
                "solver.ffo40",
                "0.512",
                "s",
                "(20 empties, score +38)"
            ))
        );
        assert_eq!(
            read("bench: count = 42"),
            Some(figure("count", "42", "", ""))
        );
        assert_eq!(read("running 0 tests"), None);
        assert_eq!(read("bench: = 3 s"), None);
    }

    #[test]
    fn reads_skip_lines() {
        assert_eq!(
            parse_line("bench: solve24 skipped: WTHOR_DATA not set"),
            Some(Line::Skipped("solve24: WTHOR_DATA not set".into()))
        );
        assert_eq!(
            parse_line("skipped: WTHOR_DATA not set"),
            Some(Line::Skipped("WTHOR_DATA not set".into()))
        );
    }

    #[test]
    fn aligns_the_table() {
        let t = table(&[
            figure("a", "1.5", "s", "(note)"),
            figure("longer name", "1234", "ms", ""),
        ]);
        assert_eq!(
            t,
            "benchmark    value  unit\n\
             -----------  -----  ----\n\
             a              1.5  s     (note)\n\
             longer name   1234  ms"
        );
    }
}
