//! The plain-array ("mailbox") reference boards [`Mailbox8`] and
//! [`Mailbox10`].
//!
//! As the jChecs notes recommend, the board is a one-dimensional array with a
//! border of sentinel cells around it, so that walking a ray needs no
//! coordinate checks: on a board of side `N` the array has `(N + 2)²` cells,
//! the square `(col, row)` is cell `(row + 1) * (N + 2) + col + 1`, and the
//! eight directions are `±1`, `±(N + 2)`, `±(N + 1)`, `±(N + 3)`.
//!
//! ```text
//!  #  #  #  #  #  #  #  #  #  #      (N = 8: 10 x 10 cells)
//!  # a1 b1 c1 d1 e1 f1 g1 h1  #
//!  # a2 …                     #
//!  …
//!  #  #  #  #  #  #  #  #  #  #
//! ```
//!
//! This code is deliberately simple and slow: it is the reference that the
//! bitboards are tested against, square by square and ray by ray.

use core::fmt;

use crate::{Bitboard, Board, Color, Size, Square};

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// A mailbox board of side `N` (8 or 10; see [`Mailbox8`], [`Mailbox10`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mailbox<const N: usize> {
    cells: [u8; 144],
    side: Color,
}

/// The 8x8 reference board.
pub type Mailbox8 = Mailbox<8>;
/// The 10x10 reference board.
pub type Mailbox10 = Mailbox<10>;

impl<const N: usize> Mailbox<N> {
    const STRIDE: isize = N as isize + 2;
    const DIRS: [isize; 8] = [
        1,
        -1,
        Self::STRIDE,
        -Self::STRIDE,
        Self::STRIDE - 1,
        Self::STRIDE + 1,
        -Self::STRIDE - 1,
        -Self::STRIDE + 1,
    ];

    /// The array cell of a square index.
    fn cell(sq: usize) -> usize {
        (sq / N + 1) * (N + 2) + sq % N + 1
    }

    fn empty(side: Color) -> Self {
        let mut cells = [BORDER; 144];
        for sq in 0..N * N {
            cells[Self::cell(sq)] = EMPTY;
        }
        Mailbox { cells, side }
    }

    fn color_code(c: Color) -> u8 {
        match c {
            Color::Black => BLACK,
            Color::White => WHITE,
        }
    }

    /// Calls `visit` on each cell flipped by the side to move playing on
    /// square `sq`, direction by direction; returns whether any was.
    fn for_each_flip(&self, sq: usize, mut visit: impl FnMut(usize)) -> bool {
        let me = Self::color_code(self.side);
        let them = Self::color_code(self.side.other());
        let start = Self::cell(sq) as isize;
        let mut any = false;
        for d in Self::DIRS {
            let mut c = start + d;
            while self.cells[c as usize] == them {
                c += d;
            }
            if self.cells[c as usize] == me && c != start + d {
                any = true;
                let mut k = start + d;
                while k != c {
                    visit(k as usize);
                    k += d;
                }
            }
        }
        any
    }

    fn bits_of<B: Bitboard>(&self, code: u8) -> B {
        let mut b = B::EMPTY;
        for sq in 0..N * N {
            if self.cells[Self::cell(sq)] == code {
                b |= B::single(Square::new_unchecked(sq as u8));
            }
        }
        b
    }
}

macro_rules! mailbox_board {
    ($n:literal, $bits:ty, $size:expr) => {
        impl Board for Mailbox<$n> {
            type Bits = $bits;
            const SIZE: Size = $size;

            fn start() -> Self {
                let mut b = Self::empty(Color::Black);
                let (lo, hi) = ($n / 2 - 1, $n / 2);
                // d4/e5 (e5/f6 on 10x10) white, the other two black.
                b.cells[Self::cell(lo * $n + lo)] = WHITE;
                b.cells[Self::cell(hi * $n + hi)] = WHITE;
                b.cells[Self::cell(lo * $n + hi)] = BLACK;
                b.cells[Self::cell(hi * $n + lo)] = BLACK;
                b
            }

            fn from_discs_unchecked(player: $bits, opponent: $bits, side: Color) -> Self {
                let mut b = Self::empty(side);
                for sq in player.squares() {
                    b.cells[Self::cell(sq.index())] = Self::color_code(side);
                }
                for sq in opponent.squares() {
                    b.cells[Self::cell(sq.index())] = Self::color_code(side.other());
                }
                b
            }

            fn player(&self) -> $bits {
                self.bits_of(Self::color_code(self.side))
            }

            fn opponent(&self) -> $bits {
                self.bits_of(Self::color_code(self.side.other()))
            }

            fn side_to_move(&self) -> Color {
                self.side
            }

            fn legal_moves(&self) -> $bits {
                let mut m: $bits = 0;
                for sq in 0..$n * $n {
                    if self.cells[Self::cell(sq)] == EMPTY && self.for_each_flip(sq, |_| {}) {
                        m |= 1 << sq;
                    }
                }
                m
            }

            fn flips(&self, sq: Square) -> $bits {
                let mut f: $bits = 0;
                self.for_each_flip(sq.index(), |c| {
                    let (row, col) = (c / ($n + 2) - 1, c % ($n + 2) - 1);
                    f |= 1 << (row * $n + col);
                });
                f
            }

            fn play_with_flips_unchecked(&self, sq: Square, flips: $bits) -> Self {
                let mut b = *self;
                let me = Self::color_code(self.side);
                b.cells[Self::cell(sq.index())] = me;
                for s in flips.squares() {
                    b.cells[Self::cell(s.index())] = me;
                }
                b.side = self.side.other();
                b
            }

            fn pass(&self) -> Self {
                Mailbox {
                    cells: self.cells,
                    side: self.side.other(),
                }
            }
        }

        impl fmt::Debug for Mailbox<$n> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "Mailbox{}(\"{}\")", $n, self.to_obf())
            }
        }
    };
}

mailbox_board!(8, u64, Size::Eight);
mailbox_board!(10, u128, Size::Ten);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board8, Board10};

    #[test]
    fn start_positions_agree_with_the_bitboards() {
        assert_eq!(Mailbox8::start().to_obf(), Board8::start().to_obf());
        assert_eq!(Mailbox10::start().to_obf(), Board10::start().to_obf());
        assert_eq!(
            Mailbox8::start().legal_moves(),
            Board8::start().legal_moves()
        );
        assert_eq!(
            Mailbox10::start().legal_moves(),
            Board10::start().legal_moves()
        );
    }
}
