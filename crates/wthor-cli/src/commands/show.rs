//! `wthor show GAME [--move N | --empties N] [--svg FILE] [--png FILE]`:
//! a game's header and one of its positions, as text and as pictures.
//!
//! The position is the one after N discs played (`--move 0` is the start),
//! or the one with N empty squares, or by default the last one. The text
//! board has `X` for black, `O` for white, `.` for empty, the last disc
//! played in lower case, and with `--legal` `*` on the legal moves of the
//! side to move; `--numbers` adds a board of move numbers (the move that
//! put each disc down, the start discs by colour). `--svg` and `--png`
//! draw the same position (`wthor-draw`);
//! both files are written atomically (`wthor_db::atomic`). A game with an
//! illegal move shows its positions up to that move, reports it, and exits
//! with 1.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use wthor_db::names::placeholder;
use wthor_db::wthor_format::NameKind::{self, Players, Tournaments};

use othello_core::{Color, Size, Square};
use wthor_db::position_line::PositionLine;

use crate::game::{GameArg, ResolvedGame, positions, resolve_game};
use crate::textfmt::count;

/// Arguments of `wthor show`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  wthor show testdata/WTH_2001.wtb 3
  wthor show testdata/WTH_2001.wtb 3 --move 20 --legal
  wthor show testdata/WTH_2001.wtd 0 --empties 10 --png pos.png --numbers
  wthor show testdata/WTH_2002.wtb 4 --svg final.svg

Exit status: 0 ok, 1 the game has an illegal move, 2 usage or I/O error.")]
pub(crate) struct Args {
    #[command(flatten)]
    game: GameArg,
    /// The position after N discs played (0: the start).
    #[arg(long = "move", value_name = "N", conflicts_with = "empties")]
    move_number: Option<usize>,
    /// The position with N empty squares.
    #[arg(long, value_name = "N")]
    empties: Option<usize>,
    /// Draw the position to FILE as SVG.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Draw the position to FILE as PNG.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Write on each disc the number of the move that put it there (in text,
    /// a second board of move numbers).
    #[arg(long)]
    numbers: bool,
    /// Mark the legal moves of the side to move.
    #[arg(long)]
    legal: bool,
    /// Where the game left known play and became unique (see `wthor
    /// novelties`; 8x8 games, over the whole database opened), with the
    /// novelty move's value and loss (a search of the position before it).
    #[arg(long)]
    novelty: bool,
    /// Pixels per SVG unit of the PNG (1: 440 pixels wide on 8x8, 536 on 10x10).
    #[arg(long, default_value_t = 1.0, value_parser = parse_scale)]
    scale: f32,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    check_picture_paths(&[args.svg.as_deref(), args.png.as_deref()])?;
    let game = resolve_game(&args.game)?;
    let played = positions(&game);
    let lines = &played.lines;
    let squares = game.size.squares();
    let last = lines.len() - 1;
    let index = match (args.move_number, args.empties) {
        (Some(n), _) if n > last => {
            anyhow::bail!(
                "{}: the game has {}, no move {n}",
                game.id,
                count(last, "move", "moves")
            )
        }
        (Some(n), _) => n,
        (None, Some(e)) => squares
            .checked_sub(4 + e)
            .filter(|&i| i <= last)
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{}: no position with {} (from {} to {})",
                    game.id,
                    count(e, "empty", "empties"),
                    squares - 4 - last,
                    squares - 4
                )
            })?,
        (None, None) => last,
    };
    let line = &lines[index];
    // The number of the move that put each disc down (none for the start).
    let mut numbers = vec![None; squares];
    for (k, l) in lines.iter().enumerate().take(index + 1).skip(1) {
        if let Some(sq) = l.last_move() {
            numbers[sq.index()] = Some(k as u32);
        }
    }
    write_header(&game, out)?;
    write_position(line, index, args.legal, out)?;
    if args.numbers {
        write_numbers(line, &numbers, out)?;
    }
    if args.novelty {
        let (db, id) = crate::game::open_game(&args.game.game, args.game.index, &args.game.db)?;
        match db.novelty_of(id) {
            Some(n) => {
                let value = anyhow::Context::context(db.novelty_value(&n), "the novelty's value")?;
                let words = value.map(|v| format!("; {}", super::novelties::value_words(&v)));
                writeln!(
                    out,
                    "{}{}",
                    super::novelties::sentence(&n),
                    words.unwrap_or_default()
                )?;
            }
            None => writeln!(
                out,
                "no novelty and no value: a 10x10 game (novelties are of 8x8 games, values of 8x8 positions)"
            )?,
        }
    }
    let mut code = ExitCode::SUCCESS;
    if let Some(bad) = played.illegal {
        writeln!(
            out,
            "illegal {}: {}; the positions stop before it",
            bad.describe(game.size),
            bad.reason
        )?;
        code = ExitCode::FAILURE;
    }
    if args.svg.is_some() || args.png.is_some() {
        let title = format!(
            "{} - {}, {} {}, {}",
            or_number(Players, &game.black),
            or_number(Players, &game.white),
            or_number(Tournaments, &game.tournament),
            game.year,
            if index == 0 {
                "start".to_owned()
            } else {
                format!("after move {index}")
            }
        );
        let options = wthor_draw::Options {
            numbers: args.numbers,
            legal: args.legal,
            title: Some(title),
            ..wthor_draw::Options::default()
        };
        let position =
            wthor_draw::Position::new(line.size(), line.squares().to_vec(), line.to_move())?
                .with_last_move(line.last_move())?
                .with_numbers(numbers)?;
        let svg = wthor_draw::svg(&position, &options);
        write_pictures(
            &svg,
            args.svg.as_deref(),
            args.png.as_deref(),
            args.scale,
            out,
        )?;
    }
    Ok(code)
}

/// Checks, before anything is printed or computed, that the pictures
/// asked for can be written where asked: each path's folder exists and
/// the path is no folder. (The write itself can still fail, e.g. on
/// permissions; this catches the common slip of a wrong folder.)
///
/// # Errors
/// The first path that cannot be written, worded as the write would.
pub(crate) fn check_picture_paths(paths: &[Option<&std::path::Path>]) -> anyhow::Result<()> {
    for path in paths.iter().flatten() {
        let folder = path
            .parent()
            .filter(|f| !f.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !folder.is_dir() {
            anyhow::bail!(
                "{}: cannot write: folder {} does not exist",
                path.display(),
                folder.display()
            );
        }
        if path.is_dir() {
            anyhow::bail!("{}: cannot write: it is a folder", path.display());
        }
    }
    Ok(())
}

/// Writes a drawing as SVG and as PNG at `scale` to the paths given (each
/// atomically), and names each file written on `out`: `show`'s position
/// and `analyze`'s graph.
pub(crate) fn write_pictures(
    svg: &str,
    svg_path: Option<&std::path::Path>,
    png_path: Option<&std::path::Path>,
    scale: f32,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if let Some(path) = svg_path {
        wthor_db::atomic::write(path, svg.as_bytes())?;
        writeln!(out, "svg: {}", path.display())?;
    }
    if let Some(path) = png_path {
        let png = wthor_draw::png(svg, scale)?;
        wthor_db::atomic::write(path, &png)?;
        writeln!(out, "png: {}", path.display())?;
    }
    Ok(())
}

/// A name, or its placeholder (`<player N>`) when the names file does not
/// hold it.
fn or_number(kind: NameKind, (number, name): &(u16, String)) -> String {
    if name.is_empty() {
        placeholder(kind, *number)
    } else {
        name.clone()
    }
}

fn write_header(game: &ResolvedGame, out: &mut dyn Write) -> anyhow::Result<()> {
    let named = |kind: NameKind, (number, name): &(u16, String)| {
        if name.is_empty() {
            placeholder(kind, *number)
        } else {
            format!("{name} (#{number})")
        }
    };
    let total = game.size.squares() as u32;
    writeln!(out, "game: {}", game.id)?;
    writeln!(
        out,
        "tournament: {}, {}",
        named(Tournaments, &game.tournament),
        game.year
    )?;
    writeln!(out, "black: {}", named(Players, &game.black))?;
    writeln!(out, "white: {}", named(Players, &game.white))?;
    writeln!(
        out,
        "score: black {}, white {}; theoretical: black {} at {}",
        game.real_score,
        total.saturating_sub(u32::from(game.real_score)),
        game.theoretical_score,
        count(game.depth, "empty", "empties")
    )?;
    // The table names 8x8 positions only: no line for a 10x10 game.
    if game.size == Size::Eight {
        match &game.opening {
            Some((name, moves)) => writeln!(out, "opening: {name} ({moves})")?,
            None => writeln!(out, "opening: none named")?,
        }
    }
    Ok(())
}

/// The position's summary line, the text board and the disc counts.
fn write_position(
    line: &PositionLine,
    index: usize,
    legal: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let size = line.size();
    let empties = line.squares().iter().filter(|c| c.is_none()).count();
    let played = match line.last_move() {
        Some(sq) => format!(
            "after move {index} ({} {})",
            line.at(sq).map_or("?".to_owned(), |c| c.to_string()),
            sq.name(size)
        ),
        None => "start".to_owned(),
    };
    let to_move = match line.to_move() {
        Some(c) => format!("{c} to move"),
        None => "game over".to_owned(),
    };
    writeln!(
        out,
        "position: {played}, {}, {to_move}",
        count(empties, "empty", "empties")
    )?;
    let n = size.side();
    let pad = if n > 9 { "   " } else { "  " };
    write!(out, "{pad}")?;
    for c in 0..n {
        write!(
            out,
            "{}{}",
            if c > 0 { " " } else { "" },
            char::from(b'a' + c)
        )?;
    }
    writeln!(out)?;
    let marks = if legal {
        line.legal_moves()
    } else {
        Vec::new()
    };
    for r in 0..n {
        write!(out, "{:>width$}", r + 1, width = pad.len() - 1)?;
        for c in 0..n {
            let sq = Square::new_unchecked(r * n + c);
            let ch = match line.at(sq) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None if marks.contains(&sq) => '*',
                None => '.',
            };
            let ch = if line.last_move() == Some(sq) {
                ch.to_ascii_lowercase()
            } else {
                ch
            };
            write!(out, " {ch}")?;
        }
        writeln!(out)?;
    }
    writeln!(
        out,
        "discs: black {}, white {}",
        line.discs(Color::Black),
        line.discs(Color::White)
    )?;
    Ok(())
}

/// With `--numbers`: the board of move numbers, each disc played showing
/// the number of the move that put it down (two digits: at most 96 moves),
/// the start discs their colour (`X`, `O`), empty squares `.`.
fn write_numbers(
    line: &PositionLine,
    numbers: &[Option<u32>],
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let n = line.size().side();
    writeln!(out, "moves:")?;
    write!(out, "  ")?;
    for c in 0..n {
        write!(out, " {:>2}", char::from(b'a' + c))?;
    }
    writeln!(out)?;
    for r in 0..n {
        write!(out, "{:>2}", r + 1)?;
        for c in 0..n {
            let sq = Square::new_unchecked(r * n + c);
            let cell = match (numbers.get(sq.index()).copied().flatten(), line.at(sq)) {
                (Some(k), Some(_)) => k.to_string(),
                (None, Some(Color::Black)) => "X".to_owned(),
                (None, Some(Color::White)) => "O".to_owned(),
                (_, None) => ".".to_owned(),
            };
            write!(out, " {cell:>2}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// A PNG scale: a positive number up to 8 (3,520 pixels wide on 8x8).
pub(crate) fn parse_scale(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(s) if s > 0.0 && s <= 8.0 => Ok(s),
        _ => Err("the scale is a number above 0 and at most 8".to_owned()),
    }
}
