//! A whole verification run in two calls, as every front end runs it
//! (`wthor validate --solve`, `wthor puzzles --verify`, `wthor analyze`
//! batches): [`Run::prepare`] opens the results log, selects the records
//! (sample, shard), sets apart and reads back those already logged, loads
//! the solve cache (a damaged one set aside) and saves it once (a cache
//! that cannot be written fails before any solving); the caller then makes
//! one state per worker ([`Run::todo`] says how many records are left) and
//! [`Run::check`] runs the batch ([`run_batch`]), saves the cache at the
//! end and hands back what was checked. A [`RunObserver`] is told what
//! happens; nothing is printed.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use serde::de::DeserializeOwned;

use super::{
    Batch, BatchError, CacheSaver, Job, RecordKey, ResultsLog, Selection, Shard, load_cache,
    run_batch, select_jobs,
};
use crate::cache::{CacheError, SolveCache};

/// What a run is asked to do beside its records and checks
/// ([`RunOptions::new`]: every record, no log, no cache).
#[derive(Clone, Copy, Debug)]
pub struct RunOptions<'a> {
    /// A deterministic sample of `(size, seed)` of the candidates.
    pub sample: Option<(usize, u64)>,
    /// Only this shard of the (sampled) candidates.
    pub shard: Option<Shard>,
    /// The results log ([`ResultsLog`]): each result appended to it, the
    /// records already there not checked again.
    pub results: Option<&'a Path>,
    /// The solve cache: loaded (a damaged one set aside,
    /// [`load_or_set_aside`](super::load_or_set_aside)), saved before the
    /// run, every [`CACHE_SAVE_EVERY`](super::CACHE_SAVE_EVERY) and at the
    /// end.
    pub cache: Option<&'a Path>,
    /// Once set (a signal handler, say), no new record starts; those
    /// running finish and are logged.
    pub stop: &'a AtomicBool,
}

impl<'a> RunOptions<'a> {
    /// Every candidate, no results log, no cache, stopped by `stop`.
    #[must_use]
    pub fn new(stop: &'a AtomicBool) -> RunOptions<'a> {
        RunOptions {
            sample: None,
            shard: None,
            results: None,
            cache: None,
            stop,
        }
    }
}

/// What a front end is told while a run goes, checks of type `C`. Every
/// method has a default that does nothing. [`checked`](Self::checked) and
/// [`cache_saved`](Self::cache_saved) are called from the worker threads.
pub trait RunObserver<C>: Sync {
    /// A warning of the results log when opened (a truncated last line
    /// cut off, an unreadable line skipped).
    fn log_warning(&self, warning: &str) {
        let _ = warning;
    }

    /// The records of the selection already in the results log: `read`
    /// of them read back as results, `unreadable` not (lines of another
    /// kind of run: left out of [`Verified::logged`]).
    fn logged(&self, read: usize, unreadable: usize) {
        let _ = (read, unreadable);
    }

    /// The solve cache was damaged and set aside (the note of
    /// [`load_or_set_aside`](super::load_or_set_aside)); the run starts
    /// with an empty one.
    fn cache_note(&self, note: &str) {
        let _ = note;
    }

    /// The checks start: `total` records to check now.
    fn started(&self, total: usize) {
        let _ = total;
    }

    /// One record checked (and logged), in completion order.
    fn checked(&self, result: &C) {
        let _ = result;
    }

    /// The solve cache was saved (during the run, or at its end).
    fn cache_saved(&self) {}
}

/// An observer that is told nothing.
impl<C> RunObserver<C> for () {}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// The results log could not be opened or read.
    #[error("{}: cannot open the results file", path.display())]
    Results {
        /// The log.
        path: std::path::PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The cache could not be read (not a cache, unreadable) or saved.
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// The batch stopped on an error of the results log or the cache.
    #[error(transparent)]
    Batch(#[from] BatchError),
}

/// A run prepared: its records selected, the log read back, the cache
/// loaded; [`check`](Self::check) runs it.
#[derive(Debug)]
pub struct Run<'a, R, C> {
    options: RunOptions<'a>,
    log: Option<ResultsLog>,
    todo: Vec<Job<R>>,
    logged: Vec<(Job<R>, C)>,
    already_done: usize,
    cache: Option<SolveCache>,
}

/// What a run checked.
#[derive(Debug)]
pub struct Verified<R, C> {
    /// The records checked now, with their results, in input order.
    pub done: Vec<(Job<R>, C)>,
    /// The records already in the results log, with their results read
    /// back, in input order (not those of another kind of run).
    pub logged: Vec<(Job<R>, C)>,
    /// The records of the selection already in the results log, read
    /// back or not.
    pub already_done: usize,
    /// Whether the stop flag ended the run before every record was
    /// checked (those checked are kept, logged and cached).
    pub stopped: bool,
    /// The solve cache, when the run had one (its counts, its size).
    pub cache: Option<SolveCache>,
}

impl<'a, R: Copy, C: DeserializeOwned> Run<'a, R, C> {
    /// Prepares a run over `candidates` (per input, the records the run
    /// may check, as `(index in the input, record)`, see [`select_jobs`];
    /// `key(input, index, record)` their keys in the log): the results log
    /// opened (its warnings told to `observer`), the records selected, those
    /// already logged read back as `C` (told to `observer.logged`), the
    /// cache loaded (a damaged one set aside, told) and saved once.
    ///
    /// # Errors
    /// [`RunError::Results`] when the log cannot be opened,
    /// [`RunError::Cache`] when the cache cannot be read or written.
    pub fn prepare(
        candidates: &[Vec<(usize, R)>],
        key: impl Fn(usize, usize, R) -> RecordKey,
        options: RunOptions<'a>,
        observer: &dyn RunObserver<C>,
    ) -> Result<Run<'a, R, C>, RunError> {
        let log = match options.results {
            Some(path) => {
                let (log, warnings) =
                    ResultsLog::open(path).map_err(|source| RunError::Results {
                        path: path.to_owned(),
                        source,
                    })?;
                for w in &warnings {
                    observer.log_warning(w);
                }
                Some(log)
            }
            None => None,
        };
        let Selection { todo, logged } =
            select_jobs(candidates, options.sample, options.shard, log.as_ref(), key);
        let already_done = logged.len();
        let logged: Vec<(Job<R>, C)> = logged
            .into_iter()
            .filter_map(|job| {
                let value = log.as_ref()?.records().get(&job.key)?;
                let check = C::deserialize(value).ok()?;
                Some((job, check))
            })
            .collect();
        observer.logged(logged.len(), already_done - logged.len());
        let cache = load_cache(options.cache, |note| observer.cache_note(note))?;
        // Fail now, not after the first minute of solving, if the cache
        // cannot be written.
        let saved = || observer.cache_saved();
        CacheSaver::new(cache.as_ref(), options.cache)
            .telling(&saved)
            .maybe_save(true)?;
        Ok(Run {
            options,
            log,
            todo,
            logged,
            already_done,
            cache,
        })
    }
}

impl<R, C> Run<'_, R, C> {
    /// The records to check now (those of the selection not logged yet),
    /// in input order.
    #[must_use]
    pub fn todo(&self) -> &[Job<R>] {
        &self.todo
    }

    /// The records already logged, read back, in input order.
    #[must_use]
    pub fn logged(&self) -> &[(Job<R>, C)] {
        &self.logged
    }

    /// Checks the records left: `work(job, state, cache)` on one worker
    /// thread per state of `states` (each owning its state, a solver, say,
    /// from [`Workers::solvers`](super::Workers::solvers)), each result
    /// appended to the log as `line(job, result)` (a JSON object holding
    /// the key) and told to `observer.checked`, the cache saved every
    /// [`CACHE_SAVE_EVERY`](super::CACHE_SAVE_EVERY) and at the end (even
    /// after an error of the batch), the stop flag honoured between
    /// records.
    ///
    /// # Errors
    /// The first error of the results log or of the cache; no new record
    /// starts after it.
    pub fn check<S>(
        self,
        states: Vec<S>,
        work: impl Fn(&Job<R>, &mut S, Option<&SolveCache>) -> C + Sync,
        line: impl Fn(&Job<R>, &C) -> serde_json::Result<serde_json::Value> + Sync,
        observer: &dyn RunObserver<C>,
    ) -> Result<Verified<R, C>, RunError>
    where
        R: Clone + Send + Sync,
        C: Send,
        S: Send,
    {
        let saved = || observer.cache_saved();
        let cache = self.cache;
        let saver = CacheSaver::new(cache.as_ref(), self.options.cache).telling(&saved);
        observer.started(self.todo.len());
        let batch = Batch {
            log: self.log.zip(self.options.results),
            saver: Some(&saver),
            stop: self.options.stop,
        };
        let result = run_batch(
            &self.todo,
            batch,
            states,
            |job, state| work(job, state, cache.as_ref()),
            line,
            |check| observer.checked(check),
        );
        saver.maybe_save(true)?;
        let checked = result?;
        Ok(Verified {
            done: checked.done,
            logged: self.logged,
            already_done: self.already_done,
            stopped: checked.stopped,
            cache,
        })
    }
}
