//! The scans that answer a query without an index (what the
//! [`Searcher`](crate::Searcher) runs), and the sort of their results.

use std::ops::ControlFlow;

use crate::{Database, GameId};

use super::matcher::PositionTarget;
use super::{Position, Query, QueryError, SortKey};

impl Database {
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
