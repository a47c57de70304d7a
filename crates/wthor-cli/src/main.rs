//! The `wthor` command: inspect, convert, validate and solve WTHOR files.
//!
//! Only this crate prints. Each subcommand lives in its own module under
//! `commands/`, with its clap arguments and a `run` function that writes to
//! the given output and returns the process exit code.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod db_args;
mod query_args;
mod verify;

/// Tools for the WTHOR Othello game database.
#[derive(Debug, Parser)]
#[command(name = "wthor", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the kind, header fields, record count and warnings of WTHOR files.
    Info(commands::info::Args),
    /// Parse a WTHOR file and write it again (format chosen by extension).
    Convert(commands::convert::Args),
    /// Replay every game of WTHOR files and report what does not hold.
    Validate(commands::validate::Args),
    /// Count the leaves of the game tree from the start position.
    Perft(commands::perft::Args),
    /// Replay one game and print its positions.
    Replay(commands::replay::Args),
    /// Solve an endgame position exactly.
    Solve(commands::solve::Args),
    /// List or verify solitaire puzzles.
    Puzzles(commands::puzzles::Args),
    /// Statistics of the games matching a query: totals, next moves from a
    /// position, player records, openings.
    Stats(commands::stats::Args),
    /// Build the position index of a database, or tell whether it is fresh.
    Index(commands::index::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match &cli.command {
        Command::Info(args) => commands::info::run(args, &mut out),
        Command::Convert(args) => commands::convert::run(args, &mut out),
        Command::Validate(args) => commands::validate::run(args, &mut out),
        Command::Perft(args) => commands::perft::run(args, &mut out),
        Command::Replay(args) => commands::replay::run(args, &mut out),
        Command::Solve(args) => commands::solve::run(args, &mut out),
        Command::Puzzles(args) => commands::puzzles::run(args, &mut out),
        Command::Stats(args) => commands::stats::run(args, &mut out),
        Command::Index(args) => commands::index::run(args, &mut out),
    }
    .and_then(|code| out.flush().map(|()| code).map_err(anyhow::Error::from));
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("wthor: {err:#}");
            if err.is::<db_args::Exit2>() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// A reader that closed the pipe (`wthor … | head`) is not a failure.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}
