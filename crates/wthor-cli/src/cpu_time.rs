//! The CPU time of the calling thread: OS probing, kept in the binary so
//! that the libraries stay portable (also used by `benches/solve24.rs`).

/// The CPU time of the calling thread in seconds, from
/// `/proc/thread-self/schedstat` (Linux); `None` elsewhere. On a shared
/// machine the wall clock also counts the time spent waiting for a core;
/// this does not.
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 / 1e9)
}
