//! Perft against the published 8x8 counts, and bitboard against mailbox on
//! both sizes.

use othello_core::mailbox::{Mailbox8, Mailbox10};
use othello_core::perft::{perft, perft_parallel};
use othello_core::{Board, Board8, Board10};

/// Published 8x8 counts (Aart Bik; see shared/data/perft.md), depth 1..=12.
const PERFT8: [u64; 12] = [
    4,
    12,
    56,
    244,
    1396,
    8200,
    55092,
    390_216,
    3_005_288,
    24_571_284,
    212_258_800,
    1_939_886_636,
];

/// 10x10 counts from the bitboard, depth 1..=9, confirmed by the mailbox
/// board below (no published counts exist). Deeper, from the bitboard only
/// (`cargo bench -p othello-core --bench perft -- 10:10 10:11`):
/// depth 10 = 25,168,320, depth 11 = 221,261,132.
const PERFT10: [u64; 9] = [4, 12, 56, 244, 1396, 8200, 55180, 392_268, 3_045_812];

#[test]
fn bitboard8_matches_published_counts_to_depth_11() {
    for depth in 1..=10 {
        assert_eq!(
            perft(&Board8::start(), depth),
            PERFT8[depth as usize - 1],
            "depth {depth}"
        );
    }
    assert_eq!(perft_parallel(&Board8::start(), 11), PERFT8[10]);
}

#[test]
fn mailbox8_matches_published_counts_to_depth_8() {
    for depth in 1..=8 {
        assert_eq!(
            perft(&Mailbox8::start(), depth),
            PERFT8[depth as usize - 1],
            "depth {depth}"
        );
    }
}

#[test]
fn bitboard10_and_mailbox10_agree_to_depth_9() {
    for depth in 1..=9u32 {
        let fast = perft(&Board10::start(), depth);
        let slow = perft_parallel(&Mailbox10::start(), depth);
        assert_eq!(fast, slow, "depth {depth}");
        assert_eq!(fast, PERFT10[depth as usize - 1], "depth {depth}");
    }
}
