//! The scan: the one primitive that walks games.
//!
//! [`Database::scan`] is a sequential visitor over borrowed games
//! ([`GameRef`]: the game's [`GameId`], its record and its file) in
//! database order, stopping as soon as the visitor returns
//! [`ControlFlow::Break`]. [`Database::par_fold`] runs the same visitor in
//! parallel (rayon's current pool) over chunks of games and merges the
//! per-chunk accumulators in database order, so that an order-keeping merge
//! (concatenation, sums) gives the sequential answer. The replay check, the
//! queries and the statistics are written on these two.

use std::ops::{ControlFlow, Range};

use rayon::prelude::*;
use wthor_format::GameView;

use crate::files::DbFile;
use crate::{Database, GameId};

/// Games per unit of parallel work.
const CHUNK: usize = 256;

/// One game met by a scan.
#[derive(Clone, Copy, Debug)]
pub struct GameRef<'a> {
    /// Which game.
    pub id: GameId,
    /// Its record, borrowed from the file.
    pub game: GameView<'a>,
    /// Its file.
    pub file: &'a DbFile,
}

impl Database {
    /// Visits every game in database order, stopping at the first
    /// [`ControlFlow::Break`] (which is returned).
    ///
    /// ```
    /// use std::ops::ControlFlow;
    /// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    /// let db = wthor_db::Database::open(&testdata)?;
    /// // The first draw of the database.
    /// let draw = db.scan(|g| {
    ///     let half = if g.file.board_size() == Some(wthor_format::BoardSize::Ten) { 50 } else { 32 };
    ///     if g.game.real_score() == half { ControlFlow::Break(g.id) } else { ControlFlow::Continue(()) }
    /// });
    /// assert!(draw.is_break());
    /// # Ok::<(), wthor_db::Error>(())
    /// ```
    pub fn scan<'a, T>(
        &'a self,
        mut visit: impl FnMut(GameRef<'a>) -> ControlFlow<T>,
    ) -> ControlFlow<T> {
        for (f, file) in self.files().iter().enumerate() {
            self.scan_range(f, 0..file.game_count(), &mut visit)?;
        }
        ControlFlow::Continue(())
    }

    /// Visits the games `range` of file `file` in order (the sequential
    /// core of [`scan`](Database::scan) and [`par_fold`](Database::par_fold));
    /// indices beyond the file are ignored.
    pub fn scan_range<'a, T>(
        &'a self,
        file: usize,
        range: Range<usize>,
        mut visit: impl FnMut(GameRef<'a>) -> ControlFlow<T>,
    ) -> ControlFlow<T> {
        let Some(f) = self.files().get(file) else {
            return ControlFlow::Continue(());
        };
        let end = range.end.min(f.game_count());
        for i in range.start..end {
            let Some(game) = f.game(i) else { break };
            visit(GameRef {
                id: GameId::new(file, i),
                game,
                file: f,
            })?;
        }
        ControlFlow::Continue(())
    }

    /// Folds every game in parallel: each chunk of games starts from
    /// `init()`, is folded by `visit` in order, and the chunks' results are
    /// merged by `merge(earlier, later)` in database order. With an
    /// associative `merge` the result equals the sequential fold.
    pub fn par_fold<'a, T, I, V, M>(&'a self, init: I, visit: V, merge: M) -> T
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, GameRef<'a>) + Sync + Send,
        M: Fn(T, T) -> T + Sync + Send,
    {
        self.chunks()
            .into_par_iter()
            .map(|(f, range)| {
                let mut acc = init();
                let _ = self.scan_range(f, range, |g| {
                    visit(&mut acc, g);
                    ControlFlow::<()>::Continue(())
                });
                acc
            })
            .reduce(&init, &merge)
    }

    /// Folds every game (`ids` `None`) or the games `ids`: in parallel as
    /// [`par_fold`](Database::par_fold) and
    /// [`par_fold_ids`](Database::par_fold_ids) do, or (not `parallel`)
    /// one game after the other, the answer the parallel one is tested
    /// against. How a [`Searcher`](crate::Searcher) walks the games.
    pub(crate) fn fold<'a, T, I, V, M>(
        &'a self,
        parallel: bool,
        ids: Option<&[GameId]>,
        init: I,
        visit: V,
        merge: M,
    ) -> T
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, GameRef<'a>) + Sync + Send,
        M: Fn(T, T) -> T + Sync + Send,
    {
        match (parallel, ids) {
            (true, None) => self.par_fold(init, visit, merge),
            (true, Some(ids)) => self.par_fold_ids(ids, init, visit, merge),
            (false, None) => {
                let mut acc = init();
                let _ = self.scan(|g| {
                    visit(&mut acc, g);
                    ControlFlow::<()>::Continue(())
                });
                acc
            }
            (false, Some(ids)) => {
                let mut acc = init();
                for g in ids.iter().filter_map(|&id| self.game_ref(id)) {
                    visit(&mut acc, g);
                }
                acc
            }
        }
    }

    /// The game `id` as a scan meets it, `None` when it is no game of this
    /// database.
    #[must_use]
    pub fn game_ref(&self, id: GameId) -> Option<GameRef<'_>> {
        let file = self.files().get(id.file())?;
        Some(GameRef {
            id,
            game: file.game(id.index())?,
            file,
        })
    }

    /// Folds the games `ids` (in that order) as [`par_fold`](Database::par_fold)
    /// folds the whole database: chunks of `ids` in parallel, merged in
    /// order. Ids that name no game are skipped.
    pub fn par_fold_ids<'a, T, I, V, M>(&'a self, ids: &[GameId], init: I, visit: V, merge: M) -> T
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, GameRef<'a>) + Sync + Send,
        M: Fn(T, T) -> T + Sync + Send,
    {
        self.par_chunks_ids(ids, &init, visit)
            .into_iter()
            .fold(init(), merge)
    }

    /// The games `ids` folded chunk by chunk in parallel, as
    /// [`par_fold_ids`](Database::par_fold_ids), the accumulator of each
    /// chunk handed back in order (for results that are concatenated in
    /// one step rather than merged pairwise: columns of positions).
    pub fn par_chunks_ids<'a, T, I, V>(&'a self, ids: &[GameId], init: I, visit: V) -> Vec<T>
    where
        T: Send,
        I: Fn() -> T + Sync + Send,
        V: Fn(&mut T, GameRef<'a>) + Sync + Send,
    {
        ids.par_chunks(CHUNK)
            .map(|chunk| {
                let mut acc = init();
                for g in chunk.iter().filter_map(|&id| self.game_ref(id)) {
                    visit(&mut acc, g);
                }
                acc
            })
            .collect()
    }

    /// The units of parallel work: `(file, games)`, in database order.
    fn chunks(&self) -> Vec<(usize, Range<usize>)> {
        let mut out = Vec::new();
        for (f, file) in self.files().iter().enumerate() {
            let n = file.game_count();
            let mut start = 0;
            while start < n {
                let end = (start + CHUNK).min(n);
                out.push((f, start..end));
                start = end;
            }
        }
        out
    }
}
