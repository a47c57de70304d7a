//! [`Filters`]: the filters of a query as a front end reads them (names,
//! ranges with open ends, the opening and positions still as text), turned
//! into a [`Query`] in one place. The flags of `wthor search`, `stats` and
//! `export` and the keyword arguments of the Python `Database` methods both
//! fill a `Filters` and call [`Filters::to_query`]; a web query string
//! deserialises into one (`Deserialize`, the keys named as the CLI's flags:
//! `player` (repeatable), `year=2001..2005`, `result=draw`, `size=10`,
//! `sort=score`, `reverse=true`…). Its pieces read their text form with
//! [`FromStr`]: [`Span`] (`A..B`), [`Outcome`] (`black`, `white`, `draw`),
//! [`SortKey`], and [`othello_core::Size`] (`8`, `10`).

use std::fmt;
use std::str::FromStr;

use othello_core::Size;
use serde::{Deserialize, Deserializer};

use super::{AnyBoardError, OpeningMoves, Outcome, PlayerKind, Position, Query, SortKey};
use crate::names::NamePattern;

/// An inclusive range with open ends: `A..B`, `A..`, `..B`, or `A` alone
/// (`A..A`). Read with [`FromStr`] (an empty range, `B` below `A`, is
/// refused), written back by [`Display`](fmt::Display).
///
/// ```
/// use wthor_db::query::Span;
///
/// let y: Span<u16> = "2001..".parse()?;
/// assert_eq!((y.low, y.high), (Some(2001), None));
/// assert_eq!("1990".parse::<Span<u16>>()?, Span::new(Some(1990), Some(1990)));
/// assert!("2005..2001".parse::<Span<u16>>().is_err());
/// assert_eq!(y.to_string(), "2001..");
/// # Ok::<(), wthor_db::query::SpanError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span<T> {
    /// The lowest value, if bounded.
    pub low: Option<T>,
    /// The highest value, if bounded.
    pub high: Option<T>,
}

impl<T> Span<T> {
    /// The range `low..=high`, either end open.
    #[must_use]
    pub const fn new(low: Option<T>, high: Option<T>) -> Span<T> {
        Span { low, high }
    }
}

/// The numbers a [`Span`] holds: read from text, ordered, and bounded, so
/// that an end past the bounds is said to be out of range (with the
/// range), not to be no number.
pub trait SpanValue: FromStr + PartialOrd + Clone + fmt::Display {
    /// The smallest value.
    const MIN: Self;
    /// The largest value.
    const MAX: Self;
}

macro_rules! span_value {
    ($($t:ty),*) => {$(
        impl SpanValue for $t {
            const MIN: $t = <$t>::MIN;
            const MAX: $t = <$t>::MAX;
        }
    )*};
}

span_value!(u8, u16, u32, u64, usize, i8, i16, i32, i64);

/// Why a range could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpanError {
    /// An end is not a number of the range's type.
    #[error("{0:?} is not a number (expected A..B, A.., ..B or A)")]
    NotANumber(String),
    /// An end is a whole number past the bounds of the range's type.
    #[error("{value} is out of range: give a number from {min} to {max}")]
    OutOfRange {
        /// The end given.
        value: String,
        /// The smallest value.
        min: String,
        /// The largest value.
        max: String,
    },
    /// Nothing given.
    #[error("expected A..B, A.., ..B or A")]
    Empty,
    /// The low end above the high end.
    #[error("empty range: {low} is above {high}")]
    Reversed {
        /// The low end given.
        low: String,
        /// The high end given.
        high: String,
    },
}

impl SpanError {
    /// [`SpanError::OutOfRange`] for `value`, an end past the bounds of
    /// `T` (the range said with it): the text reader's and the Python
    /// keywords' one wording.
    #[must_use]
    pub fn out_of_range<T: SpanValue>(value: impl fmt::Display) -> SpanError {
        SpanError::OutOfRange {
            value: value.to_string(),
            min: T::MIN.to_string(),
            max: T::MAX.to_string(),
        }
    }
}

impl<T: SpanValue> FromStr for Span<T> {
    type Err = SpanError;

    fn from_str(text: &str) -> Result<Span<T>, SpanError> {
        let num = |s: &str| -> Result<Option<T>, SpanError> {
            let s = s.trim();
            if s.is_empty() {
                return Ok(None);
            }
            s.parse().map(Some).map_err(|_| {
                let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    SpanError::out_of_range::<T>(s)
                } else {
                    SpanError::NotANumber(s.to_owned())
                }
            })
        };
        let (low, high) = match text.split_once("..") {
            Some((a, b)) => (num(a)?, num(b)?),
            None => match num(text)? {
                Some(v) => (Some(v.clone()), Some(v)),
                None => return Err(SpanError::Empty),
            },
        };
        if let (Some(l), Some(h)) = (&low, &high)
            && l > h
        {
            return Err(SpanError::Reversed {
                low: l.to_string(),
                high: h.to_string(),
            });
        }
        Ok(Span { low, high })
    }
}

impl<T: fmt::Display> fmt::Display for Span<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(low) = &self.low {
            write!(f, "{low}")?;
        }
        f.write_str("..")?;
        if let Some(high) = &self.high {
            write!(f, "{high}")?;
        }
        Ok(())
    }
}

/// A value read from its text form, or from a number (a JSON number, or a
/// query-string value): what the `Deserialize` of the filter pieces share.
fn from_text<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    struct Text;
    impl serde::de::Visitor<'_> for Text {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or a number")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    let text = d.deserialize_any(Text)?;
    text.parse().map_err(serde::de::Error::custom)
}

fn from_text_opt<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    from_text(d).map(Some)
}

impl<'de, T: SpanValue> Deserialize<'de> for Span<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Span<T>, D::Error> {
        from_text(d)
    }
}

/// The one grammar of a flag in a query string (the filters' `exact`,
/// `human`, `program`, `as_played`, `reverse`, and a front end's own
/// flags): `true`, `1`, `yes` or nothing (`exact=`) is true; `false`, `0`
/// or `no` false; a JSON boolean or the numbers 0 and 1 too. For
/// `#[serde(deserialize_with = "wthor_db::query::flag")]`.
///
/// ```
/// #[derive(Debug, serde::Deserialize)]
/// struct Q {
///     #[serde(deserialize_with = "wthor_db::query::flag")]
///     solve: bool,
/// }
/// let q: Q = serde_json::from_str(r#"{"solve": "yes"}"#)?;
/// assert!(q.solve);
/// let e = serde_json::from_str::<Q>(r#"{"solve": "perhaps"}"#).unwrap_err();
/// assert!(e.to_string().starts_with("expected true or false (or 1, 0, yes, no), got \"perhaps\""));
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// # Errors
/// Any other value.
pub fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    struct Flag;
    impl serde::de::Visitor<'_> for Flag {
        type Value = bool;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("true or false (or 1, 0, yes, no)")
        }
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<bool, E> {
            Ok(v)
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<bool, E> {
            match v {
                0 => Ok(false),
                1 => Ok(true),
                _ => Err(E::custom(format_args!(
                    "expected true or false (or 1, 0, yes, no), got {v}"
                ))),
            }
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<bool, E> {
            match v.trim() {
                "" | "1" | "true" | "yes" => Ok(true),
                "0" | "false" | "no" => Ok(false),
                other => {
                    let shown: String = other.chars().take(40).collect();
                    Err(E::custom(format_args!(
                        "expected true or false (or 1, 0, yes, no), got {shown:?}"
                    )))
                }
            }
        }
    }
    d.deserialize_any(Flag)
}

/// One name or several: `player=a` once or repeated in a query string, a
/// string or a list in JSON.
fn one_or_more<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMore {
        One(String),
        More(Vec<String>),
    }
    Ok(match OneOrMore::deserialize(d)? {
        OneOrMore::One(s) => vec![s],
        OneOrMore::More(v) => v,
    })
}

/// The highest rating bound of [`Filters::min_rating`] (no player has
/// been rated near it: the archive's best are about 2100).
pub const MAX_MIN_RATING: u16 = 3000;
/// The filters of a query as given, before they are checked together and
/// read: plain data, every field public, [`Filters::default`] filtering
/// nothing.
///
/// ```
/// use wthor_db::query::{Filters, Span};
///
/// let filters = Filters {
///     players: vec!["Edax".to_owned()],
///     years: Some(Span::new(Some(2001), None)),
///     opening: Some("f5d6".to_owned()),
///     ..Filters::default()
/// };
/// let query = filters.to_query()?;
/// # let _ = query;
/// # Ok::<(), wthor_db::query::FiltersError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Filters {
    /// Games where each name plays either colour (two: games between the
    /// two, at most two); see [`Query::player`].
    #[serde(rename = "player", deserialize_with = "one_or_more")]
    pub players: Vec<String>,
    /// Games where this name has black.
    pub black: Option<String>,
    /// Games where this name has white.
    pub white: Option<String>,
    /// Names match whole names, not substrings.
    #[serde(deserialize_with = "flag")]
    pub exact: bool,
    /// Only games with a program.
    #[serde(deserialize_with = "flag")]
    pub program: bool,
    /// Only games between humans (excludes `program`).
    #[serde(deserialize_with = "flag")]
    pub human: bool,
    /// Games of tournaments whose name matches.
    pub tournament: Option<String>,
    /// Years from..to (inclusive, either end open).
    #[serde(rename = "year")]
    pub years: Option<Span<u16>>,
    /// The result.
    #[serde(deserialize_with = "from_text_opt")]
    pub result: Option<Outcome>,
    /// Black's stored discs low..high (inclusive; an open end is 0 or the
    /// board's squares).
    pub black_discs: Option<Span<u8>>,
    /// The stored theoretical score low..high (as `black_discs`).
    pub theoretical: Option<Span<u8>>,
    /// Games that start with this transcript, under any of the 8
    /// symmetries unless `as_played`.
    pub opening: Option<String>,
    /// Match `opening` as played (no symmetry); needs an `opening`.
    #[serde(deserialize_with = "flag")]
    pub as_played: bool,
    /// Games through the named opening of this name or alias (case- and
    /// accent-insensitive), its sub-lines included; see
    /// [`Query::opening_name`]. A name the table does not know matches no
    /// game ([`Filters::opening_name_note`] says so).
    pub opening_name: Option<String>,
    /// Games that reach this OBF position, in any orientation (its size told
    /// by its length).
    pub position: Option<String>,
    /// Games that reach the position after this transcript, in any
    /// orientation (excludes `position`).
    pub position_after: Option<String>,
    /// 8x8 games whose two players were both rated at least this in the
    /// game's year (see [`Query::min_rating`]); from 1 to
    /// [`MAX_MIN_RATING`].
    #[serde(deserialize_with = "from_text_opt")]
    pub min_rating: Option<u16>,
    /// The board size of `opening` and `position_after`.
    #[serde(deserialize_with = "from_text")]
    pub size: Size,
    /// The order of the games.
    #[serde(deserialize_with = "from_text_opt")]
    pub sort: Option<SortKey>,
    /// Sort in descending order.
    #[serde(rename = "reverse", deserialize_with = "flag")]
    pub descending: bool,
    /// At most this many games (after sorting).
    #[serde(deserialize_with = "from_text_opt")]
    pub limit: Option<usize>,
}

impl Default for Filters {
    /// No filter, 8x8 transcripts.
    fn default() -> Filters {
        Filters {
            players: Vec::new(),
            black: None,
            white: None,
            exact: false,
            program: false,
            human: false,
            tournament: None,
            years: None,
            result: None,
            black_discs: None,
            theoretical: None,
            opening: None,
            as_played: false,
            opening_name: None,
            position: None,
            position_after: None,
            min_rating: None,
            size: Size::Eight,
            sort: None,
            descending: false,
            limit: None,
        }
    }
}

/// A filter given as text (a transcript or an OBF position).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TextFilter {
    /// [`Filters::opening`].
    Opening,
    /// [`Filters::position`].
    Position,
    /// [`Filters::position_after`].
    PositionAfter,
}

/// Where a text filter could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Found {
    /// At this character.
    Char(char),
    /// At the end of the text.
    End,
}

/// Why [`Filters::to_query`] failed. The messages name no front end's
/// flag or keyword: [`FiltersError::worded`] adds it, in the front end's
/// [`KeyStyle`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FiltersError {
    /// Both `program` and `human`.
    #[error("program and human exclude each other")]
    ProgramAndHuman,
    /// A rating bound out of range.
    #[error("minimum rating {0} out of range: expected a rating from 1 to {MAX_MIN_RATING}")]
    MinRating(u16),
    /// More than two players (two: the games between them).
    #[error("at most two players (games between them), got {0}")]
    TooManyPlayers(usize),
    /// `as_played` without an `opening`.
    #[error("as played needs an opening")]
    AsPlayedWithoutOpening,
    /// Both `position` and `position_after`.
    #[error("give a position or a position after a transcript, not both")]
    TwoPositions,
    /// A disc count range that goes past the squares of the board size
    /// ([`Filters::size`]).
    #[error("the {what} range {range} goes past {squares}, the squares of the {side}x{side} board")]
    PastTheBoard {
        /// Which range: `black discs` or `theoretical score`.
        what: &'static str,
        /// The range as given (`65..70`, `70..`).
        range: String,
        /// The squares of the board.
        squares: u8,
        /// Its side.
        side: u8,
    },
    /// A transcript or OBF position that cannot be read; the message is
    /// the error's followed by ` (found 'c')` or ` (at the end)` when it
    /// has a place.
    #[error("{error}{}", found_suffix(*.found))]
    Text {
        /// Which filter.
        filter: TextFilter,
        /// Why.
        error: AnyBoardError,
        /// The character the error points at, if it points at one.
        found: Option<Found>,
    },
}

fn found_suffix(found: Option<Found>) -> String {
    match found {
        Some(Found::Char(c)) => format!(" (found {c:?})"),
        Some(Found::End) => " (at the end)".to_owned(),
        None => String::new(),
    }
}

impl TextFilter {
    /// Its key in a query string ([`Filters::keys`]).
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            TextFilter::Opening => "opening",
            TextFilter::Position => "position",
            TextFilter::PositionAfter => "position_after",
        }
    }
}

/// How a front end names a filter ([`FiltersError::worded`]): the key
/// ([`Filters::keys`]) as a flag, a keyword or a query-string key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyStyle {
    /// `--position-after`, the CLI's flags.
    Flag,
    /// `position_after=`, Python's keywords.
    Keyword,
    /// `position_after`, a query string's keys (the server).
    QueryKey,
}

impl KeyStyle {
    /// A filter's key in this style.
    ///
    /// ```
    /// use wthor_db::query::KeyStyle;
    /// assert_eq!(KeyStyle::Flag.name("position_after"), "--position-after");
    /// assert_eq!(KeyStyle::Keyword.name("position_after"), "position_after=");
    /// assert_eq!(KeyStyle::QueryKey.name("position_after"), "position_after");
    /// ```
    #[must_use]
    pub fn name(self, key: &str) -> String {
        match self {
            KeyStyle::Flag => format!("--{}", key.replace('_', "-")),
            KeyStyle::Keyword => format!("{key}="),
            KeyStyle::QueryKey => key.to_owned(),
        }
    }
}

impl FiltersError {
    /// The error as a front end says it, the one wording of the CLI, the
    /// server and Python: the filter named in `style`, then the message.
    ///
    /// ```
    /// use wthor_db::query::{Filters, KeyStyle};
    /// let filters = Filters { program: true, human: true, ..Filters::default() };
    /// let e = filters.to_query().unwrap_err();
    /// assert_eq!(e.worded(KeyStyle::Flag), "--human: program and human exclude each other");
    /// assert_eq!(e.worded(KeyStyle::Keyword), "human=: program and human exclude each other");
    /// ```
    #[must_use]
    pub fn worded(&self, style: KeyStyle) -> String {
        format!("{}: {self}", style.name(self.key()))
    }

    /// The key ([`Filters::keys`]) of the filter the error is about, for
    /// a front end to name it its own way (a query string's key, a flag,
    /// a keyword): the last of two that exclude each other.
    #[must_use]
    pub fn key(&self) -> &'static str {
        match self {
            FiltersError::ProgramAndHuman => "human",
            FiltersError::MinRating(_) => "min_rating",
            FiltersError::TooManyPlayers(_) => "player",
            FiltersError::AsPlayedWithoutOpening => "as_played",
            FiltersError::TwoPositions => "position_after",
            FiltersError::PastTheBoard { what, .. } => {
                if what.starts_with("black") {
                    "black_discs"
                } else {
                    "theoretical"
                }
            }
            FiltersError::Text { filter, .. } => filter.key(),
        }
    }

    fn text(filter: TextFilter, text: &str, error: AnyBoardError) -> FiltersError {
        let at = match &error {
            AnyBoardError::Obf(o) => Some(o.position()),
            AnyBoardError::Transcript(t) => Some(t.position()),
            // An illegal move (the error names it).
            _ => None,
        };
        let found = at.map(|i| {
            text.trim_start()
                .chars()
                .nth(i)
                .map_or(Found::End, Found::Char)
        });
        FiltersError::Text {
            filter,
            error,
            found,
        }
    }
}

impl Filters {
    /// The keys of the filters as a query string, a JSON object or a
    /// front end's flags name them (the `Deserialize` field names:
    /// `player`, `black`, …, `year`, …, `reverse`, `limit`), in the order
    /// of the fields; read from the derived `Deserialize` itself, so that
    /// the list cannot drift from what it reads.
    ///
    /// ```
    /// let keys = wthor_db::query::Filters::keys();
    /// assert!(keys.contains(&"player") && keys.contains(&"year") && keys.contains(&"reverse"));
    /// assert!(!keys.contains(&"players"));
    /// ```
    #[must_use]
    pub fn keys() -> &'static [&'static str] {
        static KEYS: std::sync::OnceLock<&'static [&'static str]> = std::sync::OnceLock::new();
        KEYS.get_or_init(keys_of::<Filters>)
    }

    /// Sets the position filter from `text`, an OBF position (64 or 100
    /// squares of `X`, `O` or `-`, then the side to move) or else a
    /// transcript from the start: the one reading of a `POSITION`
    /// argument (`wthor history`, Python's `Database.history`).
    pub fn set_position_text(&mut self, text: &str) {
        let text = text.trim().to_owned();
        let board = text.split_whitespace().next().unwrap_or("");
        let obf = (board.len() == 64 || board.len() == 100)
            && board
                .chars()
                .all(|c| matches!(c, 'X' | 'O' | '-' | 'x' | 'o'));
        if obf {
            self.position = Some(text);
        } else {
            self.position_after = Some(text);
        }
    }

    /// The query: every check made here, once for every front end (more
    /// than two players, `program` with `human`, `as_played` without
    /// `opening`, `position` with `position_after`, a disc range past the
    /// board), then the opening and the positions read.
    ///
    /// # Errors
    /// A [`FiltersError`]: a conflict, or the first text filter that cannot
    /// be read (opening, position, position after), naming the character.
    pub fn to_query(&self) -> Result<Query, FiltersError> {
        if self.players.len() > 2 {
            return Err(FiltersError::TooManyPlayers(self.players.len()));
        }
        if self.program && self.human {
            return Err(FiltersError::ProgramAndHuman);
        }
        if self.as_played && self.opening.is_none() {
            return Err(FiltersError::AsPlayedWithoutOpening);
        }
        if self.position.is_some() && self.position_after.is_some() {
            return Err(FiltersError::TwoPositions);
        }
        let (side, squares) = match self.size {
            Size::Eight => (8, 64),
            Size::Ten => (10, 100),
        };
        for (what, range) in [
            ("black discs", self.black_discs),
            ("theoretical score", self.theoretical),
        ] {
            if let Some(Span { low, high }) = range
                && low.max(high).is_some_and(|end| end > squares)
            {
                let end = |v: Option<u8>| v.map(|v| v.to_string()).unwrap_or_default();
                return Err(FiltersError::PastTheBoard {
                    what,
                    range: format!("{}..{}", end(low), end(high)),
                    squares,
                    side,
                });
            }
        }
        if let Some(r) = self.min_rating
            && !(1..=MAX_MIN_RATING).contains(&r)
        {
            return Err(FiltersError::MinRating(r));
        }
        let mut q = Query::new().exact(self.exact);
        if let Some(r) = self.min_rating {
            q = q.min_rating(r);
        }
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
        if let Some(Span { low, high }) = self.years {
            q = q.years(low, high);
        }
        if let Some(r) = self.result {
            q = q.result(r);
        }
        if let Some(Span { low, high }) = self.black_discs {
            q = q.black_discs(low.unwrap_or(0), high.unwrap_or(u8::MAX));
        }
        if let Some(Span { low, high }) = self.theoretical {
            q = q.theoretical(low.unwrap_or(0), high.unwrap_or(u8::MAX));
        }
        if let Some(text) = &self.opening {
            let opening = OpeningMoves::parse(text, self.size)
                .map_err(|e| FiltersError::text(TextFilter::Opening, text, e))?;
            q = q.opening(opening).as_played(self.as_played);
        }
        if let Some(name) = &self.opening_name {
            q = q.opening_name(name);
        }
        if let Some(text) = &self.position {
            let p = Position::from_obf(text)
                .map_err(|e| FiltersError::text(TextFilter::Position, text, e))?;
            q = q.position(p);
        }
        if let Some(text) = &self.position_after {
            let p = Position::after_transcript(text, self.size)
                .map_err(|e| FiltersError::text(TextFilter::PositionAfter, text, e))?;
            q = q.position(p);
        }
        if let Some(key) = self.sort {
            q = q.sort(key).descending(self.descending);
        }
        if let Some(n) = self.limit {
            q = q.limit(n);
        }
        Ok(q)
    }

    /// When `opening_name` names no opening of the table: the sentence
    /// to show (no such name, the closest ones); the query then finds no
    /// game, which is not an error.
    #[must_use]
    pub fn opening_name_note(&self) -> Option<String> {
        self.opening_name
            .as_deref()
            .and_then(|name| crate::openings::table().unknown_name_note(name))
    }

    /// The `players` as name patterns (whole names with `exact`), as the
    /// statistics select the player records to show.
    #[must_use]
    pub fn player_patterns(&self) -> Vec<NamePattern> {
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
}

/// The keys a query type reads: the field names (as renamed) that its
/// derived `Deserialize` hands to `deserialize_struct`, so that a front
/// end lists the keys it takes without a list to keep beside the type
/// ([`Filters::keys`] is this for the filters). An empty list for
/// anything but a struct.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Page {
///     limit: usize,
///     #[serde(rename = "from")]
///     offset: usize,
/// }
/// assert_eq!(wthor_db::query::keys_of::<Page>(), ["limit", "from"]);
/// ```
#[must_use]
pub fn keys_of<'de, T: Deserialize<'de>>() -> &'static [&'static str] {
    struct Fields(&'static [&'static str]);
    #[derive(Debug)]
    struct Found;
    impl fmt::Display for Found {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("fields found")
        }
    }
    impl std::error::Error for Found {}
    impl serde::de::Error for Found {
        fn custom<M: fmt::Display>(_: M) -> Found {
            Found
        }
    }
    struct Probe<'a>(&'a mut Fields);
    impl<'de> Deserializer<'de> for Probe<'_> {
        type Error = Found;
        fn deserialize_any<V: serde::de::Visitor<'de>>(self, _: V) -> Result<V::Value, Found> {
            Err(Found)
        }
        fn deserialize_struct<V: serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            fields: &'static [&'static str],
            _visitor: V,
        ) -> Result<V::Value, Found> {
            self.0.0 = fields;
            Err(Found)
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
            bytes byte_buf option unit unit_struct newtype_struct seq tuple
            tuple_struct map enum identifier ignored_any
        }
    }
    let mut fields = Fields(&[]);
    let _ = T::deserialize(Probe(&mut fields));
    fields.0
}
