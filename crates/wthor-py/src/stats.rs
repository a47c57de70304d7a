//! `Database.stats`: `wthor-db`'s statistics ([`wthor_db::Stats`]) as
//! dicts and lists, with the keys of the rows of `wthor stats --format
//! jsonl` (the same numbers, so that the tests compare them directly).

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::stats::{NextMoves, PlayerRecord, Record, Results, Solved};
use wthor_db::{NamePattern, Stats};

/// `{games, black_wins, draws, black_losses, mean_black_discs}`.
fn results<'py>(py: Python<'py>, r: &Results) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", r.games)?;
    d.set_item("black_wins", r.black_wins)?;
    d.set_item("draws", r.draws)?;
    d.set_item("black_losses", r.black_losses)?;
    d.set_item("mean_black_discs", r.mean_black_discs())?;
    Ok(d)
}

/// `{games, wins, draws, losses, score_percent, mean_disc_difference,
/// first_year, last_year}`.
fn record<'py>(py: Python<'py>, r: &Record) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", r.games)?;
    d.set_item("wins", r.wins)?;
    d.set_item("draws", r.draws)?;
    d.set_item("losses", r.losses)?;
    d.set_item("score_percent", r.score_percent())?;
    d.set_item("mean_disc_difference", r.mean_disc_difference())?;
    d.set_item("first_year", r.first_year)?;
    d.set_item("last_year", r.last_year)?;
    Ok(d)
}

/// True when solved, None when not asked, else why not (the CLI's note).
fn solved(py: Python<'_>, s: Solved) -> PyResult<Bound<'_, PyAny>> {
    let note = match s {
        Solved::NotAsked => return Ok(py.None().into_bound(py)),
        Solved::Yes => return Ok(true.into_pyobject(py)?.to_owned().into_any()),
        Solved::TooManyEmpties(n) => {
            format!("not solved: {n} empty squares (--solve solves at most 24)")
        }
        Solved::TenByTen => "not solved: the exact solver is 8x8 only".to_owned(),
        Solved::NoMove => "not solved: the side to move must pass".to_owned(),
    };
    Ok(note.into_pyobject(py)?.into_any())
}

fn next_moves<'py>(py: Python<'py>, next: &NextMoves) -> PyResult<Bound<'py, PyDict>> {
    let size = next.position.size();
    let d = PyDict::new(py);
    d.set_item("position", next.position.to_obf())?;
    d.set_item("reached", next.reached)?;
    d.set_item("ended", next.ended)?;
    d.set_item("solved", solved(py, next.solved)?)?;
    let moves = PyList::empty(py);
    for m in &next.moves {
        let row = results(py, &m.results)?;
        row.set_item("move", m.square.name(size).to_string())?;
        row.set_item("share", m.share)?;
        row.set_item("exact", m.exact)?;
        moves.append(row)?;
    }
    d.set_item("moves", moves)?;
    Ok(d)
}

fn player<'py>(py: Python<'py>, p: &PlayerRecord, by_year: bool) -> PyResult<Bound<'py, PyDict>> {
    let d = record(py, &p.record)?;
    d.set_item("player", &p.name)?;
    d.set_item("known", p.known)?;
    if by_year {
        let years = PyList::empty(py);
        for (y, r) in &p.by_year {
            let row = record(py, r)?;
            row.set_item("year", y)?;
            years.append(row)?;
        }
        d.set_item("by_year", years)?;
    }
    Ok(d)
}

/// The statistics as a dict: `totals`, `next_moves` (None unless asked),
/// `players`, `openings`, `openings_shorter`. Player records are those of
/// the players `patterns` name when there are any (as `wthor stats` shows
/// them), the tables cut to `top` rows when given.
pub(crate) fn to_dict<'py>(
    py: Python<'py>,
    stats: &Stats,
    patterns: &[NamePattern],
    by_year: bool,
    top: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let totals = results(py, &stats.totals.results)?;
    totals.set_item("median_black_discs", stats.totals.median_black_discs)?;
    d.set_item("totals", totals)?;
    match &stats.next_moves {
        Some(next) => d.set_item("next_moves", next_moves(py, next)?)?,
        None => d.set_item("next_moves", py.None())?,
    }
    let cut = |n: usize| top.map_or(n, |t| n.min(t));
    let players: Vec<&PlayerRecord> = stats
        .players
        .iter()
        .filter(|p| patterns.is_empty() || p.known && patterns.iter().any(|q| q.matches(&p.name)))
        .collect();
    let rows = PyList::empty(py);
    for p in &players[..cut(players.len())] {
        rows.append(player(py, p, by_year)?)?;
    }
    d.set_item("players", rows)?;
    let openings = PyList::empty(py);
    for o in &stats.openings[..cut(stats.openings.len())] {
        let row = results(py, &o.results)?;
        let text: String = o
            .moves
            .iter()
            .map(|sq| sq.name(o.size).to_string())
            .collect();
        row.set_item("opening", text)?;
        row.set_item("share", o.share)?;
        openings.append(row)?;
    }
    d.set_item("openings", openings)?;
    d.set_item("openings_shorter", stats.openings_shorter)?;
    Ok(d)
}
