//! The midgame search: the value of an 8x8 position far from the end, its
//! best move and line, within a depth, a node or a time limit.
//!
//! [`Engine::analyze`] searches by iterative deepening (1 ply, 2, 3…) on
//! the pattern evaluation of [`eval`](crate::eval):
//!
//! - principal-variation search, fail-soft, each iteration in an
//!   aspiration window around the previous value (widened when the value
//!   falls outside);
//! - a transposition table of its own (depth, selectivity, bounds and best
//!   move per position; the solver's memory and lock-free entries) that
//!   gives each node its previous best move first and cuts repeated nodes;
//! - move ordering by the table's move, then a shallow search of each
//!   child (1 or 2 plies by depth, in a window below alpha), the
//!   opponent's mobility and potential mobility;
//! - Multi-ProbCut ([`Selectivity`]), its margins calibrated on archive
//!   positions (`cargo bench -p othello-core --bench midgame -- calibrate`);
//! - the exact solver for nodes whose depth reaches the end of the game,
//!   and for leaves of [`EXACT_LEAF_EMPTIES`] empties or fewer, and, once
//!   the iterations come close to the empties (or the depth asked reaches
//!   them), for the root: such values are exact and marked so;
//! - without a depth limit, once the iterations come within 8 plies of
//!   the end having used less than an eighth of the time or node limit,
//!   the solver's selective endgame searches (probcut at 0.2, 0.5, 1,
//!   then 2 deviations: [`Analysis::selectivity`] says which;
//!   `depth` is the empties), then its exact one, each answer replacing
//!   the last.
//!
//! Values are final disc differences for the side to move (WTHOR
//! convention for an exact score), estimated in 1/64 disc.
//!
//! ```
//! use othello_core::bitboard8;
//! use othello_core::midgame::{self, Limits};
//!
//! let (p, o) = bitboard8::START;
//! let a = midgame::analyze(p, o, Limits::depth(6)).unwrap();
//! assert!(a.value.abs() < 8.0);
//! assert_eq!(a.depth, 6);
//! assert!(!a.exact);
//! assert!(a.best_move.is_some());
//! ```

mod probcut;
mod search;
mod tt;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::bitboard8::{flips, game_over_score, legal_moves};
use crate::control::Control;
use crate::eval::{SCALE, Weights};
use crate::solver::{Solver, SolverError, SolverOptions};
use crate::{Move, Square};
use search::{INF, Line, NO_PROBCUT, PASS, Searcher};
use tt::Table;

/// The deepest search: the most empties a position has.
pub const MAX_DEPTH: u32 = 60;

/// A leaf of the search (no depth left) with at most this many empty
/// squares is worth its exact score, not the evaluation: there the
/// evaluation errs by some 7 discs and a solve costs a few thousand nodes.
/// (The training years' sets, one thread, each setting in turn with the
/// old: 24 empties at 10 ms, 2.61 discs of mean error (five runs) against
/// 2.65 (four), 9 empties 2.54, 8 2.57, 11 2.70, 12 3.05; at 30 ms 2.21
/// against 2.34; 28–30 empties at 100 ms 1.36 (four) against 1.47, 9
/// empties 1.47. Whole-game estimates at 16 plies: the jump where the
/// exact part begins 3.40 discs against 4.50, 1.2x the time.)
pub const EXACT_LEAF_EMPTIES: u32 = 10;

/// The plies a front end searches when no limit is given (`wthor solve`
/// past the exact limit, Python's `Board.evaluate()`): a fixed depth, so
/// that the value repeats (a time limit does not), about a tenth of a
/// second on a midgame position.
pub const DEFAULT_DEPTH: u32 = 12;

/// Without a depth limit, the root is solved exactly once the iterations
/// reach this many plies below the empties. (4 and [`ENDGAME_GAP`] 10
/// instead of 6 and 12, once the midgame's ordering searches cost less
/// (`search::ORDER_WINDOW`): on the training positions of `-- tune24`,
/// two runs each in turn, 2.62 and 2.63 discs of mean absolute error at
/// 10 ms against 2.68 and 2.69, 2.32 twice at 30 ms against 2.53 and
/// 2.54, 1.99 and 2.00 at 100 ms against 2.01 and 1.99; on `-- tune28`,
/// 1.46 twice at 100 ms against 1.52 and 1.53. The gap of 10 alone:
/// 2.66, 2.37, 2.01–2.03, 1.46–1.48.)
const EXACT_GAP: u32 = 4;
/// Without a depth limit (a time or node limit), the solver's selective
/// endgame searches take over once the iterations reach this many plies
/// below the empties. (24-empty test positions, 150, mean absolute error:
/// without them 2.93 discs at 10 ms, 2.70 at 100 ms; with probcut at 1
/// and 2 deviations from 12 plies below, 3.02 and 2.03 (at 10 ms they
/// seldom finish); with 0.3 deviations first, from 12 plies, 2.92 and
/// 1.60, from 30 plies 3.05 and 1.63; with 0.2 and 0.5 first, from 12
/// plies, 2.84 at 10 ms, 2.43 at 30 and 1.65 at 100. Those were 150
/// positions; on all 5,810 at 10 ms: 2.90 without them, 3.13 with: the
/// searches that do not finish cost the midgame its last iterations,
/// hence [`ENDGAME_SHARE`]: with it, 2.90 at 10 ms and 1.87 at 100 ms
/// (600 positions; 1/4 instead of 1/8: 2.99 and 1.90). Since the cheaper
/// ordering searches, 10: see [`EXACT_GAP`]. Since the leaves of
/// [`EXACT_LEAF_EMPTIES`] are solved, 8: `-- tune24` at 10 ms 2.58, 2.59,
/// 2.56, 2.60 against 2.60, 2.65, 2.68; at 30 ms 1.98, 1.99 against
/// 2.23; `-- tune28` 1.21, 1.24, 1.24, 1.24 against 1.35, 1.37, 1.43;
/// 6 plies the same, 4 and 12 worse; the root's exact solve 2 or 6 plies
/// from the end instead of 4, worse.)
const ENDGAME_GAP: u32 = 8;
/// The endgame searches start only while the iterations have used less than
/// 1/this of the time or node limit.
const ENDGAME_SHARE: u32 = 8;
/// The first aspiration window: this many 1/64 discs on each side of the
/// previous iteration's value.
const ASPIRATION: i32 = SCALE;

/// When a search stops. At least one is needed; with several, the first
/// reached stops it. The first iteration (one ply) always completes, so
/// that every search has an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Plies (1..=[`MAX_DEPTH`]); a depth at least the empties asks for
    /// the exact score.
    pub depth: Option<u32>,
    /// Nodes (at least 1), checked every 256 nodes of the midgame search
    /// (16,384 of the exact solver's).
    pub nodes: Option<u64>,
    /// Time from the call (not zero; any larger than the clock can add
    /// means no time limit), checked with the nodes (about every 50 µs); the
    /// answer is the last iteration of even depth completed by then
    /// (odd depths favour the side to move by 2 discs or more).
    pub time: Option<Duration>,
}

impl Limits {
    /// A search of `depth` plies.
    #[must_use]
    pub const fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            nodes: None,
            time: None,
        }
    }

    /// A search of at most `nodes` nodes.
    #[must_use]
    pub const fn nodes(nodes: u64) -> Self {
        Limits {
            depth: None,
            nodes: Some(nodes),
            time: None,
        }
    }

    /// A search of at most `time`.
    #[must_use]
    pub const fn time(time: Duration) -> Self {
        Limits {
            depth: None,
            nodes: None,
            time: Some(time),
        }
    }

    /// A search of at most `ms` milliseconds.
    #[must_use]
    pub const fn time_ms(ms: u64) -> Self {
        Limits::time(Duration::from_millis(ms))
    }
}

/// How selective the search is: Multi-ProbCut cuts a node when a shallow
/// search clears the window by this many standard deviations of its error
/// (in tenths: `Selectivity::sigmas(15)` is 1.5). Fewer deviations cut
/// more: a deeper search in the same time, a less certain one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

impl Selectivity {
    /// No cut: the value is the minimax value of the depth searched.
    pub const OFF: Selectivity = Selectivity(NO_PROBCUT);
    /// The default of searches to a fixed depth: 0.7 deviations, the
    /// depth reached sooner. (24-empty test positions at 10 ms,
    /// `benches/midgame.rs`, 400 positions: mean absolute error 2.88 discs
    /// at 0.7, 2.98 at 1.0, 3.17 at 1.5, 3.27 at 2.0, 3.62 without cuts;
    /// before the selective endgame searches, see [`TIMED`](Self::TIMED).)
    pub const DEFAULT: Selectivity = Selectivity(7);
    /// The default of searches limited by time or nodes alone: 1.0
    /// deviations. Chosen on training positions (`benches/midgame.rs`,
    /// `-- tune24` and `-- tune28`, the games of 2020–2023), each setting
    /// run twice in turn with 0.7: at 24 empties (1,000 positions, exact
    /// values) 2.73 and 2.76 discs of mean absolute error at 10 ms
    /// against 2.87 and 2.88, 2.45 and 2.47 at 30 ms against 2.54 and
    /// 2.48, the same at 100 ms (2.06, 2.07 against 2.05, 2.03); at 28–30
    /// empties (100 positions valued by 3-second searches) 1.49 twice at
    /// 100 ms against 1.74 and 1.76. 1.2 deviations: 2.82, 2.42, 2.01,
    /// 1.49–1.62.
    pub const TIMED: Selectivity = Selectivity(10);

    /// Cuts at `tenths` / 10 standard deviations, clamped to 5..=40 (0.5
    /// to 4 deviations).
    #[must_use]
    pub const fn sigmas(tenths: u8) -> Self {
        Selectivity(if tenths < 5 {
            5
        } else if tenths > 40 {
            40
        } else {
            tenths
        })
    }

    /// The deviations in tenths, `None` for [`OFF`](Self::OFF).
    #[must_use]
    pub const fn tenths(self) -> Option<u8> {
        if self.0 == NO_PROBCUT {
            None
        } else {
            Some(self.0)
        }
    }
}

impl Default for Selectivity {
    fn default() -> Self {
        Selectivity::DEFAULT
    }
}

/// Which moves get a value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Moves {
    /// The best move only (the fastest).
    #[default]
    Best,
    /// Every legal move (multi-PV): [`Analysis::moves`].
    All,
}

/// What to search: limits and choices.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// When to stop.
    pub limits: Limits,
    /// The best move only, or every move's value.
    pub moves: Moves,
    /// Probcut's selectivity.
    pub selectivity: Selectivity,
    /// A flag that stops the search when set (from another thread: a
    /// Ctrl-C handler, a server's cancel), checked with the limits.
    pub stop: Option<Arc<AtomicBool>>,
}

impl From<Limits> for Query {
    /// The query of `limits`, the best move only, with
    /// [`Selectivity::DEFAULT`] when they hold a depth and
    /// [`Selectivity::TIMED`] when they do not.
    fn from(limits: Limits) -> Self {
        Query {
            limits,
            selectivity: if limits.depth.is_some() {
                Selectivity::DEFAULT
            } else {
                Selectivity::TIMED
            },
            ..Query::default()
        }
    }
}

impl Query {
    /// Every legal move's value.
    #[must_use]
    pub fn all_moves(self) -> Self {
        Query {
            moves: Moves::All,
            ..self
        }
    }

    /// With selectivity `selectivity`.
    #[must_use]
    pub fn selectivity(self, selectivity: Selectivity) -> Self {
        Query {
            selectivity,
            ..self
        }
    }

    /// Stopped when `stop` is set.
    #[must_use]
    pub fn stop(self, stop: Arc<AtomicBool>) -> Self {
        Query {
            stop: Some(stop),
            ..self
        }
    }
}

/// The value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    /// The square played (0..64, a1 = 0, h8 = 63).
    pub square: u8,
    /// Its value for the side to move, in discs.
    pub value: f32,
    /// Whether `value` is the exact score.
    pub exact: bool,
}

/// The answer of [`Engine::analyze`].
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The value for the side to move, in discs (an exact score is an
    /// even integer): the final disc difference it expects.
    pub value: f32,
    /// Whether `value` is the exact score (solved to the end).
    pub exact: bool,
    /// The best move found (a square 0..64), `None` when the side to move
    /// must pass or the game is over.
    pub best_move: Option<u8>,
    /// The principal variation from the position (passes included): at
    /// least the best move.
    pub pv: Vec<Move>,
    /// The plies of the last completed iteration (the empties when exact,
    /// 0 for a finished game).
    pub depth: u32,
    /// The selectivity the value was found with ([`Selectivity::OFF`] for
    /// an exact value; for the solver's selective endgame searches, whose
    /// `depth` is the empties, their probcut level: 0.2, 0.5, 1 or 2
    /// deviations).
    pub selectivity: Selectivity,
    /// Nodes searched (those of an interrupted iteration included).
    pub nodes: u64,
    /// The time the call took.
    pub time: Duration,
    /// With [`Moves::All`], every legal move's value, best first (equal
    /// values in square order); else empty.
    pub moves: Vec<MoveValue>,
}

/// A search that cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MidgameError {
    /// No limit: a search must stop by depth, nodes or time.
    #[error("no limit: give a depth, a node count or a time")]
    NoLimit,
    /// A depth outside 1..=[`MAX_DEPTH`].
    #[error("a depth of {0} plies: the depth is from 1 to 60")]
    Depth(u32),
    /// A node limit of zero.
    #[error("a limit of 0 nodes: at least 1")]
    Nodes,
    /// A time limit of zero.
    #[error("a time limit of 0: at least a microsecond")]
    Time,
    /// The tables could not be had.
    #[error(transparent)]
    Table(#[from] SolverError),
}

/// Settings of an [`Engine`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// The midgame table holds `2^tt_bits` entries of 32 bytes (4..=32;
    /// pages are only backed when first written).
    pub tt_bits: u32,
    /// The exact solver's table (see [`SolverOptions::tt_bits`]).
    pub solver_tt_bits: u32,
}

impl Default for EngineOptions {
    /// 2^20 midgame entries (32 MiB), 2^20 for the solver.
    fn default() -> Self {
        EngineOptions {
            tt_bits: 20,
            solver_tt_bits: 20,
        }
    }
}

/// A midgame search engine: its tables, kept across calls (the positions
/// of one game searched one after the other share work), and an exact
/// solver. One thread.
pub struct Engine {
    tt: Table,
    solver: Solver,
    weights: Arc<Weights>,
    /// Threads of the best move's search (the caller's and helpers).
    threads: usize,
    /// The solver's table size.
    solver_tt_bits: u32,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").finish_non_exhaustive()
    }
}

/// Analyses `(p, o)` with a new [`Engine`] of the default options: the one
/// line for a single position (an engine kept for many positions is
/// faster: its tables carry over).
///
/// # Errors
/// As [`Engine::new`] and [`Engine::analyze`].
pub fn analyze(p: u64, o: u64, query: impl Into<Query>) -> Result<Analysis, MidgameError> {
    Engine::new(EngineOptions::default())?.analyze(p, o, query)
}

/// One iteration's result at the root.
#[derive(Clone)]
struct Iteration {
    value: i32,
    best: u8,
    line: Line,
    /// `(square, value)` of every move, with [`Moves::All`].
    moves: Vec<(u8, i32)>,
}

impl Engine {
    /// An engine with tables of the sizes of `options`.
    ///
    /// # Errors
    /// [`MidgameError::Table`] when a size is out of range or the memory
    /// cannot be had.
    pub fn new(options: EngineOptions) -> Result<Self, MidgameError> {
        if !crate::solver::TT_BITS.contains(&options.tt_bits) {
            return Err(SolverError::TableSize(options.tt_bits).into());
        }
        let tt = Table::new(options.tt_bits).ok_or(SolverError::OutOfMemory {
            bits: options.tt_bits,
            bytes: 32u64 << options.tt_bits,
        })?;
        let solver = Solver::try_new(SolverOptions {
            threads: 1,
            tt_bits: options.solver_tt_bits,
        })?;
        Ok(Engine {
            tt,
            solver,
            weights: Arc::new(Weights::embedded().clone()),
            threads: 1,
            solver_tt_bits: options.solver_tt_bits,
        })
    }

    /// The engine searching on `threads` threads (at least 1; the
    /// default, 1, is the calling thread): from the second iteration, the
    /// other threads search the same depth beside it on the shared table
    /// (each finds what the others stored, and they drift apart), and the
    /// calling thread's answer is kept ("lazy SMP"). Without selectivity
    /// the value at a fixed depth is the same on any number of threads
    /// (the bounds in the table are those of the same depth); the exact
    /// solver too runs on these threads. Multi-PV searches stay on one.
    ///
    /// # Errors
    /// [`MidgameError::Table`] when the solver's threads cannot be had.
    pub fn with_threads(mut self, threads: usize) -> Result<Self, MidgameError> {
        let threads = threads.max(1);
        if threads != self.threads {
            self.solver = Solver::try_new(SolverOptions {
                threads,
                tt_bits: self.solver_tt_bits,
            })?;
            self.threads = threads;
        }
        Ok(self)
    }

    /// `main`, the calling thread's search of an iteration under
    /// `control`, with `helpers` threads searching the same position and
    /// depth beside it until it returns (their nodes counted by `control`
    /// too); its answer and the helpers' nodes.
    fn with_helpers(
        &self,
        control: &Control<'_>,
        helpers: usize,
        (p, o, depth, level): (u64, u64, u32, u8),
        prev: Option<&Iteration>,
        main: impl FnOnce() -> Iteration,
    ) -> (Iteration, u64) {
        if helpers == 0 {
            return (main(), 0);
        }
        let done = AtomicBool::new(false);
        let helper_control = Control::helping(control, &done);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|_| {
                    let helper_control = &helper_control;
                    scope.spawn(move || {
                        let mut s = Searcher::new(
                            self.weights.table(),
                            &self.tt,
                            &self.solver,
                            helper_control,
                            level,
                        );
                        root_best(&mut s, p, o, depth, prev);
                        s.nodes
                    })
                })
                .collect();
            let it = main();
            done.store(true, std::sync::atomic::Ordering::Relaxed);
            // (A helper unwinds at its next poll.)
            let nodes = handles.into_iter().map(|h| h.join().unwrap_or(0)).sum();
            (it, nodes)
        })
    }

    /// The engine with the evaluation `weights` (a weight file's,
    /// [`Weights::read`]) instead of the embedded ones; the tables are
    /// cleared (their values were the old weights').
    #[must_use]
    pub fn with_weights(mut self, weights: Arc<Weights>) -> Self {
        self.weights = weights;
        self.clear();
        self
    }

    /// The evaluation's weights.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Forgets the tables. A value at a fixed depth without selectivity
    /// does not depend on them after shallower searches or none (the tests
    /// check it); after a deeper search of the same positions the table
    /// may give deeper bounds, and times and selective values always
    /// depend on them: clear between searches that must repeat.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.solver.clear();
    }

    /// The value, best move and line of the position where the owner of
    /// `p` is to move against `o` (squares of `p` win over those of `o`),
    /// within `query`'s limits (a [`Limits`] converts). A side that must
    /// pass is searched from the opponent's moves (the value stays the
    /// side's, the line starts with the pass, no best move); a finished
    /// game is its exact score at depth 0.
    ///
    /// # Errors
    /// [`MidgameError::NoLimit`], [`MidgameError::Depth`],
    /// [`MidgameError::Nodes`], [`MidgameError::Time`] for limits that
    /// cannot be searched.
    pub fn analyze(
        &mut self,
        p: u64,
        o: u64,
        query: impl Into<Query>,
    ) -> Result<Analysis, MidgameError> {
        let query = query.into();
        let limits = query.limits;
        match limits {
            Limits {
                depth: None,
                nodes: None,
                time: None,
            } => return Err(MidgameError::NoLimit),
            Limits { depth: Some(d), .. } if d == 0 || d > MAX_DEPTH => {
                return Err(MidgameError::Depth(d));
            }
            Limits { nodes: Some(0), .. } => return Err(MidgameError::Nodes),
            Limits { time: Some(t), .. } if t.is_zero() => return Err(MidgameError::Time),
            _ => {}
        }
        let start = Instant::now();
        let o = o & !p;
        let deadline = limits.time.and_then(|t| start.checked_add(t));
        let control = Control::new(
            query.stop.as_deref(),
            deadline,
            limits.nodes.unwrap_or(u64::MAX),
        );
        self.tt.new_search();
        let mut a = if legal_moves(p, o) != 0 {
            self.search(p, o, &query, &control, start)
        } else if legal_moves(o, p) != 0 {
            let mut a = self.search(o, p, &query, &control, start);
            a.value = -a.value;
            a.best_move = None;
            a.pv.insert(0, Move::Pass);
            a.moves.clear();
            a
        } else {
            Analysis {
                value: game_over_score(p, o) as f32,
                exact: true,
                best_move: None,
                pv: Vec::new(),
                depth: 0,
                selectivity: Selectivity::OFF,
                nodes: 0,
                time: Duration::ZERO,
                moves: Vec::new(),
            }
        };
        a.time = start.elapsed();
        Ok(a)
    }

    /// Iterative deepening from a position where the side to move has a
    /// move.
    fn search(
        &mut self,
        p: u64,
        o: u64,
        query: &Query,
        control: &Control<'_>,
        start: Instant,
    ) -> Analysis {
        let n = (!(p | o)).count_ones();
        let max_depth = query.limits.depth.unwrap_or(MAX_DEPTH);
        let level = query.selectivity.0;
        let all = query.moves == Moves::All;
        let mut nodes = 0;
        let mut last: Option<(Iteration, u32)> = None;
        let mut last_even: Option<(Iteration, u32)> = None;
        let unlimited = Control::unlimited();
        for depth in 1..=max_depth {
            let exact_now = depth >= n
                || query.limits.depth.is_some_and(|d| d >= n)
                || (query.limits.depth.is_none() && depth + EXACT_GAP >= n);
            if exact_now && last.is_some() {
                if let Some(a) = self.exact(p, o, all, control, &mut nodes) {
                    return a;
                }
                break;
            }
            // Only while the iterations so far have used less than
            // 1/ENDGAME_SHARE of the limits: with less left, the endgame
            // searches seldom finish and the deeper midgame answers better.
            let room = query
                .limits
                .time
                .is_none_or(|t| start.elapsed() * ENDGAME_SHARE < t)
                && query
                    .limits
                    .nodes
                    .is_none_or(|m| nodes * u64::from(ENDGAME_SHARE) < m);
            let endgame_now = !all
                && query.limits.depth.is_none()
                && query.selectivity != Selectivity::OFF
                && depth + ENDGAME_GAP >= n
                && room;
            if endgame_now && let Some((it, _)) = &last {
                if let Some(a) = self.endgame(p, o, discs(it.value), control, &mut nodes) {
                    return a;
                }
                break;
            }
            // The first iteration always completes.
            let c = if last.is_none() { &unlimited } else { control };
            let mut s = Searcher::new(self.weights.table(), &self.tt, &self.solver, c, level);
            let prev = last.as_ref().map(|(it, _)| it);
            let helpers = if last.is_some() { self.threads - 1 } else { 0 };
            let (it, helper_nodes) = if all {
                (root_all(&mut s, p, o, depth, prev), 0)
            } else {
                self.with_helpers(c, helpers, (p, o, depth, level), prev, || {
                    root_best(&mut s, p, o, depth, prev)
                })
            };
            nodes += s.nodes + helper_nodes;
            if last.is_none() {
                // Its nodes count against the limit too.
                control.poll(s.nodes);
            }
            if s.halted || c.halted() {
                break;
            }
            let exact = depth >= n;
            if depth % 2 == 0 {
                last_even = Some((it.clone(), depth));
            }
            last = Some((it, depth));
            if exact || control.poll(0) {
                break;
            }
        }
        let Some((mut it, mut depth)) = last else {
            unreachable!("the first iteration completes")
        };
        if query.limits.depth.is_none()
            && depth % 2 == 1
            && depth < n
            && let Some(even) = last_even
        {
            // The side that chooses at the last ply of a search gains by
            // the evaluation's errors: values of odd depths are 2 to 2.6
            // discs too high on average, of even depths within 0.4 (on
            // 24-empty test positions, and as the mean of probcut's
            // pairs of odd difference). A search stopped by time or
            // nodes answers with its deepest even iteration.
            (it, depth) = even;
        }
        let exact = depth >= n;
        let mut moves: Vec<MoveValue> = it
            .moves
            .iter()
            .map(|&(square, v)| MoveValue {
                square,
                value: discs(v),
                exact,
            })
            .collect();
        sort_moves(&mut moves);
        Analysis {
            value: discs(it.value),
            exact,
            best_move: Some(it.best),
            pv: pv_moves(it.line.as_slice()),
            depth: if exact { n } else { depth },
            selectivity: if exact {
                Selectivity::OFF
            } else {
                query.selectivity
            },
            nodes,
            time: Duration::ZERO,
            moves,
        }
    }

    /// The endgame searches of the solver, to the end of the game: its
    /// selective ones (probcut at 0.2, 0.5, 1 then 2 deviations), then the exact
    /// one, each from the previous value (`start`, discs, first); the
    /// answer of the last one completed within the limits, `None` when
    /// none did.
    fn endgame(
        &mut self,
        p: u64,
        o: u64,
        start: f32,
        control: &Control<'_>,
        nodes: &mut u64,
    ) -> Option<Analysis> {
        let n = (!(p | o)).count_ones();
        let mut found: Option<Analysis> = None;
        let mut start = start.round() as i32;
        for (level, tenths) in [(0u8, 2u8), (1, 5), (2, 10), (3, 20)] {
            let (r, k) = self.solver.search_selective(p, o, n, level, start, control);
            *nodes += k;
            let Some((score, best)) = r else {
                return found;
            };
            start = score;
            let pv = if best < 64 {
                self.solver_line(p, o, best)
            } else {
                Vec::new()
            };
            found = Some(Analysis {
                value: score as f32,
                exact: false,
                best_move: (best < 64).then_some(best),
                pv,
                depth: n,
                selectivity: Selectivity(tenths),
                nodes: *nodes,
                time: Duration::ZERO,
                moves: Vec::new(),
            });
            if control.poll(0) {
                return found;
            }
        }
        self.exact(p, o, false, control, nodes).or(found)
    }

    /// `best`, then the rest of the line from the solver's table, as far
    /// as it knows.
    fn solver_line(&self, p: u64, o: u64, best: u8) -> Vec<Move> {
        let mut pv = vec![Move::Play(Square::new_unchecked(best))];
        let f = flips(p, o, usize::from(best));
        pv.extend(self.solver.line(o ^ f, p | f | (1 << best)));
        pv
    }

    /// The exact answer by the solver (every move's score with `all`), or
    /// `None` when the limits stop it first.
    fn exact(
        &mut self,
        p: u64,
        o: u64,
        all: bool,
        control: &Control<'_>,
        nodes: &mut u64,
    ) -> Option<Analysis> {
        let n = (!(p | o)).count_ones();
        let (value, best, moves) = if all {
            let mut moves = Vec::new();
            let mut m = legal_moves(p, o);
            while m != 0 {
                let x = m.trailing_zeros() as usize;
                m &= m - 1;
                let f = flips(p, o, x);
                let (s, k) = self
                    .solver
                    .solve_controlled(o ^ f, p | f | (1 << x), control);
                *nodes += k;
                moves.push(MoveValue {
                    square: x as u8,
                    value: -s?.score as f32,
                    exact: true,
                });
            }
            sort_moves(&mut moves);
            (moves[0].value, moves[0].square, moves)
        } else {
            let (s, k) = self.solver.solve_controlled(p, o, control);
            *nodes += k;
            let s = s?;
            (s.score as f32, s.best_move?, Vec::new())
        };
        let pv = self.solver_line(p, o, best);
        Some(Analysis {
            value,
            exact: true,
            best_move: Some(best),
            pv,
            depth: n,
            selectivity: Selectivity::OFF,
            nodes: *nodes,
            time: Duration::ZERO,
            moves,
        })
    }
}

/// 1/64 discs to discs.
fn discs(v: i32) -> f32 {
    v as f32 / SCALE as f32
}

/// Best first, equal values in square order.
fn sort_moves(moves: &mut [MoveValue]) {
    moves.sort_by(|a, b| b.value.total_cmp(&a.value).then(a.square.cmp(&b.square)));
}

/// A [`Line`]'s squares as moves.
fn pv_moves(line: &[u8]) -> Vec<Move> {
    line.iter()
        .map(|&x| {
            if x == PASS {
                Move::Pass
            } else {
                Move::Play(Square::new_unchecked(x))
            }
        })
        .collect()
}

/// The best move's iteration: a PVS of the root in an aspiration window
/// around the previous value, widened until the value falls inside.
fn root_best(
    s: &mut Searcher<'_>,
    p: u64,
    o: u64,
    depth: u32,
    prev: Option<&Iteration>,
) -> Iteration {
    let mut line = Line::new();
    let value = aspiration(prev.map(|it| it.value), |alpha, beta| {
        s.pvs(p, o, alpha, beta, depth, &mut line)
    });
    let best = line.as_slice().first().copied().unwrap_or_else(|| {
        // Only when halted (no line): any legal move.
        legal_moves(p, o).trailing_zeros() as u8
    });
    Iteration {
        value,
        best,
        line,
        moves: Vec::new(),
    }
}

/// Every move's iteration: each move searched in an aspiration window
/// around its previous value, best first.
fn root_all(
    s: &mut Searcher<'_>,
    p: u64,
    o: u64,
    depth: u32,
    prev: Option<&Iteration>,
) -> Iteration {
    let mut order: Vec<(u8, Option<i32>)> = match prev {
        Some(it) => it.moves.iter().map(|&(x, v)| (x, Some(v))).collect(),
        None => {
            let mut m = legal_moves(p, o);
            let mut v = Vec::new();
            while m != 0 {
                v.push((m.trailing_zeros() as u8, None));
                m &= m - 1;
            }
            v
        }
    };
    order.sort_by_key(|&(x, v)| (std::cmp::Reverse(v), x));
    let mut best: Option<(i32, u8, Line)> = None;
    let mut moves = Vec::with_capacity(order.len());
    for (x, before) in order {
        let f = flips(p, o, usize::from(x));
        let (np, no) = (o ^ f, p | f | (1 << x));
        let mut child = Line::new();
        let v = aspiration(before, |alpha, beta| {
            -s.pvs(np, no, -beta, -alpha, depth - 1, &mut child)
        });
        if s.halted {
            break;
        }
        moves.push((x, v));
        if best
            .as_ref()
            .is_none_or(|b| v > b.0 || (v == b.0 && x < b.1))
        {
            let mut line = Line::new();
            line.set(x, &child);
            best = Some((v, x, line));
        }
    }
    let (value, best, line) = best.unwrap_or((0, 0, Line::new()));
    Iteration {
        value,
        best,
        line,
        moves,
    }
}

/// The value of `search(alpha, beta)` (fail-soft) found in windows around
/// `guess`, widened on each side where it fails, to the full window.
fn aspiration(guess: Option<i32>, mut search: impl FnMut(i32, i32) -> i32) -> i32 {
    let Some(g) = guess else {
        return search(-INF, INF);
    };
    let mut delta = ASPIRATION;
    let (mut alpha, mut beta) = ((g - delta).max(-INF), (g + delta).min(INF));
    loop {
        let v = search(alpha, beta);
        if v <= alpha && alpha > -INF {
            alpha = (v - delta).max(-INF);
        } else if v >= beta && beta < INF {
            beta = (v + delta).min(INF);
        } else {
            return v;
        }
        delta *= 2;
    }
}
