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
//! approximate it). The left side grows with `R`, so the root is one and
//! found by bisection; it is kept within 800 points of the mean opponent,
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
    if opponents.is_empty() {
        return None;
    }
    let n = opponents.len() as f64;
    let mean = opponents.iter().sum::<f64>() / n;
    let (mut low, mut high) = (mean - PERFORMANCE_CAP, mean + PERFORMANCE_CAP);
    let expected = |r: f64| -> f64 {
        opponents
            .iter()
            .map(|o| 1.0 / (1.0 + 10f64.powf((o - r) / 400.0)))
            .sum()
    };
    if points <= expected(low) {
        return Some(low);
    }
    if points >= expected(high) {
        return Some(high);
    }
    // 40 halvings of 1600 points: well under a thousandth of a point.
    for _ in 0..40 {
        let mid = 0.5 * (low + high);
        if expected(mid) < points {
            low = mid;
        } else {
            high = mid;
        }
    }
    Some(0.5 * (low + high))
}
