//! `wthor stats --accuracy --results F.jsonl… [--db D FILTERS]`: endgame
//! accuracy per player ([`wthor_db::analysis::accuracy`]) from the results
//! files of `wthor analyze`. With `--db`, the filters select the games as
//! `wthor search` does (a logged game is matched by its record key: file,
//! creation date, index and the hash of its bytes; a warning says how many
//! games of each log are not games of the database); without, every logged
//! game counts and filters are refused.

use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use wthor_db::GameId;
use wthor_db::analysis::{
    AccuracyOptions, GameAnalysis, PlayerAccuracy, accuracy, read_matched, read_selected,
};
use wthor_db::index::IndexChoice;
use wthor_db::query::Filters;

use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::count;
use crate::textfmt::csv::field;

/// What `wthor stats --accuracy` needs of its arguments.
pub(crate) struct Args<'a> {
    pub(crate) db: &'a DbArgs,
    pub(crate) query: &'a QueryArgs,
    pub(crate) results: &'a [PathBuf],
    pub(crate) by_year: bool,
    pub(crate) min_moves: usize,
    pub(crate) top: usize,
    pub(crate) format: Format,
}

pub(crate) fn run(args: &Args<'_>, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let filtered = args.query.filters() != Filters::default();
    // With a database: the logged games that are its games (a warning
    // says how many of each log are not), then those the filters select.
    let (games, warnings): (Vec<GameAnalysis>, Vec<String>) = if args.db.sources().is_empty() {
        if filtered {
            anyhow::bail!("the filters select games of a database: give --db DIR with them");
        }
        let log = read_selected(args.results, None)?;
        (
            log.games.into_iter().map(|(_, g)| g).collect(),
            log.warnings,
        )
    } else {
        let db = args.db.open()?;
        let ids = db
            .searcher(IndexChoice::Never)
            .search(&args.query.build()?)?;
        let selected: HashSet<GameId> = ids.value.into_iter().collect();
        let log = read_matched(&db, args.results)?;
        let games = log
            .games
            .into_iter()
            .filter(|(id, _)| selected.contains(id))
            .map(|(_, g)| g)
            .collect();
        (games, log.warnings)
    };
    for w in &warnings {
        eprintln!("wthor: warning: {w}");
    }
    let mut rows = accuracy(
        &games,
        &AccuracyOptions {
            players: args.query.filters().player_patterns(),
            by_year: args.by_year,
            min_moves: args.min_moves,
            worst: 3,
        },
    );
    if args.top != 0 {
        rows.truncate(args.top);
    }
    match args.format {
        Format::Table => table(&rows, games.len(), args.by_year, out)?,
        Format::Csv => csv(&rows, args.by_year, out)?,
        Format::Jsonl => {
            for row in &rows {
                let mut value = serde_json::to_value(row)?;
                value["kind"] = "accuracy".into();
                serde_json::to_writer(&mut *out, &value)?;
                writeln!(out)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A blunder as `2001:3 #51 a2 -18`.
fn blunders(row: &PlayerAccuracy) -> String {
    row.worst
        .iter()
        .map(|b| format!("{} #{} {} -{}", b.game, b.number, b.square, b.loss))
        .collect::<Vec<_>>()
        .join(", ")
}

fn table(
    rows: &[PlayerAccuracy],
    games: usize,
    by_year: bool,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "endgame accuracy over {} (moves judged exactly; loss in discs)",
        count(games, "analysed game", "analysed games")
    )?;
    let width = rows
        .iter()
        .map(|r| r.player.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let year = |y: &str| {
        if by_year {
            format!("{y:>4}  ")
        } else {
            String::new()
        }
    };
    writeln!(
        out,
        "{:<width$}  {}{:>5}  {:>5}  {:>9}  {:>7}  WORST",
        "PLAYER",
        year("YEAR"),
        "GAMES",
        "MOVES",
        "MEAN LOSS",
        "PERFECT"
    )?;
    for r in rows {
        let line = format!(
            "{:<width$}  {}{:>5}  {:>5}  {:>9.3}  {:>6.1}%  {}",
            r.player,
            year(&r.year.map_or(String::new(), |y| y.to_string())),
            r.games,
            r.moves,
            r.mean_loss,
            100.0 * r.perfect_share,
            blunders(r)
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    if rows.is_empty() {
        writeln!(out, "(no player with moves judged)")?;
    }
    Ok(())
}

fn csv(rows: &[PlayerAccuracy], by_year: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let year = if by_year { "year," } else { "" };
    writeln!(
        out,
        "player,{year}games,moves,total_loss,perfect,mean_loss,perfect_share,worst"
    )?;
    for r in rows {
        let year = match (by_year, r.year) {
            (true, Some(y)) => format!("{y},"),
            _ => String::new(),
        };
        writeln!(
            out,
            "{},{year}{},{},{},{},{:.4},{:.4},{}",
            field(&r.player),
            r.games,
            r.moves,
            r.total_loss,
            r.perfect,
            r.mean_loss,
            r.perfect_share,
            field(&blunders(r))
        )?;
    }
    Ok(())
}
