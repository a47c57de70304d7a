//! Exact endgame solver.
//!
//! [`Solver`] finds the exact final disc difference of an 8x8 position
//! under perfect play of both sides, with the WTHOR convention for empty
//! squares left at the end (they go to the winner; a draw splits them).
//! Positions are pairs of [`u64`] bitboards in the layout of
//! [`bitboard8`](crate::bitboard8): `p` holds the discs of the side to move,
//! `o` those of its opponent.
//!
//! The search is the one of the strongest Othello engines:
//!
//! - at the root, null-window tests (like MTD(f); every 8x8 score is
//!   even, so each test settles one value) walking up from a little below
//!   the estimate of a shallow search on the pattern evaluation: tests
//!   that hold are cheap, and only the last one fails;
//! - from 20 empties, iterative selectivity (as in Logistello, Edax and
//!   Egaroucid): the same tests run first as selective searches, where
//!   probcut cuts a node with 12 empties or more when a 2- or 4-ply search
//!   on the evaluation clears the window by 1, then 2, standard
//!   deviations of its error (the midgame search runs two more selective
//!   levels first, 0.2 and 0.5 deviations, for quick estimates); each selective score starts the next walk,
//!   and the best moves they leave in the table order the exact search.
//!   The table marks every bound with the selectivity that found it: an
//!   exact search uses only exact bounds, the selective moves only for
//!   ordering, so the scores never depend on the selective searches;
//! - principal-variation search at PV nodes, null-window search elsewhere,
//!   all fail-soft;
//! - a lock-free transposition table storing bounds and the best move,
//!   shared by all threads and kept across calls (two entries per cache
//!   line; the children's lines are prefetched while moves are sorted;
//!   null-window nodes use it from 11 empties);
//! - move ordering: hash move, then (from 14 empties) the score of a
//!   shallow alpha-beta search on the pattern evaluation of
//!   [`eval`](crate::eval) (1 ply, 2 from 17 empties, 3 from 19, 4 from
//!   25), two discs weighing like one opponent reply, added to fastest
//!   first (fewest opponent replies, corners counting double), then
//!   corner stability, opponent potential mobility, parity of the empty
//!   quadrants, square value;
//! - stability cutoffs from 4 empties (the opponent's stable discs bound
//!   the score) and enhanced transposition cutoffs from 12 (a child whose
//!   stored bound already cuts, or already fails low, is not searched);
//! - from 6 to 10 empties (as in Egaroucid), fewest opponent replies then
//!   parity, the replies handed down to the child, and a small table per
//!   thread and depth, in the cache, of the children's bounds, probed
//!   like enhanced transposition cutoffs; parity ordering at 5 empties
//!   and fewer; specialised code for the last four empties, which counts
//!   the flips of the last move with four table look-ups instead of
//!   making it;
//! - the search compiled twice, portable and for x86-64-v3 processors
//!   (AVX2 flips and legal moves, POPCNT, BMI), the second chosen at run
//!   time when the processor has it: 11% faster on FFO #40–#49, node for
//!   node the same search (`search::Isa`);
//! - the table aligned to 2 MiB and, on Linux, backed by transparent huge
//!   pages (fewer TLB misses on its random reads);
//! - young-brothers-wait parallel search on a rayon pool
//!   ([`SolverOptions::threads`]): at the nodes of the root's tests from 12
//!   empties and at null-window nodes from 15 empties once the eldest
//!   child failed to cut, where the first sibling that cuts stops the
//!   others (and the splits below them; a stopped search stores nothing);
//!   scores never depend on it. For many positions, one sequential solver
//!   per core is the faster use of cores.
//!
//! [`GenericSolver`] is a simpler exact solver written once over the
//! [`Board`](crate::Board) trait: it solves 10x10 positions with few
//! empties (what 10x10 theoretical scores need) and 8x8 ones alike.
//!
//! ```
//! use othello_core::solver::{Solver, SolverOptions};
//!
//! // FFO #1 (black to move, 14 empties): G8 wins by 18.
//! let line = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO--";
//! let (mut p, mut o) = (0u64, 0u64);
//! for (i, c) in line.bytes().enumerate() {
//!     match c {
//!         b'X' => p |= 1 << i,
//!         b'O' => o |= 1 << i,
//!         _ => {}
//!     }
//! }
//! let mut solver = Solver::new(SolverOptions { threads: 1, tt_bits: 16 });
//! let solution = solver.solve(p, o);
//! assert_eq!(solution.score, 18);
//! assert_eq!(solution.best_move, Some(62)); // g8
//! ```

mod generic;
pub(crate) mod kernels;
pub(crate) mod search;
mod stability;
pub(crate) mod tt;

pub use generic::{GenericSolution, GenericSolver};

use kernels::Portable;
#[cfg(target_arch = "x86_64")]
use kernels::{X86V3, X86V4};
use search::{INF, Isa, PROBCUT_T, Search};
use tt::{EXACT, NO_MOVE, Table};

use crate::bitboard8::legal_moves;
use crate::control::Control;
use kernels::flips;
use std::sync::atomic::AtomicBool;

/// From this many empties, [`Solver::solve`] runs null-window tests from an
/// estimate instead of one full-window search.
const ASPIRATION_MIN: u32 = 10;
/// Plies of the evaluation search that gives the root's first estimate
/// from [`ESTIMATE_DEEP_MIN`] empties (at most a few milliseconds at 36
/// empties); 2 plies below it.
const ESTIMATE_DEPTH: u32 = 6;
/// From this many empties the estimate searches [`ESTIMATE_DEPTH`] plies.
/// (Measured on random positions: 6 plies took 40% of a 10- or 12-empty
/// solve and made 14-empty solves 25% slower than 2 plies; from 18 empties
/// they cost 2% and order the root tests better.)
const ESTIMATE_DEEP_MIN: u32 = 18;
/// The first root test sits this many discs below the estimate. (Measured
/// on FFO #40–#49: 4 discs below, 5.5% fewer nodes than walking up from a
/// win/draw/loss search; 8 below, 3%; at the estimate, none: every test
/// that fails costs as much as the final proof.)
const ESTIMATE_MARGIN: i32 = 4;
/// From this many empties, [`Solver::solve`] runs selective (probcut)
/// searches before the exact one (FFO #40–#44, 20 to 23 empties: 1%
/// fewer nodes from 20 than from 22; the same from 16, 18 or 20).
const SELECTIVE_MIN: u32 = 20;

/// The instruction sets the search is compiled for.
#[derive(Clone, Copy)]
enum Code {
    /// What the build enables.
    Portable,
    /// x86-64-v3 ([`X86V3`]).
    #[cfg(target_arch = "x86_64")]
    X86V3,
    /// x86-64-v3 and AVX-512 ([`X86V4`]).
    #[cfg(target_arch = "x86_64")]
    X86V4,
}

impl Code {
    /// The fastest this processor runs.
    fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        {
            if X86V4::detected() {
                return Code::X86V4;
            }
            if X86V3::detected() {
                return Code::X86V3;
            }
        }
        Code::Portable
    }
}

/// Settings of a [`Solver`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolverOptions {
    /// Search threads; 1 searches sequentially. Results (scores) do not
    /// depend on it; among equally good moves, the best move may.
    pub threads: usize,
    /// The transposition table holds `2^tt_bits` entries, 32 bytes each
    /// ([`TT_BITS`]: 4..=32): 20 bits take 32 MiB, 22 bits 128 MiB.
    pub tt_bits: u32,
}

impl Default for SolverOptions {
    /// One thread per available core, a table of 2^21 entries (64 MiB):
    /// larger tables did not reduce the nodes of 22–26-empty solves.
    fn default() -> Self {
        SolverOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            tt_bits: 21,
        }
    }
}

impl SolverOptions {
    /// The table for solves of at most `empties` empty squares: 2^16
    /// entries (2 MiB) up to 14 empties, one bit more for each empty square
    /// above, at most `2^max` (and never below 2^16). A table larger than a
    /// solve needs costs the kernel's time to back the pages it touches (a
    /// 12-empty part of an analysis touched a page of a 64 MiB table in
    /// most of its nodes: 60 ms of the kernel's time for a 5 ms solve; a
    /// 10-empty solve in a 128 MiB table took 20-170 ms).
    ///
    /// ```
    /// use othello_core::solver::SolverOptions;
    /// assert_eq!(SolverOptions::table_bits_for(10, 21), 16);
    /// assert_eq!(SolverOptions::table_bits_for(18, 21), 20);
    /// assert_eq!(SolverOptions::table_bits_for(24, 21), 21);
    /// ```
    #[must_use]
    pub fn table_bits_for(empties: u32, max: u32) -> u32 {
        (empties + 2).max(16).min(max)
    }
}

/// The exact result of [`Solver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final disc difference for the side to move under perfect play
    /// (WTHOR convention: empty squares go to the winner).
    pub score: i32,
    /// A move achieving `score` (a square 0..64, a1 = 0, h8 = 63), `None`
    /// when the side to move must pass or the game is over.
    pub best_move: Option<u8>,
    /// The nodes searched by this call.
    pub nodes: u64,
}

/// An exact endgame solver for 8x8 positions; it owns a transposition
/// table reused across calls, so solving related positions one after the
/// other (the moves of one game, the siblings of a position) is cheaper.
pub struct Solver {
    tt: Table,
    pool: Option<rayon::ThreadPool>,
    nodes: u64,
    /// The code the search runs: the fastest this processor has.
    code: Code,
}

impl std::fmt::Debug for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solver")
            .field(
                "threads",
                &self.pool.as_ref().map_or(1, |p| p.current_num_threads()),
            )
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

/// `o` without the squares of `p` (inputs are meant to be disjoint) and
/// the number of empty squares.
#[inline]
fn sanitize(p: u64, o: u64) -> (u64, u64, u32) {
    let o = o & !p;
    (p, o, (!(p | o)).count_ones())
}

/// The transposition table a [`Solver`] was asked for could not be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// `tt_bits` outside [`TT_BITS`].
    #[error("a transposition table of 2^{0} entries: the size is from 2^4 to 2^32 entries")]
    TableSize(u32),
    /// The memory for the table could not be allocated.
    #[error("a transposition table of 2^{bits} entries ({bytes} bytes) could not be allocated")]
    OutOfMemory {
        /// The table's `tt_bits`.
        bits: u32,
        /// Its size in bytes.
        bytes: u64,
    },
}

/// The sizes [`SolverOptions::tt_bits`] takes (2^BITS entries of 32 bytes).
pub const TT_BITS: std::ops::RangeInclusive<u32> = 4..=32;

/// The most search threads the front ends take (`wthor --threads`,
/// Python's `threads=`): more than the cores only slow a search down (a
/// 20-empty solve on 1000 threads of 2 cores took 5 s instead of 0.3 s),
/// and a batch makes a solver table per thread.
pub const MAX_THREADS: usize = 256;

impl Solver {
    /// A solver with the given options. With `threads > 1` it owns a rayon
    /// pool of that many threads (falling back to one thread if the pool
    /// cannot be built).
    ///
    /// # Panics
    /// When the table cannot be allocated (as a `Vec` would), a `tt_bits`
    /// out of [`TT_BITS`] being clamped into it; [`Solver::try_new`] returns
    /// an error instead.
    #[must_use]
    pub fn new(options: SolverOptions) -> Self {
        let bits = options.tt_bits.clamp(*TT_BITS.start(), *TT_BITS.end());
        match Solver::try_new(SolverOptions {
            tt_bits: bits,
            ..options
        }) {
            Ok(solver) => solver,
            Err(e) => panic!("{e}"),
        }
    }

    /// A solver with the given options, or an error when `tt_bits` is out
    /// of [`TT_BITS`] or the table's memory cannot be had.
    ///
    /// # Errors
    /// [`SolverError::TableSize`], [`SolverError::OutOfMemory`].
    pub fn try_new(options: SolverOptions) -> Result<Self, SolverError> {
        if !TT_BITS.contains(&options.tt_bits) {
            return Err(SolverError::TableSize(options.tt_bits));
        }
        let tt = Table::new(options.tt_bits).ok_or(SolverError::OutOfMemory {
            bits: options.tt_bits,
            bytes: 32u64 << options.tt_bits,
        })?;
        let pool = if options.threads > 1 {
            rayon::ThreadPoolBuilder::new()
                .num_threads(options.threads)
                .build()
                .ok()
        } else {
            None
        };
        Ok(Solver {
            tt,
            pool,
            nodes: 0,
            code: Code::detect(),
        })
    }

    /// Runs `job`, inside the pool when there is one, on the fastest
    /// instruction set of this processor, and adds its nodes to the total.
    fn run(&mut self, job: Job) -> ((i32, u8), u64) {
        let control = Control::unlimited();
        let (r, nodes) = self.run_controlled(job, &control);
        (r.unwrap_or((0, NO_MOVE)), nodes)
    }

    /// [`run`](Self::run) within the limits of `control`: `None` when they
    /// stopped the search.
    fn run_controlled(&mut self, job: Job, control: &Control<'_>) -> (Option<(i32, u8)>, u64) {
        match self.code {
            Code::Portable => self.run_on::<Portable>(job, control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V3 => self.run_on::<X86V3>(job, control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V4 => self.run_on::<X86V4>(job, control),
        }
    }

    fn run_on<I: Isa>(&mut self, job: Job, control: &Control<'_>) -> (Option<(i32, u8)>, u64) {
        let tt = &self.tt;
        let (r, nodes) = match &self.pool {
            Some(pool) => pool.install(|| {
                let mut s = Search::<I>::new(tt, true);
                s.control = Some(control);
                let r = job.search(&mut s);
                (r, s.finish())
            }),
            None => {
                let mut s = Search::<I>::new(tt, false);
                s.control = Some(control);
                let r = job.search(&mut s);
                (r, s.finish())
            }
        };
        self.nodes += nodes;
        (r, nodes)
    }

    /// [`solve`](Self::solve) within the limits of `control`: `None` when
    /// they stopped it first. The nodes are counted either way.
    pub(crate) fn solve_controlled(
        &mut self,
        p: u64,
        o: u64,
        control: &Control<'_>,
    ) -> (Option<Solution>, u64) {
        let (p, o, n) = sanitize(p, o);
        self.tt.new_search();
        let (r, nodes) = self.run_controlled(
            Job {
                p,
                o,
                n,
                window: ANY_SCORE,
            },
            control,
        );
        let solution = r.map(|(score, best)| Solution {
            score,
            best_move: (best != NO_MOVE).then_some(best),
            nodes,
        });
        (solution, nodes)
    }

    /// [`solve`](Self::solve), stopped when `stop` is set (checked about
    /// every millisecond): `None` then. For a search that the user may
    /// interrupt (Ctrl-C).
    pub fn solve_until(&mut self, p: u64, o: u64, stop: &AtomicBool) -> Option<Solution> {
        let control = Control::new(Some(stop), None, u64::MAX);
        self.solve_controlled(p, o, &control).0
    }

    /// A plain fail-soft search of `(p, o)` with `n` empties in the window
    /// `(alpha, beta)` (disc units; a null window when `beta == alpha +
    /// 1`), on this thread, within `control`: the score (`None` when
    /// stopped), its move and the nodes. For the midgame search's nodes
    /// whose depth reaches the end of the game: no root walk, no date
    /// change, the table kept.
    pub(crate) fn search_window(
        &self,
        p: u64,
        o: u64,
        (alpha, beta): (i32, i32),
        n: u32,
        control: &Control<'_>,
    ) -> (Option<(i32, u8)>, u64) {
        fn on<I: Isa>(
            tt: &Table,
            (p, o, n): (u64, u64, u32),
            (alpha, beta): (i32, i32),
            control: &Control<'_>,
        ) -> (Option<(i32, u8)>, u64) {
            let mut s = Search::<I>::new(tt, false);
            s.control = Some(control);
            let r = if beta == alpha + 1 {
                (s.nws(p, o, alpha, n), NO_MOVE)
            } else {
                s.pvs(p, o, alpha, beta, n)
            };
            ((!s.stopped()).then_some(r), s.finish())
        }
        let pos = (p, o, n);
        match self.code {
            Code::Portable => on::<Portable>(&self.tt, pos, (alpha, beta), control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V3 => on::<X86V3>(&self.tt, pos, (alpha, beta), control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V4 => on::<X86V4>(&self.tt, pos, (alpha, beta), control),
        }
    }

    /// The score of a selective search of `(p, o)` (`n` empties, the side
    /// to move has a move) at probcut level `level` (an index of
    /// [`PROBCUT_T`](search::PROBCUT_T): nodes are cut when a shallow
    /// search clears the window by that many deviations): an estimate of
    /// the exact score, in discs, and its move, found by null-window tests
    /// walking from `start`; `None` when `control` stopped it. Its bounds
    /// stay in the table for the next level and the exact search.
    pub(crate) fn search_selective(
        &self,
        p: u64,
        o: u64,
        n: u32,
        level: u8,
        start: i32,
        control: &Control<'_>,
    ) -> (Option<(i32, u8)>, u64) {
        fn on<I: Isa>(
            tt: &Table,
            (p, o, n): (u64, u64, u32),
            (level, start): (u8, i32),
            control: &Control<'_>,
        ) -> (Option<(i32, u8)>, u64) {
            let mut s = Search::<I>::new(tt, false);
            s.control = Some(control);
            s.level = level;
            let r = walk(&mut s, p, o, n, ANY_SCORE, start);
            (r.filter(|_| !s.stopped()), s.finish())
        }
        let pos = (p, o, n);
        let at = (level.min(search::PROBCUT_T.len() as u8 - 1), start);
        match self.code {
            Code::Portable => on::<Portable>(&self.tt, pos, at, control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V3 => on::<X86V3>(&self.tt, pos, at, control),
            #[cfg(target_arch = "x86_64")]
            Code::X86V4 => on::<X86V4>(&self.tt, pos, at, control),
        }
    }

    /// The exact score and a best move of the position where the owner of
    /// `p` is to move against `o` (squares of `p` win over those of `o` if
    /// both name one). Handles a side that must pass (the score is still
    /// that of the side owning `p`; `best_move` is `None`) and finished
    /// games.
    pub fn solve(&mut self, p: u64, o: u64) -> Solution {
        let (p, o, n) = sanitize(p, o);
        self.tt.new_search();
        let ((score, best), nodes) = self.run(Job {
            p,
            o,
            n,
            window: ANY_SCORE,
        });
        Solution {
            score,
            best_move: (best != NO_MOVE).then_some(best),
            nodes,
        }
    }

    /// A fail-soft search in the window `(alpha, beta)`: the exact score if
    /// it lies strictly inside, else a bound (`<= alpha`: an upper bound,
    /// `>= beta`: a lower bound). With `beta == alpha + 1` this is a
    /// null-window test of `score > alpha`. An empty window (`alpha >=
    /// beta`) is taken as `(alpha, alpha + 1)`. Searched like
    /// [`solve`](Self::solve), with null-window tests kept inside the
    /// window: checking a known score `g` with `(g - 1, g + 1)` costs two.
    pub fn solve_window(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        self.solve_window_move(p, o, alpha, beta).0
    }

    /// [`solve_window`](Self::solve_window) with a move that reaches the
    /// score returned when it is above `alpha` (a best move when the score
    /// is exact), `None` when the search names none (a pass, a finished
    /// game, a bound below the window).
    pub fn solve_window_move(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
    ) -> (i32, Option<u8>) {
        let (p, o, n) = sanitize(p, o);
        let alpha = alpha.clamp(-INF + 2, INF - 2);
        let beta = if beta <= alpha {
            alpha + 1
        } else {
            beta.min(INF - 1)
        };
        self.tt.new_search();
        let ((score, best), _) = self.run(Job {
            p,
            o,
            n,
            window: (alpha, beta),
        });
        (score, (score > alpha && best != NO_MOVE).then_some(best))
    }

    /// Win/draw/loss for the side to move: `1`, `0` or `-1`. Faster than
    /// [`solve`](Self::solve) (a search in the window `(-1, 1)`).
    pub fn wld(&mut self, p: u64, o: u64) -> i32 {
        self.solve_window(p, o, -1, 1).signum()
    }

    /// The exact score of every legal move, as `(square, score)` in square
    /// order; scores are those of the side to move. Empty when the side
    /// must pass or the game is over.
    pub fn move_scores(&mut self, p: u64, o: u64) -> Vec<(u8, i32)> {
        let (p, o, _) = sanitize(p, o);
        each_move(p, o)
            .map(|(x, np, no)| (x, -self.solve(np, no).score))
            .collect()
    }

    /// The legal moves whose exact score is at least `bound`, in square
    /// order. Cheaper than [`move_scores`](Self::move_scores): one
    /// null-window search per move. A solitaire has a unique solution when
    /// `moves_at_least(p, o, 0)` (the winning or drawing moves) has one
    /// element.
    pub fn moves_at_least(&mut self, p: u64, o: u64, bound: i32) -> Vec<u8> {
        let (p, o, _) = sanitize(p, o);
        let mut out = Vec::new();
        for (x, np, no) in each_move(p, o) {
            // score(move) = -score(child) >= bound  <=>  score(child) <= -bound.
            if -self.solve_window(np, no, -bound, -bound + 1) >= bound {
                out.push(x);
            }
        }
        out
    }

    /// The exact score and every move achieving it, in square order (empty
    /// when the side must pass or the game is over).
    pub fn best_moves(&mut self, p: u64, o: u64) -> (i32, Vec<u8>) {
        let score = self.solve(p, o).score;
        let moves = self.moves_at_least(p, o, score);
        (score, moves)
    }

    /// The line of best moves from `(p, o)` that the table's exact entries
    /// hold (passes included, none at the end), as far as they go.
    pub(crate) fn line(&self, p: u64, o: u64) -> Vec<crate::Move> {
        let (mut p, mut o) = (p, o & !p);
        let mut out = Vec::new();
        while out.len() < 60 {
            let moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 || out.last() == Some(&crate::Move::Pass) {
                    break;
                }
                out.push(crate::Move::Pass);
                (p, o) = (o, p);
                continue;
            }
            let Some(b) = self.tt.probe(p, o) else {
                break;
            };
            if b.level != EXACT || b.best == NO_MOVE || moves >> b.best & 1 == 0 {
                break;
            }
            out.push(crate::Move::Play(crate::Square::new_unchecked(b.best)));
            let x = usize::from(b.best);
            let f = flips(p, o, x);
            (p, o) = (o ^ f, p | f | (1 << x));
        }
        while out.last() == Some(&crate::Move::Pass) {
            out.pop();
        }
        out
    }

    /// All nodes searched by this solver since it was made.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the transposition table (results never depend on it; only
    /// timings do).
    pub fn clear(&mut self) {
        self.tt.clear();
    }
}

/// What a call of the solver searches: a position with `n` empties, in a
/// window (fail-soft); [`solve`](Solver::solve) asks for [`ANY_SCORE`].
#[derive(Clone, Copy)]
struct Job {
    p: u64,
    o: u64,
    n: u32,
    window: (i32, i32),
}

/// The window holding every score: an exact score and a move reaching it.
const ANY_SCORE: (i32, i32) = (-INF, INF);

impl Job {
    /// The score and move, `None` when the search was halted.
    fn search<I: Isa>(self, s: &mut Search<'_, I>) -> Option<(i32, u8)> {
        let Job { p, o, n, window } = self;
        if n < ASPIRATION_MIN {
            let r = s.pvs(p, o, window.0, window.1, n);
            return (!s.stopped()).then_some(r);
        }
        if n >= SELECTIVE_MIN {
            // Selective (probcut) searches first, from the least selective:
            // each score is a better estimate for the next search, and the
            // moves they leave in the table order it. (FFO #40–#49: 1.449G
            // nodes without them, 1.033G with.) Each walk starts at the
            // score before it. (4 discs below it, as below 20 empties: 6%
            // more nodes on #40–#49.)
            let mut estimate = estimate(p, o, n);
            // (Levels 0 and 1 are the midgame search's quick estimates.)
            for level in 2..PROBCUT_T.len() as u8 {
                s.level = level;
                estimate = walk(s, p, o, n, ANY_SCORE, estimate)?.0;
            }
            s.level = EXACT;
            return walk(s, p, o, n, window, estimate);
        }
        walk(s, p, o, n, window, estimate(p, o, n) - ESTIMATE_MARGIN)
    }
}

/// The estimate of a shallow search on the evaluation, in discs.
fn estimate(p: u64, o: u64, n: u32) -> i32 {
    let depth = if n >= ESTIMATE_DEEP_MIN {
        ESTIMATE_DEPTH
    } else {
        2
    };
    crate::eval::search(p, o, depth).score
}

/// The score of `(p, o)` (with `n` empties) in the window `(alpha, beta)`
/// (fail-soft: exact inside it, a bound outside) and a move reaching the
/// lower bound found, by null-window tests walking from `start` (like
/// MTD(f); every 8x8 score is even, so each test settles one value). A
/// test that holds is cheap (one move proves it); one that fails refutes
/// every move: the walk comes from below so that, with a fair start, only
/// the last test fails. (To check stored scores `g` of 12 real 24-empty
/// positions in the window `(g - 1, g + 1)`, a principal-variation search
/// took 1.175G nodes, 35.6 s; the selective searches and these two tests,
/// 0.987G, 31.9 s.) `None` when the search was halted.
fn walk<I: Isa>(
    s: &mut Search<'_, I>,
    p: u64,
    o: u64,
    n: u32,
    (alpha, beta): (i32, i32),
    start: i32,
) -> Option<(i32, u8)> {
    let mut g = (2 * start.div_euclid(2)).clamp(-64, 64);
    let (mut lower, mut upper) = (-INF, INF);
    let mut best = NO_MOVE;
    loop {
        // Is the score at least g? (A test inside the window.)
        let g_in = g.clamp(alpha + 1, beta);
        let (t, m) = s.pvs(p, o, g_in - 1, g_in, n);
        if s.stopped() {
            return None;
        }
        // Bounds rounded to even scores: a selective search may return an
        // odd bound (probcut's `alpha` or `beta`).
        if t >= g_in {
            // A lower bound, and a move that reaches it.
            (lower, best) = (t + t.rem_euclid(2), m);
            if lower >= upper || lower >= beta || lower >= 64 {
                return Some((lower, best));
            }
            g = lower + 2;
        } else {
            upper = t - t.rem_euclid(2);
            if lower >= upper {
                return Some((lower, best));
            }
            if upper <= alpha {
                return Some((upper, best));
            }
            g = upper;
        }
    }
}

/// The legal moves of `p` with the positions they lead to, opponent to move.
fn each_move(p: u64, o: u64) -> impl Iterator<Item = (u8, u64, u64)> {
    let mut m = legal_moves(p, o);
    std::iter::from_fn(move || {
        if m == 0 {
            return None;
        }
        let x = m.trailing_zeros() as usize;
        m &= m - 1;
        let f = flips(p, o, x);
        Some((x as u8, o ^ f, p | f | (1 << x)))
    })
}

/// The final score of a finished game for the owner of `p` (WTHOR
/// convention): used by tests and callers that score finished positions.
#[must_use]
pub fn game_over_score(p: u64, o: u64) -> i32 {
    crate::bitboard8::game_over_score(p, o & !p)
}
