//! `wthor import INPUT... --into DIR`: games from text or WTHOR files added
//! to a WTHOR directory (see [`wthor_db::import`] for the rules and
//! [`crate::textfmt::read`] for the inputs).
//!
//! Every game is replayed first; an unreadable line or an illegal game is
//! reported with its input line and move, and nothing is written unless
//! `--skip-illegal` (then the others are imported). Odd records (a result
//! the moves contradict, a game that stops while moves remain, the same
//! moves twice) are reported as notes and imported; a game the directory
//! already holds, or given twice, is left out and listed unless
//! `--keep-duplicates`. The plan (names added,
//! files created or appended) is printed; `--dry-run` stops there. Then the
//! theoretical scores are solved (a progress bar when stderr is a
//! terminal; the cache saved every minute) and the files written, each
//! atomically, the directory created then if missing. Ctrl-C or SIGTERM
//! while solving stops after the games being solved, saves the cache and
//! writes nothing (exit 130): the same command resumes from the cache.
//! Exit 1 when games were rejected.

use std::collections::HashMap;
use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context as _;
use rayon::prelude::*;
use wthor_db::import::{self, ImportOptions, Plan, Prepared};
use wthor_db::verify::Workers;
use wthor_format::CreationDate;

use crate::textfmt::read::{NamesFiles, read_input};
use crate::verify::{CacheSaver, load_cache, progress};

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
    /// Solver threads (1 or more; default: the cores available).
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
    /// Encoding of the names files, inputs and DIR (WHATWG label; default
    /// windows-1252).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Creation date written in the files changed (default: today, UTC).
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    date: Option<CreationDate>,
}

fn parse_date(text: &str) -> Result<CreationDate, String> {
    let bad = || format!("{text:?}: expected YYYY-MM-DD");
    let mut it = text.split('-').map(|p| p.parse::<u16>().map_err(|_| bad()));
    let (Some(y), Some(m), Some(d), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let (y, m, d) = (y?, m?, d?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=2555).contains(&y) {
        return Err(bad());
    }
    Ok(CreationDate {
        century: (y / 100) as u8,
        year: (y % 100) as u8,
        month: m as u8,
        day: d as u8,
    })
}

fn today() -> CreationDate {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    import::date_of_unix(i64::try_from(secs).unwrap_or(0))
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
    let mut incoming = Vec::new();
    let mut rejected: Vec<String> = Vec::new();
    for input in &args.inputs {
        let read = read_input(input, &names, args.limit)?;
        incoming.extend(read.games);
        for u in read.unreadable {
            rejected.push(format!("{}: {}", u.source, u.reason));
        }
    }
    let read = incoming.len() + rejected.len();
    let prepared: Vec<_> = incoming
        .into_par_iter()
        .map(|g| {
            let source = g.source.clone();
            import::prepare(g).map_err(|e| format!("{source}: {e}"))
        })
        .collect();
    let mut games: Vec<Prepared> = Vec::with_capacity(prepared.len());
    for p in prepared {
        match p {
            Ok(g) => games.push(g),
            Err(e) => rejected.push(e),
        }
    }
    let notes = notes(&games, args.keep_duplicates);
    for r in &rejected {
        writeln!(out, "rejected: {r}")?;
    }
    for n in &notes {
        writeln!(out, "note: {n}")?;
    }
    writeln!(
        out,
        "{read} games read: {} to import, {} rejected, {} notes",
        games.len(),
        rejected.len(),
        notes.len()
    )?;
    let code = if rejected.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    if !rejected.is_empty() && !args.skip_illegal {
        writeln!(
            out,
            "nothing written: fix or drop the rejected games, or give --skip-illegal"
        )?;
        return Ok(code);
    }
    let options = ImportOptions {
        year: args.year,
        tournament: args.tournament.clone(),
        default_tournament: "Import".to_owned(),
        depth: args.depth,
        created: args.date.unwrap_or_else(today),
        encoding,
        keep_duplicates: args.keep_duplicates,
    };
    let mut plan = if args.into.is_dir() {
        import::plan(&args.into, &games, &options)?
    } else {
        // A directory still to create: plan against an empty one.
        let empty = tempfile::tempdir()?;
        let mut plan = import::plan(empty.path(), &games, &options)?;
        rebase(&mut plan, empty.path(), &args.into);
        plan
    };
    print_duplicates(&plan, out)?;
    print_plan(&plan, args.dry_run, out)?;
    if args.dry_run {
        return Ok(code);
    }
    if plan.games.is_empty() {
        writeln!(out, "nothing to write")?;
        return Ok(code);
    }
    out.flush()?;
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let cache = load_cache(args.cache.as_deref())?;
    let saver = CacheSaver::new(cache.as_ref(), args.cache.as_deref());
    // Fail now, not after the solving, if the cache cannot be written.
    saver.maybe_save(true)?;
    let workers = Workers {
        workers: threads.max(1),
        solver_threads: 1,
        tt_bits: 20,
    };
    let solved = {
        let _armed = crate::interrupt::arm();
        let bar = progress(plan.games.len(), "games solved");
        let warned = AtomicBool::new(false);
        let solved = import::solve_theoretical(
            &mut plan,
            workers,
            cache.as_ref(),
            crate::interrupt::flag(),
            || {
                bar.inc(1);
                // Saved every minute: a killed run loses one minute at most.
                if let Err(e) = saver.maybe_save(false)
                    && !warned.swap(true, Ordering::Relaxed)
                {
                    bar.suspend(|| eprintln!("wthor: warning: {}", crate::error_line(&e.into())));
                }
            },
        );
        bar.finish_and_clear();
        solved
    };
    saver
        .maybe_save(true)
        .with_context(|| "cannot save the cache")?;
    if let Err(stopped) = solved {
        crate::verify::say_interrupted(
            stopped.solved,
            &format!("of {} games", stopped.total),
            &[args.cache.as_deref()],
            "--cache FILE keeps them",
        );
        eprintln!("wthor: nothing written to {}", args.into.display());
        return Ok(ExitCode::from(crate::interrupt::INTERRUPTED));
    }
    std::fs::create_dir_all(&args.into)
        .with_context(|| format!("{}: cannot create", args.into.display()))?;
    plan.write(encoding)?;
    if std::io::stderr().is_terminal() {
        eprintln!("wthor: {} games imported", plan.games.len());
    }
    writeln!(out, "written")?;
    Ok(code)
}

/// Paths planned in `from` moved to `to`.
fn rebase(plan: &mut Plan, from: &Path, to: &Path) {
    let fix = |p: &mut PathBuf| {
        if let Ok(rest) = p.strip_prefix(from) {
            *p = to.join(rest);
        }
    };
    fix(&mut plan.players.path);
    fix(&mut plan.tournaments.path);
    for f in &mut plan.files {
        fix(&mut f.path);
    }
}

/// Odd records: each game's note, and the same moves twice (unless the
/// whole game is the same: the plan leaves it out as a duplicate, unless
/// `keep_duplicates`).
fn notes(games: &[Prepared], keep_duplicates: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashMap<&[othello_core::Square], &Prepared> = HashMap::new();
    let same_game = |a: &Prepared, b: &Prepared| {
        (&a.black, &a.white, &a.tournament, a.year) == (&b.black, &b.white, &b.tournament, b.year)
    };
    for g in games {
        if let Some(n) = &g.note {
            out.push(format!("{}: {n}", g.source));
        }
        if let Some(first) = seen.insert(&g.squares, g) {
            if keep_duplicates || !same_game(first, g) {
                out.push(format!("{}: the same moves as {}", g.source, first.source));
            }
            seen.insert(&g.squares, first);
        }
    }
    out
}

/// The games left out as already there, and how many.
fn print_duplicates(plan: &Plan, out: &mut dyn Write) -> anyhow::Result<()> {
    for d in &plan.duplicates {
        match &d.holder {
            import::Holder::Stored(i) => writeln!(
                out,
                "duplicate: {}: already in {} (game {})",
                d.source,
                d.path.display(),
                i
            )?,
            import::Holder::Imported(first) => {
                writeln!(out, "duplicate: {}: the same game as {first}", d.source)?;
            }
        }
    }
    if !plan.duplicates.is_empty() {
        writeln!(
            out,
            "{} games left out as already there (--keep-duplicates imports them)",
            plan.duplicates.len()
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
            format!("{} games, {verb} append {}", f.before, f.added)
        } else {
            format!("new file, {verb} hold {} games", f.added)
        };
        writeln!(
            out,
            "{}: {state}, theoretical scores at {} empties",
            f.path.display(),
            f.depth
        )?;
    }
    writeln!(out, "creation date {}", plan.created)?;
    Ok(())
}
