//! Summary statistics of the times of a run.

/// The median and 90th percentile (nearest rank) of `values`, `None` when
/// empty.
///
/// ```
/// let (m, p90) = wthor_db::verify::median_p90(&mut [5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
/// assert_eq!((m, p90), (3.0, 5.0));
/// ```
pub fn median_p90(values: &mut [f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let rank =
        |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    Some((rank(0.5), rank(0.9)))
}
