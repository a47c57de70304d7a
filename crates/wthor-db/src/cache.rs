//! A persisted cache of solved positions: exact scores keyed by the
//! position in canonical form, so that a re-run (or next year's file, whose
//! games often repeat known lines) solves only what is new.
//!
//! The key is the position *as seen by the side to move*: `(p, o)`, the
//! discs of the side to move and of its opponent. The exact score for the
//! side to move depends on nothing else (not on its colour), so this is
//! the board and side to move in one, and a position with the colours
//! swapped shares the entry. Of the 8 images of `(p, o)` under the
//! symmetries of the board, the canonical one is kept
//! ([`othello_core::symmetry::canonical_discs`], the orientation of every
//! position key of the workspace).
//!
//! ```
//! use wthor_db::cache::SolveCache;
//! use othello_core::symmetry::{Symmetry, canonical_discs};
//!
//! let cache = SolveCache::new();
//! let (p, o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
//! cache.insert(p, o, 0);
//! // Every image of the position hits the same entry.
//! for s in Symmetry::ALL {
//!     assert_eq!(cache.get(s.bits8(p), s.bits8(o)), Some(0));
//! }
//! assert_eq!(canonical_discs(p, o).0, canonical_discs(Symmetry::MIRROR.bits8(p), Symmetry::MIRROR.bits8(o)).0);
//! ```
//!
//! # File format
//!
//! Little-endian: the 8 bytes `WTHSOLV1`, the entry count (`u64`), the
//! entries sorted by key, 17 bytes each (`p: u64`, `o: u64`, `score: i8`),
//! then the FNV-1a 64 hash of everything before it (`u64`). Files are
//! written atomically ([`crate::atomic`]), so a crash leaves either the old
//! or the new cache.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use othello_core::symmetry::canonical_discs;

const MAGIC: &[u8; 8] = b"WTHSOLV1";
const MAGIC_TEXT: &str = "WTHSOLV1";
const ENTRY_LEN: usize = 17;

/// The FNV-1a 64-bit hash: stable across builds and platforms (unlike the
/// standard hasher), used for move lists and cache files.
#[must_use]
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Why a cache file was not loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The file could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The cache file.
        path: PathBuf,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// The file does not start with the cache's magic bytes: it is some
    /// other file (a results log given by mistake, say), which a caller
    /// must not overwrite.
    #[error("{}: not a solve cache (it does not start with {:?})", path.display(), MAGIC_TEXT)]
    NotACache {
        /// The file.
        path: PathBuf,
    },
    /// The file could not be written (see [`crate::atomic`]): the old one
    /// is intact.
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    /// The file starts with the cache's magic bytes but is damaged (bad
    /// length, checksum or entry): a cache of ours, which a caller may move
    /// aside ([`set_aside`]) and start afresh.
    #[error("{}: damaged solve cache ({reason})", path.display())]
    Damaged {
        /// The cache file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
}

/// A thread-safe map from canonical positions to exact scores for the side
/// to move, with hit and miss counters.
#[derive(Debug, Default)]
pub struct SolveCache {
    map: Mutex<HashMap<(u64, u64), i8>>,
    hits: AtomicU64,
    misses: AtomicU64,
    added: AtomicU64,
}

impl SolveCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> SolveCache {
        SolveCache::default()
    }

    /// Loads the cache file at `path`. A missing or empty file gives an
    /// empty cache (an empty file holds nothing to lose).
    ///
    /// # Errors
    /// [`CacheError::Io`] when the file exists but cannot be read,
    /// [`CacheError::NotACache`] when it does not start with the magic
    /// bytes (leave it alone), [`CacheError::Damaged`] when it does but its
    /// length, checksum or an entry is wrong (callers may [`set_aside`] it
    /// and start empty).
    pub fn load(path: &Path) -> Result<SolveCache, CacheError> {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(SolveCache::new()),
            Err(source) => {
                return Err(CacheError::Io {
                    path: path.to_owned(),
                    source,
                });
            }
        };
        if bytes.is_empty() {
            return Ok(SolveCache::new());
        }
        if !bytes.starts_with(MAGIC) {
            return Err(CacheError::NotACache {
                path: path.to_owned(),
            });
        }
        let corrupt = |reason: String| CacheError::Damaged {
            path: path.to_owned(),
            reason,
        };
        let Some(count) = bytes
            .get(8..16)
            .and_then(|b| Some(u64::from_le_bytes(b.try_into().ok()?)))
        else {
            return Err(corrupt(format!(
                "{} bytes, less than a header",
                bytes.len()
            )));
        };
        let want = usize::try_from(count)
            .ok()
            .and_then(|c| c.checked_mul(ENTRY_LEN))
            .and_then(|n| n.checked_add(24));
        if want != Some(bytes.len()) {
            return Err(corrupt(format!(
                "{} bytes for {count} entries (expected 24 + 17 per entry)",
                bytes.len()
            )));
        }
        // The length is 24 + 17 × count: the body and sum below exist.
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if Some(fnv1a64(body)) != le_u64(sum) {
            return Err(corrupt("checksum mismatch".into()));
        }
        let mut map = HashMap::with_capacity(body.len() / ENTRY_LEN);
        for e in body[16..].chunks_exact(ENTRY_LEN) {
            let (Some(p), Some(o), Some(&score)) = (le_u64(&e[0..8]), le_u64(&e[8..16]), e.get(16))
            else {
                return Err(corrupt("short entry".into()));
            };
            let score = score as i8;
            if p & o != 0 || !(-64..=64).contains(&score) {
                return Err(corrupt(format!("invalid entry {p:#x} {o:#x} {score}")));
            }
            map.insert((p, o), score);
        }
        Ok(SolveCache {
            map: Mutex::new(map),
            ..SolveCache::default()
        })
    }

    /// Writes the cache to `path` atomically (see [`crate::atomic`]).
    ///
    /// # Errors
    /// [`CacheError::Write`] when the file cannot be written or renamed.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let mut entries: Vec<((u64, u64), i8)> = {
            let map = self.lock();
            map.iter().map(|(&k, &v)| (k, v)).collect()
        };
        entries.sort_unstable();
        let mut bytes = Vec::with_capacity(24 + ENTRY_LEN * entries.len());
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
        for ((p, o), s) in entries {
            bytes.extend_from_slice(&p.to_le_bytes());
            bytes.extend_from_slice(&o.to_le_bytes());
            bytes.push(s as u8);
        }
        let sum = fnv1a64(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        Ok(crate::atomic::write(path, &bytes)?)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(u64, u64), i8>> {
        // A panic while holding the lock leaves a valid map: keep using it.
        self.map
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The exact score of `(p, o)` for the side to move, if known (counted
    /// as a hit or a miss).
    pub fn get(&self, p: u64, o: u64) -> Option<i32> {
        let found = self.lock().get(&canonical_discs(p, o).0).copied();
        let counter = if found.is_some() {
            &self.hits
        } else {
            &self.misses
        };
        counter.fetch_add(1, Ordering::Relaxed);
        found.map(i32::from)
    }

    /// Records the exact score of `(p, o)` for the side to move.
    ///
    /// # Panics
    /// When `score` is outside `-64..=64` (no exact Othello score is).
    pub fn insert(&self, p: u64, o: u64, score: i32) {
        let score = i8::try_from(score)
            .ok()
            .filter(|s| (-64..=64).contains(s))
            .expect("an exact score lies in -64..=64");
        if self.lock().insert(canonical_discs(p, o).0, score).is_none() {
            self.added.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Adds every position of `other` not already here; returns how many
    /// positions of `other` were here with another score (kept as they
    /// are: exact scores never differ unless a file was tampered with).
    pub fn merge_from(&self, other: &SolveCache) -> usize {
        let theirs: Vec<((u64, u64), i8)> = other.lock().iter().map(|(&k, &v)| (k, v)).collect();
        let mut map = self.lock();
        let mut conflicts = 0;
        for (key, score) in theirs {
            match map.get(&key) {
                Some(&s) if s != score => conflicts += 1,
                Some(_) => {}
                None => {
                    map.insert(key, score);
                    self.added.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        conflicts
    }

    /// The number of positions held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the cache holds no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `(hits, misses, added)` since the cache was made or loaded.
    #[must_use]
    pub fn stats(&self) -> (u64, u64, u64) {
        (
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed),
            self.added.load(Ordering::Relaxed),
        )
    }
}

/// A little-endian `u64` from exactly 8 bytes.
fn le_u64(bytes: &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.try_into().ok()?))
}

/// Moves a damaged cache file out of the way: renames `path` to the first
/// free name among `NAME.damaged`, `NAME.damaged-2`, `NAME.damaged-3`…
/// beside it, and returns that name. Nothing is deleted.
///
/// # Errors
/// Any I/O error of the rename.
pub fn set_aside(path: &Path) -> io::Result<PathBuf> {
    let name = path.file_name().unwrap_or(path.as_os_str()).to_owned();
    for n in 1u32.. {
        let mut aside = name.clone();
        aside.push(if n == 1 {
            ".damaged".to_owned()
        } else {
            format!(".damaged-{n}")
        });
        let aside = path.with_file_name(aside);
        if std::fs::symlink_metadata(&aside).is_err() {
            std::fs::rename(path, &aside)?;
            return Ok(aside);
        }
    }
    Err(io::Error::other(
        "no free name to move the damaged cache to",
    ))
}
