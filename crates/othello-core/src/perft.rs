//! Perft: the number of leaves of the game tree to a given depth.
//!
//! Convention (that of the published 8x8 counts): a forced pass uses one ply;
//! a position where neither side can move, reached before the requested
//! depth, counts as one leaf. The last ply is counted in bulk: the number of
//! leaves below a position at depth 1 is its number of legal moves, or 1 when
//! it has none (a pass, or the end of the game).
//!
//! ```
//! use othello_core::{Board8, Board10, Board, perft::perft};
//!
//! assert_eq!(perft(&Board8::start(), 6), 8200);
//! assert_eq!(perft(&Board10::start(), 3), 56);
//! ```

use rayon::prelude::*;

use crate::{Bitboard, Board};

/// The perft count of `board` to `depth` plies, on the current thread.
#[must_use]
pub fn perft<B: Board>(board: &B, depth: u32) -> u64 {
    count(*board, depth, false)
}

/// Leaves below `b`, `passed` when the move that led here was a pass.
#[inline]
fn count<B: Board>(b: B, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = b.legal_moves();
    if depth == 1 {
        return u64::from(moves.count().max(1));
    }
    if moves.is_empty() {
        if passed {
            return 1;
        }
        return count(b.pass(), depth - 1, true);
    }
    let mut n = 0;
    if depth == 2 {
        for sq in moves.squares() {
            let next = b.play_unchecked(sq);
            n += u64::from(next.legal_moves().count().max(1));
        }
        return n;
    }
    for sq in moves.squares() {
        n += count(b.play_unchecked(sq), depth - 1, false);
    }
    n
}

/// The perft count of `board` to `depth` plies, with the work split over the
/// current rayon thread pool (run it inside
/// [`ThreadPool::install`](rayon::ThreadPool::install) to choose the number
/// of threads). Equal to [`perft`].
#[must_use]
pub fn perft_parallel<B: Board>(board: &B, depth: u32) -> u64 {
    // Expand the top plies sequentially until there is enough work to share,
    // then count the subtrees in parallel.
    let mut frontier = vec![(*board, depth, false)];
    let mut leaves = 0u64;
    let mut split = 0;
    while split < 3 && frontier.len() < 256 {
        let mut next = Vec::with_capacity(frontier.len() * 10);
        for (b, d, passed) in frontier {
            if d <= 4 {
                leaves += count(b, d, passed);
                continue;
            }
            let moves = b.legal_moves();
            if moves.is_empty() {
                if passed {
                    leaves += 1;
                } else {
                    next.push((b.pass(), d - 1, true));
                }
                continue;
            }
            for sq in moves.squares() {
                next.push((b.play_unchecked(sq), d - 1, false));
            }
        }
        frontier = next;
        split += 1;
    }
    leaves
        + frontier
            .into_par_iter()
            .map(|(b, d, passed)| count(b, d, passed))
            .sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Board8, Board10};

    #[test]
    fn parallel_equals_sequential() {
        for d in 0..9 {
            assert_eq!(
                perft_parallel(&Board8::start(), d),
                perft(&Board8::start(), d)
            );
        }
        for d in 0..7 {
            assert_eq!(
                perft_parallel(&Board10::start(), d),
                perft(&Board10::start(), d)
            );
        }
    }
}
