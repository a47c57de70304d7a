//! Building an index: every game replayed (on [`Database::par_fold`]),
//! its positions hashed and sorted into buckets and blocks, the file
//! written atomically.

use std::path::Path;

use othello_core::position::forced_pass;
use othello_core::replay::{Step, replay_with, wthor_tokens};
use othello_core::symmetry::PositionKey;
use othello_core::{Board, Board8, Board10, Move};
use rayon::prelude::*;
use wthor_format::BoardSize;
use xxhash_rust::xxh3::xxh3_64;

use super::format::{
    BLOCK_BITS, ENTRY_LEN, HASH_BITS, HEADER_LEN, LOW_BITS, MAGIC, MAX_DIR_BITS, MIN_DIR_BITS,
    VERSION, entry_key, meta_checksum, stored_key, write_table,
};
use super::freshness::path_key;
use super::{BuildReport, IndexError, IndexedFile, PositionIndex};
use crate::Database;

/// The game files of a database as an index records them, in database
/// order, with their positions in [`Database::files`].
pub(super) fn describe(db: &Database) -> Vec<(usize, IndexedFile)> {
    db.files()
        .par_iter()
        .enumerate()
        .filter_map(|(i, f)| {
            let side = f.board_size()?.side();
            let bytes = f.bytes();
            let mut header = [0u8; 16];
            let n = bytes.len().min(16);
            header[..n].copy_from_slice(&bytes[..n]);
            Some((
                i,
                IndexedFile {
                    path: path_key(f.path()),
                    len: bytes.len() as u64,
                    header,
                    hash: xxh3_64(bytes),
                    games: u32::try_from(f.game_count()).unwrap_or(u32::MAX),
                    side,
                },
            ))
        })
        .collect()
}

/// The 64-bit hash of a position up to symmetry: its
/// [`PositionKey::hash64`], stored in the index.
pub(super) fn position_hash<B: Board>(board: &B) -> u64
where
    B::Bits: Into<u128>,
{
    PositionKey::of(board).hash64()
}

/// The entries of one game: every position reached after 1 or more
/// moves (a position where the side to move must pass, with the other side
/// to move too), up to its end or its first illegal move.
fn game_entries<B: Board>(raw: &[u8], game: u32, out: &mut Vec<u64>)
where
    B::Bits: Into<u128>,
{
    replay_with::<B, _, _>(wthor_tokens::<B>(raw), |step: &Step<B>| {
        if !matches!(step.mv, Move::Play(_)) {
            return;
        }
        let b = step.board;
        out.push(entry_key(position_hash(&b), game));
        if let Some(passed) = forced_pass(&b) {
            out.push(entry_key(position_hash(&passed), game));
        }
    });
}

impl PositionIndex {
    /// Builds the index of every game file of `db` and writes it to `path`
    /// atomically (a temporary file in the same directory, renamed).
    ///
    /// # Errors
    /// [`IndexError::Io`] when the file cannot be written,
    /// [`IndexError::TooManyGames`] beyond 2^24 games.
    pub fn build(db: &Database, path: &Path) -> Result<BuildReport, IndexError> {
        let files = describe(db);
        let games: usize = files.iter().map(|(_, f)| f.games as usize).sum();
        if games > 1 << LOW_BITS {
            return Err(IndexError::TooManyGames(games));
        }
        // The database-wide game numbers (`describe` lists the game files).
        let numbers = db.game_numbers();
        let first = numbers.starts();
        let mut keys = db.par_fold(
            Vec::new,
            |acc: &mut Vec<u64>, g| {
                let n = (first[g.id.file()] + g.id.index()) as u32;
                match g.game.board_size() {
                    BoardSize::Eight => game_entries::<Board8>(g.game.moves_raw(), n, acc),
                    BoardSize::Ten => game_entries::<Board10>(g.game.moves_raw(), n, acc),
                }
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        );
        let dir_bits = (keys.len() as u64 / 8)
            .max(1)
            .ilog2()
            .clamp(MIN_DIR_BITS, MAX_DIR_BITS);
        // Below 16 directory bits, hash bits between the bucket's and the
        // stored 24 are dropped, so that a bucket is sorted by what it
        // stores.
        keys.par_iter_mut()
            .for_each(|k| *k = stored_key(*k, dir_bits));
        keys.par_sort_unstable();
        keys.dedup();
        let entries = keys.len() as u64;
        let block_bits = BLOCK_BITS.min(dir_bits);
        let buckets = 1usize << dir_bits;
        let shift = HASH_BITS + LOW_BITS - dir_bits;
        let mut dir = vec![0u32; buckets + 1];
        for &k in &keys {
            dir[(k >> shift) as usize + 1] += 1;
        }
        for i in 0..buckets {
            dir[i + 1] += dir[i];
        }
        let mut entry_bytes = Vec::with_capacity(keys.len() * ENTRY_LEN);
        for &k in &keys {
            entry_bytes.extend_from_slice(&k.to_le_bytes()[..ENTRY_LEN]);
        }
        drop(keys);
        let blocks: Vec<u64> = (0..buckets >> block_bits)
            .map(|b| {
                let lo = dir[b << block_bits] as usize * ENTRY_LEN;
                let hi = dir[(b + 1) << block_bits] as usize * ENTRY_LEN;
                xxh3_64(&entry_bytes[lo..hi])
            })
            .collect();
        let table = write_table(files.iter().map(|(_, f)| f));
        let dir_bytes: Vec<u8> = dir.iter().flat_map(|d| d.to_le_bytes()).collect();
        let block_bytes: Vec<u8> = blocks.iter().flat_map(|d| d.to_le_bytes()).collect();
        let mut header = Vec::with_capacity(HEADER_LEN);
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&VERSION.to_le_bytes());
        header.extend_from_slice(&dir_bits.to_le_bytes());
        header.extend_from_slice(&(files.len() as u32).to_le_bytes());
        header.extend_from_slice(&block_bits.to_le_bytes());
        header.extend_from_slice(&entries.to_le_bytes());
        header.extend_from_slice(&(table.len() as u64).to_le_bytes());
        header.extend_from_slice(&(games as u64).to_le_bytes());
        let sum = meta_checksum(&header, &table, &dir_bytes, &block_bytes);
        header.extend_from_slice(&sum.to_le_bytes());
        header.extend_from_slice(&[0u8; 8]);
        crate::atomic::write_with(path, |w| {
            for part in [&header, &table, &dir_bytes, &block_bytes, &entry_bytes] {
                w.write_all(part)?;
            }
            Ok(())
        })?;
        let bytes =
            (header.len() + table.len() + dir_bytes.len() + block_bytes.len() + entry_bytes.len())
                as u64;
        Ok(BuildReport {
            games: games as u64,
            entries,
            bytes,
        })
    }
}
