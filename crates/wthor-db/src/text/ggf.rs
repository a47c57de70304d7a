//! GGF, the format of GGS and NBoard: one game per line,
//! `(;GM[Othello]PC[…]DT[…]PB[…]PW[…]TY[8]RE[…]BO[8 … *]B[f5]W[d6]…;)`:
//! the one writer (`write_row`, behind [`export`](crate::text::export))
//! and the one reader ([`parse_ggf`], and [`parse_ggf_growing`] for a game
//! still being written).
//!
//! Written: `PC` (place) holds the tournament's name, `DT` the year (WTHOR
//! knows no more of the date), `RE` black's disc difference (`+12.00`),
//! `BO` the standard start, and `GN` the game's named opening when it has
//! one ([`crate::openings`]; GGF has no key for it: `GN` is SGF's game
//! name, which readers of GGF keep or skip as any other property). The
//! colour of each move comes from a replay; a
//! pass is written `PA` with the colour of the side that passes. GGF has no
//! escape for `[` and `]`: they are written `(` and `)` in names.
//!
//! Read: the properties as written; the size from `BO` (else the number
//! starting `TY`, else 8); the start must be the standard one; moves
//! `B[sq…]`/`W[sq…]` (square in any case, then optional `/eval/time`), a
//! pass `PA` or `pass`; where one colour plays twice in a row the other
//! side's pass is inserted, so that replaying the moves checks the colours
//! too. The year of `DT` follows one rule, [`year`].
//!
//! ```
//! use wthor_db::text::ggf::parse_ggf;
//!
//! let g = parse_ggf("1 (;GM[Othello]PB[a b]PW[c]DT[947375357]TY[8]RE[+2.00]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[F5//1.2]W[d6];)").unwrap();
//! assert_eq!((g.get("PB"), g.get("RE")), (Some("a b"), Some("+2.00")));
//! assert_eq!((g.moves.len(), g.year(), g.black_discs()), (2, Some(2000), Some(33)));
//! ```

use othello_core::notation::push_transcript;
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::{Board, Board8, Board10, Color, Move, Size, Square, SquareError};
use wthor_format::BoardSize;

use crate::import::date_of_unix;

use super::{ExportCounts, Row, digits, disc_diff, name_text};

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

fn moves<B: Board>(row: &Row<'_>, out: &mut Vec<u8>) -> bool {
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(row.game.moves_raw()), |step| {
        let mover = step.board.side_to_move().other();
        out.extend_from_slice(if mover == Color::Black { b"B[" } else { b"W[" });
        match step.mv {
            Move::Pass => out.extend_from_slice(b"PA"),
            Move::Play(_) => push_transcript(out, [step.mv], B::SIZE),
        }
        out.push(b']');
    });
    r.illegal.is_none()
}

/// Writes one game and its newline.
pub(crate) fn write_row(row: &Row<'_>, out: &mut Vec<u8>) -> ExportCounts {
    let mut buf = [0u8; 10];
    out.extend_from_slice(b"(;GM[Othello]PC[");
    text(out, name_text(&row.tournament));
    out.extend_from_slice(b"]DT[");
    out.extend_from_slice(digits(row.year.into(), &mut buf));
    out.extend_from_slice(b"]PB[");
    text(out, name_text(&row.black));
    out.extend_from_slice(b"]PW[");
    text(out, name_text(&row.white));
    if let Some(o) = row.opening() {
        out.extend_from_slice(b"]GN[");
        text(out, o.name());
    }
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
        BoardSize::Eight => moves::<Board8>(row, out),
        BoardSize::Ten => moves::<Board10>(row, out),
    };
    out.extend_from_slice(b";)\n");
    ExportCounts {
        written: 1,
        bad_moves: usize::from(!legal),
        short: 0,
    }
}

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
#[non_exhaustive]
pub struct GgfGame {
    /// The properties other than the moves, in order (`("PB", "Saio1200")`).
    pub properties: Vec<(String, String)>,
    /// The board size.
    pub size: Size,
    /// The moves from the standard start.
    pub moves: Vec<Move>,
    /// Whether the game is closed by `;)` (always, from [`parse_ggf`]).
    pub complete: bool,
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

    /// The year of `DT` ([`year`]).
    #[must_use]
    pub fn year(&self) -> Option<u16> {
        self.get("DT").and_then(year)
    }

    /// Black's discs from `RE` ([`black_discs`]); `None` for a game with
    /// komi (`KM`).
    #[must_use]
    pub fn black_discs(&self) -> Option<u8> {
        if self.get("KM").is_some() {
            return None;
        }
        self.get("RE").and_then(black_discs)
    }
}

/// The year of a GGF date, the one rule of every reader: `2003.12.15_…`
/// (GGS), `2014-02-21 …` (NBoard), a bare year, or Unix seconds (more than
/// four digits and nothing else).
///
/// ```
/// use wthor_db::text::ggf::year;
///
/// assert_eq!(year("2003.12.15_12:33:18.MST"), Some(2003));
/// assert_eq!(year("2014-02-21 20:52:27 GMT"), Some(2014));
/// assert_eq!(year("947375357"), Some(2000));
/// assert_eq!(year("yesterday"), None);
/// ```
#[must_use]
pub fn year(dt: &str) -> Option<u16> {
    let dt = dt.trim();
    let digits = dt.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 4 {
        return dt[..4].parse().ok();
    }
    if digits == dt.len() && digits > 4 {
        let secs: i64 = dt.parse().ok()?;
        return Some(date_of_unix(secs).full_year());
    }
    None
}

/// Black's discs on 8x8 from a GGF result (`+12.00`, `-2.00:r`); `None`
/// for `?` or a fractional difference.
#[must_use]
pub fn black_discs(re: &str) -> Option<u8> {
    let value = re.split(':').next()?.trim();
    let diff: f64 = value.parse().ok()?;
    if diff.fract() != 0.0 || diff.abs() > 64.0 {
        return None;
    }
    u8::try_from((64 + diff as i32) / 2).ok()
}

/// Reads one GGF game: optional text before it (the GGS match prefix
/// `1 `), `(;`, `KEY[value]` properties, `;)` (see the module docs).
///
/// # Errors
/// [`GgfError`] with the byte offset of what went wrong.
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    parse(text, false)
}

/// Reads the GGF game of a file still being written: what is there so far,
/// the properties whose `]` is written (a move being typed is not taken
/// yet), `complete` once `;)` is; the rest as [`parse_ggf`].
///
/// # Errors
/// [`GgfError`] for what no more text can mend (a bad key, move or size).
pub fn parse_ggf_growing(text: &str) -> Result<GgfGame, GgfError> {
    parse(text, true)
}

fn parse(text: &str, growing: bool) -> Result<GgfGame, GgfError> {
    let err = |position, kind| GgfError { position, kind };
    let bytes = text.as_bytes();
    let start = text
        .find("(;")
        .ok_or_else(|| err(0, GgfErrorKind::NoStart))?;
    let mut i = start + 2;
    let mut properties = Vec::new();
    let mut raw_moves: Vec<(usize, Color, &str)> = Vec::new();
    let mut complete = false;
    loop {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if bytes[i..].starts_with(b";)") {
            complete = true;
            break;
        }
        // The end of the text, or of what is written of it so far.
        if i >= bytes.len() || (growing && &bytes[i..] == b";") {
            if growing {
                break;
            }
            return Err(err(i, GgfErrorKind::Unclosed));
        }
        let key_start = i;
        while i < bytes.len() && bytes[i].is_ascii_uppercase() {
            i += 1;
        }
        if growing && i == bytes.len() {
            break;
        }
        if i == key_start || bytes.get(i) != Some(&b'[') {
            return Err(err(key_start, GgfErrorKind::BadProperty));
        }
        let key = &text[key_start..i];
        let value_start = i + 1;
        let Some(close) = text[value_start..].find(']') else {
            if growing {
                break;
            }
            return Err(err(i, GgfErrorKind::Unclosed));
        };
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
    // `TY[8r]`: the size is the number it starts with.
    let ty = get("TY").map(|t| {
        let t = t.trim();
        &t[..t.bytes().take_while(u8::is_ascii_digit).count()]
    });
    let size_text = get("BO")
        .and_then(|b| b.split_whitespace().next())
        .or(ty)
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
        match Square::parse(sq, size) {
            Ok(s) => moves.push(Move::Play(s)),
            Err(kind) => return Err(err(at, GgfErrorKind::BadMove { index, kind })),
        }
    }
    Ok(GgfGame {
        properties,
        size,
        moves,
        complete,
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
