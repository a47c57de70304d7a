//! The index file's layout (see the module docs of [`super`]): the
//! constants, the entry keys, opening and checking the file, reading its
//! directory and blocks, the file table written and parsed.

use std::path::Path;
use std::sync::Mutex;

use memmap2::Mmap;
use xxhash_rust::xxh3::xxh3_64;

use super::{IndexError, IndexedFile, PositionIndex};

pub(super) const MAGIC: &[u8; 8] = b"WTHORIX1";
pub(super) const VERSION: u32 = 1;
pub(super) const HEADER_LEN: usize = 64;
pub(super) const ENTRY_LEN: usize = 6;
/// Bits of the stored hash.
pub(super) const HASH_BITS: u32 = 40;
/// Bits of the game number in an entry (and its hash part).
pub(super) const LOW_BITS: u32 = 24;
pub(super) const MAX_DIR_BITS: u32 = 20;
pub(super) const MIN_DIR_BITS: u32 = 8;
pub(super) const BLOCK_BITS: u32 = 10;

/// The sort key of an entry: the top 40 bits of the hash above the game.
#[inline]
pub(super) fn entry_key(hash: u64, game: u32) -> u64 {
    ((hash >> (64 - HASH_BITS)) << LOW_BITS) | u64::from(game)
}

/// An entry's sort key with `dir_bits` of bucket: the bucket (top bits of
/// the hash), then the 24 stored hash bits and the game; the hash bits
/// between them (none from 16 directory bits) are cleared.
#[inline]
pub(super) fn stored_key(key: u64, dir_bits: u32) -> u64 {
    let low = (1u64 << (2 * LOW_BITS)) - 1;
    let top = !((1u64 << (64 - dir_bits)) - 1);
    key & (top | low)
}

pub(super) fn corrupt(path: &Path, what: impl Into<String>) -> IndexError {
    IndexError::Corrupt {
        path: path.to_owned(),
        what: what.into(),
    }
}

pub(super) fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

pub(super) fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

impl PositionIndex {
    /// Opens an index file: maps it and checks its header, checksum and
    /// sizes (not the entries: each lookup checks the block it reads, and
    /// [`verify`](PositionIndex::verify) checks them all).
    ///
    /// # Errors
    /// [`IndexError::Io`] when it cannot be read, [`IndexError::Corrupt`]
    /// when it is no index or a damaged one.
    pub fn open(path: &Path) -> Result<PositionIndex, IndexError> {
        let io = |source| IndexError::Io {
            path: path.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: a read-only map of a file that only `build` writes, and
        // `build` replaces it by a rename rather than writing into it; every
        // read below is bounds-checked and every block checksummed before
        // use, so a file changed under us gives an error, not a wrong index.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let bad = |what: &str| corrupt(path, what);
        let b: &[u8] = &map;
        if b.len() < HEADER_LEN || &b[..8] != MAGIC {
            return Err(bad("not a wthor index (magic)"));
        }
        let field32 = |at| u32_at(b, at).ok_or_else(|| bad("short header"));
        let field64 = |at| u64_at(b, at).ok_or_else(|| bad("short header"));
        if field32(8)? != VERSION {
            return Err(bad("unknown version"));
        }
        let dir_bits = field32(12)?;
        let file_count = field32(16)? as usize;
        let block_bits = field32(20)?;
        let entries = field64(24)?;
        let table_len = field64(32)?;
        let games = field64(40)?;
        let sum = field64(48)?;
        if !(MIN_DIR_BITS..=MAX_DIR_BITS).contains(&dir_bits) || block_bits > dir_bits {
            return Err(bad("directory size out of range"));
        }
        let buckets = 1usize << dir_bits;
        let sizes = (|| {
            let table_end = HEADER_LEN.checked_add(usize::try_from(table_len).ok()?)?;
            let dir_end = table_end.checked_add((buckets + 1) * 4)?;
            let blocks_end = dir_end.checked_add((buckets >> block_bits) * 8)?;
            let end =
                blocks_end.checked_add(usize::try_from(entries).ok()?.checked_mul(ENTRY_LEN)?)?;
            Some((table_end, dir_end, blocks_end, end))
        })();
        let Some((table_end, dir_end, blocks_end, end)) = sizes else {
            return Err(bad("sizes overflow"));
        };
        if end != b.len() {
            return Err(bad(&format!("{} bytes, the header says {end}", b.len())));
        }
        let want = meta_checksum(
            &b[..48],
            &b[HEADER_LEN..table_end],
            &b[table_end..dir_end],
            &b[dir_end..blocks_end],
        );
        if want != sum {
            return Err(bad("header checksum mismatch"));
        }
        let files = parse_table(&b[HEADER_LEN..table_end], file_count)
            .ok_or_else(|| bad("malformed file table"))?;
        if files.iter().map(|f| u64::from(f.games)).sum::<u64>() != games {
            return Err(bad("game count disagrees with the file table"));
        }
        Ok(PositionIndex {
            path: path.to_owned(),
            dir_bits,
            block_bits,
            entries,
            games,
            files,
            dir_start: table_end,
            blocks_start: dir_end,
            entries_start: blocks_end,
            map,
            bound: Mutex::new(Vec::new()),
        })
    }

    /// Checks the checksum of every block of entries and the directory's
    /// order.
    ///
    /// # Errors
    /// [`IndexError::Corrupt`] naming the first damaged block.
    pub fn verify(&self) -> Result<(), IndexError> {
        let blocks = 1usize << (self.dir_bits - self.block_bits);
        for block in 0..blocks {
            self.block_entries(block)?;
        }
        let mut last = 0;
        for bucket in 0..=(1usize << self.dir_bits) {
            let d = self.dir(bucket)?;
            if d < last {
                return Err(corrupt(
                    &self.path,
                    format!("directory not sorted at bucket {bucket}"),
                ));
            }
            last = d;
        }
        Ok(())
    }

    pub(super) fn dir(&self, bucket: usize) -> Result<u64, IndexError> {
        u32_at(&self.map, self.dir_start + 4 * bucket)
            .map(u64::from)
            .filter(|&d| d <= self.entries)
            .ok_or_else(|| corrupt(&self.path, format!("directory entry {bucket} out of range")))
    }

    /// The entries of block `block`, checksum checked.
    pub(super) fn block_entries(&self, block: usize) -> Result<(&[u8], u64), IndexError> {
        let lo = self.dir(block << self.block_bits)?;
        let hi = self.dir((block + 1) << self.block_bits)?;
        if lo > hi {
            return Err(corrupt(
                &self.path,
                format!("directory not sorted in block {block}"),
            ));
        }
        let at = |e: u64| self.entries_start + e as usize * ENTRY_LEN;
        let bytes = &self.map[at(lo)..at(hi)];
        let sum = u64_at(&self.map, self.blocks_start + 8 * block)
            .ok_or_else(|| corrupt(&self.path, "block table cut"))?;
        if xxh3_64(bytes) != sum {
            return Err(corrupt(
                &self.path,
                format!("block {block} checksum mismatch"),
            ));
        }
        Ok((bytes, lo))
    }
}

pub(super) fn meta_checksum(header: &[u8], table: &[u8], dir: &[u8], blocks: &[u8]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&header[..48]);
    h.update(table);
    h.update(dir);
    h.update(blocks);
    h.digest()
}

/// The file table: per game file, its path length, path, size, header,
/// hash, games and side (the layout of [`parse_table`]).
pub(super) fn write_table<'a>(files: impl Iterator<Item = &'a IndexedFile>) -> Vec<u8> {
    let mut table = Vec::new();
    for f in files {
        table.extend_from_slice(&(f.path.len() as u32).to_le_bytes());
        table.extend_from_slice(f.path.as_bytes());
        table.extend_from_slice(&f.len.to_le_bytes());
        table.extend_from_slice(&f.header);
        table.extend_from_slice(&f.hash.to_le_bytes());
        table.extend_from_slice(&f.games.to_le_bytes());
        table.extend_from_slice(&[f.side, 0, 0, 0]);
    }
    table
}

pub(super) fn parse_table(mut b: &[u8], count: usize) -> Option<Vec<IndexedFile>> {
    let mut files = Vec::with_capacity(count.min(4096));
    let mut take = |n: usize| -> Option<&[u8]> {
        let (head, rest) = b.split_at_checked(n)?;
        b = rest;
        Some(head)
    };
    for _ in 0..count {
        let len = u32::from_le_bytes(take(4)?.try_into().ok()?) as usize;
        let path = String::from_utf8(take(len)?.to_vec()).ok()?;
        let size = u64::from_le_bytes(take(8)?.try_into().ok()?);
        let header: [u8; 16] = take(16)?.try_into().ok()?;
        let hash = u64::from_le_bytes(take(8)?.try_into().ok()?);
        let games = u32::from_le_bytes(take(4)?.try_into().ok()?);
        let side = take(4)?[0];
        if side != 8 && side != 10 {
            return None;
        }
        files.push(IndexedFile {
            path,
            len: size,
            header,
            hash,
            games,
            side,
        });
    }
    take(0)?;
    b.is_empty().then_some(files)
}
