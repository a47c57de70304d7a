//! `wthor validate --solve`: the theoretical score of every game (or of a
//! sample, or a shard) checked with the exact solver.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::Reads;
use wthor_db::cache::SolveCache;
use wthor_db::verify::{
    Job, Run, RunOptions, Shard, TheoryCheck, TheoryLine, TheoryStatus, TheoryTally, Workers,
    check_game, parse_inputs, read_inputs,
};
use wthor_format::{BoardSize, FileKind, GameView, WthorFile};

use super::{Bar, OtherKind, check, say_input_errors, solvers};
use crate::cpu_time::thread_cpu_seconds;
use crate::textfmt::count;

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
    /// Games solved in parallel, each by a one-thread solver (1 to 256;
    /// default: all cores).
    #[arg(long, value_name = "N", requires = "solve", value_parser = crate::limits::parse_threads)]
    pub(crate) threads: Option<usize>,
    /// Solve one game at a time with a parallel solver of --threads
    /// threads instead (slower on 2 cores: 3.7 s against 2.4 s for six
    /// FFO positions).
    #[arg(long, requires = "solve")]
    pub(crate) parallel_solver: bool,
    /// Transposition table of each solver: 2^BITS entries of 32 bytes (two
    /// 24-byte entries share a 64-byte bucket); BITS from 4 to 32, the
    /// tables of all workers within the machine's memory.
    #[arg(long, value_name = "BITS", default_value_t = 22, requires = "solve", value_parser = crate::limits::parse_tt_bits)]
    pub(crate) tt_bits: u32,
}

impl SolveArgs {
    fn workers(&self) -> Workers {
        if self.parallel_solver {
            Workers::one_solver(self.threads, self.tt_bits)
        } else {
            Workers::new(self.threads, self.tt_bits)
        }
    }
}

/// The game files among `paths` (directories stand for the game files
/// inside them, with `recursive` of their subdirectories too), in order.
///
/// # Errors
/// A directory that cannot be listed, or holds no game file (a folder of
/// puzzles is checked by `wthor puzzles --verify`).
fn game_paths(paths: &[PathBuf], recursive: bool) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let files = match wthor_db::list_folder(path, recursive, Reads::Games) {
                Err(e @ wthor_db::Error::NoGameFiles { .. })
                    if wthor_db::list_folder(path, recursive, Reads::Puzzles).is_ok() =>
                {
                    return Err(anyhow::anyhow!(
                        "{e}; its puzzles are checked by wthor puzzles --verify"
                    ));
                }
                Err(e @ wthor_db::Error::NoGameFiles { .. }) => return Err(e.into()),
                other => other.with_context(|| format!("{}: cannot list", path.display()))?,
            };
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

/// The words and JSON of a [`TheoryTally`]: the report of `validate
/// --solve` and of `wthor results`.
pub(crate) trait TallyWords {
    /// The counts and times as the `summary` object of `--json`.
    fn to_json(&self) -> serde_json::Value;
    /// The counts in words, after `what` ("theoretical scores: 9 games
    /// checked: …"), without the line's end.
    fn write_counts(&self, out: &mut dyn Write, what: &str) -> std::io::Result<()>;
    /// The time lines, when games were solved.
    fn write_times(&self, out: &mut dyn Write) -> std::io::Result<()>;
}

impl TallyWords for TheoryTally {
    fn to_json(&self) -> serde_json::Value {
        let (wall, cpu) = self.times();
        serde_json::json!({
            "checked": self.checked(),
            "ok": self.n(TheoryStatus::Ok),
            "mismatches": self.n(TheoryStatus::Mismatch),
            "impossible": self.n(TheoryStatus::Impossible),
            "short": self.n(TheoryStatus::Short),
            "illegal": self.n(TheoryStatus::Illegal),
            "unavailable": self.n(TheoryStatus::Unavailable),
            "median_seconds": wall.map(|m| m.0),
            "p90_seconds": wall.map(|m| m.1),
            "median_cpu_seconds": cpu.map(|m| m.0),
            "p90_cpu_seconds": cpu.map(|m| m.1),
        })
    }

    fn write_counts(&self, out: &mut dyn Write, what: &str) -> std::io::Result<()> {
        write!(
            out,
            "{what}: {} checked: {} ok, {}, {} impossible, {} short, {} illegal, {} unavailable",
            count(self.checked(), "game", "games"),
            self.n(TheoryStatus::Ok),
            count(self.n(TheoryStatus::Mismatch), "mismatch", "mismatches"),
            self.n(TheoryStatus::Impossible),
            self.n(TheoryStatus::Short),
            self.n(TheoryStatus::Illegal),
            self.n(TheoryStatus::Unavailable),
        )
    }

    fn write_times(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (wall, cpu) = self.times();
        if let Some((median, p90)) = wall {
            writeln!(
                out,
                "solve time per game: median {median:.3} s, 90th percentile {p90:.3} s ({} solved)",
                self.solved()
            )?;
        }
        if let Some((median, p90)) = cpu {
            writeln!(
                out,
                "on-CPU time per game: median {median:.3} s, 90th percentile {p90:.3} s"
            )?;
        }
        Ok(())
    }
}

/// `wthor validate --solve PATH...`: checks the theoretical score of every
/// game (or of the sample/shard) and prints the findings and a summary
/// (with `json`, one JSON object per checked game, as in the results file,
/// then `{"summary": {...}}`). Games already in the results log are not
/// checked again but count in the report, which says how many were checked
/// now.
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
    let (inputs, mut errors) = read_inputs(game_paths(paths, recursive)?);
    let (files, unparsed) = parse_inputs(&inputs, FileKind::from_path, |parsed| match parsed {
        WthorFile::Games(g) => Some(g),
        _ => None,
    });
    errors.extend(unparsed);
    let failed = say_input_errors(&errors, OtherKind::Skip("not games: skipped by --solve"));
    let candidates: Vec<Vec<(usize, GameView<'_>)>> = files
        .iter()
        .map(|f| f.file.games().enumerate().collect())
        .collect();
    let is_finding = |check: &TheoryCheck| {
        check.status != TheoryStatus::Ok && check.status != TheoryStatus::Short
    };
    let bar = Bar {
        unreadable: Some((
            "is not a theoretical-score result",
            "are not theoretical-score results",
        )),
        ..Bar::new("games", "findings", &is_finding)
    };
    let run = Run::prepare(
        &candidates,
        |f, index, game: GameView<'_>| files[f].key(index, game.moves_raw()),
        RunOptions {
            sample: args.sample.map(|n| (n, args.seed)),
            shard: args.shard,
            results: args.results.as_deref(),
            cache: args.cache.as_deref(),
            ..RunOptions::new(crate::interrupt::flag())
        },
        &bar,
    )?;
    let work = |job: &Job<GameView<'_>>, solver: &mut _, cache: Option<&SolveCache>| {
        let file = &files[job.file].file;
        let cpu0 = thread_cpu_seconds();
        let mut check = check_game(file, &job.record, solver, cache);
        // 8x8 by one-thread solvers only: a parallel solver's other
        // threads are not counted by this thread's clock.
        if file.board_size() == BoardSize::Eight
            && check.score.is_some()
            && !check.cached
            && !args.parallel_solver
        {
            check.cpu_seconds = cpu0.zip(thread_cpu_seconds()).map(|(a, b)| b - a);
        }
        check
    };
    let solvers = solvers(args.workers(), run.todo().len())?;
    let checked = check(
        run,
        solvers,
        work,
        |job, check| serde_json::to_value(TheoryLine::new(&files[job.file], job, check)),
        &bar,
    )?;
    let skipped = checked.already_done;
    let solved_now = checked.done.len();
    let mut done = checked.done;
    done.extend(checked.logged);
    done.sort_by_key(|(job, _)| (job.file, job.index));

    let mut tally = TheoryTally::default();
    for (job, check) in &done {
        tally.add(check);
        if json {
            serde_json::to_writer(&mut *out, &TheoryLine::new(&files[job.file], job, check))?;
            writeln!(out)?;
        } else if check.status != TheoryStatus::Ok {
            let loaded = &files[job.file];
            writeln!(
                out,
                "{}: record {} ({}): {} vs {}: {}",
                loaded.path.display(),
                job.index,
                loaded.file.header().year,
                loaded.names.get(job.record.black().into()),
                loaded.names.get(job.record.white().into()),
                describe(check, loaded.file.board_size())
            )?;
        }
    }
    let code = if checked.stopped {
        ExitCode::from(crate::interrupt::INTERRUPTED)
    } else {
        crate::commands::exit_code(failed, strict && tally.findings() > 0)
    };
    if checked.stopped {
        super::say_interrupted(
            solved_now,
            "games",
            &[args.results.as_deref(), args.cache.as_deref()],
            "--results FILE and --cache FILE keep them",
        );
    }
    if json {
        let mut summary = tally.to_json();
        summary["already_done"] = skipped.into();
        serde_json::to_writer(&mut *out, &serde_json::json!({ "summary": summary }))?;
        writeln!(out)?;
        return Ok(code);
    }
    tally.write_counts(out, "theoretical scores")?;
    if skipped > 0 {
        write!(
            out,
            "; {solved_now} checked now, {skipped} already in the results file"
        )?;
    }
    writeln!(out)?;
    tally.write_times(out)?;
    if let Some(c) = &checked.cache {
        let (hits, misses, added) = c.stats();
        writeln!(
            out,
            "cache: {}, {}, {added} added, {}",
            count(hits, "hit", "hits"),
            count(misses, "miss", "misses"),
            count(c.len(), "position", "positions")
        )?;
    }
    Ok(code)
}

/// One finding in words, on a board of `size`.
fn describe(c: &TheoryCheck, size: BoardSize) -> String {
    let squares = size.squares();
    let at = || {
        format!(
            "{}, {} to move, exact score {:+}{}",
            count(c.depth, "empty", "empties"),
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
            "{} after {}, before {}; stored {}, final score {}",
            if c.finished == Some(true) {
                "the game ends"
            } else {
                "the record stops"
            },
            count(c.moves, "move", "moves"),
            count(c.depth, "empty", "empties"),
            c.stored,
            c.final_score.unwrap_or(0)
        ),
        TheoryStatus::Illegal => format!(
            "move {} is illegal, before {}; stored {}",
            c.illegal_move.map_or(0, |m| m + 1),
            count(c.depth, "empty", "empties"),
            c.stored
        ),
        TheoryStatus::Unavailable => format!(
            "10x10 solving unavailable at {} (the generic solver goes to {}); stored {} not checked",
            count(c.depth, "empty", "empties"),
            wthor_db::verify::MAX_10X10_EMPTIES,
            c.stored
        ),
    }
}
