//! The one entry point of queries: a [`Searcher`] holds a database and
//! the position index chosen for it, and answers
//! [`search`](Searcher::search), [`count`](Searcher::count),
//! [`stats`](Searcher::stats) and
//! [`count_reaching`](Searcher::count_reaching).
//!
//! The rule every front end follows (the `wthor` command, the server,
//! Python; each holds one searcher):
//!
//! * **Which index**, from an [`IndexChoice`], settled once per searcher at
//!   its first query with a position filter (or when
//!   [`index`](Searcher::index) or [`note`](Searcher::note) asks): the
//!   index file at the path asked for, or at
//!   [`default_path`], opened and checked
//!   fresh ([`Database::index_status`]: every game file hashed, once). An
//!   index that cannot be used (stale, damaged, or missing at a path asked
//!   for) leaves the searcher without one, and a note saying why, ending
//!   "scanning every game"; a missing index at the default path says
//!   nothing (the index is optional: its absence is the normal case).
//! * **When**: the index answers queries with a position filter, its
//!   candidates confirmed by the query's [`Matcher`](crate::query::Matcher)
//!   (a replay), so that the answer is the scan's; a scan answers the
//!   other queries, and takes over when the index fails while answering
//!   (a damaged block), with a note.
//!
//! Every answer is an [`Answer`]: the value, whether the index answered,
//! and the note (on the answers to queries with a position filter) for
//! the front end to show. Scans run in parallel, or one game after the
//! other with [`sequential`](Searcher::sequential): the same answers
//! (tested).
//!
//! ```
//! use wthor_db::index::IndexChoice;
//! use wthor_db::query::Position;
//! use wthor_db::{Database, Query};
//! use othello_core::Size;
//!
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = Database::open(&testdata)?;
//! let searcher = db.searcher(IndexChoice::Default);
//! let after = Position::after_transcript("f5d6c3d3", Size::Eight)?;
//! let found = searcher.search(&Query::new().position(after))?;
//! // No `wthor.idx` in the fixture directory: a scan, and nothing to say.
//! assert!(!found.indexed && found.note.is_none());
//! assert_eq!(searcher.count(&Query::new().position(after))?.value, found.value.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::borrow::Borrow;
use std::path::Path;
use std::sync::OnceLock;

use crate::index::{IndexChoice, IndexError, IndexStatus, PositionIndex, default_path};
use crate::query::Position;
use crate::stats::{Stats, StatsOptions};
use crate::{Database, GameId, Query, QueryError};

/// A database and its chosen position index: the queries' one entry
/// point (see the [module docs](self)).
///
/// `D` is how the searcher holds the database: borrowed
/// ([`Database::searcher`]) or owned (`Database`, `Arc<Database>`:
/// [`Searcher::new`]), for a server or a Python object that keeps one.
#[derive(Debug)]
pub struct Searcher<D> {
    db: D,
    choice: IndexChoice,
    /// The index chosen and the note, settled once.
    chosen: OnceLock<Chosen>,
    parallel: bool,
}

/// What an [`IndexChoice`] came to for a database.
#[derive(Debug, Default)]
struct Chosen {
    /// A fresh index.
    index: Option<PositionIndex>,
    /// Why the index asked for is not used.
    note: Option<String>,
}

/// A query's answer, and how it was found.
#[derive(Clone, Debug)]
pub struct Answer<T> {
    /// The answer.
    pub value: T,
    /// Whether the position index answered (else every game was scanned).
    pub indexed: bool,
    /// Why an index was not used, when one was asked for or failed
    /// (a sentence ending "scanning every game"), to show the user.
    pub note: Option<String>,
}

/// Why an indexed query failed.
enum IndexedError {
    /// The query itself.
    Query(QueryError),
    /// The index (damaged, or not this database's).
    Index(IndexError),
}

impl From<QueryError> for IndexedError {
    fn from(e: QueryError) -> IndexedError {
        IndexedError::Query(e)
    }
}

impl From<IndexError> for IndexedError {
    fn from(e: IndexError) -> IndexedError {
        IndexedError::Index(e)
    }
}

/// The games matching `query` among the candidates of `ix` for
/// `position`, its position filter: confirmed by the query's matcher (a
/// replay), sorted and limited as it asks.
fn search_indexed(
    db: &Database,
    query: &Query,
    ix: &PositionIndex,
    position: &Position,
) -> Result<Vec<GameId>, IndexedError> {
    let matcher = db.matcher(query)?;
    let candidates = ix.candidates(db, position)?;
    Ok(db.search_among(query, &matcher, &candidates))
}

impl Database {
    /// A searcher over this database with the position index `index`
    /// (see [`Searcher`]).
    #[must_use]
    pub fn searcher(&self, index: IndexChoice) -> Searcher<&Database> {
        Searcher::new(self, index)
    }
}

impl<D: Borrow<Database>> Searcher<D> {
    /// A searcher over `db` with the position index `index`, checked at
    /// the first query with a position filter. Queries run in parallel.
    #[must_use]
    pub fn new(db: D, index: IndexChoice) -> Searcher<D> {
        Searcher {
            db,
            choice: index,
            chosen: OnceLock::new(),
            parallel: true,
        }
    }

    /// The same searcher, its scans one game after the other (and an
    /// unsorted search stopping at its limit): the answers of the parallel
    /// scans, which the tests compare with them.
    #[must_use]
    pub fn sequential(mut self) -> Searcher<D> {
        self.parallel = false;
        self
    }

    /// The database searched.
    #[must_use]
    pub fn database(&self) -> &Database {
        self.db.borrow()
    }

    /// The fresh position index that answers position filters, if any
    /// (the choice settled now if it was not yet).
    #[must_use]
    pub fn index(&self) -> Option<&PositionIndex> {
        self.chosen().index.as_ref()
    }

    /// Why the index asked for is not used, if it is not (a sentence
    /// ending "scanning every game"; the choice settled now if it was not
    /// yet): what the answers to position queries say.
    #[must_use]
    pub fn note(&self) -> Option<&str> {
        self.chosen().note.as_deref()
    }

    /// The games matching `query`, sorted and limited as it asks (else in
    /// database order).
    ///
    /// # Errors
    /// The query's, as [`Database::matcher`].
    pub fn search(&self, query: &Query) -> Result<Answer<Vec<GameId>>, QueryError> {
        let db = self.database();
        self.answer(
            query.position_filter(),
            |ix, position| search_indexed(db, query, ix, position),
            || db.scan_search(query, self.parallel),
        )
    }

    /// The number of games matching `query` (its limit applied).
    ///
    /// # Errors
    /// As [`search`](Searcher::search).
    pub fn count(&self, query: &Query) -> Result<Answer<usize>, QueryError> {
        let db = self.database();
        self.answer(
            query.position_filter(),
            |ix, position| Ok(search_indexed(db, query, ix, position)?.len()),
            || db.scan_count(query, self.parallel),
        )
    }

    /// Statistics of the games matching `query`.
    ///
    /// # Errors
    /// As [`search`](Searcher::search).
    pub fn stats(
        &self,
        query: &Query,
        options: &StatsOptions,
    ) -> Result<Answer<Stats>, QueryError> {
        let db = self.database();
        self.answer(
            query.position_filter(),
            |ix, position| {
                let candidates = ix.candidates(db, position)?;
                Ok(db.stats_in(query, options, Some(&candidates), self.parallel)?)
            },
            || db.stats_in(query, options, None, self.parallel),
        )
    }

    /// For each of `positions`, the number of games matching `query` that
    /// reach it (in any orientation and move order, as a position filter
    /// finds them; `query`'s own position filter is left aside, its limit
    /// applied to each count): what [`count`](Searcher::count) gives with
    /// each position as the filter (the explorer's transpositions: the
    /// games reaching the position after each next move). One index
    /// lookup per position, or one scan for all of them.
    ///
    /// # Errors
    /// As [`search`](Searcher::search).
    pub fn count_reaching(
        &self,
        query: &Query,
        positions: &[Position],
    ) -> Result<Answer<Vec<usize>>, QueryError> {
        let db = self.database();
        self.answer(
            positions.first(),
            |ix, _| {
                positions
                    .iter()
                    .map(|p| Ok(search_indexed(db, &query.clone().position(*p), ix, p)?.len()))
                    .collect()
            },
            || db.scan_count_reaching(query, positions, self.parallel),
        )
    }

    /// The choice settled: the index opened and checked once.
    fn chosen(&self) -> &Chosen {
        self.chosen.get_or_init(|| {
            let db = self.database();
            let asked = match &self.choice {
                IndexChoice::Never => return Chosen::default(),
                IndexChoice::At(path) => Some(path.as_path()),
                IndexChoice::Default => None,
            };
            let path = asked.map_or_else(|| default_path(db), Path::to_path_buf);
            let why = match db.index_status(&path) {
                IndexStatus::Fresh(ix) => {
                    return Chosen {
                        index: Some(ix),
                        note: None,
                    };
                }
                IndexStatus::Missing if asked.is_none() => return Chosen::default(),
                IndexStatus::Missing => "missing".to_owned(),
                IndexStatus::Stale(reason) => format!("stale: {reason}"),
                IndexStatus::Corrupt(e) => format!("not used: {e}"),
            };
            Chosen {
                index: None,
                note: Some(format!(
                    "index {} {why}; scanning every game",
                    path.display()
                )),
            }
        })
    }

    /// The rule of every query: the index answers queries of a position
    /// (`position`: the position filter, or the first position asked
    /// about); the scan answers the others, and takes over when there is
    /// no index (the choice's note said) or when it fails (its error said).
    fn answer<T>(
        &self,
        position: Option<&Position>,
        indexed: impl FnOnce(&PositionIndex, &Position) -> Result<T, IndexedError>,
        scan: impl FnOnce() -> Result<T, QueryError>,
    ) -> Result<Answer<T>, QueryError> {
        let scanned = |note| {
            scan().map(|value| Answer {
                value,
                indexed: false,
                note,
            })
        };
        let Some(position) = position else {
            return scanned(None);
        };
        let chosen = self.chosen();
        let Some(ix) = &chosen.index else {
            return scanned(chosen.note.clone());
        };
        match indexed(ix, position) {
            Ok(value) => Ok(Answer {
                value,
                indexed: true,
                note: None,
            }),
            Err(IndexedError::Query(e)) => Err(e),
            Err(IndexedError::Index(e)) => scanned(Some(format!("{e}; scanning every game"))),
        }
    }
}
