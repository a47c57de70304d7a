//! Command-line glue of the exact-solver checks, `wthor validate --solve`
//! (theoretical scores of games, `theory.rs`) and `wthor puzzles --verify`:
//! the one loop both run (read the files, select the records, skip those
//! already in the results log, run the checks on worker threads, log each
//! result, hand back the results in input order) and what it needs (player
//! names, progress bar, results log, cache).
//!
//! The work itself is in [`wthor_db::verify`] and [`wthor_db::cache`].
//!
//! Long runs:
//! - `--results FILE.jsonl` appends one JSON object per checked record
//!   (flushed per line); a re-run skips the records already there, known
//!   by file name, header creation date, index and a hash of the record's
//!   bytes, so another release of a file is checked again;
//! - `--cache FILE` keeps the exact score of every solved position (in
//!   canonical form, see [`wthor_db::cache`]), loaded at the start and
//!   saved (temporary file + rename) every minute and at the end; a file
//!   that is not a cache is refused and left alone, a damaged cache is
//!   moved aside (`FILE.damaged`) and the run starts with an empty one;
//! - `--shard K/N`: the `i`-th selected record (from 0, in input order,
//!   after `--sample`) is checked by shard `i mod N + 1`, so `N` machines
//!   running `1/N … N/N` (a Slurm array, GNU parallel) cover every record
//!   once; each writes its own results file.

use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello_core::solver::Solver;
use serde::Serialize;
use wthor_db::cache::{CacheError, SolveCache, set_aside};
use wthor_db::verify::{RecordKey, ResultsLog, Shard, Workers, run_parallel, select};
use wthor_format::{FileKind, ReadOptions, WthorFile, parse_any};

mod theory;

pub(crate) use theory::{SolveArgs, Tally, run_theory};

/// How often the cache is saved during a run.
const CACHE_SAVE_EVERY: Duration = Duration::from_secs(60);

/// Player names of a game file: the players file the database joins it
/// with (the newest of its own release in its directory, see
/// [`wthor_db::Join`]).
#[derive(Debug, Default)]
pub(crate) struct PlayerNames {
    names: Vec<String>,
}

impl PlayerNames {
    /// The names of the players file joined to `file`, if any; a players
    /// file that cannot be read gives no names (numbers are shown instead).
    pub(crate) fn beside(file: &Path) -> PlayerNames {
        let Ok((db, f)) = crate::game::open_file_with_names(file, None, None) else {
            return PlayerNames::default();
        };
        let table = db.join(f).players.and_then(|n| db.names(n));
        PlayerNames {
            names: table.map_or_else(Vec::new, |t| {
                (0..t.len())
                    .map(|i| {
                        u16::try_from(i)
                            .ok()
                            .and_then(|n| t.get(n))
                            .unwrap_or_default()
                            .to_owned()
                    })
                    .collect()
            }),
        }
    }

    /// The name of player `index`, or `#index` when unknown.
    pub(crate) fn get(&self, index: usize) -> String {
        match self.names.get(index) {
            Some(n) if !n.is_empty() => n.clone(),
            _ => format!("#{index}"),
        }
    }
}

/// A progress bar on stderr with count, rate and time left, drawn only when
/// stderr is a terminal.
pub(crate) fn progress(len: usize, what: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(
        Some(len as u64),
        if std::io::stderr().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template(&bar_template(what)) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// The progress line: elapsed time, bar, count, rate, time left, message.
fn bar_template(what: &str) -> String {
    format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}}) {{msg}}"
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_progress_template_is_valid() {
        assert!(indicatif::ProgressStyle::with_template(&super::bar_template("games")).is_ok());
    }
}

/// Opens the results log, printing its warnings.
pub(crate) fn open_results(path: Option<&Path>) -> anyhow::Result<Option<ResultsLog>> {
    let Some(path) = path else { return Ok(None) };
    let (log, warnings) = ResultsLog::open(path)
        .with_context(|| format!("{}: cannot open the results file", path.display()))?;
    for w in warnings {
        eprintln!("wthor: warning: {w}");
    }
    Ok(Some(log))
}

/// Appends one verified record to the results log, when there is one.
pub(crate) fn append_result<T: Serialize>(
    log: Option<&Mutex<ResultsLog>>,
    path: Option<&Path>,
    key: &RecordKey,
    record: &T,
) -> anyhow::Result<()> {
    let Some(log) = log else { return Ok(()) };
    log.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .append(key, record)
        .with_context(|| format!("{}: cannot append", path.unwrap_or(Path::new("")).display()))
}

/// Loads the cache at `path`, when given.
///
/// A file that is not a solve cache (a results log given by mistake, say)
/// is refused and left untouched. A damaged cache (the cache's magic bytes,
/// then a bad length, checksum or entry) is moved aside under a new name,
/// with a warning, and the run starts with an empty cache.
///
/// # Errors
/// When the file cannot be read, is not a solve cache, or a damaged cache
/// cannot be moved aside.
pub(crate) fn load_cache(path: Option<&Path>) -> anyhow::Result<Option<SolveCache>> {
    let Some(path) = path else { return Ok(None) };
    match SolveCache::load(path) {
        Ok(cache) => Ok(Some(cache)),
        Err(e @ CacheError::Damaged { .. }) => {
            let aside = set_aside(path).with_context(|| format!("{e}; cannot move it aside"))?;
            eprintln!(
                "wthor: warning: {e}; moved to {}, starting with an empty cache",
                aside.display()
            );
            Ok(Some(SolveCache::new()))
        }
        Err(e) => Err(e.into()),
    }
}

/// Saves the cache when due (every [`CACHE_SAVE_EVERY`]) or when `force`.
pub(crate) struct CacheSaver<'a> {
    cache: Option<&'a SolveCache>,
    path: Option<&'a Path>,
    last: Mutex<Instant>,
}

impl<'a> CacheSaver<'a> {
    pub(crate) fn new(cache: Option<&'a SolveCache>, path: Option<&'a Path>) -> Self {
        CacheSaver {
            cache,
            path,
            last: Mutex::new(Instant::now()),
        }
    }

    pub(crate) fn maybe_save(&self, force: bool) -> anyhow::Result<()> {
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
        }
        Ok(())
    }
}

/// One input file, read whole.
pub(crate) struct Input {
    path: PathBuf,
    bytes: Vec<u8>,
}

/// Reads every file of `paths`; one that cannot be read is reported on
/// stderr and sets `failed` (the others are still read).
pub(crate) fn read_inputs(paths: Vec<PathBuf>, failed: &mut bool) -> Vec<Input> {
    let mut inputs = Vec::new();
    for path in paths {
        match crate::commands::info::read_regular(&path) {
            Ok(bytes) => inputs.push(Input { path, bytes }),
            Err(e) => {
                eprintln!("wthor: {}", crate::error_line(&e));
                *failed = true;
            }
        }
    }
    inputs
}

/// What a command does with a file of another kind than it takes.
#[derive(Clone, Copy)]
pub(crate) enum OtherKind {
    /// Reports it on stderr, ending with this text, and goes on.
    Skip(&'static str),
    /// Reports it as an error, ending with this text (the run exits 2).
    Refuse(&'static str),
}

/// One input file, parsed: its records borrow the bytes of its [`Input`].
pub(crate) struct Loaded<'a, F> {
    pub(crate) path: &'a Path,
    pub(crate) file: F,
    pub(crate) names: PlayerNames,
}

/// Parses every input (with `hint`, the kind the parser tries first: only
/// a hint, a file parses as what it is) and keeps those `want` takes,
/// with the player names beside them. A file that cannot be parsed is
/// reported and sets `failed`; one of another kind is handled by `other`.
pub(crate) fn parse_inputs<'a, F>(
    inputs: &'a [Input],
    hint: impl Fn(&Path) -> Option<FileKind>,
    want: impl Fn(WthorFile<'a>) -> Option<F>,
    other: OtherKind,
    failed: &mut bool,
) -> Vec<Loaded<'a, F>> {
    let mut files = Vec::new();
    for input in inputs {
        let path = input.path.as_path();
        let parsed = match parse_any(&input.bytes, hint(path), &ReadOptions::default()) {
            Ok(parsed) => parsed,
            Err(e) => {
                eprintln!("wthor: {}: {e}", path.display());
                *failed = true;
                continue;
            }
        };
        let kind = parsed.kind();
        if let Some(file) = want(parsed) {
            files.push(Loaded {
                path,
                file,
                names: PlayerNames::beside(path),
            });
            continue;
        }
        let (what, refuse) = match other {
            OtherKind::Skip(what) => (what, false),
            OtherKind::Refuse(what) => (what, true),
        };
        eprintln!(
            "wthor: {}: {}, {what}",
            path.display(),
            crate::commands::a_kind_file(kind)
        );
        *failed |= refuse;
    }
    files
}

/// One record to check: where it is, the record itself (a borrowed view)
/// and its key in the results log.
#[derive(Clone)]
pub(crate) struct Job<R> {
    /// Its file, an index into the loaded files.
    pub(crate) file: usize,
    /// Its index in the file, from 0.
    pub(crate) index: usize,
    pub(crate) record: R,
    pub(crate) key: RecordKey,
}

/// The records of a run, after sampling and sharding.
pub(crate) struct Selection<R> {
    /// Those to check now.
    pub(crate) todo: Vec<Job<R>>,
    /// Those already in the results log (resumed), in input order.
    pub(crate) logged: Vec<Job<R>>,
}

/// Selects the records of a run from `candidates` (per file, the records
/// the command may check, as `(index in the file, record)`): a sample of
/// `sample = (size, seed)` of them, then those of `shard` (see
/// [`wthor_db::verify::select`]); those whose key (`key(file, index,
/// record)`) is in `log` are set apart.
pub(crate) fn select_jobs<R: Copy>(
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

/// How [`run_checks`] reports and logs.
pub(crate) struct RunOptions<'a> {
    /// The results log (opened by [`open_results`]) and its path.
    pub(crate) log: Option<(ResultsLog, &'a Path)>,
    /// Worker threads and solvers.
    pub(crate) workers: Workers,
    /// What the progress bar counts ("games").
    pub(crate) what: &'a str,
    /// The progress bar's message after the count of findings ("findings").
    pub(crate) found: &'a str,
}

/// The records [`run_checks`] checked, in input order, and whether a
/// signal stopped it before the end (see [`crate::interrupt`]).
pub(crate) struct Checked<R, C> {
    pub(crate) done: Vec<(Job<R>, C)>,
    pub(crate) interrupted: bool,
}

/// A run stopped by a signal: not an error, the records checked are kept.
#[derive(Debug)]
struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}

impl std::error::Error for Interrupted {}

/// Runs `work` on every job on worker threads (each owning a solver, see
/// [`run_parallel`]) with a progress bar, appends `line(job, result)` to
/// the results log as each finishes (a JSON object holding the key), counts the results `is_finding` picks
/// in the bar, calls `after_each` (a periodic save, say) after each, and
/// returns the jobs with their results in input order.
///
/// Armed against signals (see [`crate::interrupt`]): after Ctrl-C or
/// SIGTERM no new job starts, those being solved are finished and logged,
/// and the records done so far come back with `interrupted` set.
///
/// # Errors
/// The first error of the results log or of `after_each`; no new job
/// starts after it.
pub(crate) fn run_checks<R, C>(
    jobs: &[Job<R>],
    options: RunOptions<'_>,
    work: impl Fn(&Job<R>, &mut Solver) -> C + Sync,
    line: impl Fn(&Job<R>, &C) -> serde_json::Result<serde_json::Value> + Sync,
    is_finding: impl Fn(&C) -> bool + Sync,
    after_each: impl Fn() -> anyhow::Result<()> + Sync,
) -> anyhow::Result<Checked<R, C>>
where
    R: Clone + Send + Sync,
    C: Send,
{
    // One table per worker: refused before any is made when they cannot fit.
    crate::limits::fits(options.workers.tt_bits, options.workers.workers)
        .map_err(anyhow::Error::msg)?;
    let (log, log_path) = match options.log {
        Some((log, path)) => (Some(Mutex::new(log)), Some(path)),
        None => (None, None),
    };
    let _armed = crate::interrupt::arm();
    let bar = progress(jobs.len(), options.what);
    let findings = AtomicUsize::new(0);
    let done: Mutex<Vec<(Job<R>, C)>> = Mutex::new(Vec::with_capacity(jobs.len()));
    let result = run_parallel(jobs, options.workers, work, |job, check: C| {
        if log.is_some() {
            append_result(log.as_ref(), log_path, &job.key, &line(job, &check)?)?;
        }
        if is_finding(&check) {
            let n = findings.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} {}", options.found));
        }
        bar.inc(1);
        done.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((job.clone(), check));
        after_each()?;
        if crate::interrupt::requested() {
            return Err(Interrupted.into());
        }
        Ok::<(), anyhow::Error>(())
    });
    bar.finish_and_clear();
    let interrupted = match result {
        Ok(()) => crate::interrupt::requested(),
        Err(e) if e.is::<Interrupted>() => true,
        Err(e) => return Err(e),
    };
    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|(job, _)| (job.file, job.index));
    Ok(Checked { done, interrupted })
}

/// Says on stderr what an interrupted run kept: `solved` records (`what`,
/// "games") solved in this run, saved in the files `saved` (the results
/// log, the cache) when any, so that the same command goes on where it
/// stopped; else `keep` says which options would have kept them.
pub(crate) fn say_interrupted(solved: usize, what: &str, saved: &[Option<&Path>], keep: &str) {
    let saved: Vec<String> = saved
        .iter()
        .flatten()
        .map(|p| p.display().to_string())
        .collect();
    if saved.is_empty() {
        eprintln!(
            "wthor: interrupted: {solved} {what} solved, not saved ({keep} for the next run)"
        );
    } else {
        eprintln!(
            "wthor: interrupted: {solved} {what} solved and saved ({}); \
             run the same command to resume",
            saved.join(", ")
        );
    }
}
