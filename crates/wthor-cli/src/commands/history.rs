//! `wthor history POSITION`: a position through the years
//! ([`wthor_db::history`]): per year the games that reach it and black's
//! results, per next move (`--by-move`) the games that played it; the
//! first and the latest game reaching it and playing each move. "First"
//! is the earliest year, then file order: the archive has no dates.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::json;
use wthor_db::history::History;
use wthor_db::query::Position;
use wthor_db::{Database, GameId};

use crate::commands::index::IndexArgs;
use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};

/// Arguments of `wthor history`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::HISTORY)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    index: IndexArgs,
    /// The position: a transcript of moves from the start (`f5d6c3`), or
    /// an OBF position (64 or 100 squares, then the side to move).
    #[arg(value_name = "POSITION", allow_hyphen_values = true)]
    target: String,
    #[command(flatten)]
    query: QueryArgs,
    /// One row per year and next move (a `move` column) instead of one
    /// per year.
    #[arg(long)]
    by_move: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut filters = args.query.filters();
    if filters.position.is_some() || filters.position_after.is_some() {
        anyhow::bail!(
            "the position is the argument POSITION: drop --position and --position-after"
        );
    }
    if filters.sort.is_some() || filters.limit.is_some() {
        anyhow::bail!(
            "--sort and --limit do not apply to a history (every game reaching the position counts)"
        );
    }
    filters.set_position_text(&args.target);
    let query = filters.to_query()?;
    let db = args.db.open()?;
    let searcher = db.searcher(args.index.choice());
    let history = searcher.history(&query).context("history")?;
    super::search::show_note(searcher.note().map(str::to_owned));
    let position = query.position_filter().copied().context("a position")?;
    match args.format {
        Format::Table => table(&db, &history, &position, args.by_move, out)?,
        Format::Csv => csv(&history, &position, args.by_move, out)?,
        Format::Jsonl => jsonl(&db, &history, &position, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Games, black's wins, draws and losses.
fn columns(r: &wthor_db::stats::Results) -> [u64; 4] {
    [r.games, r.black_wins, r.draws, r.black_losses]
}

fn name(sq: othello_core::Square, p: &Position) -> String {
    sq.name(p.size()).to_string()
}

/// `2001:5 (2001, Nakamura - Saio, Tournament)`.
fn game(db: &Database, id: GameId) -> String {
    format!(
        "{} ({}, {} - {}, {})",
        db.game_name(id),
        db.files()[id.file()].year(),
        db.black(id),
        db.white(id),
        db.tournament(id)
    )
}

fn table(
    db: &Database,
    h: &History,
    p: &Position,
    by_move: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(out, "position {}", p.to_obf())?;
    let reached = h.reached();
    if reached == 0 {
        writeln!(out, "no game reaches this position (in any orientation)")?;
        return Ok(());
    }
    writeln!(
        out,
        "{reached} games reach it (in any orientation, by any order of moves); \"first\" is the earliest year, then file order"
    )?;
    if let (Some(first), Some(latest)) = (h.first, h.latest) {
        writeln!(out, "first:  {}", game(db, first))?;
        writeln!(out, "latest: {}", game(db, latest))?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:>4}  {:>6}  {:>6}  {:>5}  {:>6}",
        "year", "games", "black", "draws", "white"
    )?;
    for y in h.years.iter().filter(|y| y.reached.games > 0) {
        let [g, w, d, l] = columns(&y.reached);
        writeln!(out, "{:>4}  {g:>6}  {w:>6}  {d:>5}  {l:>6}", y.year)?;
        if by_move {
            for (sq, m) in &y.moves {
                let [g, w, d, l] = columns(m);
                writeln!(out, "  {:>4}  {g:>6}  {w:>6}  {d:>5}  {l:>6}", name(*sq, p))?;
            }
        }
    }
    if !h.moves.is_empty() {
        writeln!(out)?;
        writeln!(out, "next moves: games, first and latest game")?;
        for m in &h.moves {
            writeln!(
                out,
                "{:>4}  {:>6}  first {}",
                name(m.square, p),
                m.games,
                game(db, m.first)
            )?;
            writeln!(out, "{:>4}  {:>6}  latest {}", "", "", game(db, m.latest))?;
        }
    }
    Ok(())
}

fn csv(h: &History, p: &Position, by_move: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let join = |first: &[String], r: &wthor_db::stats::Results| {
        let mut cells = first.to_vec();
        cells.extend(columns(r).iter().map(u64::to_string));
        cells.join(",")
    };
    if by_move {
        writeln!(out, "year,move,games,black_wins,draws,black_losses")?;
    } else {
        writeln!(out, "year,games,black_wins,draws,black_losses")?;
    }
    for y in &h.years {
        if by_move {
            for (sq, m) in &y.moves {
                writeln!(out, "{}", join(&[y.year.to_string(), name(*sq, p)], m))?;
            }
        } else {
            writeln!(out, "{}", join(&[y.year.to_string()], &y.reached))?;
        }
    }
    Ok(())
}

fn jsonl(db: &Database, h: &History, p: &Position, out: &mut dyn Write) -> anyhow::Result<()> {
    let id = |g: Option<GameId>| g.map(|g| db.game_name(g).to_string());
    for y in &h.years {
        let moves: serde_json::Map<String, serde_json::Value> = y
            .moves
            .iter()
            .map(|(sq, m)| {
                (
                    name(*sq, p),
                    json!({"games": m.games, "blackWins": m.black_wins, "draws": m.draws, "blackLosses": m.black_losses}),
                )
            })
            .collect();
        let r = &y.reached;
        serde_json::to_writer(
            &mut *out,
            &json!({"kind": "year", "year": y.year, "games": r.games, "blackWins": r.black_wins,
                "draws": r.draws, "blackLosses": r.black_losses, "moves": moves}),
        )?;
        writeln!(out)?;
    }
    for m in &h.moves {
        serde_json::to_writer(
            &mut *out,
            &json!({"kind": "move", "move": name(m.square, p), "games": m.games,
                "first": id(Some(m.first)), "latest": id(Some(m.latest))}),
        )?;
        writeln!(out)?;
    }
    serde_json::to_writer(
        &mut *out,
        &json!({"kind": "position", "obf": p.to_obf(), "games": h.reached(),
            "first": id(h.first), "latest": id(h.latest),
            "order": "earliest year, then file order (the archive has no dates)"}),
    )?;
    writeln!(out)?;
    Ok(())
}
