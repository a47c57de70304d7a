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
//! * [`notation`]: OBF positions and move transcripts.
//!
//! ```
//! use othello_core::{Board, Board8, Move, Size, notation::parse_transcript};
//!
//! let mut board = Board8::start();
//! for mv in parse_transcript("f5d6c3d3c4", Size::Eight).unwrap() {
//!     board = board.play(mv).unwrap();
//! }
//! print!("{}", board.diagram());
//! ```

pub mod bitboard;
pub mod bitboard10;
pub mod bitboard8;
pub mod board;
pub mod mailbox;
pub mod notation;
pub mod perft;
pub mod replay;
pub mod solver;
pub mod square;
pub mod symmetry;

pub use bitboard::Bitboard;
pub use board::{Board, Board8, Board10, IllegalReason, PlayError, PositionError};
pub use square::{Color, Move, Size, Square, SquareError};
