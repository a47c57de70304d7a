//! Game identities: `YEAR:INDEX` (`"2025:0"`) and `FILE:INDEX`
//! (`"WTH_2001.wtd:3"`).
//!
//! **Temporary, one place:** this module names, parses and resolves game
//! identities until `wthor-db` has its own `GameId` (with the same text
//! form); it is then replaced by that type, and nothing else in the crate
//! changes.
//!
//! - `YEAR:INDEX`: game INDEX (from 0) of the yearly 8x8 file
//!   `WTH_YYYY.wtb` (any case);
//! - `FILE:INDEX`: game INDEX of the file of that name (any case): a yearly
//!   10x10 file (`WTH_2001.wtd:3`), so that `2001:3` always means the 8x8
//!   game, or any other file (`PLAYOK_2023.wtb:0`).

/// A game file's label and where its games sit among the database's games.
#[derive(Clone, Debug)]
pub struct Span {
    /// What its identities start with: the year of a yearly 8x8 file
    /// (`2025`), else the file name (`WTH_2001.wtd`).
    pub label: String,
    /// The file name (`WTH_2025.wtb`).
    pub name: String,
    /// The database-wide index of its first game.
    pub start: usize,
    /// Its number of games.
    pub len: usize,
}

impl Span {
    /// The span of a file named `name` whose first game has the
    /// database-wide index `start`.
    #[must_use]
    pub fn new(name: String, start: usize, len: usize) -> Span {
        let label = yearly8(&name).unwrap_or(&name).to_owned();
        Span {
            label,
            name,
            start,
            len,
        }
    }

    /// The identity of the game at `index` in this file.
    #[must_use]
    pub fn id(&self, index: usize) -> String {
        format!("{}:{index}", self.label)
    }
}

/// `Some(year)` when the file name is `WTH_YYYY.wtb` (any case).
fn yearly8(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    let year = lower.strip_prefix("wth_")?.strip_suffix(".wtb")?;
    (year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit())).then(|| &name[4..8])
}

/// The database-wide index of the game `text` names among the game files
/// `spans`.
///
/// # Errors
/// A message: not `LABEL:INDEX` (`Err(Syntax)`), or no such file or game
/// (`Err(Missing)`).
pub fn resolve<'a>(text: &str, spans: impl Iterator<Item = &'a Span>) -> Result<usize, Unknown> {
    let syntax = || {
        Unknown::Syntax(format!(
            "expected YEAR:INDEX or FILE:INDEX (e.g. 2001:0), got {text:?}"
        ))
    };
    let (label, index) = text.trim().rsplit_once(':').ok_or_else(syntax)?;
    let index: usize = index.trim().parse().map_err(|_| syntax())?;
    let label = label.trim();
    let mut spans =
        spans.filter(|s| s.label.eq_ignore_ascii_case(label) || s.name.eq_ignore_ascii_case(label));
    let span = spans
        .next()
        .ok_or_else(|| Unknown::Missing(format!("no game file {label:?} in the database")))?;
    if index >= span.len {
        return Err(Unknown::Missing(format!(
            "{} has {} games (indices from 0), no game {index}",
            span.name, span.len
        )));
    }
    Ok(span.start + index)
}

/// Why a text names no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unknown {
    /// Not `LABEL:INDEX`.
    Syntax(String),
    /// No such file, or no such game in it.
    Missing(String),
}
