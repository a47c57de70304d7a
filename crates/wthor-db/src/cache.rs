//! A persisted cache of solved positions: exact scores keyed by the
//! position in canonical form, so that a re-run (or next year's file, whose
//! games often repeat known lines) solves only what is new.
//!
//! The key is the position *as seen by the side to move*: `(p, o)`, the
//! discs of the side to move and of its opponent. The exact score for the
//! side to move depends on nothing else (not on its colour), so this is
//! the board and side to move in one, and a position with the colours
//! swapped shares the entry. Of the 8 images of `(p, o)` under the
//! symmetries of the board, the smallest (as a pair of integers) is kept.
//!
//! ```
//! use wthor_db::cache::{SolveCache, canonical};
//! use othello_core::symmetry::Symmetry;
//!
//! let cache = SolveCache::new();
//! let (p, o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
//! cache.insert(p, o, 0);
//! // Every image of the position hits the same entry.
//! for s in Symmetry::ALL {
//!     assert_eq!(cache.get(s.bits8(p), s.bits8(o)), Some(0));
//! }
//! assert_eq!(canonical(p, o), canonical(Symmetry::MIRROR.bits8(p), Symmetry::MIRROR.bits8(o)));
//! ```
//!
//! # File format
//!
//! Little-endian: the 8 bytes `WTHSOLV1`, the entry count (`u64`), the
//! entries sorted by key, 17 bytes each (`p: u64`, `o: u64`, `score: i8`),
//! then the FNV-1a 64 hash of everything before it (`u64`). Files are
//! written to a temporary file in the same directory and renamed over the
//! old one, so a crash leaves either the old or the new cache.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use othello_core::symmetry::Symmetry;

const MAGIC: &[u8; 8] = b"WTHSOLV1";
const ENTRY_LEN: usize = 17;

/// The canonical form of a position `(p, o)` (side to move, opponent):
/// the smallest of its 8 images under the symmetries of the board.
#[must_use]
pub fn canonical(p: u64, o: u64) -> (u64, u64) {
    Symmetry::ALL
        .iter()
        .map(|s| (s.bits8(p), s.bits8(o)))
        .min()
        .expect("8 symmetries")
}

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

/// Why a cache file was not loaded (the cache then starts empty).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// The file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The cache file.
        path: PathBuf,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// The file is no cache file, or is damaged.
    #[error("{}: not a valid solve cache ({reason})", path.display())]
    Corrupt {
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

    /// Loads the cache file at `path`. A missing file gives an empty cache.
    ///
    /// # Errors
    /// [`CacheError::Io`] when the file exists but cannot be read,
    /// [`CacheError::Corrupt`] when it is no valid cache file (wrong magic,
    /// length or checksum): callers are expected to warn and start empty.
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
        let corrupt = |reason: String| CacheError::Corrupt {
            path: path.to_owned(),
            reason,
        };
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(corrupt("bad magic bytes".into()));
        }
        let count = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
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
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a64(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(corrupt("checksum mismatch".into()));
        }
        let mut map = HashMap::with_capacity(count as usize);
        for e in body[16..].chunks_exact(ENTRY_LEN) {
            let p = u64::from_le_bytes(e[0..8].try_into().expect("8 bytes"));
            let o = u64::from_le_bytes(e[8..16].try_into().expect("8 bytes"));
            let score = e[16] as i8;
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

    /// Writes the cache to `path` atomically (a temporary file in the same
    /// directory, renamed over `path`).
    ///
    /// # Errors
    /// [`CacheError::Io`] when the file cannot be written or renamed.
    pub fn save(&self, path: &Path) -> Result<(), CacheError> {
        let io = |source| CacheError::Io {
            path: path.to_owned(),
            source,
        };
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
        write_atomically(path, &bytes).map_err(io)
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
        let found = self.lock().get(&canonical(p, o)).copied();
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
        if self.lock().insert(canonical(p, o), score).is_none() {
            self.added.fetch_add(1, Ordering::Relaxed);
        }
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

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk and
/// renames it to `path`.
///
/// # Errors
/// Any I/O error of the directory, the write or the rename.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.bin");
        let cache = SolveCache::new();
        cache.insert(1, 2, -64);
        cache.insert(0x8000_0000_0000_0000, 4, 64);
        cache.save(&path).unwrap();
        let back = SolveCache::load(&path).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back.get(1, 2), Some(-64));
        assert_eq!(back.get(0x8000_0000_0000_0000, 4), Some(64));
        assert_eq!(back.get(1, 4), None);
        assert_eq!(back.stats(), (2, 1, 0));

        let mut bytes = std::fs::read(&path).unwrap();
        bytes[20] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            SolveCache::load(&path),
            Err(CacheError::Corrupt { .. })
        ));
        std::fs::write(&path, b"garbage").unwrap();
        assert!(matches!(
            SolveCache::load(&path),
            Err(CacheError::Corrupt { .. })
        ));
        let missing = SolveCache::load(&dir.path().join("none")).unwrap();
        assert!(missing.is_empty());
    }
}
