//! The games of a WTHOR database ([`wthor_db`]), or their positions, as a
//! Parquet table with typed columns, written by the `parquet` crate's
//! column writers (Snappy compression, the codec every reader has). Read by DuckDB,
//! Polars, pandas and pyarrow. [`Export`] is what `wthor export` and
//! Python's `Database.export` write: a text format of [`wthor_db::text`] or
//! a Parquet table.
//!
//! A crate of its own so that the Parquet code does not weigh on the build
//! of `wthor-db`. It writes with the `parquet` crate alone, without its
//! Arrow layer: the Arrow crates took a fifth of a fresh test build, for
//! columns this crate fills one value at a time anyway.
//!
//! **Games** ([`Table::Games`]), one row per game, in the order given: the
//! columns of Python's `Database.games_table()` under the same names and
//! types, then four more.
//!
//! | column | type | meaning |
//! |---|---|---|
//! | `id` | string | the game's identity (`2001:5`, `WTH_2001.wtd:3`; [`Database::game_name`]) |
//! | `file` | string | its file's name (`WTH_2001.wtb`) |
//! | `index` | uint32 | its index in the file |
//! | `year` | uint16 | the file's year |
//! | `size` | uint8 | 8 or 10 |
//! | `depth` | uint8 | the empties of the theoretical score (the file's) |
//! | `tournament`, `black`, `white` | string | the names (null when the number is beyond the names file; the CSV writes "") |
//! | `tournament_number`, `black_number`, `white_number` | uint16 | the numbers in the names files |
//! | `real_score`, `theoretical_score` | uint8 | black's discs, as recorded |
//! | `moves` | uint8 | the recorded moves (bytes before the first 0) |
//! | `number` | uint32 | the database-wide number of the game (Python's `Game.number`; the `game` of the positions table) |
//! | `transcript` | string | the moves, `f5d6c3…` (the CSV's `transcript`) |
//! | `squares` | list\<uint8\> | the moves as square indices, `side × row + column` from a1 = 0 (8x8: 0–63, as the positions' `move`; 10x10: 0–99), not WTHOR's bytes |
//! | `opening` | string | the game's named opening, the deepest named position it passes through ([`wthor_db::openings`]; null when none, and on 10x10; the CSV's `opening`) |
//!
//! `transcript` and `squares` stop at the first byte that is no square
//! (the game is counted in [`ExportCounts::bad_moves`]).
//!
//! **Positions** ([`Table::Positions`]), one row per position of the 8x8
//! games (10x10 games have none: their boards need 100 bits): the columns
//! of Python's `Database.positions()` under the same names and types
//! (`player`, `opponent` uint64; `side`, `ply`, `move` uint8; `final`,
//! `theoretical` int8; `game` uint32), built by [`wthor_db::positions`]
//! (see there for their meaning). A game whose replay stops at a move that
//! is no square or illegal gives the rows before it and is counted in
//! `bad_moves`.
//!
//! Row groups hold 65,536 games, or the positions of 16,384 games (about a
//! million rows; a position row is 25 bytes before compression); the
//! positions are made in parallel a row group at a time, so that memory
//! stays bounded whatever the number of games.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

/// The database crate, whose database, game identities and export
/// options this crate's API shows (and through it `othello_core` and
/// `wthor_format`).
pub use wthor_db;

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use wthor_db::atomic::WriteError;

use parquet::basic::Compression;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

use othello_core::Square;
use wthor_db::positions::{self, GameRows};
use wthor_db::text::{ExportCounts, ExportOptions, FileFormat, export_file as text_file, row};
use wthor_db::{Database, GameId, rules_size};

/// Which table to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// One row per game.
    Games,
    /// One row per position of the 8x8 games.
    Positions,
}

/// What an export writes: text, or a Parquet table.
#[derive(Clone, Copy, Debug)]
pub enum Export {
    /// A text format, with its options.
    Text(ExportOptions),
    /// The games or the positions table.
    Parquet(Table),
}

/// Why an export cannot be made as asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ExportChoiceError {
    /// The positions table asked for in a text format.
    #[error("the table of positions is written as Parquet only")]
    PositionsInText,
}

impl Export {
    /// The export of `format`: the positions table instead of the games
    /// (Parquet only) when `positions`; `empties` for OBF.
    ///
    /// # Errors
    /// Positions in a text format.
    pub fn new(
        format: FileFormat,
        positions: bool,
        empties: Option<u8>,
    ) -> Result<Export, ExportChoiceError> {
        match format {
            FileFormat::Text(_) if positions => Err(ExportChoiceError::PositionsInText),
            FileFormat::Text(format) => Ok(Export::Text(ExportOptions { format, empties })),
            FileFormat::Parquet if positions => Ok(Export::Parquet(Table::Positions)),
            FileFormat::Parquet => Ok(Export::Parquet(Table::Games)),
        }
    }

    /// What one row of the output is (`games` or `positions`), for a
    /// report.
    #[must_use]
    pub fn rows(&self) -> &'static str {
        match self {
            Export::Parquet(Table::Positions) => "positions",
            _ => "games",
        }
    }

    /// Writes the games `ids` of `db` to the file `path`, atomically.
    ///
    /// # Errors
    /// The step of the atomic write that failed, naming `path`.
    pub fn to_file(
        &self,
        db: &Database,
        ids: &[GameId],
        path: &Path,
    ) -> Result<ExportCounts, WriteError> {
        match self {
            Export::Text(options) => text_file(db, ids, options, path),
            Export::Parquet(table) => export_file(db, ids, *table, path),
        }
    }
}

/// Games per row group of the games table.
const GAMES_PER_GROUP: usize = 1 << 16;

/// Games per row group of the positions table (about a million
/// positions).
const POSITION_GAMES_PER_GROUP: usize = 1 << 14;

/// The schema of the games table, in Parquet's message syntax: the
/// unsigned and 8- and 16-bit columns are `int32` or `int64` with their
/// logical type, which readers turn into `uint8`, `uint16`… (pyarrow,
/// DuckDB, Polars).
pub const GAMES_SCHEMA: &str = "message games {
  required binary id (STRING);
  required binary file (STRING);
  required int32 index (INTEGER(32, false));
  required int32 year (INTEGER(16, false));
  required int32 size (INTEGER(8, false));
  required int32 depth (INTEGER(8, false));
  optional binary tournament (STRING);
  optional binary black (STRING);
  optional binary white (STRING);
  required int32 tournament_number (INTEGER(16, false));
  required int32 black_number (INTEGER(16, false));
  required int32 white_number (INTEGER(16, false));
  required int32 real_score (INTEGER(8, false));
  required int32 theoretical_score (INTEGER(8, false));
  required int32 moves (INTEGER(8, false));
  required int32 number (INTEGER(32, false));
  required binary transcript (STRING);
  required group squares (LIST) {
    repeated group list {
      required int32 element (INTEGER(8, false));
    }
  }
  optional binary opening (STRING);
}";

/// The schema of the positions table (see [`GAMES_SCHEMA`]).
pub const POSITIONS_SCHEMA: &str = "message positions {
  required int64 player (INTEGER(64, false));
  required int64 opponent (INTEGER(64, false));
  required int32 side (INTEGER(8, false));
  required int32 ply (INTEGER(8, false));
  required int32 move (INTEGER(8, false));
  required int32 final (INTEGER(8, true));
  required int32 theoretical (INTEGER(8, true));
  required int32 game (INTEGER(32, false));
}";

fn schema(table: Table) -> Result<Arc<Type>, ParquetError> {
    Ok(Arc::new(parse_message_type(match table {
        Table::Games => GAMES_SCHEMA,
        Table::Positions => POSITIONS_SCHEMA,
    })?))
}

/// Writes the games `ids` of `db` (in that order) as the Parquet table
/// `table` to `out`; the rows written and the games whose moves stopped
/// early.
///
/// # Errors
/// When `out` fails.
pub fn export<W: Write + Send>(
    db: &Database,
    ids: &[GameId],
    table: Table,
    out: W,
) -> io::Result<ExportCounts> {
    write_table(db, ids, table, out).map_err(io_error)
}

/// [`export`] to the file `path`, atomically
/// ([`wthor_db::atomic::write_file_with`]: the file is whole or not
/// written).
///
/// # Errors
/// The step of the atomic write that failed, naming `path`.
pub fn export_file(
    db: &Database,
    ids: &[GameId],
    table: Table,
    path: &Path,
) -> Result<ExportCounts, WriteError> {
    wthor_db::atomic::write_file_with(path, |file| export(db, ids, table, file))
}

/// An I/O error of the writer as it was; any other error of the Parquet
/// writer as an I/O error.
fn io_error(e: ParquetError) -> io::Error {
    match e {
        ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(e) => *e,
            Err(inner) => io::Error::other(inner),
        },
        e => io::Error::other(e),
    }
}

fn write_table<W: Write + Send>(
    db: &Database,
    ids: &[GameId],
    table: Table,
    out: W,
) -> Result<ExportCounts, ParquetError> {
    // Decode every names table once, before the threads race for it.
    for f in 0..db.files().len() {
        let _ = db.names(f);
    }
    let numbers = db.game_numbers();
    let starts = numbers.starts();
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer = SerializedFileWriter::new(out, schema(table)?, Arc::new(props))?;
    let mut total = ExportCounts::default();
    let per_group = match table {
        Table::Games => GAMES_PER_GROUP,
        Table::Positions => POSITION_GAMES_PER_GROUP,
    };
    for batch in ids.chunks(per_group) {
        let (columns, counts) = match table {
            Table::Games => games_group(db, starts, batch),
            Table::Positions => positions_group(db, starts, batch),
        };
        let mut group = writer.next_row_group()?;
        for values in columns {
            let Some(mut column) = group.next_column()? else {
                return Err(ParquetError::General("more columns than the schema".into()));
            };
            values.write(column.untyped())?;
            column.close()?;
        }
        group.close()?;
        total += counts;
    }
    writer.close()?;
    Ok(total)
}

/// The values of one column of a row group, with the definition and
/// repetition levels of the nullable and list columns.
enum Values {
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    /// A string per row (`levels` when the column is nullable: 1 for a
    /// value, 0 for a null).
    Text {
        values: Vec<ByteArray>,
        levels: Option<Vec<i16>>,
    },
    /// A list of small integers per row, in Parquet's three-level form:
    /// one level pair per item, or one (0, 0) for an empty list.
    List {
        values: Vec<i32>,
        definition: Vec<i16>,
        repetition: Vec<i16>,
    },
}

impl Values {
    fn write(&self, column: &mut ColumnWriter<'_>) -> Result<(), ParquetError> {
        match (self, column) {
            (Values::Int32(v), ColumnWriter::Int32ColumnWriter(w)) => {
                w.write_batch(v, None, None)?;
            }
            (Values::Int64(v), ColumnWriter::Int64ColumnWriter(w)) => {
                w.write_batch(v, None, None)?;
            }
            (Values::Text { values, levels }, ColumnWriter::ByteArrayColumnWriter(w)) => {
                w.write_batch(values, levels.as_deref(), None)?;
            }
            (
                Values::List {
                    values,
                    definition,
                    repetition,
                },
                ColumnWriter::Int32ColumnWriter(w),
            ) => {
                w.write_batch(values, Some(definition), Some(repetition))?;
            }
            _ => {
                return Err(ParquetError::General(
                    "a column's values do not match the schema".into(),
                ));
            }
        }
        Ok(())
    }
}

/// Unsigned and small integers in Parquet's `int32`: the same bits.
fn int32<T: Copy + Into<i64>>(v: &[T]) -> Values {
    Values::Int32(v.iter().map(|&x| x.into() as i32).collect())
}

/// The columns of some games, as they are built.
#[derive(Default)]
struct GameColumns {
    id: Vec<ByteArray>,
    file: Vec<ByteArray>,
    index: Vec<u32>,
    year: Vec<u16>,
    size: Vec<u8>,
    depth: Vec<u8>,
    tournament: Names,
    black: Names,
    white: Names,
    tournament_number: Vec<u16>,
    black_number: Vec<u16>,
    white_number: Vec<u16>,
    real_score: Vec<u8>,
    theoretical_score: Vec<u8>,
    moves: Vec<u8>,
    number: Vec<u32>,
    transcript: Vec<ByteArray>,
    squares: Vec<i32>,
    squares_definition: Vec<i16>,
    squares_repetition: Vec<i16>,
    opening: Names,
    counts: ExportCounts,
}

/// A nullable string column: the names, and a level per row.
#[derive(Default)]
struct Names {
    values: Vec<ByteArray>,
    levels: Vec<i16>,
}

impl Names {
    fn push(&mut self, name: Option<&str>) {
        self.levels.push(i16::from(name.is_some()));
        if let Some(name) = name {
            self.values.push(ByteArray::from(name));
        }
    }

    fn finish(self) -> Values {
        Values::Text {
            values: self.values,
            levels: Some(self.levels),
        }
    }
}

impl GameColumns {
    /// Appends game `id`.
    fn push(&mut self, db: &Database, starts: &[usize], id: GameId, text: &mut Vec<u8>) {
        let Some(r) = row(db, id) else { return };
        let file = &db.files()[id.file()];
        self.id
            .push(ByteArray::from(db.game_name(id).to_string().as_str()));
        self.file.push(ByteArray::from(file.file_name().as_str()));
        self.index
            .push(u32::try_from(id.index()).unwrap_or(u32::MAX));
        self.year.push(r.year);
        self.size.push(r.game.board_size().side());
        self.depth.push(r.depth);
        self.tournament.push(r.tournament.name);
        self.black.push(r.black.name);
        self.white.push(r.white.name);
        self.tournament_number.push(r.game.tournament());
        self.black_number.push(r.game.black());
        self.white_number.push(r.game.white());
        self.real_score.push(r.game.real_score());
        self.theoretical_score.push(r.game.theoretical_score());
        self.moves
            .push(u8::try_from(r.game.move_count()).unwrap_or(u8::MAX));
        let number = starts[id.file()] + id.index();
        self.number.push(u32::try_from(number).unwrap_or(u32::MAX));
        text.clear();
        let complete = wthor_db::text::transcript::write_wthor(&r.game, text);
        self.transcript.push(ByteArray::from(text.clone()));
        let size = rules_size(r.size);
        let before = self.squares.len();
        for &b in r.game.moves_raw().iter().take_while(|&&b| b != 0) {
            let Some(sq) = Square::from_wthor(b, size) else {
                break;
            };
            let first = self.squares.len() == before;
            self.squares.push(sq.index() as i32);
            self.squares_definition.push(1);
            self.squares_repetition.push(i16::from(!first));
        }
        if self.squares.len() == before {
            // An empty list: one level pair, no value.
            self.squares_definition.push(0);
            self.squares_repetition.push(0);
        }
        self.opening.push(r.opening().map(|o| o.name()));
        self.counts += ExportCounts {
            written: 1,
            bad_moves: usize::from(!complete),
            short: 0,
        };
    }

    /// The columns in the order of [`GAMES_SCHEMA`].
    fn finish(self) -> (Vec<Values>, ExportCounts) {
        let columns = vec![
            Values::Text {
                values: self.id,
                levels: None,
            },
            Values::Text {
                values: self.file,
                levels: None,
            },
            int32(&self.index),
            int32(&self.year),
            int32(&self.size),
            int32(&self.depth),
            self.tournament.finish(),
            self.black.finish(),
            self.white.finish(),
            int32(&self.tournament_number),
            int32(&self.black_number),
            int32(&self.white_number),
            int32(&self.real_score),
            int32(&self.theoretical_score),
            int32(&self.moves),
            int32(&self.number),
            Values::Text {
                values: self.transcript,
                levels: None,
            },
            Values::List {
                values: self.squares,
                definition: self.squares_definition,
                repetition: self.squares_repetition,
            },
            self.opening.finish(),
        ];
        (columns, self.counts)
    }
}

/// The games table of `ids`, one row group, built sequentially (the
/// Parquet encoding, not this, takes the time).
fn games_group(db: &Database, starts: &[usize], ids: &[GameId]) -> (Vec<Values>, ExportCounts) {
    let mut c = GameColumns::default();
    let mut text = Vec::with_capacity(200);
    for &id in ids {
        c.push(db, starts, id, &mut text);
    }
    c.finish()
}

/// The positions of the games `ids`, one row group, the games replayed in
/// parallel; the columns in the order of [`POSITIONS_SCHEMA`].
fn positions_group(db: &Database, starts: &[usize], ids: &[GameId]) -> (Vec<Values>, ExportCounts) {
    let (c, bad) = positions::collect_counted(db, ids, |g| GameRows {
        view: g.game,
        depth: g.file.header().depth(),
        game: u32::try_from(starts[g.id.file()] + g.id.index()).unwrap_or(u32::MAX),
    });
    let counts = ExportCounts {
        written: c.len(),
        bad_moves: bad,
        short: 0,
    };
    let bits = |v: &[u64]| Values::Int64(v.iter().map(|&x| x as i64).collect());
    let columns = vec![
        bits(&c.player),
        bits(&c.opponent),
        int32(&c.side),
        int32(&c.ply),
        int32(&c.moves),
        int32(&c.final_diff),
        int32(&c.theoretical),
        int32(&c.game),
    ];
    (columns, counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::{Field, Row};

    fn fixtures() -> Database {
        Database::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")).unwrap()
    }

    fn all(db: &Database) -> Vec<GameId> {
        db.searcher(wthor_db::index::IndexChoice::Never)
            .search(&wthor_db::Query::new())
            .unwrap()
            .value
    }

    /// The rows of a Parquet file in memory and its number of row groups,
    /// read back by the `parquet` crate's reader, which checks the schema
    /// is `expected`.
    fn read(bytes: Vec<u8>, expected: &str) -> (Vec<Row>, usize) {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        let reader = SerializedFileReader::new(file).unwrap();
        let meta = reader.metadata();
        assert_eq!(
            meta.file_metadata().schema(),
            &parse_message_type(expected).unwrap()
        );
        let groups = meta.num_row_groups();
        let rows = reader
            .get_row_iter(None)
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        (rows, groups)
    }

    /// The field of `row` named `name`.
    fn get<'r>(row: &'r Row, name: &str) -> &'r Field {
        row.get_column_iter()
            .find(|(n, _)| n.as_str() == name)
            .map(|(_, f)| f)
            .unwrap_or_else(|| panic!("no column {name}"))
    }

    #[test]
    fn the_games_table_has_a_row_per_game_with_its_fields() {
        let db = fixtures();
        let ids = all(&db);
        let mut out = Vec::new();
        let counts = export(&db, &ids, Table::Games, &mut out).unwrap();
        assert_eq!(counts.written, ids.len());
        let (rows, _) = read(out, GAMES_SCHEMA);
        assert_eq!(rows.len(), ids.len());
        let numbers = db.game_numbers();
        let starts = numbers.starts();
        for (row, &id) in rows.iter().zip(&ids) {
            let g = db.game(id).unwrap();
            let file = &db.files()[id.file()];
            assert_eq!(get(row, "id"), &Field::Str(db.game_name(id).to_string()));
            assert_eq!(get(row, "file"), &Field::Str(file.file_name().to_owned()));
            assert_eq!(get(row, "index"), &Field::UInt(id.index() as u32));
            assert_eq!(get(row, "real_score"), &Field::UByte(g.real_score()));
            assert_eq!(
                get(row, "theoretical_score"),
                &Field::UByte(g.theoretical_score())
            );
            assert_eq!(get(row, "black_number"), &Field::UShort(g.black()));
            assert_eq!(
                get(row, "number"),
                &Field::UInt((starts[id.file()] + id.index()) as u32)
            );
            let size = rules_size(g.board_size());
            let expected: Vec<Field> = g.moves_raw()[..g.move_count()]
                .iter()
                .map(|&m| Field::UByte(Square::from_wthor(m, size).unwrap().index() as u8))
                .collect();
            let Field::ListInternal(squares) = get(row, "squares") else {
                panic!("squares is no list: {row}");
            };
            assert_eq!(squares.elements(), &expected[..]);
            let mut text = Vec::new();
            wthor_db::text::transcript::write_wthor(&g, &mut text);
            assert_eq!(
                get(row, "transcript"),
                &Field::Str(String::from_utf8(text).unwrap())
            );
            match db.black(id).name {
                Some(name) => assert_eq!(get(row, "black"), &Field::Str(name.to_owned())),
                None => assert_eq!(get(row, "black"), &Field::Null),
            }
            match wthor_db::openings::table().opening_of_view(&g) {
                Some(o) => assert_eq!(get(row, "opening"), &Field::Str(o.name().to_owned())),
                None => assert_eq!(get(row, "opening"), &Field::Null),
            }
        }
        // Named games, and none among the 10x10 ones.
        let named = rows.iter().filter(|r| get(r, "opening") != &Field::Null);
        assert!(named.count() > rows.len() / 2);
        for row in &rows {
            if get(row, "size") == &Field::UByte(10) {
                assert_eq!(get(row, "opening"), &Field::Null);
            }
        }
    }

    #[test]
    fn a_game_without_moves_an_empty_list_a_cut_one_its_first_moves_an_unknown_name_null() {
        let dir = tempfile::tempdir().unwrap();
        let testdata = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        for names in ["WTHOR.JOU", "WTHOR.TRN"] {
            std::fs::copy(testdata.join(names), dir.path().join(names)).unwrap();
        }
        let mut bytes = std::fs::read(testdata.join("WTH_2001.wtb")).unwrap();
        // Game #1 cut after 10 moves, game #2 without any (moves are the
        // 60 bytes after a record's 8-byte head).
        let moves = |game: usize| 16 + 68 * game + 8;
        bytes[moves(1) + 10..moves(1) + 60].fill(0);
        bytes[moves(2)..moves(2) + 60].fill(0);
        // Game #3's black player (bytes 2-3) beyond the names file.
        bytes[16 + 68 * 3 + 2..16 + 68 * 3 + 4].copy_from_slice(&u16::MAX.to_le_bytes());
        std::fs::write(dir.path().join("WTH_2001.wtb"), &bytes).unwrap();
        let db = Database::open(dir.path()).unwrap();
        let ids = all(&db)[..4].to_vec();
        assert!(ids.iter().all(|id| id.index() < 4));
        let mut out = Vec::new();
        export(&db, &ids, Table::Games, &mut out).unwrap();
        let (rows, _) = read(out, GAMES_SCHEMA);
        let lengths: Vec<usize> = rows
            .iter()
            .map(|row| match get(row, "squares") {
                Field::ListInternal(list) => list.len(),
                other => panic!("squares is no list: {other}"),
            })
            .collect();
        let played = |i: usize| db.game(ids[i]).unwrap().move_count();
        assert_eq!(lengths, [played(0), 10, 0, played(3)]);
        assert_eq!(get(&rows[2], "moves"), &Field::UByte(0));
        assert_eq!(get(&rows[2], "transcript"), &Field::Str(String::new()));
        assert_eq!(get(&rows[3], "black"), &Field::Null);
        assert_eq!(get(&rows[3], "black_number"), &Field::UShort(u16::MAX));
        assert!(matches!(get(&rows[3], "white"), Field::Str(_)));
    }

    #[test]
    fn the_positions_table_holds_the_columns_of_python_positions() {
        let db = fixtures();
        // Every 4th game of every file (a quarter of the rows: each is read
        // back field by field, slow unoptimised).
        let ids: Vec<GameId> = all(&db).into_iter().step_by(4).collect();
        let numbers = db.game_numbers();
        let starts = numbers.starts();
        let expected = positions::collect(&db, &ids, |g| GameRows {
            view: g.game,
            depth: g.file.header().depth(),
            game: (starts[g.id.file()] + g.id.index()) as u32,
        });
        assert!(expected.len() > 1000);
        let mut out = Vec::new();
        let counts = export(&db, &ids, Table::Positions, &mut out).unwrap();
        assert_eq!(counts.written, expected.len());
        assert_eq!(counts.bad_moves, 0);
        let (rows, groups) = read(out, POSITIONS_SCHEMA);
        assert_eq!(groups, ids.len().div_ceil(POSITION_GAMES_PER_GROUP));
        assert_eq!(rows.len(), expected.len());
        for (i, row) in rows.iter().enumerate() {
            let fields = [
                Field::ULong(expected.player[i]),
                Field::ULong(expected.opponent[i]),
                Field::UByte(expected.side[i]),
                Field::UByte(expected.ply[i]),
                Field::UByte(expected.moves[i]),
                Field::Byte(expected.final_diff[i]),
                Field::Byte(expected.theoretical[i]),
                Field::UInt(expected.game[i]),
            ];
            let got: Vec<&Field> = row.get_column_iter().map(|(_, f)| f).collect();
            assert_eq!(got, fields.iter().collect::<Vec<_>>(), "row {i}");
        }
    }

    #[test]
    fn a_failing_output_is_an_io_error() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let db = fixtures();
        let err = export(&db, &all(&db), Table::Games, Full).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull, "{err}");
    }
}
