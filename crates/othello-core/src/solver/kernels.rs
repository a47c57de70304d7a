//! The move kernels of the 8x8 search: the discs a move flips (a portable
//! version, AVX2 and AVX-512 ones chosen at build or run time), the flip
//! count of the last empty square, and the instruction sets ([`Kernels`]:
//! [`Portable`], [`X86V3`], [`X86V4`]) that the search is compiled for.

use crate::bitboard::DIRS;
use crate::bitboard8::{legal_moves, ray_flips_down, ray_flips_up};

/// The rays from each square: four towards higher bits (east, north-west,
/// north, north-east in bit order), four towards lower bits; one cache
/// line per square.
static RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let mut x = 0;
    while x < 64 {
        let mut d = 0;
        while d < 8 {
            rays[x][d] = crate::bitboard::ray(x, DIRS[d].0, DIRS[d].1, 8) as u64;
            d += 1;
        }
        x += 1;
    }
    rays
};

/// The squares adjacent to each square.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut x = 0;
    while x < 64 {
        t[x] = neighbours(1 << x);
        x += 1;
    }
    t
};

/// The discs of `o` flipped by the owner of `p` playing on the empty square
/// `x`; zero when the move is illegal. The same as
/// [`bitboard8::flips`](crate::bitboard8::flips), with the square's eight
/// rays in one cache line, no branch, and an early exit when no opponent
/// disc touches `x`.
///
/// Built with AVX2 (`-C target-cpu=native` on a recent x86-64), the four
/// rays of each sense go in the four lanes of one vector.
#[inline]
pub(crate) fn flips(p: u64, o: u64, x: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        // SAFETY: the build enables AVX2 (the cfg above), so every CPU it
        // runs on has it.
        near(o, x, || unsafe { flips_avx2(p, o, x) })
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        near(o, x, || flips_rays(p, o, x))
    }
}

/// The flips `kernel` computes for a move on `x`, or at once none when no
/// disc of the opponent `o` touches `x`.
#[inline(always)]
fn near(o: u64, x: usize, kernel: impl FnOnce() -> u64) -> u64 {
    if NEIGHBOURS[x] & o == 0 { 0 } else { kernel() }
}

/// [`flips`] ray by ray (no early exit).
#[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
#[inline]
fn flips_rays(p: u64, o: u64, x: usize) -> u64 {
    let rays = &RAYS[x];
    let mut f = 0;
    for &ray in &rays[..4] {
        f |= ray_flips_up(ray, p, o);
    }
    for &ray in &rays[4..] {
        f |= ray_flips_down(ray, p, o);
    }
    f
}

/// [`flips`] on AVX2: towards higher bits the first square that is not an
/// opponent disc is the lowest bit of the rest of the ray; towards lower
/// bits it is the highest, found by smearing the stops downwards along the
/// ray (shifts of 1, 2 and 4 steps).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn flips_avx2(p: u64, o: u64, x: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS[x];
    // SAFETY: `rays` holds eight u64, two unaligned 256-bit loads.
    let (up, down) = unsafe {
        let at = rays.as_ptr().cast::<__m256i>();
        (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1)))
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher bits.
    let stop = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
    let between = _mm256_and_si256(up, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
    let no_p = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let f_up = _mm256_andnot_si256(no_p, between);
    // Towards lower bits: directions 4..8 step by 1, 7, 8, 9 squares.
    let step = _mm256_set_epi64x(9, 8, 7, 1);
    let stop = _mm256_andnot_si256(oo, down);
    let mut below = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, step));
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_add_epi64(step, step)),
    );
    below = _mm256_or_si256(
        below,
        _mm256_srlv_epi64(below, _mm256_slli_epi64::<2>(step)),
    );
    let first = _mm256_andnot_si256(_mm256_srlv_epi64(below, step), stop);
    let between = _mm256_andnot_si256(below, down);
    let no_p = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
    let f = _mm256_or_si256(f_up, _mm256_andnot_si256(no_p, between));
    let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    _mm_cvtsi128_si64(_mm_or_si128(h, _mm_unpackhi_epi64(h, h))) as u64
}

/// [`flips`] on AVX-512 (with VL and CD, on 256-bit vectors): as
/// [`flips_avx2`] towards higher bits; towards lower bits the first square
/// that is not an opponent disc is found by counting leading zeros rather
/// than by smearing, and mask registers keep the rays ending on a disc of
/// `p`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
#[inline]
fn flips_avx512(p: u64, o: u64, x: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS[x];
    // SAFETY: `rays` holds eight u64, two unaligned 256-bit loads.
    let (up, down) = unsafe {
        let at = rays.as_ptr().cast::<__m256i>();
        (_mm256_loadu_si256(at), _mm256_loadu_si256(at.add(1)))
    };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    // Towards higher bits.
    let stop = _mm256_andnot_si256(oo, up);
    let first = _mm256_and_si256(stop, _mm256_sub_epi64(_mm256_setzero_si256(), stop));
    let between = _mm256_and_si256(up, _mm256_add_epi64(first, _mm256_set1_epi64x(-1)));
    let f_up = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, pp), between);
    // Towards lower bits: `below`, the first stop and every square under
    // it (none when the ray has no stop: a shift by 64).
    let stop = _mm256_andnot_si256(oo, down);
    let below = _mm256_srlv_epi64(_mm256_set1_epi64x(-1), _mm256_lzcnt_epi64(stop));
    let between = _mm256_andnot_si256(below, down);
    let first = _mm256_andnot_si256(_mm256_srli_epi64::<1>(below), below);
    let f_down = _mm256_maskz_mov_epi64(_mm256_test_epi64_mask(first, pp), between);
    let f = _mm256_or_si256(f_up, f_down);
    let h = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    _mm_cvtsi128_si64(_mm_or_si128(h, _mm_unpackhi_epi64(h, h))) as u64
}

/// `LINE_FLIPS[pos * 256 + line]`: the discs flipped along an 8-square line
/// by a move on `pos` when the mover owns `line` and the opponent every
/// other square.
static LINE_FLIPS: [u8; 8 * 256] = {
    let mut t = [0u8; 8 * 256];
    let mut pos = 0;
    while pos < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            // Towards lower positions.
            let mut k = pos as i32 - 1;
            while k >= 0 && line & (1 << k) == 0 {
                k -= 1;
            }
            if k >= 0 {
                n += pos as i32 - 1 - k;
            }
            let mut k = pos + 1;
            while k < 8 && line & (1 << k) == 0 {
                k += 1;
            }
            if k < 8 {
                n += (k - pos - 1) as i32;
            }
            t[pos * 256 + line] = n as u8;
            line += 1;
        }
        pos += 1;
    }
    t
};

/// The diagonal (a1-h8 direction) and anti-diagonal through each square.
static DIAGONALS: [[u64; 2]; 64] = {
    let mut d = [[0u64; 2]; 64];
    let mut x = 0;
    while x < 64 {
        let mut y = 0;
        while y < 64 {
            let (rx, cx, ry, cy) = ((x / 8) as i32, (x % 8) as i32, y / 8, y % 8);
            if rx - cx == ry - cy {
                d[x][0] |= 1 << y;
            }
            if rx + cx == ry + cy {
                d[x][1] |= 1 << y;
            }
            y += 1;
        }
        x += 1;
    }
    d
};

/// How many discs the owner of `p` flips by playing on `x`, the last empty
/// square (every other square belongs to the opponent): four table
/// look-ups, one per line through `x`, instead of making the move.
#[inline]
pub(super) fn last_flip_count(p: u64, x: usize) -> i32 {
    let (r, c) = (x >> 3, x & 7);
    let row = (p >> (x & 56)) & 0xff;
    let col = ((p >> c) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let [d9, d7] = DIAGONALS[x];
    let diag = (p & d9).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    let anti = (p & d7).wrapping_mul(0x0101_0101_0101_0101) >> 56;
    i32::from(LINE_FLIPS[c * 256 + row as usize])
        + i32::from(LINE_FLIPS[r * 256 + col as usize])
        + i32::from(LINE_FLIPS[c * 256 + diag as usize])
        + i32::from(LINE_FLIPS[c * 256 + anti as usize])
}

/// The squares adjacent to `b`.
#[inline]
pub(crate) const fn neighbours(b: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let w = (b >> 1) & NOT_H;
    let e = (b << 1) & NOT_A;
    let row = b | w | e;
    (row << 8) | (row >> 8) | w | e
}

/// The move kernels of an instruction set.
pub(crate) trait Kernels: Sized + Send + Sync + 'static {
    /// The discs flipped by a move ([`flips`]).
    fn flips(p: u64, o: u64, x: usize) -> u64;
    /// The legal moves ([`legal_moves`]).
    fn legal_moves(p: u64, o: u64) -> u64;
}

/// The code every target can run (with the features the build enables).
pub(crate) struct Portable;

impl Kernels for Portable {
    #[inline(always)]
    fn flips(p: u64, o: u64, x: usize) -> u64 {
        flips(p, o, x)
    }
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        legal_moves(p, o)
    }
}

/// x86-64 processors of level 3 (AVX2, BMI1/2, LZCNT, POPCNT: Intel from
/// 2013, AMD from 2015), chosen at run time: the search runs 11% faster
/// there than the portable build's (FFO #40–#49).
#[cfg(target_arch = "x86_64")]
pub(crate) struct X86V3;

#[cfg(target_arch = "x86_64")]
impl X86V3 {
    /// Whether this processor has the features.
    pub(crate) fn detected() -> bool {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt")
    }
}

// SAFETY (every `unsafe` block calling code of `X86V3`): that code needs
// the features of `X86V3`, and a `Search<'_, X86V3>` is only made on a
// processor that has them (`X86V3::detected`).
#[cfg(target_arch = "x86_64")]
impl Kernels for X86V3 {
    #[inline(always)]
    fn flips(p: u64, o: u64, x: usize) -> u64 {
        // SAFETY: see above.
        near(o, x, || unsafe { flips_avx2(p, o, x) })
    }
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        // SAFETY: see above.
        unsafe { crate::bitboard8::legal_moves_avx2(p, o) }
    }
}

/// x86-64 processors of level 4 (level 3 and AVX-512 F, VL, CD: Intel
/// from Skylake-SP and Ice Lake, AMD from Zen 4), chosen at run time: the
/// flips take fewer instructions, and the search body has 32 vector
/// registers and three-input logic. (Against [`X86V3`], each run in turn:
/// real 24-empty solves 0.97x and 0.99x the time, FFO #40–#49 0.97x to
/// 1.00x.)
#[cfg(target_arch = "x86_64")]
pub(crate) struct X86V4;

#[cfg(target_arch = "x86_64")]
impl X86V4 {
    /// Whether this processor has the features.
    pub(crate) fn detected() -> bool {
        X86V3::detected()
            && is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx512cd")
    }
}

// SAFETY (every `unsafe` block calling code of `X86V4`): as for `X86V3`,
// with `X86V4::detected`.
#[cfg(target_arch = "x86_64")]
impl Kernels for X86V4 {
    #[inline(always)]
    fn flips(p: u64, o: u64, x: usize) -> u64 {
        // SAFETY: see above.
        near(o, x, || unsafe { flips_avx512(p, o, x) })
    }
    #[inline(always)]
    fn legal_moves(p: u64, o: u64) -> u64 {
        X86V3::legal_moves(p, o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::xorshift as next;

    /// 50,000 random moves `(p, o, x)` on an empty square `x`, from
    /// `seed`: boards of every density, either side the sparser.
    fn flip_cases(mut seed: u64) -> impl Iterator<Item = (u64, u64, usize)> {
        (0..50_000).map(move |_| {
            let x = (next(&mut seed) % 64) as usize;
            let a = next(&mut seed) & !(1 << x);
            let b = next(&mut seed) & next(&mut seed) & !(1 << x);
            let (p, o) = if next(&mut seed) & 1 == 0 {
                (a & !b, b)
            } else {
                (b, a & !b)
            };
            (p, o, x)
        })
    }

    #[test]
    fn flips_equal_the_kernel() {
        for (p, o, x) in flip_cases(0x9e37_79b9_7f4a_7c15) {
            assert_eq!(
                flips(p, o, x),
                crate::bitboard8::flips(p, o, x),
                "{p:#x} {o:#x} {x}"
            );
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_flips_equal_the_kernel() {
        if !X86V4::detected() {
            // Nothing to compare on this processor.
            return;
        }
        for (p, o, x) in flip_cases(0x6a09_e667_f3bc_c908) {
            // SAFETY: `X86V4::detected` found the features.
            let f = unsafe { flips_avx512(p, o, x) };
            assert_eq!(f, crate::bitboard8::flips(p, o, x), "{p:#x} {o:#x} {x}");
        }
    }

    #[test]
    fn last_flip_count_equals_the_flips_of_the_move() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let x = (next(&mut seed) % 64) as usize;
            let p = next(&mut seed) & !(1 << x);
            let o = !(p | (1 << x));
            assert_eq!(
                last_flip_count(p, x),
                flips(p, o, x).count_ones() as i32,
                "{p:#x} {x}"
            );
        }
    }
}
