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

use crate::Database;

mod build;
mod format;
mod freshness;
mod lookup;

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
    #[error("{}", path.display())]
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

impl PositionIndex {
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
}
