//! `wthor perft --size 8|10 --depth N [--threads N]`: the number of leaves of
//! the game tree from the start position.
//!
//! Convention: a forced pass uses one ply; a finished game reached before
//! the depth counts as one leaf (the published 8x8 counts use it). Prints
//! the count alone on a line.
//!
//! The depth is at most the board's empty squares (60 on 8x8, 96 on
//! 10x10): one ply per move of the longest game without a pass. Lines
//! with passes can be longer (a pass is a ply), so deeper counts exist,
//! but they are out of any machine's reach (the tree grows about tenfold
//! a ply and depth 14 takes hours), and a depth of 99 is a typing slip
//! more than a wish. Above [`WARN_ABOVE`] plies the run is timed first on
//! a small depth and a warning gives the time it should take.

use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use othello_core::perft::{perft, perft_parallel};
use othello_core::{Board, Board8, Board10, Size};

use crate::textfmt::count as counted;

/// Depths above this are warned about, with the time they should take.
const WARN_ABOVE: u32 = 13;

/// Arguments of `wthor perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Board size: 8 or 10.
    #[arg(long, default_value = "8", value_parser = str::parse::<Size>)]
    size: Size,
    /// Depth in plies (a pass is a ply).
    #[arg(long, short)]
    depth: u32,
    /// Worker threads (1 to 256): 1 counts on the current thread; default
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
    let empties = B::start().empty_count();
    if args.depth > empties {
        let side = B::SIZE.side();
        anyhow::bail!(
            "--depth {}: at most {empties} on {side}x{side}, a ply per empty square (lines with \
             passes are longer, but out of reach: the tree grows about tenfold a ply and depth 14 \
             takes hours)",
            args.depth
        );
    }
    let pool = match args.threads {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .context("starting the worker threads")?,
        ),
        None => None,
    };
    let leaves = |depth: u32| match (args.threads, &pool) {
        (Some(1), _) => perft(&B::start(), depth),
        (_, Some(pool)) => pool.install(|| perft_parallel(&B::start(), depth)),
        (_, None) => perft_parallel(&B::start(), depth),
    };
    if args.depth > WARN_ABOVE {
        let side = B::SIZE.side();
        eprintln!(
            "wthor: warning: perft to depth {} on {side}x{side} should take {}; Ctrl-C stops it",
            args.depth,
            expected_time(&leaves, args.depth)
        );
    }
    Ok(leaves(args.depth))
}

/// The time `leaves` should take to `depth`, in words (`about 6 hours
/// here (timed to depth 10: 2.9 s)`): the leaves counted to the first depth
/// that takes a fifth of a second, their growth from ply to ply (which
/// itself grows by about as much each ply) carried on to `depth`.
fn expected_time(leaves: &dyn Fn(u32) -> u64, depth: u32) -> String {
    // Leaves and seconds at depths 1, 2, … until one takes long enough.
    let mut counts = vec![1u64];
    let mut took = Duration::ZERO;
    while took < Duration::from_millis(200) && (counts.len() as u32) < depth {
        let start = Instant::now();
        counts.push(leaves(counts.len() as u32));
        took = start.elapsed();
    }
    let timed = counts.len() as u32 - 1;
    let n = counts.len();
    let [before, last, now] =
        [n.saturating_sub(3), n.saturating_sub(2), n - 1].map(|i| counts[i].max(1) as f64);
    let growth = now / last;
    let step = (growth - last / before).max(0.0);
    let mut seconds = took.as_secs_f64();
    for k in 1..=depth - timed {
        seconds *= growth + step * f64::from(k);
    }
    format!(
        "about {} here (timed to depth {timed}: {:.1} s)",
        duration_words(seconds),
        took.as_secs_f64()
    )
}

/// Seconds in words: `40 s`, `12 minutes`, `6 hours`, `3 days`, `20
/// years`, `10^12 years`.
fn duration_words(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    let round = |x: f64| x.round() as u64;
    if !seconds.is_finite() || seconds >= 1e6 * YEAR {
        let exponent = if seconds.is_finite() {
            (seconds / YEAR).log10().floor() as i64
        } else {
            308
        };
        format!("10^{exponent} years")
    } else if seconds < 90.0 {
        format!("{} s", round(seconds))
    } else if seconds < 90.0 * 60.0 {
        counted(round(seconds / 60.0), "minute", "minutes")
    } else if seconds < 48.0 * 3600.0 {
        counted(round(seconds / 3600.0), "hour", "hours")
    } else if seconds < 2.0 * YEAR {
        counted(round(seconds / 86_400.0), "day", "days")
    } else {
        counted(round(seconds / YEAR), "year", "years")
    }
}
