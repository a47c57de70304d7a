//! Board sizes and squares as the WTHOR files number them.
//!
//! ```text
//!     a  b  c  d  e  f  g  h          8x8 move byte = column + 10 × row
//! 1  11 12 13 14 15 16 17 18          (rows and columns from 1)
//! 2  21 .. .. .. .. .. .. 28
//! .                                   10x10 move byte = column + 12 × row
//! 8  81 82 83 84 85 86 87 88          (a1 = 13, j1 = 22, a10 = 121, j10 = 130)
//! ```
//!
//! This crate knows no Othello rules: a [`Square`] is only a place on the board.

use std::fmt;

/// The two board sizes of the WTHOR format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BoardSize {
    /// 8x8: `.wtb` files, 68-byte records with 60 move bytes.
    Eight,
    /// 10x10: `.wtd` files, 104-byte records with 96 move bytes.
    Ten,
}

impl BoardSize {
    /// Squares on a side: 8 or 10.
    #[must_use]
    #[inline]
    pub const fn side(self) -> u8 {
        match self {
            Self::Eight => 8,
            Self::Ten => 10,
        }
    }

    /// Number of squares: 64 or 100 (the discs of a full board).
    #[must_use]
    #[inline]
    pub const fn squares(self) -> u8 {
        self.side() * self.side()
    }

    /// Number of move bytes in a game record: 60 or 96.
    #[must_use]
    #[inline]
    pub const fn moves_len(self) -> usize {
        match self {
            Self::Eight => 60,
            Self::Ten => 96,
        }
    }

    /// Length of a game record: 68 or 104 bytes.
    #[must_use]
    #[inline]
    pub const fn record_len(self) -> usize {
        8 + self.moves_len()
    }

    /// The multiplier of the row in a move byte: 10 or 12.
    #[must_use]
    #[inline]
    pub const fn row_stride(self) -> u8 {
        match self {
            Self::Eight => 10,
            Self::Ten => 12,
        }
    }

    /// The P1 header value written for this size: 8 or 10.
    #[must_use]
    #[inline]
    pub const fn p1(self) -> u8 {
        self.side()
    }

    pub(crate) const fn table(self) -> &'static [u8; 256] {
        match self {
            Self::Eight => &DECODE_8,
            Self::Ten => &DECODE_10,
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Eight => "8x8",
            Self::Ten => "10x10",
        })
    }
}

/// Marks a byte that is no square in the decode tables.
pub(crate) const OFF: u8 = 0xFF;

/// Byte → `row << 4 | column` (both from 0), or [`OFF`].
const fn decode_table(side: u8, stride: u8) -> [u8; 256] {
    let mut table = [OFF; 256];
    let mut row = 1;
    while row <= side {
        let mut col = 1;
        while col <= side {
            table[(col + stride * row) as usize] = ((row - 1) << 4) | (col - 1);
            col += 1;
        }
        row += 1;
    }
    table
}

static DECODE_8: [u8; 256] = decode_table(8, 10);
static DECODE_10: [u8; 256] = decode_table(10, 12);

/// A square, by column and row counted from 0 (a1 = column 0, row 0).
///
/// ```
/// use wthor_format::{BoardSize, Square};
/// let f5 = Square::from_wthor(56, BoardSize::Eight).unwrap();
/// assert_eq!((f5.column(), f5.row()), (5, 4));
/// assert_eq!(f5.to_string(), "f5");
/// assert_eq!(f5.index(BoardSize::Eight), 37);
/// assert_eq!(f5.to_wthor(BoardSize::Eight), 56);
/// assert_eq!(Square::from_wthor(130, BoardSize::Ten).unwrap().to_string(), "j10");
/// assert_eq!(Square::from_wthor(19, BoardSize::Eight), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// `row << 4 | column`, both from 0.
    packed: u8,
}

impl Square {
    /// The square at `column` and `row` (from 0), if both are below `size`'s side.
    #[must_use]
    #[inline]
    pub const fn new(column: u8, row: u8, size: BoardSize) -> Option<Self> {
        if column < size.side() && row < size.side() {
            Some(Self {
                packed: (row << 4) | column,
            })
        } else {
            None
        }
    }

    /// Decodes a move byte (`column + 10 × row` on 8x8, `column + 12 × row` on
    /// 10x10, both from 1); `None` for a byte that is no square (including 0).
    #[inline]
    #[must_use]
    pub fn from_wthor(byte: u8, size: BoardSize) -> Option<Self> {
        let packed = size.table()[usize::from(byte)];
        (packed != OFF).then_some(Self { packed })
    }

    #[inline]
    pub(crate) const fn from_packed(packed: u8) -> Self {
        Self { packed }
    }

    /// The move byte of this square.
    #[must_use]
    #[inline]
    pub const fn to_wthor(self, size: BoardSize) -> u8 {
        (self.column() + 1) + size.row_stride() * (self.row() + 1)
    }

    /// Column from 0 (a = 0).
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        self.packed & 0x0F
    }

    /// Row from 0 (row 1 = 0).
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        self.packed >> 4
    }

    /// `row × side + column`: 0..64 on 8x8 (a1 = 0, h8 = 63), 0..100 on 10x10.
    #[must_use]
    #[inline]
    pub const fn index(self, size: BoardSize) -> usize {
        self.row() as usize * size.side() as usize + self.column() as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.column()), self.row() + 1)
    }
}
