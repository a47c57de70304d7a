//! The games of a WTHOR database ([`wthor_db`]), or their positions, as a
//! Parquet table with typed columns, written by the `parquet` crate's Arrow
//! writer (Snappy compression, the codec every reader has). Read by DuckDB,
//! Polars, pandas and pyarrow. [`Export`] is what `wthor export` and
//! Python's `Database.export` write: a text format of [`wthor_db::text`] or
//! a Parquet table.
//!
//! A crate of its own so that the Arrow code, compiled unoptimised in the
//! tests' profile, does not double the build of `wthor-db`, which is
//! optimised there.
//!
//! **Games** ([`Table::Games`]), one row per game, in the order given: the
//! columns of Python's `Database.games_table()` under the same names and
//! types, then three more.
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
//! Row groups hold 65,536 games, or 1,048,576 positions (a position row is
//! 25 bytes before compression); the rows are made in parallel a batch at
//! a time, so that memory stays bounded whatever the number of games.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

use std::io::{self, Write};
use std::path::Path;
use std::sync::Arc;

use wthor_db::atomic::WriteError;

use arrow_array::builder::{ListBuilder, StringBuilder, UInt8Builder};
use arrow_array::{
    ArrayRef, Int8Array, RecordBatch, UInt8Array, UInt16Array, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;

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

/// Rows per row group of the positions table.
const POSITIONS_PER_GROUP: usize = 1 << 20;

/// Games replayed per batch of the positions table (about a row group).
const POSITION_GAMES_PER_BATCH: usize = 1 << 14;

/// The schema of the games table.
#[must_use]
pub fn games_schema() -> SchemaRef {
    let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
    let int = |name: &str, t: DataType| Field::new(name, t, false);
    Arc::new(Schema::new(vec![
        text("id", false),
        text("file", false),
        int("index", DataType::UInt32),
        int("year", DataType::UInt16),
        int("size", DataType::UInt8),
        int("depth", DataType::UInt8),
        text("tournament", true),
        text("black", true),
        text("white", true),
        int("tournament_number", DataType::UInt16),
        int("black_number", DataType::UInt16),
        int("white_number", DataType::UInt16),
        int("real_score", DataType::UInt8),
        int("theoretical_score", DataType::UInt8),
        int("moves", DataType::UInt8),
        int("number", DataType::UInt32),
        text("transcript", false),
        Field::new("squares", squares_type(), false),
    ]))
}

/// `list<uint8>`, items not null.
fn squares_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::UInt8, false)))
}

/// The schema of the positions table.
#[must_use]
pub fn positions_schema() -> SchemaRef {
    let col = |name: &str, t: DataType| Field::new(name, t, false);
    Arc::new(Schema::new(vec![
        col("player", DataType::UInt64),
        col("opponent", DataType::UInt64),
        col("side", DataType::UInt8),
        col("ply", DataType::UInt8),
        col("move", DataType::UInt8),
        col("final", DataType::Int8),
        col("theoretical", DataType::Int8),
        col("game", DataType::UInt32),
    ]))
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
    let starts = positions::game_numbers(db);
    let (schema, group) = match table {
        Table::Games => (games_schema(), GAMES_PER_GROUP),
        Table::Positions => (positions_schema(), POSITIONS_PER_GROUP),
    };
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_max_row_group_row_count(Some(group))
        .build();
    let mut writer = ArrowWriter::try_new(out, schema.clone(), Some(props))?;
    let mut total = ExportCounts::default();
    match table {
        Table::Games => {
            for batch in ids.chunks(GAMES_PER_GROUP) {
                let (b, counts) = games_batch(db, &starts, batch, &schema)?;
                writer.write(&b)?;
                total += counts;
            }
        }
        Table::Positions => {
            for batch in ids.chunks(POSITION_GAMES_PER_BATCH) {
                let (b, counts) = positions_batch(db, &starts, batch, &schema)?;
                writer.write(&b)?;
                total += counts;
            }
        }
    }
    writer.close()?;
    Ok(total)
}

/// The columns of some games, as they are built.
struct GameColumns {
    id: StringBuilder,
    file: StringBuilder,
    index: Vec<u32>,
    year: Vec<u16>,
    size: Vec<u8>,
    depth: Vec<u8>,
    tournament: StringBuilder,
    black: StringBuilder,
    white: StringBuilder,
    tournament_number: Vec<u16>,
    black_number: Vec<u16>,
    white_number: Vec<u16>,
    real_score: Vec<u8>,
    theoretical_score: Vec<u8>,
    moves: Vec<u8>,
    number: Vec<u32>,
    transcript: StringBuilder,
    squares: ListBuilder<UInt8Builder>,
    counts: ExportCounts,
}

impl GameColumns {
    fn new() -> GameColumns {
        GameColumns {
            id: StringBuilder::new(),
            file: StringBuilder::new(),
            index: Vec::new(),
            year: Vec::new(),
            size: Vec::new(),
            depth: Vec::new(),
            tournament: StringBuilder::new(),
            black: StringBuilder::new(),
            white: StringBuilder::new(),
            tournament_number: Vec::new(),
            black_number: Vec::new(),
            white_number: Vec::new(),
            real_score: Vec::new(),
            theoretical_score: Vec::new(),
            moves: Vec::new(),
            number: Vec::new(),
            transcript: StringBuilder::new(),
            squares: ListBuilder::new(UInt8Builder::new())
                .with_field(Field::new_list_field(DataType::UInt8, false)),
            counts: ExportCounts::default(),
        }
    }

    /// Appends game `id`.
    fn push(&mut self, db: &Database, starts: &[usize], id: GameId, text: &mut Vec<u8>) {
        let Some(r) = row(db, id) else { return };
        let file = &db.files()[id.file()];
        self.id.append_value(db.game_name(id).to_string());
        self.file.append_value(file.file_name());
        self.index
            .push(u32::try_from(id.index()).unwrap_or(u32::MAX));
        self.year.push(r.year);
        self.size.push(r.game.board_size().side());
        self.depth.push(r.depth);
        self.tournament.append_option(r.tournament.name);
        self.black.append_option(r.black.name);
        self.white.append_option(r.white.name);
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
        self.transcript
            .append_value(std::str::from_utf8(text).expect("square names are ASCII"));
        let size = rules_size(r.size);
        let squares = self.squares.values();
        for &b in r.game.moves_raw().iter().take_while(|&&b| b != 0) {
            match Square::from_wthor(b, size) {
                Some(sq) => squares.append_value(sq.index() as u8),
                None => break,
            }
        }
        self.squares.append(true);
        self.counts += ExportCounts {
            written: 1,
            bad_moves: usize::from(!complete),
            short: 0,
        };
    }

    fn finish(mut self, schema: &SchemaRef) -> Result<(RecordBatch, ExportCounts), ParquetError> {
        fn arc<A: arrow_array::Array + 'static>(a: A) -> ArrayRef {
            Arc::new(a)
        }
        let columns = vec![
            arc(self.id.finish()),
            arc(self.file.finish()),
            arc(UInt32Array::from(self.index)),
            arc(UInt16Array::from(self.year)),
            arc(UInt8Array::from(self.size)),
            arc(UInt8Array::from(self.depth)),
            arc(self.tournament.finish()),
            arc(self.black.finish()),
            arc(self.white.finish()),
            arc(UInt16Array::from(self.tournament_number)),
            arc(UInt16Array::from(self.black_number)),
            arc(UInt16Array::from(self.white_number)),
            arc(UInt8Array::from(self.real_score)),
            arc(UInt8Array::from(self.theoretical_score)),
            arc(UInt8Array::from(self.moves)),
            arc(UInt32Array::from(self.number)),
            arc(self.transcript.finish()),
            arc(self.squares.finish()),
        ];
        Ok((RecordBatch::try_new(schema.clone(), columns)?, self.counts))
    }
}

/// The games table of `ids`, one record batch, built sequentially (the
/// Parquet encoding, not this, takes the time).
fn games_batch(
    db: &Database,
    starts: &[usize],
    ids: &[GameId],
    schema: &SchemaRef,
) -> Result<(RecordBatch, ExportCounts), ParquetError> {
    let mut c = GameColumns::new();
    let mut text = Vec::with_capacity(200);
    for &id in ids {
        c.push(db, starts, id, &mut text);
    }
    c.finish(schema)
}

/// The positions of the games `ids`, one record batch, the games replayed
/// in parallel.
fn positions_batch(
    db: &Database,
    starts: &[usize],
    ids: &[GameId],
    schema: &SchemaRef,
) -> Result<(RecordBatch, ExportCounts), ParquetError> {
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
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt64Array::from(c.player)),
        Arc::new(UInt64Array::from(c.opponent)),
        Arc::new(UInt8Array::from(c.side)),
        Arc::new(UInt8Array::from(c.ply)),
        Arc::new(UInt8Array::from(c.moves)),
        Arc::new(Int8Array::from(c.final_diff)),
        Arc::new(Int8Array::from(c.theoretical)),
        Arc::new(UInt32Array::from(c.game)),
    ];
    Ok((RecordBatch::try_new(schema.clone(), columns)?, counts))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt8Type, UInt64Type};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    fn fixtures() -> Database {
        Database::open(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")).unwrap()
    }

    fn all(db: &Database) -> Vec<GameId> {
        db.search(&wthor_db::Query::new()).unwrap()
    }

    /// The batches of a Parquet file in memory, and its row groups.
    fn read(bytes: Vec<u8>) -> (Vec<RecordBatch>, usize) {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(&bytes).unwrap();
        let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        let groups = builder.metadata().num_row_groups();
        let batches = builder
            .build()
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        (batches, groups)
    }

    #[test]
    fn the_games_table_has_a_row_per_game_with_its_fields() {
        let db = fixtures();
        let ids = all(&db);
        let mut out = Vec::new();
        let counts = export(&db, &ids, Table::Games, &mut out).unwrap();
        assert_eq!(counts.written, ids.len());
        let (batches, _) = read(out);
        assert_eq!(batches[0].schema(), games_schema());
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, ids.len());
        let b = &batches[0];
        let starts = positions::game_numbers(&db);
        for (i, &id) in ids.iter().enumerate().take(b.num_rows()) {
            let g = db.game(id).unwrap();
            let col = |name: &str| b.column_by_name(name).unwrap().clone();
            assert_eq!(
                col("id").as_string::<i32>().value(i),
                db.game_name(id).to_string()
            );
            assert_eq!(
                col("real_score").as_primitive::<UInt8Type>().value(i),
                g.real_score()
            );
            let number = col("number");
            let number = number.as_primitive::<arrow_array::types::UInt32Type>();
            assert_eq!(number.value(i) as usize, starts[id.file()] + id.index());
            let squares = col("squares");
            let squares = squares.as_list::<i32>().value(i);
            let squares = squares.as_primitive::<UInt8Type>();
            let size = rules_size(g.board_size());
            let expected: Vec<u8> = g.moves_raw()[..g.move_count()]
                .iter()
                .map(|&m| Square::from_wthor(m, size).unwrap().index() as u8)
                .collect();
            assert_eq!(squares.values().to_vec(), expected);
            let mut text = Vec::new();
            wthor_db::text::transcript::write_wthor(&g, &mut text);
            assert_eq!(
                col("transcript").as_string::<i32>().value(i).as_bytes(),
                &text[..]
            );
            let black = col("black");
            assert_eq!(
                black.is_null(i),
                db.black(id).name.is_none(),
                "names beyond the file are null"
            );
        }
    }

    #[test]
    fn the_positions_table_holds_the_columns_of_python_positions() {
        let db = fixtures();
        let ids = all(&db);
        let starts = positions::game_numbers(&db);
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
        let (batches, groups) = read(out);
        assert_eq!(groups, 1);
        assert_eq!(batches[0].schema(), positions_schema());
        fn column<T: arrow_array::ArrowPrimitiveType>(
            batches: &[RecordBatch],
            name: &str,
        ) -> Vec<T::Native> {
            batches
                .iter()
                .flat_map(|b| {
                    let c = b.column_by_name(name).unwrap();
                    c.as_primitive::<T>().values().to_vec()
                })
                .collect()
        }
        use arrow_array::types::{Int8Type, UInt32Type};
        assert_eq!(column::<UInt64Type>(&batches, "player"), expected.player);
        assert_eq!(
            column::<UInt64Type>(&batches, "opponent"),
            expected.opponent
        );
        assert_eq!(column::<UInt8Type>(&batches, "side"), expected.side);
        assert_eq!(column::<UInt8Type>(&batches, "ply"), expected.ply);
        assert_eq!(column::<UInt8Type>(&batches, "move"), expected.moves);
        assert_eq!(column::<Int8Type>(&batches, "final"), expected.final_diff);
        assert_eq!(
            column::<Int8Type>(&batches, "theoretical"),
            expected.theoretical
        );
        assert_eq!(column::<UInt32Type>(&batches, "game"), expected.game);
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
