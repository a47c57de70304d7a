//! Queries: which games match a set of filters (all combined with AND).
//!
//! A [`Query`] is built with its methods and run by a
//! [`Searcher`](crate::Searcher) ([`Database::searcher`]: `search`,
//! `count`, `stats`, in parallel or one game after the other, through a
//! position index when one is chosen); games come in database order
//! unless sorted. [`Database::matcher`]
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

use std::ops::ControlFlow;

use othello_core::notation::parse_transcript;
use othello_core::position::forced_pass;
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Bitboard, Board, Board8, Board10, Size, Square};
use wthor_format::BoardSize;

use crate::names::{NamePattern, NameSet};
use crate::scan::GameRef;
use crate::{Database, GameId};

mod filters;

pub use filters::{
    Filters, FiltersError, Found, MAX_MIN_RATING, Span, SpanError, SpanValue, TextFilter, flag,
    keys_of,
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
    /// ([`Database::filter_ratings`], as the rating filter and the game
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
/// Why a position or an opening could not be read (`othello-core`'s
/// [`AnyBoardError`](othello_core::position::AnyBoardError)).
pub use othello_core::position::AnyBoardError as PositionError;

/// The first moves of a game, as squares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    squares: Vec<Square>,
    size: Size,
}

impl Opening {
    /// Reads a transcript; passes are dropped (WTHOR records store none).
    /// The moves must be legal from the start.
    ///
    /// # Errors
    /// As [`Position::after_transcript`].
    pub fn parse(text: &str, size: Size) -> Result<Opening, PositionError> {
        Position::after_transcript(text, size)?;
        let moves = parse_transcript(text, size)?;
        Ok(Opening {
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
/// use wthor_db::query::{Opening, SortKey};
/// use othello_core::Size;
///
/// let q = Query::new()
///     .player("Edax")
///     .years(Some(2001), Some(2002))
///     .opening(Opening::parse("f5d6", Size::Eight)?)
///     .sort(SortKey::Score)
///     .limit(10);
/// # let _ = q;
/// # Ok::<(), wthor_db::query::PositionError>(())
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
    opening: Option<Opening>,
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
    pub fn opening(mut self, opening: Opening) -> Query {
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
    /// ([`Database::filter_ratings`]; a player without games that year has
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

/// The name sets of one players file for a query.
#[derive(Debug, Default)]
struct PlayerSets {
    players: Vec<NameSet>,
    black: Option<NameSet>,
    white: Option<NameSet>,
    programs: Option<NameSet>,
}

/// What the query needs of one file.
#[derive(Debug, Clone, Copy)]
struct FilePlan {
    /// No game of the file can match.
    skip: bool,
    /// Index in `Matcher::player_sets`.
    players: Option<usize>,
    /// Index in `Matcher::tournament_sets`.
    tournaments: Option<usize>,
    /// Index in `Matcher::rated_sets` (with a rating filter).
    rated: Option<usize>,
}

/// A query compiled for one database: [`Matcher::matches`] tests a game.
#[derive(Debug)]
pub struct Matcher {
    files: Vec<FilePlan>,
    player_sets: Vec<PlayerSets>,
    tournament_sets: Vec<NameSet>,
    /// Per (players file, year): the players rated at least the filter's
    /// bound that year.
    rated_sets: Vec<NameSet>,
    min_rating: bool,
    names_needed: bool,
    needs_tournament: bool,
    kind: Option<PlayerKind>,
    result: Option<Outcome>,
    black_discs: Option<(u8, u8)>,
    theoretical: Option<(u8, u8)>,
    openings: Vec<Vec<u8>>,
    position: Option<PositionTarget>,
    /// The named opening's position: `Some(None)` for a name the table
    /// does not know (no game matches).
    named: Option<Option<Target<Board8>>>,
}

#[derive(Debug)]
enum PositionTarget {
    Eight(Target<Board8>),
    Ten(Target<Board10>),
}

/// A position's images and the cheap test on move squares.
#[derive(Debug)]
struct Target<B: Board> {
    /// Discs played to reach it.
    ply: usize,
    /// Its distinct images under the 8 symmetries, each with a symmetry
    /// that maps the position to it.
    images: Vec<(B, Symmetry)>,
    /// For each WTHOR move byte, the images whose occupied squares hold
    /// it (bit `i` for `images[i]`).
    mask_of: Box<[u8; 256]>,
}

/// Where a game reaches the position of a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The number of moves (discs) played before the position: the game's
    /// next move is its move of index `ply`.
    pub ply: usize,
    /// A symmetry that maps the position as given to the game's
    /// orientation (its inverse maps the game's moves back).
    pub symmetry: Symmetry,
    /// Whether the side to move of the position is reached after a pass
    /// (the other side had no move after move `ply`).
    pub after_pass: bool,
}

impl PositionTarget {
    fn of(position: &Position) -> PositionTarget {
        match position {
            Position::Eight(b) => PositionTarget::Eight(Target::new(b)),
            Position::Ten(b) => PositionTarget::Ten(Target::new(b)),
        }
    }

    /// Where the game reaches the position, if it does.
    fn reach(&self, g: &GameRef<'_>) -> Option<Reach> {
        match (self, g.game.board_size()) {
            (PositionTarget::Eight(t), BoardSize::Eight) => t.reach(g.game.moves_raw()),
            (PositionTarget::Ten(t), BoardSize::Ten) => t.reach(g.game.moves_raw()),
            _ => None,
        }
    }
}

impl<B: Board> Target<B> {
    fn new(board: &B) -> Target<B> {
        let mut images: Vec<(B, Symmetry)> = Symmetry::ALL
            .into_iter()
            .map(|s| (s.board(board), s))
            .collect();
        images.sort_by_key(|(b, s)| (b.player(), b.opponent(), *s));
        images.dedup_by_key(|(b, _)| *b);
        let mut mask_of = Box::new([0u8; 256]);
        for (byte, mask) in mask_of.iter_mut().enumerate() {
            let Some(sq) = u8::try_from(byte)
                .ok()
                .and_then(|b| Square::from_wthor(b, B::SIZE))
            else {
                continue;
            };
            for (i, (img, _)) in images.iter().enumerate() {
                if (img.player() | img.opponent()).has(sq) {
                    *mask |= 1 << i;
                }
            }
        }
        let discs = (board.player() | board.opponent()).count() as usize;
        Target {
            ply: discs.saturating_sub(4),
            images,
            mask_of,
        }
    }

    /// Where a game with these move bytes reaches one of the images.
    #[inline]
    fn reach(&self, moves: &[u8]) -> Option<Reach> {
        let prefix = moves.get(..self.ply)?;
        let mut cand = u8::MAX >> (8 - self.images.len());
        for &b in prefix {
            cand &= self.mask_of[usize::from(b)];
            if cand == 0 {
                return None;
            }
        }
        let r = replay_with::<B, _, _>(wthor_tokens::<B>(prefix), |_| {});
        if r.moves != self.ply || r.illegal.is_some() {
            return None;
        }
        let find = |board: &B, after_pass| {
            let &(_, symmetry) = self.images.iter().find(|(img, _)| img == board)?;
            Some(Reach {
                ply: self.ply,
                symmetry,
                after_pass,
            })
        };
        find(&r.board, false).or_else(|| find(&forced_pass(&r.board)?, true))
    }
}

fn pattern(text: &str, exact: bool) -> NamePattern {
    if exact {
        NamePattern::exact(text)
    } else {
        NamePattern::substring(text)
    }
}

impl Matcher {
    /// Whether a game matches every filter (sort and limit aside).
    #[must_use]
    pub fn matches(&self, g: &GameRef<'_>) -> bool {
        let plan = self.files[g.id.file()];
        if plan.skip {
            return false;
        }
        let game = &g.game;
        if let Some(outcome) = self.result
            && Outcome::of_score(game.real_score(), game.board_size()) != outcome
        {
            return false;
        }
        if let Some((low, high)) = self.black_discs
            && !(low..=high).contains(&game.real_score())
        {
            return false;
        }
        if let Some((low, high)) = self.theoretical
            && !(low..=high).contains(&game.theoretical_score())
        {
            return false;
        }
        if self.names_needed {
            let Some(sets) = plan.players.map(|i| &self.player_sets[i]) else {
                return false;
            };
            let (b, w) = (game.black(), game.white());
            let ok = match sets.players.as_slice() {
                [] => true,
                [p] => p.contains(b) || p.contains(w),
                [p, q] => p.contains(b) && q.contains(w) || q.contains(b) && p.contains(w),
                _ => false,
            };
            if !ok
                || sets.black.as_ref().is_some_and(|s| !s.contains(b))
                || sets.white.as_ref().is_some_and(|s| !s.contains(w))
            {
                return false;
            }
            if let Some(programs) = &sets.programs {
                let any = programs.contains(b) || programs.contains(w);
                if any != (self.kind == Some(PlayerKind::Program)) {
                    return false;
                }
            }
        }
        if self.min_rating {
            let Some(set) = plan.rated.map(|i| &self.rated_sets[i]) else {
                return false;
            };
            if !(set.contains(game.black()) && set.contains(game.white())) {
                return false;
            }
        }
        if self.needs_tournament {
            let Some(set) = plan.tournaments.map(|i| &self.tournament_sets[i]) else {
                return false;
            };
            if !set.contains(game.tournament()) {
                return false;
            }
        }
        if !self.openings.is_empty() {
            let raw = game.moves_raw();
            let first = raw.first().copied().unwrap_or(0);
            if !self
                .openings
                .iter()
                .any(|o| o[0] == first && raw.get(..o.len()) == Some(o.as_slice()))
            {
                return false;
            }
        }
        if let Some(named) = &self.named {
            match named {
                Some(t) if game.board_size() == BoardSize::Eight => {
                    if t.reach(game.moves_raw()).is_none() {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        self.position.is_none() || self.reach(g).is_some()
    }

    /// Where the game reaches the query's position (`None` without a
    /// position filter, or when it does not); only the position is tested,
    /// not the other filters.
    #[must_use]
    pub fn reach(&self, g: &GameRef<'_>) -> Option<Reach> {
        self.position.as_ref().and_then(|t| t.reach(g))
    }
}

fn board_size(size: Size) -> BoardSize {
    match size {
        Size::Eight => BoardSize::Eight,
        Size::Ten => BoardSize::Ten,
    }
}

impl Database {
    /// Compiles a query for this database: names matched once per names
    /// file, opening and position images made once.
    ///
    /// # Errors
    /// [`QueryError`] for an empty range or more than two players.
    pub fn matcher(&self, query: &Query) -> Result<Matcher, QueryError> {
        query.check()?;
        let names_needed = !query.players.is_empty()
            || query.black.is_some()
            || query.white.is_some()
            || query.kind.is_some();
        let needs_tournament = query.tournament.is_some();
        let mut player_files: Vec<usize> = Vec::new();
        let mut tournament_files: Vec<usize> = Vec::new();
        let mut rated_keys: Vec<(usize, u16)> = Vec::new();
        let mut files = Vec::with_capacity(self.files().len());
        let opening_size = query.opening.as_ref().map(|o| board_size(o.size));
        let position_size = query.position.as_ref().map(|p| board_size(p.size()));
        let named = query.opening_name.as_ref().map(|name| {
            crate::openings::table()
                .by_name(name)
                .map(|o| Target::new(&o.board()))
        });
        for (f, file) in self.files().iter().enumerate() {
            let join = self.join(f);
            let year = file.year();
            let skip = file.board_size().is_none()
                || (query.min_rating.is_some() && file.board_size() != Some(BoardSize::Eight))
                || query.years.0.is_some_and(|y| year < y)
                || query.years.1.is_some_and(|y| year > y)
                || opening_size.is_some_and(|s| Some(s) != file.board_size())
                || position_size.is_some_and(|s| Some(s) != file.board_size())
                || named
                    .as_ref()
                    .is_some_and(|n| n.is_none() || file.board_size() != Some(BoardSize::Eight));
            let slot = |list: &mut Vec<usize>, names: Option<usize>| {
                let n = names?;
                Some(list.iter().position(|&x| x == n).unwrap_or_else(|| {
                    list.push(n);
                    list.len() - 1
                }))
            };
            files.push(FilePlan {
                skip,
                players: if names_needed && !skip {
                    slot(&mut player_files, join.players)
                } else {
                    None
                },
                tournaments: if needs_tournament && !skip {
                    slot(&mut tournament_files, join.tournaments)
                } else {
                    None
                },
                rated: match join.players {
                    Some(n) if query.min_rating.is_some() && !skip => Some(
                        rated_keys
                            .iter()
                            .position(|&k| k == (n, year))
                            .unwrap_or_else(|| {
                                rated_keys.push((n, year));
                                rated_keys.len() - 1
                            }),
                    ),
                    _ => None,
                },
            });
        }
        let rated_sets = match query.min_rating {
            None => Vec::new(),
            Some(bound) => {
                let ratings = self.filter_ratings();
                rated_keys
                    .iter()
                    .map(|&(n, year)| {
                        let table = self.names(n).expect("a players file");
                        let mut set = NameSet::with_len(table.len());
                        for i in 0..table.len() {
                            let rating = u16::try_from(i)
                                .ok()
                                .and_then(|number| table.get(number))
                                .and_then(|name| ratings.named(name))
                                .and_then(|p| p.rating_in(year));
                            if rating.is_some_and(|r| r >= f64::from(bound)) {
                                set.insert(i);
                            }
                        }
                        set
                    })
                    .collect()
            }
        };
        let exact = query.exact;
        let player_sets = player_files
            .iter()
            .map(|&n| {
                let table = self.names(n).expect("a players file");
                PlayerSets {
                    players: query
                        .players
                        .iter()
                        .map(|p| table.matching(&pattern(p, exact)))
                        .collect(),
                    black: query
                        .black
                        .as_ref()
                        .map(|p| table.matching(&pattern(p, exact))),
                    white: query
                        .white
                        .as_ref()
                        .map(|p| table.matching(&pattern(p, exact))),
                    programs: query.kind.map(|_| table.programs()),
                }
            })
            .collect();
        let tournament_sets = tournament_files
            .iter()
            .map(|&n| {
                let table = self.names(n).expect("a tournaments file");
                table.matching(&pattern(query.tournament.as_deref().unwrap_or(""), exact))
            })
            .collect();
        let openings = match &query.opening {
            None => Vec::new(),
            Some(o) => {
                let syms: &[Symmetry] = if query.as_played {
                    &[Symmetry::IDENTITY]
                } else {
                    &Symmetry::ALL
                };
                let mut seqs: Vec<Vec<u8>> = syms
                    .iter()
                    .map(|s| {
                        o.squares
                            .iter()
                            .map(|&sq| s.square(sq, o.size).to_wthor(o.size))
                            .collect()
                    })
                    .collect();
                seqs.sort();
                seqs.dedup();
                seqs.retain(|o| !o.is_empty());
                seqs
            }
        };
        let position = query.position.as_ref().map(PositionTarget::of);
        Ok(Matcher {
            files,
            player_sets,
            tournament_sets,
            rated_sets,
            min_rating: query.min_rating.is_some(),
            names_needed,
            needs_tournament,
            kind: query.kind,
            result: query.result,
            black_discs: query.black_discs,
            theoretical: query.theoretical,
            openings,
            position,
            named,
        })
    }

    /// The games matching `query`, sorted and limited as it asks: found
    /// in parallel, or one after the other (stopping at the limit when
    /// unsorted); the same answer. What
    /// [`Searcher::search`](crate::Searcher::search) runs without an index.
    ///
    /// # Errors
    /// As [`matcher`](Database::matcher).
    pub(crate) fn scan_search(
        &self,
        query: &Query,
        parallel: bool,
    ) -> Result<Vec<GameId>, QueryError> {
        let m = self.matcher(query)?;
        if parallel {
            let ids = self.par_fold(
                Vec::new,
                |acc: &mut Vec<GameId>, g| {
                    if m.matches(&g) {
                        acc.push(g.id);
                    }
                },
                |mut a, b| {
                    a.extend(b);
                    a
                },
            );
            return Ok(self.finish(query, ids));
        }
        let stop = if query.sort.is_none() {
            query.limit
        } else {
            None
        };
        let mut ids = Vec::new();
        let _ = self.scan(|g| {
            if stop.is_some_and(|n| ids.len() >= n) {
                return ControlFlow::Break(());
            }
            if m.matches(&g) {
                ids.push(g.id);
            }
            ControlFlow::Continue(())
        });
        Ok(self.finish(query, ids))
    }

    /// The number of games matching `query` (its limit applied), counted
    /// in parallel or one game after the other. What
    /// [`Searcher::count`](crate::Searcher::count) runs without an index.
    ///
    /// # Errors
    /// As [`matcher`](Database::matcher).
    pub(crate) fn scan_count(&self, query: &Query, parallel: bool) -> Result<usize, QueryError> {
        let m = self.matcher(query)?;
        let n = self.fold(
            parallel,
            None,
            || 0usize,
            |n, g| *n += usize::from(m.matches(&g)),
            |a, b| a + b,
        );
        Ok(query.limit.map_or(n, |l| n.min(l)))
    }

    /// For each of `positions`, the number of games matching `query` that
    /// reach it (`query`'s own position filter left aside, its limit
    /// applied to each count), in one scan for all of them. What
    /// [`Searcher::count_reaching`](crate::Searcher::count_reaching) runs
    /// without an index.
    ///
    /// # Errors
    /// As [`matcher`](Database::matcher).
    pub(crate) fn scan_count_reaching(
        &self,
        query: &Query,
        positions: &[Position],
        parallel: bool,
    ) -> Result<Vec<usize>, QueryError> {
        let mut rest = query.clone();
        rest.position = None;
        let m = self.matcher(&rest)?;
        let targets: Vec<PositionTarget> = positions.iter().map(PositionTarget::of).collect();
        let counts = self.fold(
            parallel,
            None,
            || vec![0usize; targets.len()],
            |counts, g| {
                if m.matches(&g) {
                    for (n, t) in counts.iter_mut().zip(&targets) {
                        *n += usize::from(t.reach(&g).is_some());
                    }
                }
            },
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    *x += y;
                }
                a
            },
        );
        Ok(counts
            .into_iter()
            .map(|n| query.limit.map_or(n, |l| n.min(l)))
            .collect())
    }

    fn finish(&self, query: &Query, mut ids: Vec<GameId>) -> Vec<GameId> {
        if let Some(key) = query.sort {
            self.sort_games(&mut ids, key, query.descending);
        }
        if let Some(n) = query.limit {
            ids.truncate(n);
        }
        ids
    }

    /// Sorts games by `key`, ascending, ties kept in their order.
    pub fn sort_games(&self, ids: &mut [GameId], key: SortKey, descending: bool) {
        fn order<K: Ord>(ids: &mut [GameId], key: impl Fn(GameId) -> K, descending: bool) {
            if descending {
                ids.sort_by_cached_key(|&id| std::cmp::Reverse(key(id)));
            } else {
                ids.sort_by_cached_key(|&id| key(id));
            }
        }
        let name_key = |r: crate::NameRef<'_>| {
            (
                !r.is_known(),
                r.name.map(crate::names::fold).unwrap_or_default(),
                r.number,
            )
        };
        match key {
            SortKey::Year => order(ids, |id| self.files()[id.file()].year(), descending),
            SortKey::Score => order(
                ids,
                |id| self.game(id).map_or(0, |g| g.real_score()),
                descending,
            ),
            SortKey::Black => order(ids, |id| name_key(self.black(id)), descending),
            SortKey::White => order(ids, |id| name_key(self.white(id)), descending),
            SortKey::Tournament => order(ids, |id| name_key(self.tournament(id)), descending),
            SortKey::Rating => {
                let ratings = self.filter_ratings();
                let mean = |id: GameId| -> Option<i64> {
                    let g = self.game(id)?;
                    if g.board_size() != wthor_format::BoardSize::Eight {
                        return None;
                    }
                    let year = self.files()[id.file()].year();
                    let rating = |n: crate::NameRef<'_>| {
                        n.name
                            .and_then(|name| ratings.named(name))
                            .and_then(|p| p.rating_in(year))
                    };
                    let (b, w) = (rating(self.black(id))?, rating(self.white(id))?);
                    // To a hundredth of a point: an integer key.
                    Some((50.0 * (b + w)).round() as i64)
                };
                order(
                    ids,
                    |id| mean(id).map_or((false, 0), |m| (true, m)),
                    descending,
                );
            }
        }
    }
}
