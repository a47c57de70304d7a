//! One module per subcommand.

pub(crate) mod accuracy;
pub(crate) mod analyze;
pub(crate) mod cache;
pub(crate) mod completions;
pub(crate) mod convert;
pub(crate) mod duplicates;
pub(crate) mod export;
pub(crate) mod history;
pub(crate) mod import;
pub(crate) mod index;
pub(crate) mod info;
pub(crate) mod install;
pub(crate) mod novelties;
pub(crate) mod openings;
pub(crate) mod perft;
pub(crate) mod puzzles;
pub(crate) mod ratings;
pub(crate) mod replay;
pub(crate) mod report;
pub(crate) mod results;
pub(crate) mod search;
pub(crate) mod serve;
pub(crate) mod show;
pub(crate) mod solve;
pub(crate) mod stats;
pub(crate) mod stream;
pub(crate) mod validate;

use std::process::ExitCode;

/// Exit code of a run with findings (illegal games, mismatches, puzzles
/// with problems, warnings under `--strict`).
pub(crate) const FINDINGS: u8 = 1;

/// Exit code of a usage or I/O error (also what clap uses).
pub(crate) const ERROR: u8 = 2;

/// The exit code of a run: [`ERROR`] when an input could not be read or
/// had the wrong kind, else [`FINDINGS`] when something was found, else 0.
pub(crate) fn exit_code(error: bool, findings: bool) -> ExitCode {
    if error {
        ExitCode::from(ERROR)
    } else if findings {
        ExitCode::from(FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// A file kind with its article, for messages: "an 8x8 games file", "a
/// players file".
pub(crate) fn a_kind_file(kind: wthor_format::FileKind) -> String {
    let name = kind.to_string();
    let article = if name.starts_with('8') { "an" } else { "a" };
    format!("{article} {name} file")
}
