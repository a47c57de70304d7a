//! The Python package `wthor`: a thin PyO3 layer over `wthor-db`,
//! `wthor-format` and `othello-core`.
//!
//! Built into a wheel by maturin (`crates/wthor-py/pyproject.toml`, stable
//! ABI `abi3` for Python ≥ 3.9) and imported as `wthor`. The layer has no
//! logic of its own: every answer comes from the crates below it; this
//! crate converts arguments and results, maps errors to Python exceptions
//! once ([`errors`]), and releases the GIL around scans and solves.
//!
//! - [`database`]: `wthor.Database` and `wthor.Game`;
//! - `Database.positions()`: the positions of many games as columns,
//!   built by `wthor_db::positions` (shared with Parquet export) and handed
//!   over as NumPy arrays without a copy;
//! - [`query`]: the keyword filters of `search`, `count`, `positions` and
//!   `stats` as a `wthor_db::Query`;
//! - [`stats`]: `wthor-db`'s statistics as dicts and lists;
//! - [`board`]: `wthor.Board` and `wthor.solve`;
//! - [`text`]: `wthor.read_games` and the format of `Database.export`,
//!   through `wthor_db::text` (the CLI's `export` and `import`);
//! - [`analysis`]: `Game.analyze`, `Database.analyze` and
//!   `Database.accuracy`, from `wthor_db::analysis`;
//! - [`import`]: `Database.import_games`, the steps of `wthor_db::import`
//!   in the order `wthor import` calls them (the same bytes written).
//!
//! Opening, game identities (`"2001:5"`), the names joined to games and the
//! queries are `wthor-db`'s (`DatabaseBuilder`, `Database::game_name` and
//! `parse_game_id`, `Database::black`/`white`/`tournament`, `Query`,
//! `Database::stats`).
//!
//! The Python API (with its types) is described in `wthor.pyi` beside this
//! crate's `Cargo.toml`, and tested by `tests/` with pytest
//! (`cargo xtask py-test`).

use pyo3::prelude::*;

pub mod analysis;
pub mod board;
pub mod database;
pub mod errors;
pub mod import;
pub mod query;
pub mod stats;
pub mod text;

/// The `wthor` module.
#[pymodule]
#[pyo3(name = "wthor")]
fn wthor_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("WthorError", py.get_type::<errors::WthorError>())?;
    m.add("FormatError", py.get_type::<errors::FormatError>())?;
    m.add("NotationError", py.get_type::<errors::NotationError>())?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add_class::<database::PyDatabase>()?;
    m.add_class::<database::PyGame>()?;
    m.add_class::<database::GameIter>()?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<board::PySolution>()?;
    m.add_class::<board::PyEvaluation>()?;
    m.add_function(wrap_pyfunction!(board::solve, m)?)?;
    m.add_function(wrap_pyfunction!(text::read_games, m)?)?;
    m.add("PASS", wthor_db::positions::PASS)?;
    m.add("NO_SCORE", wthor_db::positions::NO_SCORE)?;
    Ok(())
}
