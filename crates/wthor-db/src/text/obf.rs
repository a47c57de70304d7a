//! OBF: for each game, its position at a number of empty squares (default
//! the file's depth), one line: the 64 (or 100) squares, the side to move,
//! then `; ` and the known value, the exact disc difference for the side
//! to move taken from the stored theoretical score, then `% ` and the
//! game's identity (a comment). At 0 empties the value is the real score
//! of the finished game; at another number of empties than the file's
//! depth the stored score says nothing of the position: the value is left
//! out. Games that end before that many empties are skipped.

use std::io::Write as _;

use crate::Database;
use othello_core::replay::{Reach, replay_to_empties};
use othello_core::{Board, Board8, Board10, Color};
use wthor_format::BoardSize;

use super::{ExportCounts, Row, disc_diff};

fn position<B: Board>(row: &Row<'_>, empties: u8) -> Result<(String, Color), bool> {
    match replay_to_empties::<B>(row.game.moves_raw(), u32::from(empties)) {
        Reach::At { board, .. } => Ok((board.to_obf(), board.side_to_move())),
        Reach::Ended { .. } => Err(false),
        Reach::Illegal { .. } => Err(true),
    }
}

/// Writes one line (or nothing for a game too short or illegal).
pub(crate) fn write_row(
    row: &Row<'_>,
    db: &Database,
    empties: Option<u8>,
    out: &mut Vec<u8>,
) -> ExportCounts {
    let at = empties.unwrap_or(row.depth);
    let pos = match row.size {
        BoardSize::Eight => position::<Board8>(row, at),
        BoardSize::Ten => position::<Board10>(row, at),
    };
    let (obf, side) = match pos {
        Ok(p) => p,
        Err(illegal) => {
            return ExportCounts {
                written: 0,
                bad_moves: usize::from(illegal),
                short: usize::from(!illegal),
            };
        }
    };
    out.extend_from_slice(obf.as_bytes());
    out.push(b';');
    // The known value: the stored theoretical score at the file's depth,
    // the real score of the finished game at 0 empties.
    let known = if at == row.depth {
        Some(row.game.theoretical_score())
    } else if at == 0 {
        Some(row.game.real_score())
    } else {
        None
    };
    if let Some(black) = known {
        let diff = disc_diff(black, row.size);
        let diff = if side == Color::Black { diff } else { -diff };
        write!(out, " {diff:+};").expect("writing to memory");
    }
    writeln!(out, " % {}", db.game_name(row.id)).expect("writing to memory");
    ExportCounts {
        written: 1,
        bad_moves: 0,
        short: 0,
    }
}
