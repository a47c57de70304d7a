//! `wthor analyze GAME [--empties N] [--format table|jsonl]`: every move of
//! an 8x8 game judged ([`wthor_db::analysis`]): exactly from N empty
//! squares (20 by default) to the end, estimated by the evaluation before.
//!
//! The table has a row per move: its number and side, the square, the
//! empties before it, the value of the position for black before the move
//! (`~` marks an estimate), the discs the move lost for its player, the
//! best moves when it lost some, and a bar of black's value (the game's
//! graph, from -64 on the left to +64 on the right); then the stored
//! theoretical score checked (when the analysis reaches its depth) and the
//! mistakes, largest first. `--format jsonl` writes the whole analysis as
//! one JSON object. Exit 1 when the stored theoretical score is wrong or
//! the game has an illegal move.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::solver::{Solver, SolverOptions};
use serde::Serialize;
use wthor_db::analysis::{Analysis, AnalysisError, AnalysisOptions, Ending, Judged};
use wthor_db::verify::TheoryStatus;

use crate::game::{GameArg, open_game};

/// Arguments of `wthor analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  wthor analyze testdata/WTH_2001.wtb 3
  wthor analyze 2001:3 --db testdata --empties 16
  wthor analyze testdata/WTH_2002.wtb 4 --format jsonl

Exit status: 0 ok, 1 the stored theoretical score is wrong or a move is illegal,
2 usage or I/O error (a 10x10 game: there is no 10x10 endgame solver).")]
pub(crate) struct Args {
    #[command(flatten)]
    game: GameArg,
    /// Solve exactly from this many empty squares to the end (each more
    /// doubles the time: about 0.1 s a game at 20, seconds at 24).
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=30))]
    empties: u8,
    /// Plies of the evaluation search that estimates the earlier moves.
    #[arg(long, default_value_t = 4, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=8))]
    estimate_depth: u32,
    /// Output: a table with a graph, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Solver threads (default: the cores available).
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
}

/// The output of `wthor analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Moves, values, losses and a graph; then the theoretical score and
    /// the mistakes.
    Table,
    /// One JSON object: the game, the options and the analysis.
    Jsonl,
}

/// The JSON object of `--format jsonl`.
#[derive(Serialize)]
struct Report<'a> {
    game: &'a str,
    empties: u8,
    estimate_depth: u32,
    #[serde(flatten)]
    analysis: &'a Analysis,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let (db, id) = open_game(&args.game.game, args.game.index, &args.game.db)?;
    let name = db.game_name(id).to_string();
    let game = db.game(id).expect("a game of the database");
    let depth = db.file_of(id).expect("its file").header().depth();
    let options = AnalysisOptions {
        empties: args.empties,
        estimate_depth: args.estimate_depth,
    };
    let threads = args.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    let mut solver = Solver::try_new(SolverOptions {
        threads,
        tt_bits: 21,
    })
    .context("cannot make the solver")?;
    let analysis = match wthor_db::analysis::analyze_game(&game, depth, &options, &mut solver) {
        Ok(a) => a,
        Err(e @ AnalysisError::Illegal(_)) => {
            writeln!(out, "{name}: {e}: not analysed")?;
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(anyhow::anyhow!("{name}: {e}")),
    };
    match args.format {
        Format::Jsonl => {
            let report = Report {
                game: &name,
                empties: args.empties,
                estimate_depth: args.estimate_depth,
                analysis: &analysis,
            };
            serde_json::to_writer(&mut *out, &report)?;
            writeln!(out)?;
        }
        Format::Table => write_table(&name, &analysis, &options, out)?,
    }
    let wrong = analysis
        .theoretical
        .as_ref()
        .is_some_and(|t| matches!(t.status, TheoryStatus::Mismatch | TheoryStatus::Impossible));
    Ok(if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A signed value, `~` after it when estimated.
fn value(v: i32, exact: bool) -> String {
    format!("{v:+}{}", if exact { "" } else { "~" })
}

/// Black's value as a bar: `|` at 0, `#` towards black (right) or white
/// (left), 16 characters a side for 64 discs.
fn bar(v: i32) -> String {
    const SIDE: i32 = 16;
    let n = ((v.abs() * SIDE + 32) / 64).min(SIDE) as usize;
    let side = SIDE as usize;
    if v < 0 {
        format!(
            "{}{}|{}",
            " ".repeat(side - n),
            "#".repeat(n),
            " ".repeat(side)
        )
    } else {
        format!(
            "{}|{}{}",
            " ".repeat(side),
            "#".repeat(n),
            " ".repeat(side - n)
        )
    }
}

fn best(j: &Judged) -> String {
    j.best
        .iter()
        .map(|sq| sq.name(othello_core::Size::Eight).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_table(
    name: &str,
    a: &Analysis,
    options: &AnalysisOptions,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "game {name}: exact from {} empties, estimated before ({}-ply evaluation search, marked ~)",
        options.empties, options.estimate_depth
    )?;
    writeln!(
        out,
        "{:>4}  {:<5}  {:<4}  {:>4}  {:>6}  {:>4}  {:<12}  BLACK'S VALUE (-64 … +64)",
        "MOVE", "SIDE", "SQ", "EMPT", "BLACK", "LOSS", "BEST"
    )?;
    for j in &a.moves {
        let lost = if j.loss > 0 { best(j) } else { String::new() };
        let row = format!(
            "{:>4}  {:<5}  {:<4}  {:>4}  {:>6}  {:>4}  {:<12}  {}",
            j.index + 1,
            j.color.to_string(),
            j.square.name(othello_core::Size::Eight).to_string(),
            j.empties,
            value(j.black_value(), j.exact),
            j.loss,
            lost,
            bar(j.black_value()),
        );
        writeln!(out, "{}", row.trim_end())?;
    }
    let end = match a.ending {
        Ending::Finished => "game over",
        Ending::Unfinished => "the record stops while moves remain",
    };
    writeln!(out, "end: {end}, black {:+}", a.final_black)?;
    if let Some(t) = &a.theoretical {
        match t.solved {
            Some(solved) => writeln!(
                out,
                "theoretical score at {} empties: stored black {}, solved black {}: {}",
                t.depth,
                t.stored,
                solved,
                t.status.as_str()
            )?,
            None => writeln!(
                out,
                "theoretical score at {} empties: stored black {}: {}",
                t.depth,
                t.stored,
                t.status.as_str()
            )?,
        }
    }
    let mistakes = a.mistakes();
    if mistakes.is_empty() {
        writeln!(out, "mistakes: none")?;
    } else {
        writeln!(out, "mistakes (largest first):")?;
        for j in mistakes {
            writeln!(
                out,
                "  move {} ({} {}): {} discs lost{}, best {}",
                j.index + 1,
                j.color,
                j.square.name(othello_core::Size::Eight),
                j.loss,
                if j.exact { "" } else { " (estimate)" },
                best(j)
            )?;
        }
    }
    Ok(())
}
