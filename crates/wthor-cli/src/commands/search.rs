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

use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::{Database, GameId, NameRef};

use crate::commands::index::IndexArgs;
use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::csv::field;

/// Arguments of `wthor search`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    #[command(flatten)]
    index: IndexArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Print only the number of games.
    #[arg(long)]
    count: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let query = args.query.build()?;
    let db = args.db.open()?;
    let (index, note) = db.index_for(&query, &args.index.choice());
    if let Some(note) = note {
        eprintln!("wthor: {note}");
    }
    if args.count {
        let n = match &index {
            Some(ix) => db.count_indexed(&query, ix).context("searching")?,
            None => db.count(&query).context("searching")?,
        };
        writeln!(out, "{n}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let ids = match &index {
        Some(ix) => db.search_indexed(&query, ix).context("searching")?,
        None => db.search(&query).context("searching")?,
    };
    print(&db, &ids, args.format, out)?;
    Ok(ExitCode::SUCCESS)
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
    let total = game.board_size().squares();
    let size = wthor_db::rules_size(game.board_size());
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
                    field(&r.id),
                    r.year,
                    field(&r.black.to_string()),
                    field(&r.white.to_string()),
                    field(&r.tournament.to_string()),
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
