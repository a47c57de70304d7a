//! `wthor puzzles FILE.pzz...`: list solitaire puzzles, or verify them with
//! the exact solver (`--verify`).
//!
//! The list gives, per puzzle, its index (from 0), the year and players of
//! its game (names from the players file beside the puzzles, e.g.
//! `Solitaires.jou`), the empties, the side to move, and the stored first
//! move and score.
//!
//! `--verify` checks, per puzzle: the position decodes (2-bit squares, side
//! to move 1 or 2), the stored empties count is the board's, the stored
//! score and first move are the solver's, and the defining property: the
//! side to move has exactly one winning move (exactly one drawing move when
//! the best is a draw). Puzzles with problems are listed with their index
//! and what is wrong, then counts. `--results`, `--shard` and the progress
//! bar work as for `wthor validate --solve`.
//!
//! Exit code: 0 when every file could be read; 2 when one could not or is
//! not a solitaire file (reported on stderr, the others still done); else
//! 1 with `--strict` when a puzzle has a problem.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use serde::Serialize;
use wthor_db::verify::{
    PuzzleCheck, PuzzleLine, Run, RunOptions, Shard, Workers, check_puzzle, median_p90,
    parse_inputs, read_inputs,
};
use wthor_format::{FileKind, PuzzleView, WthorFile};

use crate::textfmt::count;

use crate::verify::{Bar, OtherKind, check, say_input_errors, solvers};

/// Arguments of `wthor puzzles`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Solitaire files (`.pzz`), or directories (their `.pzz` files).
    #[arg(required = true, value_name = "FILE.pzz")]
    paths: Vec<PathBuf>,
    /// Verify every puzzle with the exact solver instead of listing.
    #[arg(long)]
    verify: bool,
    /// Only puzzles with at most N empty squares.
    #[arg(long, value_name = "N")]
    max_empties: Option<u8>,
    /// Print one JSON object per puzzle (JSON Lines).
    #[arg(long)]
    json: bool,
    /// With --verify: check only shard K of N (the i-th selected puzzle,
    /// from 0, goes to shard i mod N + 1).
    #[arg(long, value_name = "K/N", requires = "verify")]
    shard: Option<Shard>,
    /// With --verify: append one JSON object per verified puzzle to FILE;
    /// puzzles already there are skipped (resume).
    #[arg(long, value_name = "FILE.jsonl", requires = "verify")]
    results: Option<PathBuf>,
    /// With --verify: puzzles solved in parallel (1 to 256; default: all
    /// cores).
    #[arg(long, value_name = "N", requires = "verify", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
    /// With --verify: transposition table of 2^BITS entries per solver (BITS
    /// from 4 to 32, the tables within the machine's memory).
    #[arg(long, value_name = "BITS", default_value_t = 20, requires = "verify", value_parser = crate::limits::parse_tt_bits)]
    tt_bits: u32,
    /// Exit 1 when a puzzle does not verify.
    #[arg(long, requires = "verify")]
    strict: bool,
}

/// One puzzle as listed with `--json`.
#[derive(Debug, Serialize)]
struct Listed {
    file: String,
    index: usize,
    year: u16,
    black: String,
    white: String,
    empties: u8,
    side: String,
    first_move: String,
    score: i8,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let (inputs, mut errors) = read_inputs(expand(&args.paths)?);
    let (files, unparsed) = parse_inputs(
        &inputs,
        |_| Some(FileKind::Solitaires),
        |parsed| match parsed {
            WthorFile::Solitaires(s) => Some(s),
            _ => None,
        },
    );
    errors.extend(unparsed);
    let failed = say_input_errors(&errors, OtherKind::Refuse("not solitaires"));
    // Every puzzle of the inputs within --max-empties, in input order.
    let wanted: Vec<Vec<(usize, PuzzleView<'_>)>> = files
        .iter()
        .map(|f| {
            f.file
                .puzzles()
                .enumerate()
                .filter(|(_, p)| args.max_empties.is_none_or(|m| p.empties() <= m))
                .collect()
        })
        .collect();
    let side = |b: u8| match b {
        1 => "black".to_owned(),
        2 => "white".to_owned(),
        other => format!("side {other}"),
    };
    let file_name = |f: usize| {
        let path = files[f].path;
        path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        )
    };

    if !args.verify {
        for (f, list) in wanted.iter().enumerate() {
            for &(i, p) in list {
                let names = &files[f].names;
                let listed = Listed {
                    file: file_name(f),
                    index: i,
                    year: p.year(),
                    black: names.get(p.black() as usize),
                    white: names.get(p.white() as usize),
                    empties: p.empties(),
                    side: side(p.side_to_move()),
                    first_move: p
                        .first_move()
                        .map_or_else(|| format!("byte {}", p.first_move_raw()), |s| s.to_string()),
                    score: p.score(),
                };
                if args.json {
                    serde_json::to_writer(&mut *out, &listed)?;
                    writeln!(out)?;
                } else {
                    writeln!(
                        out,
                        "{} {:>5} {} {} vs {}: {}, {} to move, {} {:+}",
                        listed.file,
                        listed.index,
                        listed.year,
                        listed.black,
                        listed.white,
                        count(listed.empties, "empty", "empties"),
                        listed.side,
                        listed.first_move,
                        listed.score
                    )?;
                }
            }
        }
        return Ok(super::exit_code(failed, false));
    }

    let is_finding = |check: &PuzzleCheck| !check.ok;
    let bar = Bar::new("puzzles", "with problems", &is_finding);
    let run = Run::prepare(
        &wanted,
        |f, index, p: PuzzleView<'_>| files[f].key(index, p.as_bytes()),
        RunOptions {
            shard: args.shard,
            results: args.results.as_deref(),
            ..RunOptions::new(crate::interrupt::flag())
        },
        &bar,
    )?;
    let solvers = solvers(Workers::new(args.threads, args.tt_bits), run.todo().len())?;
    let checked = check(
        run,
        solvers,
        |job, solver, _| check_puzzle(&job.record, solver),
        |job, check| serde_json::to_value(PuzzleLine::new(&files[job.file], job, check)),
        &bar,
    )?;
    let skipped = checked.already_done;
    let done = checked.done;

    let mut times = Vec::new();
    let mut problems = 0;
    // Puzzles whose only problem is a stored score that fits a count
    // without the empties.
    let mut uncounted = 0;
    for (job, check) in &done {
        times.push(check.seconds);
        if args.json {
            serde_json::to_writer(&mut *out, &PuzzleLine::new(&files[job.file], job, check))?;
            writeln!(out)?;
        }
        if check.ok {
            continue;
        }
        problems += 1;
        uncounted += usize::from(check.empties_uncounted && check.problems.len() == 1);
        if !args.json {
            let names = &files[job.file].names;
            let p = job.record;
            writeln!(
                out,
                "{}: puzzle {} ({}, {} vs {}): {}",
                files[job.file].path.display(),
                job.index,
                p.year(),
                names.get(p.black() as usize),
                names.get(p.white() as usize),
                check.problems.join("; ")
            )?;
        }
    }
    if !args.json {
        write!(
            out,
            "puzzles: {} verified: {} ok, {} with problems ({} of them only a stored score that fits a disc count without the empties)",
            done.len(),
            done.len() - problems,
            problems,
            uncounted
        )?;
        if skipped > 0 {
            write!(out, "; {skipped} already in the results file")?;
        }
        writeln!(out)?;
        if let Some((median, p90)) = median_p90(&mut times) {
            writeln!(
                out,
                "time per puzzle: median {:.3} ms, 90th percentile {:.3} ms",
                median * 1e3,
                p90 * 1e3
            )?;
        }
    }
    if checked.stopped {
        crate::verify::say_interrupted(
            done.len(),
            "puzzles",
            &[args.results.as_deref()],
            "--results FILE keeps them",
        );
        return Ok(ExitCode::from(crate::interrupt::INTERRUPTED));
    }
    Ok(super::exit_code(failed, args.strict && problems > 0))
}

/// Files as given; a directory stands for its `.pzz` files, by name.
///
/// # Errors
/// A directory that cannot be listed, or holds no puzzle file.
fn expand(paths: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let files = match wthor_db::list_folder(path, false, wthor_db::Reads::Puzzles) {
                Err(e @ wthor_db::Error::NoFilesToRead { .. }) => return Err(e.into()),
                other => other.with_context(|| format!("{}: cannot list", path.display()))?,
            };
            out.extend(
                files
                    .into_iter()
                    .filter(|p| FileKind::from_path(p) == Some(FileKind::Solitaires)),
            );
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}
