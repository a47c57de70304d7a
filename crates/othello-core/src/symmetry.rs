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

use crate::{Bitboard, Board, Color, Size, Square};

/// One of the 8 symmetries of the square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symmetry(u8);

/// An 8x8 bitboard transposed, square `(row, col)` to `(col, row)`, by
/// three delta swaps: [`Symmetry::bits8`]'s transpose, and the evaluation's.
#[inline]
#[must_use]
pub(crate) const fn transpose8(mut x: u64) -> u64 {
    let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

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

    /// The first symmetry (in [`Symmetry::ALL`] order) taking square
    /// `from` to square `to` on a board of `size`, if one does (the way a
    /// game is turned to start with f5, as WTHOR files store them).
    ///
    /// ```
    /// use othello_core::{Size, Square, symmetry::Symmetry};
    ///
    /// let sq = |n| Square::parse(n, Size::Eight).unwrap();
    /// let s = Symmetry::taking(sq("c4"), sq("f5"), Size::Eight).unwrap();
    /// assert_eq!(s.square(sq("e3"), Size::Eight), sq("d6"));
    /// assert_eq!(Symmetry::taking(sq("a1"), sq("b1"), Size::Eight), None);
    /// ```
    #[must_use]
    pub fn taking(from: Square, to: Square, size: Size) -> Option<Symmetry> {
        Symmetry::ALL
            .into_iter()
            .find(|s| s.square(from, size) == to)
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
            x = transpose8(x);
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

/// The symmetries that leave `board` as it is, in [`Symmetry::ALL`] order
/// (the identity first; 4 of them for the start position).
#[must_use]
pub fn stabilizer<B: Board>(board: &B) -> Vec<Symmetry> {
    Symmetry::ALL
        .into_iter()
        .filter(|s| s.board(board) == *board)
        .collect()
}

/// The 8 images of a board under the symmetries, in [`Symmetry::ALL`]
/// order (side to move kept).
#[must_use]
pub fn images<B: Board>(board: &B) -> [B; 8] {
    Symmetry::ALL.map(|s| s.board(board))
}

/// The discs `(player, opponent)` in canonical orientation, with a
/// symmetry that maps them there: of their 8 images, the one whose pair is
/// the smallest, compared as unsigned integers (bit `i` is square `i`: a1
/// is bit 0, b1 bit 1, …, a2 bit 8 on 8x8 and bit 10 on 10x10), the side to
/// move's discs first; when several symmetries give it (a symmetric
/// position), the first of [`Symmetry::ALL`].
///
/// This choice is part of the files written with it (the solve cache, the
/// position index): it never changes.
#[must_use]
pub fn canonical_discs<T: Bitboard>(player: T, opponent: T) -> ((T, T), Symmetry) {
    Symmetry::ALL
        .into_iter()
        .map(|s| ((player.symmetric(s), opponent.symmetric(s)), s))
        .min_by_key(|&(discs, _)| discs)
        .expect("8 symmetries")
}

/// The canonical form of a board: the image whose discs are canonical
/// ([`canonical_discs`]; side to move kept), with a symmetry that maps the
/// board to it. Two boards are the same position up to symmetry exactly
/// when their canonical forms are equal.
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
    let ((player, opponent), sym) = canonical_discs(board.player(), board.opponent());
    (
        B::from_discs_unchecked(player, opponent, board.side_to_move()),
        sym,
    )
}

/// The key of a position up to symmetry: the board size, the side to move
/// and the discs in canonical orientation ([`canonical_discs`]). Equal keys
/// are the same position (same discs, same side to move) up to one of the
/// 8 symmetries; the one key for the solve cache, the position index,
/// openings and duplicates.
///
/// Its 64-bit hash ([`PositionKey::hash64`]) is XXH3-64 (seed 0) of the 34
/// bytes of [`PositionKey::bytes`]: stable across builds and platforms,
/// stored in index files.
///
/// ```
/// use othello_core::{Board, Board8, Move, Size, Square};
/// use othello_core::symmetry::{PositionKey, Symmetry};
///
/// let f5 = Square::parse("f5", Size::Eight).unwrap();
/// let after = Board8::start().play(Move::Play(f5)).unwrap();
/// let key = PositionKey::of(&after);
/// for s in Symmetry::ALL {
///     assert_eq!(PositionKey::of(&s.board(&after)), key);
/// }
/// assert_ne!(PositionKey::of(&Board8::start()), key);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PositionKey {
    size: Size,
    side_to_move: Color,
    player: u128,
    opponent: u128,
}

impl PositionKey {
    /// The key of `board`.
    #[must_use]
    pub fn of<B: Board>(board: &B) -> PositionKey
    where
        B::Bits: Into<u128>,
    {
        let ((player, opponent), _) = canonical_discs(board.player(), board.opponent());
        PositionKey {
            size: B::SIZE,
            side_to_move: board.side_to_move(),
            player: player.into(),
            opponent: opponent.into(),
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The side to move's discs, in canonical orientation.
    #[must_use]
    pub fn player(&self) -> u128 {
        self.player
    }

    /// The other side's discs, in canonical orientation.
    #[must_use]
    pub fn opponent(&self) -> u128 {
        self.opponent
    }

    /// The key as bytes: the board side (8 or 10), the side to move (0
    /// black, 1 white), then the player's and the opponent's discs as
    /// 16-byte little-endian integers.
    #[must_use]
    pub fn bytes(&self) -> [u8; 34] {
        let mut key = [0u8; 34];
        key[0] = self.size.side();
        key[1] = u8::from(self.side_to_move == Color::White);
        key[2..18].copy_from_slice(&self.player.to_le_bytes());
        key[18..34].copy_from_slice(&self.opponent.to_le_bytes());
        key
    }

    /// XXH3-64 of [`PositionKey::bytes`].
    #[must_use]
    pub fn hash64(&self) -> u64 {
        xxhash_rust::xxh3::xxh3_64(&self.bytes())
    }
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

    /// The key's layout and hash are stored in index files: pinned.
    #[test]
    fn the_position_key_is_stable() {
        use crate::{Board8, Board10, Move};
        let f5 = Square::parse("f5", Size::Eight).unwrap();
        let after = Board8::start().play(Move::Play(f5)).unwrap();
        let key = PositionKey::of(&after);
        // White's d4 (bit 27) is the smallest image of white's one disc;
        // of the two symmetries keeping it, the identity gives the smaller
        // black discs (e4, d5, e5, f5; the diagonal flip has e6).
        assert_eq!(key.player(), 1 << 27);
        assert_eq!(
            key.opponent(),
            (1 << 28) | (1 << 35) | (1 << 36) | (1 << 37)
        );
        assert_eq!(key.side_to_move(), Color::White);
        assert_eq!(key.bytes()[..2], [8, 1]);
        assert_eq!(key.hash64(), 0xdbf0_afe4_ac97_8082);
        let ten = PositionKey::of(&Board10::start());
        assert_eq!(ten.bytes()[..2], [10, 0]);
        assert_eq!(ten.hash64(), 0xef60_7039_76ee_6389);
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
