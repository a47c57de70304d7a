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
//! | `position` | OBF text or a `wthor.Board` | `--position` |
//! | `size` | 8 or 10 | `--size` |
//! | `sort` | `"year"`, `"black"`, `"white"`, `"tournament"`, `"score"` | `--sort` |
//! | `limit` | int | `--limit` |
//!
//! A keyword given as None is left out. The checks the CLI makes while
//! parsing its flags (one of `program`/`human`, `as_played` only with an
//! opening, one of `position`/`position_after`, size 8 or 10) raise
//! `ValueError` here; the query's own checks (an empty range, more than two
//! players, an unknown sort key) are `wthor-db`'s and raise
//! `wthor.WthorError` with its message when the query runs.

use othello_core::Size;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use wthor_db::query::{Opening, Outcome, PlayerKind, Position, SortKey};
use wthor_db::{NamePattern, Query};

use crate::board::PyBoard;
use crate::errors::{position_error, query_error};

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
    "position",
    "position_after",
    "size",
    "sort",
    "limit",
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
    parse(method, filters)?.query()
}

/// The keyword filters of `method`, read but not yet checked together.
///
/// # Errors
/// As [`query_of`], but for the checks of [`Filters::query`].
pub(crate) fn parse(method: &str, filters: Option<&Bound<'_, PyDict>>) -> PyResult<Filters> {
    let mut f = Filters::default();
    if let Some(d) = filters {
        for (key, value) in d.iter() {
            let key: String = key.extract()?;
            if value.is_none() && KEYWORDS.contains(&key.as_str()) {
                continue;
            }
            f.set(method, &key, &value)?;
        }
    }
    Ok(f)
}

/// The filters as given, before they are checked together.
#[derive(Default)]
pub(crate) struct Filters {
    players: Vec<String>,
    black: Option<String>,
    white: Option<String>,
    exact: bool,
    program: bool,
    human: bool,
    tournament: Option<String>,
    years: Option<(Option<u16>, Option<u16>)>,
    result: Option<Outcome>,
    black_discs: Option<(u8, u8)>,
    theoretical: Option<(u8, u8)>,
    opening: Option<String>,
    as_played: bool,
    position: Option<String>,
    position_after: Option<String>,
    size: Option<u8>,
    sort: Option<SortKey>,
    limit: Option<usize>,
}

/// A pair `(a, b)`, either end None.
fn pair<'py, T: pyo3::conversion::FromPyObjectOwned<'py>>(
    key: &str,
    v: &Bound<'py, PyAny>,
) -> PyResult<(Option<T>, Option<T>)> {
    v.extract::<(Option<T>, Option<T>)>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{key}= expects a pair (a, b) of ints, either end None, got {}",
            v.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    })
}

impl Filters {
    fn set(&mut self, method: &str, key: &str, v: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = |v: &Bound<'_, PyAny>| -> PyResult<String> {
            v.extract::<String>().map_err(|_| {
                PyTypeError::new_err(format!("{key}= expects a str, got {}", type_name(v)))
            })
        };
        match key {
            "player" => {
                if v.is_instance_of::<PyString>() {
                    self.players = vec![text(v)?];
                } else {
                    let names: Vec<String> = v.extract().map_err(|_| {
                        PyTypeError::new_err(format!(
                            "player= expects a name or a pair of names, got {}",
                            type_name(v)
                        ))
                    })?;
                    self.players = names;
                }
            }
            "black" => self.black = Some(text(v)?),
            "white" => self.white = Some(text(v)?),
            "tournament" => self.tournament = Some(text(v)?),
            "opening" => self.opening = Some(text(v)?),
            "position_after" => self.position_after = Some(text(v)?),
            "position" => {
                self.position = Some(if v.is_instance_of::<PyBoard>() {
                    v.call_method0("obf")?.extract()?
                } else {
                    text(v)?
                });
            }
            "exact" => self.exact = v.extract()?,
            "program" => self.program = v.extract()?,
            "human" => self.human = v.extract()?,
            "as_played" => self.as_played = v.extract()?,
            "years" => {
                self.years = Some(match v.extract::<u16>() {
                    Ok(y) => (Some(y), Some(y)),
                    Err(_) => pair::<u16>(key, v)?,
                });
            }
            "black_discs" | "theoretical" => {
                let (low, high) = pair::<u8>(key, v)?;
                let range = Some((low.unwrap_or(0), high.unwrap_or(u8::MAX)));
                if key == "black_discs" {
                    self.black_discs = range;
                } else {
                    self.theoretical = range;
                }
            }
            "result" => {
                self.result = Some(match text(v)?.as_str() {
                    "black" => Outcome::BlackWin,
                    "white" => Outcome::WhiteWin,
                    "draw" => Outcome::Draw,
                    other => {
                        return Err(PyValueError::new_err(format!(
                            "result={other:?}: expected \"black\", \"white\" or \"draw\""
                        )));
                    }
                });
            }
            "size" => {
                let size: u8 = v.extract()?;
                if size != 8 && size != 10 {
                    return Err(PyValueError::new_err(format!(
                        "size={size}: the board size is 8 or 10"
                    )));
                }
                self.size = Some(size);
            }
            "sort" => self.sort = Some(text(v)?.parse().map_err(|e| query_error(&e))?),
            "limit" => self.limit = Some(v.extract()?),
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "{method}() got an unexpected keyword argument '{key}' (filters: {})",
                    KEYWORDS.join(", ")
                )));
            }
        }
        Ok(())
    }

    /// The `player` names as patterns (whole names with `exact`), as
    /// `wthor stats` selects the player records to show.
    pub(crate) fn player_patterns(&self) -> Vec<NamePattern> {
        self.players
            .iter()
            .map(|p| {
                if self.exact {
                    NamePattern::exact(p)
                } else {
                    NamePattern::substring(p)
                }
            })
            .collect()
    }

    /// The query, built as `wthor search` builds it from its flags.
    pub(crate) fn query(&self) -> PyResult<Query> {
        if self.program && self.human {
            return Err(PyValueError::new_err(
                "program=True and human=True exclude each other",
            ));
        }
        if self.as_played && self.opening.is_none() {
            return Err(PyValueError::new_err("as_played=True needs an opening="));
        }
        if self.position.is_some() && self.position_after.is_some() {
            return Err(PyValueError::new_err(
                "give position= or position_after=, not both",
            ));
        }
        let size = if self.size == Some(10) {
            Size::Ten
        } else {
            Size::Eight
        };
        let mut q = Query::new().exact(self.exact);
        for p in &self.players {
            q = q.player(p);
        }
        if let Some(b) = &self.black {
            q = q.black(b);
        }
        if let Some(w) = &self.white {
            q = q.white(w);
        }
        if self.program {
            q = q.kind(PlayerKind::Program);
        }
        if self.human {
            q = q.kind(PlayerKind::Human);
        }
        if let Some(t) = &self.tournament {
            q = q.tournament(t);
        }
        if let Some((from, to)) = self.years {
            q = q.years(from, to);
        }
        if let Some(r) = self.result {
            q = q.result(r);
        }
        if let Some((low, high)) = self.black_discs {
            q = q.black_discs(low, high);
        }
        if let Some((low, high)) = self.theoretical {
            q = q.theoretical(low, high);
        }
        if let Some(text) = &self.opening {
            let opening =
                Opening::parse(text, size).map_err(|e| position_error("opening", text, &e))?;
            q = q.opening(opening).as_played(self.as_played);
        }
        if let Some(text) = &self.position {
            let p = Position::from_obf(text).map_err(|e| position_error("position", text, &e))?;
            q = q.position(p);
        }
        if let Some(text) = &self.position_after {
            let p = Position::after_transcript(text, size)
                .map_err(|e| position_error("position_after", text, &e))?;
            q = q.position(p);
        }
        if let Some(key) = self.sort {
            q = q.sort(key);
        }
        if let Some(n) = self.limit {
            q = q.limit(n);
        }
        Ok(q)
    }
}

/// The type name of a value, for messages.
fn type_name(v: &Bound<'_, PyAny>) -> String {
    v.get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}
