//! Multi-ProbCut (Buro; as in Logistello and Edax): a null-window node of
//! depth `D` is cut when a search of the shallower depth
//! [`shallow_depth`]`(D)` clears the window by a margin: `t` standard
//! deviations of the error of the shallow value as a predictor of the
//! deep one, with `t` the search's [`Selectivity`](super::Selectivity).
//!
//! The error's mean and standard deviation are a linear model in the
//! depth and the empties, fitted by `cargo xtask probcut` on archive
//! positions of the years before the test set (deep and shallow searches
//! without selectivity, one sample position per game): its coefficients
//! are [`MODEL`], pasted from the task's output.

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

/// The fitted model: the deep value minus the shallow one has mean
/// `mean[0] + mean[1] D + mean[2] n` and standard deviation
/// `sigma[0] + sigma[1] D + sigma[2] n` discs at depth `D` and `n` empties.
pub(crate) struct Model {
    pub(crate) mean: [f64; 3],
    pub(crate) sigma: [f64; 3],
}

/// The calibrated model (`cargo xtask probcut`; see its output for the
/// data it was fitted on).
pub(crate) const MODEL: Model = Model {
    mean: [0.0, 0.0, 0.0],
    sigma: [2.0, 0.15, 0.04],
};

/// The mean and the standard deviation of the error at `depth` and `n`
/// empties, in 1/[`SCALE`] disc (the deviation at least a disc).
#[inline]
#[must_use]
pub(crate) fn error(depth: u32, n: u32) -> (i32, i32) {
    TABLE[depth.min(MAX_TABLE_DEPTH) as usize][n.min(64) as usize]
}

/// Depths past this one use its row.
const MAX_TABLE_DEPTH: u32 = 40;

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
    let (m, s) = (MODEL.mean, MODEL.sigma);
    let scale = SCALE as f64;
    let mut depth = 0;
    while depth <= MAX_TABLE_DEPTH as usize {
        let mut n = 0;
        while n <= 64 {
            let (d, e) = (depth as f64, n as f64);
            let mean = m[0] + m[1] * d + m[2] * e;
            let sigma = s[0] + s[1] * d + s[2] * e;
            let sigma = if sigma < 1.0 { 1.0 } else { sigma };
            t[depth][n] = (round(mean * scale), round(sigma * scale));
            n += 1;
        }
        depth += 1;
    }
    t
};
