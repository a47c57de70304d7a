//! Columns of positions as NumPy arrays, and their conversion to pandas
//! or pyarrow.

use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use wthor_db::GameId;

use wthor_db::datasets::Unique;
use wthor_db::positions::{self, Columns};

use super::PyDatabase;

/// The columns as a dict of NumPy arrays (no copy of the data).
pub(super) fn columns_dict<'py>(py: Python<'py>, c: Columns) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", PyArray1::from_vec(py, c.player))?;
    d.set_item("opponent", PyArray1::from_vec(py, c.opponent))?;
    d.set_item("side", PyArray1::from_vec(py, c.side))?;
    d.set_item("ply", PyArray1::from_vec(py, c.ply))?;
    d.set_item("move", PyArray1::from_vec(py, c.moves))?;
    d.set_item("final", PyArray1::from_vec(py, c.final_diff))?;
    d.set_item("theoretical", PyArray1::from_vec(py, c.theoretical))?;
    d.set_item("game", PyArray1::from_vec(py, c.game))?;
    if let Some(s) = c.symmetry {
        d.set_item("symmetry", PyArray1::from_vec(py, s))?;
    }
    Ok(d)
}

/// The positions up to symmetry as a dict of NumPy arrays.
pub(super) fn unique_dict(py: Python<'_>, u: Unique) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", PyArray1::from_vec(py, u.player))?;
    d.set_item("opponent", PyArray1::from_vec(py, u.opponent))?;
    d.set_item("side", PyArray1::from_vec(py, u.side))?;
    d.set_item("count", PyArray1::from_vec(py, u.count))?;
    d.set_item("final", PyArray1::from_vec(py, u.final_mean))?;
    d.set_item("theoretical", PyArray1::from_vec(py, u.theoretical_mean))?;
    d.set_item(
        "theoretical_count",
        PyArray1::from_vec(py, u.theoretical_count),
    )?;
    Ok(d)
}

/// The columns of the games `ids`, augmented on request, built without
/// the GIL.
pub(super) fn build<'py>(
    py: Python<'py>,
    db: &PyDatabase,
    ids: &[GameId],
    augment: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c = py.detach(|| {
        let c = positions::collect(db.db(), ids, |g| db.game_rows(g.id));
        if augment { positions::augment(&c) } else { c }
    });
    columns_dict(py, c)
}

/// Converts a dict of columns to `to`: None (the dict), "pandas" or "pyarrow".
pub(super) fn convert<'py>(
    py: Python<'py>,
    d: Bound<'py, PyDict>,
    to: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    match to {
        None | Some("dict") => Ok(d.into_any()),
        Some("pandas") => py.import("pandas")?.getattr("DataFrame")?.call1((d,)),
        Some("pyarrow") => py.import("pyarrow")?.getattr("table")?.call1((d,)),
        Some(other) => Err(PyValueError::new_err(format!(
            "to={other:?}: expected None, \"dict\", \"pandas\" or \"pyarrow\""
        ))),
    }
}
