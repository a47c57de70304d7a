//! `wthor search`: the games of the database that match every filter given.
//!
//! Filters combine with AND; names are matched case- and
//! accent-insensitively as substrings (`--exact` for whole names). Ranges
//! are inclusive, `A..B`, with open ends (`2020..`, `..1985`) or a single
//! value. Results come in database order unless `--sort`ed; each game is
//! printed with its identity (`2001:5`, `WTH_2001.wtd:5`, `FILE:INDEX`),
//! which `wthor replay` accepts. A player or tournament number beyond its
//! names file is shown as `<player N>` with a warning on stderr. CSV and
//! JSON Lines write the one schema of a game, the export's
//! (`wthor_db::text::GameRecord`), which `wthor import` reads back.

use std::io::Write;

use std::process::ExitCode;

use anyhow::Context as _;
use wthor_db::{Database, GameId, NameRef};

use crate::commands::index::IndexArgs;
use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::count;

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
    /// With `--format jsonl`: a `novelty` object in each game (where it
    /// left known play and became unique; see `wthor novelties`).
    #[arg(long, conflicts_with = "count")]
    novelty: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let query = args.query.build()?;
    let db = args.db.open()?;
    let searcher = db.searcher(args.index.choice());
    if args.count {
        let n = searcher.count(&query).context("searching")?;
        show_note(n.note);
        writeln!(out, "{}", n.value)?;
        return Ok(ExitCode::SUCCESS);
    }
    let ids = searcher.search(&query).context("searching")?;
    show_note(ids.note);
    if args.novelty {
        if args.format != Format::Jsonl {
            anyhow::bail!("--novelty goes with --format jsonl");
        }
        let mut lines = Vec::new();
        print(&db, &ids.value, args.format, &mut lines)?;
        let novelties = super::novelties::by_game(&db)?;
        for (line, id) in String::from_utf8(lines)?.lines().zip(&ids.value) {
            let mut record: serde_json::Value = serde_json::from_str(line)?;
            record["novelty"] = novelties
                .get(id)
                .map_or(serde_json::Value::Null, |n| super::novelties::json(n, None));
            serde_json::to_writer(&mut *out, &record)?;
            writeln!(out)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    print(&db, &ids.value, args.format, out)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints why the index was not used, if it was not.
pub(crate) fn show_note(note: Option<String>) {
    if let Some(note) = note {
        eprintln!("wthor: {note}");
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
    opening: &'static str,
}

fn row(db: &Database, id: GameId) -> Row<'_> {
    let game = db.game(id).expect("a game found by the search");
    let file = db.file_of(id).expect("its file");
    let total = game.board_size().squares();
    Row {
        id: db.game_name(id).to_string(),
        year: file.year(),
        black: db.black(id),
        white: db.white(id),
        tournament: db.tournament(id),
        black_discs: game.real_score(),
        white_discs: total - game.real_score().min(total),
        theoretical: game.theoretical_score(),
        opening: wthor_db::openings::table()
            .opening_of_view(&game)
            .map_or("", |o| o.name()),
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
    for name in [&r.black, &r.white, &r.tournament] {
        let players = name.kind == wthor_format::NameKind::Players;
        if name.is_known() || !seen.insert((file, players, name.number)) {
            continue;
        }
        eprintln!(
            "wthor: warning: {}: {}",
            r.id,
            crate::game::unknown_name(db, file, *name)
        );
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
            let wt = w(&|r| r.tournament.to_string().chars().count(), 10);
            writeln!(
                out,
                "{:wid$}  {:4}  {:wb$}  {:ww$}  {:>7}  {:>5}  {:wt$}  OPENING",
                "GAME", "YEAR", "BLACK", "WHITE", "SCORE", "THEOR", "TOURNAMENT"
            )?;
            for r in &rows {
                let score = format!("{}-{}", r.black_discs, r.white_discs);
                let line = format!(
                    "{:wid$}  {:4}  {:wb$}  {:ww$}  {:>7}  {:>5}  {:wt$}  {}",
                    r.id,
                    r.year,
                    r.black,
                    r.white,
                    score,
                    r.theoretical,
                    r.tournament.to_string(),
                    r.opening
                );
                writeln!(out, "{}", line.trim_end())?;
            }
            writeln!(out, "{}", count(rows.len(), "game", "games"))?;
        }
        // One schema of a game: the export's (`wthor_db::text::GameRecord`).
        Format::Csv | Format::Jsonl => {
            let format = if format == Format::Csv {
                wthor_db::text::Format::Csv
            } else {
                wthor_db::text::Format::Jsonl
            };
            let options = wthor_db::text::ExportOptions {
                format,
                empties: None,
            };
            wthor_db::text::export(db, ids, &options, out)?;
        }
    }
    Ok(())
}
