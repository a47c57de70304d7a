//! Query strings read into one type per endpoint, validated once: the
//! endpoint's own parameters, and for the endpoints that select games the
//! filters of `wthor search` ([`Filters`], the CLI's flag names), which
//! the type holds. Each type is `Hash + Eq`: the query read is its own
//! cache key.
//!
//! One grammar for the whole query string: flags by
//! [`wthor_db::query::flag`] (`1`/`0`, `true`/`false`, `yes`/`no`), counts
//! by [`Count`] (a default and a maximum), the filters' values by their
//! own types. A value that cannot be read is named by its key, the path
//! [`serde_path_to_error`] gives; a key the endpoint does not take is
//! named with the keys it takes (its type's fields, read from the type by
//! [`keys_of`], and the filters it takes, [`Filters::keys`]).

use std::hash::Hash;

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer};
use wthor_db::Query;
use wthor_db::query::{Filters, flag, keys_of};
use wthor_db::text::Format;

use super::error::ApiError;

/// What an endpoint reads from its query string.
pub trait Endpoint: DeserializeOwned + Default + Clone + Hash + Eq + Send + 'static {
    /// The filters it takes: none, or all of [`Filters::keys`] but these
    /// (which it refuses, or takes as its own parameters).
    const FILTERS: Option<&'static [&'static str]> = None;

    /// Why the filter `key`, which it does not take, is refused, when it
    /// has a word to say (the explorer's: what to give instead); else the
    /// key is unknown to it.
    fn refused(key: &str) -> Option<&'static str> {
        let _ = key;
        None
    }

    /// Where its filters go.
    fn filters_mut(&mut self) -> Option<&mut Filters> {
        None
    }
}

/// A count: `DEFAULT` when absent, at most `MAX`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Count<const DEFAULT: usize, const MAX: usize>(pub usize);

impl<const DEFAULT: usize, const MAX: usize> Default for Count<DEFAULT, MAX> {
    fn default() -> Self {
        Count(DEFAULT)
    }
}

impl<'de, const DEFAULT: usize, const MAX: usize> Deserialize<'de> for Count<DEFAULT, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        let n: usize = text.trim().parse().map_err(|_| {
            serde::de::Error::custom(format_args!("expected a number, got {:?}", clip(&text)))
        })?;
        if n > MAX {
            return Err(serde::de::Error::custom(format_args!(
                "at most {MAX}, got {n}"
            )));
        }
        Ok(Count(n))
    }
}

/// A text that may be left empty (`play=`): `None` when blank.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Ok(Option::<String>::deserialize(d)?.filter(|s| !s.trim().is_empty()))
}

/// `GET /api/v1/explorer`: a position and the filters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExplorerQuery {
    /// The moves from the start, or from `position`.
    #[serde(deserialize_with = "text")]
    pub play: Option<String>,
    /// An OBF position to start from.
    #[serde(deserialize_with = "text")]
    pub position: Option<String>,
    /// Exact scores up to the solver's cap.
    #[serde(deserialize_with = "flag")]
    pub solve: bool,
    /// How many of the latest games reaching the position (newest first).
    pub games: Count<10, 100>,
    /// The top games instead of the latest: by the mean of both players'
    /// ratings, highest first.
    #[serde(deserialize_with = "flag")]
    pub top: bool,
    /// The filters (all but those of a position and of a list of games).
    #[serde(skip)]
    pub filters: Filters,
}

impl Endpoint for ExplorerQuery {
    const FILTERS: Option<&'static [&'static str]> =
        Some(&["position", "position_after", "limit", "sort", "reverse"]);

    fn refused(key: &str) -> Option<&'static str> {
        Some(match key {
            "limit" => {
                "not a parameter of the explorer: the number of games listed is games= (at most 100)"
            }
            "sort" | "reverse" => {
                "not a parameter of the explorer: its games are the latest, newest first, or with top=1 the top rated"
            }
            _ => {
                "not a parameter of the explorer (give the moves with play=, a position with position=)"
            }
        })
    }

    fn filters_mut(&mut self) -> Option<&mut Filters> {
        Some(&mut self.filters)
    }
}

/// `GET /api/v1/history`: a position through the years, read as the
/// explorer reads it, and the filters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryQuery {
    /// The moves from the start, or from `position`.
    #[serde(deserialize_with = "text")]
    pub play: Option<String>,
    /// An OBF position to start from.
    #[serde(deserialize_with = "text")]
    pub position: Option<String>,
    /// The filters (the explorer's).
    #[serde(skip)]
    pub filters: Filters,
}

impl Endpoint for HistoryQuery {
    const FILTERS: Option<&'static [&'static str]> = ExplorerQuery::FILTERS;

    fn refused(key: &str) -> Option<&'static str> {
        Some(match key {
            "limit" | "sort" | "reverse" => {
                "not a parameter of the history: it counts every game reaching the position, year by year"
            }
            _ => {
                "not a parameter of the history (give the moves with play=, a position with position=)"
            }
        })
    }

    fn filters_mut(&mut self) -> Option<&mut Filters> {
        Some(&mut self.filters)
    }
}

/// The most games a search page holds.
pub const SEARCH_MAX_LIMIT: usize = 500;

/// `GET /api/v1/search`: a page of the games the filters select.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchQuery {
    /// The games a page holds.
    pub limit: Count<50, SEARCH_MAX_LIMIT>,
    /// The first game of the page.
    pub offset: Count<0, { usize::MAX }>,
    /// The filters (`limit` is the page's).
    #[serde(skip)]
    pub filters: Filters,
}

impl Endpoint for SearchQuery {
    const FILTERS: Option<&'static [&'static str]> = Some(&["limit"]);

    fn filters_mut(&mut self) -> Option<&mut Filters> {
        Some(&mut self.filters)
    }
}

/// The text formats of the downloads, as `format=` names them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// `csv` (the default).
    #[default]
    Csv,
    /// `jsonl`.
    Jsonl,
    /// `ggf`.
    Ggf,
    /// `txt` (or `transcript`, the CLI's name): transcripts.
    Txt,
}

impl ExportFormat {
    /// The library's format, which knows its media type and extension.
    #[must_use]
    pub fn format(self) -> Format {
        match self {
            ExportFormat::Csv => Format::Csv,
            ExportFormat::Jsonl => Format::Jsonl,
            ExportFormat::Ggf => Format::Ggf,
            ExportFormat::Txt => Format::Transcript,
        }
    }
}

impl<'de> Deserialize<'de> for ExportFormat {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(match name.as_str() {
            "csv" => ExportFormat::Csv,
            "jsonl" => ExportFormat::Jsonl,
            "ggf" => ExportFormat::Ggf,
            "txt" | "transcript" => ExportFormat::Txt,
            other => {
                return Err(serde::de::Error::custom(format_args!(
                    "expected csv, jsonl, ggf or txt (transcript), got {:?}",
                    clip(other)
                )));
            }
        })
    }
}

/// `GET /api/v1/export`: the games the filters select, as a download.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ExportQuery {
    /// The format.
    pub format: ExportFormat,
    /// The filters, all of them.
    #[serde(skip)]
    pub filters: Filters,
}

impl Endpoint for ExportQuery {
    const FILTERS: Option<&'static [&'static str]> = Some(&[]);

    fn filters_mut(&mut self) -> Option<&mut Filters> {
        Some(&mut self.filters)
    }
}

/// `GET /api/v1/games/{id}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameQuery {
    /// `wthor analyze`'s analysis too.
    #[serde(deserialize_with = "flag")]
    pub analysis: bool,
    /// The game's novelty too (`wthor show --novelty`).
    #[serde(deserialize_with = "flag")]
    pub novelty: bool,
}

impl Endpoint for GameQuery {}

/// `GET /api/v1/games/{id}/export`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameExportQuery {
    /// The format.
    pub format: ExportFormat,
}

impl Endpoint for GameExportQuery {}

/// `GET /api/v1/games/{id}/png`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GamePngQuery {
    /// The discs played (default: the end).
    pub ply: Option<Count<0, { usize::MAX }>>,
}

impl Endpoint for GamePngQuery {}

/// `GET /api/v1/players`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayersQuery {
    /// The start of a word of the names.
    pub prefix: String,
    /// How many names.
    pub limit: Count<15, 100>,
}

impl Endpoint for PlayersQuery {}

/// `GET /api/v1/players/{name}`: no parameter.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlayerQuery {}

impl Endpoint for PlayerQuery {}

/// A year that may be left empty: `None` when blank.
fn year<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u16>, D::Error> {
    match text(d)? {
        None => Ok(None),
        Some(t) => t.trim().parse().map(Some).map_err(|_| {
            serde::de::Error::custom(format_args!("expected a year, got {:?}", clip(&t)))
        }),
    }
}

/// `GET /api/v1/ratings`: the list of a year.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RatingsQuery {
    /// The year (the last year with rated games when absent).
    #[serde(deserialize_with = "year")]
    pub year: Option<u16>,
    /// How many players, from the top.
    pub top: Count<50, 1000>,
}

impl Endpoint for RatingsQuery {}

/// The colour a report is about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportSide {
    /// The player's games as black.
    #[default]
    Black,
    /// As white.
    White,
}

/// `GET /api/v1/report/player/{name}`: the preparation report's options.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReportQuery {
    /// The colour of the player's games (`black` when absent).
    #[serde(rename = "as")]
    pub side: ReportSide,
    /// Games of this year and later only.
    #[serde(deserialize_with = "year")]
    pub since: Option<u16>,
}

impl Endpoint for ReportQuery {}

/// The query type of an endpoint read from the request's query string: an
/// extractor whose rejection is the [`ApiError`] naming the key.
#[derive(Clone, Debug)]
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: Endpoint> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, ApiError> {
        read(parts.uri.query()).map(Params)
    }
}

/// Reads a raw query string (`None`: no `?`) into `T`.
///
/// # Errors
/// A query string that is not `key=value&…`; a key `T` does not take (the
/// message lists those it takes); a key given twice (`player` may be given
/// twice); a value that cannot be read, named by its key.
pub fn read<T: Endpoint>(raw: Option<&str>) -> Result<T, ApiError> {
    let pairs: Vec<(String, String)> = serde_html_form::from_str(raw.unwrap_or(""))
        .map_err(|e| ApiError::bad_request(format!("malformed query string: {e}")))?;
    let own_keys = keys_of::<T>();
    let (mut own, mut filters) = (Vec::new(), Vec::new());
    for (key, value) in pairs {
        if own_keys.contains(&key.as_str()) {
            own.push((key, value));
        } else if takes_filter::<T>(&key) {
            filters.push((key, value));
        } else if let (true, Some(why)) =
            (Filters::keys().contains(&key.as_str()), T::refused(&key))
        {
            return Err(ApiError::parameter(&key, why));
        } else {
            return Err(unknown::<T>(&key));
        }
    }
    let mut query: T = deserialize(&own)?;
    if let Some(f) = query.filters_mut() {
        *f = deserialize(&filters)?;
    }
    Ok(query)
}

/// Whether `T` takes the filter `key`.
fn takes_filter<T: Endpoint>(key: &str) -> bool {
    T::FILTERS.is_some_and(|but| Filters::keys().contains(&key) && !but.contains(&key))
}

/// `pairs` read into `D`; an error names the key (the path of the value
/// that failed).
fn deserialize<D: DeserializeOwned>(pairs: &[(String, String)]) -> Result<D, ApiError> {
    let text = serde_html_form::to_string(pairs)
        .map_err(|e| ApiError::bad_request(format!("malformed query string: {e}")))?;
    let de = serde_html_form::Deserializer::from_bytes(text.as_bytes());
    serde_path_to_error::deserialize(de).map_err(|e| {
        let key = e.path().to_string();
        let given = pairs.iter().filter(|(k, _)| *k == key).count();
        if given > 1 {
            // The form reader cannot say more than "unsupported value".
            ApiError::parameter(&key, format!("given {given} times: give it once"))
        } else {
            ApiError::parameter(&key, e.into_inner().to_string())
        }
    })
}

/// The 400 for `key`, which `T` does not take: with the keys it takes.
fn unknown<T: Endpoint>(key: &str) -> ApiError {
    let filters: Vec<&str> = Filters::keys()
        .iter()
        .copied()
        .filter(|k| takes_filter::<T>(k))
        .collect();
    let takes = match (keys_of::<T>().join(", "), filters.join(", ")) {
        (own, filters) if own.is_empty() && filters.is_empty() => "no parameter".to_owned(),
        (own, filters) if filters.is_empty() => own,
        (own, filters) if own.is_empty() => format!("the filters {filters}"),
        (own, filters) => format!("{own}, and the filters {filters}"),
    };
    ApiError::bad_request(format!(
        "unknown parameter `{}`: this endpoint takes {takes}",
        clip(key)
    ))
}

/// At most 40 characters of a value, for a message.
pub(crate) fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// The query of `filters`; an error names the filter's key (the explorer
/// names `position_after` as its `play`).
///
/// # Errors
/// Filters that exclude each other; a transcript or OBF that cannot be
/// read or played.
pub fn to_query(filters: &Filters, position_after_key: &str) -> Result<Query, ApiError> {
    filters.to_query().map_err(|e| {
        let key = match e.key() {
            "position_after" => position_after_key,
            key => key,
        };
        ApiError::parameter(key, e.to_string())
    })
}
