//! Text notations: OBF positions and move transcripts.
//!
//! * **OBF**: one character per square in bit order (`a1 b1 … h1 a2 … h8`,
//!   64 characters on 8x8; `a1 … j1 a2 … j10`, 100 characters on 10x10),
//!   `X` black, `O` white, `-` empty, then a space and the side to move `X`
//!   or `O`. Read with [`Board::from_obf`], written with [`Board::to_obf`].
//! * **Transcripts**: square names one after the other (`f5d6c3`), any case,
//!   optionally separated by spaces, commas or dots; a pass is written `pa`,
//!   `ps`, `pass` or `--` (any case). [`parse_transcript`] reads them,
//!   [`write_transcript`] (and [`push_transcript`], the one writer under
//!   it) writes squares in lower case and passes as `pa`. Passes may be
//!   left out: replay inserts them where forced.
//!   [`parse_signed_transcript`] reads Logistello's colour-signed
//!   transcripts (`+d3-c3…`). GGF games and the other text formats of
//!   games are `wthor_db::text`'s.

use core::fmt;

use crate::square::parse_prefix;
use crate::{Bitboard, Board, Color, Move, Size, Square, SquareError};

/// Why an OBF text is not a position, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad OBF position at character {}: {kind}", position + 1)]
pub struct ObfError {
    position: usize,
    kind: ObfErrorKind,
}

impl ObfError {
    /// The 0-based character offset in the text where the problem is.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// What is wrong.
    #[must_use]
    pub fn kind(&self) -> ObfErrorKind {
        self.kind
    }
}

/// What is wrong in an OBF text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ObfErrorKind {
    /// A character that is not a disc or empty square (`X O - x o * .`).
    BadSquare,
    /// The text ends before all squares are read.
    TooShort,
    /// No space between the squares and the side to move.
    MissingSpace,
    /// The side to move is not `X` or `O`.
    BadSide,
    /// Text after the side to move that is not a comment (space or `;`).
    TrailingText,
}

impl fmt::Display for ObfErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ObfErrorKind::BadSquare => "expected X, O or - for a square",
            ObfErrorKind::TooShort => "too few squares",
            ObfErrorKind::MissingSpace => "expected a space before the side to move",
            ObfErrorKind::BadSide => "expected X or O for the side to move",
            ObfErrorKind::TrailingText => "unexpected text after the side to move",
        })
    }
}

pub(crate) fn to_obf<B: Board>(board: &B) -> String {
    let n = B::SIZE.squares();
    let black = board.discs(Color::Black);
    let white = board.discs(Color::White);
    let mut s = String::with_capacity(n + 2);
    for i in 0..n {
        let sq = Square::new_unchecked(i as u8);
        s.push(if black.has(sq) {
            'X'
        } else if white.has(sq) {
            'O'
        } else {
            '-'
        });
    }
    s.push(' ');
    s.push(board.side_to_move().obf_char());
    s
}

pub(crate) fn from_obf<B: Board>(text: &str) -> Result<B, ObfError> {
    let err = |position, kind| Err(ObfError { position, kind });
    let n = B::SIZE.squares();
    let mut black = B::Bits::EMPTY;
    let mut white = B::Bits::EMPTY;
    let mut chars = text.chars().enumerate();
    for i in 0..n {
        let Some((pos, c)) = chars.next() else {
            return err(text.chars().count(), ObfErrorKind::TooShort);
        };
        let sq = B::Bits::single(Square::new_unchecked(i as u8));
        match c {
            'X' | 'x' | '*' => black |= sq,
            'O' | 'o' => white |= sq,
            '-' | '.' => {}
            _ => return err(pos, ObfErrorKind::BadSquare),
        }
    }
    match chars.next() {
        Some((_, c)) if c.is_whitespace() => {}
        Some((pos, _)) => return err(pos, ObfErrorKind::MissingSpace),
        None => return err(n, ObfErrorKind::MissingSpace),
    }
    let mut side = None;
    let mut last = n + 1;
    for (pos, c) in chars.by_ref() {
        last = pos + 1;
        if c.is_whitespace() {
            continue;
        }
        side = match c {
            'X' | 'x' | '*' | 'B' | 'b' => Some(Color::Black),
            'O' | 'o' | 'W' | 'w' => Some(Color::White),
            _ => return err(pos, ObfErrorKind::BadSide),
        };
        break;
    }
    let Some(side) = side else {
        return err(last, ObfErrorKind::BadSide);
    };
    if let Some((pos, c)) = chars.next()
        && !(c.is_whitespace() || c == ';')
    {
        return err(pos, ObfErrorKind::TrailingText);
    }
    Ok(B::from_colors(black, white, side).expect("disjoint sets on the board"))
}

/// Why a transcript cannot be read, and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "bad transcript at character {} (move {}): {kind}",
    position + 1,
    index + 1
)]
pub struct TranscriptError {
    position: usize,
    index: usize,
    kind: SquareError,
}

impl TranscriptError {
    /// The 0-based byte offset in the text where the bad token starts.
    #[must_use]
    pub fn position(&self) -> usize {
        self.position
    }

    /// The 0-based index of the move (passes included) that is bad.
    #[must_use]
    pub fn index(&self) -> usize {
        self.index
    }

    /// What is wrong with the token.
    #[must_use]
    pub fn kind(&self) -> SquareError {
        self.kind
    }

    /// The same error for a text that was a part of a longer one, starting
    /// at byte `offset` after `moves` moves.
    pub(crate) fn shifted(self, offset: usize, moves: usize) -> TranscriptError {
        TranscriptError {
            position: self.position + offset,
            index: self.index + moves,
            kind: self.kind,
        }
    }
}

/// Reads a transcript of moves on a board of `size`: square names one after
/// the other, any case, optional separators (spaces, commas, dots), passes as
/// `pa`, `ps`, `pass` or `--`. Only syntax is checked here; legality is
/// [replay](crate::replay)'s business.
///
/// ```
/// use othello_core::{notation::parse_transcript, Move, Size};
///
/// let moves = parse_transcript("F5d6 C3 pa j10", Size::Ten).unwrap();
/// assert_eq!(moves.len(), 5);
/// assert_eq!(moves[3], Move::Pass);
/// let err = parse_transcript("f5d6z3", Size::Eight).unwrap_err();
/// assert_eq!((err.position(), err.index()), (4, 2));
/// ```
///
/// # Errors
/// [`TranscriptError`] with the byte offset and move index of the first bad
/// token.
pub fn parse_transcript(text: &str, size: Size) -> Result<Vec<Move>, TranscriptError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::with_capacity(bytes.len() / 2);
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b',' || c == b'.' {
            i += 1;
            continue;
        }
        let rest = &bytes[i..];
        let lower = |k: usize| rest.get(k).map(u8::to_ascii_lowercase);
        if rest.starts_with(b"--") {
            moves.push(Move::Pass);
            i += 2;
            continue;
        }
        if lower(0) == Some(b'p') && (lower(1) == Some(b'a') || lower(1) == Some(b's')) {
            let len = if lower(1) == Some(b'a') && lower(2) == Some(b's') && lower(3) == Some(b's')
            {
                4
            } else {
                2
            };
            moves.push(Move::Pass);
            i += len;
            continue;
        }
        match parse_prefix(rest, size) {
            Ok((sq, used)) => {
                moves.push(Move::Play(sq));
                i += used;
            }
            Err(kind) => {
                return Err(TranscriptError {
                    position: i,
                    index: moves.len(),
                    kind,
                });
            }
        }
    }
    Ok(moves)
}

/// Writes moves as a transcript: squares in lower case, passes as `pa`, no
/// separators (`f5d6c3pa…`).
#[must_use]
pub fn write_transcript(moves: &[Move], size: Size) -> String {
    let mut out = Vec::with_capacity(moves.len() * 2);
    push_transcript(&mut out, moves.iter().copied(), size);
    String::from_utf8(out).expect("square names are ASCII")
}

/// Appends moves to `out` as [`write_transcript`] writes them: the one
/// transcript writer (exports write WTHOR games through it, a move at a
/// time, without allocating).
///
/// ```
/// use othello_core::notation::push_transcript;
/// use othello_core::{Move, Size, Square};
///
/// let mut out = b"moves: ".to_vec();
/// let j10 = Square::parse("j10", Size::Ten).unwrap();
/// push_transcript(&mut out, [Move::Play(j10), Move::Pass], Size::Ten);
/// assert_eq!(out, b"moves: j10pa");
/// ```
pub fn push_transcript(out: &mut Vec<u8>, moves: impl IntoIterator<Item = Move>, size: Size) {
    for m in moves {
        match m {
            Move::Pass => out.extend_from_slice(b"pa"),
            Move::Play(sq) => {
                out.push(b'a' + sq.col(size));
                let row = sq.row(size) + 1;
                if row >= 10 {
                    out.push(b'0' + row / 10);
                }
                out.push(b'0' + row % 10);
            }
        }
    }
}

/// Reads a transcript whose moves carry their colour, `+d3-c3+c4…`
/// (`+` black, `-` white; Logistello's `logbook.gam`): two moves of one
/// colour in a row get the other side's pass between them, so that
/// replaying the moves checks the colours too. Text after the moves
/// (`: -04 10`) must be cut off by the caller.
///
/// ```
/// use othello_core::notation::parse_signed_transcript;
/// use othello_core::{Move, Size};
///
/// let moves = parse_signed_transcript("+d3-c3+c4-b1-g1+h1", Size::Eight).unwrap();
/// assert_eq!(moves[4], Move::Pass); // black passed between -b1 and -g1
/// assert_eq!(moves.len(), 7);
/// ```
///
/// # Errors
/// [`TranscriptError`] for a token that is no square.
pub fn parse_signed_transcript(text: &str, size: Size) -> Result<Vec<Move>, TranscriptError> {
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
    use crate::{Board8, Board10};

    #[test]
    fn obf_round_trips_and_errors_have_positions() {
        let b = Board8::start();
        let text = b.to_obf();
        assert_eq!(text.len(), 66);
        assert_eq!(Board8::from_obf(&text), Ok(b));
        let t = Board10::start();
        assert_eq!(t.to_obf().len(), 102);
        assert_eq!(Board10::from_obf(&t.to_obf()), Ok(t));
        let e = Board8::from_obf("--Z").unwrap_err();
        assert_eq!((e.position(), e.kind()), (2, ObfErrorKind::BadSquare));
        let e = Board8::from_obf("---").unwrap_err();
        assert_eq!(e.kind(), ObfErrorKind::TooShort);
        let e = Board8::from_obf(&format!("{} Y", &text[..64])).unwrap_err();
        assert_eq!((e.position(), e.kind()), (65, ObfErrorKind::BadSide));
        let e = Board8::from_obf(&format!("{}X", &text[..64])).unwrap_err();
        assert_eq!(e.kind(), ObfErrorKind::MissingSpace);
        let e = Board8::from_obf(&format!("{} XO", &text[..64])).unwrap_err();
        assert_eq!(e.kind(), ObfErrorKind::TrailingText);
        assert!(Board8::from_obf(&format!("{} O; G8:+18", &text[..64])).is_ok());
        // A 10x10 text is too long for 8x8, and the reverse too short.
        assert!(Board8::from_obf(&t.to_obf()).is_err());
        assert!(Board10::from_obf(&text).is_err());
        assert!(Board8::from_obf("é").is_err());
    }

    #[test]
    fn transcripts_read_and_write() {
        let m = parse_transcript("f5D6c3--pAsS,ps.e6", Size::Eight).unwrap();
        assert_eq!(write_transcript(&m, Size::Eight), "f5d6c3papapae6");
        let e = parse_transcript("f5 i1", Size::Eight).unwrap_err();
        assert_eq!(
            (e.position(), e.index(), e.kind()),
            (3, 1, SquareError::OffBoard)
        );
        assert!(parse_transcript("i1a10", Size::Ten).is_ok());
        assert!(parse_transcript("f", Size::Eight).is_err());
        assert!(parse_transcript("", Size::Eight).unwrap().is_empty());
        // The writer names every square as the square's own name does.
        for size in [Size::Eight, Size::Ten] {
            let all: Vec<Move> = (0..size.squares() as u8)
                .map(|i| Move::Play(Square::new_unchecked(i)))
                .chain([Move::Pass])
                .collect();
            let named: String = all.iter().map(|m| m.name(size).to_string()).collect();
            assert_eq!(write_transcript(&all, size), named);
        }
    }

    #[test]
    fn signed_transcripts_insert_passes() {
        use crate::replay::replay_moves;
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
