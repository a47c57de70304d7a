//! Query strings read into the library's types: the filters of `wthor
//! search` ([`Filters`], whose keys are the CLI's flag names) and the
//! parameters of each endpoint, taken out first.

use wthor_db::Query;
use wthor_db::query::{Filters, FiltersError, TextFilter};

use super::error::ApiError;

/// The keys of the filters of `wthor search` in a query string: the
/// fields of [`Filters`] as it reads them (tested against its own list).
pub const FILTER_KEYS: &[&str] = &[
    "player",
    "black",
    "white",
    "exact",
    "human",
    "program",
    "tournament",
    "year",
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
    "reverse",
    "limit",
];

/// The parameters an endpoint takes: its own, and the filters (all of
/// [`FILTER_KEYS`] but some) or none; what the error for a key it does
/// not take lists.
#[derive(Clone, Copy, Debug)]
pub struct Takes {
    own: &'static [&'static str],
    filters_but: Option<&'static [&'static str]>,
}

impl Takes {
    /// `own` and no filter.
    #[must_use]
    pub const fn only(own: &'static [&'static str]) -> Takes {
        Takes {
            own,
            filters_but: None,
        }
    }

    /// `own` and the filters but `but` (which it refuses, or takes as its
    /// own).
    #[must_use]
    pub const fn with_filters(own: &'static [&'static str], but: &'static [&'static str]) -> Takes {
        Takes {
            own,
            filters_but: Some(but),
        }
    }

    /// Whether `key` is one of the filters taken.
    fn filter(&self, key: &str) -> bool {
        self.filters_but
            .is_some_and(|but| FILTER_KEYS.contains(&key) && !but.contains(&key))
    }

    /// The 400 for `key`, which the endpoint does not take.
    fn unknown(&self, key: &str) -> ApiError {
        let filters: Vec<&str> = FILTER_KEYS
            .iter()
            .copied()
            .filter(|k| self.filter(k))
            .collect();
        let takes = match (self.own.join(", "), filters.join(", ")) {
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
}

/// The pairs of a query string, in order.
#[derive(Clone, Debug, Default)]
pub struct Params {
    pairs: Vec<(String, String)>,
}

impl Params {
    /// Reads a raw query string (`None`: no `?`).
    ///
    /// # Errors
    /// A query string that is not `key=value&…` with valid escapes.
    pub fn parse(raw: Option<&str>) -> Result<Params, ApiError> {
        let raw = raw.unwrap_or("");
        let pairs: Vec<(String, String)> = serde_html_form::from_str(raw)
            .map_err(|e| ApiError::bad_request(format!("malformed query string: {e}")))?;
        Ok(Params { pairs })
    }

    /// Takes the last value of `key` out (`None` when absent).
    pub fn take(&mut self, key: &str) -> Option<String> {
        let mut found = None;
        self.pairs.retain(|(k, v)| {
            if k == key {
                found = Some(v.clone());
                false
            } else {
                true
            }
        });
        found
    }

    /// Takes a flag out: absent, `0`, `false` or `no` is false; empty,
    /// `1`, `true` or `yes` true.
    ///
    /// # Errors
    /// Any other value.
    pub fn take_flag(&mut self, key: &str) -> Result<bool, ApiError> {
        match self.take(key).as_deref() {
            None | Some("0" | "false" | "no") => Ok(false),
            Some("" | "1" | "true" | "yes") => Ok(true),
            Some(other) => Err(ApiError::bad_request(format!(
                "{key}: expected 1 or 0, got {:?}",
                clip(other)
            ))),
        }
    }

    /// Takes a count out: `default` when absent, at most `max`.
    ///
    /// # Errors
    /// Not a number, or above `max`.
    pub fn take_count(&mut self, key: &str, default: usize, max: usize) -> Result<usize, ApiError> {
        let Some(text) = self.take(key) else {
            return Ok(default);
        };
        let n: usize = text.trim().parse().map_err(|_| {
            ApiError::bad_request(format!("{key}: expected a number, got {:?}", clip(&text)))
        })?;
        if n > max {
            return Err(ApiError::bad_request(format!(
                "{key}: at most {max}, got {n}"
            )));
        }
        Ok(n)
    }

    /// Whether `key` is given.
    pub fn has(&self, key: &str) -> bool {
        self.pairs.iter().any(|(k, _)| k == key)
    }

    /// The remaining pairs as the filters of `wthor search`, for an
    /// endpoint that `takes` them.
    ///
    /// # Errors
    /// A key the endpoint does not take (the message lists the ones it
    /// takes), a value that cannot be read.
    pub fn filters(&self, takes: &Takes) -> Result<Filters, ApiError> {
        if let Some((key, _)) = self.pairs.iter().find(|(k, _)| !takes.filter(k)) {
            return Err(takes.unknown(key));
        }
        let read = |pairs: &[(String, String)]| {
            serde_html_form::to_string(pairs)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    serde_html_form::from_str::<Filters>(&text).map_err(|e| e.to_string())
                })
        };
        read(&self.pairs).map_err(|whole| {
            // Name the parameter: the first key whose values alone fail.
            for (key, _) in &self.pairs {
                let own: Vec<(String, String)> = self
                    .pairs
                    .iter()
                    .filter(|(k, _)| k == key)
                    .cloned()
                    .collect();
                if let Err(e) = read(&own) {
                    return ApiError::bad_request(format!("{key}: {e}"));
                }
            }
            ApiError::bad_request(whole)
        })
    }

    /// Refuses the pairs left over, for an endpoint that takes no filter.
    ///
    /// # Errors
    /// Any key left: the message lists the ones the endpoint takes.
    pub fn no_more(&self, takes: &Takes) -> Result<(), ApiError> {
        match self.pairs.first() {
            Some((key, _)) => Err(takes.unknown(key)),
            None => Ok(()),
        }
    }

    /// The pairs in a stable order: the key of the cache.
    pub fn normalized(&self) -> String {
        let mut pairs = self.pairs.clone();
        pairs.sort();
        serde_html_form::to_string(&pairs).unwrap_or_default()
    }
}

/// At most 40 characters of a value, for a message.
pub(crate) fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// The query of `filters`; an error names the parameter, with the
/// library's words (the CLI's messages, with `--` dropped).
///
/// # Errors
/// Filters that exclude each other; a transcript or OBF that cannot be
/// read or played (named by `position_after_key`, the parameter that
/// gave [`Filters::position_after`]).
pub fn to_query(filters: &Filters, position_after_key: &str) -> Result<Query, ApiError> {
    filters.to_query().map_err(|e| {
        let message = match &e {
            FiltersError::TooManyPlayers(n) => {
                format!("player is given at most twice (games between two players), got {n}")
            }
            FiltersError::Text { filter, .. } => {
                let key = match filter {
                    TextFilter::Opening => "opening",
                    TextFilter::Position => "position",
                    TextFilter::PositionAfter => position_after_key,
                };
                format!("{key}: {e}")
            }
            _ => e.to_string(),
        };
        ApiError::bad_request(message)
    })
}
