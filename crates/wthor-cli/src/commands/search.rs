//! `wthor search`: the games of the database that match every filter given.
//!
//! Filters combine with AND; names are matched case- and
//! accent-insensitively as substrings (`--exact` for whole names). Ranges
//! are inclusive, `A..B`, with open ends (`2020..`, `..1985`) or a single
//! value. Results come in database order unless `--sort`ed; each game is
//! printed with its identity (`2001:5`, `WTH_2001.wtd:5`, `FILE:INDEX`),
//! which `wthor replay` accepts. A player or tournament number beyond its
//! names file is shown as `<player N>` with a warning on stderr.

use std::io::Write;

use anyhow::Context as _;
use std::process::ExitCode;

use othello_core::Size;
use wthor_db::query::{Opening, Outcome, PlayerKind, Position, SortKey};
use wthor_db::{Database, GameId, NameRef, Query};
use wthor_format::BoardSize;

use crate::db_args::DbArgs;

/// Arguments of `wthor search`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    /// Games where NAME plays either colour; twice: games between the two.
    #[arg(long, value_name = "NAME", num_args = 1, action = clap::ArgAction::Append)]
    player: Vec<String>,
    /// Games where NAME has black.
    #[arg(long, value_name = "NAME")]
    black: Option<String>,
    /// Games where NAME has white.
    #[arg(long, value_name = "NAME")]
    white: Option<String>,
    /// Names (players, tournament) match whole names, not substrings.
    #[arg(long)]
    exact: bool,
    /// Only games with a program (a name with its author in parentheses,
    /// `Edax (delorme)`).
    #[arg(long, conflicts_with = "human")]
    program: bool,
    /// Only games between humans.
    #[arg(long)]
    human: bool,
    /// Games of tournaments whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    tournament: Option<String>,
    /// Years A..B (inclusive; `2020..`, `..1985`, `2001`).
    #[arg(long, value_name = "A..B", value_parser = parse_years)]
    year: Option<(Option<u16>, Option<u16>)>,
    /// The result: black, white or draw.
    #[arg(long, value_enum)]
    result: Option<ResultArg>,
    /// Black's stored discs in A..B (inclusive, e.g. `33..64`).
    #[arg(long, value_name = "A..B", value_parser = parse_discs)]
    black_discs: Option<(u8, u8)>,
    /// The stored theoretical score (black's discs after perfect play) in
    /// A..B (inclusive).
    #[arg(long, value_name = "A..B", value_parser = parse_discs)]
    theoretical: Option<(u8, u8)>,
    /// Games that start with these moves, under any of the 8 symmetries.
    #[arg(long, value_name = "TRANSCRIPT")]
    opening: Option<String>,
    /// Match --opening as played (no symmetry).
    #[arg(long, requires = "opening")]
    as_played: bool,
    /// Games that reach this OBF position (same side to move), in any
    /// orientation; 100 squares for 10x10.
    #[arg(
        long,
        value_name = "OBF",
        conflicts_with = "position_after",
        allow_hyphen_values = true
    )]
    position: Option<String>,
    /// Games that reach the position after this transcript, in any
    /// orientation.
    #[arg(long, value_name = "TRANSCRIPT")]
    position_after: Option<String>,
    /// Board size of --opening and --position-after: 8 or 10.
    #[arg(long, default_value_t = 8, value_parser = parse_size)]
    size: u8,
    /// Sort by year, black, white, tournament or score (ascending; ties in
    /// database order).
    #[arg(long, value_name = "KEY", value_parser = parse_sort)]
    sort: Option<SortKey>,
    /// At most N games (after sorting).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Print only the number of games.
    #[arg(long)]
    count: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ResultArg {
    Black,
    White,
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Table,
    Csv,
    Jsonl,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let query = build_query(args)?;
    let db = args.db.open()?;
    if args.count {
        let n = db.count(&query).context("searching")?;
        writeln!(out, "{n}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let ids = db.search(&query).context("searching")?;
    print(&db, &ids, args.format, out)?;
    Ok(ExitCode::SUCCESS)
}

fn build_query(args: &Args) -> anyhow::Result<Query> {
    if args.player.len() > 2 {
        anyhow::bail!(
            "--player is given at most twice (games between two players), got {}",
            args.player.len()
        );
    }
    let size = if args.size == 10 {
        Size::Ten
    } else {
        Size::Eight
    };
    let mut q = Query::new().exact(args.exact);
    for p in &args.player {
        q = q.player(p);
    }
    if let Some(b) = &args.black {
        q = q.black(b);
    }
    if let Some(w) = &args.white {
        q = q.white(w);
    }
    if args.program {
        q = q.kind(PlayerKind::Program);
    }
    if args.human {
        q = q.kind(PlayerKind::Human);
    }
    if let Some(t) = &args.tournament {
        q = q.tournament(t);
    }
    if let Some((from, to)) = args.year {
        q = q.years(from, to);
    }
    if let Some(r) = args.result {
        q = q.result(match r {
            ResultArg::Black => Outcome::BlackWin,
            ResultArg::White => Outcome::WhiteWin,
            ResultArg::Draw => Outcome::Draw,
        });
    }
    if let Some((low, high)) = args.black_discs {
        q = q.black_discs(low, high);
    }
    if let Some((low, high)) = args.theoretical {
        q = q.theoretical(low, high);
    }
    if let Some(text) = &args.opening {
        let opening = Opening::parse(text, size).map_err(|e| explain("--opening", text, &e))?;
        q = q.opening(opening).as_played(args.as_played);
    }
    if let Some(text) = &args.position {
        let p = Position::from_obf(text).map_err(|e| explain("--position", text, &e))?;
        q = q.position(p);
    }
    if let Some(text) = &args.position_after {
        let p = Position::after_transcript(text, size)
            .map_err(|e| explain("--position-after", text, &e))?;
        q = q.position(p);
    }
    if let Some(key) = args.sort {
        q = q.sort(key);
    }
    if let Some(n) = args.limit {
        q = q.limit(n);
    }
    Ok(q)
}

/// A one-line error for a bad OBF or transcript, naming the character.
fn explain(option: &str, text: &str, e: &wthor_db::query::PositionError) -> anyhow::Error {
    use wthor_db::query::PositionError;
    let at = match e {
        PositionError::Obf(o) => Some(o.position()),
        PositionError::Transcript(t) => Some(t.position()),
        _ => None,
    };
    match at.map(|i| text.trim_start().chars().nth(i)) {
        Some(Some(c)) => anyhow::anyhow!("{option}: {e} (found {c:?})"),
        Some(None) => anyhow::anyhow!("{option}: {e} (at the end)"),
        None => anyhow::anyhow!("{option}: {e}"),
    }
}

/// One game's fields as printed.
struct Row<'a> {
    id: String,
    year: u16,
    black: NameRef<'a>,
    white: NameRef<'a>,
    tournament: NameRef<'a>,
    black_discs: u8,
    white_discs: u8,
    theoretical: u8,
    moves: String,
}

fn row(db: &Database, id: GameId) -> Row<'_> {
    let game = db.game(id).expect("a game found by the search");
    let file = db.file_of(id).expect("its file");
    let (total, size) = match game.board_size() {
        BoardSize::Eight => (64, Size::Eight),
        BoardSize::Ten => (100, Size::Ten),
    };
    let moves: Vec<othello_core::Move> = game
        .moves_raw()
        .iter()
        .take_while(|&&b| b != 0)
        .map_while(|&b| othello_core::Square::from_wthor(b, size).map(othello_core::Move::Play))
        .collect();
    Row {
        id: db.game_name(id).to_string(),
        year: file.year(),
        black: db.black(id),
        white: db.white(id),
        tournament: db.tournament(id),
        black_discs: game.real_score(),
        white_discs: total - game.real_score().min(total),
        theoretical: game.theoretical_score(),
        moves: othello_core::notation::write_transcript(&moves, size),
    }
}

/// Warns about each number beyond its names file (or without one), once
/// per game file and number (on the first game that has it).
fn warn_unknown(
    db: &Database,
    r: &Row<'_>,
    file: usize,
    seen: &mut std::collections::HashSet<(usize, bool, u16)>,
) {
    let join = db.join(file);
    for name in [&r.black, &r.white, &r.tournament] {
        let players = name.kind == wthor_format::NameKind::Players;
        if name.is_known() || !seen.insert((file, players, name.number)) {
            continue;
        }
        let has_file = if players {
            join.players.is_some()
        } else {
            join.tournaments.is_some()
        };
        if has_file {
            eprintln!("wthor: warning: {}: {name} is beyond its names file", r.id);
        } else {
            eprintln!(
                "wthor: warning: {}: {name}: no names file for its game file",
                r.id
            );
        }
    }
}

fn print(db: &Database, ids: &[GameId], format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    let rows: Vec<Row<'_>> = ids.iter().map(|&id| row(db, id)).collect();
    let mut seen = std::collections::HashSet::new();
    for (r, id) in rows.iter().zip(ids) {
        warn_unknown(db, r, id.file(), &mut seen);
    }
    match format {
        Format::Table => {
            let w = |f: &dyn Fn(&Row<'_>) -> usize, min: usize| {
                rows.iter().map(f).max().unwrap_or(0).max(min)
            };
            let wid = w(&|r| r.id.len(), 4);
            let wb = w(&|r| r.black.to_string().chars().count(), 5);
            let ww = w(&|r| r.white.to_string().chars().count(), 5);
            writeln!(
                out,
                "{:wid$}  {:4}  {:wb$}  {:ww$}  {:>7}  {:>5}  TOURNAMENT",
                "GAME", "YEAR", "BLACK", "WHITE", "SCORE", "THEOR"
            )?;
            for r in &rows {
                let score = format!("{}-{}", r.black_discs, r.white_discs);
                writeln!(
                    out,
                    "{:wid$}  {:4}  {:wb$}  {:ww$}  {:>7}  {:>5}  {}",
                    r.id, r.year, r.black, r.white, score, r.theoretical, r.tournament
                )?;
            }
            writeln!(out, "{} games", rows.len())?;
        }
        Format::Csv => {
            writeln!(
                out,
                "game,year,black,white,tournament,black_discs,white_discs,theoretical,moves"
            )?;
            for r in &rows {
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{}",
                    csv(&r.id),
                    r.year,
                    csv(&r.black.to_string()),
                    csv(&r.white.to_string()),
                    csv(&r.tournament.to_string()),
                    r.black_discs,
                    r.white_discs,
                    r.theoretical,
                    r.moves
                )?;
            }
        }
        Format::Jsonl => {
            for r in &rows {
                let line = serde_json::json!({
                    "game": r.id,
                    "year": r.year,
                    "black": r.black.to_string(),
                    "black_number": r.black.number,
                    "white": r.white.to_string(),
                    "white_number": r.white.number,
                    "tournament": r.tournament.to_string(),
                    "tournament_number": r.tournament.number,
                    "black_discs": r.black_discs,
                    "white_discs": r.white_discs,
                    "theoretical": r.theoretical,
                    "moves": r.moves,
                });
                writeln!(out, "{line}")?;
            }
        }
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

/// `A..B`, `A..`, `..B` or `A` (inclusive), as numbers of type `T`.
fn parse_range<T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display>(
    text: &str,
) -> Result<(Option<T>, Option<T>), String> {
    let num = |s: &str| -> Result<Option<T>, String> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| format!("{s:?} is not a number (expected A..B, A.., ..B or A)"))
    };
    let (low, high) = match text.split_once("..") {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let v = num(text)?;
            if v.is_none() {
                return Err("expected A..B, A.., ..B or A".to_owned());
            }
            (v, v)
        }
    };
    if let (Some(l), Some(h)) = (low, high) {
        if l > h {
            return Err(format!("empty range: {l} is above {h}"));
        }
    }
    Ok((low, high))
}

fn parse_years(text: &str) -> Result<(Option<u16>, Option<u16>), String> {
    parse_range(text)
}

fn parse_discs(text: &str) -> Result<(u8, u8), String> {
    let (low, high) = parse_range::<u8>(text)?;
    Ok((low.unwrap_or(0), high.unwrap_or(u8::MAX)))
}

fn parse_sort(text: &str) -> Result<SortKey, String> {
    text.parse()
        .map_err(|e: wthor_db::QueryError| e.to_string())
}

fn parse_size(text: &str) -> Result<u8, String> {
    match text {
        "8" => Ok(8),
        "10" => Ok(10),
        _ => Err("the board size is 8 or 10".to_owned()),
    }
}
