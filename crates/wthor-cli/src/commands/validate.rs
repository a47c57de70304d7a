//! `wthor validate PATH...`: replay every game of WTHOR files and report the
//! counts and what does not hold.
//!
//! A directory stands for the WTHOR files inside it (with `--recursive`, of
//! its subdirectories too); one holding neither game nor puzzle files is a
//! usage error. Every game is replayed from the start position
//! with implicit passes (in parallel over the games); the report gives the
//! numbers of files, games, legal, illegal, finished and unfinished games,
//! and of real-score mismatches: finished games whose stored score is not
//! the WTHOR-rule score (empties to the winner, a draw splits them).
//! Unfinished games store the recorded result, so they are counted apart and
//! never compared. Findings (illegal games, mismatches) are listed with their
//! file and 0-based record index (the index `wthor replay FILE INDEX` takes).
//!
//! Exit code: 0 when every file could be read, whatever was found; 2 when a
//! file could not be read (reported on stderr, the others still checked);
//! else 1 with `--strict` when there is any finding or format warning.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use othello_core::Size;
use serde_json::json;
use wthor_db::{Database, DbFile, Finding, OpenOptions, Reads};
use wthor_format::BoardSize;

use crate::textfmt::count;

/// Arguments of `wthor validate`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// WTHOR files or directories (default: the `--db` directories, else
    /// those of WTHOR_DIR).
    #[arg(value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// A database directory or file, as the other commands take it;
    /// repeatable, added to PATH.
    #[arg(long = "db", value_name = "DIR")]
    db: Vec<PathBuf>,
    /// Also read the subdirectories of directories.
    #[arg(long, short)]
    recursive: bool,
    /// Print the counts of every file too.
    #[arg(long)]
    by_file: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Exit 1 when anything is found (illegal game, score mismatch, format
    /// warning).
    #[arg(long)]
    strict: bool,
    /// Read files into memory instead of memory-mapping them.
    #[arg(long)]
    no_mmap: bool,
    /// Exact-solver check of the theoretical scores (with `--solve`, instead
    /// of the replay check).
    #[command(flatten)]
    solve: crate::verify::SolveArgs,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut paths: Vec<PathBuf> = args.paths.iter().chain(&args.db).cloned().collect();
    if paths.is_empty() {
        paths = crate::db_args::env_sources();
    }
    if paths.is_empty() {
        return Err(anyhow::anyhow!(
            "nothing to validate: give PATH, --db DIR or set WTHOR_DIR"
        ));
    }
    if args.solve.solve {
        return crate::verify::run_theory(
            &args.solve,
            &paths,
            args.recursive,
            args.strict,
            args.json,
            out,
        );
    }
    let mut options = OpenOptions::default();
    options.mmap = !args.no_mmap;
    options.recursive = args.recursive;
    // validate checks files: one cut inside a record is unreadable here,
    // where the queries read its whole records.
    options.read.read_cut_records = false;
    let mut unreadable: Vec<(String, String)> = Vec::new();
    let mut files = Vec::new();
    for path in &paths {
        let paths = if path.is_dir() {
            // A folder of neither games nor puzzles is a wrong path: a
            // usage error, not "games: 0".
            match wthor_db::list_folder(path, args.recursive, Reads::GamesOrPuzzles) {
                Ok(p) => p,
                Err(e @ wthor_db::Error::NoFilesToRead { .. }) => return Err(e.into()),
                Err(e) => {
                    unreadable.push((path.display().to_string(), wthor_db::error_chain(&e)));
                    continue;
                }
            }
        } else {
            vec![path.clone()]
        };
        for p in paths {
            match DbFile::open(&p, &options) {
                Ok(f) => files.push(f),
                Err(e) => unreadable.push((p.display().to_string(), wthor_db::error_chain(&e))),
            }
        }
    }
    for (_, err) in &unreadable {
        eprintln!("wthor: {err}");
    }
    let db = Database::from_files(".", files);
    let summary = db.par_check_games();
    let t = summary.totals;
    let warnings: usize = db.files().iter().map(|f| f.warnings().len()).sum();
    let game_files = db
        .files()
        .iter()
        .filter(|f| f.board_size().is_some())
        .count();
    let findings: Vec<&Finding> = summary.per_file.iter().flat_map(|f| &f.findings).collect();

    if args.json {
        let findings_json: Vec<_> = findings
            .iter()
            .map(|x| {
                let file = &db.files()[x.file];
                json!({
                    "file": file.path().display().to_string(),
                    "record": x.game,
                    "game": db.game_name(x.id()).to_string(),
                    "black": db.black(x.id()).to_string(),
                    "white": db.white(x.id()).to_string(),
                    "finding": describe(file, x),
                    "moves": x.check.moves,
                    "passes": x.check.passes,
                    "finished": x.check.status == othello_core::replay::GameStatus::Finished,
                    "score": x.check.score,
                    "stored_score": x.check.stored,
                })
            })
            .collect();
        let mut report = json!({
            "files": db.files().len(),
            "game_files": game_files,
            "unreadable": unreadable.iter().map(|(p, e)| json!({"path": p, "error": e})).collect::<Vec<_>>(),
            "warnings": warnings,
            "games": t.games,
            "legal": t.legal,
            "illegal": t.illegal,
            "finished": t.finished,
            "unfinished": t.unfinished,
            "score_mismatches": t.mismatches,
            "moves": t.moves,
            "passes": t.passes,
            "findings": findings_json,
        });
        if args.by_file {
            report["by_file"] = db
                .files()
                .iter()
                .zip(&summary.per_file)
                .map(|(f, c)| {
                    json!({
                        "file": f.path().display().to_string(),
                        "kind": f.kind().name(),
                        "warnings": f.warnings().len(),
                        "games": c.counts.games,
                        "legal": c.counts.legal,
                        "illegal": c.counts.illegal,
                        "finished": c.counts.finished,
                        "unfinished": c.counts.unfinished,
                        "score_mismatches": c.counts.mismatches,
                    })
                })
                .collect();
        }
        serde_json::to_writer_pretty(&mut *out, &report)?;
        writeln!(out)?;
    } else {
        for x in &findings {
            let file = &db.files()[x.file];
            writeln!(
                out,
                "{}: record {}: {}; game {}, {} vs {}",
                file.path().display(),
                x.game,
                describe(file, x),
                db.game_name(x.id()),
                db.black(x.id()),
                db.white(x.id())
            )?;
        }
        if args.by_file {
            writeln!(
                out,
                "{:>8} {:>8} {:>8} {:>8} {:>10} {:>10}  file",
                "games", "legal", "illegal", "finished", "unfinished", "mismatches"
            )?;
            for (f, c) in db.files().iter().zip(&summary.per_file) {
                let c = c.counts;
                writeln!(
                    out,
                    "{:>8} {:>8} {:>8} {:>8} {:>10} {:>10}  {}",
                    c.games,
                    c.legal,
                    c.illegal,
                    c.finished,
                    c.unfinished,
                    c.mismatches,
                    f.path().display()
                )?;
            }
        }
        writeln!(
            out,
            "files: {} ({})",
            db.files().len(),
            count(game_files, "game file", "game files")
        )?;
        if !unreadable.is_empty() {
            writeln!(out, "unreadable files: {}", unreadable.len())?;
        }
        writeln!(out, "format warnings: {warnings}")?;
        writeln!(out, "games: {}", t.games)?;
        writeln!(out, "legal: {}", t.legal)?;
        writeln!(out, "illegal: {}", t.illegal)?;
        writeln!(out, "finished: {}", t.finished)?;
        writeln!(out, "unfinished: {}", t.unfinished)?;
        writeln!(out, "score mismatches: {}", t.mismatches)?;
    }
    Ok(super::exit_code(
        !unreadable.is_empty(),
        args.strict && (!findings.is_empty() || warnings > 0),
    ))
}

/// One line about a finding: the illegal move, or the two scores.
fn describe(file: &DbFile, x: &Finding) -> String {
    let size = match file.board_size() {
        Some(BoardSize::Ten) => Size::Ten,
        _ => Size::Eight,
    };
    if let Some(bad) = x.check.illegal {
        format!(
            "illegal {}: {} (after {}, {})",
            bad.describe(size),
            bad.reason,
            count(x.check.moves, "move", "moves"),
            count(x.check.passes, "pass", "passes")
        )
    } else {
        format!(
            "score mismatch: stored {} for black, the WTHOR rule gives {} (discs {}-{})",
            x.check.stored, x.check.score, x.check.discs.0, x.check.discs.1
        )
    }
}
