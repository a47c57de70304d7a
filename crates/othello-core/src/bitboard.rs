//! The [`Bitboard`] trait: sets of squares as `u64` (8x8) or `u128` (10x10).
//!
//! Bit `i` is the square of index `i` ([`Square::index`]); bits beyond the
//! board (64..128 never exist for `u64`, 100..128 for `u128`) are always 0 in
//! the values the boards hand out.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;
use crate::symmetry::Symmetry;

/// The 8 directions as `(column step, row step)`: the first four go
/// towards higher bit indices, the last four towards lower ones.
pub(crate) const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The squares reachable from `sq` by steps of `(dc, dr)` on a board of
/// `width` × `width` squares (bit `row * width + col`), `sq` excluded.
pub(crate) const fn ray(sq: usize, dc: i32, dr: i32, width: i32) -> u128 {
    let mut bits = 0u128;
    let mut c = (sq % width as usize) as i32 + dc;
    let mut r = (sq / width as usize) as i32 + dr;
    while c >= 0 && c < width && r >= 0 && r < width {
        bits |= 1u128 << (r * width + c);
        c += dc;
        r += dr;
    }
    bits
}

/// A set of squares held in an unsigned integer: `u64` or `u128`.
///
/// The operators are those of the integer; the methods name the set
/// operations the rules need. Everything is `#[inline]` and allocation-free.
///
/// ```
/// use othello_core::{Bitboard, Square};
///
/// let set: u64 = (1 << 19) | (1 << 37);
/// assert_eq!(set.count(), 2);
/// let squares: Vec<usize> = set.squares().map(Square::index).collect();
/// assert_eq!(squares, [19, 37]);
/// ```
pub trait Bitboard:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + 'static
{
    /// The empty set.
    const EMPTY: Self;

    /// The set of the squares of index below `n` (`n` at most the width).
    fn low_bits(n: u32) -> Self;

    /// The set holding only `sq`.
    fn single(sq: Square) -> Self;

    /// Whether `sq` is in the set.
    fn has(self, sq: Square) -> bool;

    /// The number of squares in the set.
    fn count(self) -> u32;

    /// Whether the set is empty.
    fn is_empty(self) -> bool;

    /// The lowest square of the set, `None` when it is empty.
    fn first(self) -> Option<Square>;

    /// The set without its lowest square.
    fn without_first(self) -> Self;

    /// The image of the set under a symmetry of the board (8x8 for `u64`,
    /// 10x10 for `u128`).
    fn symmetric(self, sym: Symmetry) -> Self;

    /// The squares of the set, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }
}

/// An iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Squares<B>(B);

impl<B: Bitboard> Iterator for Squares<B> {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.0.first()?;
        self.0 = self.0.without_first();
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bitboard> ExactSizeIterator for Squares<B> {}

macro_rules! impl_bitboard {
    ($t:ty, $sym:ident) => {
        impl Bitboard for $t {
            const EMPTY: Self = 0;

            #[inline(always)]
            fn low_bits(n: u32) -> Self {
                if n == 0 {
                    0
                } else {
                    <$t>::MAX >> (<$t>::BITS - n)
                }
            }

            #[inline(always)]
            fn single(sq: Square) -> Self {
                1 << sq.index()
            }

            #[inline(always)]
            fn has(self, sq: Square) -> bool {
                (self >> sq.index()) & 1 != 0
            }

            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }

            #[inline(always)]
            fn first(self) -> Option<Square> {
                if self == 0 {
                    None
                } else {
                    Some(Square::new_unchecked(self.trailing_zeros() as u8))
                }
            }

            #[inline]
            fn symmetric(self, sym: Symmetry) -> Self {
                sym.$sym(self)
            }

            #[inline(always)]
            fn without_first(self) -> Self {
                self & self.wrapping_sub(1)
            }
        }
    };
}

impl_bitboard!(u64, bits8);
impl_bitboard!(u128, bits10);
