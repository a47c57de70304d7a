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

use crate::bitboard::DIRS;

/// Every square but those of columns a and h.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;
/// Every square but those of rows 1 and 8.
const INNER_ROWS: u64 = 0x00ff_ffff_ffff_ff00;

/// The squares reachable from `sq` by steps of `(dc, dr)`, `sq` excluded.
const fn ray(sq: usize, dc: i32, dr: i32) -> u64 {
    // Bits 0..64 only: lossless.
    crate::bitboard::ray(sq, dc, dr, 8) as u64
}

/// Rays from every square in the 8 directions; the first four go towards
/// higher bit indices, the last four towards lower ones.
static RAYS: [[u64; 64]; 8] = {
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
///
/// Portable shifts by default; on x86-64 an SSE2 version (always there) or,
/// when the build enables it (`-C target-feature=+avx2`), an AVX2 one. All
/// are checked against [`legal_moves_portable`].
#[inline]
#[must_use]
pub fn legal_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the build enables AVX2 (the cfg above), so every CPU it
        // runs on has it.
        unsafe { simd::legal_moves_avx2(p, o) }
    }
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "sse2",
        not(target_feature = "avx2")
    ))]
    {
        // SAFETY: SSE2 is part of x86-64 and enabled by the cfg above.
        unsafe { simd::legal_moves_sse2(p, o) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        legal_moves_portable(p, o)
    }
}

/// [`legal_moves`] with plain integer shifts, on every target.
#[inline]
#[must_use]
pub fn legal_moves_portable(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let moves = axis_moves(p, inner, 1)
        | axis_moves(p, o & INNER_ROWS, 8)
        | axis_moves(p, inner & INNER_ROWS, 7)
        | axis_moves(p, inner & INNER_ROWS, 9);
    moves & !(p | o)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) use simd::legal_moves_avx2;

/// Vector versions of [`legal_moves`].
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod simd {
    use core::arch::x86_64::*;

    use super::{INNER_COLUMNS, axis_moves};

    /// Moves towards higher bits by steps of `D` (`D2 = 2 * D`) through
    /// runs of `m`, in both 64-bit lanes.
    #[inline]
    #[target_feature(enable = "sse2")]
    #[allow(dead_code)]
    fn up<const D: i32, const D2: i32>(p: __m128i, m: __m128i) -> __m128i {
        let mut f = _mm_and_si128(m, _mm_slli_epi64::<D>(p));
        f = _mm_or_si128(f, _mm_and_si128(m, _mm_slli_epi64::<D>(f)));
        let pre = _mm_and_si128(m, _mm_slli_epi64::<D>(m));
        f = _mm_or_si128(f, _mm_and_si128(pre, _mm_slli_epi64::<D2>(f)));
        f = _mm_or_si128(f, _mm_and_si128(pre, _mm_slli_epi64::<D2>(f)));
        _mm_slli_epi64::<D>(f)
    }

    /// SSE2: lane 0 holds the board, lane 1 the board upside down (rows
    /// reversed by a byte swap), where a step towards higher bits goes
    /// down the original board. Three vector walks (steps of 8, 7 and 9)
    /// cover six directions; the row is walked with integers.
    #[inline]
    #[must_use]
    #[target_feature(enable = "sse2")]
    #[allow(dead_code)]
    pub(super) fn legal_moves_sse2(p: u64, o: u64) -> u64 {
        let pp = _mm_set_epi64x(p.swap_bytes() as i64, p as i64);
        let oo = _mm_set_epi64x(o.swap_bytes() as i64, o as i64);
        let inner = _mm_and_si128(oo, _mm_set1_epi64x(INNER_COLUMNS as i64));
        let v = _mm_or_si128(
            _mm_or_si128(up::<8, 16>(pp, oo), up::<7, 14>(pp, inner)),
            up::<9, 18>(pp, inner),
        );
        let lo = _mm_cvtsi128_si64(v) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(v, v)) as u64;
        let row = axis_moves(p, o & INNER_COLUMNS, 1);
        (lo | hi.swap_bytes() | row) & !(p | o)
    }

    /// For every square, the rays of steps 7, 8 and 9 (towards higher bits)
    /// from it, each paired with the same ray from the square upside down
    /// (`sq ^ 56`): on the board upside down they go down the real one.
    static RAY_PAIRS: [[[u64; 2]; 3]; 64] = {
        let mut t = [[[0u64; 2]; 3]; 64];
        let mut sq = 0;
        while sq < 64 {
            let steps = [(-1, 1), (0, 1), (1, 1)];
            let mut k = 0;
            while k < 3 {
                t[sq][k] = [
                    super::ray(sq, steps[k].0, steps[k].1),
                    super::ray(sq ^ 56, steps[k].0, steps[k].1),
                ];
                k += 1;
            }
            sq += 1;
        }
        t
    };

    /// SSE2 flips: lane 0 the board, lane 1 the board upside down; three
    /// pairs of rays walked with the lowest-bit trick, the row with integers.
    #[inline]
    #[must_use]
    #[target_feature(enable = "sse2")]
    pub(super) fn flips_sse2(p: u64, o: u64, sq: usize) -> u64 {
        let pp = _mm_set_epi64x(p.swap_bytes() as i64, p as i64);
        let oo = _mm_set_epi64x(o.swap_bytes() as i64, o as i64);
        let zero = _mm_setzero_si128();
        let one = _mm_set1_epi64x(1);
        let mut acc = zero;
        for pair in &RAY_PAIRS[sq] {
            let ray = _mm_set_epi64x(pair[1] as i64, pair[0] as i64);
            let stop = _mm_andnot_si128(oo, ray);
            let first = _mm_and_si128(stop, _mm_sub_epi64(zero, stop));
            // `below` is the bits below the outflanking disc, or all ones
            // (top bit set) when there is none: then keep nothing.
            let below = _mm_sub_epi64(_mm_and_si128(first, pp), one);
            let none = _mm_shuffle_epi32::<0xF5>(_mm_srai_epi32::<31>(below));
            acc = _mm_or_si128(acc, _mm_and_si128(_mm_andnot_si128(none, below), ray));
        }
        let lo = _mm_cvtsi128_si64(acc) as u64;
        let hi = _mm_cvtsi128_si64(_mm_unpackhi_epi64(acc, acc)) as u64;
        lo | hi.swap_bytes() | super::row_flips(p, o, sq)
    }

    /// AVX2: the four axes in the four 64-bit lanes, both senses.
    #[inline]
    #[must_use]
    #[target_feature(enable = "avx2")]
    pub(crate) fn legal_moves_avx2(p: u64, o: u64) -> u64 {
        let shift = _mm256_set_epi64x(9, 7, 8, 1);
        let shift2 = _mm256_set_epi64x(18, 14, 16, 2);
        let inner = (o & INNER_COLUMNS) as i64;
        let m = _mm256_set_epi64x(inner, inner, o as i64, inner);
        let pp = _mm256_set1_epi64x(p as i64);
        let mut fu = _mm256_and_si256(m, _mm256_sllv_epi64(pp, shift));
        let mut fd = _mm256_and_si256(m, _mm256_srlv_epi64(pp, shift));
        fu = _mm256_or_si256(fu, _mm256_and_si256(m, _mm256_sllv_epi64(fu, shift)));
        fd = _mm256_or_si256(fd, _mm256_and_si256(m, _mm256_srlv_epi64(fd, shift)));
        let pu = _mm256_and_si256(m, _mm256_sllv_epi64(m, shift));
        let pd = _mm256_srlv_epi64(pu, shift);
        fu = _mm256_or_si256(fu, _mm256_and_si256(pu, _mm256_sllv_epi64(fu, shift2)));
        fd = _mm256_or_si256(fd, _mm256_and_si256(pd, _mm256_srlv_epi64(fd, shift2)));
        fu = _mm256_or_si256(fu, _mm256_and_si256(pu, _mm256_sllv_epi64(fu, shift2)));
        fd = _mm256_or_si256(fd, _mm256_and_si256(pd, _mm256_srlv_epi64(fd, shift2)));
        let v = _mm256_or_si256(_mm256_sllv_epi64(fu, shift), _mm256_srlv_epi64(fd, shift));
        let h = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_or_si128(h, _mm_unpackhi_epi64(h, h));
        (_mm_cvtsi128_si64(x) as u64) & !(p | o)
    }
}

/// The discs of `o` flipped when the owner of `p` plays on square `sq`
/// (0..64). Zero when the move is not legal; `sq` is assumed empty.
///
/// Along each ray from `sq` the flips end at the nearest square that is not
/// an opponent disc (the lowest bit of the rest of the ray towards higher
/// bits, the highest towards lower bits) and count when it holds a disc of
/// `p`. On x86-64 (SSE2) six rays go by pairs in vector lanes, the lower
/// ones on the board upside down; checked against [`flips_portable`].
///
/// # Panics
/// When `sq >= 64`.
#[inline]
#[must_use]
pub fn flips(p: u64, o: u64, sq: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: SSE2 is part of x86-64 and enabled by the cfg above.
        unsafe { simd::flips_sse2(p, o, sq) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        flips_portable(p, o, sq)
    }
}

/// The flips along the row of `sq` (both senses).
#[inline(always)]
#[allow(dead_code)]
fn row_flips(p: u64, o: u64, sq: usize) -> u64 {
    ray_flips_up(RAYS[0][sq], p, o) | ray_flips_down(RAYS[4][sq], p, o)
}

/// The discs of `o` flipped along `ray` by the owner of `p`, for a ray
/// going from the move towards higher bits (nearest square lowest).
#[inline(always)]
pub(crate) fn ray_flips_up(ray: u64, p: u64, o: u64) -> u64 {
    let stop = ray & !o;
    let first = stop & stop.wrapping_neg();
    ray & first.wrapping_sub(1) & 0u64.wrapping_sub(u64::from(first & p != 0))
}

/// [`ray_flips_up`] for a ray going towards lower bits (nearest square
/// highest), without a branch: when no square of the ray stops the run,
/// `first` is bit 0, which the ray holds only as an opponent disc or not
/// at all.
#[inline(always)]
pub(crate) fn ray_flips_down(ray: u64, p: u64, o: u64) -> u64 {
    let stop = ray & !o;
    let first = (1u64 << 63) >> (stop | 1).leading_zeros();
    let between = ray & !(first.wrapping_shl(1).wrapping_sub(1));
    between & 0u64.wrapping_sub(u64::from(first & p & ray != 0))
}

/// [`flips`] with plain integer operations, on every target.
#[inline]
#[must_use]
pub fn flips_portable(p: u64, o: u64, sq: usize) -> u64 {
    let mut flipped = 0u64;
    for d in 0..4 {
        flipped |= ray_flips_up(RAYS[d][sq], p, o) | ray_flips_down(RAYS[d + 4][sq], p, o);
    }
    flipped
}

/// The final score of a finished game for the owner of `p` against the
/// disjoint `o`, WTHOR convention (the empty squares go to the winner):
/// the one rule the evaluation's search and the solver both score with.
///
/// ```
/// use othello_core::bitboard8::game_over_score;
/// // 40 discs against 20, 4 empty: +24.
/// assert_eq!(game_over_score((1 << 40) - 1, ((1 << 20) - 1) << 40), 24);
/// ```
#[inline]
#[must_use]
pub fn game_over_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    if pc > oc {
        64 - 2 * oc
    } else if pc < oc {
        2 * pc - 64
    } else {
        0
    }
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
    fn vector_moves_and_flips_equal_portable_ones() {
        let mut x = 0x1234_5678_9abc_def1u64;
        let mut next = || crate::xorshift(&mut x);
        for _ in 0..20_000 {
            let a = next() & next();
            let b = next() & !a;
            assert_eq!(legal_moves(a, b), legal_moves_portable(a, b), "{a:x} {b:x}");
            for sq in 0..64 {
                if (a | b) >> sq & 1 == 0 {
                    assert_eq!(
                        flips(a, b, sq),
                        flips_portable(a, b, sq),
                        "{a:x} {b:x} {sq}"
                    );
                }
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            {
                // SAFETY: the cfg above guarantees SSE2.
                let sse2 = unsafe { simd::legal_moves_sse2(a, b) };
                assert_eq!(sse2, legal_moves_portable(a, b));
            }
        }
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
