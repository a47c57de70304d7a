//! `wthor convert IN -o OUT`: parse a WTHOR file and write it again, or
//! write its games as text.
//!
//! The output format is chosen by OUT's extension: the same WTHOR kind as
//! IN, or for a game file a text format of `wthor export` (`.csv`,
//! `.jsonl`, `.ggf`, `.txt` transcripts, `.obf`), names joined from IN's
//! directory. The output is
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

/// Arguments of `wthor convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The WTHOR file to read.
    #[arg(value_name = "IN")]
    input: PathBuf,
    /// The file to write; its extension chooses the format
    /// (.wtb, .wtd, .jou, .trn, .pzz; for games also .csv, .jsonl, .ggf,
    /// .txt, .obf).
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Refuse input with any warning.
    #[arg(long)]
    strict: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let input = &args.input;
    let output = &args.output;
    if let Some(format) = crate::textfmt::Format::from_path(output) {
        return to_text(input, output, format);
    }
    let out_kind = FileKind::from_path(output).with_context(|| {
        format!(
            "{}: cannot tell the output format from the extension (expected .wtb, .wtd, .jou, .trn, .pzz, or for games .csv, .jsonl, .ggf, .txt, .obf)",
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
        "{}: {} records of {} written",
        output.display(),
        file.len(),
        file.kind()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the games of `input` (names from its directory) as text.
fn to_text(
    input: &Path,
    output: &Path,
    format: crate::textfmt::Format,
) -> anyhow::Result<ExitCode> {
    if !matches!(
        FileKind::from_path(input),
        Some(FileKind::Games8 | FileKind::Games10)
    ) {
        anyhow::bail!(
            "{}: only game files (.wtb, .wtd) convert to {}",
            input.display(),
            output.display()
        );
    }
    let mut builder = wthor_db::DatabaseBuilder::new().source(input);
    if let Some(p) = crate::textfmt::read::joined_names(input, FileKind::Players) {
        builder = builder.players(p);
    }
    if let Some(t) = crate::textfmt::read::joined_names(input, FileKind::Tournaments) {
        builder = builder.tournaments(t);
    }
    let db = builder.open()?;
    let ids: Vec<wthor_db::GameId> = (0..db.files()[0].game_count())
        .map(|i| wthor_db::GameId::new(0, i))
        .collect();
    let options = crate::textfmt::ExportOptions {
        format,
        empties: None,
    };
    let counts =
        super::export::write_export(&db, &ids, &options, Some(output), &mut std::io::sink())?;
    Ok(super::export::report(&counts, Some(output)))
}
