//! `wthor perft --size 8|10 --depth N [--threads N]`: the number of leaves of
//! the game tree from the start position.
//!
//! Convention: a forced pass uses one ply; a finished game reached before
//! the depth counts as one leaf (the published 8x8 counts use it). Prints
//! the count alone on a line.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::perft::{perft, perft_parallel};
use othello_core::{Board, Board8, Board10, Size};

/// Arguments of `wthor perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: 8 or 10.
    #[arg(long, default_value = "8", value_parser = str::parse::<Size>)]
    size: Size,
    /// Depth in plies (a pass is a ply).
    #[arg(long, short)]
    depth: u32,
    /// Worker threads (1 or more): 1 counts on the current thread; default
    /// all cores.
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let n = match args.size {
        Size::Ten => count::<Board10>(args)?,
        Size::Eight => count::<Board8>(args)?,
    };
    writeln!(out, "{n}")?;
    Ok(ExitCode::SUCCESS)
}

fn count<B: Board>(args: &Args) -> anyhow::Result<u64> {
    match args.threads {
        Some(1) => Ok(perft(&B::start(), args.depth)),
        Some(n) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .context("starting the worker threads")?;
            Ok(pool.install(|| perft_parallel(&B::start(), args.depth)))
        }
        None => Ok(perft_parallel(&B::start(), args.depth)),
    }
}
