//! `wthor convert IN -o OUT`: parse a WTHOR file and write it again, or
//! write its games (or names) as text.
//!
//! The output format is chosen by OUT's extension: the same WTHOR kind as
//! IN, or for a game file a format of `wthor export` (`.csv`, `.jsonl`,
//! `.ggf`, `.txt` transcripts, `.obf`, `.parquet` games), names joined from IN's
//! directory, or for a players or tournaments file `.csv` or `.jsonl`
//! (one row per name: its number and the name). The output is
//! written to a temporary file in OUT's directory and renamed over OUT, so a
//! failure leaves no partial file and an existing OUT intact. OUT may be IN
//! itself (rewritten in place through the same rename).
//!
//! What changes: a header record count that disagrees with the file is set
//! to the number of records written; trailing bytes shorter than a record are
//! dropped. Each is announced as a warning of the read, on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use wthor_format::{FileKind, ReadOptions};

use super::info::read_regular;

use crate::textfmt::count;

/// Arguments of `wthor convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The WTHOR file to read.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The file to write; its extension chooses the format
    /// (.wtb, .wtd, .jou, .trn, .pzz; for games also .csv, .jsonl, .ggf,
    /// .txt, .obf, .parquet; for players and tournaments also .csv, .jsonl: number
    /// and name).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Refuse input with any warning.
    #[arg(long)]
    strict: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let input = &args.input;
    let output = &args.output;
    if let Some(format) = crate::textfmt::FileFormat::from_path(output) {
        return match FileKind::from_path(input) {
            Some(kind @ (FileKind::Players | FileKind::Tournaments)) => {
                names_to_text(input, kind, output, format, args.strict, out)
            }
            _ => to_text(input, output, format),
        };
    }
    let out_kind = FileKind::from_path(output).with_context(|| {
        format!(
            "{}: cannot tell the output format from the extension (expected .wtb, .wtd, .jou, .trn, .pzz, or for games .csv, .jsonl, .ggf, .txt, .obf, .parquet, for names .csv, .jsonl)",
            output.display()
        )
    })?;
    let mut options = ReadOptions::default();
    options.strict = args.strict;
    let bytes = read_regular(input)?;
    let file = wthor_format::parse_any(&bytes, FileKind::from_path(input), &options)
        .map_err(|e| e.with_file(input))?;
    if file.kind() != out_kind {
        anyhow::bail!(
            "{}: converting {} to {} is not supported (only the same WTHOR kind for now)",
            input.display(),
            file.kind(),
            out_kind
        );
    }
    for warning in file.warnings() {
        eprintln!("wthor: {}: warning: {warning}", input.display());
    }
    let data = file.to_bytes().map_err(|e| e.with_file(output))?;
    wthor_db::atomic::write(output, &data)?;
    writeln!(
        out,
        "{}: {} of {} written",
        output.display(),
        count(file.len(), "record", "records"),
        file.kind()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the games of `input` (names from its directory) as text or a
/// Parquet games table.
fn to_text(
    input: &Path,
    output: &Path,
    format: crate::textfmt::FileFormat,
) -> anyhow::Result<ExitCode> {
    use crate::textfmt::Export;
    if !matches!(
        FileKind::from_path(input),
        Some(FileKind::Games8 | FileKind::Games10)
    ) {
        anyhow::bail!(
            "{}: only game files (.wtb, .wtd) and names files (.jou, .trn) convert to {}",
            input.display(),
            output.display()
        );
    }
    // The names files beside the game file come with it.
    let db = wthor_db::DatabaseBuilder::new().source(input).open()?;
    let ids: Vec<wthor_db::GameId> = (0..db.files()[0].game_count())
        .map(|i| wthor_db::GameId::new(0, i))
        .collect();
    let export = Export::new(format, false, None)?;
    let counts =
        super::export::write_export(&db, &ids, &export, Some(output), &mut std::io::sink())?;
    Ok(super::export::report(&counts, export.rows(), Some(output)))
}

/// Writes the names of a players or tournaments file as CSV (a header
/// line `number,name`) or JSON Lines (`{"number": 0, "name": "…"}`), one
/// row per record: its number, the one game records use, and its name
/// decoded as the database decodes it (Windows-1252).
fn names_to_text(
    input: &Path,
    kind: FileKind,
    output: &Path,
    format: crate::textfmt::FileFormat,
    strict: bool,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    use crate::textfmt::{FileFormat, Format};
    if !matches!(
        format,
        FileFormat::Text(Format::Csv) | FileFormat::Text(Format::Jsonl)
    ) {
        anyhow::bail!(
            "{}: {kind} convert to .csv or .jsonl, not to {}",
            input.display(),
            output.display()
        );
    }
    let mut options = wthor_db::OpenOptions::default();
    options.read.strict = strict;
    let db = wthor_db::DatabaseBuilder::new()
        .options(options)
        .source(input)
        .open()?;
    let file = &db.files()[0];
    if file.kind() != kind {
        anyhow::bail!(
            "{}: expected a {kind} file, found a {} file",
            input.display(),
            file.kind()
        );
    }
    for warning in file.warnings() {
        eprintln!("wthor: {}: warning: {warning}", input.display());
    }
    let names = db.names(0).context("a names file has names")?;
    let numbers = 0..u16::try_from(names.len()).unwrap_or(u16::MAX);
    let data = match format {
        FileFormat::Text(Format::Csv) => {
            let mut w = ::csv::Writer::from_writer(Vec::new());
            w.write_record(["number", "name"])?;
            for n in numbers {
                w.write_record([n.to_string().as_str(), names.get(n).unwrap_or_default()])?;
            }
            w.into_inner()
                .map_err(|e| anyhow::anyhow!("{}", e.error()))?
        }
        _ => {
            let mut data = Vec::new();
            for n in numbers {
                serde_json::to_writer(
                    &mut data,
                    &serde_json::json!({"number": n, "name": names.get(n).unwrap_or_default()}),
                )?;
                data.push(b'\n');
            }
            data
        }
    };
    wthor_db::atomic::write(output, &data)?;
    let one = if kind == FileKind::Players {
        "player"
    } else {
        "tournament"
    };
    let many = kind.to_string();
    writeln!(
        out,
        "{}: {} written",
        output.display(),
        crate::textfmt::count(names.len(), one, &many)
    )?;
    Ok(ExitCode::SUCCESS)
}
