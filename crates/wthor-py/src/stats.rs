//! `Database.stats`: `wthor-db`'s report of the statistics
//! ([`wthor_db::stats::StatsReport`], the rows `wthor stats --format
//! jsonl` prints) as dicts and lists: serialised by the library's types,
//! read back by Python's `json`, so that no key is written here.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use wthor_db::stats::StatsReport;
use wthor_db::{NamePattern, Stats};

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
    let report = StatsReport::new(stats, patterns, by_year, top);
    let text = serde_json::to_string(&report)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let value = py.import("json")?.call_method1("loads", (text,))?;
    Ok(value.cast_into::<PyDict>()?)
}
