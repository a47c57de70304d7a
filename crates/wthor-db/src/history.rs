//! The history of a position (issue 40): year by year, the games that
//! reach it and what they played next; the first and the latest game
//! reaching it and playing each move.
//!
//! Counted as the explorer counts ([`Searcher::stats`]): a game reaches
//! the position in any of its 8 orientations and by any order of moves,
//! and a next move is named in the orientation of the position as given
//! (moves a symmetry of the position makes equivalent are one). The
//! archive has no dates: **first** means the earliest year, then the
//! order of the files and of the games in them (file order is not known
//! to be chronological within a year), and every front end says so.
//!
//! One search for the games reaching the position (through the position
//! index when it is fresh), then the next moves of each year's games
//! among them, and of single games for the first and latest of each move.

use std::borrow::Borrow;

use othello_core::{Board, Square};

use crate::query::QueryError;
use crate::stats::{Results, StatsOptions};
use crate::{Database, GameId, Query, Searcher};

/// One year of a position's history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Year {
    /// The year.
    pub year: u16,
    /// The games of that year that reach the position, with black's
    /// results.
    pub reached: Results,
    /// Each next move played that year, with the results of its games,
    /// most played first (ties in square order).
    pub moves: Vec<(Square, Results)>,
}

/// The first and latest game that played a move from the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveHistory {
    /// The move, in the orientation of the position as given.
    pub square: Square,
    /// Every game that played it (over all years).
    pub games: u64,
    /// The first game that played it: earliest year, then file order.
    pub first: GameId,
    /// The latest: last year, then file order.
    pub latest: GameId,
}

/// The history of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// Every year of the database's range (of its game files of the
    /// position's size), in order, years without a game reaching the
    /// position included.
    pub years: Vec<Year>,
    /// The first game reaching the position, if any.
    pub first: Option<GameId>,
    /// The latest game reaching it.
    pub latest: Option<GameId>,
    /// The next moves ever played, most played first.
    pub moves: Vec<MoveHistory>,
}

impl History {
    /// The games reaching the position over all years.
    #[must_use]
    pub fn reached(&self) -> u64 {
        self.years.iter().map(|y| y.reached.games).sum()
    }
}

impl<D: Borrow<Database>> Searcher<D> {
    /// The history of the position of `query` (the 8x8 start without a
    /// position filter); its other filters choose the games (a sort and a
    /// limit too: the front ends refuse them).
    ///
    /// # Errors
    /// [`QueryError`] as [`Searcher::search`].
    pub fn history(&self, query: &Query) -> Result<History, QueryError> {
        let position = query
            .position_filter()
            .copied()
            .unwrap_or(crate::query::Position::Eight(othello_core::Board8::start()));
        let db = self.database();
        let all = query.clone().position(position);
        let ids = self.search(&all)?.value;
        let size = position.size();
        let year_of = |id: GameId| db.files()[id.file()].year();
        // The range of years of the database's game files of that size.
        let years: Vec<u16> = db
            .files()
            .iter()
            .filter(|f| f.board_size().is_some_and(|s| s.side() == size.side()))
            .map(crate::files::DbFile::year)
            .collect();
        let (Some(&low), Some(&high)) = (years.iter().min(), years.iter().max()) else {
            return Ok(History {
                years: Vec::new(),
                first: None,
                latest: None,
                moves: Vec::new(),
            });
        };
        let options = StatsOptions {
            next_moves: true,
            ..StatsOptions::default()
        };
        // The results of the games `among` that reach the position, and
        // the moves they played from it: one stats fold.
        let stats_of = |among: &[GameId]| -> Result<(Results, Vec<(Square, Results)>), QueryError> {
            let stats = db.stats_in(&all, &options, Some(among), true)?;
            let moves = stats
                .next_moves
                .map(|n| n.moves.into_iter().map(|m| (m.square, m.results)).collect())
                .unwrap_or_default();
            Ok((stats.totals.results, moves))
        };
        let mut of_year: std::collections::BTreeMap<u16, Vec<GameId>> =
            std::collections::BTreeMap::new();
        for &id in &ids {
            of_year.entry(year_of(id)).or_default().push(id);
        }
        let mut rows = Vec::new();
        let mut totals: Vec<(Square, u64)> = Vec::new();
        for year in low..=high {
            let (reached, moves) = match of_year.get(&year) {
                Some(games) => stats_of(games)?,
                None => (Results::default(), Vec::new()),
            };
            for (sq, r) in &moves {
                match totals.iter_mut().find(|(s, _)| s == sq) {
                    Some((_, n)) => *n += r.games,
                    None => totals.push((*sq, r.games)),
                }
            }
            rows.push(Year {
                year,
                reached,
                moves,
            });
        }
        totals.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        // Games in year order, file order within a year (database order
        // is path order: the files of one year keep their order).
        let ordered: Vec<GameId> = of_year.values().flatten().copied().collect();
        let played = |id: GameId, sq: Square| -> Result<bool, QueryError> {
            Ok(stats_of(&[id])?.1.iter().any(|(s, _)| *s == sq))
        };
        let mut moves = Vec::new();
        for &(sq, games) in &totals {
            let mut first = None;
            for &id in &ordered {
                if played(id, sq)? {
                    first = Some(id);
                    break;
                }
            }
            let mut latest = None;
            for &id in ordered.iter().rev() {
                if played(id, sq)? {
                    latest = Some(id);
                    break;
                }
            }
            if let (Some(first), Some(latest)) = (first, latest) {
                moves.push(MoveHistory {
                    square: sq,
                    games,
                    first,
                    latest,
                });
            }
        }
        Ok(History {
            years: rows,
            first: ordered.first().copied(),
            latest: ordered.last().copied(),
            moves,
        })
    }
}
