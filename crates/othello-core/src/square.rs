//! Vocabulary types: [`Color`], [`Size`], [`Square`] and [`Move`].
//!
//! A [`Square`] is a bit index `row * side + col` (rows and columns from 0,
//! `a1 = 0`), the same numbering as the bitboards of its board size. It does
//! not carry the size: the functions that need it (names, WTHOR bytes, checks)
//! take a [`Size`], and a [`Board`](crate::Board) knows its own as
//! [`Board::SIZE`](crate::Board::SIZE).

use core::fmt;

/// The colour of a disc or of a player. Black moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (`X` in OBF).
    Black,
    /// The second player (`O` in OBF).
    White,
}

impl Color {
    /// The other colour.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `0` for black, `1` for white.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The OBF letter of the colour: `X` for black, `O` for white.
    #[inline]
    #[must_use]
    pub const fn obf_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The size of a square board: 8x8 or 10x10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// The standard 8x8 board.
    Eight,
    /// The 10x10 board (WTHOR `.wtd` files).
    Ten,
}

/// `8` or `10` (also `8x8`, `10x10`), as the front ends take a board size.
///
/// ```
/// use othello_core::Size;
/// assert_eq!("10".parse::<Size>(), Ok(Size::Ten));
/// assert_eq!("8x8".parse::<Size>(), Ok(Size::Eight));
/// assert!("9".parse::<Size>().is_err());
/// ```
impl std::str::FromStr for Size {
    type Err = SizeError;

    fn from_str(s: &str) -> Result<Size, SizeError> {
        match s.trim() {
            "8" | "8x8" => Ok(Size::Eight),
            "10" | "10x10" => Ok(Size::Ten),
            _ => Err(SizeError(s.to_owned())),
        }
    }
}

/// A board size other than 8 or 10.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the board size is 8 or 10")]
pub struct SizeError(pub String);

impl Size {
    /// The number of rows (and of columns): 8 or 10.
    #[inline]
    #[must_use]
    pub const fn side(self) -> u8 {
        match self {
            Size::Eight => 8,
            Size::Ten => 10,
        }
    }

    /// The number of squares: 64 or 100.
    #[inline]
    #[must_use]
    pub const fn squares(self) -> usize {
        let s = self.side() as usize;
        s * s
    }

    /// The size whose side is `side` (8 or 10), if any.
    #[must_use]
    pub const fn from_side(side: u8) -> Option<Size> {
        match side {
            8 => Some(Size::Eight),
            10 => Some(Size::Ten),
            _ => None,
        }
    }

    /// The WTHOR move-byte stride: a move byte is `col + stride * row` with
    /// rows and columns counted from 1 (10 for 8x8, 12 for 10x10).
    #[inline]
    #[must_use]
    pub const fn wthor_stride(self) -> u8 {
        self.side() + 2
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.side();
        write!(f, "{s}x{s}")
    }
}

/// A square of the board: the bit index `row * side + col`, `a1 = 0`.
///
/// ```
/// use othello_core::{Size, Square};
///
/// let f5 = Square::from_coords(5, 4, Size::Eight).unwrap();
/// assert_eq!(f5.index(), 37);
/// assert_eq!(f5.name(Size::Eight).to_string(), "f5");
/// assert_eq!(Square::parse("F5", Size::Eight), Ok(f5));
/// assert_eq!(f5.to_wthor(Size::Eight), 56);
/// let j10 = Square::parse("j10", Size::Ten).unwrap();
/// assert_eq!(j10.index(), 99);
/// assert_eq!(j10.to_wthor(Size::Ten), 130);
/// assert!(Square::parse("j10", Size::Eight).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square of bit index `index` on a board of `size`, or `None` when
    /// it is off that board.
    #[inline]
    #[must_use]
    pub const fn new(index: u8, size: Size) -> Option<Square> {
        if (index as usize) < size.squares() {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square of bit index `index`, unchecked: `index` must be below the
    /// number of squares of the board it is used on (64 or 100). A larger
    /// index is not undefined behaviour, but the board functions may panic or
    /// return nonsense with it.
    #[inline]
    #[must_use]
    pub const fn new_unchecked(index: u8) -> Square {
        Square(index)
    }

    /// The square at column `col` and row `row` (both from 0), or `None`
    /// when off the board.
    #[inline]
    #[must_use]
    pub const fn from_coords(col: u8, row: u8, size: Size) -> Option<Square> {
        let s = size.side();
        if col < s && row < s {
            Some(Square(row * s + col))
        } else {
            None
        }
    }

    /// The bit index.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The column, from 0 (`a`).
    #[inline]
    #[must_use]
    pub const fn col(self, size: Size) -> u8 {
        self.0 % size.side()
    }

    /// The row, from 0 (row `1`).
    #[inline]
    #[must_use]
    pub const fn row(self, size: Size) -> u8 {
        self.0 / size.side()
    }

    /// The WTHOR move byte of the square: `col + 10 * row` on 8x8,
    /// `col + 12 * row` on 10x10, rows and columns from 1 (`a1` = 11 or 13).
    #[inline]
    #[must_use]
    pub const fn to_wthor(self, size: Size) -> u8 {
        (self.col(size) + 1) + size.wthor_stride() * (self.row(size) + 1)
    }

    /// The square of a WTHOR move byte, or `None` when the byte names no
    /// square of the board (0, the end-of-game marker, included).
    #[inline]
    #[must_use]
    pub const fn from_wthor(byte: u8, size: Size) -> Option<Square> {
        let index = match size {
            Size::Eight => FROM_WTHOR_8[byte as usize],
            Size::Ten => FROM_WTHOR_10[byte as usize],
        };
        if index == NO_SQUARE {
            None
        } else {
            Some(Square(index))
        }
    }

    /// Parses an algebraic square name, a column letter (`a`..`h` or
    /// `a`..`j`, either case) then a row number (`1`..`8` or `1`..`10`).
    ///
    /// # Errors
    /// [`SquareError`] when the text is not a square name of that board.
    pub fn parse(text: &str, size: Size) -> Result<Square, SquareError> {
        match parse_prefix(text.as_bytes(), size) {
            Ok((sq, used)) if used == text.len() => Ok(sq),
            Ok(_) => Err(SquareError::Syntax),
            Err(e) => Err(e),
        }
    }

    /// A displayable name of the square on a board of `size` (`f5`, `j10`).
    #[inline]
    #[must_use]
    pub const fn name(self, size: Size) -> SquareName {
        SquareName(self, size)
    }
}

/// Marks a byte that names no square in the tables below.
const NO_SQUARE: u8 = u8::MAX;

/// The square index of every WTHOR move byte, [`NO_SQUARE`] when none.
const fn wthor_table(size: Size) -> [u8; 256] {
    let mut t = [NO_SQUARE; 256];
    let side = size.side();
    let stride = size.wthor_stride();
    let mut row = 0;
    while row < side {
        let mut col = 0;
        while col < side {
            t[((row + 1) * stride + col + 1) as usize] = row * side + col;
            col += 1;
        }
        row += 1;
    }
    t
}

static FROM_WTHOR_8: [u8; 256] = wthor_table(Size::Eight);
static FROM_WTHOR_10: [u8; 256] = wthor_table(Size::Ten);

/// Parses a square name at the start of `bytes`, returning it and the number
/// of bytes it used (the row number is read greedily, at most two digits).
pub(crate) fn parse_prefix(bytes: &[u8], size: Size) -> Result<(Square, usize), SquareError> {
    let Some(&c) = bytes.first() else {
        return Err(SquareError::Syntax);
    };
    let c = c.to_ascii_lowercase();
    if !c.is_ascii_lowercase() {
        return Err(SquareError::Syntax);
    }
    let col = c - b'a';
    let mut used = 1;
    let mut row: u32 = 0;
    while used < bytes.len() && used < 3 && bytes[used].is_ascii_digit() {
        row = row * 10 + u32::from(bytes[used] - b'0');
        used += 1;
    }
    if used == 1 {
        return Err(SquareError::Syntax);
    }
    let side = u32::from(size.side());
    if u32::from(col) >= side || row == 0 || row > side {
        return Err(SquareError::OffBoard);
    }
    Ok((Square((row as u8 - 1) * size.side() + col), used))
}

/// Why a text is not a square name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SquareError {
    /// Not a letter followed by a number.
    #[error("not a square name (a letter and a row number)")]
    Syntax,
    /// A well-formed name outside the board.
    #[error("square off the board")]
    OffBoard,
}

/// A square with its board size, displayed as its algebraic name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareName(Square, Size);

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let SquareName(sq, size) = *self;
        let col = (b'a' + sq.col(size)) as char;
        write!(f, "{col}{}", sq.row(size) + 1)
    }
}

/// A move: a disc on a square, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A disc put on the square.
    Play(Square),
    /// The side to move passes (legal only when it has no move).
    Pass,
}

impl Move {
    /// The square played, `None` for a pass.
    #[inline]
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Play(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// A displayable name: the square's (`f5`) or `pa` for a pass.
    #[must_use]
    pub const fn name(self, size: Size) -> MoveName {
        MoveName(self, size)
    }
}

/// A move with its board size, displayed as `f5` or `pa`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveName(Move, Size);

impl fmt::Display for MoveName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Move::Play(sq) => sq.name(self.1).fmt(f),
            Move::Pass => f.write_str("pa"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wthor_bytes_round_trip_on_both_sizes() {
        for size in [Size::Eight, Size::Ten] {
            for i in 0..size.squares() as u8 {
                let sq = Square::new(i, size).unwrap();
                assert_eq!(Square::from_wthor(sq.to_wthor(size), size), Some(sq));
                let name = sq.name(size).to_string();
                assert_eq!(Square::parse(&name, size), Ok(sq));
                assert_eq!(Square::parse(&name.to_uppercase(), size), Ok(sq));
            }
            let valid = (0..=255u8)
                .filter(|&b| Square::from_wthor(b, size).is_some())
                .count();
            assert_eq!(valid, size.squares());
        }
        assert_eq!(Square::from_wthor(11, Size::Eight).unwrap().index(), 0);
        assert_eq!(Square::from_wthor(88, Size::Eight).unwrap().index(), 63);
        assert_eq!(Square::from_wthor(13, Size::Ten).unwrap().index(), 0);
        assert_eq!(Square::from_wthor(22, Size::Ten).unwrap().index(), 9);
        assert_eq!(Square::from_wthor(121, Size::Ten).unwrap().index(), 90);
        assert_eq!(Square::from_wthor(0, Size::Eight), None);
    }

    #[test]
    fn bad_names_are_errors() {
        for bad in ["", "f", "5", "f0", "f9", "i1", "f55", "ff", "f5x", "é5"] {
            assert!(Square::parse(bad, Size::Eight).is_err(), "{bad}");
        }
        assert_eq!(Square::parse("k1", Size::Ten), Err(SquareError::OffBoard));
        assert_eq!(Square::parse("a11", Size::Ten), Err(SquareError::OffBoard));
    }
}
