//! `wthor stream GAME` and `wthor stream --follow FILE`: position lines
//! (see `docs/position-line.md`), one per position.
//!
//! `wthor stream FILE INDEX` prints the start position and one line after
//! each disc played. `--follow FILE` reads a transcript or GGF file that is
//! being written (see `follow.rs` for what is read), prints the lines of
//! the moves it holds, then reads the file again every `--poll` ms and
//! prints a line for each new move, flushing each line. It stops:
//! - with 0 when the game is over (neither side can move) or the record is
//!   closed (a transcript's line end, GGF `;)`);
//! - with 0 after `--timeout` seconds without any change of the file
//!   (never, without `--timeout`), saying so on stderr;
//! - with 1 at an illegal move (reported on stderr);
//! - with 2 when the file cannot be read (a file not there yet is waited
//!   for, as the start position, saying so on stderr; one that disappears
//!   is an error), does not parse, or was rewritten so that moves already
//!   printed changed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use othello_core::replay::{GameStatus, IllegalMove, Token};
use othello_core::{Move, Size};
use wthor_db::position_line::{GamePositions, game_positions};

use crate::db_args::DbArgs;
use crate::game::{GameArg, positions, resolve_game};
use wthor_db::text::follow::{Followed, read_followed};

/// Arguments of `wthor stream`.
#[derive(Debug, clap::Args)]
#[command(
    group = clap::ArgGroup::new("source").required(true).args(["file", "follow"]),
    after_help = "\
Examples:
  wthor stream testdata/WTH_2001.wtb 3
  wthor stream testdata/WTH_2001.wtd 0 | tail -n 1
  wthor stream --follow live.txt --timeout 600
  wthor stream --follow game.ggf --poll 50

Each line: <pos> ROWS… SIDE MOVE LAST-WTHOR LAST BLACK-DISCS WHITE-DISCS BLACK WHITE
TOURNAMENT YEAR GAME (docs/position-line.md).

Exit status: 0 ok (game over, record closed, or --timeout reached), 1 an illegal
move, 2 usage or I/O error."
)]
pub(crate) struct Args {
    /// A game (`2001:5`, `FILE:INDEX`), or a WTHOR game file (`.wtb` or
    /// `.wtd`) followed by INDEX.
    #[arg(value_name = "GAME")]
    file: Option<String>,
    /// The 0-based record index of the game in FILE.
    index: Option<usize>,
    #[command(flatten)]
    db: DbArgs,
    /// Follow a growing transcript or GGF file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["file", "index"])]
    follow: Option<PathBuf>,
    /// Board size of a followed transcript: 8 or 10 (a GGF game gives its own).
    #[arg(long, default_value = "8", value_parser = str::parse::<Size>, requires = "follow")]
    size: Size,
    /// With --follow: stop after SECS seconds without a change of the file.
    #[arg(long, value_name = "SECS", requires = "follow")]
    timeout: Option<f64>,
    /// With --follow: read the file again every MS milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200, requires = "follow")]
    poll: u64,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.follow {
        let size = args.size;
        return follow(path, size, args, out);
    }
    let Some(game) = &args.file else {
        anyhow::bail!("give GAME, FILE INDEX or --follow FILE");
    };
    let game = resolve_game(&GameArg {
        game: game.clone(),
        index: args.index,
        db: args.db.clone(),
    })?;
    let played = positions(&game);
    for line in &played.lines {
        writeln!(out, "{line}")?;
    }
    Ok(report_illegal(played.illegal, game.size))
}

/// Prints an illegal move on stderr: exit code 1, or 0 when there is none.
fn report_illegal(illegal: Option<IllegalMove>, size: Size) -> ExitCode {
    match illegal {
        Some(bad) => {
            eprintln!("wthor: illegal {}: {}", bad.describe(size), bad.reason);
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

fn follow(path: &Path, size: Size, args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let poll = Duration::from_millis(args.poll.max(1));
    let timeout = args.timeout.map(Duration::from_secs_f64);
    let mut printed = 0; // lines printed
    let mut seen: Vec<Move> = Vec::new();
    let mut last_text: Option<Vec<u8>> = None;
    let mut changed = Instant::now();
    let (mut appeared, mut waiting) = (false, false);
    loop {
        // A file not there yet is a file with nothing in it yet (the
        // start), waited for with a word on stderr; once it has been there,
        // its disappearance is an error.
        let bytes = match std::fs::read(path) {
            Ok(b) => {
                appeared = true;
                b
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !appeared => {
                if !waiting {
                    eprintln!(
                        "wthor: {}: no such file yet: waiting for it (the start position until then)",
                        path.display()
                    );
                    waiting = true;
                }
                Vec::new()
            }
            Err(e) => return Err(e).with_context(|| format!("{}: cannot read", path.display())),
        };
        if last_text.as_ref() != Some(&bytes) {
            changed = Instant::now();
            let text = String::from_utf8_lossy(&bytes);
            let (size, game) =
                read_followed(&text, size).with_context(|| format!("{}", path.display()))?;
            if !game.moves.starts_with(&seen) {
                anyhow::bail!(
                    "{}: the file was rewritten: move {} changed",
                    path.display(),
                    seen.iter()
                        .zip(&game.moves)
                        .take_while(|(a, b)| a == b)
                        .count()
                        + 1
                );
            }
            let tokens: Vec<Token> = game.moves.iter().map(|&m| Token::Move(m)).collect();
            let played = named(game_positions(size, &tokens), &game);
            for line in &played.lines[printed.min(played.lines.len())..] {
                writeln!(out, "{line}")?;
            }
            out.flush()?;
            printed = played.lines.len();
            seen = game.moves;
            last_text = Some(bytes);
            if played.illegal.is_some() {
                return Ok(report_illegal(played.illegal, size));
            }
            if played.status == GameStatus::Finished || game.complete {
                return Ok(ExitCode::SUCCESS);
            }
        } else if timeout.is_some_and(|t| changed.elapsed() >= t) {
            eprintln!(
                "wthor: {}: no change for {} s, stopping",
                path.display(),
                args.timeout.unwrap_or_default()
            );
            return Ok(ExitCode::SUCCESS);
        }
        std::thread::sleep(poll);
    }
}

/// The lines with the names and year of the followed record.
fn named(mut played: GamePositions, game: &Followed) -> GamePositions {
    for line in &mut played.lines {
        line.black.clone_from(&game.black);
        line.white.clone_from(&game.white);
        line.tournament.clone_from(&game.tournament);
        line.year = game.year;
    }
    played
}
