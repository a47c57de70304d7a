//! Queries: which games match a set of filters (all combined with AND).
//!
//! A [`Query`] is built with its methods and run by a
//! [`Searcher`](crate::Searcher) ([`Database::searcher`](crate::Database::searcher): `search`,
//! `count`, `stats`, in parallel or one game after the other, through a
//! position index when one is chosen); games come in database order
//! unless sorted. [`Database::matcher`](crate::Database::matcher)
//! compiles a query once for a database (names matched against each names
//! table, giving sets of player and tournament numbers; opening images;
//! position images), and [`Matcher::matches`] then tests one game, which is
//! what statistics over a query build on.
//!
//! [`Filters`] holds the filters as a front end reads them (the `wthor`
//! command's flags, the Python keywords) and makes the query.
//!
//! Positions are found without replaying every game to the end: a position
//! with `d` discs is reached after exactly `d − 4` moves, so the first
//! `d − 4` move squares of a game must all lie in the occupied squares of
//! one of the position's 8 images (a table lookup per move, no replay), and
//! only the games that pass are replayed, to that move only, and compared
//! with the 8 images (same side to move; a pass at that point reaches the
//! same discs with the other side to move).

use othello_core::notation::parse_transcript;
use othello_core::{Size, Square};
use wthor_format::BoardSize;

mod filters;
mod matcher;
mod run;

pub use filters::{
    Filters, FiltersError, Found, KeyStyle, MAX_MIN_RATING, Span, SpanError, SpanValue, TextFilter,
    flag, keys_of,
};

/// The result of a game for black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Black has more than half the discs.
    BlackWin,
    /// White has more.
    WhiteWin,
    /// Half each.
    Draw,
}

/// `black`, `white` or `draw`, as the CLI's `--result` and the Python
/// `result=` take it.
impl std::str::FromStr for Outcome {
    type Err = QueryError;

    fn from_str(s: &str) -> Result<Outcome, QueryError> {
        Ok(match s {
            "black" => Outcome::BlackWin,
            "white" => Outcome::WhiteWin,
            "draw" => Outcome::Draw,
            _ => return Err(QueryError::UnknownOutcome(s.to_owned())),
        })
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Outcome::BlackWin => "black",
            Outcome::WhiteWin => "white",
            Outcome::Draw => "draw",
        })
    }
}

impl Outcome {
    /// The outcome of a stored score (black's discs) on a board of `size`.
    #[must_use]
    pub fn of_score(black_discs: u8, size: BoardSize) -> Outcome {
        let half = size.squares() / 2;
        match black_discs.cmp(&half) {
            std::cmp::Ordering::Greater => Outcome::BlackWin,
            std::cmp::Ordering::Less => Outcome::WhiteWin,
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }
}

/// Programs or humans: WTHOR writes a program with its author in
/// parentheses (see [`is_program`](crate::names::is_program)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// Games where at least one player is a program.
    Program,
    /// Games where both players are humans.
    Human,
}

/// The order of results (ascending, ties kept in database order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SortKey {
    /// The year of the game's file.
    Year,
    /// Black's name (folded; unknown numbers last).
    Black,
    /// White's name.
    White,
    /// The tournament's name.
    Tournament,
    /// Black's stored score (discs).
    Score,
    /// The mean of both players' ratings of the game's year
    /// ([`Database::filter_ratings`](crate::Database::filter_ratings), as the rating filter and the game
    /// records read them): the "top games" (descending: the highest
    /// first); games with a player unrated (unknown, 10x10) after the
    /// rated ones in descending order, before them in ascending order.
    Rating,
}

impl std::str::FromStr for SortKey {
    type Err = QueryError;

    fn from_str(s: &str) -> Result<SortKey, QueryError> {
        Ok(match s {
            "year" => SortKey::Year,
            "black" => SortKey::Black,
            "white" => SortKey::White,
            "tournament" => SortKey::Tournament,
            "score" => SortKey::Score,
            "rating" => SortKey::Rating,
            _ => return Err(QueryError::UnknownSortKey(s.to_owned())),
        })
    }
}

/// A position to look for, 8x8 or 10x10 (side to move included):
/// `othello-core`'s board of either size, under the name the queries
/// give it.
pub use othello_core::position::AnyBoard as Position;
/// Why a position or an opening could not be read (`othello-core`'s,
/// under its own name: `othello_core::PositionError` is another error).
pub use othello_core::position::AnyBoardError;

/// The first moves of a game, as squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningMoves {
    squares: Vec<Square>,
    size: Size,
}

impl OpeningMoves {
    /// Reads a transcript; passes are dropped (WTHOR records store none).
    /// The moves must be legal from the start.
    ///
    /// # Errors
    /// As [`Position::after_transcript`].
    pub fn parse(text: &str, size: Size) -> Result<OpeningMoves, AnyBoardError> {
        Position::after_transcript(text, size)?;
        let moves = parse_transcript(text, size)?;
        Ok(OpeningMoves {
            squares: moves.iter().filter_map(|m| m.square()).collect(),
            size,
        })
    }

    /// The squares, in order.
    #[must_use]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }
}

/// Why a query cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// A range whose low end is above its high end.
    #[error("empty {what} range {low}..{high}")]
    EmptyRange {
        /// Which range.
        what: &'static str,
        /// Its low end.
        low: u16,
        /// Its high end.
        high: u16,
    },
    /// More than two players.
    #[error("at most two players (games between them), got {0}")]
    TooManyPlayers(usize),
    /// A sort key other than year, black, white, tournament, score, rating.
    #[error("unknown sort key {0:?} (expected year, black, white, tournament, score or rating)")]
    UnknownSortKey(String),
    /// A result other than black, white, draw.
    #[error("unknown result {0:?} (expected black, white or draw)")]
    UnknownOutcome(String),
}

/// A set of filters, all combined with AND, with an order and a limit.
///
/// ```
/// use wthor_db::Query;
/// use wthor_db::query::{OpeningMoves, SortKey};
/// use othello_core::Size;
///
/// let q = Query::new()
///     .player("Edax")
///     .years(Some(2001), Some(2002))
///     .opening(OpeningMoves::parse("f5d6", Size::Eight)?)
///     .sort(SortKey::Score)
///     .limit(10);
/// # let _ = q;
/// # Ok::<(), wthor_db::query::AnyBoardError>(())
/// ```
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct Query {
    players: Vec<String>,
    black: Option<String>,
    white: Option<String>,
    exact: bool,
    kind: Option<PlayerKind>,
    tournament: Option<String>,
    years: (Option<u16>, Option<u16>),
    result: Option<Outcome>,
    black_discs: Option<(u8, u8)>,
    theoretical: Option<(u8, u8)>,
    opening: Option<OpeningMoves>,
    as_played: bool,
    opening_name: Option<String>,
    position: Option<Position>,
    min_rating: Option<u16>,
    sort: Option<SortKey>,
    descending: bool,
    limit: Option<usize>,
}

impl Query {
    /// The query matching every game.
    pub fn new() -> Query {
        Query::default()
    }

    /// Games where `name` plays either colour; given twice, games between
    /// the two (either colours). Substring, case- and accent-insensitive,
    /// unless [`exact`](Query::exact).
    pub fn player(mut self, name: &str) -> Query {
        self.players.push(name.to_owned());
        self
    }

    /// Games where `name` has black.
    pub fn black(mut self, name: &str) -> Query {
        self.black = Some(name.to_owned());
        self
    }

    /// Games where `name` has white.
    pub fn white(mut self, name: &str) -> Query {
        self.white = Some(name.to_owned());
        self
    }

    /// Player names match whole names (still case- and accent-insensitive)
    /// rather than substrings; tournament names too.
    pub fn exact(mut self, exact: bool) -> Query {
        self.exact = exact;
        self
    }

    /// Only games with a program, or only games between humans.
    pub fn kind(mut self, kind: PlayerKind) -> Query {
        self.kind = Some(kind);
        self
    }

    /// Games of tournaments whose name contains `name`.
    pub fn tournament(mut self, name: &str) -> Query {
        self.tournament = Some(name.to_owned());
        self
    }

    /// Games of the years `from..=to` (the header year of their file);
    /// `None` leaves an end open.
    pub fn years(mut self, from: Option<u16>, to: Option<u16>) -> Query {
        self.years = (from, to);
        self
    }

    /// Games with this result (from the stored score).
    pub fn result(mut self, outcome: Outcome) -> Query {
        self.result = Some(outcome);
        self
    }

    /// Games where black's stored discs are in `low..=high`.
    pub fn black_discs(mut self, low: u8, high: u8) -> Query {
        self.black_discs = Some((low, high));
        self
    }

    /// Games whose stored theoretical score (black's discs after perfect
    /// play) is in `low..=high`.
    pub fn theoretical(mut self, low: u8, high: u8) -> Query {
        self.theoretical = Some((low, high));
        self
    }

    /// Games that start with these moves, under any of the 8 symmetries
    /// unless [`as_played`](Query::as_played).
    pub fn opening(mut self, opening: OpeningMoves) -> Query {
        self.opening = Some(opening);
        self
    }

    /// The opening matches as played only (no symmetry).
    pub fn as_played(mut self, as_played: bool) -> Query {
        self.as_played = as_played;
        self
    }

    /// Games that pass through the named opening `name` (a name or alias
    /// of [`openings::table`](crate::openings::table), case- and
    /// accent-insensitive): those whose opening is that one or one of its
    /// sub-lines, the games [`OpeningTable::tally`](crate::openings::OpeningTable::tally)
    /// counts for it. 8x8 games only; a name the table does not know
    /// matches no game (its [`unknown_name_note`](crate::openings::OpeningTable::unknown_name_note)
    /// says which names are closest).
    pub fn opening_name(mut self, name: &str) -> Query {
        self.opening_name = Some(name.to_owned());
        self
    }

    /// The named-opening filter, as given.
    #[must_use]
    pub fn opening_name_filter(&self) -> Option<&str> {
        self.opening_name.as_deref()
    }

    /// 8x8 games whose two players were both rated at least `rating` in
    /// the game's year by the whole database's ratings
    /// ([`Database::filter_ratings`](crate::Database::filter_ratings); a player without games that year has
    /// the fitted curve's value; unrated players, such as `???`, never
    /// are).
    pub fn min_rating(mut self, rating: u16) -> Query {
        self.min_rating = Some(rating);
        self
    }

    /// The rating filter's bound, if any.
    #[must_use]
    pub fn min_rating_value(&self) -> Option<u16> {
        self.min_rating
    }

    /// Games that reach this position (same side to move), in any of its 8
    /// orientations.
    pub fn position(mut self, position: Position) -> Query {
        self.position = Some(position);
        self
    }

    /// The order of the results.
    pub fn sort(mut self, key: SortKey) -> Query {
        self.sort = Some(key);
        self
    }

    /// Sort in descending order of the key (ties stay in database order).
    pub fn descending(mut self, descending: bool) -> Query {
        self.descending = descending;
        self
    }

    /// Whether the sort is descending.
    #[must_use]
    pub fn is_descending(&self) -> bool {
        self.descending
    }

    /// At most `n` results (after sorting).
    pub fn limit(mut self, n: usize) -> Query {
        self.limit = Some(n);
        self
    }

    /// The limit, if any.
    #[must_use]
    pub fn limit_value(&self) -> Option<usize> {
        self.limit
    }

    /// The sort key, if any.
    #[must_use]
    pub fn sort_key(&self) -> Option<SortKey> {
        self.sort
    }

    /// The position filter, if any.
    #[must_use]
    pub fn position_filter(&self) -> Option<&Position> {
        self.position.as_ref()
    }

    fn check(&self) -> Result<(), QueryError> {
        if self.players.len() > 2 {
            return Err(QueryError::TooManyPlayers(self.players.len()));
        }
        if let (Some(low), Some(high)) = self.years
            && low > high
        {
            return Err(QueryError::EmptyRange {
                what: "year",
                low,
                high,
            });
        }
        for (what, range) in [
            ("black discs", self.black_discs),
            ("theoretical score", self.theoretical),
        ] {
            if let Some((low, high)) = range
                && low > high
            {
                return Err(QueryError::EmptyRange {
                    what,
                    low: low.into(),
                    high: high.into(),
                });
            }
        }
        Ok(())
    }
}

pub use matcher::{Matcher, Reach};
