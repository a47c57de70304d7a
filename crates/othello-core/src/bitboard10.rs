//! The raw 10x10 kernel: legal moves and flips on a pair of `u128` bitboards.
//!
//! Bit `i` is the square `row * 10 + col` (rows and columns from 0), so
//! `a1 = 0`, `j1 = 9`, `a10 = 90`, `j10 = 99`; bits 100..128 are always 0.
//! `p` holds the discs of the side to move, `o` those of its opponent.
//!
//! Moves: shifts along the four axes with edge masks, runs of up to 8 discs
//! in 4 steps (doubling the step). On x86-64 (SSE2, always there) the
//! columns and diagonals go in vector registers, as two overlapping 64-bit
//! windows of the board (no 128-bit shifts), and the row with integers
//! (towards higher bits by one addition), so that both kinds of execution
//! unit work at once. Flips: one function per square, chosen from a table,
//! in which the rays are constants, so that each ray lying in one 64-bit
//! half of the board costs 64-bit operations only and rays too short to
//! flip cost nothing. [`legal_moves_portable`] and [`flips_portable`] are the
//! plain versions they are checked against.
//!
//! ```text
//!     a  b  c  d  e  f  g  h  i  j
//!  1  0  1  2  3  4  5  6  7  8  9
//!  2 10 11 12 13 14 15 16 17 18 19
//!  …
//! 10 90 91 92 93 94 95 96 97 98 99
//! ```

use crate::bitboard::{DIRS, ray};

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

/// Rays from every square in the 8 directions; the first four go towards
/// higher bit indices, the last four towards lower ones.
const RAYS_C: [[u128; 100]; 8] = {
    let mut rays = [[0u128; 100]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 100 {
            rays[d][sq] = ray(sq, DIRS[d].0, DIRS[d].1, 10);
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// [`RAYS_C`] in memory, for the generic code.
static RAYS: [[u128; 100]; 8] = RAYS_C;

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
///
/// On x86-64 the columns and diagonals are walked in SSE2 registers while
/// the row is walked with integers; elsewhere all with integers. The
/// columns need no edge mask: a step off the top or the bottom leaves the
/// board (bits 100.. hold no disc and are masked off at the end). Checked
/// against [`legal_moves_portable`].
#[inline]
#[must_use]
pub fn legal_moves(p: u128, o: u128) -> u128 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let inner = o & INNER_COLUMNS;
        // SAFETY: SSE2 is part of x86-64 and enabled by the cfg above.
        let vertical = unsafe { simd::three_axes(p, o, inner) };
        (row_moves(p, inner) | vertical) & !(p | o) & FULL
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        let inner = o & INNER_COLUMNS;
        let moves = row_moves(p, inner)
            | axis_moves(p, o, 10)
            | axis_moves(p, inner, 9)
            | axis_moves(p, inner, 11);
        moves & !(p | o) & FULL
    }
}

/// Candidate moves along the rows, `inner` the opponent discs off columns
/// a and j. Towards higher bits one addition does it: the bit of `p` carried
/// into a run of `inner` ripples through it to the square just past its end.
/// Towards lower bits, steps as in [`axis_moves`].
#[inline(always)]
fn row_moves(p: u128, inner: u128) -> u128 {
    let up = inner.wrapping_add((p << 1) & inner) & !inner;
    let mut down = inner & (p >> 1);
    down |= inner & (down >> 1);
    let pre2 = inner & (inner >> 1);
    down |= pre2 & (down >> 2);
    let pre4 = pre2 & (pre2 >> 2);
    down |= pre4 & (down >> 4);
    up | (down >> 1)
}

/// [`legal_moves`] with plain integer shifts along the four axes, on every
/// target.
#[inline]
#[must_use]
pub fn legal_moves_portable(p: u128, o: u128) -> u128 {
    let inner = o & INNER_COLUMNS;
    let moves = axis_moves(p, inner, 1)
        | axis_moves(p, o & INNER_ROWS, 10)
        | axis_moves(p, inner & INNER_ROWS, 9)
        | axis_moves(p, inner & INNER_ROWS, 11);
    moves & !(p | o) & FULL
}

/// The vector walk of [`legal_moves`]: each 64-bit lane holds a window of
/// the board, lane 0 its squares 0..64 and lane 1 its squares 36..100, and
/// shifts stay inside the lanes (one instruction each, no carries).
///
/// Towards higher bits, lane 0 sees everything below its squares, so its
/// walk is exact; lane 1 misses the runs coming from below square 36. Those
/// cross the overlap 36..64 of the windows, where lane 0 is exact: its
/// squares there are copied into lane 1 and the walk goes on from them. The
/// last disc of such a run below square 64 is at most a step below it, so
/// at most 3 discs follow before the square played (the run ends by square
/// 99 at the latest): two more steps (1 then 2) reach them. Towards lower
/// bits the same with the roles of the lanes swapped.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod simd {
    use core::arch::x86_64::*;

    /// Moves towards higher bits by steps of `D` (`D2 = 2D`, `D4 = 4D`)
    /// through runs of `m`, from the discs `p`, both in windows.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn up<const D: i32, const D2: i32, const D4: i32>(p: __m128i, m: __m128i) -> __m128i {
        let pre2 = _mm_and_si128(m, _mm_slli_epi64::<D>(m));
        let pre4 = _mm_and_si128(pre2, _mm_slli_epi64::<D2>(pre2));
        let mut f = _mm_and_si128(m, _mm_slli_epi64::<D>(p));
        f = _mm_or_si128(f, _mm_and_si128(m, _mm_slli_epi64::<D>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre2, _mm_slli_epi64::<D2>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre4, _mm_slli_epi64::<D4>(f)));
        // Lane 0 is exact: its squares 36..64 go to lane 1, which walks on.
        f = _mm_or_si128(f, _mm_slli_si128::<8>(_mm_srli_epi64::<36>(f)));
        f = _mm_or_si128(f, _mm_and_si128(m, _mm_slli_epi64::<D>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre2, _mm_slli_epi64::<D2>(f)));
        _mm_slli_epi64::<D>(f)
    }

    /// Moves towards lower bits, as [`up`].
    #[inline]
    #[target_feature(enable = "sse2")]
    fn down<const D: i32, const D2: i32, const D4: i32>(p: __m128i, m: __m128i) -> __m128i {
        let pre2 = _mm_and_si128(m, _mm_srli_epi64::<D>(m));
        let pre4 = _mm_and_si128(pre2, _mm_srli_epi64::<D2>(pre2));
        let mut f = _mm_and_si128(m, _mm_srli_epi64::<D>(p));
        f = _mm_or_si128(f, _mm_and_si128(m, _mm_srli_epi64::<D>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre2, _mm_srli_epi64::<D2>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre4, _mm_srli_epi64::<D4>(f)));
        // Lane 1 is exact: its squares 36..64 go to lane 0, which walks on.
        f = _mm_or_si128(f, _mm_srli_si128::<8>(_mm_slli_epi64::<36>(f)));
        f = _mm_or_si128(f, _mm_and_si128(m, _mm_srli_epi64::<D>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre2, _mm_srli_epi64::<D2>(f)));
        _mm_srli_epi64::<D>(f)
    }

    /// The two windows of `x`: squares 0..64 in lane 0, 36..100 in lane 1.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn windows(x: u128) -> __m128i {
        _mm_set_epi64x((x >> 36) as i64, x as i64)
    }

    /// Candidate moves along the columns (through `o`) and both diagonals
    /// (through `inner`, the discs of `o` off columns a and j).
    #[inline]
    #[must_use]
    #[target_feature(enable = "sse2")]
    pub(super) fn three_axes(p: u128, o: u128, inner: u128) -> u128 {
        let p = windows(p);
        let o = windows(o);
        let inner = windows(inner);
        let v = _mm_or_si128(
            _mm_or_si128(
                _mm_or_si128(up::<10, 20, 40>(p, o), down::<10, 20, 40>(p, o)),
                _mm_or_si128(up::<9, 18, 36>(p, inner), down::<9, 18, 36>(p, inner)),
            ),
            _mm_or_si128(up::<11, 22, 44>(p, inner), down::<11, 22, 44>(p, inner)),
        );
        let lo = _mm_cvtsi128_si64(v) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        (u128::from(hi) << 36) | u128::from(lo)
    }
}

/// The discs of `o` flipped when the owner of `p` plays on square `sq`
/// (0..100). Zero when the move is not legal; `sq` is assumed empty.
///
/// Calls the function of square `sq`, whose rays are constants (see the
/// module documentation); checked against [`flips_portable`].
///
/// # Panics
/// When `sq >= 100`.
#[inline]
#[must_use]
pub fn flips(p: u128, o: u128, sq: usize) -> u128 {
    FLIPS[sq](p, o)
}

/// The flips of one square, for [`FLIPS`].
type FlipsAt = fn(u128, u128) -> u128;

/// Builds the table of the 100 functions [`flips_at`].
macro_rules! flips_table {
    ($($sq:literal)*) => {
        [$(flips_at::<$sq> as FlipsAt),*]
    };
}

/// `FLIPS[sq]` computes the flips of a move on `sq`.
static FLIPS: [FlipsAt; 100] = flips_table!(
    0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19
    20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
    40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
    60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79
    80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99
);

/// [`flips`] for the square `SQ`, its 8 rays being constants.
fn flips_at<const SQ: usize>(p: u128, o: u128) -> u128 {
    up_flips(p, o, const { RAYS_C[0][SQ] })
        | up_flips(p, o, const { RAYS_C[1][SQ] })
        | up_flips(p, o, const { RAYS_C[2][SQ] })
        | up_flips(p, o, const { RAYS_C[3][SQ] })
        | down_flips(p, o, const { RAYS_C[4][SQ] })
        | down_flips(p, o, const { RAYS_C[5][SQ] })
        | down_flips(p, o, const { RAYS_C[6][SQ] })
        | down_flips(p, o, const { RAYS_C[7][SQ] })
}

/// The low and high 64-bit halves of `x`.
#[inline(always)]
const fn halves(x: u128) -> (u64, u64) {
    (x as u64, (x >> 64) as u64)
}

/// Flips along `ray` (a constant once inlined) going towards higher bits:
/// they end at its lowest square that is not a disc of `o`, and count when
/// that square holds a disc of `p`.
#[inline(always)]
fn up_flips(p: u128, o: u128, ray: u128) -> u128 {
    /// The same within one half.
    #[inline(always)]
    fn half(p: u64, o: u64, ray: u64) -> u64 {
        let stop = ray & !o;
        let first = stop & stop.wrapping_neg();
        let between = ray & first.wrapping_sub(1);
        between & 0u64.wrapping_sub(u64::from(first & p != 0))
    }
    if ray.count_ones() < 2 {
        // Nothing to flip between `sq` and a disc one step away.
        return 0;
    }
    let (p_lo, p_hi) = halves(p);
    let (o_lo, o_hi) = halves(o);
    match halves(ray) {
        (lo, 0) => u128::from(half(p_lo, o_lo, lo)),
        (0, hi) => u128::from(half(p_hi, o_hi, hi)) << 64,
        _ => {
            let stop = ray & !o;
            let first = stop & stop.wrapping_neg();
            let between = ray & first.wrapping_sub(1);
            between & 0u128.wrapping_sub(u128::from(first & p != 0))
        }
    }
}

/// Flips along `ray` (a constant once inlined) going towards lower bits:
/// they end at its highest square that is not a disc of `o`.
#[inline(always)]
fn down_flips(p: u128, o: u128, ray: u128) -> u128 {
    /// The same within one half: the flips, and all ones when the ray is
    /// outflanked in this half (zero otherwise).
    #[inline(always)]
    fn half(p: u64, o: u64, ray: u64) -> (u64, u64) {
        let stop = ray & !o;
        // `63 - lz` is the highest square of `stop`, or bit 0 when `stop`
        // is empty; bit 0 is then either off the ray or a disc of `o`, so
        // `p` does not hold it on the ray and nothing flips.
        let lz = (stop | 1).leading_zeros();
        let between = ray & !(u64::MAX >> lz);
        let outflanked = (((p & ray) << lz) >> 63).wrapping_neg();
        (between & outflanked, outflanked)
    }
    if ray.count_ones() < 2 {
        return 0;
    }
    let (p_lo, p_hi) = halves(p);
    let (o_lo, o_hi) = halves(o);
    match halves(ray) {
        (lo, 0) => u128::from(half(p_lo, o_lo, lo).0),
        (0, hi) => u128::from(half(p_hi, o_hi, hi).0) << 64,
        (lo, hi) => {
            if hi & !o_hi != 0 {
                // The ray ends in the high half.
                u128::from(half(p_hi, o_hi, hi).0) << 64
            } else {
                // The high part is all discs of `o`: they flip when the
                // low part is outflanked.
                let (flipped, outflanked) = half(p_lo, o_lo, lo);
                (u128::from(hi & outflanked) << 64) | u128::from(flipped)
            }
        }
    }
}

/// [`flips`] with one generic walk of the 8 rays, on every target.
///
/// # Panics
/// When `sq >= 100`.
#[inline]
#[must_use]
pub fn flips_portable(p: u128, o: u128, sq: usize) -> u128 {
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

    /// Xorshift positions: random discs of all densities, and positions of
    /// random games (long runs of discs, full lines).
    fn positions() -> Vec<(u128, u128)> {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = move || crate::xorshift(&mut x);
        let mut wide = || (u128::from(next()) << 64 | u128::from(next())) & FULL;
        let mut out = Vec::new();
        for i in 0..25_000 {
            let a = wide();
            let b = wide();
            let c = wide();
            let d = wide();
            let (p, o) = match i % 5 {
                0 => (a & b, !(a & b) & c),
                1 => (a & b & c, !(a & b & c) & (a | b)),
                2 => (a, !a & FULL),
                3 => (a & !b, b & !a),
                // Few discs of `p` and few empty squares: long runs of `o`.
                _ => (a & b & c, !(a & b & c) & (a | b | d) & FULL),
            };
            out.push((p, o));
        }
        for g in 0..300u32 {
            let (mut p, mut o) = START;
            loop {
                out.push((p, o));
                let moves = legal_moves_portable(p, o);
                if moves == 0 {
                    if legal_moves_portable(o, p) == 0 {
                        break;
                    }
                    (p, o) = (o, p);
                    continue;
                }
                let pick = (wide().count_ones() + g) % moves.count_ones();
                let mut m = moves;
                for _ in 0..pick {
                    m &= m - 1;
                }
                let sq = m.trailing_zeros() as usize;
                let f = flips_portable(p, o, sq);
                (p, o) = (o ^ f, p | f | (1 << sq));
            }
        }
        out
    }

    #[test]
    fn fast_moves_and_flips_equal_portable_ones() {
        for (p, o) in positions() {
            assert_eq!(legal_moves(p, o), legal_moves_portable(p, o), "{p:x} {o:x}");
            let empty = FULL & !(p | o);
            for sq in 0..100 {
                if empty >> sq & 1 == 1 {
                    assert_eq!(
                        flips(p, o, sq),
                        flips_portable(p, o, sq),
                        "{p:x} {o:x} {sq}"
                    );
                }
            }
        }
    }
}
