//! `Game.analyze`, `Database.analyze` and `Database.accuracy`: the
//! analyses of `wthor_db::analysis` (the moves of a game judged, exact
//! from `empties`, estimated before by the midgame search) as NumPy
//! columns, and the accuracy
//! table of analysis logs (`wthor analyze --results`) as dicts, serialised
//! by the library's types so that no key is written twice.

use std::collections::HashSet;
use std::path::PathBuf;

use numpy::PyArray1;
use othello_core::Color;
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::analysis::{
    AccuracyOptions, AnalysisError, AnalysisOptions, Analyzer, GameAnalysis, Judged, LogReadError,
    Report, accuracy, read_selected,
};
use wthor_db::verify::RecordKey;
use wthor_db::{Database, GameId, NamePattern};

use crate::database::warn_note;
use crate::errors::illegal_move;

/// The options (`estimate_depth` `None`: the library's default), checked
/// by the library when the analysis runs.
///
/// # Errors
/// `ValueError` for a depth and a time both given.
pub(crate) fn options(
    empties: u8,
    estimate_depth: Option<u32>,
    time_ms: Option<u64>,
) -> PyResult<AnalysisOptions> {
    if estimate_depth.is_some() && time_ms.is_some() {
        return Err(PyValueError::new_err(
            "estimate_depth or time_ms, not both: a depth is repeatable, a time is not",
        ));
    }
    let default = AnalysisOptions::default();
    Ok(AnalysisOptions {
        empties,
        estimate_depth: estimate_depth.unwrap_or(default.estimate_depth),
        estimate_time: time_ms.map(std::time::Duration::from_millis),
    })
}

/// An analysis error as Python's: `IllegalMoveError` for an illegal
/// record, `MemoryError` for tables that cannot be had, `ValueError` for
/// a 10x10 game or options out of range.
pub(crate) fn error(e: &AnalysisError) -> PyErr {
    match e {
        AnalysisError::Illegal(_) => illegal_move(e),
        AnalysisError::Search(_) => PyMemoryError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// The searches of `Game.analyze` with `options`: the analysis of one
/// game's solver on every core.
pub(crate) fn analyzer(options: &AnalysisOptions) -> PyResult<Analyzer> {
    Analyzer::for_one_game(options, None).map_err(|e| PyMemoryError::new_err(e.to_string()))
}

/// The columns of the judged moves of analyses, one row per move, with
/// the database number of each move's game.
#[derive(Default)]
struct Columns {
    game: Vec<u32>,
    index: Vec<u16>,
    square: Vec<u8>,
    black: Vec<bool>,
    empties: Vec<u8>,
    exact: Vec<bool>,
    depth: Vec<u8>,
    value: Vec<i16>,
    played: Vec<i16>,
    loss: Vec<i16>,
}

impl Columns {
    fn push(&mut self, game: u32, moves: &[Judged]) {
        for m in moves {
            let black = m.color == Color::Black;
            let view = |v: i32| {
                let v = if black { v } else { -v };
                i16::try_from(v).unwrap_or(i16::MAX)
            };
            self.game.push(game);
            self.index.push(u16::try_from(m.index).unwrap_or(u16::MAX));
            self.square
                .push(u8::try_from(m.square.index()).unwrap_or(u8::MAX));
            self.black.push(black);
            self.empties.push(m.empties);
            self.exact.push(m.exact);
            self.depth
                .push(m.depth.map_or(0, |d| u8::try_from(d).unwrap_or(u8::MAX)));
            self.value.push(view(m.value));
            self.played.push(view(m.played));
            self.loss.push(i16::try_from(m.loss).unwrap_or(i16::MAX));
        }
    }

    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("game", PyArray1::from_vec(py, self.game))?;
        d.set_item("index", PyArray1::from_vec(py, self.index))?;
        d.set_item("square", PyArray1::from_vec(py, self.square))?;
        d.set_item("black", PyArray1::from_vec(py, self.black))?;
        d.set_item("empties", PyArray1::from_vec(py, self.empties))?;
        d.set_item("exact", PyArray1::from_vec(py, self.exact))?;
        d.set_item("depth", PyArray1::from_vec(py, self.depth))?;
        d.set_item("value", PyArray1::from_vec(py, self.value))?;
        d.set_item("played", PyArray1::from_vec(py, self.played))?;
        d.set_item("loss", PyArray1::from_vec(py, self.loss))?;
        Ok(d)
    }
}

/// `Game.analyze`: the columns of one game's moves, then the other keys
/// of its [`Report`] (the line of `wthor analyze --format jsonl` and the
/// server's) in Python's snake_case (`final_black`, `final_depth` `None`
/// when exact, `exact_from`, `black_line`, `ending`, `estimate`:
/// `{"search": "midgame", "depth": 16}` or `time_ms`, `theoretical`), so
/// that no key is written twice; `theoretical` is always a dict: the check
/// of the stored score, or why it was not checked (`{"status":
/// "not_reached", "depth": 24, "stored": 33, "empties": 20}`: the analysis
/// was exact from fewer empties than the file's depth).
pub(crate) fn of_game<'py>(
    py: Python<'py>,
    number: u32,
    report: &Report,
    depth: u8,
    stored: u8,
) -> PyResult<Bound<'py, PyDict>> {
    let mut c = Columns::default();
    c.push(number, &report.moves);
    let d = c.into_dict(py)?;
    if let serde_json::Value::Object(keys) = to_json(report)? {
        // The moves are the columns; `game` is the number column.
        for (key, value) in keys
            .into_iter()
            .filter(|(k, _)| k != "moves" && k != "game")
        {
            d.set_item(snake_case(&key), json(py, &snake_keys(value))?)?;
        }
    }
    if report.theoretical.is_none() {
        let t = PyDict::new(py);
        t.set_item("status", "not_reached")?;
        t.set_item("depth", depth)?;
        t.set_item("stored", stored)?;
        t.set_item("empties", report.exact_from)?;
        d.set_item("theoretical", t)?;
    }
    Ok(d)
}

/// A camelCase key in Python's snake_case: `finalBlack` is `final_black`.
fn snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `value` with the keys of its objects, at every level, in snake_case.
fn snake_keys(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (snake_case(&k), snake_keys(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(snake_keys).collect()),
        other => other,
    }
}

/// `Database.analyze`: the games `ids` analysed in parallel without the
/// GIL, their moves as one set of columns (`game` the database number
/// of `numbers`); a game that cannot be analysed is left out with a
/// warning naming it.
pub(crate) fn of_games<'py>(
    py: Python<'py>,
    db: &Database,
    ids: &[GameId],
    number: impl Fn(GameId) -> u32,
    options: &AnalysisOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let done =
        py.detach(|| wthor_db::analysis::analyze_games(db, ids, options, options.table_bits()));
    let mut c = Columns::default();
    for (id, result) in &done {
        match result {
            Ok(a) => c.push(number(*id), &a.moves),
            Err(
                e @ (AnalysisError::EstimateDepth(_)
                | AnalysisError::EstimateTime
                | AnalysisError::Empties(_)
                | AnalysisError::Search(_)),
            ) => {
                return Err(error(e));
            }
            Err(e) => warn_note(
                py,
                Some(format!("game {}: {e}: left out", db.game_name(*id))),
            )?,
        }
    }
    c.into_dict(py)
}

/// `Database.accuracy`: the rows of the accuracy table of the games of
/// the logs `results` (those whose keys are in `selected` when given),
/// for the players `players` (all when empty); each log's damaged lines
/// are warnings.
pub(crate) fn table<'py>(
    py: Python<'py>,
    results: &[PathBuf],
    selected: Option<&HashSet<RecordKey>>,
    players: Vec<NamePattern>,
    by_year: bool,
    min_moves: usize,
    worst: usize,
) -> PyResult<Bound<'py, PyList>> {
    let log = read_selected(results, selected).map_err(|e| match e {
        // Another command's log is a wrong argument, not a failed read.
        LogReadError::OtherKind { .. } => PyValueError::new_err(e.to_string()),
        _ => pyo3::exceptions::PyOSError::new_err(e.to_string()),
    })?;
    for w in log.warnings {
        warn_note(py, Some(w))?;
    }
    let games: Vec<GameAnalysis> = log.games.into_iter().map(|(_, g)| g).collect();
    let rows = accuracy(
        &games,
        &AccuracyOptions {
            players,
            by_year,
            min_moves,
            worst,
        },
    );
    Ok(json(py, &rows)?.cast_into::<PyList>()?)
}

/// A value serialised by its library type and read back by Python's
/// `json`.
fn json<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let text = serde_json::to_string(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    py.import("json")?.call_method1("loads", (text,))
}

/// A value serialised by its library type as a JSON value.
fn to_json(value: &impl serde::Serialize) -> PyResult<serde_json::Value> {
    serde_json::to_value(value)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))
}
