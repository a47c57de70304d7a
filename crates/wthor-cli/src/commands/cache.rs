//! `wthor cache merge A.bin B.bin... -o C.bin`: the solve caches of several
//! runs (the shards of a distributed audit) merged into one.
//!
//! Every input must be a solve cache: a missing file, a file that is not a
//! cache or a damaged cache is refused (exit 2) and nothing is written. The
//! output is written atomically (temporary file, then rename). A position
//! with two different scores (which no exact solver gives: a sign of
//! tampering) keeps the first and is counted; the run then exits 1.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use wthor_db::cache::SolveCache;

use crate::textfmt::count;

/// Arguments of `wthor cache`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Merge solve caches into one (written atomically).
    Merge(MergeArgs),
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Solve caches (`--cache` files of `validate --solve`).
    #[arg(required = true, value_name = "CACHE.bin")]
    caches: Vec<PathBuf>,
    /// The merged cache (replaced atomically).
    #[arg(long, short, value_name = "OUT.bin")]
    output: PathBuf,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let Command::Merge(args) = &args.command;
    let merged = SolveCache::new();
    let mut conflicts = 0;
    for path in &args.caches {
        // A missing file loads as an empty cache: here it is a mistake.
        super::info::read_regular(path)?;
        let cache = SolveCache::load(path)?;
        conflicts += merged.merge_from(&cache);
    }
    merged.save(&args.output)?;
    writeln!(
        out,
        "{}: {} from {} ({} with two scores)",
        args.output.display(),
        count(merged.len(), "position", "positions"),
        count(args.caches.len(), "cache", "caches"),
        count(conflicts, "position", "positions")
    )?;
    Ok(super::exit_code(false, conflicts > 0))
}
