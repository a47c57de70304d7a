//! Freshness: an index belongs to a database only when built from exactly
//! its game files (paths, sizes, headers, content hashes).

use std::path::Path;

use super::build::describe;
use super::{Bound, IndexStatus, PositionIndex, StaleReason};
use crate::Database;

/// The canonical path of a file, as the index stores it.
pub(super) fn path_key(path: &Path) -> String {
    std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_owned())
        .to_string_lossy()
        .into_owned()
}

/// The file name of a stored path, for messages.
fn short(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}

impl PositionIndex {
    /// Why the index does not belong to `db`, `None` when it was built from
    /// exactly `db`'s game files as they are now (paths, sizes, headers,
    /// content hashes).
    #[must_use]
    pub fn staleness(&self, db: &Database) -> Option<StaleReason> {
        self.check(db).err()
    }

    /// Where the index's files are in `db` when it was built from exactly
    /// `db`'s game files (see [`staleness`](PositionIndex::staleness)).
    pub(super) fn check(&self, db: &Database) -> Result<Vec<Bound>, StaleReason> {
        let now = describe(db);
        for (_, f) in &now {
            match self.files.iter().find(|g| g.path == f.path) {
                None => return Err(StaleReason::NotIndexed(short(&f.path))),
                Some(g) => {
                    let what = if g.len != f.len {
                        "size"
                    } else if g.header != f.header {
                        "header"
                    } else if g.hash != f.hash || g.games != f.games || g.side != f.side {
                        "content"
                    } else {
                        continue;
                    };
                    return Err(StaleReason::Changed {
                        file: short(&f.path),
                        what,
                    });
                }
            }
        }
        let mut found = Vec::with_capacity(self.files.len());
        let mut start = 0u32;
        for g in &self.files {
            let &(file, _) = now
                .iter()
                .find(|(_, f)| f.path == g.path)
                .ok_or_else(|| StaleReason::Gone(short(&g.path)))?;
            found.push(Bound {
                start,
                games: g.games,
                file,
                side: g.side,
                path: db.files()[file].path().to_owned(),
            });
            start += g.games;
        }
        Ok(found)
    }
}

impl Database {
    /// The state of the index at `path` for this database: fresh (with the
    /// index, ready to use), stale (why), missing or corrupt (why): what
    /// `wthor index status` says, and what a [`Searcher`](crate::Searcher)
    /// asks once of the index it was given.
    #[must_use]
    pub fn index_status(&self, path: &Path) -> IndexStatus {
        if !path.exists() {
            return IndexStatus::Missing;
        }
        let ix = match PositionIndex::open(path) {
            Ok(ix) => ix,
            Err(e) => return IndexStatus::Corrupt(e),
        };
        match ix.check(self) {
            Err(reason) => IndexStatus::Stale(reason),
            Ok(bound) => {
                *ix.bound
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = bound;
                IndexStatus::Fresh(ix)
            }
        }
    }
}
