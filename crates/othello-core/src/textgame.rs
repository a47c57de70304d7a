//! Game records of other programs, as text: GGF games (the format of GGS
//! and NBoard) and transcripts whose moves carry their colour (Logistello's
//! `logbook.gam`).
//!
//! Pure text → moves: no I/O, no legality (that is
//! [replay](crate::replay)'s business). Where a record tells the colour of
//! each move, two moves of one colour in a row mean the other side passed:
//! the parsers insert that pass, so that replaying the moves checks the
//! colours too (a pass while moves remain is illegal).
//!
//! ```
//! use othello_core::textgame::{parse_ggf, parse_signed_transcript};
//! use othello_core::{Move, Size};
//!
//! let g = parse_ggf("1 (;GM[Othello]PB[a b]PW[c]TY[8]RE[+2.00]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5//1.2]W[d6];)").unwrap();
//! assert_eq!((g.get("PB"), g.get("RE")), (Some("a b"), Some("+2.00")));
//! assert_eq!(g.moves.len(), 2);
//!
//! let moves = parse_signed_transcript("+d3-c3+c4-b1-g1+h1", Size::Eight).unwrap();
//! assert_eq!(moves[4], Move::Pass); // black passed between -b1 and -g1
//! assert_eq!(moves.len(), 7);
//! ```

use crate::notation::parse_transcript;
use crate::square::parse_prefix;
use crate::{Board, Board8, Board10, Color, Move, Size, SquareError};

/// Why a GGF game cannot be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad GGF game at byte {position}: {kind}")]
pub struct GgfError {
    position: usize,
    kind: GgfErrorKind,
}

impl GgfError {
    /// The 0-based byte offset in the text where the problem is.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// What is wrong.
    #[must_use]
    pub fn kind(&self) -> &GgfErrorKind {
        &self.kind
    }
}

/// What is wrong in a GGF game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GgfErrorKind {
    /// No `(;` starting the game.
    #[error("expected `(;` starting a game")]
    NoStart,
    /// The text ends inside the game (no `;)`, or a `[` never closed).
    #[error("the game is not closed by `;)`")]
    Unclosed,
    /// A property key that is not upper-case letters, or no `[` after it.
    #[error("expected a property KEY[value]")]
    BadProperty,
    /// A board size other than 8 or 10 (`TY`/`BO`).
    #[error("board size {0:?}: only 8x8 and 10x10 are supported")]
    UnsupportedSize(String),
    /// A start position other than the standard one (random starts, `BO`).
    #[error("the start position (BO) is not the standard one")]
    NonStandardStart,
    /// A move that names no square.
    #[error("move {index}: {kind}")]
    BadMove {
        /// Its 0-based index among the moves.
        index: usize,
        /// What is wrong with it.
        kind: SquareError,
    },
}

/// A GGF game: its properties as written and its moves (passes inserted
/// where one colour plays twice in a row).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GgfGame {
    /// The properties other than the moves, in order (`("PB", "Saio1200")`).
    pub properties: Vec<(String, String)>,
    /// The board size.
    pub size: Size,
    /// The moves from the standard start.
    pub moves: Vec<Move>,
}

impl GgfGame {
    /// The value of the first property `key` (`"PB"`), if any.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one GGF game: optional text before it (the GGS match prefix
/// `1 `), `(;`, `KEY[value]` properties, `;)`. Moves are `B[sq…]` and
/// `W[sq…]` (square in any case, then optional `/eval/time`), a pass `PA`
/// or `pass`. The size comes from `BO` (or `TY`); the start must be the
/// standard one.
///
/// # Errors
/// [`GgfError`] with the byte offset of what went wrong.
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    let err = |position, kind| GgfError { position, kind };
    let bytes = text.as_bytes();
    let start = text
        .find("(;")
        .ok_or_else(|| err(0, GgfErrorKind::NoStart))?;
    let mut i = start + 2;
    let mut properties = Vec::new();
    let mut raw_moves: Vec<(usize, Color, &str)> = Vec::new();
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return Err(err(i, GgfErrorKind::Unclosed));
        }
        if bytes[i..].starts_with(b";)") {
            break;
        }
        let key_start = i;
        while i < bytes.len() && bytes[i].is_ascii_uppercase() {
            i += 1;
        }
        if i == key_start || bytes.get(i) != Some(&b'[') {
            return Err(err(key_start, GgfErrorKind::BadProperty));
        }
        let key = &text[key_start..i];
        let value_start = i + 1;
        let close = text[value_start..]
            .find(']')
            .ok_or_else(|| err(i, GgfErrorKind::Unclosed))?;
        let value = &text[value_start..value_start + close];
        i = value_start + close + 1;
        match key {
            "B" => raw_moves.push((value_start, Color::Black, value)),
            "W" => raw_moves.push((value_start, Color::White, value)),
            _ => properties.push((key.to_owned(), value.to_owned())),
        }
    }
    let get = |k: &str| {
        properties
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v): &(String, String)| v.as_str())
    };
    let size_text = get("BO")
        .and_then(|b| b.split_whitespace().next())
        .or_else(|| get("TY"))
        .unwrap_or("8");
    let size = match size_text {
        "8" => Size::Eight,
        "10" => Size::Ten,
        other => return Err(err(start, GgfErrorKind::UnsupportedSize(other.to_owned()))),
    };
    if let Some(bo) = get("BO")
        && !is_standard_start(bo, size)
    {
        return Err(err(start, GgfErrorKind::NonStandardStart));
    }
    let mut moves = Vec::with_capacity(raw_moves.len() + 2);
    let mut expected = Color::Black;
    for (index, &(at, color, value)) in raw_moves.iter().enumerate() {
        let sq = value.split('/').next().unwrap_or("").trim();
        if color != expected {
            moves.push(Move::Pass);
        }
        expected = color.other();
        if sq.eq_ignore_ascii_case("pa") || sq.eq_ignore_ascii_case("pass") {
            moves.push(Move::Pass);
            continue;
        }
        match parse_prefix(sq.as_bytes(), size) {
            Ok((s, used)) if used == sq.len() => moves.push(Move::Play(s)),
            Ok(_) => {
                return Err(err(
                    at,
                    GgfErrorKind::BadMove {
                        index,
                        kind: SquareError::Syntax,
                    },
                ));
            }
            Err(kind) => return Err(err(at, GgfErrorKind::BadMove { index, kind })),
        }
    }
    Ok(GgfGame {
        properties,
        size,
        moves,
    })
}

/// Whether a `BO` value (`8 ---… *`, row separators optional) is the
/// standard start with black to move.
fn is_standard_start(bo: &str, size: Size) -> bool {
    let mut chars = bo.trim_start();
    // Skip the size.
    chars = chars.trim_start_matches(|c: char| c.is_ascii_digit());
    let cells: String = chars.chars().filter(|c| !c.is_whitespace()).collect();
    let n = size.squares();
    if !cells.is_ascii() || cells.len() != n + 1 {
        return false;
    }
    let (board, side) = cells.split_at(n);
    let start = match size {
        Size::Eight => Board8::start().to_obf(),
        Size::Ten => Board10::start().to_obf(),
    };
    let ggf: String = start[..n]
        .chars()
        .map(|c| match c {
            'X' => '*',
            c => c,
        })
        .collect();
    board.eq_ignore_ascii_case(&ggf) && side == "*"
}

/// Reads a transcript whose moves carry their colour, `+d3-c3+c4…`
/// (`+` black, `-` white; Logistello's `logbook.gam`): two moves of one
/// colour in a row get the other side's pass between them. Text after the
/// moves (`: -04 10`) must be cut off by the caller.
///
/// # Errors
/// [`TranscriptError`](crate::notation::TranscriptError) for a token that
/// is no square.
pub fn parse_signed_transcript(
    text: &str,
    size: Size,
) -> Result<Vec<Move>, crate::notation::TranscriptError> {
    let mut moves = Vec::with_capacity(text.len() / 3 + 2);
    let mut expected = Color::Black;
    let mut offset = 0;
    for part in text.split_inclusive(['+', '-']) {
        // Each part is "<square><next sign>" or the leading sign alone.
        let body = part.trim_end_matches(['+', '-']);
        let sign = part.as_bytes().last().copied();
        if !body.trim().is_empty() {
            let parsed =
                parse_transcript(body, size).map_err(|e| e.shifted(offset, moves.len()))?;
            moves.extend(parsed);
        }
        offset += part.len();
        let color = match sign {
            Some(b'+') => Color::Black,
            Some(b'-') => Color::White,
            _ => continue,
        };
        if color != expected {
            moves.push(Move::Pass);
        }
        expected = color.other();
    }
    Ok(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::replay_moves;

    #[test]
    fn ggf_reads_real_forms() {
        let g = parse_ggf("(;GM[Othello]PC[]PB[HP]PW[HP]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6];)").unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.get("RE"), Some("?"));
        let e = parse_ggf("(;GM[Othello]TY[8kr20]BO[8 -------- ---*---- --OOOO-- -*OOO*-- -O**OO-- --OO**-- ----*--- -------- *]B[B3];)").unwrap_err();
        assert_eq!(e.kind(), &GgfErrorKind::NonStandardStart);
        let e = parse_ggf("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *];)").unwrap_err();
        assert!(matches!(e.kind(), GgfErrorKind::UnsupportedSize(_)));
        assert_eq!(
            parse_ggf("(;GM[Othello]B[f5]").unwrap_err().kind(),
            &GgfErrorKind::Unclosed
        );
        assert_eq!(
            parse_ggf("(;GM[Othello]B[z9];)").unwrap_err().kind(),
            &GgfErrorKind::BadMove {
                index: 0,
                kind: SquareError::OffBoard
            }
        );
        assert_eq!(
            parse_ggf("GM[x]").unwrap_err().kind(),
            &GgfErrorKind::NoStart
        );
        // A pass written `pass` and one implied by two moves of one colour.
        let g = parse_ggf("(;B[f5]W[pass];)").unwrap();
        assert_eq!(g.moves, [g.moves[0], Move::Pass]);
        let g = parse_ggf("(;B[f5]B[d6];)").unwrap();
        assert_eq!(g.moves[1], Move::Pass);
    }

    #[test]
    fn signed_transcripts_insert_passes() {
        let moves = parse_signed_transcript("+d3-c3+c4", Size::Eight).unwrap();
        assert_eq!(moves.len(), 3);
        assert!(replay_moves::<Board8>(&moves).is_legal());
        let e = parse_signed_transcript("+d3-z3", Size::Eight).unwrap_err();
        assert_eq!(e.position(), 4);
        // A wrong sign shows as an illegal pass on replay.
        let moves = parse_signed_transcript("+f5+d6", Size::Eight).unwrap();
        assert_eq!(moves[1], Move::Pass);
        assert!(!replay_moves::<Board8>(&moves).is_legal());
    }
}
