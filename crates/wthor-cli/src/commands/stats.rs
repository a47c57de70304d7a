//! `wthor stats`: statistics of the games matching the query filters (the
//! filters of `wthor search`): totals, and on request the next moves from
//! the position, player records, the most frequent openings.
//!
//! The next-move table names moves in the orientation of the position as
//! given (`--position`, `--position-after`; the start without one); moves
//! a symmetry of the position makes equivalent are one row. `--solve` adds
//! each move's exact score (disc difference for the side to move, perfect
//! play) when the position has at most 24 empty squares. With `--player`
//! given, `--player-records` shows only the players it names: given twice, their
//! head-to-head. A fresh position index answers the position filter; a
//! stale or missing one is reported on stderr and the games are scanned.

use std::io::Write;
use std::process::ExitCode;

use othello_core::{Board, Size};
use serde_json::json;
use wthor_db::Stats;
use wthor_db::query::Position;
use wthor_db::stats::{
    NextMoves, NextMovesAsked, PlayerRecord, Record, Results, Solved, StatsOptions, StatsReport,
};

use crate::commands::index::IndexArgs;
use anyhow::Context as _;

use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::count;
use crate::textfmt::csv::field;

/// Arguments of `wthor stats`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::STATS)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    #[command(flatten)]
    index: IndexArgs,
    /// The next moves from the position (or the start): games, share,
    /// black's win/draw/loss rates, mean black discs. Shown without asking
    /// when --position or --position-after is given.
    #[arg(long)]
    next: bool,
    /// No next-move table, even for a position given.
    #[arg(long, conflicts_with_all = ["next", "solve"])]
    no_next: bool,
    /// The exact score of each next move by perfect play (implies --next;
    /// 8x8 positions with at most 24 empty squares).
    #[arg(long)]
    solve: bool,
    /// Player records: games, wins, draws, losses, score %, mean disc
    /// difference, first and last year (only the --player names when given).
    #[arg(long)]
    player_records: bool,
    /// Player records by year too (implies --player-records).
    #[arg(long)]
    by_year: bool,
    /// The most frequent openings of DEPTH moves (canonical orientation).
    #[arg(long, value_name = "DEPTH")]
    openings: Option<usize>,
    /// Rows of the player and opening tables (0: all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    top: usize,
    /// Output format. CSV holds one table: the one the options ask for
    /// (the totals without any), or the one --table names.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// With --format csv: the table to write when the options ask for
    /// several.
    #[arg(long, value_enum)]
    table: Option<Table>,
    /// Endgame accuracy per player instead, from the results files of
    /// `wthor analyze --results` (the filters select the games, with
    /// --db): moves judged, mean loss, share of perfect moves, the worst
    /// blunders; per year with --by-year.
    #[arg(long, requires = "results")]
    accuracy: bool,
    /// The results files of `wthor analyze` that --accuracy reads.
    #[arg(long, value_name = "FILE.jsonl", num_args = 1.., requires = "accuracy")]
    results: Vec<std::path::PathBuf>,
    /// With --accuracy: leave out players with fewer moves judged.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "accuracy")]
    min_moves: usize,
}

/// The tables of `wthor stats`, one per CSV.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Table {
    /// Games and black's results.
    Totals,
    /// The next-move table.
    Next,
    /// Player records.
    Players,
    /// The most frequent openings.
    Openings,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if args.accuracy {
        return super::accuracy::run(
            &super::accuracy::Args {
                db: &args.db,
                query: &args.query,
                results: &args.results,
                by_year: args.by_year,
                min_moves: args.min_moves,
                top: args.top,
                format: args.format,
            },
            out,
        );
    }
    let query = args.query.build()?;
    let db = args.db.open()?;
    let next = if args.no_next {
        NextMovesAsked::No
    } else if args.next {
        NextMovesAsked::Yes
    } else {
        NextMovesAsked::WithPosition
    };
    let options = StatsOptions::default()
        .with_solve(args.solve)
        .with_players(args.player_records)
        .with_by_year(args.by_year)
        .with_openings(args.openings.unwrap_or(0))
        .with_next_moves(next, &query);
    let answer = db
        .searcher(args.index.choice())
        .stats(&query, &options)
        .context("statistics")?;
    super::search::show_note(answer.note);
    let stats = answer.value;
    let patterns = args.query.filters().player_patterns();
    let top = (args.top != 0).then_some(args.top);
    let players = stats.players_shown(&patterns);
    let cut = |n: usize| top.map_or(n, |t| n.min(t));
    let view = View {
        stats: &stats,
        players: &players[..cut(players.len())],
        openings: &stats.openings[..cut(stats.openings.len())],
        options,
        report: StatsReport::new(&stats, &patterns, args.by_year, top),
    };
    match args.format {
        Format::Table => table(&view, out)?,
        Format::Csv => csv(&view, csv_table(args, &view.options)?, out)?,
        Format::Jsonl => jsonl(&view, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// What is printed.
struct View<'a> {
    stats: &'a Stats,
    players: &'a [&'a PlayerRecord],
    openings: &'a [wthor_db::stats::OpeningStats],
    options: StatsOptions,
    /// The same rows as data: what JSON Lines prints.
    report: StatsReport,
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn mean(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}"))
}

fn size_of(p: &Position) -> Size {
    p.size()
}

fn square_name(sq: othello_core::Square, size: Size) -> String {
    sq.name(size).to_string()
}

fn exact(e: Option<i32>) -> String {
    e.map_or_else(String::new, |v| format!("{v:+}"))
}

fn diagram(p: &Position) -> String {
    match p {
        Position::Eight(b) => b.diagram().to_string(),
        Position::Ten(b) => b.diagram().to_string(),
    }
}

fn opening_text(o: &wthor_db::stats::OpeningStats) -> String {
    o.moves.iter().map(|&sq| square_name(sq, o.size)).collect()
}

fn table(v: &View<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
    let t = &v.stats.totals;
    let r = &t.results;
    writeln!(out, "games          {:>8}", r.games)?;
    writeln!(
        out,
        "black wins     {:>8}  {:>6}",
        r.black_wins,
        pct(r.black_win_rate())
    )?;
    writeln!(
        out,
        "draws          {:>8}  {:>6}",
        r.draws,
        pct(r.draw_rate())
    )?;
    writeln!(
        out,
        "black losses   {:>8}  {:>6}",
        r.black_losses,
        pct(r.black_loss_rate())
    )?;
    writeln!(
        out,
        "black discs    mean {}, median {}",
        mean(r.mean_black_discs()),
        t.median_black_discs
            .map_or_else(|| "-".to_owned(), |m| format!("{m}"))
    )?;
    writeln!(
        out,
        "theoretical    mean {} (black's discs after perfect play from each file's depth)",
        mean(r.mean_black_theoretical())
    )?;
    if let Some(next) = &v.stats.next_moves {
        next_table(next, out)?;
    }
    if v.options.players {
        players_table(v, out)?;
    }
    if v.options.openings > 0 {
        writeln!(out)?;
        writeln!(
            out,
            "openings of {} ({} shorter):",
            count(v.options.openings, "move", "moves"),
            count(v.stats.openings_shorter, "game", "games")
        )?;
        let w = v
            .openings
            .iter()
            .map(|o| opening_text(o).len())
            .max()
            .unwrap_or(0)
            .max(7);
        writeln!(
            out,
            "{:w$}  {:>7}  {:>6}  {:>9}  {:>6}  {:>10}  {:>10}  {:>10}  NAME",
            "OPENING",
            "GAMES",
            "SHARE",
            "BLACK WIN",
            "DRAW",
            "BLACK LOSS",
            "MEAN BLACK",
            "MEAN THEOR"
        )?;
        for o in v.openings {
            let line = format!(
                "{:w$}  {}  {}",
                opening_text(o),
                results_cells(&o.results, o.share),
                o.name.as_deref().unwrap_or("")
            );
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    Ok(())
}

fn results_cells(r: &Results, share: f64) -> String {
    format!(
        "{:>7}  {:>6}  {:>9}  {:>6}  {:>10}  {:>10}  {:>10}",
        r.games,
        pct(share),
        pct(r.black_win_rate()),
        pct(r.draw_rate()),
        pct(r.black_loss_rate()),
        mean(r.mean_black_discs()),
        mean(r.mean_black_theoretical())
    )
}

fn next_table(next: &NextMoves, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out)?;
    writeln!(out, "next moves from")?;
    write!(out, "{}", diagram(&next.position))?;
    writeln!(out, "position {}", next.position.to_obf())?;
    writeln!(
        out,
        "{} {} it in some orientation (moves are named in this one), {} there",
        count(next.reached, "game", "games"),
        if next.reached == 1 {
            "reaches"
        } else {
            "reach"
        },
        if next.ended == 1 {
            "1 ends".to_owned()
        } else {
            format!("{} end", next.ended)
        }
    )?;
    let solved = next.solved == Solved::Yes;
    write!(
        out,
        "{:4}  {:>7}  {:>6}  {:>9}  {:>6}  {:>10}  {:>10}  {:>10}",
        "MOVE", "GAMES", "SHARE", "BLACK WIN", "DRAW", "BLACK LOSS", "MEAN BLACK", "MEAN THEOR"
    )?;
    if solved {
        write!(out, "  {:>5}", "EXACT")?;
    }
    writeln!(out, "  NAME")?;
    let size = size_of(&next.position);
    for m in &next.moves {
        let mut line = format!(
            "{:4}  {}",
            square_name(m.square, size),
            results_cells(&m.results, m.share)
        );
        if solved {
            line.push_str(&format!("  {:>5}", exact(m.exact)));
        }
        line.push_str("  ");
        line.push_str(m.name.as_deref().unwrap_or(""));
        writeln!(out, "{}", line.trim_end())?;
    }
    if let Some(note) = next.solved.note() {
        writeln!(out, "{note}")?;
    }
    Ok(())
}

fn record_cells(r: &Record) -> String {
    format!(
        "{:>6}  {:>5}  {:>5}  {:>6}  {:>6}  {:>9}  {:>5}  {:>5}",
        r.games,
        r.wins,
        r.draws,
        r.losses,
        format!("{:.1}", r.score_percent()),
        r.mean_disc_difference()
            .map_or_else(|| "-".to_owned(), |d| format!("{d:+.2}")),
        r.first_year,
        r.last_year
    )
}

fn players_table(v: &View<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
    writeln!(out)?;
    writeln!(out, "players ({} in these games):", v.stats.players.len())?;
    let w = v
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(6);
    writeln!(
        out,
        "{:w$}  {:>6}  {:>5}  {:>5}  {:>6}  {:>6}  {:>9}  {:>5}  {:>5}",
        "PLAYER", "GAMES", "WINS", "DRAWS", "LOSSES", "SCORE%", "MEAN DIFF", "FIRST", "LAST"
    )?;
    for p in v.players {
        writeln!(out, "{:w$}  {}", p.name, record_cells(&p.record))?;
        for (year, r) in &p.by_year {
            writeln!(out, "{:>w$}  {}", year, record_cells(r))?;
        }
    }
    if let [a, b] = v.players
        && v.stats.players.len() == 2
    {
        let (ra, rb) = (&a.record, &b.record);
        writeln!(
            out,
            "head-to-head: {} {}, {}, {} {}",
            a.name,
            count(ra.wins, "win", "wins"),
            count(ra.draws, "draw", "draws"),
            b.name,
            count(rb.wins, "win", "wins")
        )?;
    }
    Ok(())
}

fn results_csv(r: &Results) -> String {
    format!(
        "{},{},{},{},{},{}",
        r.games,
        r.black_wins,
        r.draws,
        r.black_losses,
        r.mean_black_discs()
            .map_or_else(String::new, |m| format!("{m:.4}")),
        r.mean_black_theoretical()
            .map_or_else(String::new, |m| format!("{m:.4}"))
    )
}

fn record_csv(r: &Record) -> String {
    format!(
        "{},{},{},{},{:.4},{},{},{}",
        r.games,
        r.wins,
        r.draws,
        r.losses,
        r.score_percent(),
        r.mean_disc_difference()
            .map_or_else(String::new, |m| format!("{m:.4}")),
        r.first_year,
        r.last_year
    )
}

/// The one table of a CSV: `--table`, else the one table the options ask
/// for (the totals when they ask for none); several asked for without
/// `--table` is a usage error naming them.
fn csv_table(args: &Args, options: &StatsOptions) -> anyhow::Result<Table> {
    let asked: Vec<Table> = [
        (options.next_moves, Table::Next),
        (options.players, Table::Players),
        (options.openings > 0, Table::Openings),
    ]
    .into_iter()
    .filter_map(|(on, t)| on.then_some(t))
    .collect();
    match (args.table, asked.as_slice()) {
        (Some(Table::Totals), _) => Ok(Table::Totals),
        (Some(t), _) if asked.contains(&t) => Ok(t),
        (Some(t), _) => anyhow::bail!(
            "--table {}: that table is not asked for (give its option: --next, --player-records, --openings)",
            table_name(t)
        ),
        (None, []) => Ok(Table::Totals),
        (None, [one]) => Ok(*one),
        (None, several) => anyhow::bail!(
            "a CSV holds one table: choose it with --table ({}, or totals)",
            several
                .iter()
                .map(|&t| table_name(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn table_name(t: Table) -> &'static str {
    match t {
        Table::Totals => "totals",
        Table::Next => "next",
        Table::Players => "players",
        Table::Openings => "openings",
    }
}

/// CSV: one table, with its header line.
fn csv(v: &View<'_>, table: Table, out: &mut dyn Write) -> anyhow::Result<()> {
    let t = &v.stats.totals;
    if table == Table::Totals {
        writeln!(
            out,
            "games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,median_black_discs"
        )?;
        writeln!(
            out,
            "{},{}",
            results_csv(&t.results),
            t.median_black_discs
                .map_or_else(String::new, |m| m.to_string())
        )?;
    }
    if let (Table::Next, Some(next)) = (table, &v.stats.next_moves) {
        writeln!(
            out,
            "move,games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,share,exact,name"
        )?;
        for m in &next.moves {
            writeln!(
                out,
                "{},{},{:.4},{},{}",
                square_name(m.square, next.position.size()),
                results_csv(&m.results),
                m.share,
                m.exact.map_or_else(String::new, |e| e.to_string()),
                field(m.name.as_deref().unwrap_or(""))
            )?;
        }
    }
    if table == Table::Players {
        writeln!(
            out,
            "player,year,games,wins,draws,losses,score_percent,mean_disc_difference,first_year,last_year"
        )?;
        for p in v.players {
            writeln!(out, "{},,{}", field(&p.name), record_csv(&p.record))?;
            for (year, r) in &p.by_year {
                writeln!(out, "{},{year},{}", field(&p.name), record_csv(r))?;
            }
        }
    }
    if table == Table::Openings {
        writeln!(
            out,
            "opening,games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,share,name"
        )?;
        for o in v.openings {
            writeln!(
                out,
                "{},{},{:.4},{}",
                opening_text(o),
                results_csv(&o.results),
                o.share,
                field(o.name.as_deref().unwrap_or(""))
            )?;
        }
    }
    Ok(())
}

/// A row of the report as a JSON object tagged with its table (`kind`).
fn tagged(row: &impl serde::Serialize, kind: &str) -> anyhow::Result<serde_json::Value> {
    let mut v = serde_json::to_value(row)?;
    v["kind"] = json!(kind);
    Ok(v)
}

/// JSON Lines: one object per row of the report, `kind` telling which
/// table (`totals`, `position` — the position row, its OBF as `obf` —,
/// `next`, `player`, `opening`).
fn jsonl(v: &View<'_>, out: &mut dyn Write) -> anyhow::Result<()> {
    let r = &v.report;
    writeln!(out, "{}", tagged(&r.totals, "totals")?)?;
    if let Some(next) = &r.next_moves {
        writeln!(
            out,
            "{}",
            json!({
                "kind": "position",
                "obf": next.position,
                "reached": next.reached,
                "ended": next.ended,
                "solved": next.solved,
            })
        )?;
        for m in &next.moves {
            writeln!(out, "{}", tagged(m, "next")?)?;
        }
    }
    for p in &r.players {
        writeln!(out, "{}", tagged(p, "player")?)?;
    }
    for o in &r.openings {
        writeln!(out, "{}", tagged(o, "opening")?)?;
    }
    Ok(())
}
