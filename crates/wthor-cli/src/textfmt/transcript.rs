//! Transcripts: one game per line, its moves as square names in lower case
//! without separators (`f5d6c3…`), passes not written (as in WTHOR).

use super::{ExportCounts, MoveNames, Row};

/// Writes one line.
pub(crate) fn write_row(row: &Row<'_>, names: &MoveNames, out: &mut Vec<u8>) -> ExportCounts {
    let complete = names.write_transcript(&row.game, out);
    out.push(b'\n');
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!complete),
        short: 0,
    }
}
