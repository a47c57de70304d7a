//! The midgame search's transposition table.
//!
//! A table of its own rather than the exact solver's: a midgame bound is
//! a value of the pattern evaluation (1/[`SCALE`](crate::eval::SCALE)
//! disc, beyond the solver's byte per bound) and holds only for the
//! depth and the selectivity that found it, which the solver's entries
//! do not record. The memory (two entries per cache line, huge pages, an
//! anonymous mapping backed when first written) and the lock-free XOR
//! scheme of the entries are the solver's (`solver::tt`): only the packing
//! of the data word differs.

use std::sync::atomic::Ordering;

use crate::solver::tt::Bucket;

/// The best move of a position without a known one.
pub(crate) const NO_MOVE: u8 = 64;

/// What the table knows of a position: `lower <= value <= upper` for a
/// search of `depth` plies at selectivity `level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub(crate) lower: i32,
    pub(crate) upper: i32,
    /// The best move found (a square 0..64), or [`NO_MOVE`].
    pub(crate) best: u8,
    /// The plies searched, at most the empties (a search that reaches the
    /// end of the game is exact, whatever its depth).
    pub(crate) depth: u8,
    /// The selectivity (higher: fewer cuts; `u8::MAX`: none).
    pub(crate) level: u8,
}

/// Packs bounds and the search date (`1..=255`, so never zero).
#[inline]
fn pack(b: Bounds, date: u8) -> u64 {
    u64::from(b.lower as i16 as u16)
        | (u64::from(b.upper as i16 as u16) << 16)
        | (u64::from(b.best) << 32)
        | (u64::from(b.depth) << 40)
        | (u64::from(b.level) << 48)
        | (u64::from(date) << 56)
}

#[inline]
fn unpack(d: u64) -> Bounds {
    Bounds {
        lower: i32::from(d as u16 as i16),
        upper: i32::from((d >> 16) as u16 as i16),
        best: (d >> 32) as u8,
        depth: (d >> 40) as u8,
        level: (d >> 48) as u8,
    }
}

#[inline]
fn date_of(d: u64) -> u8 {
    (d >> 56) as u8
}

/// The table, shared by reference; writers race benignly (a torn entry
/// fails its key check and reads as a miss). Its buckets, their hashing,
/// the search date and the clearing are the solver's table's
/// ([`solver::tt::Table`](crate::solver::tt::Table)); only the data word
/// is packed and merged here.
pub(crate) struct Table(crate::solver::tt::Table);

impl Table {
    /// A table of `2^bits` entries (`bits` in 4..=32), or `None` when the
    /// memory cannot be had.
    pub(crate) fn new(bits: u32) -> Option<Self> {
        crate::solver::tt::Table::new(bits).map(Table)
    }

    /// Starts a new search: entries of older searches become first victims.
    pub(crate) fn new_search(&self) {
        self.0.new_search();
    }

    /// Forgets everything.
    pub(crate) fn clear(&self) {
        self.0.clear();
    }

    #[inline]
    fn bucket(&self, p: u64, o: u64) -> &Bucket {
        self.0.bucket(p, o)
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

    /// Stores the result `value` of a fail-soft search of `(p, o)` in the
    /// window `(alpha, beta)` at `depth` (already at most the empties) and
    /// selectivity `level`. Bounds of the same depth and level are merged;
    /// a deeper or less selective result replaces them; a shallower or
    /// more selective one of the same search only brings its move.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &self,
        p: u64,
        o: u64,
        (alpha, beta): (i32, i32),
        value: i32,
        best: u8,
        depth: u8,
        level: u8,
    ) {
        self.0.written_to();
        let b = self.bucket(p, o);
        let date = self.0.date();
        let mut old = None;
        let mut slot = None;
        for (i, e) in b.0.iter().enumerate() {
            let d = e.data.load(Ordering::Relaxed);
            if d != 0
                && e.key_p.load(Ordering::Relaxed) ^ d == p
                && e.key_o.load(Ordering::Relaxed) ^ d == o
            {
                old = Some((unpack(d), date_of(d)));
                slot = Some(i);
                break;
            }
        }
        let slot = slot.unwrap_or_else(|| {
            // The victim: an empty entry, else one of an older search,
            // else the shallower.
            let cost = |d: u64| {
                if d == 0 {
                    0
                } else if date_of(d) != date {
                    1 + u32::from(unpack(d).depth)
                } else {
                    1000 + u32::from(unpack(d).depth)
                }
            };
            let c0 = cost(b.0[0].data.load(Ordering::Relaxed));
            let c1 = cost(b.0[1].data.load(Ordering::Relaxed));
            usize::from(c1 < c0)
        });
        let unknown = Bounds {
            lower: -i32::from(i16::MAX),
            upper: i32::from(i16::MAX),
            best: NO_MOVE,
            depth,
            level,
        };
        let mut new = match old {
            Some((was, _)) if was.depth == depth && was.level == level => was,
            Some((was, d)) if d == date && was.depth >= depth && was.level >= level => {
                // Better bounds of this search: keep them, add a move.
                if was.best == NO_MOVE && best != NO_MOVE {
                    self.write(b, slot, p, o, Bounds { best, ..was }, date);
                }
                return;
            }
            Some((was, _)) => Bounds {
                best: was.best,
                ..unknown
            },
            None => unknown,
        };
        let v = value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX));
        if value > alpha && value < beta {
            new.lower = v;
            new.upper = v;
        } else if value >= beta {
            new.lower = new.lower.max(v);
        } else {
            new.upper = new.upper.min(v);
        }
        if new.lower > new.upper {
            // Racing writers disagree: trust this result.
            new.lower = if value > alpha { v } else { unknown.lower };
            new.upper = if value < beta { v } else { unknown.upper };
        }
        if best != NO_MOVE {
            new.best = best;
        }
        self.write(b, slot, p, o, new, date);
    }

    /// Writes `bounds` for `(p, o)` into entry `slot` of `b`.
    #[inline]
    fn write(&self, b: &Bucket, slot: usize, p: u64, o: u64, bounds: Bounds, date: u8) {
        let d = pack(bounds, date);
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
    fn bounds_merge_at_one_depth_and_deeper_results_replace() {
        let t = Table::new(8).unwrap();
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(t.probe(p, o), None);
        t.store(p, o, (-100, -99), -50, 19, 5, 255);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.best, b.depth), (-50, 32767, 19, 5));
        t.store(p, o, (200, 201), 150, NO_MOVE, 5, 255);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.best), (-50, 150, 19));
        // Deeper: replaces the bounds, keeps the move.
        t.store(p, o, (0, 1), 3, NO_MOVE, 6, 255);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.best, b.depth), (3, 32767, 19, 6));
        // Shallower, same search: only a move, when there is none.
        t.store(p, o, (-9000, 9000), 77, 40, 4, 255);
        let b = t.probe(p, o).unwrap();
        assert_eq!((b.lower, b.upper, b.best, b.depth), (3, 32767, 19, 6));
        // Negative values and levels round-trip.
        t.store(p, o, (-9000, 9000), -4096, 12, 7, 15);
        let b = t.probe(p, o).unwrap();
        assert_eq!(
            (b.lower, b.upper, b.best, b.depth, b.level),
            (-4096, -4096, 12, 7, 15)
        );
        assert_eq!(t.probe(o, p), None);
    }
}
