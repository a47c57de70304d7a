//! Jobs on worker threads, each owning a solver (or another state).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use othello_core::solver::{Solver, SolverError, SolverOptions};

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

/// The cores available to this process (1 when unknown).
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
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
    let solvers = (0..workers.count(jobs.len()))
        .map(|_| {
            Solver::new(SolverOptions {
                threads: workers.solver_threads.max(1),
                tt_bits: workers.tt_bits,
            })
        })
        .collect();
    run_parallel_on(jobs, solvers, work, done)
}

impl Workers {
    /// `threads` workers (default: the cores available; at least 1), each
    /// with a one-thread solver of 2^`tt_bits` entries: many records
    /// solved side by side.
    #[must_use]
    pub fn new(threads: Option<usize>, tt_bits: u32) -> Workers {
        Workers {
            workers: threads.unwrap_or_else(cores).max(1),
            solver_threads: 1,
            tt_bits,
        }
    }

    /// One worker whose solver has `threads` search threads (default: the
    /// cores available; at least 1): one record at a time.
    #[must_use]
    pub fn one_solver(threads: Option<usize>, tt_bits: u32) -> Workers {
        Workers {
            workers: 1,
            solver_threads: threads.unwrap_or_else(cores).max(1),
            tt_bits,
        }
    }

    /// The workers that `jobs` jobs need: `workers` (at least 1), no more
    /// than the jobs (at least 1).
    #[must_use]
    pub fn count(self, jobs: usize) -> usize {
        self.workers.max(1).min(jobs.max(1))
    }

    /// The solvers of [`count`](Self::count)`(jobs)` workers, for
    /// [`run_parallel_on`] and [`run_batch`](super::run_batch).
    ///
    /// # Errors
    /// A table size out of range or memory that cannot be had.
    pub fn solvers(self, jobs: usize) -> Result<Vec<Solver>, SolverError> {
        (0..self.count(jobs))
            .map(|_| {
                Solver::try_new(SolverOptions {
                    threads: self.solver_threads.max(1),
                    tt_bits: self.tt_bits,
                })
            })
            .collect()
    }
}

/// Runs `work` on every job on one worker per state of `states` (a solver,
/// or whatever a job needs: the searches of an analysis), each worker
/// owning its state from job to job, and hands each result to `done`
/// (called from the worker threads, in completion order). Stops taking new
/// jobs once `done` returns an error, and returns the first one. With no
/// state, no job runs.
///
/// # Errors
/// The first error returned by `done`.
pub fn run_parallel_on<J, S, R, E>(
    jobs: &[J],
    states: Vec<S>,
    work: impl Fn(&J, &mut S) -> R + Sync,
    done: impl Fn(&J, R) -> Result<(), E> + Sync,
) -> Result<(), E>
where
    J: Sync,
    S: Send,
    R: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<E>> = Mutex::new(None);
    let worker = |mut state: S| {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            let r = work(job, &mut state);
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
    if states.len() == 1 {
        states.into_iter().for_each(worker);
    } else {
        std::thread::scope(|s| {
            for state in states {
                s.spawn(|| worker(state));
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
