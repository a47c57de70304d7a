//! The text formats of games: CSV, JSON Lines, GGF, transcripts and OBF,
//! one writer and one reader each (a module per format holds its writer;
//! [`read`] reads every input of an import, [`follow`] a file still being
//! written); the crate `wthor-parquet` writes the games or their positions
//! as Parquet tables from the same [`Row`]s. `wthor export`, `wthor
//! convert`, `wthor import`, `wthor stream --follow` and Python's
//! `Database.export` / `wthor.read_games` all go through here; nothing
//! prints.
//!
//! Export writes games in parallel chunks (rayon), each chunk into its own
//! pre-sized buffer, in database order; a game's fields are borrowed (names
//! from the decoded names tables, move names from a table built once), so
//! that a game costs no allocation of its own.

use std::io::Write;
use std::path::Path;

use crate::{Database, GameId, NameRef};
use rayon::prelude::*;
use wthor_format::{BoardSize, GameView};

pub mod csv;
pub mod follow;
pub mod ggf;
pub mod jsonl;
pub mod obf;
pub mod read;
pub mod record;
pub mod transcript;

pub use record::GameRecord;

/// Games per unit of parallel work.
const CHUNK: usize = 2048;

/// A text format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
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
}

impl Format {
    /// Every text format.
    pub const ALL: [Format; 5] = [
        Format::Csv,
        Format::Jsonl,
        Format::Ggf,
        Format::Transcript,
        Format::Obf,
    ];

    /// The format of a file name's extension (`.csv .jsonl .ggf .txt .obf`,
    /// any case): the one whose [`extension`](Format::extension) it is.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?;
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// The file extension of the format, without the dot: `csv`, `jsonl`,
    /// `ggf`, `txt`, `obf`.
    ///
    /// ```
    /// use wthor_db::text::Format;
    /// assert_eq!(Format::Transcript.extension(), "txt");
    /// assert_eq!(Format::from_path("games.TXT".as_ref()), Some(Format::Transcript));
    /// ```
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::Jsonl => "jsonl",
            Format::Ggf => "ggf",
            Format::Transcript => "txt",
            Format::Obf => "obf",
        }
    }

    /// The media type of a download in the format (UTF-8 text):
    /// `text/csv; charset=utf-8`, `application/x-ndjson`, else
    /// `text/plain; charset=utf-8`.
    #[must_use]
    pub const fn media_type(self) -> &'static str {
        match self {
            Format::Csv => "text/csv; charset=utf-8",
            Format::Jsonl => "application/x-ndjson",
            Format::Ggf | Format::Transcript | Format::Obf => "text/plain; charset=utf-8",
        }
    }

    /// The format of a name, as the CLI's `--format` and Python's
    /// `format=` spell it: `csv`, `jsonl`, `ggf`, `transcript` (or `txt`),
    /// `obf`, any case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Format> {
        Some(match name.to_ascii_lowercase().as_str() {
            "csv" => Format::Csv,
            "jsonl" => Format::Jsonl,
            "ggf" => Format::Ggf,
            "transcript" | "txt" => Format::Transcript,
            "obf" => Format::Obf,
            _ => return None,
        })
    }
}

/// The format of an export file: a text format, or Parquet (which the
/// crate `wthor-parquet` writes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    /// A text format.
    Text(Format),
    /// A Parquet table.
    Parquet,
}

impl FileFormat {
    /// The format of a file name's extension (`.csv .jsonl .ggf .txt .obf
    /// .parquet`).
    #[must_use]
    pub fn from_path(path: &Path) -> Option<FileFormat> {
        let parquet = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
        if parquet {
            return Some(FileFormat::Parquet);
        }
        Format::from_path(path).map(FileFormat::Text)
    }

    /// The file extension of the format, without the dot (`parquet`, or
    /// [`Format::extension`]).
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            FileFormat::Text(f) => f.extension(),
            FileFormat::Parquet => "parquet",
        }
    }

    /// The media type of a download in the format
    /// (`application/vnd.apache.parquet`, or [`Format::media_type`]).
    #[must_use]
    pub const fn media_type(self) -> &'static str {
        match self {
            FileFormat::Text(f) => f.media_type(),
            FileFormat::Parquet => "application/vnd.apache.parquet",
        }
    }

    /// The format of a name: those of [`Format::from_name`], or
    /// `parquet`, any case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<FileFormat> {
        if name.eq_ignore_ascii_case("parquet") {
            return Some(FileFormat::Parquet);
        }
        Format::from_name(name).map(FileFormat::Text)
    }
}

/// What a game of the database gives the writers (those of this module
/// and `wthor-parquet`'s): the game and its file's fields, its names.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a> {
    /// The game.
    pub id: GameId,
    /// Its record.
    pub game: GameView<'a>,
    /// Its file's year.
    pub year: u16,
    /// Its board's size.
    pub size: BoardSize,
    /// The empties of its theoretical score (its file's).
    pub depth: u8,
    /// Its tournament's name.
    pub tournament: NameRef<'a>,
    /// Black's name.
    pub black: NameRef<'a>,
    /// White's name.
    pub white: NameRef<'a>,
}

impl Row<'_> {
    /// The game's named opening ([`OpeningTable::opening_of_view`](crate::openings::OpeningTable::opening_of_view):
    /// the deepest named position it passes through; `None` on 10x10).
    #[must_use]
    pub fn opening(&self) -> Option<&'static crate::openings::Opening> {
        crate::openings::table().opening_of_view(&self.game)
    }

    /// Black's and white's ratings of the game's year ([`rating`]).
    #[must_use]
    pub fn ratings(&self, db: &Database) -> (Option<f64>, Option<f64>) {
        (
            rating(db, self.black.name, self.year, self.size),
            rating(db, self.white.name, self.year, self.size),
        )
    }
}

/// The rating in `year` of the player `name` by the whole-history fit of
/// the database ([`Database::filter_ratings`], made once per database: the
/// rating filter's), rounded to a tenth: what a game record's
/// `blackRating` and `whiteRating` hold. `None` for a player without
/// ratings (`???`, a name the fit left out) and on 10x10, which the fit
/// does not rate. A player without games that year has the fitted curve's
/// value ([`rating_in`](crate::ratings::PlayerRatings::rating_in)).
#[must_use]
pub fn rating(db: &Database, name: Option<&str>, year: u16, size: BoardSize) -> Option<f64> {
    if size != BoardSize::Eight {
        return None;
    }
    db.filter_ratings()
        .named(name?)
        .and_then(|p| p.rating_in(year))
        .map(|r| (r * 10.0).round() / 10.0)
}

/// Options of an export.
#[derive(Clone, Copy, Debug)]
pub struct ExportOptions {
    /// The format.
    pub format: Format,
    /// OBF: the empties of the positions (default each file's depth).
    pub empties: Option<u8>,
}

/// What an export wrote, and what it could not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ExportCounts {
    /// Games (or positions) written.
    pub written: usize,
    /// Games whose moves stop at a byte that is no square (written up to
    /// it; skipped in OBF).
    pub bad_moves: usize,
    /// OBF: games that end before the position asked for (skipped).
    pub short: usize,
}

impl std::ops::AddAssign for ExportCounts {
    fn add_assign(&mut self, o: ExportCounts) {
        self.written += o.written;
        self.bad_moves += o.bad_moves;
        self.short += o.short;
    }
}

/// Writes one game in the format to `out`.
fn write_row(
    row: &Row<'_>,
    db: &Database,
    options: &ExportOptions,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> ExportCounts {
    match options.format {
        Format::Csv => csv::write_row(row, db, scratch, out),
        Format::Jsonl => jsonl::write_row(row, db, out),
        Format::Ggf => ggf::write_row(row, out),
        Format::Transcript => transcript::write_row(row, out),
        Format::Obf => obf::write_row(row, db, options.empties, out),
    }
}

/// Per-chunk reusable buffers.
#[derive(Default)]
pub(crate) struct Scratch {
    pub(crate) field: Vec<u8>,
    pub(crate) csv: Option<::csv::Writer<Vec<u8>>>,
}

/// The bytes a game takes at most in a format, roughly (pre-sizing).
fn estimate(format: Format) -> usize {
    match format {
        Format::Csv => 260,
        Format::Jsonl => 900,
        Format::Ggf => 700,
        Format::Transcript => 125,
        Format::Obf => 110,
    }
}

/// The row of game `id` (None when the database has no such game).
#[must_use]
pub fn row(db: &Database, id: GameId) -> Option<Row<'_>> {
    let file = db.file_of(id)?;
    let game = db.game(id)?;
    Some(Row {
        id,
        game,
        year: file.year(),
        size: file.board_size()?,
        depth: file.header().depth(),
        tournament: db.tournament(id),
        black: db.black(id),
        white: db.white(id),
    })
}

/// Chunks generated in parallel before they are written: memory stays
/// bounded and the buffers are reused from one batch to the next.
const BATCH: usize = 16;

/// Writes the games `ids` of `db` in the format to `out` (a header first
/// for CSV), in order; the counts of what was written and skipped:
/// [`write_header`] then [`export_rows`].
///
/// # Errors
/// When `out` fails.
pub fn export(
    db: &Database,
    ids: &[GameId],
    options: &ExportOptions,
    out: &mut dyn Write,
) -> std::io::Result<ExportCounts> {
    write_header(options.format, out)?;
    export_rows(db, ids, options, out)
}

/// Writes what a file of the format starts with: CSV's header line,
/// nothing for the others.
///
/// # Errors
/// When `out` fails.
pub fn write_header(format: Format, out: &mut dyn Write) -> std::io::Result<()> {
    if format == Format::Csv {
        out.write_all(&csv::header())?;
    }
    Ok(())
}

/// Writes the games `ids` of `db` in the format, without a header: an
/// export written in parts (a server streaming one part at a time) is
/// [`write_header`], then the parts' rows in order, the bytes of
/// [`export`].
///
/// # Errors
/// When `out` fails.
pub fn export_rows(
    db: &Database,
    ids: &[GameId],
    options: &ExportOptions,
    out: &mut dyn Write,
) -> std::io::Result<ExportCounts> {
    // Decode every names table once, before the threads race for it.
    for f in 0..db.files().len() {
        let _ = db.names(f);
    }
    // The ratings of CSV and JSON Lines rows, made now, outside the pool:
    // made by a row inside a job, their own parallel work could run
    // another chunk's job on the same thread, which would wait for them
    // (a re-entered `OnceLock`).
    if matches!(options.format, Format::Csv | Format::Jsonl) && !ids.is_empty() {
        let _ = db.filter_ratings();
    }
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    let mut total = ExportCounts::default();
    for batch in ids.chunks(CHUNK * BATCH) {
        let chunks: Vec<&[GameId]> = batch.chunks(CHUNK).collect();
        buffers.resize_with(buffers.len().max(chunks.len()), Vec::new);
        let counts: Vec<ExportCounts> = chunks
            .par_iter()
            .zip(buffers.par_iter_mut())
            .map(|(chunk, out)| {
                out.clear();
                out.reserve(chunk.len() * estimate(options.format));
                let mut scratch = Scratch::default();
                let mut counts = ExportCounts::default();
                for &id in *chunk {
                    if let Some(r) = row(db, id) {
                        counts += write_row(&r, db, options, &mut scratch, out);
                    }
                }
                csv::finish(&mut scratch, out);
                counts
            })
            .collect();
        for (c, buf) in counts.into_iter().zip(&buffers) {
            total += c;
            out.write_all(buf)?;
        }
    }
    Ok(total)
}

/// Writes the games `ids` of `db` in the format to the file `path`
/// atomically ([`crate::atomic::write_with`]: the file is whole or not
/// written); what [`export`] returns.
///
/// # Errors
/// The step of the atomic write that failed, naming `path`.
pub fn export_file(
    db: &Database,
    ids: &[GameId],
    options: &ExportOptions,
    path: &Path,
) -> Result<ExportCounts, crate::atomic::WriteError> {
    crate::atomic::write_with(path, |w| export(db, ids, options, w))
}

/// Positions asked for at more empty squares than any game selected has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the games selected have at most {most} empty squares")]
pub struct EmptiesError {
    /// The empties asked for.
    pub asked: u8,
    /// The most empty squares a game selected can have: 60 (8x8), 96
    /// (10x10).
    pub most: u8,
}

/// Checks the empties of an OBF export against the games `ids` (60 empty
/// squares at most on 8x8, 96 on 10x10; 60 when no game is selected).
///
/// # Errors
/// [`EmptiesError`] when `empties` is more than any game can have.
pub fn check_empties(db: &Database, ids: &[GameId], empties: u8) -> Result<(), EmptiesError> {
    let most = ids
        .iter()
        .filter_map(|&id| db.file_of(id)?.board_size())
        .map(|s| if s == BoardSize::Ten { 96 } else { 60 })
        .max()
        .unwrap_or(60);
    if empties > most {
        return Err(EmptiesError {
            asked: empties,
            most,
        });
    }
    Ok(())
}

/// A number's decimal digits in `buf`.
#[inline]
pub(crate) const fn digits(n: u32, buf: &mut [u8; 10]) -> &[u8] {
    let mut i = buf.len();
    let mut n = n;
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.split_at(i).1
}

// `digits` at both ends of its range, checked when the crate compiles:
// the writers' numbers stop at 65 535 (tested through `export`), so no
// file written shows the widest number.
const _: () = {
    const fn is(n: u32, text: &[u8]) -> bool {
        let mut buf = [0u8; 10];
        let d = digits(n, &mut buf);
        if d.len() != text.len() {
            return false;
        }
        let mut i = 0;
        while i < d.len() {
            if d[i] != text[i] {
                return false;
            }
            i += 1;
        }
        true
    }
    assert!(is(0, b"0"));
    assert!(is(65_535, b"65535"));
    assert!(is(u32::MAX, b"4294967295"));
};

/// Black's disc difference from black's discs on a board of `size`.
pub(crate) fn disc_diff(black: u8, size: BoardSize) -> i32 {
    2 * i32::from(black) - i32::from(size.squares())
}

/// A name for text output: the name, or "" when the number is beyond the
/// names file.
pub(crate) fn name_text<'a>(n: &NameRef<'a>) -> &'a str {
    n.name.unwrap_or("")
}
