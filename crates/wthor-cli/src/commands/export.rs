//! `wthor export [filters] --format F [-o FILE]`: the games of a database
//! in a text format (CSV, JSON Lines, GGF, transcripts, OBF; written by
//! [`wthor_db::text`]) or as a Parquet table (games, or with `--positions`
//! their positions; [`wthor_parquet`]).
//!
//! The games are those the filters select (all by default), in database
//! order unless `--sort`. Without `-o` they go to standard output (not
//! Parquet: a usage error); with it, to a temporary file beside FILE,
//! synced, then renamed over FILE, so that FILE is never half-written. The
//! format is `--format`, else FILE's extension (`.csv .jsonl .ggf .txt
//! .obf .parquet`). `--dedupe` leaves out the later copies of games whose
//! moves are equal up to symmetry ([`Database::dedupe`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::index::IndexChoice;
use wthor_db::{Database, GameId, OpenOptions};

use crate::db_args::DbArgs;
use crate::query_args::QueryArgs;
use crate::textfmt::count;
use crate::textfmt::{
    self, Export, ExportChoiceError, ExportCounts, FileFormat, Format, FormatArg,
};

/// Arguments of `wthor export`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::EXPORT)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    /// The format (default: from the extension of -o; CSV on standard
    /// output).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The file to write (default: standard output; Parquet needs a file).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Parquet: one row per position of the 8x8 games (the columns of
    /// Python's Database.positions()) instead of one per game.
    #[arg(long)]
    positions: bool,
    /// OBF: the positions at this many empty squares, 0 to 60 on 8x8 (96 on
    /// 10x10); default: each file's depth, where the stored theoretical
    /// score is the known value (at 0, the real score is).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=96))]
    empties: Option<u8>,
    /// The encoding of the names files (WHATWG label; default windows-1252).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Keep only the first copy (in database order) of games whose moves
    /// are equal up to the 8 symmetries (as `wthor duplicates` finds them
    /// among the games selected; later copies of both kinds are left out).
    #[arg(long)]
    dedupe: bool,
}

/// The open options of an export: moves checked when replayed, names in
/// `encoding` (a WHATWG label; default windows-1252).
pub(crate) fn open_options(encoding: Option<&str>) -> anyhow::Result<OpenOptions> {
    let mut options = OpenOptions::default();
    options.read.check_moves = false;
    if let Some(label) = encoding {
        options.read = options
            .read
            .with_encoding_label(label)
            .with_context(|| format!("--encoding {label}"))?;
    }
    Ok(options)
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let format = match (args.format, &args.output) {
        (Some(f), _) => f.into(),
        (None, Some(path)) => FileFormat::from_path(path).with_context(|| {
            format!(
                "{}: give --format, or an extension .csv, .jsonl, .ggf, .txt, .obf or .parquet",
                path.display()
            )
        })?,
        // Standard output, no extension to go by: the seed's CSV.
        (None, None) => FileFormat::Text(Format::Csv),
    };
    if format == FileFormat::Parquet && args.output.is_none() {
        anyhow::bail!("--format parquet writes a file, not standard output: give -o FILE.parquet");
    }
    let export = Export::new(format, args.positions, args.empties).map_err(|e| match e {
        ExportChoiceError::PositionsInText => anyhow::anyhow!(
            "--positions is a Parquet table: give --format parquet or -o FILE.parquet"
        ),
    })?;
    let query = args.query.build()?;
    let db = args
        .db
        .open_with_options(&[], open_options(args.encoding.as_deref())?)?;
    let mut ids = db.searcher(IndexChoice::Never).search(&query)?.value;
    if args.dedupe {
        ids = db.dedupe(&ids);
    }
    if let Some(empties) = args.empties {
        textfmt::check_empties(&db, &ids, empties)
            .with_context(|| format!("--empties {empties}"))?;
    }
    let counts = write_export(&db, &ids, &export, args.output.as_deref(), out)?;
    Ok(report(&counts, export.rows(), args.output.as_deref()))
}

/// Exports `ids` to `output` (atomically) or to `out` (text only).
pub(crate) fn write_export(
    db: &Database,
    ids: &[GameId],
    export: &Export,
    output: Option<&Path>,
    out: &mut dyn Write,
) -> anyhow::Result<ExportCounts> {
    match (export, output) {
        (export, Some(path)) => Ok(export.to_file(db, ids, path)?),
        (Export::Text(options), None) => Ok(textfmt::export(db, ids, options, out)?),
        (Export::Parquet(_), None) => {
            anyhow::bail!("Parquet is written to a file, not to standard output: give -o FILE")
        }
    }
}

/// Prints what was written and skipped on stderr; the exit code.
pub(crate) fn report(counts: &ExportCounts, rows: &str, output: Option<&Path>) -> ExitCode {
    if let Some(path) = output {
        // `games`, `positions`: the singular drops the s.
        let one = rows.strip_suffix('s').unwrap_or(rows);
        eprintln!(
            "wthor: {}: {} written",
            path.display(),
            count(counts.written, one, rows)
        );
    }
    if counts.short > 0 {
        eprintln!(
            "wthor: {} before the position asked for: skipped",
            if counts.short == 1 {
                "1 game ends".to_owned()
            } else {
                format!("{} games end", counts.short)
            }
        );
    }
    if counts.bad_moves > 0 {
        eprintln!(
            "wthor: {} a move that is no square or illegal: written up to it (skipped in OBF)",
            if counts.bad_moves == 1 {
                "1 game has".to_owned()
            } else {
                format!("{} games have", counts.bad_moves)
            }
        );
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}
