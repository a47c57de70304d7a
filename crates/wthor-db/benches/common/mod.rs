//! What the benchmarks of `wthor-db` share.

use std::hint::black_box;
use std::time::Instant;

/// The best wall-clock time of 7 runs of `f` (3 with `WTHOR_BENCH_QUICK`,
/// which `cargo xtask bench --quick` sets), in milliseconds, and the result
/// of the last run.
pub(crate) fn best<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let runs = if std::env::var_os("WTHOR_BENCH_QUICK").is_some() {
        3
    } else {
        7
    };
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let r = black_box(f());
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        out = Some(r);
    }
    (best, out.expect("at least one run"))
}
