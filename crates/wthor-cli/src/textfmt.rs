//! The CLI's side of the text formats, which live in [`wthor_db::text`]
//! (one reader and one writer per format; Parquet in
//! [`wthor_parquet`]): the values of `--format`, what `export`
//! and `convert` write ([`Export`], from the library), and the CSV fields of the CLI's own
//! small tables.

pub(crate) use wthor_db::text::{ExportCounts, FileFormat, Format, check_empties, export};
pub(crate) use wthor_parquet::{Export, ExportChoiceError};

/// The readers of `wthor import` (through [`wthor_db::import::read_all`])
/// and `convert`'s names files.
pub(crate) mod read {
    pub(crate) use wthor_db::text::read::NamesFiles;
}

/// CSV fields of the tables `search`, `stats` and `results` print.
pub(crate) mod csv {
    /// One CSV field of a small hand-written table (`search`, `stats`,
    /// `results`): quoted when it holds a comma, a quote or a line break,
    /// with its quotes doubled (RFC 4180; the test
    /// `csv_names_with_commas_and_quotes_read_back_whole` reads one back).
    pub(crate) fn field(text: &str) -> String {
        if text.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", text.replace('"', "\"\""))
        } else {
            text.to_owned()
        }
    }
}

/// A count and its noun, singular for one: `count(1, "empty", "empties")`
/// is `1 empty`, `count(0, …)` is `0 empties` (the CLI's messages say
/// "1 disc lost", never "1 discs lost").
pub(crate) fn count<N>(n: N, one: &str, many: &str) -> String
where
    N: Copy + std::fmt::Display + TryInto<i128>,
{
    let single = n.try_into().is_ok_and(|n: i128| n.abs() == 1);
    format!("{n} {}", if single { one } else { many })
}

/// A text format, as `--format` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum FormatArg {
    /// RFC 4180 CSV, UTF-8, a header line then one row per game.
    Csv,
    /// JSON Lines: one object per game.
    Jsonl,
    /// GGF: one game per line.
    Ggf,
    /// Transcripts: one game per line (`f5d6c3…`).
    Transcript,
    /// OBF: one position per line, with its known value.
    Obf,
    /// Parquet: one row per game (or per position with --positions), typed
    /// columns; to a file (-o) only.
    Parquet,
}

impl From<FormatArg> for FileFormat {
    fn from(f: FormatArg) -> FileFormat {
        FileFormat::Text(match f {
            FormatArg::Csv => Format::Csv,
            FormatArg::Jsonl => Format::Jsonl,
            FormatArg::Ggf => Format::Ggf,
            FormatArg::Transcript => Format::Transcript,
            FormatArg::Obf => Format::Obf,
            FormatArg::Parquet => return FileFormat::Parquet,
        })
    }
}
