//! The transposition table: a lock-free table shared by every search thread.
//!
//! Each entry holds the full position (`p`, `o`), so a hit is never a hash
//! collision. Entries are written without locks with the XOR trick of
//! Hyatt and Mann: the two key words are stored XORed with the data word, so
//! an entry torn by two concurrent writers fails the key check and reads as
//! a miss instead of handing back another position's bounds.
//!
//! Each bucket holds two entries; a new entry replaces the one from an older
//! search first, then the one with fewer empty squares (cheaper to redo).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// One stored position and its bounds (the midgame search's table packs
/// its own data in the same entries).
pub(crate) struct Entry {
    /// `p ^ data`.
    pub(crate) key_p: AtomicU64,
    /// `o ^ data`.
    pub(crate) key_o: AtomicU64,
    /// The packed [`Bounds`] (never zero: zero is an empty entry).
    pub(crate) data: AtomicU64,
}

/// What the table knows about a position: `lower <= score <= upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// A lower bound of the exact score.
    pub(crate) lower: i32,
    /// An upper bound of the exact score.
    pub(crate) upper: i32,
    /// The best move found (a square 0..64), or `NO_MOVE`.
    pub(crate) best: u8,
    /// How exact the bounds are: [`EXACT`], or the selectivity level of
    /// the probcut search that found them (lower: more selective).
    pub(crate) level: u8,
}

/// The level of bounds proven by an exact search.
pub(crate) const EXACT: u8 = u8::MAX;

/// The `best` of a position without a known best move.
pub(crate) const NO_MOVE: u8 = 64;

/// Packs the bounds, the empty count, the search date and the level into
/// one word, never zero (the lowest byte is `lower + 65 >= 1`).
#[inline]
fn pack(b: Bounds, empties: u32, date: u8) -> u64 {
    let lower = (b.lower + 65) as u64 & 0xff;
    let upper = (b.upper + 65) as u64 & 0xff;
    lower
        | (upper << 8)
        | (u64::from(b.best) << 16)
        | (u64::from(empties) << 24)
        | (u64::from(date) << 32)
        | (u64::from(b.level) << 40)
}

#[inline]
fn unpack(d: u64) -> Bounds {
    Bounds {
        lower: (d & 0xff) as i32 - 65,
        upper: ((d >> 8) & 0xff) as i32 - 65,
        best: ((d >> 16) & 0xff) as u8,
        level: ((d >> 40) & 0xff) as u8,
    }
}

#[inline]
fn empties_of(d: u64) -> u32 {
    ((d >> 24) & 0xff) as u32
}

#[inline]
fn date_of(d: u64) -> u8 {
    ((d >> 32) & 0xff) as u8
}

/// Two entries in one cache line.
#[repr(align(64))]
pub(crate) struct Bucket(pub(crate) [Entry; 2]);

/// Tables of at least this many bytes are aligned to it (a huge page).
const HUGE_PAGE: usize = 2 << 20;

/// The memory of a table: zeroed buckets aligned to a huge page when the
/// table is large and, on Linux, backed by transparent huge pages where
/// the system allows them (`madvise`). The table is read at random: with
/// 4 KiB pages nearly every probe of a large table also missed the TLB (a
/// 128 MiB table made FFO #47–#48 40% slower than a 2 MiB one, for 7%
/// fewer nodes).
///
/// On Linux a large table is an anonymous mapping: its pages read as zero
/// and the kernel backs them when first written, so that a short search
/// touches only the pages it uses (the table of `wthor solve`, 64 MiB by
/// default, was zeroed whole by each solver made: 9-15 ms of CPU before
/// the first node).
pub(crate) struct Buckets {
    ptr: std::ptr::NonNull<Bucket>,
    len: usize,
    memory: Memory,
}

/// Where the buckets' memory comes from, to give it back.
enum Memory {
    /// The global allocator, with this layout.
    Heap(std::alloc::Layout),
    /// An anonymous mapping of `len` bytes from `start` (the buckets start
    /// at its first huge-page boundary).
    #[cfg(target_os = "linux")]
    Mapped {
        start: *mut libc::c_void,
        len: usize,
    },
}

// SAFETY: the buckets hold atomics only, shared like a `Box<[Bucket]>`.
unsafe impl Send for Buckets {}
// SAFETY: as above.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `len` zeroed buckets (an all-zero bucket is an empty one), or `None`
    /// when the memory cannot be had.
    pub(crate) fn new(len: usize) -> Option<Self> {
        let layout = std::alloc::Layout::array::<Bucket>(len).ok()?;
        #[cfg(target_os = "linux")]
        if layout.size() >= HUGE_PAGE {
            return Self::mapped(len, layout.size());
        }
        let layout = if layout.size() >= HUGE_PAGE {
            layout.align_to(HUGE_PAGE).unwrap_or(layout)
        } else {
            layout
        };
        // SAFETY: `layout` has a non-zero size (`len >= 8`); zero bytes are
        // a valid `Bucket` (atomics holding 0).
        let raw = unsafe { std::alloc::alloc_zeroed(layout) };
        let ptr = std::ptr::NonNull::new(raw.cast::<Bucket>())?;
        Some(Buckets {
            ptr,
            len,
            memory: Memory::Heap(layout),
        })
    }

    /// `len` buckets (`size` bytes) in an anonymous mapping, from its first
    /// huge-page boundary, backed by transparent huge pages where the system
    /// allows them.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, size: usize) -> Option<Self> {
        let total = size.checked_add(HUGE_PAGE)?;
        // SAFETY: a new private anonymous mapping: no memory of the process
        // is touched, and the result is checked below.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - start as usize % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, so `offset + size <= total`: the
        // buckets lie inside the mapping.
        let raw = unsafe { start.cast::<u8>().add(offset) };
        // A hint: without huge pages the table still works. Given before
        // the pages are first touched, so that they are allocated huge.
        // SAFETY: the range lies inside the mapping just made.
        unsafe { libc::madvise(raw.cast(), size, libc::MADV_HUGEPAGE) };
        Some(Buckets {
            // The pages of an anonymous mapping read as zero: every bucket
            // is empty.
            ptr: std::ptr::NonNull::new(raw.cast::<Bucket>())?,
            len,
            memory: Memory::Mapped { start, len: total },
        })
    }
}

impl Buckets {
    /// Empties every bucket. A mapping is given back to the kernel
    /// (`MADV_DONTNEED`: its pages read as zero again and are backed anew
    /// when next written), so that clearing costs the pages a search
    /// touched, not the table: storing zeros into a large table backed
    /// every page of it, and a depth-8 analysis of a game spent a quarter
    /// of its time zeroing pages for its clears. Heap memory (a table
    /// under 2 MiB) is written with zeros.
    fn zero(&self) {
        #[cfg(target_os = "linux")]
        if let Memory::Mapped { .. } = self.memory {
            let size = std::mem::size_of_val::<[Bucket]>(self);
            // SAFETY: the buckets lie inside the private anonymous mapping
            // made in `mapped` and start on a huge-page (so page) boundary;
            // afterwards they read as zero, a valid (empty) `Bucket`. A
            // search racing with the clear reads torn entries at worst,
            // which fail their key check, as with the stores below.
            let done =
                unsafe { libc::madvise(self.ptr.as_ptr().cast(), size, libc::MADV_DONTNEED) };
            if done == 0 {
                return;
            }
        }
        for e in self.iter().flat_map(|b| &b.0) {
            e.key_p.store(0, Ordering::Relaxed);
            e.key_o.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
    }
}

impl std::ops::Deref for Buckets {
    type Target = [Bucket];

    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `len` initialised buckets until drop.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        match self.memory {
            // SAFETY: allocated in `new` with this layout.
            Memory::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout)
            },
            // SAFETY: the mapping made in `mapped`, whole, and no bucket is
            // used after this.
            #[cfg(target_os = "linux")]
            Memory::Mapped { start, len } => unsafe {
                libc::munmap(start, len);
            },
        }
    }
}

/// The shared table. All methods take `&self`; writers race benignly.
pub(crate) struct Table {
    buckets: Buckets,
    /// `buckets.len() - 1`.
    mask: usize,
    date: AtomicU64,
    /// Whether an entry may have been written since the table was made or
    /// cleared: [`clear`](Self::clear) of a table still clean writes
    /// nothing (a new table's pages are not touched: a first clear of
    /// 2^20 entries cost 150 to 230 ms).
    written: AtomicBool,
}

impl Table {
    /// A table of `2^bits` entries (at least 2^4, at most 2^32), or `None`
    /// when the memory cannot be had.
    pub(crate) fn new(bits: u32) -> Option<Self> {
        let bits = bits.clamp(4, 32);
        let len = 1usize << (bits - 1);
        Some(Table {
            buckets: Buckets::new(len)?,
            mask: len - 1,
            date: AtomicU64::new(1),
            written: AtomicBool::new(false),
        })
    }

    /// Notes that an entry is being written (a load, and a store only the
    /// first time: the line stays shared between the threads).
    #[inline]
    pub(crate) fn written_to(&self) {
        if !self.written.load(Ordering::Relaxed) {
            self.written.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a new search: entries of older searches become first victims.
    pub(crate) fn new_search(&self) {
        let d = self.date.load(Ordering::Relaxed);
        self.date
            .store(if d >= 255 { 1 } else { d + 1 }, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub(crate) fn clear(&self) {
        if !self.written.swap(false, Ordering::Relaxed) {
            return;
        }
        self.buckets.zero();
    }

    /// The date of the current search (`1..=255`), which entries store.
    #[inline]
    pub(crate) fn date(&self) -> u8 {
        self.date.load(Ordering::Relaxed) as u8
    }

    /// The bucket of `(p, o)` (the midgame table's too).
    #[inline]
    pub(crate) fn bucket(&self, p: u64, o: u64) -> &Bucket {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ o.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
        let h = h ^ (h >> 31);
        &self.buckets[h as usize & self.mask]
    }

    /// Asks the processor to bring the bucket of `(p, o)` into the cache
    /// (a hint, no effect on results).
    #[inline]
    pub(crate) fn prefetch(&self, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let b: *const Bucket = self.bucket(p, o);
            // SAFETY: a prefetch never faults and reads nothing; SSE is part
            // of the x86_64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(b.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = (p, o);
    }

    /// The bounds stored for `(p, o)`, if any.
    #[inline]
    pub(crate) fn probe(&self, p: u64, o: u64) -> Option<Bounds> {
        for e in &self.bucket(p, o).0 {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0
                && e.key_p.load(Ordering::Relaxed) ^ d == p
                && e.key_o.load(Ordering::Relaxed) ^ d == o
            {
                return Some(unpack(d));
            }
        }
        None
    }

    /// Stores the result of a fail-soft search of `(p, o)` with `empties`
    /// empty squares in the window `(alpha, beta)` that returned `score`,
    /// at selectivity `level`. Bounds of one level are merged; a more
    /// exact level replaces them; a less exact one only brings its move.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &self,
        p: u64,
        o: u64,
        empties: u32,
        (alpha, beta): (i32, i32),
        score: i32,
        best: u8,
        level: u8,
    ) {
        self.written_to();
        let b = self.bucket(p, o);
        let date = self.date();
        let unknown = Bounds {
            lower: -64,
            upper: 64,
            best: NO_MOVE,
            level,
        };
        let mut old = unknown;
        // Find the entry of this position, else the victim.
        let mut slot = None;
        for (i, e) in b.0.iter().enumerate() {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0
                && e.key_p.load(Ordering::Relaxed) ^ d == p
                && e.key_o.load(Ordering::Relaxed) ^ d == o
            {
                old = unpack(d);
                slot = Some(i);
                break;
            }
        }
        let slot = slot.unwrap_or_else(|| {
            let d0 = b.0[0].data.load(Ordering::Relaxed);
            let d1 = b.0[1].data.load(Ordering::Relaxed);
            let cost = |d: u64| {
                if d == 0 {
                    0
                } else if date_of(d) != date {
                    1 + empties_of(d)
                } else {
                    100 + empties_of(d)
                }
            };
            usize::from(cost(d1) < cost(d0))
        });
        let mut new = if old.level > level {
            // Keep the more exact bounds; a move is still worth having.
            if old.best != NO_MOVE || best == NO_MOVE {
                return;
            }
            old
        } else {
            let mut new = if old.level < level {
                Bounds {
                    best: old.best,
                    ..unknown
                }
            } else {
                old
            };
            if score > alpha && score < beta {
                new.lower = score;
                new.upper = score;
            } else if score >= beta {
                new.lower = new.lower.max(score);
            } else {
                new.upper = new.upper.min(score);
            }
            if new.lower > new.upper {
                // Bounds from a racing writer (or from a selective search)
                // disagree with ours: trust ours.
                new.lower = if score >= beta { score } else { -64 };
                new.upper = if score <= alpha { score } else { 64 };
            }
            new
        };
        if best != NO_MOVE {
            new.best = best;
        }
        let d = pack(new, empties, date);
        let e = &b.0[slot];
        e.data.store(d, Ordering::Relaxed);
        e.key_p.store(p ^ d, Ordering::Relaxed);
        e.key_o.store(o ^ d, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_table_is_empty_aligned_and_usable() {
        // 2^17 entries: 4 MiB, aligned to a huge page.
        let t = Table::new(17).unwrap();
        assert_eq!(t.buckets.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(t.buckets.len(), 1 << 16);
        assert!(
            t.buckets
                .iter()
                .all(|b| b.0.iter().all(|e| e.data.load(Ordering::Relaxed) == 0))
        );
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..1000 {
            crate::xorshift(&mut x);
            let (p, o) = (x & 0x0f0f_0f0f_0f0f_0f0f, x & 0xf0f0_f0f0_f0f0_f0f0);
            t.store(
                p,
                o,
                20,
                (-64, 64),
                2 * (i % 32) - 32,
                (i % 64) as u8,
                EXACT,
            );
            let b = t.probe(p, o).unwrap();
            assert_eq!((b.lower, b.upper), (2 * (i % 32) - 32, 2 * (i % 32) - 32));
        }
    }

    /// A clear after writes empties the table, each time; a clear of a
    /// table not written since (which skips the work) too; on the heap
    /// (2^8 entries) and in a mapping given back to the kernel (2^17).
    #[test]
    fn clear_forgets_every_entry_each_time() {
        for bits in [8, 17] {
            let t = Table::new(bits).unwrap();
            let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
            for _ in 0..3 {
                t.clear();
                assert_eq!(t.probe(p, o), None);
                let mut x = 0x9e37_79b9_7f4a_7c15u64;
                for _ in 0..2000 {
                    crate::xorshift(&mut x);
                    t.store(
                        x & 0x0f0f_0f0f_0f0f_0f0f,
                        x >> 4 & 0x0f0f_0f0f_0f0f_0f0f,
                        20,
                        (-64, 64),
                        2,
                        3,
                        EXACT,
                    );
                }
                t.store(p, o, 60, (-64, 64), 6, 19, EXACT);
                assert!(t.probe(p, o).is_some());
                t.clear();
                assert_eq!(t.probe(p, o), None);
                assert!(
                    t.buckets.iter().flat_map(|b| &b.0).all(|e| {
                        e.key_p.load(Ordering::Relaxed) == 0
                            && e.key_o.load(Ordering::Relaxed) == 0
                            && e.data.load(Ordering::Relaxed) == 0
                    }),
                    "2^{bits}"
                );
            }
        }
    }

    #[test]
    fn store_then_probe_merges_bounds() {
        let t = Table::new(8).unwrap();
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(t.probe(p, o), None);
        t.store(p, o, 60, (-10, -9), -4, 19, EXACT);
        assert_eq!(
            t.probe(p, o),
            Some(Bounds {
                lower: -4,
                upper: 64,
                best: 19,
                level: EXACT,
            })
        );
        t.store(p, o, 60, (2, 3), 0, NO_MOVE, EXACT);
        assert_eq!(
            t.probe(p, o),
            Some(Bounds {
                lower: -4,
                upper: 0,
                best: 19,
                level: EXACT,
            })
        );
        t.store(p, o, 60, (-64, 64), -2, 26, EXACT);
        assert_eq!(
            t.probe(p, o),
            Some(Bounds {
                lower: -2,
                upper: -2,
                best: 26,
                level: EXACT,
            })
        );
        assert_eq!(t.probe(o, p), None);
    }

    #[test]
    fn more_exact_levels_replace_bounds_and_less_exact_ones_only_add_a_move() {
        let t = Table::new(8).unwrap();
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        t.store(p, o, 30, (-64, 64), 10, NO_MOVE, 0);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.level), (10, 10, 0));
        // An exact upper bound does not merge with selective bounds.
        t.store(p, o, 30, (3, 4), 2, NO_MOVE, EXACT);
        let b = t.probe(p, o).unwrap();
        assert_eq!(
            (b.lower, b.upper, b.level, b.best),
            (-64, 2, EXACT, NO_MOVE)
        );
        // A selective result keeps the exact bounds, brings its move.
        t.store(p, o, 30, (-64, 64), 20, 37, 1);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.level, b.best), (-64, 2, EXACT, 37));
        // Same level: merged.
        t.store(p, o, 30, (-9, -8), -6, 12, EXACT);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.level, b.best), (-6, 2, EXACT, 12));
    }
}
