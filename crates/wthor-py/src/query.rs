//! The keyword filters of `Database.search`, `count`, `positions` and
//! `stats` as a
//! `wthor_db::Query`, with the meanings of the flags of `wthor search`
//! (`crates/wthor-cli/src/commands/search.rs`): one keyword per flag,
//! ranges as pairs.
//!
//! | keyword | value | `wthor search` |
//! |---|---|---|
//! | `player` | str, or a pair of str (games between the two) | `--player` (once or twice) |
//! | `black`, `white`, `tournament` | str | `--black`, `--white`, `--tournament` |
//! | `exact`, `program`, `human`, `as_played` | bool | the flags of those names |
//! | `years` | `(a, b)`, either end None, or one int | `--year A..B` |
//! | `result` | `"black"`, `"white"` or `"draw"` | `--result` |
//! | `black_discs`, `theoretical` | `(a, b)`, either end None | `--black-discs`, `--theoretical` |
//! | `opening`, `position_after` | a transcript | `--opening`, `--position-after` |
//! | `opening_name` | a name or alias of the table of openings | `--opening-name` |
//! | `position` | OBF text or a `wthor.Board` | `--position` |
//! | `size` | 8 or 10 | `--size` |
//! | `sort` | `"year"`, `"black"`, `"white"`, `"tournament"`, `"score"` | `--sort` |
//! | `limit` | int | `--limit` |
//!
//! A keyword given as None is left out. An `opening_name` that names no
//! opening finds no game, with a `UserWarning` naming the closest names
//! (the note `wthor search` prints on stderr). The checks of
//! `wthor_db::query::Filters::to_query` (more than two players, one of
//! `program`/`human`, `as_played` only with an opening, one of
//! `position`/`position_after`, a range past the board) raise
//! `ValueError`; a size other than 8 or 10 or an unknown result raise
//! `ValueError` when read; the query's own checks (an empty range) are
//! `wthor-db`'s and raise `wthor.WthorError` with its message when the
//! query runs.
//!
//! The keywords fill a `wthor_db::query::Filters`, the struct the flags of
//! `wthor search` fill, and its `to_query` makes the query: the checks
//! together and the reading of the opening and positions are written once
//! there.

use othello_core::Size;
use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use wthor_db::Query;
use wthor_db::query::{Filters, Outcome, Span, SpanError, SpanValue};

use crate::board::PyBoard;
use crate::errors::{filters_error, query_error};

/// The keywords accepted (see the module docs).
pub(crate) const KEYWORDS: &[&str] = &[
    "player",
    "black",
    "white",
    "exact",
    "program",
    "human",
    "tournament",
    "years",
    "result",
    "black_discs",
    "theoretical",
    "opening",
    "as_played",
    "opening_name",
    "position",
    "position_after",
    "size",
    "sort",
    "limit",
    "min_rating",
];

/// Whether `filters` holds a filter other than None.
pub(crate) fn any(filters: Option<&Bound<'_, PyDict>>) -> bool {
    filters.is_some_and(|d| d.values().iter().any(|v| !v.is_none()))
}

/// The query of the keyword filters of `method` (its name for the
/// messages).
///
/// # Errors
/// `TypeError` for an unknown keyword or a value of the wrong type,
/// `ValueError` for a value out of its set, `NotationError` or
/// `IllegalMoveError` for a bad OBF or transcript, `WthorError` for an
/// unknown sort key.
pub(crate) fn query_of(method: &str, filters: Option<&Bound<'_, PyDict>>) -> PyResult<Query> {
    to_query(&parse(method, filters)?)
}

/// The keyword filters of `method`, read but not yet checked together.
///
/// # Errors
/// As [`query_of`], but for the checks of [`to_query`].
pub(crate) fn parse(method: &str, filters: Option<&Bound<'_, PyDict>>) -> PyResult<Filters> {
    let mut f = Filters::default();
    if let Some(d) = filters {
        for (key, value) in d.iter() {
            let key: String = key.extract()?;
            if value.is_none() && KEYWORDS.contains(&key.as_str()) {
                continue;
            }
            set(&mut f, method, &key, &value)?;
        }
        if let Some(note) = f.opening_name_note() {
            let text = std::ffi::CString::new(format!("opening_name: {note}").replace('\0', " "))
                .expect("no NUL left");
            PyErr::warn(d.py(), &d.py().get_type::<PyUserWarning>(), &text, 1)?;
        }
    }
    Ok(f)
}

/// The query, built as `wthor search` builds it from its flags, the
/// conflicts worded with the keywords.
///
/// # Errors
/// `ValueError` for keywords that exclude each other, `NotationError` or
/// `IllegalMoveError` for a bad OBF or transcript.
pub(crate) fn to_query(filters: &Filters) -> PyResult<Query> {
    filters.to_query().map_err(|e| filters_error(&e))
}

/// A pair `(a, b)`, either end None.
fn pair<T: SpanValue + TryFrom<i128>>(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Span<T>> {
    let (low, high) = v.extract::<(Option<i128>, Option<i128>)>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{key}= expects a pair (a, b) of ints, either end None, got {}",
            v.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })?;
    Ok(Span::new(bounded(key, low)?, bounded(key, high)?))
}

/// An end of a span in its type's bounds, else the `ValueError` of the
/// CLI's `--year 0..99999` (the range given).
fn bounded<T: SpanValue + TryFrom<i128>>(key: &str, n: Option<i128>) -> PyResult<Option<T>> {
    n.map(|n| {
        T::try_from(n).map_err(|_| {
            let e = SpanError::out_of_range::<T>(n);
            PyValueError::new_err(format!("{key}=: {e}"))
        })
    })
    .transpose()
}

/// A span of years: one int, or a pair `(a, b)`, either end None.
pub(crate) fn years(key: &str, v: &Bound<'_, PyAny>) -> PyResult<Span<u16>> {
    match v.extract::<i128>() {
        Ok(y) => {
            let y = bounded::<u16>(key, Some(y))?;
            Ok(Span::new(y, y))
        }
        Err(_) => pair::<u16>(key, v),
    }
}

/// Reads keyword `key` of `method` into `f`.
fn set(f: &mut Filters, method: &str, key: &str, v: &Bound<'_, PyAny>) -> PyResult<()> {
    let text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
        v.extract::<String>().map_err(|_| {
            PyTypeError::new_err(format!("{key}= expects a str, got {}", type_name(v)))
        })
    };
    match key {
        "player" => {
            if v.is_instance_of::<PyString>() {
                f.players = vec![text(v)?];
            } else {
                let names: Vec<String> = v.extract().map_err(|_| {
                    PyTypeError::new_err(format!(
                        "player= expects a name or a pair of names, got {}",
                        type_name(v)
                    ))
                })?;
                f.players = names;
            }
        }
        "black" => f.black = Some(text(v)?),
        "white" => f.white = Some(text(v)?),
        "tournament" => f.tournament = Some(text(v)?),
        "opening" => f.opening = Some(text(v)?),
        "opening_name" => f.opening_name = Some(text(v)?),
        "position_after" => f.position_after = Some(text(v)?),
        "position" => {
            f.position = Some(if v.is_instance_of::<PyBoard>() {
                v.call_method0("obf")?.extract()?
            } else {
                text(v)?
            });
        }
        "exact" => f.exact = v.extract()?,
        "program" => f.program = v.extract()?,
        "human" => f.human = v.extract()?,
        "as_played" => f.as_played = v.extract()?,
        "years" => f.years = Some(years(key, v)?),
        "black_discs" => f.black_discs = Some(pair::<u8>(key, v)?),
        "theoretical" => f.theoretical = Some(pair::<u8>(key, v)?),
        "result" => {
            let t = text(v)?;
            f.result = Some(t.parse::<Outcome>().map_err(|_| {
                PyValueError::new_err(format!(
                    "result={t:?}: expected \"black\", \"white\" or \"draw\""
                ))
            })?);
        }
        "size" => {
            let size = v.extract::<u8>()?;
            f.size = size
                .to_string()
                .parse::<Size>()
                .map_err(|e| PyValueError::new_err(format!("size={size}: {e}")))?;
        }
        "sort" => f.sort = Some(text(v)?.parse().map_err(|e| query_error(&e))?),
        "limit" => f.limit = Some(v.extract()?),
        "min_rating" => {
            f.min_rating = Some(v.extract().map_err(|_| {
                PyValueError::new_err(format!(
                    "min_rating={}: expected a whole rating from 1 to {}",
                    v.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string()),
                    wthor_db::query::MAX_MIN_RATING
                ))
            })?);
        }
        _ => {
            return Err(PyTypeError::new_err(format!(
                "{method}() got an unexpected keyword argument '{key}' (filters: {})",
                KEYWORDS.join(", ")
            )));
        }
    }
    Ok(())
}

/// The type name of a value, for messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
