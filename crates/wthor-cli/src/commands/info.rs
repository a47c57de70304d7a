//! `wthor info PATH...`: kind, header fields, record count and warnings of
//! WTHOR files.
//!
//! A directory stands for the WTHOR files directly inside it (extensions
//! `.wtb .wtd .jou .trn .pzz`, any case, sorted by name); subdirectories are
//! not entered. An unreadable or invalid file is reported on stderr as one
//! line `wthor: <path>: ...`; the other files are still shown and the exit
//! code is 2 at the end (1 when the only failures are warnings refused by
//! `--strict`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use serde::Serialize;
use wthor_format::{FileKind, Header, ReadOptions, WthorFile};

use crate::textfmt::count;

/// Most warnings shown per file in the text output (JSON lists them all).
const MAX_WARNINGS_SHOWN: usize = 20;

/// Arguments of `wthor info`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// WTHOR files, or directories (their WTHOR files, not recursively).
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Print one JSON object per file (JSON Lines).
    #[arg(long)]
    json: bool,
    /// Turn every warning into an error.
    #[arg(long)]
    strict: bool,
    /// Text encoding of names files (a WHATWG label, e.g. ISO-8859-2).
    #[arg(long, value_name = "LABEL", default_value = "windows-1252")]
    encoding: String,
}

/// One file, as printed.
#[derive(Debug, Serialize)]
struct Report {
    path: String,
    kind: &'static str,
    created: String,
    n1: u32,
    n2: u16,
    year: u16,
    p1: u8,
    p2: u8,
    p3: u8,
    /// The depth of the theoretical scores (P3; 0 means 22): game files
    /// only, absent from the JSON of the others, where P3 means nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u8>,
    records: usize,
    warnings: Vec<WarningReport>,
}

#[derive(Debug, Serialize)]
struct WarningReport {
    offset: u64,
    record: Option<u64>,
    message: String,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut options = ReadOptions::default().with_encoding_label(&args.encoding)?;
    options.strict = args.strict;
    let mut failed = false;
    let mut refused = false;
    for path in &args.paths {
        let files = match expand(path) {
            Ok(files) => files,
            Err(err) => {
                eprintln!("wthor: {}", crate::error_line(&err));
                failed = true;
                continue;
            }
        };
        for file in files {
            match report(&file, &options) {
                Ok(report) => {
                    if args.json {
                        serde_json::to_writer(&mut *out, &report)?;
                        writeln!(out)?;
                    } else {
                        print_text(&report, out)?;
                    }
                }
                Err(err) => {
                    // Keep the order of stdout and stderr for a terminal.
                    out.flush()?;
                    eprintln!("wthor: {}", crate::error_line(&err));
                    if is_strict_refusal(&err) {
                        refused = true;
                    } else {
                        failed = true;
                    }
                }
            }
        }
    }
    Ok(super::exit_code(failed, refused))
}

/// Whether `err` is a warning that `--strict` turned into an error (a
/// finding about a readable file, not a failure to read it).
fn is_strict_refusal(err: &anyhow::Error) -> bool {
    err.downcast_ref::<wthor_format::Error>()
        .is_some_and(|e| matches!(e.kind(), wthor_format::ErrorKind::Strict(_)))
}

/// A file, or the WTHOR files directly inside a directory.
fn expand(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let meta =
        std::fs::metadata(path).with_context(|| format!("{}: cannot read", path.display()))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    let entries =
        std::fs::read_dir(path).with_context(|| format!("{}: cannot list", path.display()))?;
    for entry in entries {
        let entry = entry.with_context(|| format!("{}: cannot list", path.display()))?;
        let file = entry.path();
        if FileKind::from_path(&file).is_some() && !file.is_dir() {
            files.push(file);
        }
    }
    if files.is_empty() {
        anyhow::bail!(
            "no WTHOR files in {} (looked for *.wtb, *.wtd, *.jou, *.trn and *.pzz files)",
            path.display()
        );
    }
    files.sort();
    Ok(files)
}

/// Reads a regular file whole (a FIFO or a device is refused, not read).
pub(crate) fn read_regular(path: &Path) -> anyhow::Result<Vec<u8>> {
    Ok(wthor_db::verify::read_regular(path)?)
}

fn report(path: &Path, options: &ReadOptions) -> anyhow::Result<Report> {
    let bytes = read_regular(path)?;
    let file = wthor_format::parse_any(&bytes, FileKind::from_path(path), options)
        .map_err(|e| e.with_file(path))?;
    Ok(make_report(path, &file))
}

fn make_report(path: &Path, file: &WthorFile<'_>) -> Report {
    let header: &Header = file.header();
    Report {
        path: path.display().to_string(),
        kind: file.kind().name(),
        created: header.created.to_string(),
        n1: header.n1,
        n2: header.n2,
        year: header.year,
        p1: header.p1,
        p2: header.p2,
        p3: header.p3,
        depth: matches!(file, WthorFile::Games(_)).then(|| header.depth()),
        records: file.len(),
        warnings: file
            .warnings()
            .iter()
            .map(|w| WarningReport {
                offset: w.offset,
                record: w.record,
                message: w.kind.to_string(),
            })
            .collect(),
    }
}

/// What N1, N2, P1, P2 and P3 mean for each kind.
fn meanings(r: &Report) -> [String; 5] {
    let games = r.kind.starts_with("games");
    let names = matches!(r.kind, "players" | "tournaments");
    let unused = |v: u8| {
        if v == 0 {
            "unused".to_owned()
        } else {
            "unused, expected 0".to_owned()
        }
    };
    let n1 = if names {
        "unused".to_owned()
    } else if games {
        "games".to_owned()
    } else {
        "puzzles".to_owned()
    };
    let n2 = if names {
        "names".to_owned()
    } else if games {
        "unused".to_owned()
    } else {
        "empty squares of every puzzle".to_owned()
    };
    let p1 = if names {
        unused(r.p1)
    } else {
        match r.p1 {
            0 => "8x8 board, 0 stands for 8".to_owned(),
            8 => "8x8 board".to_owned(),
            10 => "10x10 board".to_owned(),
            _ => "no board size".to_owned(),
        }
    };
    let p2 = match (r.p2, names) {
        (_, true) => unused(r.p2),
        (0, false) => "games".to_owned(),
        (1, false) => "solitaires".to_owned(),
        _ => "unknown game type".to_owned(),
    };
    let p3 = if games {
        let zero = if r.p3 == 0 { ", 0 stands for 22" } else { "" };
        format!(
            "theoretical score at {}{zero}",
            count(r.depth.unwrap_or(r.p3), "empty", "empties")
        )
    } else {
        unused(r.p3)
    };
    [n1, n2, p1, p2, p3]
}

fn print_text(r: &Report, out: &mut dyn Write) -> anyhow::Result<()> {
    let [n1, n2, p1, p2, p3] = meanings(r);
    writeln!(out, "{}", r.path)?;
    writeln!(out, "  kind:     {}", r.kind)?;
    writeln!(out, "  created:  {}", r.created)?;
    writeln!(out, "  N1:       {} ({n1})", r.n1)?;
    writeln!(out, "  N2:       {} ({n2})", r.n2)?;
    writeln!(out, "  year:     {}", r.year)?;
    writeln!(out, "  P1:       {} ({p1})", r.p1)?;
    writeln!(out, "  P2:       {} ({p2})", r.p2)?;
    writeln!(out, "  P3:       {} ({p3})", r.p3)?;
    writeln!(out, "  records:  {}", r.records)?;
    writeln!(out, "  warnings: {}", r.warnings.len())?;
    for w in r.warnings.iter().take(MAX_WARNINGS_SHOWN) {
        match w.record {
            Some(record) => writeln!(
                out,
                "    byte {} (record {record}): {}",
                w.offset, w.message
            )?,
            None => writeln!(out, "    byte {}: {}", w.offset, w.message)?,
        }
    }
    if r.warnings.len() > MAX_WARNINGS_SHOWN {
        writeln!(
            out,
            "    ... and {} more (--json lists them all)",
            r.warnings.len() - MAX_WARNINGS_SHOWN
        )?;
    }
    Ok(())
}
