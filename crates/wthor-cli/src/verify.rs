//! Command-line glue of the exact-solver checks: `wthor validate --solve`
//! (theoretical scores of games) and the machinery shared with `wthor
//! puzzles --verify` (player names, progress bar, results log, cache).
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

use std::collections::HashMap;
use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use othello_core::solver::GenericSolver;
use serde::Serialize;
use wthor_db::cache::{CacheError, SolveCache, set_aside};

use crate::cpu_time::thread_cpu_seconds;
use wthor_db::verify::{
    RecordKey, ResultsLog, Shard, TheoryCheck, TheoryStatus, Workers, check_theoretical,
    check_theoretical_10x10, median_p90, run_parallel, select,
};
use wthor_format::{
    BoardSize, FileKind, GameFile, GameView, NameKind, ReadOptions, WthorFile, parse_any,
    parse_names_file,
};

/// How often the cache is saved during a run.
const CACHE_SAVE_EVERY: Duration = Duration::from_secs(60);

/// Options of the exact-solver check of theoretical scores
/// (`wthor validate --solve`).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SolveArgs {
    /// Check every game's theoretical score with the exact solver instead
    /// of the replay check: replay to the header's depth (P3; 0 means 22),
    /// solve, compare.
    #[arg(long)]
    pub(crate) solve: bool,
    /// Check a deterministic random sample of N games of all inputs.
    #[arg(long, value_name = "N", requires = "solve")]
    pub(crate) sample: Option<usize>,
    /// Seed of --sample.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "sample")]
    pub(crate) seed: u64,
    /// Check only shard K of N: the i-th selected game (from 0, after
    /// --sample) goes to shard i mod N + 1.
    #[arg(long, value_name = "K/N", requires = "solve")]
    pub(crate) shard: Option<Shard>,
    /// Append one JSON object per checked game to FILE (JSON Lines); games
    /// already in FILE are skipped (resume).
    #[arg(long, value_name = "FILE.jsonl", requires = "solve")]
    pub(crate) results: Option<PathBuf>,
    /// Solved-position cache: loaded at start, saved atomically every
    /// minute and at the end. A file that is not a cache is refused; a
    /// damaged cache is moved to FILE.damaged.
    #[arg(long, value_name = "FILE", requires = "solve")]
    pub(crate) cache: Option<PathBuf>,
    /// Games solved in parallel, each by a one-thread solver (default: all
    /// cores).
    #[arg(long, value_name = "N", requires = "solve")]
    pub(crate) threads: Option<usize>,
    /// Solve one game at a time with a parallel solver of --threads
    /// threads instead (slower on 2 cores: 3.7 s against 2.4 s for six
    /// FFO positions).
    #[arg(long, requires = "solve")]
    pub(crate) parallel_solver: bool,
    /// Transposition table of each solver: 2^BITS entries of 32 bytes (two
    /// 24-byte entries share a 64-byte bucket).
    #[arg(long, value_name = "BITS", default_value_t = 22, requires = "solve")]
    pub(crate) tt_bits: u32,
}

impl SolveArgs {
    fn workers(&self) -> Workers {
        let n = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        if self.parallel_solver {
            Workers {
                workers: 1,
                solver_threads: n,
                tt_bits: self.tt_bits,
            }
        } else {
            Workers {
                workers: n,
                solver_threads: 1,
                tt_bits: self.tt_bits,
            }
        }
    }
}

/// Player names of a directory, from its players file (`*.JOU`, any case;
/// the newest by header date when there are several).
#[derive(Debug, Default)]
pub(crate) struct PlayerNames {
    names: Vec<String>,
}

impl PlayerNames {
    /// The names of the players file beside `file`, if any; a players file
    /// that cannot be read gives no names (numbers are shown instead).
    pub(crate) fn beside(file: &Path) -> PlayerNames {
        let dir = match file.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return PlayerNames::default();
        };
        let mut best: Option<(wthor_format::CreationDate, Vec<String>)> = None;
        for entry in entries.flatten() {
            let path = entry.path();
            if FileKind::from_path(&path) != Some(FileKind::Players) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let Ok(names) = parse_names_file(&bytes, NameKind::Players, &ReadOptions::default())
            else {
                continue;
            };
            let date = names.header().created;
            if best.as_ref().is_none_or(|(d, _)| date > *d) {
                let list = (0..names.len())
                    .map(|i| names.name(i).map(|n| n.into_owned()).unwrap_or_default())
                    .collect();
                best = Some((date, list));
            }
        }
        PlayerNames {
            names: best.map(|(_, n)| n).unwrap_or_default(),
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

/// The game files among `paths` (directories stand for the game files
/// inside them, with `recursive` of their subdirectories too), in order.
fn game_paths(paths: &[PathBuf], recursive: bool) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let files = wthor_db::list_files(path, recursive)
                .with_context(|| format!("{}: cannot list", path.display()))?;
            out.extend(files.into_iter().filter(|p| {
                matches!(
                    FileKind::from_path(p),
                    Some(FileKind::Games8 | FileKind::Games10)
                )
            }));
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// One game file, read whole.
struct Input {
    path: PathBuf,
    bytes: Vec<u8>,
}

/// One game file, parsed: its games borrow the bytes of its [`Input`].
struct Loaded<'a> {
    path: &'a Path,
    file: GameFile<'a>,
    names: PlayerNames,
}

/// One game to check.
#[derive(Clone)]
struct Job<'a> {
    /// Its file, an index into the loaded files.
    file: usize,
    /// Its index in the file, from 0.
    index: usize,
    game: GameView<'a>,
    key: RecordKey,
}

/// The results-log line of a checked game.
fn game_record<'a>(
    files: &[Loaded<'_>],
    job: &'a Job<'_>,
    check: &'a TheoryCheck,
) -> GameRecord<'a> {
    let loaded = &files[job.file];
    GameRecord {
        key: &job.key,
        year: loaded.file.header().year,
        black: loaded.names.get(job.game.black().into()),
        white: loaded.names.get(job.game.white().into()),
        check,
    }
}

/// One line of the results file of `validate --solve`.
#[derive(Debug, Serialize)]
struct GameRecord<'a> {
    #[serde(flatten)]
    key: &'a RecordKey,
    year: u16,
    black: String,
    white: String,
    #[serde(flatten)]
    check: &'a TheoryCheck,
}

/// `wthor validate --solve PATH...`: checks the theoretical score of every
/// game (or of the sample/shard) and prints the findings and a summary
/// (with `json`, one JSON object per checked game, as in the results file,
/// then `{"summary": {...}}`).
/// Returns the exit code: 2 when a file could not be read, else 1 with
/// `strict` on a finding (a mismatch, an impossible value, an illegal
/// move or a game that could not be solved), else 0.
pub(crate) fn run_theory(
    args: &SolveArgs,
    paths: &[PathBuf],
    recursive: bool,
    strict: bool,
    json: bool,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let mut failed = false;
    let mut inputs = Vec::new();
    for path in game_paths(paths, recursive)? {
        match super::commands::info::read_regular(&path) {
            Ok(bytes) => inputs.push(Input { path, bytes }),
            Err(e) => {
                eprintln!("wthor: {e:#}");
                failed = true;
            }
        }
    }
    let mut files: Vec<Loaded<'_>> = Vec::new();
    for input in &inputs {
        let path = input.path.as_path();
        match parse_any(
            &input.bytes,
            FileKind::from_path(path),
            &ReadOptions::default(),
        ) {
            Ok(WthorFile::Games(file)) => files.push(Loaded {
                path,
                file,
                names: PlayerNames::beside(path),
            }),
            Ok(other) => {
                eprintln!(
                    "wthor: {}: {}, not games: skipped by --solve",
                    path.display(),
                    crate::commands::a_kind_file(other.kind())
                );
            }
            Err(e) => {
                eprintln!("wthor: {}: {e}", path.display());
                failed = true;
            }
        }
    }
    let counts: Vec<usize> = files.iter().map(|f| f.file.len()).collect();
    let selected = select(&counts, args.sample.map(|n| (n, args.seed)), args.shard);

    let log = open_results(args.results.as_deref())?;
    let jobs: Vec<Job<'_>> = selected
        .iter()
        .filter_map(|&(f, index)| {
            let loaded = files.get(f)?;
            let game = loaded.file.get(index)?;
            let key = RecordKey::new(
                loaded.path,
                loaded.file.header().created,
                index,
                game.moves_raw(),
            );
            Some(Job {
                file: f,
                index,
                game,
                key,
            })
        })
        .filter(|j| log.as_ref().is_none_or(|l| !l.contains(&j.key)))
        .collect();
    let skipped = selected.len() - jobs.len();
    let log = log.map(Mutex::new);
    let cache = load_cache(args.cache.as_deref())?;
    let saver = CacheSaver::new(cache.as_ref(), args.cache.as_deref());
    // Fail now, not after the first minute of solving, if the cache cannot
    // be written.
    saver.maybe_save(true)?;
    let bar = progress(jobs.len(), "games");
    let done: Mutex<Vec<(Job<'_>, TheoryCheck)>> = Mutex::new(Vec::with_capacity(jobs.len()));
    let findings = AtomicUsize::new(0);

    let work = |job: &Job<'_>, solver: &mut _| {
        let file = &files[job.file].file;
        let depth = file.header().depth();
        let g = job.game;
        match file.board_size() {
            BoardSize::Eight => {
                let cpu0 = thread_cpu_seconds();
                let mut check = check_theoretical(
                    g.moves_raw(),
                    depth,
                    g.theoretical_score(),
                    solver,
                    cache.as_ref(),
                );
                // One-thread solvers only: a parallel solver's other
                // threads are not counted by this thread's clock.
                if check.score.is_some() && !check.cached && !args.parallel_solver {
                    check.cpu_seconds = cpu0.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
                }
                check
            }
            BoardSize::Ten => check_theoretical_10x10(
                g.moves_raw(),
                depth,
                g.theoretical_score(),
                &mut GenericSolver::new(),
            ),
        }
    };
    let result = run_parallel(&jobs, args.workers(), work, |job, check: TheoryCheck| {
        if log.is_some() {
            let record = game_record(&files, job, &check);
            append_result(log.as_ref(), args.results.as_deref(), &job.key, &record)?;
        }
        if check.status != TheoryStatus::Ok && check.status != TheoryStatus::Short {
            let n = findings.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} findings"));
        }
        bar.inc(1);
        done.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((job.clone(), check));
        saver.maybe_save(false)
    });
    bar.finish_and_clear();
    saver.maybe_save(true)?;
    result?;

    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|(j, _)| (j.file, j.index));
    let mut tally: HashMap<TheoryStatus, usize> = HashMap::new();
    let mut times = Vec::new();
    let mut cpu_times = Vec::new();
    for (job, check) in &done {
        *tally.entry(check.status).or_default() += 1;
        if check.score.is_some() && !check.cached {
            times.push(check.seconds);
            cpu_times.extend(check.cpu_seconds);
        }
        if json {
            serde_json::to_writer(&mut *out, &game_record(&files, job, check))?;
            writeln!(out)?;
        } else if check.status != TheoryStatus::Ok {
            let loaded = &files[job.file];
            writeln!(
                out,
                "{}: record {} ({}): {} vs {}: {}",
                loaded.path.display(),
                job.index,
                loaded.file.header().year,
                loaded.names.get(job.game.black().into()),
                loaded.names.get(job.game.white().into()),
                describe(check, loaded.file.board_size())
            )?;
        }
    }
    let n = |s| tally.get(&s).copied().unwrap_or(0);
    let findings = n(TheoryStatus::Mismatch)
        + n(TheoryStatus::Impossible)
        + n(TheoryStatus::Illegal)
        + n(TheoryStatus::Unavailable);
    let code = crate::commands::exit_code(failed, strict && findings > 0);
    if json {
        let wall = median_p90(&mut times);
        let cpu = median_p90(&mut cpu_times);
        let summary = serde_json::json!({
            "summary": {
                "checked": done.len(),
                "ok": n(TheoryStatus::Ok),
                "mismatches": n(TheoryStatus::Mismatch),
                "impossible": n(TheoryStatus::Impossible),
                "short": n(TheoryStatus::Short),
                "illegal": n(TheoryStatus::Illegal),
                "unavailable": n(TheoryStatus::Unavailable),
                "already_done": skipped,
                "median_seconds": wall.map(|m| m.0),
                "p90_seconds": wall.map(|m| m.1),
                "median_cpu_seconds": cpu.map(|m| m.0),
                "p90_cpu_seconds": cpu.map(|m| m.1),
            }
        });
        serde_json::to_writer(&mut *out, &summary)?;
        writeln!(out)?;
        return Ok(code);
    }
    write!(
        out,
        "theoretical scores: {} games checked: {} ok, {} mismatches, {} impossible, {} short, {} illegal, {} unavailable",
        done.len(),
        n(TheoryStatus::Ok),
        n(TheoryStatus::Mismatch),
        n(TheoryStatus::Impossible),
        n(TheoryStatus::Short),
        n(TheoryStatus::Illegal),
        n(TheoryStatus::Unavailable),
    )?;
    if skipped > 0 {
        write!(out, "; {skipped} already in the results file")?;
    }
    writeln!(out)?;
    if let Some((median, p90)) = median_p90(&mut times) {
        writeln!(
            out,
            "solve time per game: median {median:.3} s, 90th percentile {p90:.3} s ({} solved)",
            times.len()
        )?;
    }
    if let Some((median, p90)) = median_p90(&mut cpu_times) {
        writeln!(
            out,
            "on-CPU time per game: median {median:.3} s, 90th percentile {p90:.3} s"
        )?;
    }
    if let Some(c) = &cache {
        let (hits, misses, added) = c.stats();
        writeln!(
            out,
            "cache: {hits} hits, {misses} misses, {added} added, {} positions",
            c.len()
        )?;
    }
    Ok(code)
}

/// One finding in words, on a board of `size`.
fn describe(c: &TheoryCheck, size: BoardSize) -> String {
    let squares = match size {
        BoardSize::Eight => 64,
        BoardSize::Ten => 100,
    };
    let at = || {
        format!(
            "{} empties, {} to move, exact score {:+}{}",
            c.depth,
            c.side.as_deref().unwrap_or("?"),
            c.score.unwrap_or(0),
            c.best_move
                .as_deref()
                .map(|m| format!(" ({m})"))
                .unwrap_or_default()
        )
    };
    match c.status {
        TheoryStatus::Ok => format!("ok: stored {}", c.stored),
        TheoryStatus::Mismatch => format!(
            "mismatch: stored {}, solved {} ({})",
            c.stored,
            c.solved.unwrap_or(0),
            at()
        ),
        TheoryStatus::Impossible => format!(
            "impossible stored value {} (> {squares}), solved {} ({})",
            c.stored,
            c.solved.unwrap_or(0),
            at()
        ),
        TheoryStatus::Short => format!(
            "{} after {} moves, before {} empties; stored {}, final score {}",
            if c.finished == Some(true) {
                "the game ends"
            } else {
                "the record stops"
            },
            c.moves,
            c.depth,
            c.stored,
            c.final_score.unwrap_or(0)
        ),
        TheoryStatus::Illegal => format!(
            "move {} is illegal, before {} empties; stored {}",
            c.illegal_move.map_or(0, |m| m + 1),
            c.depth,
            c.stored
        ),
        TheoryStatus::Unavailable => format!(
            "10x10 solving unavailable at {} empties (the generic solver goes to {}); stored {} not checked",
            c.depth,
            wthor_db::verify::MAX_10X10_EMPTIES,
            c.stored
        ),
    }
}
