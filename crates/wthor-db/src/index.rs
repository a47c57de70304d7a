//! The persistent position index: an optional layer that knows when it is
//! stale.
//!
//! [`PositionIndex::build`] replays every game of a database (on
//! [`Database::par_fold`]) and writes, for every position a game reaches
//! after 1 or more moves, a 40-bit hash of the position in canonical
//! orientation (the smallest of its 8 images, side to move and board size
//! included) with the game's number; a position where the side to move
//! must pass is also entered with the other side to move, as the queries
//! see it. Every position of every game is entered (no ply limit): the
//! top-level archive (137,548 games, 8.3 M positions) gives a file of
//! about 54 MB. The start position is not stored: every game reaches it.
//!
//! A lookup gives *candidates* ([`PositionIndex::candidates`]): a hash can
//! collide, so a [`Searcher`](crate::Searcher) runs the query's
//! [`Matcher`](crate::query::Matcher) (which replays the game to the
//! position) on each of them, and answers exactly as a scan does.
//!
//! # Staleness
//!
//! The index records each game file it was built from: its canonical path,
//! size, 16 header bytes (creation date, counts) and an XXH3-64 hash of its
//! bytes. [`PositionIndex::staleness`] compares them with a database: an
//! index is *fresh* only when built from exactly its game files (names
//! files do not matter: no position depends on them). A stale or damaged
//! index is never used: [`IndexStatus`] says why.
//!
//! # Layout (little-endian)
//!
//! ```text
//! header   64 bytes: "WTHORIX1", version u32, directory bits D u32, files u32,
//!          block bits K u32, entries u64, file-table bytes u64, games u64,
//!          XXH3-64 of (header bytes 0..48, file table, directory, block sums),
//!          8 reserved bytes
//! files    per game file: path length u32, path (UTF-8), size u64,
//!          header [u8; 16], XXH3-64 of the file u64, games u32, side u8, 3 zero bytes
//! directory (2^D + 1) × u32: the first entry of each bucket (top D bits of the hash)
//! blocks   2^(D−K) × u64: XXH3-64 of the entries of 2^K buckets
//! entries  6 bytes each, sorted: hash bits 16..40 (24 bits) above the game number (24 bits)
//! ```
//!
//! D grows with the entries (about 8 per bucket, 8 to 20 bits); below 16,
//! the hash bits between the bucket's and the stored 24 are not kept (a
//! small index compares 32 to 39 bits; collisions are confirmed away).
//!
//! Opening checks the header's checksum and every size against the file
//! length; a lookup checks the directory bounds and the checksum of the
//! one block it reads (a few kilobytes), so a corrupt index is reported,
//! never trusted, and never crashes. Writing is atomic (a temporary file
//! renamed over the target).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use memmap2::Mmap;
use othello_core::position::forced_pass;
use othello_core::replay::{Step, replay_with, wthor_tokens};
use othello_core::symmetry::PositionKey;
use othello_core::{Bitboard, Board, Board8, Board10, Move};
use rayon::prelude::*;
use wthor_format::BoardSize;
use xxhash_rust::xxh3::xxh3_64;

use crate::query::Position;
use crate::{Database, GameId};

const MAGIC: &[u8; 8] = b"WTHORIX1";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 64;
const ENTRY_LEN: usize = 6;
/// Bits of the stored hash.
const HASH_BITS: u32 = 40;
/// Bits of the game number in an entry (and its hash part).
const LOW_BITS: u32 = 24;
const MAX_DIR_BITS: u32 = 20;
const MIN_DIR_BITS: u32 = 8;
const BLOCK_BITS: u32 = 10;

/// Which position index a [`Searcher`](crate::Searcher) answers position
/// filters with (the `--index PATH` / `--no-index` flags of the CLI, the
/// server's, Python's `index=`): chosen once per searcher, at its first
/// query with a position filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum IndexChoice {
    /// The index at [`default_path`], when there is a fresh one (a note
    /// when it is stale or damaged; none when there is no file: the index
    /// is optional).
    #[default]
    Default,
    /// The index at this path (a note when it cannot be used: missing,
    /// stale or damaged).
    At(PathBuf),
    /// Never an index: scan.
    Never,
}

/// The file name of the index beside a database directory.
pub const DEFAULT_NAME: &str = "wthor.idx";

/// Why an index could not be built, written or read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum IndexError {
    /// The file could not be read, mapped or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The index file (or a game file being hashed).
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// The index could not be written (see [`crate::atomic`]): an old one
    /// is intact.
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    /// The file is no index, or a damaged one.
    #[error("{}: corrupt index: {what}", path.display())]
    Corrupt {
        /// The index file.
        path: PathBuf,
        /// What does not hold.
        what: String,
    },
    /// More games than an entry can number (2^24).
    #[error("{0} games: an index holds at most 16,777,216")]
    TooManyGames(usize),
    /// The index was not built from these files.
    #[error("the index is stale: {0}")]
    Stale(StaleReason),
}

/// Why an index does not belong to a database.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StaleReason {
    /// A game file of the database is not in the index.
    #[error("{0} is not in the index")]
    NotIndexed(String),
    /// A file of the index is not in the database.
    #[error("{0} is indexed but not in the database")]
    Gone(String),
    /// A file changed since the index was built.
    #[error("{file} changed ({what})")]
    Changed {
        /// The file.
        file: String,
        /// `size`, `header` or `content`.
        what: &'static str,
    },
}

/// The state of an index for a database.
#[derive(Debug)]
pub enum IndexStatus {
    /// Built from exactly these files, undamaged.
    Fresh(PositionIndex),
    /// Built from other files (or other versions of them).
    Stale(StaleReason),
    /// No index file.
    Missing,
    /// Unreadable or damaged.
    Corrupt(IndexError),
}

impl IndexStatus {
    /// The index, when it is fresh.
    #[must_use]
    pub fn fresh(self) -> Option<PositionIndex> {
        match self {
            IndexStatus::Fresh(ix) => Some(ix),
            _ => None,
        }
    }
}

/// A game file as the index recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexedFile {
    /// Its canonical path (lossy UTF-8).
    pub path: String,
    /// Its size in bytes.
    pub len: u64,
    /// Its 16 header bytes.
    pub header: [u8; 16],
    /// XXH3-64 of its bytes.
    pub hash: u64,
    /// Its games.
    pub games: u32,
    /// Its board side (8 or 10).
    pub side: u8,
}

/// What [`PositionIndex::build`] wrote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildReport {
    /// Games indexed.
    pub games: u64,
    /// Entries (positions of games).
    pub entries: u64,
    /// Bytes of the index file.
    pub bytes: u64,
}

/// A position index, memory-mapped (see the module docs).
#[derive(Debug)]
pub struct PositionIndex {
    path: PathBuf,
    map: Mmap,
    dir_bits: u32,
    block_bits: u32,
    entries: u64,
    games: u64,
    files: Vec<IndexedFile>,
    dir_start: usize,
    blocks_start: usize,
    entries_start: usize,
    /// The database files of the index's files, as last found (so that
    /// lookups do not resolve paths again).
    bound: Mutex<Vec<Bound>>,
}

/// An index file found in a database.
#[derive(Clone, Debug)]
struct Bound {
    /// The global number of its first game.
    start: u32,
    /// Its games.
    games: u32,
    /// Its position in the database.
    file: usize,
    /// Its board side.
    side: u8,
    /// Its path as the database opened it.
    path: PathBuf,
}

/// The canonical path of a file, as the index stores it.
fn path_key(path: &Path) -> String {
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

/// The default index path of a database: `wthor.idx` in its first
/// directory, or `FILE.idx` beside a database opened from a single file.
#[must_use]
pub fn default_path(db: &Database) -> PathBuf {
    let root = db.root();
    if root.is_dir() {
        root.join(DEFAULT_NAME)
    } else {
        let mut name = root.file_name().unwrap_or_default().to_owned();
        name.push(".idx");
        root.with_file_name(name)
    }
}

/// The game files of a database as an index records them, in database
/// order, with their positions in [`Database::files`].
fn describe(db: &Database) -> Vec<(usize, IndexedFile)> {
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
fn position_hash<B: Board>(board: &B) -> u64
where
    B::Bits: Into<u128>,
{
    PositionKey::of(board).hash64()
}

/// The sort key of an entry: the top 40 bits of the hash above the game.
#[inline]
fn entry_key(hash: u64, game: u32) -> u64 {
    ((hash >> (64 - HASH_BITS)) << LOW_BITS) | u64::from(game)
}

/// An entry's sort key with `dir_bits` of bucket: the bucket (top bits of
/// the hash), then the 24 stored hash bits and the game; the hash bits
/// between them (none from 16 directory bits) are cleared.
#[inline]
fn stored_key(key: u64, dir_bits: u32) -> u64 {
    let low = (1u64 << (2 * LOW_BITS)) - 1;
    let top = !((1u64 << (64 - dir_bits)) - 1);
    key & (top | low)
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

fn corrupt(path: &Path, what: impl Into<String>) -> IndexError {
    IndexError::Corrupt {
        path: path.to_owned(),
        what: what.into(),
    }
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
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
        // The first global game number of each database file.
        let mut first = vec![0u32; db.files().len()];
        let mut next = 0u32;
        for (i, f) in &files {
            first[*i] = next;
            next += f.games;
        }
        let mut keys = db.par_fold(
            Vec::new,
            |acc: &mut Vec<u64>, g| {
                let n = first[g.id.file()] + g.id.index() as u32;
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
        let mut table = Vec::new();
        for (_, f) in &files {
            table.extend_from_slice(&(f.path.len() as u32).to_le_bytes());
            table.extend_from_slice(f.path.as_bytes());
            table.extend_from_slice(&f.len.to_le_bytes());
            table.extend_from_slice(&f.header);
            table.extend_from_slice(&f.hash.to_le_bytes());
            table.extend_from_slice(&f.games.to_le_bytes());
            table.extend_from_slice(&[f.side, 0, 0, 0]);
        }
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

    /// The path it was opened from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The game files it was built from.
    #[must_use]
    pub fn files(&self) -> &[IndexedFile] {
        &self.files
    }

    /// The games indexed.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The entries (positions of games).
    #[must_use]
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The size of the file in bytes.
    #[must_use]
    pub fn byte_len(&self) -> usize {
        self.map.len()
    }

    /// Why the index does not belong to `db`, `None` when it was built from
    /// exactly `db`'s game files as they are now (paths, sizes, headers,
    /// content hashes).
    #[must_use]
    pub fn staleness(&self, db: &Database) -> Option<StaleReason> {
        self.check(db).err()
    }

    /// Where the index's files are in `db` when it was built from exactly
    /// `db`'s game files (see [`staleness`](PositionIndex::staleness)).
    fn check(&self, db: &Database) -> Result<Vec<Bound>, StaleReason> {
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

    fn dir(&self, bucket: usize) -> Result<u64, IndexError> {
        u32_at(&self.map, self.dir_start + 4 * bucket)
            .map(u64::from)
            .filter(|&d| d <= self.entries)
            .ok_or_else(|| corrupt(&self.path, format!("directory entry {bucket} out of range")))
    }

    /// The entries of block `block`, checksum checked.
    fn block_entries(&self, block: usize) -> Result<(&[u8], u64), IndexError> {
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

fn meta_checksum(header: &[u8], table: &[u8], dir: &[u8], blocks: &[u8]) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    h.update(&header[..48]);
    h.update(table);
    h.update(dir);
    h.update(blocks);
    h.digest()
}

fn parse_table(mut b: &[u8], count: usize) -> Option<Vec<IndexedFile>> {
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
