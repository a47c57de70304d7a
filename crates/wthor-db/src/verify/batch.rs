//! The batch loop of the solver checks, under [`Run`](super::Run) (`wthor
//! validate --solve`, `wthor puzzles --verify`, `wthor analyze` batches):
//! the records selected (a sample, a shard), those already in the
//! results log set apart (resume), the others run on worker threads each
//! owning a solver, every result appended to the log as it finishes, the
//! cache saved every minute, a stop flag honoured between records, and the
//! results handed back in input order. Progress goes through a callback;
//! nothing is printed.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::{RecordKey, ResultsLog, Shard, run_parallel_on, select};
use crate::cache::{CacheError, SolveCache, set_aside};

/// How often [`CacheSaver`] saves the cache during a run.
pub const CACHE_SAVE_EVERY: Duration = Duration::from_secs(60);

/// One record to check: where it is, the record itself (a borrowed view
/// or a copy) and its key in the results log.
#[derive(Clone, Debug)]
pub struct Job<R> {
    /// Its input (file), an index into the caller's inputs.
    pub file: usize,
    /// Its index in the input, from 0.
    pub index: usize,
    /// The record.
    pub record: R,
    /// Its key in the results log.
    pub key: RecordKey,
}

/// The records of a run, after sampling and sharding.
#[derive(Clone, Debug)]
pub struct Selection<R> {
    /// Those to check now.
    pub todo: Vec<Job<R>>,
    /// Those already in the results log (resumed), in input order.
    pub logged: Vec<Job<R>>,
}

/// Selects the records of a run from `candidates` (per input, the records
/// the run may check, as `(index in the input, record)`): a sample of
/// `sample = (size, seed)` of them, then those of `shard` (see
/// [`select`]); those whose key (`key(input, index, record)`) is in `log`
/// are set apart.
pub fn select_jobs<R: Copy>(
    candidates: &[Vec<(usize, R)>],
    sample: Option<(usize, u64)>,
    shard: Option<Shard>,
    log: Option<&ResultsLog>,
    key: impl Fn(usize, usize, R) -> RecordKey,
) -> Selection<R> {
    let counts: Vec<usize> = candidates.iter().map(Vec::len).collect();
    let (logged, todo) = select(&counts, sample, shard)
        .into_iter()
        .filter_map(|(file, k)| {
            let &(index, record) = candidates.get(file)?.get(k)?;
            Some(Job {
                file,
                index,
                record,
                key: key(file, index, record),
            })
        })
        .partition(|job| log.is_some_and(|l| l.contains(&job.key)));
    Selection { todo, logged }
}

/// Why a batch stopped before its end (other than a stop asked for).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BatchError {
    /// The results log could not be appended to.
    #[error("{}: cannot append", path.display())]
    Log {
        /// The log.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A result could not be turned into its log line.
    #[error("a result cannot be written as JSON")]
    Json(#[from] serde_json::Error),
    /// The cache could not be saved.
    #[error(transparent)]
    Cache(#[from] CacheError),
}

/// The solve cache of a run and where it is saved: every
/// [`CACHE_SAVE_EVERY`] when asked ([`CacheSaver::maybe_save`]), and at
/// the end.
pub struct CacheSaver<'a> {
    cache: Option<&'a SolveCache>,
    path: Option<&'a Path>,
    last: Mutex<Instant>,
    /// Told after each save.
    saved: Option<&'a (dyn Fn() + Sync)>,
}

impl std::fmt::Debug for CacheSaver<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CacheSaver")
            .field("cache", &self.cache)
            .field("path", &self.path)
            .field("last", &self.last)
            .finish_non_exhaustive()
    }
}

impl<'a> CacheSaver<'a> {
    /// A saver of `cache` to `path` (either missing: nothing to save).
    #[must_use]
    pub fn new(cache: Option<&'a SolveCache>, path: Option<&'a Path>) -> CacheSaver<'a> {
        CacheSaver {
            cache,
            path,
            last: Mutex::new(Instant::now()),
            saved: None,
        }
    }

    /// This saver, calling `saved` after each save (from the thread that
    /// saved).
    #[must_use]
    pub fn telling(self, saved: &'a (dyn Fn() + Sync)) -> CacheSaver<'a> {
        CacheSaver {
            saved: Some(saved),
            ..self
        }
    }

    /// Saves the cache when due, or now with `force`.
    ///
    /// # Errors
    /// The cache's, when it cannot be written (the old file is intact).
    pub fn maybe_save(&self, force: bool) -> Result<(), CacheError> {
        let (Some(cache), Some(path)) = (self.cache, self.path) else {
            return Ok(());
        };
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if force || last.elapsed() >= CACHE_SAVE_EVERY {
            cache.save(path)?;
            *last = Instant::now();
            if let Some(saved) = self.saved {
                saved();
            }
        }
        Ok(())
    }
}

/// Loads the cache at `path`. A file that is not a solve cache (a results
/// log given by mistake, say) is refused and left untouched. A damaged
/// cache of ours (its magic bytes, then a bad length, checksum or entry)
/// is moved aside under a new name and the run starts with an empty cache:
/// the second value says so, for the caller to warn.
///
/// # Errors
/// When the file cannot be read, is not a solve cache, or a damaged cache
/// cannot be moved aside (then the message says it is damaged too).
pub fn load_or_set_aside(path: &Path) -> Result<(SolveCache, Option<String>), CacheError> {
    match SolveCache::load(path) {
        Ok(cache) => Ok((cache, None)),
        Err(e @ CacheError::Damaged { .. }) => match set_aside(path) {
            Ok(aside) => Ok((
                SolveCache::new(),
                Some(format!(
                    "{e}; moved to {}, starting with an empty cache",
                    aside.display()
                )),
            )),
            Err(source) => Err(CacheError::Io {
                path: path.to_owned(),
                source: std::io::Error::new(
                    source.kind(),
                    format!("{e}; cannot move it aside: {source}"),
                ),
            }),
        },
        Err(e) => Err(e),
    }
}

/// The cache at `path`, when given, by [`load_or_set_aside`]: a damaged
/// one set aside, its note handed to `note`.
///
/// # Errors
/// As [`load_or_set_aside`].
pub fn load_cache(
    path: Option<&Path>,
    note: impl FnOnce(&str),
) -> Result<Option<SolveCache>, CacheError> {
    let Some(path) = path else { return Ok(None) };
    let (cache, said) = load_or_set_aside(path)?;
    if let Some(said) = said {
        note(&said);
    }
    Ok(Some(cache))
}

/// The records a batch checked, in input order, and whether the stop flag
/// ended it before the end.
#[derive(Debug)]
pub struct Checked<R, C> {
    /// Each job with its result, in input order.
    pub done: Vec<(Job<R>, C)>,
    /// Whether `stop` was set before every job ran.
    pub stopped: bool,
}

/// What a batch needs beside its jobs.
pub struct Batch<'a> {
    /// The results log and its path, to append each result to.
    pub log: Option<(ResultsLog, &'a Path)>,
    /// The cache saver, asked after each result.
    pub saver: Option<&'a CacheSaver<'a>>,
    /// Once set (a signal handler, say), no new job starts; those running
    /// finish and are logged.
    pub stop: &'a AtomicBool,
}

/// A stop asked for: not an error, the records checked are kept.
enum Halt {
    Stop,
    Error(BatchError),
}

/// Runs `work` on every job on one worker thread per state of `states`
/// (each owning its state: a solver, say, from
/// [`Workers::solvers`](super::Workers::solvers); see
/// [`run_parallel_on`]), appends `line(job, result)` to the results log as
/// each finishes (a JSON object holding the key), calls `progress` with
/// each result (from the worker threads), saves the cache when due, and
/// returns the jobs with their results in input order.
///
/// # Errors
/// The first error of the results log or of the cache; no new job starts
/// after it.
pub fn run_batch<R, C, S>(
    jobs: &[Job<R>],
    batch: Batch<'_>,
    states: Vec<S>,
    work: impl Fn(&Job<R>, &mut S) -> C + Sync,
    line: impl Fn(&Job<R>, &C) -> serde_json::Result<serde_json::Value> + Sync,
    progress: impl Fn(&C) + Sync,
) -> Result<Checked<R, C>, BatchError>
where
    R: Clone + Send + Sync,
    C: Send,
    S: Send,
{
    let (log, log_path) = match batch.log {
        Some((log, path)) => (Some(Mutex::new(log)), Some(path)),
        None => (None, None),
    };
    let done: Mutex<Vec<(Job<R>, C)>> = Mutex::new(Vec::with_capacity(jobs.len()));
    let result = if batch.stop.load(Ordering::SeqCst) {
        Err(Halt::Stop)
    } else {
        run_parallel_on(jobs, states, work, |job, check: C| {
            if let (Some(log), Some(path)) = (&log, log_path) {
                let value = line(job, &check).map_err(|e| Halt::Error(e.into()))?;
                log.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .append(&job.key, &value)
                    .map_err(|source| {
                        Halt::Error(BatchError::Log {
                            path: path.to_owned(),
                            source,
                        })
                    })?;
            }
            progress(&check);
            done.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push((job.clone(), check));
            if let Some(saver) = batch.saver {
                saver.maybe_save(false).map_err(|e| Halt::Error(e.into()))?;
            }
            if batch.stop.load(Ordering::SeqCst) {
                return Err(Halt::Stop);
            }
            Ok(())
        })
    };
    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let stopped = match result {
        Ok(()) => false,
        Err(Halt::Stop) => done.len() < jobs.len(),
        Err(Halt::Error(e)) => return Err(e),
    };
    done.sort_by_key(|(job, _)| (job.file, job.index));
    Ok(Checked { done, stopped })
}
