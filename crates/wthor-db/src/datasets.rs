//! Position sets for learning (issue 26): positions merged up to the 8
//! symmetries ([`unique`]), and a train/test split whose test side holds no
//! position of the train side in any orientation ([`split`]).
//!
//! A position's key is its side to move and its discs in the canonical
//! orientation of `othello_core::symmetry::canonical_discs` (the image with
//! the smallest `(player, opponent)` pair): the orientation in which
//! [`unique`] returns the boards.
//!
//! Python's `Database.positions(unique=True)` and `Database.split()` are
//! these functions; duplicate games are dropped first by
//! [`Database::dedupe`](crate::Database::dedupe) when asked.

use othello_core::symmetry::canonical_discs;
use rayon::prelude::*;

use crate::positions::{Columns, GameRows, NO_SCORE, collect};
use crate::query::Span;
use crate::scan::GameRef;
use crate::{Database, GameId};

/// A position up to symmetry: canonical player and opponent discs, side to
/// move (0 black, 1 white).
type Key = (u64, u64, u8);

/// The key of row `i` of `c`.
fn key(c: &Columns, i: usize) -> Key {
    let ((p, o), _) = canonical_discs(c.player[i], c.opponent[i]);
    (p, o, c.side[i])
}

/// One row per position up to symmetry, in the order of their first row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Unique {
    /// The discs of the side to move, in canonical orientation.
    pub player: Vec<u64>,
    /// The discs of the other side, in canonical orientation.
    pub opponent: Vec<u64>,
    /// The side to move: 0 black, 1 white.
    pub side: Vec<u8>,
    /// The rows merged into this one.
    pub count: Vec<u32>,
    /// The mean of their `final` (disc difference for the side to move).
    pub final_mean: Vec<f64>,
    /// The mean of their `theoretical` where they have one, NaN where none
    /// does.
    pub theoretical_mean: Vec<f64>,
    /// How many of them have a `theoretical`.
    pub theoretical_count: Vec<u32>,
}

impl Unique {
    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.player.is_empty()
    }
}

/// The rows of `c` grouped by key: each group's row indices, increasing,
/// the groups in the order of their first row. Keys computed and sorted in
/// parallel.
fn groups(c: &Columns) -> Vec<Vec<u32>> {
    let mut keyed: Vec<(Key, u32)> = (0..c.len())
        .into_par_iter()
        .map(|i| (key(c, i), i as u32))
        .collect();
    keyed.par_sort_unstable();
    let mut groups: Vec<Vec<u32>> = keyed
        .chunk_by(|a, b| a.0 == b.0)
        .map(|run| run.iter().map(|&(_, i)| i).collect())
        .collect();
    groups.par_sort_unstable_by_key(|g| g[0]);
    groups
}

/// One row per position of `c` up to symmetry (see [`Unique`]).
///
/// ```
/// use wthor_db::{Database, Query, datasets, positions, index::IndexChoice};
/// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
/// let db = Database::open(&testdata)?;
/// let query = Query::new().years(Some(2001), Some(2001));
/// let ids = db.searcher(IndexChoice::Never).search(&query)?.value;
/// let rows = positions::collect(&db, &ids, |g| positions::GameRows {
///     view: g.game, depth: g.file.header().depth(), game: 0,
/// });
/// let u = datasets::unique(&rows);
/// // The start position is the first row, once per 8x8 game (24 in
/// // 2001; the 12 10x10 games give no rows).
/// assert_eq!((ids.len(), u.count[0]), (36, 24));
/// assert_eq!(u.count.iter().map(|&n| n as usize).sum::<usize>(), rows.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn unique(c: &Columns) -> Unique {
    let groups = groups(c);
    let mut u = Unique::default();
    for g in &groups {
        let first = g[0] as usize;
        let ((p, o), _) = canonical_discs(c.player[first], c.opponent[first]);
        u.player.push(p);
        u.opponent.push(o);
        u.side.push(c.side[first]);
        u.count.push(g.len() as u32);
        let sum: i64 = g.iter().map(|&i| i64::from(c.final_diff[i as usize])).sum();
        u.final_mean.push(sum as f64 / g.len() as f64);
        let known: Vec<i64> = g
            .iter()
            .map(|&i| c.theoretical[i as usize])
            .filter(|&t| t != NO_SCORE)
            .map(i64::from)
            .collect();
        u.theoretical_count.push(known.len() as u32);
        u.theoretical_mean.push(if known.is_empty() {
            f64::NAN
        } else {
            known.iter().sum::<i64>() as f64 / known.len() as f64
        });
    }
    u
}

/// Which games are the test side of a [`split`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SplitBy {
    /// The games of these years (the year of their file).
    Years(Span<u16>),
    /// A share of the games (0 to 1) chosen by a hash of the game's name
    /// (`2001:5`) and the seed: the same games for the same files and seed,
    /// whatever else is open.
    Games {
        /// The share of test games.
        fraction: f64,
        /// The seed.
        seed: u64,
    },
}

impl SplitBy {
    /// Whether game `id` is on the test side.
    fn is_test(&self, db: &Database, id: GameId) -> bool {
        match *self {
            SplitBy::Years(span) => {
                let year = db.file_of(id).map_or(0, crate::DbFile::year);
                span.low.is_none_or(|l| year >= l) && span.high.is_none_or(|h| year <= h)
            }
            SplitBy::Games { fraction, seed } => {
                let name = db.game_name(id).to_string();
                let h = xxhash_rust::xxh3::xxh3_64_with_seed(name.as_bytes(), seed);
                (h as f64) < fraction * 2f64.powi(64)
            }
        }
    }
}

/// A train/test split of positions (see [`split`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Split {
    /// The positions of the train games.
    pub train: Columns,
    /// The positions of the test games that occur nowhere in `train`, in
    /// any orientation.
    pub test: Columns,
    /// The train games.
    pub train_games: usize,
    /// The test games.
    pub test_games: usize,
    /// The test rows left out because their position occurs in `train`.
    pub removed: usize,
}

/// The positions of the games `ids` split by `by` into a train side and a
/// test side, the test side's rows whose position (up to symmetry, same
/// side to move) occurs in the train side removed: no position is on both
/// sides in any orientation. `rows` gives what each game needs (as
/// [`collect`]); the rows keep the orientation they were played in.
///
/// ```
/// use wthor_db::{Database, Query, datasets::{self, SplitBy}, positions::GameRows, query::Span};
/// use wthor_db::index::IndexChoice;
/// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
/// let db = Database::open(&testdata)?;
/// let ids = db.searcher(IndexChoice::Never).search(&Query::new())?.value;
/// let s = datasets::split(&db, &ids, &SplitBy::Years(Span::new(Some(2002), None)), |g| {
///     GameRows { view: g.game, depth: g.file.header().depth(), game: 0 }
/// });
/// assert!(s.removed > 0); // the start position, at least
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn split<'a>(
    db: &'a Database,
    ids: &[GameId],
    by: &SplitBy,
    rows: impl Fn(GameRef<'a>) -> GameRows<'a> + Sync + Send,
) -> Split {
    let (test_ids, train_ids): (Vec<GameId>, Vec<GameId>) =
        ids.iter().partition(|&&id| by.is_test(db, id));
    let train = collect(db, &train_ids, &rows);
    let test = collect(db, &test_ids, &rows);
    let mut seen: Vec<Key> = (0..train.len())
        .into_par_iter()
        .map(|i| key(&train, i))
        .collect();
    seen.par_sort_unstable();
    seen.dedup();
    let keep: Vec<bool> = (0..test.len())
        .into_par_iter()
        .map(|i| seen.binary_search(&key(&test, i)).is_err())
        .collect();
    let removed = keep.iter().filter(|&&k| !k).count();
    Split {
        train,
        test: test.filter(&keep),
        train_games: train_ids.len(),
        test_games: test_ids.len(),
        removed,
    }
}
