//! Stable discs: discs that no sequence of moves can flip.
//!
//! The count is a lower bound (some stable discs are missed), which is all
//! the search needs: when the opponent owns `s` stable discs, the side to
//! move ends with at most `64 - 2 s`, and a null-window search below that
//! cuts off at once.

use std::sync::LazyLock;

/// `EDGE[p_line * 256 + o_line]`: the discs of `p_line` that are stable on an
/// 8-square line taken alone (an edge disc can only be flipped along its edge).
///
/// The discs of `p` that every move of either side on an empty square
/// leaves to `p`, and every move after it: the lines are filled in order
/// of their empty squares, fewest first, so that the line after each move
/// (one empty square fewer) is in the table already. 6,561 lines, 16 moves
/// at most each: microseconds, where the search of every sequence of moves
/// from each line (`edge_stable`, the tests' reference) took 40 ms, paid
/// by each process's first solve.
static EDGE: LazyLock<Box<[u8]>> = LazyLock::new(|| {
    let mut table = vec![0u8; 1 << 16].into_boxed_slice();
    for empties in 0..=8 {
        for filled in (0..256u32).filter(|f| 8 - f.count_ones() == empties) {
            // Every split of the filled squares between the two sides.
            let mut p = filled;
            loop {
                let o = filled & !p;
                let mut stable = p;
                let empty = !filled & 0xff;
                for x in (0..8).filter(|x| empty & (1 << x) != 0) {
                    if stable == 0 {
                        break;
                    }
                    let (np, no) = line_play(p, o, x);
                    stable &= u32::from(table[(np * 256 + no) as usize]);
                    let (no, np) = line_play(o, p, x);
                    stable &= u32::from(table[(np * 256 + no) as usize]);
                }
                table[(p * 256 + o) as usize] = stable as u8;
                if p == 0 {
                    break;
                }
                p = (p - 1) & filled;
            }
        }
    }
    table
});

/// The line after the side owning `p` plays on the empty square `x` of an
/// 8-square line (flipping along the line only; the move may be legal
/// through another direction and flip nothing here).
fn line_play(p: u32, o: u32, x: u32) -> (u32, u32) {
    let mut p = p | (1 << x);
    let mut o = o;
    // Towards lower bits.
    let mut y = x as i32 - 1;
    let mut run = 0;
    while y >= 0 && o & (1 << y) != 0 {
        run |= 1 << y;
        y -= 1;
    }
    if y >= 0 && p & (1 << y) != 0 {
        p |= run;
        o &= !run;
    }
    // Towards higher bits.
    let mut y = x + 1;
    let mut run = 0;
    while y < 8 && o & (1 << y) != 0 {
        run |= 1 << y;
        y += 1;
    }
    if y < 8 && p & (1 << y) != 0 {
        p |= run;
        o &= !run;
    }
    (p, o)
}

/// The discs of `stable` still owned by `p` after every possible sequence of
/// moves of both sides on the line, by searching every sequence: the
/// reference `EDGE` is checked against.
#[cfg(test)]
fn edge_stable(p: u32, o: u32, stable: u32) -> u8 {
    let mut stable = stable & p;
    let empty = !(p | o) & 0xff;
    if stable == 0 || empty == 0 {
        return stable as u8;
    }
    for x in 0..8 {
        if empty & (1 << x) != 0 {
            let (np, no) = line_play(p, o, x);
            stable = u32::from(edge_stable(np, no, stable));
            if stable == 0 {
                return 0;
            }
            let (no, np) = line_play(o, p, x);
            stable = u32::from(edge_stable(np, no, stable));
            if stable == 0 {
                return 0;
            }
        }
    }
    stable as u8
}

/// Column a (bits 0, 8, …, 56) packed into a byte, row 1 in bit 0.
#[inline]
fn pack_a(b: u64) -> usize {
    (((b & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as usize
}

/// The byte's bits spread on column a.
static UNPACK_A: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < 256 {
        let mut r = 0;
        while r < 8 {
            if i & (1 << r) != 0 {
                t[i] |= 1 << (8 * r);
            }
            r += 1;
        }
        i += 1;
    }
    t
};

/// The stable discs of `p` on the four edges.
#[inline]
fn stable_edges(p: u64, o: u64) -> u64 {
    let edge = &**EDGE;
    let row1 = u64::from(edge[((p & 0xff) << 8 | (o & 0xff)) as usize]);
    let row8 = u64::from(edge[((p >> 56) << 8 | (o >> 56)) as usize]) << 56;
    let col_a = UNPACK_A[edge[pack_a(p) << 8 | pack_a(o)] as usize];
    let col_h = UNPACK_A[edge[pack_a(p >> 7) << 8 | pack_a(o >> 7)] as usize] << 7;
    row1 | row8 | col_a | col_h
}

/// The squares of `disc` from which every square in the direction of
/// `shift` (bit index up when positive) is in `disc` up to the edge;
/// `edge[k]` holds the squares whose `2^k`-th square that way is off the
/// board. (Each step doubles the run checked: 1, 2, 4, then all 8
/// squares.)
#[inline]
fn full_towards(disc: u64, shift: i32, edge: [u64; 3]) -> u64 {
    let step = |x: u64, k: i32| {
        if shift > 0 {
            x >> (shift << k)
        } else {
            x << (-shift << k)
        }
    };
    let mut f = disc & (step(disc, 0) | edge[0]);
    f &= step(f, 1) | edge[1];
    f & (step(f, 2) | edge[2])
}

/// Squares whose line is full, per direction: horizontal, vertical,
/// diagonal (a1-h8), anti-diagonal (h1-a8).
#[inline]
fn full_lines(disc: u64) -> [u64; 4] {
    let mut h = disc & (disc >> 1) & 0x7f7f_7f7f_7f7f_7f7f;
    h &= h >> 2;
    h &= h >> 4;
    let h = (h & 0x0101_0101_0101_0101) * 0xff;
    let mut v = disc & (disc >> 8);
    v &= v >> 16;
    v &= v >> 32;
    let v = (v & 0xff) * 0x0101_0101_0101_0101;
    let d9 = full_towards(
        disc,
        9,
        [
            0xff80_8080_8080_8080,
            0xffff_c0c0_c0c0_c0c0,
            0xffff_ffff_f0f0_f0f0,
        ],
    ) & full_towards(
        disc,
        -9,
        [
            0x0101_0101_0101_01ff,
            0x0303_0303_0303_ffff,
            0x0f0f_0f0f_ffff_ffff,
        ],
    );
    let d7 = full_towards(
        disc,
        7,
        [
            0xff01_0101_0101_0101,
            0xffff_0303_0303_0303,
            0xffff_ffff_0f0f_0f0f,
        ],
    ) & full_towards(
        disc,
        -7,
        [
            0x8080_8080_8080_80ff,
            0xc0c0_c0c0_c0c0_ffff,
            0xf0f0_f0f0_ffff_ffff,
        ],
    );
    [h, v, d9, d7]
}

/// A lower bound of the number of stable discs of `p` (opponent `o`),
/// found until it reaches `enough` (it may stop there).
#[inline]
pub(crate) fn stable_count(p: u64, o: u64, enough: u32) -> u32 {
    stable_discs_until(p, o, enough).count_ones()
}

/// A subset of the stable discs of `p` (opponent `o`).
#[cfg(test)]
fn stable_discs(p: u64, o: u64) -> u64 {
    stable_discs_until(p, o, 65)
}

/// A subset of the stable discs of `p` (opponent `o`), grown until it
/// holds `enough` of them. (Inlined: compiled with the search's
/// instruction set.)
#[inline(always)]
fn stable_discs_until(p: u64, o: u64, enough: u32) -> u64 {
    const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
    let disc = p | o;
    let central = p & INNER;
    let full = full_lines(disc);
    let mut stable = stable_edges(p, o) | (full[0] & full[1] & full[2] & full[3] & central);
    if stable == 0 || stable.count_ones() >= enough {
        return stable;
    }
    loop {
        let old = stable;
        let h = (stable >> 1) | (stable << 1) | full[0];
        let v = (stable >> 8) | (stable << 8) | full[1];
        let d9 = (stable >> 9) | (stable << 9) | full[2];
        let d7 = (stable >> 7) | (stable << 7) | full[3];
        stable |= h & v & d9 & d7 & central;
        if stable == old || stable.count_ones() >= enough {
            return stable;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard8::{flips, legal_moves};

    #[test]
    fn the_edge_table_is_the_search_of_every_sequence_of_moves() {
        let mut lines = 0;
        for p in 0..256u32 {
            for o in (0..256u32).filter(|o| p & o == 0) {
                assert_eq!(
                    EDGE[(p * 256 + o) as usize],
                    edge_stable(p, o, p),
                    "{p:08b} {o:08b}"
                );
                lines += 1;
            }
        }
        assert_eq!(lines, 6561);
        // A full line is stable; an empty corner between the sides is not.
        assert_eq!(EDGE[0xff * 256], 0xff);
        assert_eq!(EDGE[(0b0000_0110 * 256 + 0b0011_1000) as usize], 0);
    }

    /// Squares whose line is full, one line at a time.
    fn full_lines_naive(disc: u64) -> [u64; 4] {
        let mut full = [0u64; 4];
        for sq in 0..64i32 {
            let (r, c) = (sq / 8, sq % 8);
            for (k, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
                let all = (-7..8).all(|t| {
                    let (rr, cc) = (r + t * dr, c + t * dc);
                    !(0..8).contains(&rr)
                        || !(0..8).contains(&cc)
                        || disc & (1 << (8 * rr + cc)) != 0
                });
                if all {
                    full[k] |= 1 << sq;
                }
            }
        }
        full
    }

    #[test]
    fn full_lines_equal_a_line_by_line_check() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for i in 0..4000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Mostly full boards, with 0 to 15 holes.
            let mut disc = !0u64;
            let mut x = seed;
            for _ in 0..i % 16 {
                disc &= !(1 << (x % 64));
                x = x.rotate_left(7).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            }
            assert_eq!(full_lines(disc), full_lines_naive(disc), "{disc:#x}");
        }
    }

    #[test]
    fn packing_column_a_round_trips() {
        for (i, &col) in UNPACK_A.iter().enumerate() {
            assert_eq!(pack_a(col), i);
            assert_eq!(pack_a(col | 0xfefe_fefe_fefe_fefe), i);
        }
    }

    #[test]
    fn full_board_is_all_stable_and_corners_are_stable() {
        let p = 0x0f0f_0f0f_0f0f_0f0f;
        assert_eq!(stable_discs(p, !p), p);
        assert_eq!(stable_discs(1, 2), 1);
        assert_eq!(stable_discs(1 << 9, 1), 0);
    }

    use crate::xorshift as next;

    /// Stable discs must stay with their owner along random continuations.
    #[test]
    fn stable_discs_never_flip_in_random_games() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..300 {
            let (mut p, mut o) = crate::bitboard8::START;
            let mut black_to_move = true;
            let mut tracked: Option<(bool, u64)> = None;
            let mut passes = 0;
            while passes < 2 {
                let moves = legal_moves(p, o);
                if moves == 0 {
                    passes += 1;
                } else {
                    passes = 0;
                    let k = next(&mut seed) % u64::from(moves.count_ones());
                    let mut m = moves;
                    for _ in 0..k {
                        m &= m - 1;
                    }
                    let sq = m.trailing_zeros() as usize;
                    let f = flips(p, o, sq);
                    p |= f | (1 << sq);
                    o &= !f;
                }
                (p, o) = (o, p);
                black_to_move = !black_to_move;
                let (black, white) = if black_to_move { (p, o) } else { (o, p) };
                if let Some((is_black, s)) = tracked {
                    let own = if is_black { black } else { white };
                    assert_eq!(own & s, s, "a stable disc was flipped");
                }
                if tracked.is_none() && next(&mut seed).is_multiple_of(8) {
                    let s = stable_discs(black, white);
                    tracked = Some((true, s));
                } else if let Some((_, s)) = tracked {
                    // Grow the tracked set as the game goes on.
                    let more = stable_discs(black, white);
                    assert_eq!(more & s, s, "stability is not monotone");
                    tracked = Some((true, more));
                }
            }
        }
    }
}
