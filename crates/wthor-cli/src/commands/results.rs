//! `wthor results summary|merge LOG.jsonl...`: the results logs of
//! `wthor validate --solve` (one per shard, re-runs, several machines) read
//! back as one run.
//!
//! Records are de-duplicated by the key the resume uses (file name, header
//! creation date, index, hash of the moves); the same key with another
//! outcome (status, stored or solved value: times and node counts left
//! aside) is a conflict, reported with both sources (`LOG:LINE` each).
//! Logs of two commands (`validate --solve`, `puzzles --verify`,
//! `analyze`) are refused up front, naming a line of each. The input logs
//! are only read: a truncated last line (an interrupted run) is left out
//! with a warning.
//!
//! - `summary`: the report `validate --solve` prints, per file and in
//!   total (`--json` for one JSON object); `--mismatches` lists instead
//!   every game whose stored score disagrees with the solver (mismatch or
//!   impossible value) with its identity (`YEAR:INDEX`), players, stored
//!   and solved values and the position as OBF (`--format csv` for a
//!   table, `--json` for JSON Lines).
//! - `merge -o ALL.jsonl`: one log, one line per key in key order, written
//!   atomically; with conflicts nothing is written (the merged log would
//!   keep one side of each). Logs of `analyze` whose estimates were made
//!   by different searches (an old log's evaluation search, the midgame
//!   search at another depth) merge, each line keeping its own `estimate`
//!   (none: the old search), with a note naming a line of each: their
//!   lines hold the exact moves only, which no estimate changes, so a
//!   refusal would throw away hours of solving for a difference that is
//!   not in the data.
//!
//! Exit code: 2 when a file cannot be read or is not a results log, or
//! the logs are of two kinds (nothing written), else 1 when there are
//! conflicts (nothing written by `merge`), else 0.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::{Deserialize as _, Serialize};
use wthor_db::analysis::{GameAnalysis, OLD_ESTIMATES};
use wthor_db::id::file_label;
use wthor_db::verify::{
    LogKind, LogRecord, Merged, TheoryCheck, TheoryStatus, TheoryTally, merge_results, one_kind,
    read_results,
};

use crate::textfmt::count;
use crate::textfmt::csv::field;
use crate::verify::TallyWords as _;

/// Arguments of `wthor results`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Report of results logs of `validate --solve`, per file and in total.
    Summary(SummaryArgs),
    /// Merge results logs of one command into one (one line per record,
    /// written atomically); nothing is written when they conflict.
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
struct SummaryArgs {
    /// Results logs (JSON Lines of `validate --solve --results`).
    #[arg(required = true, value_name = "LOG.jsonl")]
    logs: Vec<PathBuf>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// List the games whose stored theoretical score disagrees with the
    /// solver's instead of the counts.
    #[arg(long)]
    mismatches: bool,
    /// Format of the --mismatches list.
    #[arg(long, value_enum, default_value_t = Format::Text, requires = "mismatches", conflicts_with = "json")]
    format: Format,
}

/// How `--mismatches` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// One line per game.
    Text,
    /// Comma-separated values with a header line.
    Csv,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Results logs to merge.
    #[arg(required = true, value_name = "LOG.jsonl")]
    logs: Vec<PathBuf>,
    /// The merged log (replaced atomically).
    #[arg(long, short, value_name = "ALL.jsonl")]
    output: PathBuf,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match &args.command {
        Command::Summary(a) => summary(a, out),
        Command::Merge(a) => merge(a, out),
    }
}

/// Reads and merges the logs, printing their warnings, with the kind of
/// their lines (`None` when there is none).
///
/// # Errors
/// A log that cannot be read or is no results log; lines of two commands'
/// logs (refused up front, naming both).
fn read_all(paths: &[PathBuf]) -> anyhow::Result<(Merged, Option<LogKind>)> {
    let mut logs = Vec::new();
    for path in paths {
        let (records, warnings) = read_results(path)?;
        for w in warnings {
            eprintln!("wthor: warning: {w}");
        }
        logs.push(records);
    }
    let kind = one_kind(paths, &logs)?;
    Ok((merge_results(&logs), kind))
}

/// One record of a `validate --solve` log.
struct Game<'a> {
    record: &'a LogRecord,
    check: TheoryCheck,
}

/// The merged records as theoretical-score checks.
///
/// # Errors
/// At the first record that is not one (a `puzzles --verify` log, say).
fn games<'a>(merged: &'a Merged, paths: &[PathBuf]) -> anyhow::Result<Vec<Game<'a>>> {
    merged
        .records
        .iter()
        .map(|(log, record)| {
            let check = TheoryCheck::deserialize(&record.value).map_err(|e| {
                anyhow::anyhow!(
                    "{}: line {}: not a theoretical-score result of validate --solve ({e})",
                    paths
                        .get(*log)
                        .map_or(Path::new("?"), PathBuf::as_path)
                        .display(),
                    record.line
                )
            })?;
            Ok(Game { record, check })
        })
        .collect()
}

/// A file of the logs: its name and creation date.
type FileId = (String, String);

fn summary(args: &SummaryArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let (merged, kind) = read_all(&args.logs)?;
    if let Some(other @ (LogKind::Puzzles | LogKind::Analysis)) = kind {
        let (log, first) = &merged.records[0];
        anyhow::bail!(
            "{}:{}: a result of wthor {}: results summary reads the logs of wthor validate --solve",
            args.logs[*log].display(),
            first.line,
            other.command()
        );
    }
    let games = games(&merged, &args.logs)?;
    let conflicts = !merged.conflicts.is_empty();
    report_conflicts(&merged, &args.logs, kind);
    if args.mismatches {
        list_mismatches(&games, args, out)?;
        return Ok(super::exit_code(false, conflicts));
    }
    let mut per_file: BTreeMap<FileId, TheoryTally> = BTreeMap::new();
    let mut total = TheoryTally::default();
    for g in &games {
        let key = &g.record.key;
        per_file
            .entry((key.file.clone(), key.created.clone()))
            .or_default()
            .add(&g.check);
        total.add(&g.check);
    }
    let label = |(file, created): &FileId| {
        if per_file.keys().filter(|(f, _)| f == file).count() > 1 {
            format!("{file} of {created}")
        } else {
            file.clone()
        }
    };
    if args.json {
        let files: Vec<_> = per_file
            .iter()
            .map(|((file, created), t)| {
                let mut v = t.to_json();
                v["file"] = file.clone().into();
                v["created"] = created.clone().into();
                v
            })
            .collect();
        let report = serde_json::json!({
            "logs": args.logs.len(),
            "files": files,
            "total": total.to_json(),
            "duplicates": merged.duplicates,
            "conflicts": merged.conflicts.len(),
        });
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        for (id, t) in &per_file {
            t.write_counts(out, &label(id))?;
            writeln!(out)?;
            t.write_times(out)?;
        }
        total.write_counts(out, "total")?;
        writeln!(out)?;
        total.write_times(out)?;
        writeln!(
            out,
            "logs: {}, duplicate lines: {}, conflicts: {}",
            args.logs.len(),
            merged.duplicates,
            merged.conflicts.len()
        )?;
    }
    Ok(super::exit_code(false, conflicts))
}

/// Each conflict on stderr: the record and what each log says, at which
/// line (`LOG:LINE`).
fn report_conflicts(merged: &Merged, paths: &[PathBuf], kind: Option<LogKind>) {
    for c in &merged.conflicts {
        let says = |(log, r): &(usize, LogRecord)| {
            format!(
                "{}:{}: {}",
                paths
                    .get(*log)
                    .map_or(Path::new("?"), PathBuf::as_path)
                    .display(),
                r.line,
                outcome_words(kind, &r.value)
            )
        };
        eprintln!(
            "wthor: conflict: {}:{} ({} of {}): {}; {}",
            file_label(&c.key.file),
            c.key.index,
            c.key.file,
            c.key.created,
            says(&c.kept),
            says(&c.other)
        );
    }
}

/// What a result line says, in a few words: `mismatch (stored 34, solved
/// 30)`, `ok`, `2 problems: …`, `theoretical ok, 20 moves judged, 14
/// discs lost`.
fn outcome_words(kind: Option<LogKind>, v: &serde_json::Value) -> String {
    let text = |key: &str| v[key].as_str().unwrap_or("?").to_owned();
    match kind {
        Some(LogKind::Puzzles) => {
            if v["ok"].as_bool() == Some(true) {
                "ok".to_owned()
            } else {
                let problems: Vec<&str> = v["problems"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|p| p.as_str()).collect())
                    .unwrap_or_default();
                format!(
                    "{}: {}",
                    count(problems.len(), "problem", "problems"),
                    problems.join("; ")
                )
            }
        }
        Some(LogKind::Analysis) => {
            if let Some(error) = v["error"].as_str() {
                return format!("error: {error}");
            }
            let moves = v["moves"].as_array().map_or(&[][..], Vec::as_slice);
            let lost: i64 = moves.iter().filter_map(|m| m["loss"].as_i64()).sum();
            let theoretical = v["theoretical"]
                .as_str()
                .map_or_else(String::new, |t| format!("theoretical {t}, "));
            format!(
                "{theoretical}{} judged, {} lost",
                count(moves.len(), "move", "moves"),
                count(lost, "disc", "discs")
            )
        }
        _ => format!(
            "{} (stored {}, solved {})",
            text("status"),
            v["stored"],
            v["solved"]
        ),
    }
}

/// Says on stderr when the merged records of `analyze` logs were
/// estimated by several searches: each with its count and a line that
/// holds it (`LOG:LINE`).
fn note_estimators(merged: &Merged, paths: &[PathBuf]) {
    let mut by: Vec<(String, usize, String)> = Vec::new();
    for (log, r) in &merged.records {
        let name = GameAnalysis::deserialize(&r.value)
            .map_or_else(|_| OLD_ESTIMATES.to_owned(), |g| g.estimated_by());
        match by.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, k, _)) => *k += 1,
            None => {
                let at = format!(
                    "{}:{}",
                    paths
                        .get(*log)
                        .map_or(Path::new("?"), PathBuf::as_path)
                        .display(),
                    r.line
                );
                by.push((name, 1, at));
            }
        }
    }
    if by.len() > 1 {
        let each: Vec<String> = by
            .iter()
            .map(|(name, k, at)| format!("{name} ({}, as {at})", count(*k, "record", "records")))
            .collect();
        eprintln!(
            "wthor: note: the merged log mixes the estimates of {}; each line keeps its own \
             `estimate` (none: the {OLD_ESTIMATES}), and the moves logged are the exact ones, \
             which no estimate changes",
            each.join(" and ")
        );
    }
}

/// One game whose stored score disagrees with the solver's.
#[derive(Debug, Serialize)]
struct Mismatch<'a> {
    identity: String,
    file: &'a str,
    created: &'a str,
    index: usize,
    black: &'a str,
    white: &'a str,
    stored: u8,
    solved: Option<u8>,
    status: &'static str,
    obf: Option<&'a str>,
}

fn list_mismatches(
    games: &[Game<'_>],
    args: &SummaryArgs,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let rows: Vec<Mismatch<'_>> = games
        .iter()
        .filter(|g| {
            matches!(
                g.check.status,
                TheoryStatus::Mismatch | TheoryStatus::Impossible
            )
        })
        .map(|g| {
            let key = &g.record.key;
            let v = &g.record.value;
            Mismatch {
                identity: format!("{}:{}", file_label(&key.file), key.index),
                file: &key.file,
                created: &key.created,
                index: key.index,
                black: v["black"].as_str().unwrap_or(""),
                white: v["white"].as_str().unwrap_or(""),
                stored: g.check.stored,
                solved: g.check.solved,
                status: g.check.status.as_str(),
                obf: g.check.obf.as_deref(),
            }
        })
        .collect();
    if args.json {
        for row in &rows {
            serde_json::to_writer(&mut *out, row)?;
            writeln!(out)?;
        }
        return Ok(());
    }
    match args.format {
        Format::Csv => {
            writeln!(
                out,
                "identity,file,created,index,black,white,stored,solved,status,obf"
            )?;
            for r in &rows {
                let fields = [
                    r.identity.clone(),
                    r.file.to_owned(),
                    r.created.to_owned(),
                    r.index.to_string(),
                    r.black.to_owned(),
                    r.white.to_owned(),
                    r.stored.to_string(),
                    r.solved.map(|s| s.to_string()).unwrap_or_default(),
                    r.status.to_owned(),
                    r.obf.unwrap_or_default().to_owned(),
                ];
                let line: Vec<String> = fields.iter().map(|f| field(f)).collect();
                writeln!(out, "{}", line.join(","))?;
            }
        }
        Format::Text => {
            for r in &rows {
                writeln!(
                    out,
                    "{} ({} record {}): {} vs {}: stored {}, solved {} ({}); position {}",
                    r.identity,
                    r.file,
                    r.index,
                    r.black,
                    r.white,
                    r.stored,
                    r.solved.map_or_else(|| "?".to_owned(), |s| s.to_string()),
                    r.status,
                    r.obf.unwrap_or("unknown (an older log)")
                )?;
            }
            writeln!(out, "games whose stored score disagrees: {}", rows.len())?;
        }
    }
    Ok(())
}

fn merge(args: &MergeArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let (merged, kind) = read_all(&args.logs)?;
    if !merged.conflicts.is_empty() {
        // A merged log keeps one line per record: written, it would keep
        // one side of each conflict and lose the other.
        report_conflicts(&merged, &args.logs, kind);
        eprintln!(
            "wthor: {}: nothing written: the logs disagree ({}); settle them first",
            args.output.display(),
            count(merged.conflicts.len(), "conflict", "conflicts")
        );
        return Ok(super::exit_code(false, true));
    }
    let mut bytes = Vec::new();
    for (_, r) in &merged.records {
        serde_json::to_writer(&mut bytes, &r.value)?;
        bytes.push(b'\n');
    }
    wthor_db::atomic::write(&args.output, &bytes)?;
    if kind == Some(LogKind::Analysis) {
        note_estimators(&merged, &args.logs);
    }
    writeln!(
        out,
        "{}: {} from {} ({})",
        args.output.display(),
        count(merged.records.len(), "record", "records"),
        count(args.logs.len(), "log", "logs"),
        count(merged.duplicates, "duplicate line", "duplicate lines"),
    )?;
    Ok(ExitCode::SUCCESS)
}
