//! The raw 8x8 kernel: legal moves and flips on a pair of `u64` bitboards.
//!
//! Bit `i` is the square `row * 8 + col` (rows and columns from 0), so
//! `a1 = 0`, `h1 = 7`, `a8 = 56`, `h8 = 63`: the order of an OBF string.
//! `p` holds the discs of the side to move, `o` those of its opponent.
//!
//! ```text
//!    a  b  c  d  e  f  g  h
//! 1  0  1  2  3  4  5  6  7
//! 2  8  9 10 11 12 13 14 15
//! …
//! 8 56 57 58 59 60 61 62 63
//! ```
//!
//! These functions are the hot loop of perft and of the solver; the typed
//! board types are built on them.

/// Every square but those of columns a and h.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;
/// Every square but those of rows 1 and 8.
const INNER_ROWS: u64 = 0x00ff_ffff_ffff_ff00;

/// The squares reachable from `sq` by steps of `(dc, dr)`, `sq` excluded.
const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    let mut bits = 0u64;
    let mut c = (sq % 8) as i32 + dc;
    let mut r = (sq / 8) as i32 + dr;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        bits |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    bits
}

/// Rays from every square in the 8 directions; the first four go towards
/// higher bit indices, the last four towards lower ones.
static RAYS: [[u64; 64]; 8] = {
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
    let mut rays = [[0u64; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            rays[d][sq] = ray(sq, DIRS[d].0, DIRS[d].1);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// Candidate moves along one axis (both senses) through runs of `mask`.
#[inline(always)]
fn axis_moves(p: u64, mask: u64, d: u32) -> u64 {
    let mut up = mask & (p << d);
    let mut down = mask & (p >> d);
    up |= mask & (up << d);
    down |= mask & (down >> d);
    let pre_up = mask & (mask << d);
    let pre_down = pre_up >> d;
    up |= pre_up & (up << (2 * d));
    down |= pre_down & (down >> (2 * d));
    up |= pre_up & (up << (2 * d));
    down |= pre_down & (down >> (2 * d));
    (up << d) | (down >> d)
}

/// The legal moves of the side owning `p` against `o` (empty when it must pass).
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let moves = axis_moves(p, inner, 1)
        | axis_moves(p, o & INNER_ROWS, 8)
        | axis_moves(p, inner & INNER_ROWS, 7)
        | axis_moves(p, inner & INNER_ROWS, 9);
    moves & !(p | o)
}

/// The discs of `o` flipped when the owner of `p` plays on square `sq`
/// (0..64). Zero when the move is not legal; `sq` is assumed empty.
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let mut flipped = 0u64;
    let mut d = 0;
    while d < 4 {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let between = ray & first.wrapping_sub(1);
        flipped |= between & 0u64.wrapping_sub(u64::from(first & p != 0));
        d += 1;
    }
    while d < 8 {
        let ray = RAYS[d][sq];
        let stop = ray & !o;
        let first = if stop == 0 {
            0
        } else {
            1u64 << (63 - stop.leading_zeros())
        };
        let between = ray & !(first.wrapping_shl(1).wrapping_sub(1));
        flipped |= between & 0u64.wrapping_sub(u64::from(first & p != 0));
        d += 1;
    }
    flipped
}

/// The start position from black's point of view: `(black, white)`.
pub const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

#[cfg(test)]
mod tests {
    use super::*;

    fn perft(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if passed {
                return 1;
            }
            return perft(o, p, depth - 1, true);
        }
        let mut n = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, sq);
            n += perft(o ^ f, p | f | (1 << sq), depth - 1, false);
        }
        n
    }

    #[test]
    fn start_moves_are_d3_c4_f5_e6() {
        let (b, w) = START;
        // d3 = 19, c4 = 26, f5 = 37, e6 = 44
        assert_eq!(
            legal_moves(b, w),
            (1 << 19) | (1 << 26) | (1 << 37) | (1 << 44)
        );
        assert_eq!(flips(b, w, 37), 1 << 36);
    }

    #[test]
    fn perft_matches_published_counts_to_depth_8() {
        let (b, w) = START;
        let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390_216];
        for (i, &n) in expected.iter().enumerate() {
            assert_eq!(perft(b, w, i as u32 + 1, false), n, "depth {}", i + 1);
        }
    }
}
