//! Transcripts: one game per line, its moves as square names in lower case
//! without separators (`f5d6c3…`), passes not written (as in WTHOR). The
//! moves are written by the one transcript writer,
//! [`othello_core::notation::push_transcript`]; they are read by
//! [`super::read`] (with [`othello_core::notation::parse_transcript`]).

use othello_core::{Move, Square};
use wthor_format::GameView;

use super::{ExportCounts, Row};

/// Appends the transcript of a WTHOR game's move bytes to `out`, up to the
/// first 0 or byte that is no square; false when such a byte stopped it.
pub fn write_wthor(game: &GameView<'_>, out: &mut Vec<u8>) -> bool {
    let size = crate::rules_size(game.board_size());
    let bytes = game.moves_raw();
    let bytes = &bytes[..bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len())];
    let good = bytes
        .iter()
        .take_while(|&&b| Square::from_wthor(b, size).is_some())
        .count();
    let squares = bytes[..good]
        .iter()
        .filter_map(|&b| Square::from_wthor(b, size));
    othello_core::notation::push_transcript(out, squares.map(Move::Play), size);
    good == bytes.len()
}

/// Writes one line.
pub(crate) fn write_row(row: &Row<'_>, out: &mut Vec<u8>) -> ExportCounts {
    let complete = write_wthor(&row.game, out);
    out.push(b'\n');
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!complete),
        short: 0,
    }
}
