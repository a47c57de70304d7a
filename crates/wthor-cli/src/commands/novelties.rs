//! `wthor novelties`: where the games left known play
//! ([`wthor_db::novelty`]): the novelties most followed by later games, or
//! (`--summary`) the distributions of the novelty's move and of the move at
//! which games become unique.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::json;
use wthor_db::Database;
use wthor_db::analysis::read_matched;
use wthor_db::novelty::{Departure, MoveValue, Novelty, logged_loss};

use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};

/// Arguments of `wthor novelties`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::NOVELTIES)]
#[command(mut_arg("sort", |a| a.hide(true)))]
#[command(mut_arg("reverse", |a| a.hide(true)))]
#[command(mut_arg("limit", |a| a.hide(true)))]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    /// Novelties listed, most followed first (0: all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    top: usize,
    /// The distributions of the novelty's move and of the move at which
    /// games become unique, instead of the list.
    #[arg(long)]
    summary: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Results logs of `wthor analyze --results` (games of this database,
    /// matched by record key): the loss of each novelty move they judged
    /// (exactly); the others have none (too many games to search).
    #[arg(long, value_name = "F.jsonl", num_args = 1..)]
    analysis: Vec<PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let filters = args.query.filters();
    if filters.sort.is_some() || filters.limit.is_some() {
        anyhow::bail!("--sort and --limit do not apply to novelties (see --top)");
    }
    let query = filters.to_query()?;
    let db = args.db.open()?;
    let all = db.novelties(&query).context("novelties")?;
    if args.summary {
        summary(&all, args.format, out)?;
    } else {
        let log = read_matched(&db, &args.analysis).context("--analysis")?;
        for w in &log.warnings {
            eprintln!("wthor: warning: {w}");
        }
        let logged: HashMap<_, _> = log.games.into_iter().collect();
        let value = |n: &Novelty, ply: usize| logged.get(&n.game).and_then(|g| logged_loss(g, ply));
        list(&db, &all, args.top, args.format, &value, out)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Every 8x8 game's novelty, by game (for `--novelty` on other commands).
pub(crate) fn by_game(db: &Database) -> anyhow::Result<HashMap<wthor_db::GameId, Novelty>> {
    let all = db.novelties(&wthor_db::Query::new()).context("novelties")?;
    Ok(all.into_iter().map(|n| (n.game, n)).collect())
}

/// A game's novelty as the `novelty` object of JSON Lines: `kind`
/// (`novelty`, `known`, `copy`, `firstYear`), and for a novelty `move`,
/// `before`, `sameYear`, `followed` and the move's `value`, `loss`,
/// `exact`, `valueDepth` ([`value_json`]); `uniqueFrom` (null: never).
pub(crate) fn json(n: &Novelty, value: Option<&MoveValue>) -> serde_json::Value {
    match n.departure.novelty() {
        Some((ply, before, same_year)) => {
            let mut o = json!({"kind": n.departure.kind(), "move": ply, "before": before,
                "sameYear": same_year, "followed": n.followed, "uniqueFrom": n.unique_from});
            o.as_object_mut()
                .expect("an object")
                .extend(value_json(value).as_object().expect("an object").clone());
            o
        }
        None => json!({"kind": n.departure.kind(), "uniqueFrom": n.unique_from}),
    }
}

/// A novelty move's value for the side that played it (discs; null when
/// unknown, as from a log, which keeps the losses only), `loss` (0: a best
/// move), `exact`, and `valueDepth` (the search's plies for an estimate,
/// else null); every key null when nothing is known.
pub(crate) fn value_json(v: Option<&MoveValue>) -> serde_json::Value {
    json!({"value": v.and_then(|v| v.value), "loss": v.map(|v| v.loss),
        "exact": v.map(|v| v.exact), "valueDepth": v.and_then(|v| v.depth)})
}

/// A novelty move's value in words: `value +2 (exact), loss 0`,
/// `value -4 (14 plies), loss 6`, `loss 3 (exact, from the analysis log)`.
pub(crate) fn value_words(v: &MoveValue) -> String {
    let how = match v.depth {
        Some(d) => format!("{d} plies"),
        None if v.exact => "exact".to_owned(),
        None => "estimate".to_owned(),
    };
    match v.value {
        Some(value) => format!("value {value:+} ({how}), loss {}", v.loss),
        None => format!("loss {} ({how}, from the analysis log)", v.loss),
    }
}

/// A game's novelty in words (`wthor show --novelty`).
pub(crate) fn sentence(n: &Novelty) -> String {
    let unique = n.unique_from.map_or_else(
        || "never unique (another game reaches its last position)".to_owned(),
        |m| format!("unique from move {m}"),
    );
    let left = match n.departure {
        Departure::Novelty {
            ply,
            before,
            same_year,
        } => format!(
            "novelty at move {ply}: a position no earlier year reached ({} of earlier years had reached the one before{}); followed by {} of later years",
            crate::textfmt::count(before, "game", "games"),
            if same_year {
                "; other games of its year reached it too"
            } else {
                ""
            },
            crate::textfmt::count(n.followed, "game", "games")
        ),
        other => other.why_none().unwrap_or_default().to_owned(),
    };
    format!("{left}; {unique}")
}

/// The median of `values` (the lower middle of an even count).
fn median(values: &mut [usize]) -> Option<usize> {
    values.sort_unstable();
    values.get(values.len().saturating_sub(1) / 2).copied()
}

fn summary(all: &[Novelty], format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut novelty: Vec<usize> = all
        .iter()
        .filter_map(|n| match n.departure {
            Departure::Novelty { ply, .. } => Some(ply),
            _ => None,
        })
        .collect();
    let known = all
        .iter()
        .filter(|n| n.departure == Departure::InKnownPlay)
        .count();
    let copies = all
        .iter()
        .filter(|n| n.departure == Departure::Copy)
        .count();
    let first_year = all
        .iter()
        .filter(|n| n.departure == Departure::FirstYear)
        .count();
    let mut unique: Vec<usize> = all.iter().filter_map(|n| n.unique_from).collect();
    let never = all.len() - unique.len();
    let counts = |v: &[usize]| {
        let mut c = vec![0usize; 61];
        for &m in v {
            c[m.min(60)] += 1;
        }
        c
    };
    let (by_novelty, by_unique) = (counts(&novelty), counts(&unique));
    let (novelty_median, unique_median) = (median(&mut novelty), median(&mut unique));
    match format {
        Format::Jsonl => {
            serde_json::to_writer(
                &mut *out,
                &json!({"games": all.len(), "novelties": novelty.len(), "inKnownPlay": known,
                    "copies": copies, "firstYear": first_year, "medianNoveltyMove": novelty_median,
                    "uniqueGames": unique.len(), "neverUnique": never,
                    "medianUniqueMove": unique_median,
                    "byMove": (1..=60).map(|m| json!({"move": m, "novelties": by_novelty[m], "becomeUnique": by_unique[m]})).collect::<Vec<_>>()}),
            )?;
            writeln!(out)?;
        }
        Format::Csv => {
            writeln!(out, "move,novelties,become_unique")?;
            for m in 1..=60 {
                writeln!(out, "{m},{},{}", by_novelty[m], by_unique[m])?;
            }
        }
        Format::Table => {
            let med = |m: Option<usize>| m.map_or_else(|| "-".to_owned(), |m| m.to_string());
            writeln!(
                out,
                "{} games (8x8); \"earlier\" means an earlier year (the archive has no dates)",
                all.len()
            )?;
            writeln!(
                out,
                "left known play:   {} games, median move {}",
                novelty.len(),
                med(novelty_median)
            )?;
            writeln!(
                out,
                "inside known play: {known} games (every position reached in an earlier year)"
            )?;
            writeln!(
                out,
                "copies:            {copies} games (the positions of a game before them)"
            )?;
            writeln!(
                out,
                "first year:        {first_year} games (the database's first year: nothing earlier)"
            )?;
            writeln!(
                out,
                "became unique:     {} games, median move {}; never: {never}",
                unique.len(),
                med(unique_median)
            )?;
            writeln!(out)?;
            writeln!(out, "move  novelties  become unique")?;
            for m in (1..=60).filter(|&m| by_novelty[m] + by_unique[m] > 0) {
                writeln!(out, "{m:>4}  {:>9}  {:>13}", by_novelty[m], by_unique[m])?;
            }
        }
    }
    Ok(())
}

fn list(
    db: &Database,
    all: &[Novelty],
    top: usize,
    format: Format,
    value: &dyn Fn(&Novelty, usize) -> Option<MoveValue>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let mut shown: Vec<(&Novelty, usize, u64, bool)> = all
        .iter()
        .filter_map(|n| match n.departure {
            Departure::Novelty {
                ply,
                before,
                same_year,
            } => Some((n, ply, before, same_year)),
            _ => None,
        })
        .collect();
    shown.sort_by(|a, b| {
        b.0.followed
            .cmp(&a.0.followed)
            .then(a.0.game.cmp(&b.0.game))
    });
    if top != 0 {
        shown.truncate(top);
    }
    let line = |n: &Novelty, ply: usize| -> String {
        db.game(n.game)
            .map(|g| {
                let moves: Vec<othello_core::Move> = g
                    .moves_raw()
                    .iter()
                    .take(ply)
                    .filter_map(|&b| othello_core::Square::from_wthor(b, othello_core::Size::Eight))
                    .map(othello_core::Move::Play)
                    .collect();
                othello_core::notation::write_transcript(&moves, othello_core::Size::Eight)
            })
            .unwrap_or_default()
    };
    let show = |v: Option<i32>| v.map_or_else(|| "-".to_owned(), |v| v.to_string());
    match format {
        Format::Table => {
            writeln!(
                out,
                "{:<10} {:>4} {:>4} {:>7} {:>9} {:>9} {:>5} {:>4}  line",
                "game", "year", "move", "before", "same year", "followed", "value", "loss"
            )?;
            for (n, ply, before, same) in &shown {
                let v = value(n, *ply);
                writeln!(
                    out,
                    "{:<10} {:>4} {:>4} {:>7} {:>9} {:>9} {:>5} {:>4}  {}",
                    db.game_name(n.game).to_string(),
                    n.year,
                    ply,
                    before,
                    if *same { "yes" } else { "no" },
                    n.followed,
                    show(v.and_then(|v| v.value)),
                    show(v.map(|v| v.loss)),
                    line(n, *ply)
                )?;
            }
        }
        Format::Csv => {
            writeln!(
                out,
                "game,year,move,before,same_year,followed,value,loss,exact,value_depth,line"
            )?;
            let cell = |v: Option<String>| v.unwrap_or_default();
            for (n, ply, before, same) in &shown {
                let v = value(n, *ply);
                writeln!(
                    out,
                    "{},{},{ply},{before},{same},{},{},{},{},{},{}",
                    db.game_name(n.game),
                    n.year,
                    n.followed,
                    cell(v.and_then(|v| v.value).map(|x| x.to_string())),
                    cell(v.map(|v| v.loss.to_string())),
                    cell(v.map(|v| v.exact.to_string())),
                    cell(v.and_then(|v| v.depth).map(|x| x.to_string())),
                    line(n, *ply)
                )?;
            }
        }
        Format::Jsonl => {
            for (n, ply, before, same) in &shown {
                let mut o = json!({"game": db.game_name(n.game).to_string(), "year": n.year,
                    "move": ply, "before": before, "sameYear": same, "followed": n.followed,
                    "uniqueFrom": n.unique_from, "line": line(n, *ply)});
                o.as_object_mut().expect("an object").extend(
                    value_json(value(n, *ply).as_ref())
                        .as_object()
                        .expect("an object")
                        .clone(),
                );
                serde_json::to_writer(&mut *out, &o)?;
                writeln!(out)?;
            }
        }
    }
    Ok(())
}
