//! The whole import in one call: [`run`] reads, plans, solves and writes
//! in the order every front end follows, and tells an [`ImportObserver`]
//! what each step found (the `wthor import` lines, Python's report), and
//! a callback how the solving goes.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::{
    FinishError, Gathered, ImportError, ImportOptions, Plan, Progress, Solving, finish, notes,
    plan, read_all, workers,
};
use crate::cache::CacheError;
use crate::text::read::{NamesFiles, ReadError};
use crate::verify::load_cache;

/// What a front end is told while an import runs. Every method has a
/// default that does nothing.
pub trait ImportObserver {
    /// The inputs were read (step 0): the games to import, the rejected
    /// lines and games, the warnings of the WTHOR inputs
    /// ([`Gathered::warnings`]), and the notes on odd records ([`notes`]).
    fn gathered(&mut self, gathered: &Gathered, notes: &[String]) {
        let _ = (gathered, notes);
    }

    /// Whether the import stops once the inputs are read, as when games
    /// are rejected (nothing planned nor written, [`ImportOutcome::Blocked`]):
    /// a front end's own rule on what was read, e.g. `wthor import
    /// --strict` refusing a damaged WTHOR input ([`Gathered::damaged`]).
    /// Asked after [`gathered`](Self::gathered). Default: it goes on.
    fn stop_after_reading(&mut self, gathered: &Gathered) -> bool {
        let _ = gathered;
        false
    }

    /// The import was planned (step 2); nothing is written yet.
    fn planned(&mut self, plan: &Plan) {
        let _ = plan;
    }

    /// The solve cache was damaged and set aside before the solving
    /// ([`load_or_set_aside`](crate::verify::load_or_set_aside)'s note).
    fn cache_note(&mut self, note: &str) {
        let _ = note;
    }
}

/// An observer that is told nothing.
impl ImportObserver for () {}

/// What an import is asked to do ([`run`]).
#[derive(Debug)]
pub struct ImportRun<'a> {
    /// The files to read (any format `read_input` reads).
    pub inputs: &'a [PathBuf],
    /// The directory to import into (created when missing).
    pub into: &'a Path,
    /// The names files of WTHOR inputs, and the encoding.
    pub names: NamesFiles,
    /// At most this many games from each input.
    pub limit: Option<usize>,
    /// Import the good games even when some are rejected.
    pub skip_illegal: bool,
    /// Plan and report, write nothing.
    pub dry_run: bool,
    /// How to plan (year, tournament, depth, encoding, duplicates, date).
    pub options: ImportOptions,
    /// Solver threads (`None`: the cores available).
    pub threads: Option<usize>,
    /// The solve cache file: loaded before the solving (a damaged one set
    /// aside, [`load_or_set_aside`](crate::verify::load_or_set_aside)),
    /// saved before, every minute and after.
    pub cache: Option<&'a Path>,
    /// Set to stop between games: nothing is written then.
    pub stop: &'a AtomicBool,
}

/// How an import ended, when it did not fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImportOutcome {
    /// Some games were rejected and `skip_illegal` was not given, or the
    /// observer stopped the import after reading
    /// ([`ImportObserver::stop_after_reading`]): nothing planned nor
    /// written.
    Blocked,
    /// A dry run: planned, nothing written.
    DryRun,
    /// Every game was left out (duplicates) or none was read: nothing to
    /// write.
    NothingToWrite,
    /// Solved and written.
    Written,
}

/// Why an import failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// An input could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The directory could not be read or planned into.
    #[error(transparent)]
    Plan(#[from] ImportError),
    /// The solve cache could not be read (it is not ours, or unreadable).
    #[error(transparent)]
    Cache(#[from] CacheError),
    /// The solving or writing failed, or was stopped (nothing written).
    #[error(transparent)]
    Finish(#[from] FinishError),
}

/// Imports `run.inputs` into `run.into`: [`read_all`] and [`notes`]
/// (told to `observer.gathered`), nothing more when games were rejected
/// without `skip_illegal` or when `observer.stop_after_reading`; [`plan`] (told to `observer.planned`), nothing
/// more in a dry run or when no game is left; then the cache loaded and
/// [`finish`] (the solving's [`Progress`] told to `progress`, from the
/// worker threads).
///
/// # Errors
/// [`RunError`]: an input that cannot be read, a directory that cannot
/// be planned into, the solving or writing failing or stopped.
pub fn run(
    request: &ImportRun<'_>,
    observer: &mut dyn ImportObserver,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<ImportOutcome, RunError> {
    let gathered = read_all(request.inputs, &request.names, request.limit)?;
    let notes = notes(&gathered.games, request.options.keep_duplicates);
    observer.gathered(&gathered, &notes);
    if gathered.blocked(request.skip_illegal) || observer.stop_after_reading(&gathered) {
        return Ok(ImportOutcome::Blocked);
    }
    let mut plan = plan(request.into, &gathered.games, &request.options)?;
    observer.planned(&plan);
    if request.dry_run {
        return Ok(ImportOutcome::DryRun);
    }
    if plan.games.is_empty() {
        return Ok(ImportOutcome::NothingToWrite);
    }
    let cache = load_cache(request.cache, |note| observer.cache_note(note))?;
    let solving = Solving {
        workers: workers(request.threads),
        cache: cache.as_ref(),
        cache_path: request.cache,
        stop: request.stop,
    };
    finish(
        &mut plan,
        request.into,
        solving,
        request.options.encoding,
        progress,
    )?;
    Ok(ImportOutcome::Written)
}
