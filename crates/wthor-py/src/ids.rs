//! Game identities: `YEAR:INDEX` (`"2025:0"`) and `FILE:INDEX`
//! (`"WTH_2025.wtb:0"`).
//!
//! **Temporary, one place:** this module parses and resolves game
//! identities until `wthor-db` has its own `GameId`; it is then replaced by
//! that type, and nothing else in the crate changes.
//!
//! - `YEAR:INDEX`: the games of every game file whose header states that
//!   year, in file order, counted from 0 (a year with an 8x8 and a 10x10
//!   file numbers the 8x8 games first, as `WTH_YYYY.wtb` sorts before
//!   `WTH_YYYY.wtd`);
//! - `FILE:INDEX`: the game of that index (from 0) in the file of that name
//!   (`WTH_2025.wtb`, any case; the stem alone, `WTH_2025`, names the first
//!   file with that stem).

use std::fmt;

/// A parsed game identity, not yet resolved against a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameRef {
    /// `YEAR:INDEX`.
    Year {
        /// The year of the games.
        year: u16,
        /// The index among that year's games.
        index: usize,
    },
    /// `FILE:INDEX`.
    File {
        /// The file name (or stem).
        name: String,
        /// The index in the file.
        index: usize,
    },
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameRef::Year { year, index } => write!(f, "{year}:{index}"),
            GameRef::File { name, index } => write!(f, "{name}:{index}"),
        }
    }
}

/// Parses `YEAR:INDEX` or `FILE:INDEX` (the text before the last `:` is a
/// year when it is four digits).
///
/// # Errors
/// A message saying what was expected.
pub fn parse_game_id(text: &str) -> Result<GameRef, String> {
    let expected = || {
        format!(
            "bad game identity {text:?}: expected YEAR:INDEX (\"2025:0\") or FILE:INDEX (\"WTH_2025.wtb:0\")"
        )
    };
    let (left, right) = text.trim().rsplit_once(':').ok_or_else(expected)?;
    let index = right.trim().parse::<usize>().map_err(|_| expected())?;
    let left = left.trim();
    if left.is_empty() {
        return Err(expected());
    }
    if left.len() == 4 && left.bytes().all(|b| b.is_ascii_digit()) {
        let year = left.parse().map_err(|_| expected())?;
        return Ok(GameRef::Year { year, index });
    }
    Ok(GameRef::File {
        name: left.to_owned(),
        index,
    })
}

/// Where a game file's games sit among the database's games.
#[derive(Clone, Debug)]
pub struct Span {
    /// The file name (`WTH_2025.wtb`).
    pub name: String,
    /// The year of its header.
    pub year: u16,
    /// The database-wide index of its first game.
    pub start: usize,
    /// The number of games of the same year in earlier files.
    pub year_start: usize,
    /// Its number of games.
    pub len: usize,
}

/// The database-wide index of the game `id` names among the game files
/// `spans`, `None` when no game has that identity.
#[must_use]
pub fn resolve<'a>(id: &GameRef, spans: impl Iterator<Item = &'a Span>) -> Option<usize> {
    let spans: Vec<&Span> = spans.collect();
    match id {
        GameRef::Year { year, index } => spans
            .iter()
            .filter(|s| s.year == *year)
            .find(|s| (s.year_start..s.year_start + s.len).contains(index))
            .map(|s| s.start + index - s.year_start),
        GameRef::File { name, index } => {
            let stem = |n: &str| n.rsplit_once('.').map_or(n, |(s, _)| s).to_owned();
            let span = spans
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .or_else(|| {
                    spans
                        .iter()
                        .find(|s| stem(&s.name).eq_ignore_ascii_case(name))
                })?;
            (*index < span.len).then(|| span.start + index)
        }
    }
}

/// The `YEAR:INDEX` identity of the game at `index` in `span`.
#[must_use]
pub fn year_id(span: &Span, index: usize) -> String {
    format!("{}:{}", span.year, span.year_start + index)
}
