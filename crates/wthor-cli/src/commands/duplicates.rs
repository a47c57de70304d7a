//! `wthor duplicates [--db DIR] [filters] [--format table|csv|jsonl]`: the
//! games whose moves are equal up to the 8 symmetries
//! ([`wthor_db::duplicates`]), among the games the filters select (all by
//! default): the counts of each kind of copy, then the groups, each its
//! first copy (database order) and its later ones.
//!
//! The table prints the counts, then one line per game; CSV one row per
//! game (no counts); JSON Lines one object with the counts, then one per
//! group (its first copy and later ones as the export's game objects,
//! `wthor_db::text::GameRecord`).

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::duplicates::{Duplicates, Kind};
use wthor_db::index::IndexChoice;
use wthor_db::text::GameRecord;
use wthor_db::{Database, GameId};

use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::count;
use crate::textfmt::csv::field;

/// Arguments of `wthor duplicates`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::DUPLICATES)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let query = args.query.build()?;
    let db = args.db.open()?;
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&query)
        .context("searching")?
        .value;
    let dups = db.duplicates(&ids);
    match args.format {
        Format::Table => table(&db, &dups, out)?,
        Format::Csv => csv(&db, &dups, out)?,
        Format::Jsonl => jsonl(&db, &dups, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Each game of each group: group number (from 1), its copy (`first` or
/// the kind), the symmetry from the first copy (`None` for it).
fn rows(dups: &Duplicates) -> Vec<(usize, &'static str, Option<usize>, GameId)> {
    let mut rows = Vec::new();
    for (n, g) in dups.groups.iter().enumerate() {
        rows.push((n + 1, "first", None, g.first));
        for l in &g.later {
            rows.push((n + 1, l.kind.name(), Some(symmetry_index(l.symmetry)), l.id));
        }
    }
    rows
}

/// The symmetry's number, 0 to 7 (`Symmetry::ALL`, as Python's `symmetry`
/// column).
fn symmetry_index(s: othello_core::symmetry::Symmetry) -> usize {
    othello_core::symmetry::Symmetry::ALL
        .iter()
        .position(|&x| x == s)
        .unwrap_or(0)
}

fn table(db: &Database, dups: &Duplicates, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "{} compared, {} of games with the same moves up to symmetry",
        count(dups.games, "game", "games"),
        count(dups.groups.len(), "group", "groups")
    )?;
    writeln!(
        out,
        "  double-entry   {:>6}  later copies with the same players and year",
        dups.count(Kind::DoubleEntry)
    )?;
    writeln!(
        out,
        "  other-players  {:>6}  later copies by other players or in another year",
        dups.count(Kind::OtherPlayers)
    )?;
    if dups.groups.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    let rows = rows(dups);
    let names: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                db.game_name(r.3).to_string(),
                db.black(r.3).to_string(),
                db.white(r.3).to_string(),
            )
        })
        .collect();
    let w = |f: &dyn Fn(&(String, String, String)) -> usize, min: usize| {
        names.iter().map(f).max().unwrap_or(0).max(min)
    };
    let wid = w(&|n| n.0.chars().count(), 4);
    let wb = w(&|n| n.1.chars().count(), 5);
    let ww = w(&|n| n.2.chars().count(), 5);
    writeln!(
        out,
        "{:>5}  {:13}  {:3}  {:wid$}  {:4}  {:wb$}  {:ww$}  {:>5}  {:>5}  TOURNAMENT",
        "GROUP", "COPY", "SYM", "GAME", "YEAR", "BLACK", "WHITE", "SCORE", "MOVES"
    )?;
    for (r, n) in rows.iter().zip(&names) {
        let game = db.game(r.3).context("a game of the database")?;
        let year = db.file_of(r.3).map_or(0, wthor_db::DbFile::year);
        let total = game.board_size().squares();
        let score = format!(
            "{}-{}",
            game.real_score(),
            total - game.real_score().min(total)
        );
        let sym = r.2.map_or_else(|| "-".to_owned(), |s| s.to_string());
        writeln!(
            out,
            "{:>5}  {:13}  {:>3}  {:wid$}  {:4}  {:wb$}  {:ww$}  {:>5}  {:>5}  {}",
            r.0,
            r.1,
            sym,
            n.0,
            year,
            n.1,
            n.2,
            score,
            game.move_count(),
            db.tournament(r.3)
        )?;
    }
    Ok(())
}

fn csv(db: &Database, dups: &Duplicates, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(
        out,
        "group,copy,symmetry,game,year,black,white,tournament,blackScore,transcript"
    )?;
    for (group, copy, sym, id) in rows(dups) {
        let r = GameRecord::new(db, id).context("a game of the database")?;
        writeln!(
            out,
            "{group},{copy},{},{},{},{},{},{},{},{}",
            sym.map_or_else(String::new, |s| s.to_string()),
            field(&r.game),
            r.year,
            field(&db.black(id).to_string()),
            field(&db.white(id).to_string()),
            field(&db.tournament(id).to_string()),
            r.black_score,
            r.transcript
        )?;
    }
    Ok(())
}

/// The counts line of `--format jsonl`.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Counts {
    games: usize,
    groups: usize,
    double_entry: usize,
    other_players: usize,
}

/// A later copy in `--format jsonl`.
#[derive(serde::Serialize)]
struct LaterCopy {
    kind: &'static str,
    symmetry: usize,
    game: GameRecord,
}

/// A group in `--format jsonl`.
#[derive(serde::Serialize)]
struct Group {
    group: usize,
    first: GameRecord,
    later: Vec<LaterCopy>,
}

fn jsonl(db: &Database, dups: &Duplicates, out: &mut dyn Write) -> anyhow::Result<()> {
    let counts = Counts {
        games: dups.games,
        groups: dups.groups.len(),
        double_entry: dups.count(Kind::DoubleEntry),
        other_players: dups.count(Kind::OtherPlayers),
    };
    writeln!(out, "{}", serde_json::to_string(&counts)?)?;
    let record = |id| GameRecord::new(db, id).context("a game of the database");
    for (n, g) in dups.groups.iter().enumerate() {
        let group = Group {
            group: n + 1,
            first: record(g.first)?,
            later: g
                .later
                .iter()
                .map(|l| {
                    Ok(LaterCopy {
                        kind: l.kind.name(),
                        symmetry: symmetry_index(l.symmetry),
                        game: record(l.id)?,
                    })
                })
                .collect::<anyhow::Result<_>>()?,
        };
        writeln!(out, "{}", serde_json::to_string(&group)?)?;
    }
    Ok(())
}
