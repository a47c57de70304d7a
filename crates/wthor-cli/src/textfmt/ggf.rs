//! GGF, the format of GGS and NBoard: one game per line,
//! `(;GM[Othello]PC[…]DT[…]PB[…]PW[…]TY[8]RE[…]BO[8 … *]B[f5]W[d6]…;)`.
//!
//! `PC` (place) holds the tournament's name, `DT` the year (WTHOR knows no
//! more of the date), `RE` black's disc difference (`+12.00`), `BO` the
//! standard start. The colour of each move comes from a replay; a pass is
//! written `PA` with the colour of the side that passes. GGF has no escape
//! for `[` and `]`: they are written `(` and `)` in names.

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::{Board, Board8, Board10, Color, Move};
use wthor_format::BoardSize;

use super::{ExportCounts, MoveNames, Row, digits, disc_diff, name_text};

const BO8: &str = "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";
const BO10: &str = "10 ---------- ---------- ---------- ---------- ----O*---- ----*O---- ---------- ---------- ---------- ---------- *";

fn text(out: &mut Vec<u8>, s: &str) {
    for c in s.chars() {
        match c {
            '[' => out.push(b'('),
            ']' => out.push(b')'),
            c if c.is_control() => out.push(b' '),
            c => {
                let mut b = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
}

fn moves<B: Board>(row: &Row<'_>, names: &MoveNames, out: &mut Vec<u8>) -> bool {
    let size = row.size;
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(row.game.moves_raw()), |step| {
        let mover = step.board.side_to_move().other();
        out.extend_from_slice(if mover == Color::Black { b"B[" } else { b"W[" });
        match step.mv {
            Move::Pass => out.extend_from_slice(b"PA"),
            Move::Play(sq) => {
                let byte = sq.to_wthor(B::SIZE);
                out.extend_from_slice(names.get(byte, size).unwrap_or("??").as_bytes());
            }
        }
        out.push(b']');
    });
    r.illegal.is_none()
}

/// Writes one game and its newline.
pub(crate) fn write_row(row: &Row<'_>, names: &MoveNames, out: &mut Vec<u8>) -> ExportCounts {
    let mut buf = [0u8; 10];
    out.extend_from_slice(b"(;GM[Othello]PC[");
    text(out, name_text(&row.tournament));
    out.extend_from_slice(b"]DT[");
    out.extend_from_slice(digits(row.year.into(), &mut buf));
    out.extend_from_slice(b"]PB[");
    text(out, name_text(&row.black));
    out.extend_from_slice(b"]PW[");
    text(out, name_text(&row.white));
    let diff = disc_diff(row.game.real_score(), row.size);
    let (ty, bo) = match row.size {
        BoardSize::Eight => ("8", BO8),
        BoardSize::Ten => ("10", BO10),
    };
    out.extend_from_slice(b"]TY[");
    out.extend_from_slice(ty.as_bytes());
    out.extend_from_slice(b"]RE[");
    out.push(if diff < 0 { b'-' } else { b'+' });
    out.extend_from_slice(digits(diff.unsigned_abs(), &mut buf));
    out.extend_from_slice(b".00]BO[");
    out.extend_from_slice(bo.as_bytes());
    out.push(b']');
    let legal = match row.size {
        BoardSize::Eight => moves::<Board8>(row, names, out),
        BoardSize::Ten => moves::<Board10>(row, names, out),
    };
    out.extend_from_slice(b";)\n");
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!legal),
        short: 0,
    }
}
