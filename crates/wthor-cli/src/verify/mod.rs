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
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello_core::solver::Solver;
use wthor_db::cache::SolveCache;
use wthor_db::verify::{Batch, ResultsLog, Workers, load_or_set_aside, run_batch};
pub(crate) use wthor_db::verify::{CacheSaver, Checked, Job, select_jobs};
use wthor_format::{FileKind, ReadOptions, WthorFile, parse_any};

mod theory;

pub(crate) use theory::{SolveArgs, Tally, run_theory};

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

/// The progress line: elapsed time, bar, count, rate, time left, message
/// (drawn in the test `a_batch_draws_its_progress_bar_on_a_terminal`).
fn bar_template(what: &str) -> String {
    format!(
        "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {what} ({{per_sec}}, ETA {{eta}}) {{msg}}"
    )
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
    let (cache, note) = load_or_set_aside(path)?;
    if let Some(note) = note {
        eprintln!("wthor: warning: {note}");
    }
    Ok(Some(cache))
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

/// How [`run_checks`] reports and logs.
pub(crate) struct RunOptions<'a> {
    /// The results log (opened by [`open_results`]) and its path.
    pub(crate) log: Option<(ResultsLog, &'a Path)>,
    /// What the progress bar counts ("games").
    pub(crate) what: &'a str,
    /// The progress bar's message after the count of findings ("findings").
    pub(crate) found: &'a str,
}

/// Runs `work` on every job with the library's batch loop
/// ([`wthor_db::verify::run_batch`]: a worker thread per state of
/// `states`, each owning its own ([`solvers`]: a solver), each result appended to the results log as `line(job, result)`, the
/// cache saved every minute by `saver`, results back in input order), with
/// a progress bar counting the results `is_finding` picks, armed against
/// signals (see [`crate::interrupt`]): after Ctrl-C or SIGTERM no new job
/// starts, those being solved are finished and logged, and the records
/// done so far come back with `stopped` set.
///
/// # Errors
/// The first error of the results log or of the cache; no new job starts
/// after it.
pub(crate) fn run_checks<R, C, S>(
    jobs: &[Job<R>],
    options: RunOptions<'_>,
    states: Vec<S>,
    work: impl Fn(&Job<R>, &mut S) -> C + Sync,
    line: impl Fn(&Job<R>, &C) -> serde_json::Result<serde_json::Value> + Sync,
    is_finding: impl Fn(&C) -> bool + Sync,
    saver: Option<&CacheSaver<'_>>,
) -> anyhow::Result<Checked<R, C>>
where
    R: Clone + Send + Sync,
    C: Send,
    S: Send,
{
    let _armed = crate::interrupt::arm();
    let bar = progress(jobs.len(), options.what);
    let findings = AtomicUsize::new(0);
    let batch = Batch {
        log: options.log,
        saver,
        stop: crate::interrupt::flag(),
    };
    let checked = run_batch(jobs, batch, states, work, line, |check| {
        if is_finding(check) {
            let n = findings.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} {}", options.found));
        }
        bar.inc(1);
    });
    bar.finish_and_clear();
    Ok(checked?)
}

/// The solvers of `workers` for `jobs` jobs ([`Workers::solvers`]: one per
/// worker, no more than the jobs), for [`run_checks`].
///
/// # Errors
/// The tables not fitting in this machine's memory (refused before any is
/// made), or memory that cannot be had.
pub(crate) fn solvers(workers: Workers, jobs: usize) -> anyhow::Result<Vec<Solver>> {
    crate::limits::fits(workers.tt_bits, workers.workers).map_err(anyhow::Error::msg)?;
    workers.solvers(jobs).context("cannot make the solvers")
}

/// Says on stderr what an interrupted run kept: `solved` records (`what`,
/// "games") solved in this run, saved in the files `saved` (the results
/// log, the cache) when any, so that the same command goes on where it
/// stopped; else `keep` says which options would have kept them.
pub(crate) fn say_interrupted(solved: usize, what: &str, saved: &[Option<&Path>], keep: &str) {
    // "1 game solved"; "1 of 12 games solved" keeps its plural.
    let what = match what.strip_suffix('s') {
        Some(one) if solved == 1 && !what.contains(' ') => one,
        _ => what,
    };
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
