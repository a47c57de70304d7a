//! `wthor replay GAME`, `wthor replay FILE INDEX` or `wthor replay --moves
//! f5d6c3...`: replay one game and print every position.
//!
//! `GAME` is a game identity as `wthor search` prints it (`2001:5`,
//! `WTH_2001.wtd:5`, `FILE:INDEX`), looked up in the database of `--db` or
//! `WTHOR_DIR`; without a database, `PATH:INDEX` names a file directly.
//! `FILE INDEX` (the 0-based record index in the file, as `wthor validate`
//! prints it) still works. The game's players and tournament are printed by
//! name, from the newest names files of the game file's directory (or
//! `--players`/`--tournaments`). A transcript is square names in any case
//! (`f5D6 c3`), passes optional (`pa`, `ps`, `pass` or `--`; forced passes
//! are inserted). Each move is printed as its number, colour and square,
//! then the board (`X` black, `O` white) with the side to move and the disc
//! counts; a summary ends the output. An illegal move stops the replay: it
//! is reported and the exit code is 1.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::notation::parse_transcript;
use othello_core::replay::{GameStatus, Token, replay_with, wthor_tokens};
use othello_core::{Board, Board8, Board10, Color, Move, Size};
use wthor_format::BoardSize;

use crate::db_args::DbArgs;
use crate::game::open_game;

/// Arguments of `wthor replay`.
#[derive(Debug, clap::Args)]
#[command(group = clap::ArgGroup::new("source").required(true).args(["game", "moves"]))]
pub(crate) struct Args {
    /// A game (`2001:5`, `FILE:INDEX`), or a WTHOR game file (`.wtb` or
    /// `.wtd`) followed by INDEX.
    game: Option<String>,
    /// The 0-based record index of the game in FILE.
    index: Option<usize>,
    #[command(flatten)]
    db: DbArgs,
    /// A transcript to replay instead of a game (`f5d6c3...`).
    #[arg(long, value_name = "TRANSCRIPT", conflicts_with_all = ["game", "index"])]
    moves: Option<String>,
    /// Board size of the transcript: 8 or 10.
    #[arg(long, default_value = "8", value_parser = str::parse::<Size>)]
    size: Size,
    /// Print only the final position and the summary.
    #[arg(long)]
    final_only: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if let Some(text) = &args.moves {
        let size = args.size;
        let moves = parse_transcript(text, size).context("reading the transcript")?;
        let tokens: Vec<Token> = moves.into_iter().map(Token::Move).collect();
        return match size {
            Size::Eight => show::<Board8>(&tokens, None, args.final_only, out),
            Size::Ten => show::<Board10>(&tokens, None, args.final_only, out),
        };
    }
    let Some(game) = &args.game else {
        anyhow::bail!("give GAME, FILE INDEX or --moves");
    };
    let (db, id) = open_game(game, args.index, &args.db)?;
    let game = db.game(id).expect("a game of the database");
    let file = db.file_of(id).expect("its file");
    let size = game.board_size();
    let total = i32::from(size.squares());
    for name in [db.black(id), db.white(id), db.tournament(id)] {
        if !name.is_known() {
            eprintln!(
                "wthor: warning: {}: {}",
                db.game_name(id),
                crate::game::unknown_name(&db, id.file(), name)
            );
        }
    }
    writeln!(
        out,
        "{} ({} record {}): {}, {}; black {}, white {}; stored score {}-{}, theoretical {}",
        db.game_name(id),
        file.path().display(),
        id.index(),
        db.tournament(id),
        file.year(),
        db.black(id),
        db.white(id),
        game.real_score(),
        total - i32::from(game.real_score()),
        game.theoretical_score()
    )?;
    let stored = Some(game.real_score());
    match size {
        BoardSize::Eight => {
            let tokens: Vec<Token> = wthor_tokens::<Board8>(game.moves_raw()).collect();
            show::<Board8>(&tokens, stored, args.final_only, out)
        }
        BoardSize::Ten => {
            let tokens: Vec<Token> = wthor_tokens::<Board10>(game.moves_raw()).collect();
            show::<Board10>(&tokens, stored, args.final_only, out)
        }
    }
}

fn show<B: Board>(
    tokens: &[Token],
    stored: Option<u8>,
    final_only: bool,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let mut result = Ok(());
    if !final_only {
        result = writeln!(out, "start\n{}", B::start().diagram());
    }
    let mut number = 0;
    let r = replay_with::<B, _, _>(tokens.iter().copied(), |step| {
        if final_only || result.is_err() {
            return;
        }
        // The mover is the side not to move after the step.
        let mover = step.board.side_to_move().other();
        result = match step.mv {
            Move::Play(sq) => {
                number += 1;
                writeln!(out, "{number}. {mover} {}", sq.name(B::SIZE))
            }
            Move::Pass if step.inserted => writeln!(out, "{mover} passes (inserted)"),
            Move::Pass => writeln!(out, "{mover} passes"),
        }
        .and_then(|()| writeln!(out, "{}", step.board.diagram()));
    });
    result?;
    if final_only {
        writeln!(out, "{}", r.board.diagram())?;
    }
    let (b, w) = r.discs();
    let (sb, sw) = r.score();
    writeln!(out, "moves: {}, passes: {}", r.moves, r.passes)?;
    let status = match r.status {
        GameStatus::Finished => "finished",
        GameStatus::Unfinished => "unfinished",
    };
    writeln!(out, "status: {status}")?;
    writeln!(out, "discs: black {b}, white {w}")?;
    if r.status == GameStatus::Finished {
        writeln!(out, "score (WTHOR rule): black {sb}, white {sw}")?;
    }
    if let Some(s) = stored {
        let verdict = if r.status == GameStatus::Unfinished {
            "unfinished: the stored score is the recorded result"
        } else if u32::from(s) == sb {
            "matches"
        } else {
            "MISMATCH"
        };
        writeln!(out, "stored score: black {s} ({verdict})")?;
    }
    if let Some(bad) = r.illegal {
        let side = match r.board.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        };
        writeln!(
            out,
            "illegal {} for {side}: {}",
            bad.describe(B::SIZE),
            bad.reason
        )?;
        return Ok(ExitCode::from(super::FINDINGS));
    }
    Ok(ExitCode::SUCCESS)
}
