//! `wthor import INPUT... --into DIR`: games from text or WTHOR files added
//! to a WTHOR directory. The pipeline is [`wthor_db::import`]'s (its rules,
//! and the steps this command calls in turn: read and prepare, notes,
//! plan, finish); the inputs are read by [`crate::textfmt::read`]. This
//! module parses the arguments and prints what the library returns.
//!
//! Every game is replayed first; an unreadable line or an illegal game is
//! reported with its input line and move, and nothing is written unless
//! `--skip-illegal` (then the others are imported). Odd records (a result
//! the moves contradict, a game that stops while moves remain, the same
//! moves twice) are reported as notes and imported; a game the directory
//! already holds, or given twice, is left out and listed unless
//! `--keep-duplicates`. A damaged WTHOR input (cut inside a record, a
//! header count above its records) is read up to its last whole record
//! with a warning on stderr, refused with `--strict`; numbers without a
//! name in its names files are imported as `?`, with a warning. The plan (names added,
//! files created or appended) is printed; `--dry-run` stops there. Then the
//! theoretical scores are solved (a progress bar when stderr is a
//! terminal; the cache saved every minute) and the files written, each
//! atomically, the directory created then if missing. Ctrl-C or SIGTERM
//! while solving stops after the games being solved, saves the cache and
//! writes nothing (exit 130): the same command resumes from the cache.
//! Exit 1 when games were rejected.

use std::io::{IsTerminal as _, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::import::{
    self, FinishError, Gathered, ImportObserver, ImportOptions, ImportOutcome, ImportRun, Plan,
    Progress, RunError,
};
use wthor_format::CreationDate;

use crate::textfmt::count;
use crate::textfmt::read::NamesFiles;
use crate::verify::progress;

/// Arguments of `wthor import`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::IMPORT)]
pub(crate) struct Args {
    /// Inputs: transcripts (.txt, .gam), GGF (.ggf), CSV, JSON Lines, WTHOR
    /// game files (.wtb).
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The WTHOR directory to add the games to (created if missing).
    #[arg(long, value_name = "DIR")]
    into: PathBuf,
    /// The year of every game (default: the game's own, else this year).
    #[arg(long, value_name = "Y")]
    year: Option<u16>,
    /// The tournament of every game (default: the game's own, else the
    /// input file's name).
    #[arg(long, value_name = "NAME")]
    tournament: Option<String>,
    /// Empty squares of the theoretical scores of new files (existing
    /// files keep theirs).
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u8).range(1..=60))]
    depth: u8,
    /// Import the other games when some are illegal or unreadable.
    #[arg(long)]
    skip_illegal: bool,
    /// Print what would change, write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Import games the directory already holds (the same year,
    /// tournament, players and moves), and the same game given twice.
    /// Without it they are left out and listed.
    #[arg(long)]
    keep_duplicates: bool,
    /// Solver threads (1 to 256; default: the cores available).
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
    /// Solved-position cache, loaded first and saved at the end.
    #[arg(long, value_name = "FILE")]
    cache: Option<PathBuf>,
    /// At most this many games from each input.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Players file of WTHOR inputs (default: beside the input).
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    /// Tournaments file of WTHOR inputs (default: beside the input).
    #[arg(long, value_name = "FILE")]
    tournaments: Option<PathBuf>,
    /// Refuse damaged WTHOR inputs (cut inside a record, a header count
    /// above its records, any format warning): nothing is written, exit 1.
    /// Without it their whole records are imported, with a warning.
    #[arg(long)]
    strict: bool,
    /// Encoding of the names files, inputs and DIR (WHATWG label; default
    /// windows-1252).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Creation date written in the files changed (default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = import::parse_date)]
    date: Option<CreationDate>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let encoding = match &args.encoding {
        Some(label) => wthor_format::encoding_for_label(label)
            .with_context(|| format!("--encoding {label}"))?,
        None => wthor_format::WINDOWS_1252,
    };
    let names = NamesFiles {
        players: args.players.clone(),
        tournaments: args.tournaments.clone(),
        encoding: args.encoding.clone(),
    };
    let options = ImportOptions {
        year: args.year,
        tournament: args.tournament.clone(),
        depth: args.depth,
        encoding,
        keep_duplicates: args.keep_duplicates,
        ..ImportOptions::new(args.date.unwrap_or_else(import::today))
    };
    let request = ImportRun {
        inputs: &args.inputs,
        into: &args.into,
        names,
        limit: args.limit,
        skip_illegal: args.skip_illegal,
        dry_run: args.dry_run,
        options,
        threads: args.threads,
        cache: args.cache.as_deref(),
        stop: crate::interrupt::flag(),
    };
    let bar = std::sync::Arc::new(std::sync::OnceLock::new());
    let mut printer = Printer {
        out,
        dry_run: args.dry_run,
        rejected: false,
        strict: args.strict,
        damaged: false,
        failed: None,
        bar: bar.clone(),
        games: 0,
    };
    let outcome = {
        let _armed = (!args.dry_run).then(crate::interrupt::arm);
        let outcome = import::run(&request, &mut printer, &|p| {
            let Some(bar) = bar.get() else { return };
            match p {
                Progress::Solved => bar.inc(1),
                Progress::CacheNotSaved(e) => {
                    bar.suspend(|| eprintln!("wthor: warning: {}", wthor_db::error_chain(e)));
                }
                _ => {}
            }
        });
        if let Some(bar) = bar.get() {
            bar.finish_and_clear();
        }
        outcome
    };
    if let Some(e) = printer.failed.take() {
        return Err(e.into());
    }
    let refused = args.strict && printer.damaged;
    let code = if printer.rejected || refused {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    let games = printer.games;
    let out = printer.out;
    match outcome {
        Ok(ImportOutcome::Blocked) if refused => {
            writeln!(
                out,
                "nothing written: damaged WTHOR input (--strict refuses it; without it, its \
                 whole records are imported)"
            )?;
            return Ok(code);
        }
        Ok(ImportOutcome::Blocked) => {
            writeln!(
                out,
                "nothing written: fix or drop the rejected games, or give --skip-illegal"
            )?;
            return Ok(code);
        }
        Ok(ImportOutcome::DryRun) => return Ok(code),
        Ok(ImportOutcome::NothingToWrite) => {
            writeln!(out, "nothing to write")?;
            return Ok(code);
        }
        Ok(_) => {}
        Err(RunError::Finish(FinishError::Stopped(stopped))) => {
            crate::verify::say_interrupted(
                stopped.solved,
                &format!("of {}", count(stopped.total, "game", "games")),
                &[args.cache.as_deref()],
                "--cache FILE keeps them",
            );
            eprintln!("wthor: nothing written to {}", args.into.display());
            return Ok(ExitCode::from(crate::interrupt::INTERRUPTED));
        }
        Err(e) => return Err(e.into()),
    }
    if std::io::stderr().is_terminal() {
        eprintln!("wthor: {} imported", count(games, "game", "games"));
    }
    writeln!(out, "written")?;
    Ok(code)
}

/// What `wthor import` prints of each step: the rejected games and notes,
/// the plan, a progress bar while solving.
struct Printer<'o> {
    out: &'o mut dyn Write,
    dry_run: bool,
    /// Games were rejected (exit 1).
    rejected: bool,
    /// `--strict`: a damaged WTHOR input stops the import.
    strict: bool,
    /// A WTHOR input had a format warning (exit 1 with `--strict`).
    damaged: bool,
    /// The first write that failed.
    failed: Option<std::io::Error>,
    /// The solving's progress bar, made once the games to solve are known.
    bar: std::sync::Arc<std::sync::OnceLock<indicatif::ProgressBar>>,
    /// The games planned.
    games: usize,
}

impl Printer<'_> {
    fn print(&mut self, f: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>) {
        if self.failed.is_none()
            && let Err(e) = f(self.out)
        {
            self.failed = Some(match e.downcast::<std::io::Error>() {
                Ok(io) => io,
                Err(e) => std::io::Error::other(e.to_string()),
            });
        }
    }
}

impl ImportObserver for Printer<'_> {
    fn gathered(&mut self, gathered: &Gathered, notes: &[String]) {
        self.rejected = !gathered.rejected.is_empty();
        self.damaged = gathered.damaged();
        for w in &gathered.warnings {
            eprintln!("wthor: warning: {w}");
        }
        self.print(|out| {
            for r in &gathered.rejected {
                writeln!(out, "rejected: {r}")?;
            }
            for n in notes {
                writeln!(out, "note: {n}")?;
            }
            writeln!(
                out,
                "{} read: {} to import, {} rejected, {}",
                count(gathered.read, "game", "games"),
                gathered.games.len(),
                gathered.rejected.len(),
                count(notes.len(), "note", "notes")
            )?;
            Ok(())
        });
    }

    fn stop_after_reading(&mut self, gathered: &Gathered) -> bool {
        self.strict && gathered.damaged()
    }

    fn planned(&mut self, plan: &Plan) {
        let dry_run = self.dry_run;
        self.print(|out| {
            print_duplicates(plan, out)?;
            print_plan(plan, dry_run, out)?;
            out.flush()?;
            Ok(())
        });
        self.games = plan.games.len();
        if !dry_run && !plan.games.is_empty() {
            let _ = self.bar.set(progress(plan.games.len(), "games solved"));
        }
    }

    fn cache_note(&mut self, note: &str) {
        eprintln!("wthor: warning: {note}");
    }
}

/// The games left out as already there, and how many.
fn print_duplicates(plan: &Plan, out: &mut dyn Write) -> anyhow::Result<()> {
    for d in &plan.duplicates {
        writeln!(out, "duplicate: {d}")?;
    }
    if !plan.duplicates.is_empty() {
        writeln!(
            out,
            "{} left out as already there (--keep-duplicates imports them)",
            count(plan.duplicates.len(), "game", "games")
        )?;
    }
    Ok(())
}

fn name_list(names: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut s: Vec<String> = names.iter().take(SHOWN).map(|n| format!("{n:?}")).collect();
    if names.len() > SHOWN {
        s.push(format!("… ({} more)", names.len() - SHOWN));
    }
    s.join(", ")
}

fn print_plan(plan: &Plan, dry_run: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let verb = if dry_run { "would" } else { "will" };
    for n in [&plan.players, &plan.tournaments] {
        let what = match n.kind {
            wthor_format::NameKind::Players => "players",
            wthor_format::NameKind::Tournaments => "tournaments",
        };
        let state = if n.existed { "" } else { " (new file)" };
        write!(
            out,
            "{}{state}: {} {what}, {verb} add {}",
            n.path.display(),
            n.before,
            n.added.len()
        )?;
        if n.added.is_empty() {
            writeln!(out)?;
        } else {
            writeln!(out, ": {}", name_list(&n.added))?;
        }
        for (given, stored) in &n.shortened {
            writeln!(out, "  name {given:?} stored as {stored:?} (field width)")?;
        }
    }
    for f in &plan.files {
        let state = if f.existed {
            format!(
                "{}, {verb} append {}",
                count(f.before, "game", "games"),
                f.added
            )
        } else {
            format!("new file, {verb} hold {}", count(f.added, "game", "games"))
        };
        writeln!(
            out,
            "{}: {state}, theoretical scores at {}",
            f.path.display(),
            count(f.depth, "empty", "empties")
        )?;
    }
    writeln!(out, "creation date {}", plan.created)?;
    Ok(())
}
