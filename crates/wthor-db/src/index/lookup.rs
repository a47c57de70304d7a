//! Lookups: the candidate games of a position, in database order.

use othello_core::{Bitboard, Board};

use super::build::position_hash;
use super::format::{ENTRY_LEN, HASH_BITS, LOW_BITS, corrupt};
use super::{Bound, IndexError, PositionIndex};
use crate::query::Position;
use crate::{Database, GameId};

impl PositionIndex {
    /// The global numbers of the games whose entries carry the hash of
    /// `hash` (candidates: a hash may collide).
    fn lookup(&self, hash: u64) -> Result<Vec<u32>, IndexError> {
        let h40 = hash >> (64 - HASH_BITS);
        let bucket = (h40 >> (HASH_BITS - self.dir_bits)) as usize;
        let block = bucket >> self.block_bits;
        let (bytes, first) = self.block_entries(block)?;
        let lo = self.dir(bucket)?;
        let hi = self.dir(bucket + 1)?;
        if lo < first || hi < lo || (hi - first) as usize * ENTRY_LEN > bytes.len() {
            return Err(corrupt(
                &self.path,
                format!("bucket {bucket} out of its block"),
            ));
        }
        let fp = h40 & ((1 << LOW_BITS) - 1);
        let entry = |i: u64| {
            let at = (i - first) as usize * ENTRY_LEN;
            let mut v = [0u8; 8];
            v[..ENTRY_LEN].copy_from_slice(&bytes[at..at + ENTRY_LEN]);
            u64::from_le_bytes(v)
        };
        // Entries of a bucket are sorted by (hash bits, game).
        let (mut a, mut b) = (lo, hi);
        while a < b {
            let mid = a + (b - a) / 2;
            if entry(mid) >> LOW_BITS < fp {
                a = mid + 1;
            } else {
                b = mid;
            }
        }
        let mut out = Vec::new();
        let mut i = a;
        while i < hi {
            let e = entry(i);
            if e >> LOW_BITS != fp {
                break;
            }
            out.push((e & ((1 << LOW_BITS) - 1)) as u32);
            i += 1;
        }
        Ok(out)
    }

    /// Where the index's files are in `db`: as found by the last fresh
    /// check when the database still has those files there, else checked
    /// again.
    fn bind(&self, db: &Database) -> Result<Vec<Bound>, IndexError> {
        let mut bound = self
            .bound
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let valid = bound.len() == self.files.len()
            && bound.iter().all(|b| {
                db.files()
                    .get(b.file)
                    .is_some_and(|f| f.path() == b.path && f.game_count() == b.games as usize)
            });
        if !valid {
            *bound = self.check(db).map_err(IndexError::Stale)?;
        }
        Ok(bound.clone())
    }

    /// The games of `db` that may reach `position` (every game that does,
    /// and rarely a few more: confirm with the query's matcher), in
    /// database order. The first use with a database checks that the
    /// index is fresh for it (as [`Database::index_status`] does, which
    /// spares that check).
    ///
    /// # Errors
    /// [`IndexError::Stale`] when the index was not built from `db`'s
    /// files,
    /// [`IndexError::Corrupt`] when the block read is damaged.
    pub fn candidates(
        &self,
        db: &Database,
        position: &Position,
    ) -> Result<Vec<GameId>, IndexError> {
        let ranges = self.bind(db)?;
        let (side, discs, hash) = match position {
            Position::Eight(b) => (8, (b.player() | b.opponent()).count(), position_hash(b)),
            Position::Ten(b) => (10, (b.player() | b.opponent()).count(), position_hash(b)),
        };
        let mut ids: Vec<GameId> = if discs <= 4 {
            // The start position (or fewer discs): not stored. Every game
            // reaches the start; the matcher rejects the rest.
            ranges
                .iter()
                .filter(|r| r.side == side)
                .flat_map(|r| {
                    let file = r.file;
                    (0..r.games as usize).map(move |i| GameId::new(file, i))
                })
                .collect()
        } else {
            self.lookup(hash)?
                .into_iter()
                .filter_map(|g| {
                    let r = ranges.iter().rev().find(|r| r.start <= g)?;
                    Some(GameId::new(r.file, (g - r.start) as usize))
                })
                .collect()
        };
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }
}
