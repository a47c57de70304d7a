//! The 8 symmetries of the square board (the dihedral group of order 8).
//!
//! A [`Symmetry`] is a transposition (swap columns and rows) optionally
//! followed by a reversal of the columns and/or of the rows. They act on
//! squares ([`Symmetry::square`]), on bitboards ([`Bitboard::symmetric`];
//! delta swaps on `u64`, row moves on `u128`) and on boards
//! ([`Symmetry::board`]); move generation commutes with them.
//!
//! ```
//! use othello_core::{Board, Board8, Size, Square, symmetry::Symmetry};
//!
//! let f5 = Square::parse("f5", Size::Eight).unwrap();
//! let names: Vec<String> = Symmetry::ALL
//!     .iter()
//!     .map(|s| s.square(f5, Size::Eight).name(Size::Eight).to_string())
//!     .collect();
//! assert_eq!(names, ["f5", "c5", "f4", "c4", "e6", "d6", "e3", "d3"]);
//! // The start position is symmetric under the 180° rotation and the
//! // diagonal flips (with the same side to move).
//! let start = Board8::start();
//! assert_eq!(Symmetry::ROTATE_180.board(&start), start);
//! ```

use crate::{Bitboard, Board, Size, Square};

/// One of the 8 symmetries of the square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

impl Symmetry {
    const TRANSPOSE: u8 = 4;
    const FLIP_ROWS: u8 = 2;
    const FLIP_COLS: u8 = 1;

    /// The identity.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// Columns reversed (a ↔ h).
    pub const MIRROR: Symmetry = Symmetry(Self::FLIP_COLS);
    /// Rows reversed (1 ↔ 8).
    pub const FLIP: Symmetry = Symmetry(Self::FLIP_ROWS);
    /// The half turn.
    pub const ROTATE_180: Symmetry = Symmetry(Self::FLIP_ROWS | Self::FLIP_COLS);
    /// The reflection in the a1–h8 diagonal.
    pub const TRANSPOSE_MAIN: Symmetry = Symmetry(Self::TRANSPOSE);
    /// The reflection in the a8–h1 diagonal.
    pub const TRANSPOSE_ANTI: Symmetry =
        Symmetry(Self::TRANSPOSE | Self::FLIP_ROWS | Self::FLIP_COLS);

    /// All 8 symmetries, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// The image of the square at `(col, row)` on a board of side `side`.
    #[inline]
    #[must_use]
    pub const fn coords(self, col: u8, row: u8, side: u8) -> (u8, u8) {
        let (mut c, mut r) = if self.0 & Self::TRANSPOSE != 0 {
            (row, col)
        } else {
            (col, row)
        };
        if self.0 & Self::FLIP_COLS != 0 {
            c = side - 1 - c;
        }
        if self.0 & Self::FLIP_ROWS != 0 {
            r = side - 1 - r;
        }
        (c, r)
    }

    /// The image of `sq` on a board of `size`.
    #[inline]
    #[must_use]
    pub const fn square(self, sq: Square, size: Size) -> Square {
        let (c, r) = self.coords(sq.col(size), sq.row(size), size.side());
        Square::new_unchecked(r * size.side() + c)
    }

    /// `self` after `first`: the symmetry mapping `x` to
    /// `self(first(x))`.
    #[must_use]
    pub fn after(self, first: Symmetry) -> Symmetry {
        // Two squares off every axis of symmetry determine the element.
        let image = |s: Symmetry| (s.coords(1, 0, 8), s.coords(0, 2, 8));
        let (a, b) = image(first);
        let want = (self.coords(a.0, a.1, 8), self.coords(b.0, b.1, 8));
        Symmetry::ALL
            .into_iter()
            .find(|&s| image(s) == want)
            .expect("the symmetries form a group")
    }

    /// The inverse symmetry.
    #[must_use]
    pub fn inverse(self) -> Symmetry {
        Symmetry::ALL
            .into_iter()
            .find(|&s| s.after(self) == Symmetry::IDENTITY)
            .expect("the symmetries form a group")
    }

    /// The image of a board: discs moved, side to move kept.
    #[inline]
    #[must_use]
    pub fn board<B: Board>(self, board: &B) -> B {
        B::from_discs_unchecked(
            board.player().symmetric(self),
            board.opponent().symmetric(self),
            board.side_to_move(),
        )
    }

    /// The image of a `u64` (8x8) bitboard, by delta swaps.
    #[inline]
    #[must_use]
    pub const fn bits8(self, mut x: u64) -> u64 {
        if self.0 & Self::TRANSPOSE != 0 {
            const K1: u64 = 0x5500_5500_5500_5500;
            const K2: u64 = 0x3333_0000_3333_0000;
            const K4: u64 = 0x0f0f_0f0f_0000_0000;
            let mut t = K4 & (x ^ (x << 28));
            x ^= t ^ (t >> 28);
            t = K2 & (x ^ (x << 14));
            x ^= t ^ (t >> 14);
            t = K1 & (x ^ (x << 7));
            x ^= t ^ (t >> 7);
        }
        if self.0 & Self::FLIP_COLS != 0 {
            const K1: u64 = 0x5555_5555_5555_5555;
            const K2: u64 = 0x3333_3333_3333_3333;
            const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
            x = ((x >> 1) & K1) | ((x & K1) << 1);
            x = ((x >> 2) & K2) | ((x & K2) << 2);
            x = ((x >> 4) & K4) | ((x & K4) << 4);
        }
        if self.0 & Self::FLIP_ROWS != 0 {
            x = x.swap_bytes();
        }
        x
    }

    /// The image of a `u128` (10x10) bitboard.
    #[must_use]
    pub fn bits10(self, x: u128) -> u128 {
        const ROW: u128 = (1 << 10) - 1;
        let mut y = 0u128;
        if self.0 & Self::TRANSPOSE == 0 {
            // Whole rows move; columns are reversed inside a row if asked.
            for r in 0..10u32 {
                let mut row = (x >> (10 * r)) & ROW;
                if self.0 & Self::FLIP_COLS != 0 {
                    row = (row.reverse_bits() >> (128 - 10)) & ROW;
                }
                let to = if self.0 & Self::FLIP_ROWS != 0 {
                    9 - r
                } else {
                    r
                };
                y |= row << (10 * to);
            }
        } else {
            for sq in x.squares() {
                y |= 1 << self.square(sq, Size::Ten).index();
            }
        }
        y
    }
}

/// The 8 images of a board under the symmetries, in [`Symmetry::ALL`]
/// order (side to move kept).
#[must_use]
pub fn images<B: Board>(board: &B) -> [B; 8] {
    Symmetry::ALL.map(|s| s.board(board))
}

/// The canonical form of a board: the smallest of its 8 images, ordered by
/// the discs of the side to move then of the opponent (side to move kept),
/// with a symmetry that maps the board to it. Two boards are the same
/// position up to symmetry exactly when their canonical forms are equal.
///
/// ```
/// use othello_core::{Board, Board8, Move, Size, Square};
/// use othello_core::symmetry::{Symmetry, canonical};
///
/// let f5 = Square::parse("f5", Size::Eight).unwrap();
/// let after = Board8::start().play(Move::Play(f5)).unwrap();
/// let (key, sym) = canonical(&after);
/// assert_eq!(sym.board(&after), key);
/// for s in Symmetry::ALL {
///     assert_eq!(canonical(&s.board(&after)).0, key);
/// }
/// ```
#[must_use]
pub fn canonical<B: Board>(board: &B) -> (B, Symmetry) {
    Symmetry::ALL
        .into_iter()
        .map(|s| (s.board(board), s))
        .min_by_key(|(b, _)| (b.player(), b.opponent()))
        .expect("8 symmetries")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symmetries_form_a_group() {
        for a in Symmetry::ALL {
            assert_eq!(a.after(Symmetry::IDENTITY), a);
            assert_eq!(Symmetry::IDENTITY.after(a), a);
            assert_eq!(a.after(a.inverse()), Symmetry::IDENTITY);
            for b in Symmetry::ALL {
                for c in Symmetry::ALL {
                    assert_eq!(a.after(b).after(c), a.after(b.after(c)));
                }
            }
        }
        // Distinct as permutations of the squares of both sizes.
        for size in [Size::Eight, Size::Ten] {
            let perms: std::collections::HashSet<Vec<Square>> = Symmetry::ALL
                .iter()
                .map(|s| {
                    (0..size.squares())
                        .map(|i| s.square(Square::new_unchecked(i as u8), size))
                        .collect()
                })
                .collect();
            assert_eq!(perms.len(), 8);
        }
    }

    #[test]
    fn bitboard_images_match_square_images() {
        for s in Symmetry::ALL {
            for i in 0..64u8 {
                let sq = Square::new_unchecked(i);
                assert_eq!(
                    s.bits8(1 << i),
                    1 << s.square(sq, Size::Eight).index(),
                    "{s:?} {i}"
                );
            }
            for i in 0..100u8 {
                let sq = Square::new_unchecked(i);
                assert_eq!(
                    s.bits10(1 << i),
                    1 << s.square(sq, Size::Ten).index(),
                    "{s:?} {i}"
                );
            }
        }
    }
}
