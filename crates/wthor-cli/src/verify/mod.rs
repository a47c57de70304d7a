//! Command-line face of the exact-solver checks, `wthor validate --solve`
//! (theoretical scores of games, `theory.rs`), `wthor puzzles --verify`
//! and `wthor analyze` batches: the run itself (inputs read and parsed,
//! records selected, those already in the results log skipped, checks on
//! worker threads, results logged, the cache saved, a stop between
//! records) is the library's [`wthor_db::verify::Run`]; here are what a
//! terminal adds: the progress bar as the run's observer ([`Bar`]), the
//! warnings and errors said on stderr, the signal handler armed around
//! the checks, and what an interrupted run kept.
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
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello_core::solver::Solver;
use wthor_db::verify::{InputError, Job, Run, RunObserver, Verified, Workers};

mod theory;

pub(crate) use theory::{SolveArgs, TallyWords, run_theory};

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

/// What a command does with an input file of another kind than it takes.
#[derive(Clone, Copy)]
pub(crate) enum OtherKind {
    /// Reports it on stderr, ending with this text, and goes on.
    Skip(&'static str),
    /// Reports it as an error, ending with this text (the run exits 2).
    Refuse(&'static str),
}

/// Says on stderr why each of `errors` (of
/// [`read_inputs`](wthor_db::verify::read_inputs) and
/// [`parse_inputs`](wthor_db::verify::parse_inputs)) was left out; returns
/// whether one makes the run fail (exit 2): all but a file of another kind
/// with `other` [`OtherKind::Skip`].
pub(crate) fn say_input_errors(errors: &[InputError], other: OtherKind) -> bool {
    let mut failed = false;
    for e in errors {
        if let InputError::OtherKind { path, kind } = e {
            let (what, refuse) = match other {
                OtherKind::Skip(what) => (what, false),
                OtherKind::Refuse(what) => (what, true),
            };
            eprintln!(
                "wthor: {}: {}, {what}",
                path.display(),
                crate::commands::a_kind_file(*kind)
            );
            failed |= refuse;
        } else {
            eprintln!("wthor: {}", wthor_db::error_chain(e));
            failed = true;
        }
    }
    failed
}

/// The observer of a run on a terminal: the results log's and the
/// cache's warnings on stderr, and a progress bar counting the results
/// and those of them `is_finding` picks.
pub(crate) struct Bar<'a, C> {
    /// What the bar counts ("games").
    pub(crate) what: &'a str,
    /// The bar's message after the count of findings ("findings").
    pub(crate) found: &'a str,
    /// Which results are findings.
    pub(crate) is_finding: &'a (dyn Fn(&C) -> bool + Sync),
    /// When lines of the log read back are not results of this run, the
    /// end of the warning for one and for several ("is not a
    /// theoretical-score result"); `None`: said nothing.
    pub(crate) unreadable: Option<(&'a str, &'a str)>,
    bar: OnceLock<ProgressBar>,
    findings: AtomicUsize,
}

impl<'a, C> Bar<'a, C> {
    /// A bar counting `what`, its findings `found` (`is_finding`).
    pub(crate) fn new(
        what: &'a str,
        found: &'a str,
        is_finding: &'a (dyn Fn(&C) -> bool + Sync),
    ) -> Bar<'a, C> {
        Bar {
            what,
            found,
            is_finding,
            unreadable: None,
            bar: OnceLock::new(),
            findings: AtomicUsize::new(0),
        }
    }

    /// Clears the bar, once the run is over.
    pub(crate) fn finish(&self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

impl<C> RunObserver<C> for Bar<'_, C> {
    fn log_warning(&self, warning: &str) {
        eprintln!("wthor: warning: {warning}");
    }

    fn logged(&self, _read: usize, unreadable: usize) {
        if let Some((one, several)) = self.unreadable
            && unreadable > 0
        {
            eprintln!(
                "wthor: warning: {} of the results file {}: left out of the report",
                crate::textfmt::count(unreadable, "line", "lines"),
                if unreadable == 1 { one } else { several }
            );
        }
    }

    fn cache_note(&self, note: &str) {
        eprintln!("wthor: warning: {note}");
    }

    fn started(&self, total: usize) {
        let _ = self.bar.set(progress(total, self.what));
    }

    fn checked(&self, result: &C) {
        let Some(bar) = self.bar.get() else { return };
        if (self.is_finding)(result) {
            let n = self.findings.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} {}", self.found));
        }
        bar.inc(1);
    }
}

/// Runs the checks of a prepared `run` ([`Run::check`]) with `bar` as its
/// observer, armed against signals (see [`crate::interrupt`]): after
/// Ctrl-C or SIGTERM no new record starts, those being solved are finished
/// and logged, and the records done so far come back with `stopped` set.
///
/// # Errors
/// The run's: the first error of the results log or of the cache.
pub(crate) fn check<R, C, S>(
    run: Run<'_, R, C>,
    states: Vec<S>,
    work: impl Fn(&Job<R>, &mut S, Option<&wthor_db::cache::SolveCache>) -> C + Sync,
    line: impl Fn(&Job<R>, &C) -> serde_json::Result<serde_json::Value> + Sync,
    bar: &Bar<'_, C>,
) -> anyhow::Result<Verified<R, C>>
where
    R: Clone + Send + Sync,
    C: Send,
    S: Send,
{
    let _armed = crate::interrupt::arm();
    let verified = run.check(states, work, line, bar);
    bar.finish();
    Ok(verified?)
}

/// The solvers of `workers` for `jobs` jobs ([`Workers::solvers`]: one per
/// worker, no more than the jobs), for [`check`].
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
