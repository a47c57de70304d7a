//! The 8x8 search: principal-variation search at PV nodes, null-window
//! search everywhere else, specialised code for the last four empties.
//!
//! Every function is fail-soft and returns the final disc difference for the
//! side to move (WTHOR convention: empties go to the winner). Null-window
//! functions take `alpha` and search the window `(alpha, alpha + 1)`.

use super::kernels::{Kernels, Portable, flips, last_flip_count, neighbours};
#[cfg(target_arch = "x86_64")]
use super::kernels::{X86V3, X86V4};
use super::stability::stable_count;
use super::tt::{EXACT, NO_MOVE, Table};
use crate::bitboard8::game_over_score as final_score;
use crate::eval::SCALE;
use rayon::prelude::*;
use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::control::{Control, SOLVER_POLL};

/// More than any score.
pub(crate) const INF: i32 = 127;

/// Null-window nodes with at most this many empties use no table and order
/// moves by parity only. (Measured on FFO #40–#49 with [`SIMPLE`] nodes
/// up to 8 empties above: 5 rather than 6, 461M rather than 488M nodes and
/// 3% less time; 4, 424M nodes and more time. With the small tables and
/// simple nodes up to 10: 6, 444M rather than 402M nodes and 7% more time;
/// 4, 354M nodes and no faster.)
const SHALLOW: u32 = 5;
// The shallow search starts at 5 empties (below, the specialised code):
// the simple search hands its children of SHALLOW empties to it.
const _: () = assert!(SHALLOW >= 5 && SHALLOW < SIMPLE);
/// Null-window nodes with more than [`SHALLOW`] and at most this many
/// empties order moves by the opponent's replies (corners counting
/// double), then parity, then square value, as in Egaroucid: each child
/// gets its replies, computed for the ordering; a move leaving at most one
/// reply is searched at once; a small table per thread and per depth, in
/// the cache, holds the children's bounds and cuts like the shared table's
/// enhanced transposition cutoffs. (FFO #40–#49: 584M nodes before, with the
/// heavier ordering of deeper nodes from 6 empties and parity below;
/// up to 8 empties, 461M without the small tables, 4% less time, and 377M
/// with them, 8% less again; up to 10, 402M nodes and 11% less again; up
/// to 11, 441M and slower; later, with the square value and the keys
/// sorted without branches: up to 11, 442M nodes and 1.05x the time;
/// from 5 rather than 6, searching solve4 below, 355M rather than 406M
/// nodes and the same time.)
const SIMPLE: u32 = 10;
/// Enhanced transposition cutoffs from this many empties (where the
/// children are in the shared table: above [`SIMPLE`]).
const ETC_MIN: u32 = SIMPLE + 2;
/// PV nodes with at least this many empties search their siblings in parallel.
const PARALLEL_MIN: u32 = 12;
/// Null-window nodes with at least this many empties search their younger
/// siblings in parallel once the eldest failed to cut.
const PARALLEL_NWS_MIN: u32 = 15;
/// Nodes with at least this many empties order their moves by a shallow
/// search on the pattern evaluation ([`sort_plies`]).
const SORT_MIN: u32 = 14;
/// From this many empties the ordering search has two plies.
const SORT_2: u32 = 17;
/// From this many empties the ordering search has three plies.
const SORT_3: u32 = 19;
/// From this many empties the ordering search has four plies.
const SORT_4: u32 = 25;

/// One entry of a thread's small tables for the children of
/// [`SIMPLE`] nodes: a position and bounds on the score of the move
/// leading to it (the opponent of its side to move: minus its score).
#[derive(Clone, Copy)]
struct Local {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
}

/// Entries of each small table (a power of two).
const LOCAL_BITS: u32 = 10;

/// One small table per number of empties of the children of [`SIMPLE`]
/// nodes (`SHALLOW..SIMPLE`), for this thread: they stay in the cache,
/// where the shared table at these depths cost more than it saved.
type LocalTables = [[Local; 1 << LOCAL_BITS]; (SIMPLE - SHALLOW) as usize];

/// An entry that matches no position (every position has discs).
const EMPTY_LOCAL: Local = Local {
    p: 0,
    o: 0,
    lower: -64,
    upper: 64,
};

/// Small tables holding no position.
const fn empty_tables() -> LocalTables {
    [[EMPTY_LOCAL; 1 << LOCAL_BITS]; (SIMPLE - SHALLOW) as usize]
}

thread_local! {
    static LOCAL: UnsafeCell<LocalTables> = const { UnsafeCell::new(empty_tables()) };
}

/// Empties this thread's small tables (a search that must repeat another
/// node for node starts with them empty).
#[cfg(test)]
fn clear_local() {
    LOCAL.with(|t| {
        // SAFETY: no search runs on this thread during the call.
        unsafe { *t.get() = empty_tables() }
    });
}

/// The entry `slot` of this thread's small table `level`.
#[inline(always)]
fn local_get(level: usize, slot: usize) -> Local {
    // SAFETY: the tables belong to this thread, and no reference to them
    // outlives this call.
    LOCAL.with(|t| unsafe { (*t.get())[level][slot] })
}

/// Sets the entry `slot` of this thread's small table `level`.
#[inline(always)]
fn local_set(level: usize, slot: usize, entry: Local) {
    // SAFETY: as in `local_get`.
    LOCAL.with(|t| unsafe { (*t.get())[level][slot] = entry });
}

/// The slot of `(p, o)` in a small table.
#[inline(always)]
fn local_slot(p: u64, o: u64) -> usize {
    ((p.wrapping_mul(0x9dda_1c54_cfe6_b6e9) ^ o.wrapping_mul(0xa2e6_c030_0831_e05a))
        >> (64 - LOCAL_BITS)) as usize
}

/// Stability cutoffs are tried when `alpha` reaches this (by empty count):
/// below it the opponent cannot own enough stable discs to matter.
/// (The values of Edax's `NWS_STABILITY_THRESHOLD`. FFO #40–#49, 416.7M
/// nodes with them: none at 4 empties, 515M nodes; each 2 higher from 4
/// to 10 empties, 482M, the same time; 2 lower, 411M, slower; later,
/// at 406.2M: 4 at 4 empties and 6 at 5, 401.0M and 0.995x the time.)
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 6, 8, 10, 12, 14, 16, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44, 46,
    48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 62, 62, 64, 64, 64, 64, 64, 64, 64, 64,
    99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Shallow-search move order within a parity class: corners, edges but C
/// squares, the inside but X squares, C squares, X squares.
const PRIORITY: [u64; 5] = [
    CORNERS,
    0x3c00_8181_8181_003c,
    0x003c_7e7e_7e7e_3c00,
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];

/// Square values used to break ties in move ordering (corners best, X worst).
const SQUARE_VALUE: [i32; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18,
];

/// The squares of the quadrants holding an odd number of empties: the
/// parity of each quadrant folded into its corner bit (rows onto the
/// first and fifth, then columns onto the first and fifth), then spread
/// over the quadrant by a multiplication whose partial products are
/// disjoint. (No popcount: four of them cost 3% of the search.)
#[inline]
fn odd_quadrants(empties: u64) -> u64 {
    let mut a = empties ^ (empties >> 16);
    a ^= a >> 8;
    a ^= a >> 1;
    a ^= a >> 2;
    (a & 0x0000_0011_0000_0011).wrapping_mul(0x0f0f_0f0f)
}

/// The stability cutoff of a null-window search: `Some(upper bound)` when
/// the discs of `o` that are stable already hold the score of `p` to at
/// most `alpha`. Tried only when `alpha` reaches the threshold of `n`
/// empties and `o` has discs enough to be worth counting.
#[inline(always)]
fn stability_cut(p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n as usize] || 64 - 2 * o.count_ones() as i32 > alpha {
        return None;
    }
    // Enough stable discs to hold the score to alpha: 64 - 2 s <= alpha.
    let enough = (65 - alpha).div_euclid(2) as u32;
    let s = 64 - 2 * stable_count(o, p, enough) as i32;
    (s <= alpha).then_some(s)
}

/// The plies of the ordering search at a node with `n` empties (0: none):
/// one from [`SORT_MIN`] empties (the evaluation of each child), one more
/// from each of [`SORT_2`], [`SORT_3`], [`SORT_4`]. (Measured on FFO
/// #40–#49, with the evaluation trained on exact targets and the selective
/// searches: from 15, 18, 22 and 25 empties, 1.033G nodes and 30.4 s; from
/// 14, 16, 20, 25: 0.873G and 27.4 s; 3 plies from 19: 0.831G but 27.9 s,
/// the ordering searches' own nodes not counted; 1 ply from 13: more time;
/// a narrow window of 8 discs around alpha for the ordering searches: 1.24G.
/// Later, with the faster last empties: 3 plies from 19 rather than 20,
/// 566M -> 536M nodes and 2-4% less time on #40–#49, the same time on
/// #50–#53, the median of 60 real 24-empty solves 1.55 -> 1.45 s; from
/// 18, 525M nodes, no faster; 2 plies from 15, 550M, slower. Later still,
/// with the simple search below 11 empties: 2 plies from 17 rather than
/// 16, real 24-empty solves 0.985x and 0.988x the time (two runs of 30
/// games, each against the other in turn), FFO #40–#49 1.017x: the
/// archive's positions are what the solver is for.)
#[inline]
fn sort_plies(n: u32) -> u32 {
    if n >= SORT_4 {
        4
    } else if n >= SORT_3 {
        3
    } else if n >= SORT_2 {
        2
    } else if n >= SORT_MIN {
        1
    } else {
        0
    }
}

/// Selective searches cut nodes by probcut from this many empties; below,
/// they are exact (and store exact bounds). (FFO #40–#49 from 14: 869M
/// nodes, 26–27 s; from 12: 737M, 24.4 s; from 10: 696M, 24.9 s.)
const PROBCUT_MIN: u32 = 12;
/// From this many empties the probcut search looks 4 plies ahead, else 2.
const PROBCUT_DEEP: u32 = 20;
/// The selectivity levels, in hundredths of a standard deviation: a
/// selective search of level `l` cuts a node when the probcut search
/// clears the window by `PROBCUT_T[l]` times the standard deviation of
/// its error. (Measured on FFO #40–#49: levels 1 and 2, 1.096G nodes in
/// all; 1, 1.5 and 2, 1.077G; 1.5 alone, 1.120G; 1 alone, 1.186G; the
/// times within 5%. Later, with probcut from 12 empties: 737M nodes;
/// 0.8 and 1.25 times the standard deviation, 734M and 788M; 4 plies from
/// 14, 16 or 18 empties, 712M to 733M; levels 1.5 and 2.5, 819M; a
/// 1-ply probcut search below 20 empties, 884M: the times within noise
/// or worse.)
pub(crate) const PROBCUT_T: [i32; 4] = [20, 50, 100, 200];

/// The standard deviation of the error of a `depth`-ply search on the
/// evaluation at `n` empties, in 1/SCALE disc: a fit of its error against
/// the exact scores of 300 archive positions at each of 14, 18 and 22
/// empties (7.5, 6.8, 6.6 discs at 2 plies; 6.9, 6.0, 7.2 at 4) and of
/// 1,000 at 24 (the stored theoretical scores).
fn probcut_sigma(n: u32, depth: u32) -> i32 {
    // 8.5 - 0.06 n - 0.25 depth discs.
    (SCALE * (850 - 6 * n as i32 - 25 * depth as i32)) / 100
}

/// [`eval::alphabeta`](crate::eval::alphabeta) with the solver's move
/// kernel: the shallow searches of move ordering and probcut.
#[inline]
fn shallow_eval(p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    crate::eval::alphabeta(
        crate::eval::embedded_table(),
        p,
        o,
        depth,
        alpha,
        beta,
        flips,
    )
}

/// Declares the instruction sets' entry points of the recursive search
/// functions: the trait [`Isa`] and its implementations, each calling the
/// always-inlined body (`Search::*_body`), so that the body is compiled
/// once per instruction set: for [`Portable`] as the build is, for
/// [`X86V3`] and [`X86V4`] inside functions with their target features
/// (`mod x86v3`, `mod x86v4`).
macro_rules! entry_points {
    (@x86 $m:ident, $isa:ident, $features:literal;
        $(fn $name:ident => $body:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        #[doc = concat!("The entry points of [`", stringify!($isa), "`], compiled with its features.")]
        #[cfg(target_arch = "x86_64")]
        mod $m {
            use super::{Search, $isa};
            $(
                #[target_feature(enable = $features)]
                pub(super) fn $name(s: &mut Search<'_, $isa>, $($arg: $ty),*) -> $ret {
                    s.$body($($arg),*)
                }
            )*
        }

        #[cfg(target_arch = "x86_64")]
        impl Isa for $isa {
            $(
                fn $name(s: &mut Search<'_, Self>, $($arg: $ty),*) -> $ret {
                    // SAFETY: see the `Kernels` implementation of `$isa`.
                    unsafe { $m::$name(s, $($arg),*) }
                }
            )*
        }
    };
    (@portable $(fn $name:ident => $body:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {
        /// The instruction set a search is compiled for: its kernels and
        /// the entry points of its recursive functions.
        pub(crate) trait Isa: Kernels {
            $(
                #[doc = concat!("[`Search::", stringify!($body), "`].")]
                fn $name(s: &mut Search<'_, Self>, $($arg: $ty),*) -> $ret;
            )*
        }

        impl Isa for Portable {
            $(
                fn $name(s: &mut Search<'_, Self>, $($arg: $ty),*) -> $ret {
                    s.$body($($arg),*)
                }
            )*
        }
    };
    ($($fns:tt)*) => {
        entry_points!(@portable $($fns)*);
        entry_points!(@x86 x86v3, X86V3, "avx2,bmi1,bmi2,lzcnt,popcnt"; $($fns)*);
        entry_points!(@x86 x86v4, X86V4,
            "avx2,bmi1,bmi2,lzcnt,popcnt,avx512f,avx512vl,avx512cd"; $($fns)*);
    };
}

entry_points! {
    fn nws_deep => nws_deep_body(p: u64, o: u64, alpha: i32, n: u32) -> i32;
    fn nws_shallow => nws_shallow_body(p: u64, o: u64, alpha: i32, n: u32, moves: u64) -> i32;
    fn nws_simple => nws_simple_body(p: u64, o: u64, alpha: i32, n: u32, moves: u64) -> i32;
    fn solve4 => solve4_body(p: u64, o: u64, alpha: i32, empties: u64, passed: bool) -> i32;
    fn solve3 => solve3_body(p: u64, o: u64, alpha: i32, x: [usize; 3], passed: bool) -> i32;
    fn pvs => pvs_body(p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> (i32, u8);
}

/// One move of a move list: square, flipped discs, ordering key.
#[derive(Clone, Copy)]
struct Move {
    x: u8,
    key: i32,
    flips: u64,
}

/// Room for the moves of a node, left uninitialised: [`Search::order`]
/// fills a prefix. (Zeroing its kilobyte at every node cost time.)
type MoveList = [MaybeUninit<Move>; 64];

/// An empty [`MoveList`].
const NEW_LIST: MoveList = [const { MaybeUninit::uninit() }; 64];

/// A child of a simple node: its position, the legal moves there and its
/// slot in the small table.
#[derive(Clone, Copy)]
struct Child {
    p: u64,
    o: u64,
    replies: u64,
    slot: u32,
}

/// The stop flag of a parallel split of a null-window node, linked to
/// the splits above it: a sibling that cuts stops the others, and with
/// them every split below them. Alone in its cache line: the searches of
/// the other threads read it at every node, and the stack of the thread
/// that split is written all the time.
#[repr(align(64))]
pub(crate) struct Stop<'a> {
    flag: AtomicBool,
    parent: Option<&'a Stop<'a>>,
}

impl Stop<'_> {
    /// Whether this split or one above it was stopped.
    #[inline]
    fn stopped(&self) -> bool {
        let mut s = Some(self);
        while let Some(x) = s {
            if x.flag.load(Ordering::Relaxed) {
                return true;
            }
            s = x.parent;
        }
        false
    }
}

/// A search thread: the shared table and this thread's node count; `I`,
/// the instruction set its code was compiled for.
pub(crate) struct Search<'a, I = Portable> {
    pub(crate) tt: &'a Table,
    pub(crate) nodes: u64,
    /// Search siblings in parallel (inside a rayon pool).
    pub(crate) parallel: bool,
    /// The split this search belongs to, if any: once it is stopped, the
    /// search returns at once, with a meaningless value it never stores.
    stop: Option<&'a Stop<'a>>,
    /// [`EXACT`], or the selectivity level of a probcut search (an index
    /// of [`PROBCUT_T`]): the bounds it may trust and the ones it stores.
    pub(crate) level: u8,
    /// The caller's limits (stop flag, deadline, nodes), if any: once
    /// halted, the search returns at once, as when its split is stopped.
    pub(crate) control: Option<&'a Control<'a>>,
    /// The node count at which this thread next polls `control`.
    next_poll: u64,
    isa: PhantomData<I>,
}

impl<'a, I: Isa> Search<'a, I> {
    pub(crate) fn new(tt: &'a Table, parallel: bool) -> Self {
        Search {
            tt,
            nodes: 0,
            parallel,
            stop: None,
            level: EXACT,
            control: None,
            next_poll: SOLVER_POLL,
            isa: PhantomData,
        }
    }

    /// Polls the caller's limits when this thread searched enough nodes
    /// since its last poll (a few times a millisecond at most).
    #[inline(always)]
    fn poll(&mut self) {
        if let Some(c) = self.control
            && self.nodes >= self.next_poll
        {
            c.poll(self.nodes + SOLVER_POLL - self.next_poll);
            self.next_poll = self.nodes + SOLVER_POLL;
        }
    }

    /// Reports to the caller's control the nodes searched since the last
    /// poll, and returns all of this search's nodes: called when a search
    /// ends, so that the node budget counts every node (a solve of 10
    /// empties or fewer never polls).
    pub(crate) fn finish(&mut self) -> u64 {
        if let Some(c) = self.control {
            c.poll(self.nodes + SOLVER_POLL - self.next_poll);
            self.next_poll = self.nodes + SOLVER_POLL;
        }
        self.nodes
    }

    /// Counts the nodes of a helper search that reported them itself
    /// ([`finish`](Self::finish)): added to this search's total, not
    /// reported again by its next poll.
    fn add_reported(&mut self, nodes: u64) {
        self.nodes += nodes;
        self.next_poll += nodes;
    }

    /// A fail-soft search in the window `(alpha, beta)`: the exact score
    /// when it lies inside, a bound otherwise, and the best move
    /// (`NO_MOVE` when the side must pass or the game is over).
    #[inline]
    pub(crate) fn pvs(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> (i32, u8) {
        I::pvs(self, p, o, alpha, beta, n)
    }

    /// Whether the split this search belongs to was stopped.
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.stop.is_some_and(Stop::stopped) || self.control.is_some_and(Control::halted)
    }

    /// The level of the bounds a search of `n` empties may trust and
    /// stores: its own, or [`EXACT`] where it makes no cut.
    #[inline]
    fn level_at(&self, n: u32) -> u8 {
        if n < PROBCUT_MIN { EXACT } else { self.level }
    }

    /// Probcut: `Some(bound)` when a shallow search on the evaluation says,
    /// with the confidence of this search's level, that the score of the
    /// null window `(alpha, alpha + 1)` fails high or low.
    fn probcut(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        let depth = if n >= PROBCUT_DEEP { 4 } else { 2 };
        let t = PROBCUT_T[usize::from(self.level)];
        let margin = t * probcut_sigma(n, depth) / 100;
        let beta = alpha + 1;
        let hi = beta * SCALE + margin;
        if hi < 64 * SCALE && shallow_eval(p, o, depth, hi - 1, hi) >= hi {
            return Some(beta);
        }
        let lo = alpha * SCALE - margin;
        if lo > -64 * SCALE && shallow_eval(p, o, depth, lo, lo + 1) <= lo {
            return Some(alpha);
        }
        None
    }

    // ----- the last empties -----------------------------------------------

    /// Exact score with one empty square `x`.
    #[inline(always)]
    fn solve1(&mut self, p: u64, x: usize) -> i32 {
        self.nodes += 1;
        let pc = p.count_ones() as i32;
        let n = last_flip_count(p, x);
        if n > 0 {
            return 2 * (pc + 1 + n) - 64;
        }
        let m = last_flip_count(!(p | (1 << x)), x);
        if m > 0 {
            return 2 * (pc - m) - 64;
        }
        if pc > 31 { 2 * pc - 62 } else { 2 * pc - 64 }
    }

    /// Null-window search with the two empty squares `x1`, `x2`.
    #[inline(always)]
    fn solve2(&mut self, p: u64, o: u64, alpha: i32, x1: usize, x2: usize) -> i32 {
        self.nodes += 1;
        let beta = alpha + 1;
        let mut best = -INF;
        let f = I::flips(p, o, x1);
        if f != 0 {
            best = -self.solve1(o ^ f, x2);
            if best >= beta {
                return best;
            }
        }
        let f = I::flips(p, o, x2);
        if f != 0 {
            return best.max(-self.solve1(o ^ f, x1));
        }
        if best > -INF {
            return best;
        }
        // Pass: the opponent moves, we minimise.
        let mut worst = INF;
        let f = I::flips(o, p, x1);
        if f != 0 {
            worst = self.solve1(p ^ f, x2);
            if worst <= alpha {
                return worst;
            }
        }
        let f = I::flips(o, p, x2);
        if f != 0 {
            return worst.min(self.solve1(p ^ f, x1));
        }
        if worst < INF {
            return worst;
        }
        final_score(p, o)
    }

    /// Null-window search with three empty squares.
    #[inline(always)]
    fn solve3_body(&mut self, p: u64, o: u64, alpha: i32, x: [usize; 3], passed: bool) -> i32 {
        self.nodes += 1;
        let beta = alpha + 1;
        let mut best = -INF;
        // A square alone in its quadrant first (as in Edax).
        let quadrant = |x: usize| ((x >> 4) & 2) | ((x >> 2) & 1);
        let [q1, q2, q3] = x.map(quadrant);
        let [x1, x2, x3] = if q1 == q2 && q3 != q1 {
            [x[2], x[0], x[1]]
        } else if q1 == q3 && q2 != q1 {
            [x[1], x[0], x[2]]
        } else {
            x
        };
        for (sq, a, b) in [(x1, x2, x3), (x2, x1, x3), (x3, x1, x2)] {
            let f = I::flips(p, o, sq);
            if f != 0 {
                let s = -self.solve2(o ^ f, p | f | (1 << sq), -beta, a, b);
                if s > best {
                    if s >= beta {
                        return s;
                    }
                    best = s;
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -I::solve3(self, o, p, -beta, x, true)
    }

    /// Null-window search with four empty squares, ordered by parity.
    #[inline(always)]
    fn solve4_body(&mut self, p: u64, o: u64, alpha: i32, empties: u64, passed: bool) -> i32 {
        self.nodes += 1;
        let beta = alpha + 1;
        if let Some(s) = stability_cut(p, o, alpha, 4) {
            return s;
        }
        // Squares alone in their quadrant first.
        let odd = odd_quadrants(empties);
        let mut x = [0usize; 4];
        let mut k = 0;
        for set in [empties & odd, empties & !odd] {
            let mut m = set;
            while m != 0 {
                x[k] = m.trailing_zeros() as usize;
                k += 1;
                m &= m - 1;
            }
        }
        let mut best = -INF;
        for i in 0..4 {
            let sq = x[i];
            let f = I::flips(p, o, sq);
            if f != 0 {
                let mut rest = [0usize; 3];
                let mut j = 0;
                for (l, &y) in x.iter().enumerate() {
                    if l != i {
                        rest[j] = y;
                        j += 1;
                    }
                }
                let s = -I::solve3(self, o ^ f, p | f | (1 << sq), -beta, rest, false);
                if s > best {
                    if s >= beta {
                        return s;
                    }
                    best = s;
                }
            }
        }
        if best > -INF {
            return best;
        }
        if passed {
            return final_score(p, o);
        }
        -I::solve4(self, o, p, -beta, empties, true)
    }

    // ----- null-window search ---------------------------------------------

    /// Null-window search of any position with `n` empties.
    #[inline]
    pub(crate) fn nws(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        if n > SIMPLE {
            return I::nws_deep(self, p, o, alpha, n);
        }
        if n > SHALLOW {
            return I::nws_simple(self, p, o, alpha, n, I::legal_moves(p, o));
        }
        let empties = !(p | o);
        match n {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => {
                // The exact score; a null window changes nothing.
                self.solve1(p, empties.trailing_zeros() as usize)
            }
            2 => {
                let x1 = empties.trailing_zeros() as usize;
                let x2 = (empties & (empties - 1)).trailing_zeros() as usize;
                self.solve2(p, o, alpha, x1, x2)
            }
            3 => {
                let x1 = empties.trailing_zeros() as usize;
                let e = empties & (empties - 1);
                let x2 = e.trailing_zeros() as usize;
                let x3 = (e & (e - 1)).trailing_zeros() as usize;
                I::solve3(self, p, o, alpha, [x1, x2, x3], false)
            }
            4 => I::solve4(self, p, o, alpha, empties, false),
            _ => I::nws_shallow(self, p, o, alpha, n, I::legal_moves(p, o)),
        }
    }

    /// What settles a shallow or simple node (`moves` its legal moves)
    /// before its moves are searched, counting it: a stability cutoff, the
    /// end of the game, or a pass, whose node `again` searches.
    #[inline(always)]
    fn settled(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        n: u32,
        moves: u64,
        again: fn(&mut Self, u64, u64, i32, u32, u64) -> i32,
    ) -> Option<i32> {
        self.nodes += 1;
        if let Some(s) = stability_cut(p, o, alpha, n) {
            return Some(s);
        }
        if moves != 0 {
            return None;
        }
        let replies = I::legal_moves(o, p);
        if replies == 0 {
            return Some(final_score(p, o));
        }
        Some(-again(self, o, p, -alpha - 1, n, replies))
    }

    /// Null-window search with 5..=SHALLOW empties: stability cutoff,
    /// parity then square-class move order, no table.
    #[inline(always)]
    fn nws_shallow_body(&mut self, p: u64, o: u64, alpha: i32, n: u32, moves: u64) -> i32 {
        if let Some(s) = self.settled(p, o, alpha, n, moves, I::nws_shallow) {
            return s;
        }
        let beta = alpha + 1;
        let empties = !(p | o);
        let odd = odd_quadrants(empties);
        let mut best = -INF;
        for set in [moves & odd, moves & !odd] {
            if set == 0 {
                continue;
            }
            for class in PRIORITY {
                let mut m = set & class;
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = I::flips(p, o, sq);
                    let (np, no) = (o ^ f, p | f | (1 << sq));
                    let s = if n == 5 {
                        -I::solve4(self, np, no, -beta, empties & !(1 << sq), false)
                    } else {
                        -I::nws_shallow(self, np, no, -beta, n - 1, I::legal_moves(np, no))
                    };
                    if s > best {
                        if s >= beta {
                            return s;
                        }
                        best = s;
                    }
                }
            }
        }
        best
    }

    /// Null-window search with more than [`SHALLOW`] and at most
    /// [`SIMPLE`] empties, `moves` the legal moves: stability cutoff, moves
    /// by fewest opponent replies, then parity, then square value, no
    /// table. (The square value breaking the last ties: FFO #40–#49 in
    /// 406.2M nodes rather than 416.7M.)
    #[inline(always)]
    fn nws_simple_body(&mut self, p: u64, o: u64, alpha: i32, n: u32, moves: u64) -> i32 {
        if let Some(s) = self.settled(p, o, alpha, n, moves, I::nws_simple) {
            return s;
        }
        let beta = alpha + 1;
        let level = (n - 1 - SHALLOW) as usize;
        // Searches a child and keeps its bound in the small table.
        let child = |s: &mut Self, np: u64, no: u64, replies: u64, slot: usize| {
            let v = if n - 1 > SHALLOW {
                -I::nws_simple(s, np, no, -beta, n - 1, replies)
            } else {
                -I::nws_shallow(s, np, no, -beta, n - 1, replies)
            };
            let (lower, upper) = if v > alpha { (v, 64) } else { (-64, v) };
            let (lower, upper) = (lower as i8, upper as i8);
            let entry = Local {
                p: np,
                o: no,
                lower,
                upper,
            };
            local_set(level, slot, entry);
            v
        };
        let odd = odd_quadrants(!(p | o));
        // Room for the children, left uninitialised (filled below).
        let mut room = [const { MaybeUninit::<Child>::uninit() }; SIMPLE as usize];
        // The children's ordering keys, each with `15 - ` its index in
        // `room` in the low bits (the first of equal keys wins).
        let mut keys = [0u32; SIMPLE as usize];
        let mut len = 0;
        let mut best = -INF;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = I::flips(p, o, sq);
            let (np, no) = (o ^ f, p | f | (1 << sq));
            let slot = local_slot(np, no);
            let e = local_get(level, slot);
            if e.p == np && e.o == no {
                if i32::from(e.lower) > alpha {
                    return i32::from(e.lower);
                }
                if i32::from(e.upper) <= alpha {
                    best = best.max(i32::from(e.upper));
                    continue;
                }
            }
            let replies = I::legal_moves(np, no);
            let count = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
            if count <= 1 {
                let s = child(self, np, no, replies, slot);
                if s > best {
                    if s >= beta {
                        return s;
                    }
                    best = s;
                }
                continue;
            }
            let parity = i32::from(odd & (1 << sq) != 0);
            room[len].write(Child {
                p: np,
                o: no,
                replies,
                slot: slot as u32,
            });
            let key = ((40 - count) << 6) + (parity << 5) + SQUARE_VALUE[sq];
            keys[len] = ((key as u32) << 4) | (15 - len as u32);
            len += 1;
        }
        // SAFETY: the loop above initialised `room[..len]`, and
        // `MaybeUninit<Child>` has the layout of `Child`.
        let list = unsafe { std::slice::from_raw_parts(room.as_ptr().cast::<Child>(), len) };
        for i in 0..len {
            // The best key to `keys[i]`: exchanges without branches, the
            // keys alone moved.
            for j in i + 1..len {
                let (a, b) = (keys[i], keys[j]);
                keys[i] = a.max(b);
                keys[j] = a.min(b);
            }
            let Child {
                p: np,
                o: no,
                replies,
                slot,
            } = list[15 - (keys[i] & 15) as usize];
            let s = child(self, np, no, replies, slot as usize);
            if s > best {
                if s >= beta {
                    return s;
                }
                best = s;
            }
        }
        best
    }

    /// Fills the start of `list` with the legal moves `moves` and their
    /// ordering keys (hash move first, then the score of a `sort_depth`-ply
    /// search on the pattern evaluation when `sort_depth > 0`, added to
    /// fewest opponent replies, then corner stability, opponent potential
    /// mobility, parity and square value) and returns that part; with
    /// `prefetch`, asks for the children's table buckets on the way.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn order<'l>(
        &self,
        p: u64,
        o: u64,
        moves: u64,
        hash_move: u8,
        list: &'l mut MoveList,
        prefetch: bool,
        sort_depth: u32,
    ) -> &'l mut [Move] {
        // The moves first, their children's table buckets asked for on the
        // way: the keys take long enough to hide some of the wait.
        let mut len = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = I::flips(p, o, sq);
            if prefetch {
                self.tt.prefetch(o ^ f, p | f | (1 << sq));
            }
            list[len].write(Move {
                x: sq as u8,
                key: 0,
                flips: f,
            });
            len += 1;
        }
        // SAFETY: the loop above initialised `list[..len]`, and
        // `MaybeUninit<Move>` has the layout of `Move`.
        let list = unsafe { std::slice::from_raw_parts_mut(list.as_mut_ptr().cast::<Move>(), len) };
        let odd = odd_quadrants(!(p | o));
        for mv in list.iter_mut() {
            let (sq, f) = (usize::from(mv.x), mv.flips);
            mv.key = if mv.x == hash_move {
                i32::MAX
            } else {
                let (np, no) = (o ^ f, p | f | (1 << sq));
                let reply = I::legal_moves(np, no);
                let mobility = (reply.count_ones() + (reply & CORNERS).count_ones()) as i32;
                let potential = (neighbours(no) & !(np | no)).count_ones() as i32;
                let corner_stable = ((((0x0100_0000_0000_0001 & no) << 1)
                    | ((0x8000_0000_0000_0080 & no) >> 1)
                    | ((0x0000_0000_0000_0081 & no) << 8)
                    | ((0x8100_0000_0000_0000 & no) >> 8)
                    | CORNERS)
                    & no)
                    .count_ones() as i32;
                let sorted = if sort_depth > 0 {
                    // Two discs of evaluation weigh like one reply less (as
                    // in Edax; one disc ordered FFO #49 with 68% more nodes).
                    let v = -shallow_eval(np, no, sort_depth - 1, -64 * SCALE, 64 * SCALE);
                    v.div_euclid(2 * SCALE).clamp(-32, 32) << 15
                } else {
                    0
                };
                sorted
                    + ((36 - mobility) << 15)
                    + (corner_stable << 11)
                    + ((36 - potential) << 5)
                    + if odd & (1 << sq) != 0 { 1 << 4 } else { 0 }
                    + SQUARE_VALUE[sq]
            };
        }
        list
    }

    /// Moves the best-keyed move of `list[i..]` to `list[i]`.
    #[inline]
    fn pick(list: &mut [Move], i: usize) {
        let mut b = i;
        for j in i + 1..list.len() {
            if list[j].key > list[b].key {
                b = j;
            }
        }
        list.swap(i, b);
    }

    /// Null-window search with more than [`SIMPLE`] empties: stability
    /// cutoff, the shared table, enhanced transposition cutoffs from
    /// [`ETC_MIN`] empties, probcut in selective searches, fastest-first
    /// move order.
    #[inline(always)]
    fn nws_deep_body(&mut self, p: u64, o: u64, alpha: i32, n: u32) -> i32 {
        self.poll();
        if self.stopped() {
            return 0;
        }
        self.nodes += 1;
        let beta = alpha + 1;
        if let Some(s) = stability_cut(p, o, alpha, n) {
            return s;
        }
        let level = self.level_at(n);
        let mut hash_move = NO_MOVE;
        if let Some(b) = self.tt.probe(p, o) {
            if b.level >= level {
                if b.lower > alpha {
                    return b.lower;
                }
                if b.upper <= alpha {
                    return b.upper;
                }
            }
            hash_move = b.best;
        }
        if level != EXACT
            && let Some(s) = self.probcut(p, o, alpha, n)
        {
            return s;
        }
        let moves = I::legal_moves(p, o);
        if moves == 0 {
            if I::legal_moves(o, p) == 0 {
                return final_score(p, o);
            }
            return -I::nws_deep(self, o, p, -beta, n);
        }
        let mut room = NEW_LIST;
        let mut list = self.order(
            p,
            o,
            moves,
            hash_move,
            &mut room,
            n >= ETC_MIN,
            sort_plies(n),
        );
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        if n >= ETC_MIN {
            // Enhanced transposition cutoffs: a child known to be bad enough
            // for the opponent cuts at once; a child known to be good
            // enough for it cannot raise alpha and is left out, its bound
            // kept.
            let mut i = 0;
            while i < list.len() {
                let mv = list[i];
                let sq = mv.x as usize;
                if let Some(b) = self
                    .tt
                    .probe(o ^ mv.flips, p | mv.flips | (1 << sq))
                    .filter(|b| b.level >= level)
                {
                    let s = -b.upper;
                    if s > alpha {
                        self.tt.store(p, o, n, (alpha, beta), s, mv.x, level);
                        return s;
                    }
                    let s = -b.lower;
                    if s <= alpha {
                        if s > best {
                            best = s;
                            best_move = mv.x;
                        }
                        let last = list.len() - 1;
                        list.swap(i, last);
                        list = &mut list[..last];
                        continue;
                    }
                }
                i += 1;
            }
        }
        let len = list.len();
        for i in 0..len {
            Self::pick(list, i);
            let mv = list[i];
            let sq = mv.x as usize;
            let s = -self.nws(o ^ mv.flips, p | mv.flips | (1 << sq), -beta, n - 1);
            if self.stopped() {
                return 0;
            }
            if s > best {
                best = s;
                best_move = mv.x;
                if s >= beta {
                    break;
                }
            }
            if i == 0 && self.parallel && n >= PARALLEL_NWS_MIN && len >= 3 {
                // Young brothers wait: the eldest did not cut, search the
                // others side by side; the first that cuts stops the rest.
                for j in 1..len {
                    Self::pick(list, j);
                }
                let (b, m) = self.parallel_nws(p, o, &list[1..], alpha, n);
                if self.stopped() {
                    return 0;
                }
                if b > best {
                    best = b;
                    best_move = m;
                }
                break;
            }
        }
        self.tt
            .store(p, o, n, (alpha, beta), best, best_move, level);
        best
    }

    /// Searches `moves` of a null-window node in parallel; the best valid
    /// score (`>= alpha + 1` as soon as one cuts) and its move.
    fn parallel_nws(&mut self, p: u64, o: u64, moves: &[Move], alpha: i32, n: u32) -> (i32, u8) {
        let beta = alpha + 1;
        let stop = Stop {
            flag: AtomicBool::new(false),
            parent: self.stop,
        };
        let (tt, level, control) = (self.tt, self.level, self.control);
        let results: Vec<(i32, u64, bool)> = moves
            .par_iter()
            .map(|mv| {
                if stop.stopped() {
                    return (-INF, 0, false);
                }
                let mut s = Search::<I> {
                    tt,
                    nodes: 0,
                    parallel: true,
                    stop: Some(&stop),
                    level,
                    control,
                    next_poll: SOLVER_POLL,
                    isa: PhantomData,
                };
                let v = -s.nws(o ^ mv.flips, p | mv.flips | (1 << mv.x), -beta, n - 1);
                // Flags are only ever set: not stopped now, never stopped.
                let valid = !s.stopped();
                if valid && v >= beta {
                    stop.flag.store(true, Ordering::Relaxed);
                }
                (v, s.finish(), valid)
            })
            .collect();
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for (mv, &(v, nodes, valid)) in moves.iter().zip(&results) {
            self.add_reported(nodes);
            if valid && v > best {
                best = v;
                best_move = mv.x;
            }
        }
        (best, best_move)
    }

    // ----- principal-variation search -------------------------------------

    /// Fail-soft search in the window `(alpha, beta)`: the exact score when
    /// it lies inside, a bound otherwise, and the best move (`NO_MOVE` when
    /// the side must pass or the game is over).
    #[inline(always)]
    fn pvs_body(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> (i32, u8) {
        if beta == alpha + 1 && n <= SHALLOW {
            return (self.nws(p, o, alpha, n), NO_MOVE);
        }
        self.nodes += 1;
        let moves = I::legal_moves(p, o);
        if moves == 0 {
            if I::legal_moves(o, p) == 0 {
                return (final_score(p, o), NO_MOVE);
            }
            let (s, _) = I::pvs(self, o, p, -beta, -alpha, n);
            return (-s, NO_MOVE);
        }
        let hash_move = self.tt.probe(p, o).map_or(NO_MOVE, |b| b.best);
        let mut room = NEW_LIST;
        let list = self.order(p, o, moves, hash_move, &mut room, true, sort_plies(n));
        let len = list.len();
        let mut alpha_now = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut i = 0;
        while i < len {
            Self::pick(list, i);
            let mv = list[i];
            let (np, no) = (o ^ mv.flips, p | mv.flips | (1 << mv.x));
            let s = if i == 0 {
                -I::pvs(self, np, no, -beta, -alpha_now, n - 1).0
            } else {
                let s = -self.nws(np, no, -alpha_now - 1, n - 1);
                if s > alpha_now && s < beta {
                    -I::pvs(self, np, no, -beta, -alpha_now, n - 1).0
                } else {
                    s
                }
            };
            i += 1;
            if self.stopped() {
                // A halted search stores nothing.
                return (0, NO_MOVE);
            }
            if s > best {
                best = s;
                best_move = mv.x;
                alpha_now = alpha_now.max(s);
                if s >= beta {
                    break;
                }
            }
            if i == 1 && self.parallel && n >= PARALLEL_MIN && len - i >= 2 {
                // Young brothers wait: the first move is known, search the
                // others side by side against its score.
                for j in i..len {
                    Self::pick(list, j);
                }
                let (b, m) = if beta == alpha_now + 1 {
                    // A null window (the root's tests): the first sibling
                    // that cuts stops the others. (Searched to the end, they
                    // made FFO #41 and #48 slower on two threads than on one.)
                    self.parallel_nws(p, o, &list[i..], alpha_now, n)
                } else {
                    self.parallel_siblings(p, o, &list[i..], alpha_now, beta, n)
                };
                if self.stopped() {
                    return (0, NO_MOVE);
                }
                if b > best {
                    best = b;
                    best_move = m;
                }
                break;
            }
        }
        self.tt
            .store(p, o, n, (alpha, beta), best, best_move, self.level_at(n));
        (best, best_move)
    }

    /// Searches `moves` of a PV node in parallel with a null window at
    /// `alpha`, then re-searches in order those that may beat it.
    fn parallel_siblings(
        &mut self,
        p: u64,
        o: u64,
        moves: &[Move],
        alpha: i32,
        beta: i32,
        n: u32,
    ) -> (i32, u8) {
        let (tt, level, control) = (self.tt, self.level, self.control);
        let first: Vec<(i32, u64)> = moves
            .par_iter()
            .map(|mv| {
                let mut s = Search::<I>::new(tt, true);
                s.level = level;
                s.control = control;
                let (np, no) = (o ^ mv.flips, p | mv.flips | (1 << mv.x));
                let v = -s.nws(np, no, -alpha - 1, n - 1);
                (v, s.finish())
            })
            .collect();
        let mut alpha_now = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for (mv, &(v, nodes)) in moves.iter().zip(&first) {
            self.add_reported(nodes);
            let (np, no) = (o ^ mv.flips, p | mv.flips | (1 << mv.x));
            // v <= alpha: an upper bound below the first move's score.
            // v > alpha: a lower bound; the exact value may beat alpha_now.
            let s = if v <= alpha || v >= beta {
                v
            } else if v > alpha_now || alpha_now == alpha {
                -I::pvs(self, np, no, -beta, -alpha_now, n - 1).0
            } else {
                let s = -self.nws(np, no, -alpha_now - 1, n - 1);
                if s > alpha_now && s < beta {
                    -I::pvs(self, np, no, -beta, -alpha_now, n - 1).0
                } else {
                    s
                }
            };
            if s > best {
                best = s;
                best_move = mv.x;
                alpha_now = alpha_now.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        (best, best_move)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::bitboard8::legal_moves;
    use crate::eval::evaluate;
    use crate::xorshift as next;

    /// `b` under symmetry `k` (0..8): transpose first if `k & 4`, then mirror
    /// columns if `k & 1`, rows if `k & 2`.
    fn sym(b: u64, k: u32) -> u64 {
        let mut r = 0;
        for x in 0..64 {
            if b >> x & 1 != 0 {
                let (mut c, mut row) = (x % 8, x / 8);
                if k & 4 != 0 {
                    (c, row) = (row, c);
                }
                if k & 1 != 0 {
                    c = 7 - c;
                }
                if k & 2 != 0 {
                    row = 7 - row;
                }
                r |= 1 << (row * 8 + c);
            }
        }
        r
    }

    /// A random reachable-looking position: random moves from the start.
    fn random_position(seed: &mut u64, plies: u32) -> (u64, u64) {
        let (mut p, mut o) = crate::bitboard8::START;
        for _ in 0..plies {
            let mut m = legal_moves(p, o);
            if m == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                continue;
            }
            for _ in 0..next(seed) % u64::from(m.count_ones()) {
                m &= m - 1;
            }
            let x = m.trailing_zeros() as usize;
            let f = flips(p, o, x);
            (p, o) = (o ^ f, p | f | (1 << x));
        }
        (p, o)
    }

    #[test]
    fn odd_quadrants_count_each_quadrant() {
        const QUADRANTS: [u64; 4] = [
            0x0000_0000_0f0f_0f0f,
            0x0000_0000_f0f0_f0f0,
            0x0f0f_0f0f_0000_0000,
            0xf0f0_f0f0_0000_0000,
        ];
        let mut seed = 0x0dd0_dd0d_d0dd_0dd0u64;
        for i in 0..100_000 {
            // Dense, sparse and in-between sets of empties.
            let e = match i % 3 {
                0 => next(&mut seed),
                1 => next(&mut seed) & next(&mut seed) & next(&mut seed),
                _ => !(next(&mut seed) | next(&mut seed)),
            };
            let want = QUADRANTS
                .iter()
                .filter(|&&q| (e & q).count_ones() % 2 == 1)
                .fold(0, |odd, &q| odd | q);
            assert_eq!(odd_quadrants(e), want, "{e:#x}");
        }
    }

    #[test]
    fn pattern_evaluation_and_its_search_are_symmetric() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for i in 0..2_000 {
            let (p, o) = random_position(&mut seed, 10 + i % 50);
            let e = evaluate(p, o);
            let d = 1 + i % 2;
            // A window wider than any value: fail-hard bounds would depend
            // on the move order.
            let w = 1 << 20;
            let s = shallow_eval(p, o, d, -w, w);
            for k in 0..8 {
                let (sp, so) = (sym(p, k), sym(o, k));
                assert_eq!(evaluate(sp, so), e, "{p:#x} {o:#x} {k}");
                assert_eq!(shallow_eval(sp, so, d, -w, w), s);
            }
        }
    }

    #[test]
    fn shallow_sorted_order_is_a_permutation_with_the_hash_move_first() {
        let tt = Table::new(8).unwrap();
        let s = Search::<Portable>::new(&tt, false);
        let mut seed = 0x0bad_cafe_f00d_1234u64;
        for i in 0..500 {
            let (p, o) = random_position(&mut seed, 20 + i % 30);
            let moves = legal_moves(p, o);
            if moves == 0 {
                continue;
            }
            let hash = (moves & moves.wrapping_neg()).trailing_zeros() as u8;
            for depth in 0..4 {
                let mut room = NEW_LIST;
                let list = s.order(p, o, moves, hash, &mut room, false, depth);
                let mut seen = 0u64;
                for mv in list.iter() {
                    assert_eq!(mv.flips, flips(p, o, mv.x as usize));
                    seen |= 1 << mv.x;
                }
                assert_eq!(seen, moves);
                assert_eq!(list.len() as u32, moves.count_ones());
                Search::<Portable>::pick(list, 0);
                assert_eq!(list[0].x, hash);
            }
        }
    }

    #[test]
    fn selective_bounds_order_but_never_decide_an_exact_search() {
        let mut seed = 0x5e1e_c71e_0000_0001u64;
        let mut poisoned_selective_differs = 0;
        for _ in 0..12 {
            // 16 empties: the children (15) are deep enough for probcut.
            let (p, o) = random_position(&mut seed, 44);
            let n = (!(p | o)).count_ones();
            if n != 16 || legal_moves(p, o) == 0 {
                continue;
            }
            let exact = Search::<Portable>::new(&Table::new(16).unwrap(), false)
                .pvs(p, o, -64, 64, n)
                .0;
            // A table whose selective entries lie about every child.
            let poisoned = || {
                let tt = Table::new(16).unwrap();
                let mut m = legal_moves(p, o);
                while m != 0 {
                    let x = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let f = flips(p, o, x);
                    let (np, no) = (o ^ f, p | f | (1 << x));
                    let truth = Search::<Portable>::new(&Table::new(12).unwrap(), false)
                        .pvs(np, no, -64, 64, n - 1)
                        .0;
                    let lie = if truth > 0 { -64 } else { 64 };
                    tt.store(np, no, n - 1, (-64, 64), lie, NO_MOVE, 0);
                }
                tt
            };
            let tt = poisoned();
            assert_eq!(
                Search::<Portable>::new(&tt, false).pvs(p, o, -64, 64, n).0,
                exact
            );
            // The same lies mislead a selective search: the test can fail.
            let tt = poisoned();
            let mut s = Search::<Portable>::new(&tt, false);
            s.level = 0;
            if s.pvs(p, o, -64, 64, n).0 != exact {
                poisoned_selective_differs += 1;
            }
        }
        assert!(poisoned_selective_differs > 0);
    }

    /// Checks that the search compiled for `I` finds the scores of the
    /// portable one with the same nodes, on 30 random positions.
    #[cfg(target_arch = "x86_64")]
    fn same_search_as_portable<I: Isa>() {
        let mut seed = 0x0123_4567_89ab_cdefu64;
        for i in 0..30 {
            // 12 to 18 empties: both sides of ETC_MIN and SORT_MIN.
            let (p, o) = random_position(&mut seed, 42 + i % 7);
            let n = (!(p | o)).count_ones();
            let (a, b) = (Table::new(16).unwrap(), Table::new(16).unwrap());
            let mut portable = Search::<Portable>::new(&a, false);
            let mut other = Search::<I>::new(&b, false);
            clear_local();
            let want = portable.pvs(p, o, -64, 64, n);
            clear_local();
            assert_eq!(want, other.pvs(p, o, -64, 64, n), "{p:#x} {o:#x}");
            assert_eq!(portable.nodes, other.nodes);
            clear_local();
            let want = portable.nws(p, o, 0, n);
            clear_local();
            assert_eq!(want, other.nws(p, o, 0, n));
            assert_eq!(portable.nodes, other.nodes);
        }
    }

    // On a processor without the features there is nothing to compare (the
    // portable search is what runs there, and every other test checks it).

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_64_v3_search_equals_the_portable_one_node_for_node() {
        if X86V3::detected() {
            same_search_as_portable::<X86V3>();
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_x86_64_v4_search_equals_the_portable_one_node_for_node() {
        if X86V4::detected() {
            same_search_as_portable::<X86V4>();
        }
    }
}
