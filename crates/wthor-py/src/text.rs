//! The text formats from Python: `Database.export` (in [`crate::database`])
//! and `wthor.read_games`, both through `wthor_db::text`, the library that
//! `wthor export` and `wthor import` use (so the bytes are the CLI's).

use std::path::{Path, PathBuf};

use othello_core::{Move, Size};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::import::Incoming;
use wthor_db::text::FileFormat;
use wthor_db::text::read::{NamesFiles, read_input};

use crate::errors::{notation_error, read_error};

/// The format of an export: `format` when given (`"csv"`, `"jsonl"`,
/// `"ggf"`, `"transcript"` or `"txt"`, `"obf"`, `"parquet"`), else the
/// extension of `path`, as `wthor export -o PATH` chooses it.
///
/// # Errors
/// `ValueError` for an unknown format, or no format and no known
/// extension.
pub(crate) fn format_of(path: &Path, format: Option<&str>) -> PyResult<FileFormat> {
    match format {
        Some(name) => FileFormat::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "format={name:?}: expected \"csv\", \"jsonl\", \"ggf\", \"transcript\" (or \"txt\"), \"obf\" or \"parquet\""
            ))
        }),
        None => FileFormat::from_path(path).ok_or_else(|| {
            PyValueError::new_err(format!(
                "{}: give format=, or an extension .csv, .jsonl, .ggf, .txt, .obf or .parquet",
                path.display()
            ))
        }),
    }
}

/// A game read as a dict (the keys of the stubs).
fn game_dict<'py>(py: Python<'py>, g: &Incoming) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let moves: Vec<String> = g
        .moves
        .iter()
        .map(|m: &Move| m.name(Size::Eight).to_string())
        .collect();
    d.set_item(
        "transcript",
        othello_core::notation::write_transcript(&g.moves, Size::Eight),
    )?;
    d.set_item("moves", PyList::new(py, moves)?)?;
    d.set_item("black", &g.black)?;
    d.set_item("white", &g.white)?;
    d.set_item("tournament", &g.tournament)?;
    d.set_item("year", g.year)?;
    d.set_item("score", g.score)?;
    d.set_item("winner", g.winner)?;
    d.set_item("theoretical_score", g.theoretical.map(|t| t.score))?;
    d.set_item("depth", g.theoretical.map(|t| t.depth))?;
    d.set_item("line", g.source.line)?;
    Ok(d)
}

/// Reads the games of a text file (CSV, JSON Lines, GGF, transcripts,
/// Logistello or Egaroucid lines; or a WTHOR game file), as `wthor import`
/// reads its inputs: a list of dicts with `moves` (square names, `pa` for
/// a pass), `transcript`, `black`, `white`, `tournament`, `year`, `score`
/// (black's discs), `winner`, `theoretical_score`, `depth` and `line` (or
/// record), None where the input does not tell. A line that is no game
/// raises `NotationError` naming the file and line, unless
/// `errors="skip"`.
#[pyfunction]
#[pyo3(signature = (path, *, errors = "raise"))]
pub fn read_games<'py>(
    py: Python<'py>,
    path: PathBuf,
    errors: &str,
) -> PyResult<Bound<'py, PyList>> {
    let skip = match errors {
        "raise" => false,
        "skip" => true,
        other => {
            return Err(PyValueError::new_err(format!(
                "errors={other:?}: expected \"raise\" or \"skip\""
            )));
        }
    };
    let read = py
        .detach(|| read_input(&path, &NamesFiles::default(), None))
        .map_err(|e| read_error(py, &e))?;
    if let Some(u) = read.unreadable.first().filter(|_| !skip) {
        return Err(notation_error(format!("{}: {}", u.source, u.reason)));
    }
    let list = PyList::empty(py);
    for g in &read.games {
        list.append(game_dict(py, g)?)?;
    }
    Ok(list)
}
