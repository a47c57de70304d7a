//! Multi-ProbCut (Buro; as in Logistello and Edax): a null-window node of
//! depth `D` is cut when a search of the shallower depth
//! [`shallow_depth`]`(D)` clears the window by a margin: `t` standard
//! deviations of the error of the shallow value as a predictor of the
//! deep one, with `t` the search's [`Selectivity`](super::Selectivity).
//!
//! The error's mean (by depth) and standard deviation (by depth, a line
//! in the empties) are fitted by `cargo bench -p othello-core --bench
//! midgame -- calibrate` on archive positions of the years 2000–2023,
//! never the test years (deep and shallow searches without selectivity,
//! one position in a sample of games): [`MODEL`], pasted from its output.

use crate::eval::SCALE;

/// Probcut is tried at null-window nodes of at least this depth.
pub(crate) const MIN_DEPTH: u32 = 3;

/// The depth of the shallow search that predicts a search of `depth`
/// plies (Edax's pairs): 1 for 3, 2 for 4 to 7, 4 for 8 to 11, 6 for 12
/// to 15…
#[must_use]
pub(crate) const fn shallow_depth(depth: u32) -> u32 {
    let d = 2 * (depth / 4);
    if d == 0 { depth - 2 } else { d }
}

/// The fitted model, one row per depth `D` from [`MIN_DEPTH`]: `(D,
/// mean, a, b)`: the deep value minus the shallow one has that mean and
/// the standard deviation `a + b n` discs at `n` empties. (The mean is
/// about +2.6 discs when the depths differ by an odd number of plies: the
/// evaluation favours the side that moved last.) Deeper searches use the
/// last row of their parity. Fitted on 1,422 positions (one game in 50 of
/// 2000–2023, 18 to 50 empties), depths 1 to 11: `EVERY=50 MAX_DEPTH=11`.
pub(crate) const MODEL: [(u32, f64, f64, f64); 9] = [
    (3, -0.273, 3.960, -0.0101),
    (4, -0.258, 3.454, -0.0124),
    (5, 2.642, 4.695, -0.0363),
    (6, -0.291, 4.885, -0.0387),
    (7, 2.560, 5.810, -0.0581),
    (8, -0.033, 4.757, -0.0507),
    (9, 2.746, 5.318, -0.0601),
    (10, -0.016, 4.997, -0.0508),
    (11, 2.588, 5.734, -0.0652),
];

/// The mean and the standard deviation of the error at `depth` (at least
/// [`MIN_DEPTH`]) and `n` empties, in 1/[`SCALE`] disc (the deviation at
/// least a disc).
#[inline]
#[must_use]
pub(crate) fn error(depth: u32, n: u32) -> (i32, i32) {
    TABLE[depth.min(MAX_TABLE_DEPTH) as usize][n.min(64) as usize]
}

/// Depths past this one use its row.
const MAX_TABLE_DEPTH: u32 = 60;

/// `x` rounded to the nearest integer.
const fn round(x: f64) -> i32 {
    if x >= 0.0 {
        (x + 0.5) as i32
    } else {
        -((-x + 0.5) as i32)
    }
}

/// [`error`] for every depth and empty count, from [`MODEL`].
static TABLE: [[(i32, i32); 65]; MAX_TABLE_DEPTH as usize + 1] = {
    let mut t = [[(0, SCALE); 65]; MAX_TABLE_DEPTH as usize + 1];
    let scale = SCALE as f64;
    let last = MODEL.len() - 1;
    let mut depth = MIN_DEPTH as usize;
    while depth <= MAX_TABLE_DEPTH as usize {
        // The row of this depth, or the last of its parity.
        let mut row = depth - MIN_DEPTH as usize;
        while row > last {
            row -= 2;
        }
        let (_, mean, a, b) = MODEL[row];
        let mut n = 0;
        while n <= 64 {
            let sigma = a + b * n as f64;
            let sigma = if sigma < 1.0 { 1.0 } else { sigma };
            t[depth][n] = (round(mean * scale), round(sigma * scale));
            n += 1;
        }
        depth += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_has_a_row_per_depth_and_deeper_depths_keep_their_parity() {
        for (i, row) in MODEL.iter().enumerate() {
            assert_eq!(row.0, MIN_DEPTH + i as u32);
        }
        let last = MODEL[MODEL.len() - 1].0;
        for depth in last + 1..=MAX_TABLE_DEPTH {
            let same = if (depth - last).is_multiple_of(2) {
                last
            } else {
                last - 1
            };
            assert_eq!(error(depth, 30), error(same, 30), "{depth}");
        }
        assert_eq!(shallow_depth(3), 1);
        assert_eq!(shallow_depth(7), 2);
        assert_eq!(shallow_depth(12), 6);
    }
}
