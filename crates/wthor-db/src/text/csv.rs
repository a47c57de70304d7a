//! CSV (RFC 4180 through the `csv` crate, UTF-8): a header line, then one
//! row per game.
//!
//! Columns: `game` (its identity, `2001:5`), `year`, `boardSize` (8 or
//! 10), then the nine columns of the Japanese article's converter, under
//! its names — `tournamentId`, `tournamentName`, `blackPlayerId`,
//! `blackPlayerName`, `whitePlayerId`, `whitePlayerName`, `blackScore`
//! (black's discs), `blackTheoreticalScore`, `transcript` — with `depth`
//! (the empties of the theoretical score) before `transcript`; then
//! `opening`, the game's named opening (the deepest named position it
//! passes through, [`crate::openings`]; empty when none, and on 10x10),
//! appended so that the article's columns keep their order; then
//! `blackRating` and `whiteRating`, both players' ratings of the game's
//! year by the database's whole-history fit, to a tenth (empty when unrated:
//! `???`, 10x10; [`Row::ratings`](super::Row::ratings)). Names are
//! decoded (Windows-1252 unless `--encoding`); a number beyond its names
//! file gives an empty name.

use crate::Database;

use super::{ExportCounts, Row, Scratch, digits, name_text};

/// The header names, in order.
pub const COLUMNS: [&str; 16] = [
    "game",
    "year",
    "boardSize",
    "tournamentId",
    "tournamentName",
    "blackPlayerId",
    "blackPlayerName",
    "whitePlayerId",
    "whitePlayerName",
    "blackScore",
    "blackTheoreticalScore",
    "depth",
    "transcript",
    "opening",
    "blackRating",
    "whiteRating",
];

/// The header line.
#[must_use]
pub fn header() -> Vec<u8> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(COLUMNS).expect("writing to memory");
    w.into_inner().expect("writing to memory")
}

/// Writes one row into the chunk's writer (`scratch.csv`, made on the
/// first row around `out`'s buffer; [`finish`] gives it back).
pub(crate) fn write_row(
    row: &Row<'_>,
    db: &Database,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> ExportCounts {
    let w = scratch.csv.get_or_insert_with(|| {
        ::csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(std::mem::take(out))
    });
    let mut buf = [0u8; 10];
    let field = &mut scratch.field;
    let result = (|| -> ::csv::Result<bool> {
        field.clear();
        use std::io::Write as _;
        write!(field, "{}", db.game_name(row.id))?;
        w.write_field(&field[..])?;
        w.write_field(digits(row.year.into(), &mut buf))?;
        w.write_field(digits(row.game.board_size().side().into(), &mut buf))?;
        w.write_field(digits(row.tournament.number.into(), &mut buf))?;
        w.write_field(name_text(&row.tournament))?;
        w.write_field(digits(row.black.number.into(), &mut buf))?;
        w.write_field(name_text(&row.black))?;
        w.write_field(digits(row.white.number.into(), &mut buf))?;
        w.write_field(name_text(&row.white))?;
        w.write_field(digits(row.game.real_score().into(), &mut buf))?;
        w.write_field(digits(row.game.theoretical_score().into(), &mut buf))?;
        w.write_field(digits(row.depth.into(), &mut buf))?;
        field.clear();
        let complete = super::transcript::write_wthor(&row.game, field);
        w.write_field(&field[..])?;
        w.write_field(row.opening().map_or("", |o| o.name()))?;
        let (black, white) = row.ratings(db);
        for rating in [black, white] {
            field.clear();
            if let Some(r) = rating {
                write!(field, "{r:.1}")?;
            }
            w.write_field(&field[..])?;
        }
        w.write_record(None::<&[u8]>)?;
        Ok(complete)
    })();
    let complete = result.expect("writing CSV to memory");
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!complete),
        short: 0,
    }
}

/// Puts the rows written by the chunk's writer back into `out`.
pub(crate) fn finish(scratch: &mut Scratch, out: &mut Vec<u8>) {
    if let Some(w) = scratch.csv.take() {
        *out = w.into_inner().expect("writing CSV to memory");
    }
}
