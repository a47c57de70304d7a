//! Othello rules on 8x8 and 10x10 boards.
//!
//! `othello-core` does no I/O: it takes squares and positions and returns
//! values. The raw bitboard kernels live in [`bitboard8`].

pub mod bitboard8;
