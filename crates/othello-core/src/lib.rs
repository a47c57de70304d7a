//! Othello rules on 8x8 and 10x10 boards.
//!
//! `othello-core` does no I/O: it takes squares and positions and returns
//! values.
//!
//! * Vocabulary: [`Color`], [`Size`], [`Square`], [`Move`], and the
//!   [`Bitboard`] trait for the set types `u64` (8x8) and `u128` (10x10).
//! * The [`Board`] trait, written once for both sizes, with the bitboard
//!   boards [`Board8`] and [`Board10`] (raw kernels in [`bitboard8`] and
//!   [`bitboard10`]) and the plain-array reference boards of [`mailbox`].
//! * [`notation`]: OBF positions and move transcripts (colour-signed ones
//!   too); WTHOR move bytes and algebraic names are on [`Square`]. GGF and
//!   the other text formats of games are `wthor_db::text`'s.
//! * [`symmetry`]: the 8 symmetries of the square board.
//! * [`replay`]: a recorded game replayed with implicit passes, to a typed
//!   report (illegal move and why, finished or not, the WTHOR-rule score).
//! * [`perft`]: leaf counts of the game tree, sequential or with rayon.
//!
//! Speed: the kernels use shifts with edge masks and ray tables built by
//! `const fn`; on x86-64 the 8x8 kernels use SSE2 (part of the base
//! instruction set), and AVX2 for the moves when the build enables it
//! (`-C target-feature=+avx2`; the repository never sets it). Every
//! vector path is checked against the portable one, and every bitboard
//! against the mailbox boards on random games.
//!
//! ```
//! use othello_core::{Board, Board8, Move, Size, notation::parse_transcript};
//!
//! let mut board = Board8::start();
//! for mv in parse_transcript("f5d6c3d3c4", Size::Eight).unwrap() {
//!     board = board.play(mv).unwrap();
//! }
//! // After f5 d6 c3 d3 c4, white to move:
//! assert_eq!(board.diagram().to_string(), "  a b c d e f g h
//! 1 . . . . . . . .
//! 2 . . . . . . . .
//! 3 . . X O . . . .
//! 4 . . X X X . . .
//! 5 . . . O X X . .
//! 6 . . . O . . . .
//! 7 . . . . . . . .
//! 8 . . . . . . . .
//! white to move, black 6, white 3, empty 55
//! ");
//! ```

// Only the `wthor` binary prints: the libraries return values and errors.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

pub mod bitboard;
pub mod bitboard10;
pub mod bitboard8;
pub mod board;
mod control;
pub mod eval;
pub mod mailbox;
pub mod midgame;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod replay;
pub mod solver;
pub mod square;
pub mod symmetry;

pub use bitboard::Bitboard;
pub use board::{Board, Board8, Board10, IllegalReason, PlayError, PositionError};
pub use square::{Color, Move, Size, SizeError, Square, SquareError};

/// xorshift64: the seeded pseudo-random numbers of the tests.
#[cfg(test)]
pub(crate) fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}
