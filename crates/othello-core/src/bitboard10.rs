//! The raw 10x10 kernel: legal moves and flips on a pair of `u128` bitboards.
//!
//! Bit `i` is the square `row * 10 + col` (rows and columns from 0), so
//! `a1 = 0`, `j1 = 9`, `a10 = 90`, `j10 = 99`; bits 100..128 are always 0.
//! `p` holds the discs of the side to move, `o` those of its opponent. The
//! method is that of [`bitboard8`](crate::bitboard8): shifts along the four
//! axes with edge masks for the moves, ray tables for the flips.
//!
//! ```text
//!     a  b  c  d  e  f  g  h  i  j
//!  1  0  1  2  3  4  5  6  7  8  9
//!  2 10 11 12 13 14 15 16 17 18 19
//!  …
//! 10 90 91 92 93 94 95 96 97 98 99
//! ```

/// The 100 squares of the board.
pub const FULL: u128 = (1u128 << 100) - 1;

/// The squares of column `col` (0..10).
const fn column(col: u32) -> u128 {
    let mut bits = 0u128;
    let mut r = 0;
    while r < 10 {
        bits |= 1u128 << (r * 10 + col);
        r += 1;
    }
    bits
}

/// Every square but those of columns a and j.
const INNER_COLUMNS: u128 = FULL & !column(0) & !column(9);
/// Every square but those of rows 1 and 10.
const INNER_ROWS: u128 = FULL & !((1u128 << 10) - 1) & !(((1u128 << 10) - 1) << 90);

/// The squares reachable from `sq` by steps of `(dc, dr)`, `sq` excluded.
const fn ray(sq: usize, dc: i32, dr: i32) -> u128 {
    let mut bits = 0u128;
    let mut c = (sq % 10) as i32 + dc;
    let mut r = (sq / 10) as i32 + dr;
    while c >= 0 && c < 10 && r >= 0 && r < 10 {
        bits |= 1u128 << (r * 10 + c);
        c += dc;
        r += dr;
    }
    bits
}

/// The 8 directions as `(column step, row step)`: the first four go
/// towards higher bit indices, the last four towards lower ones.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// Rays from every square in the 8 directions; the first four go towards
/// higher bit indices, the last four towards lower ones.
static RAYS: [[u128; 100]; 8] = {
    let mut rays = [[0u128; 100]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 100 {
            rays[d][sq] = ray(sq, DIRS[d].0, DIRS[d].1);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// Candidate moves along one axis (both senses) through runs of `mask`
/// (at most 8 discs long on a 10x10 board): runs of 1 and 2 by single
/// steps, then of 4 and 8 by doubling the step.
#[inline(always)]
fn axis_moves(p: u128, mask: u128, d: u32) -> u128 {
    let mut up = mask & (p << d);
    let mut down = mask & (p >> d);
    up |= mask & (up << d);
    down |= mask & (down >> d);
    let pre2_up = mask & (mask << d);
    let pre2_down = pre2_up >> d;
    up |= pre2_up & (up << (2 * d));
    down |= pre2_down & (down >> (2 * d));
    let pre4_up = pre2_up & (pre2_up << (2 * d));
    let pre4_down = pre2_down & (pre2_down >> (2 * d));
    up |= pre4_up & (up << (4 * d));
    down |= pre4_down & (down >> (4 * d));
    (up << d) | (down >> d)
}

/// `BIT[i]` is bit `i` alone.
static BIT: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

/// `ABOVE[i]` holds the bits above bit `i`.
static ABOVE: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 127 {
        t[i] = !((2u128 << i) - 1);
        i += 1;
    }
    t
};

/// The legal moves of the side owning `p` against `o` (empty when it must pass).
#[inline]
#[must_use]
pub fn legal_moves(p: u128, o: u128) -> u128 {
    let inner = o & INNER_COLUMNS;
    let moves = axis_moves(p, inner, 1)
        | axis_moves(p, o & INNER_ROWS, 10)
        | axis_moves(p, inner & INNER_ROWS, 9)
        | axis_moves(p, inner & INNER_ROWS, 11);
    moves & !(p | o) & FULL
}

/// The discs of `o` flipped when the owner of `p` plays on square `sq`
/// (0..100). Zero when the move is not legal; `sq` is assumed empty.
///
/// # Panics
/// When `sq >= 100`.
#[inline]
#[must_use]
pub fn flips(p: u128, o: u128, sq: usize) -> u128 {
    let mut flipped = 0u128;
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let between = ray & first.wrapping_sub(1);
        flipped |= between & 0u128.wrapping_sub(u128::from(first & p != 0));
        d += 1;
    }
    while d < 8 {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        // The highest bit of `stop` (127 when there is none: never a disc).
        let high = ((127 ^ stop.leading_zeros()) & 127) as usize;
        let between = ray & ABOVE[high];
        flipped |= between & 0u128.wrapping_sub(u128::from(p & BIT[high] != 0));
        d += 1;
    }
    flipped
}

/// The start position from black's point of view: `(black, white)`, with
/// e6 and f5 black, e5 and f6 white.
pub const START: (u128, u128) = (
    (1u128 << (5 * 10 + 4)) | (1u128 << (4 * 10 + 5)),
    (1u128 << (4 * 10 + 4)) | (1u128 << (5 * 10 + 5)),
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves_include_g6() {
        let (b, w) = START;
        let moves = legal_moves(b, w);
        // e4 = 34, d5 = 43, g6 = 56, f7 = 65
        assert_eq!(moves, (1 << 34) | (1 << 43) | (1 << 56) | (1 << 65));
        // g6 flips f6.
        assert_eq!(flips(b, w, 56), 1 << 55);
    }
}
