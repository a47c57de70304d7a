//! The performance rating of a set of games (issue 39, the explorer's
//! columns): the rating `R` at which the score made against those
//! opponents is the expected one,
//!
//! ```text
//! Σᵢ 1 / (1 + 10^((oᵢ − R) / 400)) = S
//! ```
//!
//! `oᵢ` each opponent's rating less the mover's first-move edge in that
//! game (`+h` as black, `−h` as white, `h` the fitted
//! [`Ratings::black_advantage`](super::Ratings::black_advantage): the
//! model's expected score, [`super::whr`]), `S` the points made (a draw
//! half a point). This is the maximum-likelihood performance (as the
//! Elo model defines it; FIDE's table and Lichess's linear formula
//! approximate it). The left side grows with `R`, so the root is one (found
//! by Newton's method inside a bracket); it is kept within 800 points of
//! the mean opponent,
//! FIDE's cap of a performance's difference, which a score of 0 or of
//! every game reaches (no finite root).

/// FIDE's largest difference between a performance and the mean opponent.
pub const PERFORMANCE_CAP: f64 = 800.0;

/// The performance rating of a score of `points` against `opponents`
/// (each opponent's rating less the mover's first-move edge in that game),
/// within [`PERFORMANCE_CAP`] of their mean; `None` without games.
///
/// ```
/// use wthor_db::ratings::performance;
/// // Half the points against two players of 1600 and 1800: 1700.
/// assert!((performance(&[1600.0, 1800.0], 1.0).unwrap() - 1700.0).abs() < 0.01);
/// // Every game won: the cap, the mean opponent + 800.
/// assert_eq!(performance(&[1500.0], 1.0), Some(2300.0));
/// assert_eq!(performance(&[], 0.0), None);
/// ```
#[must_use]
pub fn performance(opponents: &[f64], points: f64) -> Option<f64> {
    let weighted: Vec<(f64, f64)> = opponents.iter().map(|&o| (o, 1.0)).collect();
    performance_weighted(&weighted, points)
}

/// [`performance`] against opponents given as (rating, games) pairs, the
/// same rating counted once with its games (how the explorer gathers
/// thousands of games: a few thousand distinct ratings).
///
/// Solved by Newton's method kept inside a shrinking bracket (a bisection
/// step when Newton's would leave it), to a millionth of a point.
#[must_use]
pub fn performance_weighted(opponents: &[(f64, f64)], points: f64) -> Option<f64> {
    let games: f64 = opponents.iter().map(|(_, w)| w).sum();
    if opponents.is_empty() || games <= 0.0 {
        return None;
    }
    let mean = opponents.iter().map(|(o, w)| o * w).sum::<f64>() / games;
    let k = std::f64::consts::LN_10 / 400.0;
    // The expected points at `r` less the points made, and its slope.
    let f = |r: f64| -> (f64, f64) {
        opponents.iter().fold((-points, 0.0), |(v, d), (o, w)| {
            let e = 1.0 / (1.0 + (-(r - o) * k).exp());
            (v + w * e, d + w * k * e * (1.0 - e))
        })
    };
    let (mut low, mut high) = (mean - PERFORMANCE_CAP, mean + PERFORMANCE_CAP);
    if f(low).0 >= 0.0 {
        return Some(low);
    }
    if f(high).0 <= 0.0 {
        return Some(high);
    }
    let mut r = mean;
    for _ in 0..100 {
        let (v, d) = f(r);
        if v < 0.0 {
            low = r;
        } else {
            high = r;
        }
        let newton = r - v / d;
        let next = if d > 0.0 && newton > low && newton < high {
            newton
        } else {
            0.5 * (low + high)
        };
        if (next - r).abs() < 1e-6 {
            return Some(next);
        }
        r = next;
    }
    Some(r)
}
