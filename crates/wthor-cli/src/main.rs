//! The `wthor` command: inspect, convert, validate and solve WTHOR files.
//!
//! Only this crate prints. Each subcommand lives in its own module under
//! `commands/`, with its clap arguments and a `run` function that writes to
//! the given output and returns the process exit code.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod commands;
mod query_args;
mod textfmt;
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
    /// Parse a WTHOR file and write it again, or as text (format chosen by extension).
    Convert(commands::convert::Args),
    /// Write the games of a database (all, or those the filters select) as text.
    Export(commands::export::Args),
    /// Add games from text or WTHOR files to a WTHOR directory.
    Import(commands::import::Args),
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
        Command::Replay(args) => commands::replay::run(args, &mut out),
        Command::Solve(args) => commands::solve::run(args, &mut out),
        Command::Puzzles(args) => commands::puzzles::run(args, &mut out),
    }
    .and_then(|code| out.flush().map(|()| code).map_err(anyhow::Error::from));
    match result {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("wthor: {err:#}");
            ExitCode::FAILURE
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
