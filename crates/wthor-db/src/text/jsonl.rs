//! JSON Lines: one object per game, the fields of the CSV (same names,
//! numbers as numbers, an unknown name as `null`) and `moves`, the
//! transcript as a list (`["f5","d6",…]`), then `opening`, the game's
//! named opening (`null` when none), then `blackRating` and `whiteRating`
//! (numbers to a tenth, `null` when unrated).

use std::io::Write as _;

use crate::{Database, NameRef};

use othello_core::notation::push_transcript;
use othello_core::{Move, Square};

use super::{ExportCounts, Row, digits};

fn string(out: &mut Vec<u8>, s: &str) {
    serde_json::to_writer(&mut *out, s).expect("writing JSON to memory");
}

fn name(out: &mut Vec<u8>, n: &NameRef<'_>) {
    match n.name {
        Some(s) => string(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

fn number(out: &mut Vec<u8>, key: &str, n: u32) {
    let mut buf = [0u8; 10];
    out.extend_from_slice(key.as_bytes());
    out.extend_from_slice(digits(n, &mut buf));
}

/// Writes one object and its newline.
pub(crate) fn write_row(row: &Row<'_>, db: &Database, out: &mut Vec<u8>) -> ExportCounts {
    out.extend_from_slice(b"{\"game\":\"");
    // The identity is a label and a number: escape the label as a string.
    let start = out.len();
    write!(out, "{}", db.game_name(row.id)).expect("writing to memory");
    if out[start..]
        .iter()
        .any(|&b| b == b'"' || b == b'\\' || b < 0x20)
    {
        let text = String::from_utf8_lossy(&out[start..]).into_owned();
        out.truncate(start - 1);
        string(out, &text);
    } else {
        out.push(b'"');
    }
    number(out, ",\"year\":", row.year.into());
    number(out, ",\"boardSize\":", row.size.side().into());
    number(out, ",\"tournamentId\":", row.tournament.number.into());
    out.extend_from_slice(b",\"tournamentName\":");
    name(out, &row.tournament);
    number(out, ",\"blackPlayerId\":", row.black.number.into());
    out.extend_from_slice(b",\"blackPlayerName\":");
    name(out, &row.black);
    number(out, ",\"whitePlayerId\":", row.white.number.into());
    out.extend_from_slice(b",\"whitePlayerName\":");
    name(out, &row.white);
    number(out, ",\"blackScore\":", row.game.real_score().into());
    number(
        out,
        ",\"blackTheoreticalScore\":",
        row.game.theoretical_score().into(),
    );
    number(out, ",\"depth\":", row.depth.into());
    out.extend_from_slice(b",\"transcript\":\"");
    let complete = super::transcript::write_wthor(&row.game, out);
    out.extend_from_slice(b"\",\"moves\":[");
    let size = crate::rules_size(row.size);
    let squares = row
        .game
        .moves_raw()
        .iter()
        .take_while(|&&b| b != 0)
        .map_while(|&b| Square::from_wthor(b, size));
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.push(b'"');
        push_transcript(out, [Move::Play(sq)], size);
        out.push(b'"');
    }
    out.extend_from_slice(b"],\"opening\":");
    match row.opening() {
        Some(o) => string(out, o.name()),
        None => out.extend_from_slice(b"null"),
    }
    let (black, white) = row.ratings(db);
    for (key, rating) in [
        (&b",\"blackRating\":"[..], black),
        (b",\"whiteRating\":", white),
    ] {
        out.extend_from_slice(key);
        match rating {
            // Debug writes what serde_json writes for these values
            // (`1577.3`, `1600.0`).
            Some(r) => write!(out, "{r:?}").expect("writing to memory"),
            None => out.extend_from_slice(b"null"),
        }
    }
    out.extend_from_slice(b"}\n");
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!complete),
        short: 0,
    }
}
