//! The `wthor` command: inspect, convert, validate and solve WTHOR files.
//!
//! Only this crate prints. Each subcommand lives in its own module under
//! `commands/`, with its clap arguments and a `run` function that writes to
//! the given output and returns the process exit code.
//!
//! Exit codes: 0 when all went well, 1 for findings (illegal games,
//! mismatches, puzzles with problems, a warning under `--strict`), 2 for a
//! usage or I/O error (an argument clap or a command refuses, a file that
//! cannot be read or is not of the kind the command takes), 130 for a long
//! run stopped by Ctrl-C or SIGTERM after saving its work (see
//! `interrupt.rs`). A panic (101) is a bug.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser, Subcommand};

mod commands;
mod cpu_time;
mod db_args;
mod game;
mod help;
mod interrupt;
mod limits;
mod query_args;
mod textfmt;
mod verify;

/// Tools for the WTHOR Othello game database.
#[derive(Debug, Parser)]
#[command(
    name = "wthor",
    version,
    about,
    propagate_version = true,
    after_help = help::MAIN
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the kind, header fields, record count and warnings of WTHOR files.
    #[command(after_help = help::INFO)]
    Info(commands::info::Args),
    /// Parse a WTHOR file and write it again, or as text (format chosen by extension).
    #[command(after_help = help::CONVERT)]
    Convert(commands::convert::Args),
    /// Write the games of a database (all, or those the filters select) as text.
    Export(commands::export::Args),
    /// Add games from text or WTHOR files to a WTHOR directory.
    Import(commands::import::Args),
    /// Replay every game of WTHOR files and report what does not hold.
    #[command(after_help = help::VALIDATE)]
    Validate(commands::validate::Args),
    /// Count the leaves of the game tree from the start position.
    #[command(after_help = help::PERFT)]
    Perft(commands::perft::Args),
    /// List the named openings; with --db, the games reaching each.
    #[command(after_help = help::OPENINGS)]
    Openings(commands::openings::Args),
    /// Replay one game and print its positions.
    #[command(after_help = help::REPLAY)]
    Replay(commands::replay::Args),
    /// Solve a position exactly (up to 30 empties), or estimate it with the
    /// midgame search.
    #[command(after_help = help::SOLVE)]
    Solve(commands::solve::Args),
    /// List or verify solitaire puzzles.
    #[command(after_help = help::PUZZLES)]
    Puzzles(commands::puzzles::Args),
    /// Find the games of a database: players, tournament, years, results,
    /// openings, positions.
    #[command(after_help = help::SEARCH)]
    Search(commands::search::Args),
    /// Show a game's header and one of its positions, as text, SVG or PNG.
    Show(commands::show::Args),
    /// Judge every move of a game: exact from N empties to the end, estimated before.
    Analyze(commands::analyze::Args),
    /// Print a game as position lines, one per position (or follow a growing file).
    Stream(commands::stream::Args),
    /// Add WTHOR files to a directory, or replace installed ones by newer versions, safely.
    Install(commands::install::Args),
    /// Print the completion script of a shell.
    #[command(after_help = help::COMPLETIONS)]
    Completions(commands::completions::Args),
    /// Write the man pages into a directory (what `cargo xtask man` runs).
    #[command(hide = true)]
    Man(commands::completions::ManArgs),
    /// Summarise or merge the results logs of `validate --solve` runs.
    #[command(after_help = help::RESULTS)]
    Results(commands::results::Args),
    /// Merge the solve caches of several runs.
    #[command(after_help = help::CACHE)]
    Cache(commands::cache::Args),
    /// Statistics of the games matching a query: totals, next moves from a
    /// position, player records, openings.
    Stats(commands::stats::Args),
    /// Build the position index of a database, or tell whether it is fresh.
    Index(commands::index::Args),
    /// Games with the same moves up to the 8 symmetries: double entries and
    /// other players' copies.
    Duplicates(commands::duplicates::Args),
    /// Ratings of every player per year (Whole-History Rating): the list
    /// of a year, a player's history, the validation against Elo and
    /// Glicko-2.
    Ratings(commands::ratings::Args),
    /// A preparation report on a player: the lines they chose as one
    /// colour, their scores and the archive's, where they leave its main
    /// line, their results against stronger and weaker opponents.
    Report(commands::report::Args),
    /// A position through the years: the games reaching it and their next
    /// moves year by year, the first and latest game of each move.
    History(commands::history::Args),
    /// Where the games left known play (their novelties) and where they
    /// became unique.
    Novelties(commands::novelties::Args),
    /// Serve the database in the browser: opening explorer, search, game
    /// viewer, player pages.
    Serve(commands::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Info(args) => commands::info::run(args, &mut out),
        Command::Convert(args) => commands::convert::run(args, &mut out),
        Command::Export(args) => commands::export::run(args, &mut out),
        Command::Import(args) => commands::import::run(args, &mut out),
        Command::Validate(args) => commands::validate::run(args, &mut out),
        Command::Perft(args) => commands::perft::run(args, &mut out),
        Command::Openings(args) => commands::openings::run(args, &mut out),
        Command::Replay(args) => commands::replay::run(args, &mut out),
        Command::Solve(args) => commands::solve::run(args, &mut out),
        Command::Puzzles(args) => commands::puzzles::run(args, &mut out),
        Command::Search(args) => commands::search::run(args, &mut out),
        Command::Show(args) => commands::show::run(args, &mut out),
        Command::Analyze(args) => commands::analyze::run(args, &mut out),
        Command::Stream(args) => commands::stream::run(args, &mut out),
        Command::Install(args) => commands::install::run(args, &mut out),
        Command::Completions(args) => commands::completions::run(args, Cli::command(), &mut out),
        Command::Man(args) => commands::completions::run_man(args, Cli::command(), &mut out),
        Command::Results(args) => commands::results::run(args, &mut out),
        Command::Cache(args) => commands::cache::run(args, &mut out),
        Command::Stats(args) => commands::stats::run(args, &mut out),
        Command::Index(args) => commands::index::run(args, &mut out),
        Command::Duplicates(args) => commands::duplicates::run(args, &mut out),
        Command::Ratings(args) => commands::ratings::run(args, &mut out),
        Command::Report(args) => commands::report::run(args, &mut out),
        Command::History(args) => commands::history::run(args, &mut out),
        Command::Novelties(args) => commands::novelties::run(args, &mut out),
        Command::Serve(args) => commands::serve::run(args, &mut out),
    }
    .and_then(|code| out.flush().map(|()| code).map_err(anyhow::Error::from));
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("wthor: {}", error_line(&err));
            ExitCode::from(commands::ERROR)
        }
    }
}

/// An error as the one line `wthor: …` prints: its causes joined by `: `
/// (`wthor_db::error_chain`, the style Python's messages share).
pub(crate) fn error_line(err: &anyhow::Error) -> String {
    let err: &(dyn std::error::Error + 'static) = err.as_ref();
    wthor_db::error_chain(err)
}

/// A reader that closed the pipe (`wthor … | head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
