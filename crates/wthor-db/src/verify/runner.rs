//! Jobs on worker threads, each owning a solver.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use othello_core::solver::{Solver, SolverOptions};

/// How to run jobs in parallel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workers {
    /// Worker threads, each with its own solver (at least 1).
    pub workers: usize,
    /// Search threads of each solver (at least 1).
    pub solver_threads: usize,
    /// Transposition-table size of each solver (`2^tt_bits` entries).
    pub tt_bits: u32,
}

/// Runs `work` on every job, `workers.workers` at a time, each worker
/// owning one [`Solver`] (reused from job to job), and hands each result to
/// `done` (called from the worker threads, in completion order). Stops
/// taking new jobs once `done` returns an error, and returns the first one.
///
/// # Errors
/// The first error returned by `done`.
pub fn run_parallel<J, R, E>(
    jobs: &[J],
    workers: Workers,
    work: impl Fn(&J, &mut Solver) -> R + Sync,
    done: impl Fn(&J, R) -> Result<(), E> + Sync,
) -> Result<(), E>
where
    J: Sync,
    R: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<E>> = Mutex::new(None);
    let worker = || {
        let mut solver = Solver::new(SolverOptions {
            threads: workers.solver_threads.max(1),
            tt_bits: workers.tt_bits,
        });
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            let r = work(job, &mut solver);
            if let Err(e) = done(job, r) {
                next.store(jobs.len(), Ordering::Relaxed);
                let mut f = failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                f.get_or_insert(e);
                break;
            }
        }
    };
    let n = workers.workers.max(1).min(jobs.len().max(1));
    if n == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..n {
                s.spawn(worker);
            }
        });
    }
    match failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
