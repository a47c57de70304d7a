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
//!   saved (temporary file + rename) every minute and at the end;
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
use wthor_db::cache::SolveCache;
use wthor_db::verify::{
    RecordKey, ResultsLog, Shard, TheoryCheck, TheoryStatus, Workers, check_theoretical,
    check_theoretical_10x10, median_p90, run_parallel, select,
};
use wthor_format::{
    BoardSize, FileKind, GameFile, NameKind, ReadOptions, WthorFile, parse_any, parse_names_file,
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
    /// minute and at the end.
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
    /// Transposition table of each solver: 2^BITS entries of 24 bytes.
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

/// Loads the cache; a damaged file is a warning and an empty cache.
pub(crate) fn load_cache(path: Option<&Path>) -> Option<SolveCache> {
    let path = path?;
    Some(SolveCache::load(path).unwrap_or_else(|e| {
        eprintln!("wthor: warning: {e}; starting with an empty cache");
        SolveCache::new()
    }))
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
    names: PlayerNames,
}

impl Input {
    fn games(&self) -> GameFile<'_> {
        match parse_any(
            &self.bytes,
            FileKind::from_path(&self.path),
            &ReadOptions::default(),
        ) {
            Ok(WthorFile::Games(g)) => g,
            _ => unreachable!("checked when read"),
        }
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

/// A checked game, kept for the report.
struct Done {
    file: usize,
    index: usize,
    check: TheoryCheck,
}

/// `wthor validate --solve PATH...`: checks the theoretical score of every
/// game (or of the sample/shard) and prints the findings and a summary
/// (with `json`, one JSON object per checked game, as in the results file,
/// then `{"summary": {...}}`).
/// Returns the exit code: 1 when a file could not be read (or, with
/// `strict`, on a finding: a mismatch, an impossible value, an illegal
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
        let bytes = match super::commands::info::read_regular(&path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("wthor: {e:#}");
                failed = true;
                continue;
            }
        };
        match parse_any(&bytes, FileKind::from_path(&path), &ReadOptions::default()) {
            Ok(WthorFile::Games(_)) => {}
            Ok(other) => {
                eprintln!(
                    "wthor: {}: a {} file, not games: skipped by --solve",
                    path.display(),
                    other.kind()
                );
                continue;
            }
            Err(e) => {
                eprintln!("wthor: {}: {e}", path.display());
                failed = true;
                continue;
            }
        }
        let names = PlayerNames::beside(&path);
        inputs.push(Input { path, bytes, names });
    }
    let files: Vec<GameFile<'_>> = inputs.iter().map(Input::games).collect();
    let counts: Vec<usize> = files.iter().map(GameFile::len).collect();
    let selected = select(&counts, args.sample.map(|n| (n, args.seed)), args.shard);
    let key_of = |f: usize, i: usize| {
        let g = files[f].get(i).expect("selected index");
        RecordKey::new(&inputs[f].path, files[f].header().created, i, g.moves_raw())
    };

    let log = open_results(args.results.as_deref())?;
    let jobs: Vec<(usize, usize, RecordKey)> = selected
        .iter()
        .map(|&(f, i)| (f, i, key_of(f, i)))
        .filter(|(_, _, k)| log.as_ref().is_none_or(|l| !l.contains(k)))
        .collect();
    let skipped = selected.len() - jobs.len();
    let log = log.map(Mutex::new);
    let cache = load_cache(args.cache.as_deref());
    let saver = CacheSaver::new(cache.as_ref(), args.cache.as_deref());
    // Fail now, not after the first minute of solving, if the cache cannot
    // be written.
    saver.maybe_save(true)?;
    let bar = progress(jobs.len(), "games");
    let done: Mutex<Vec<Done>> = Mutex::new(Vec::with_capacity(jobs.len()));
    let findings = AtomicUsize::new(0);

    let work = |(f, i, _): &(usize, usize, RecordKey), solver: &mut _| {
        let file = &files[*f];
        let depth = file.header().depth();
        let g = file.get(*i).expect("selected index");
        match file.board_size() {
            BoardSize::Eight => check_theoretical(
                g.moves_raw(),
                depth,
                g.theoretical_score(),
                solver,
                cache.as_ref(),
            ),
            BoardSize::Ten => check_theoretical_10x10(
                g.moves_raw(),
                depth,
                g.theoretical_score(),
                &mut GenericSolver::new(),
            ),
        }
    };
    let finish = |(f, i, key): &(usize, usize, RecordKey), check: TheoryCheck| {
        if log.is_some() {
            let g = files[*f].get(*i).expect("selected index");
            let names = &inputs[*f].names;
            let record = GameRecord {
                key,
                year: files[*f].header().year,
                black: names.get(g.black().into()),
                white: names.get(g.white().into()),
                check: &check,
            };
            append_result(log.as_ref(), args.results.as_deref(), key, &record)?;
        }
        if check.status != TheoryStatus::Ok && check.status != TheoryStatus::Short {
            let n = findings.fetch_add(1, Ordering::Relaxed) + 1;
            bar.set_message(format!("{n} findings"));
        }
        bar.inc(1);
        done.lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(Done {
                file: *f,
                index: *i,
                check,
            });
        saver.maybe_save(false)
    };
    let result = run_parallel(&jobs, args.workers(), work, finish);
    bar.finish_and_clear();
    saver.maybe_save(true)?;
    result?;

    let mut done = done
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    done.sort_by_key(|d| (d.file, d.index));
    let mut tally: HashMap<TheoryStatus, usize> = HashMap::new();
    let mut times = Vec::new();
    let mut cpu_times = Vec::new();
    for d in &done {
        *tally.entry(d.check.status).or_default() += 1;
        if d.check.score.is_some() && !d.check.cached {
            times.push(d.check.seconds);
            cpu_times.extend(d.check.cpu_seconds);
        }
        if json {
            let file = &files[d.file];
            let g = file.get(d.index).expect("selected index");
            let names = &inputs[d.file].names;
            let key = key_of(d.file, d.index);
            let record = GameRecord {
                key: &key,
                year: file.header().year,
                black: names.get(g.black().into()),
                white: names.get(g.white().into()),
                check: &d.check,
            };
            serde_json::to_writer(&mut *out, &record)?;
            writeln!(out)?;
        } else if d.check.status != TheoryStatus::Ok {
            let file = &files[d.file];
            let g = file.get(d.index).expect("selected index");
            let names = &inputs[d.file].names;
            writeln!(
                out,
                "{}: record {} ({}): {} vs {}: {}",
                inputs[d.file].path.display(),
                d.index,
                file.header().year,
                names.get(g.black().into()),
                names.get(g.white().into()),
                describe(&d.check)
            )?;
        }
    }
    let n = |s| tally.get(&s).copied().unwrap_or(0);
    let findings = n(TheoryStatus::Mismatch)
        + n(TheoryStatus::Impossible)
        + n(TheoryStatus::Illegal)
        + n(TheoryStatus::Unavailable);
    let code = if failed || (strict && findings > 0) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    };
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

/// One finding in words.
fn describe(c: &TheoryCheck) -> String {
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
            "impossible stored value {} (> 64), solved {} ({})",
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
