//! The midgame search: principal-variation search at PV nodes,
//! null-window search elsewhere, fail-soft, on the pattern evaluation, in
//! units of 1/[`SCALE`] disc.
//!
//! A node whose remaining depth reaches the end of the game (depth at
//! least the empties), or a leaf with at most [`EXACT_LEAF_EMPTIES`]
//! empties, is searched by the exact solver instead, in the same window
//! (scaled): its value is the exact score. A pass does not count a ply; a
//! finished game scores exactly.

use super::tt::{NO_MOVE, Table};
use super::{EXACT_LEAF_EMPTIES, probcut};
use crate::bitboard8::{game_over_score, legal_moves};
use crate::control::{Control, MIDGAME_POLL};
use crate::eval::{LEN, SCALE, evaluate_in};
use crate::solver::Solver;
use crate::solver::kernels::{flips, neighbours};

/// More than any value.
pub(crate) const INF: i32 = 30_000;
/// The largest evaluation of an unfinished position: below a win by every
/// disc, which only a finished game scores.
pub(crate) const EVAL_MAX: i32 = 64 * SCALE - 1;
/// The selectivity level of a search without probcut.
pub(crate) const NO_PROBCUT: u8 = u8::MAX;
/// A pass in a [`Line`].
pub(crate) const PASS: u8 = 65;

/// The value of a leaf: the evaluation, clamped below a win by every disc.
#[inline]
#[must_use]
pub(crate) fn leaf(w: &[i16; LEN], p: u64, o: u64) -> i32 {
    evaluate_in(w, p, o).clamp(-EVAL_MAX, EVAL_MAX)
}

/// The empty squares of a position.
#[inline]
fn empties(p: u64, o: u64) -> u32 {
    (!(p | o)).count_ones()
}

/// Whether a node of `depth` plies and `n` empties is solved exactly
/// instead of searched: its depth reaches the end of the game, or it is a
/// leaf of at most [`EXACT_LEAF_EMPTIES`] empties.
#[inline]
fn solved(depth: u32, n: u32) -> bool {
    depth >= n || (depth == 0 && n <= EXACT_LEAF_EMPTIES)
}

/// A principal variation: squares, [`PASS`] for a pass.
#[derive(Clone, Copy)]
pub(crate) struct Line {
    moves: [u8; 64],
    len: usize,
}

impl Line {
    pub(crate) const fn new() -> Self {
        Line {
            moves: [0; 64],
            len: 0,
        }
    }

    /// `first` then `rest`.
    pub(crate) fn set(&mut self, first: u8, rest: &Line) {
        self.moves[0] = first;
        let len = rest.len.min(63);
        self.moves[1..=len].copy_from_slice(&rest.moves[..len]);
        self.len = len + 1;
    }

    /// Just `first`.
    fn single(&mut self, first: u8) {
        self.moves[0] = first;
        self.len = 1;
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len]
    }
}

/// One move of a node: square, flips, ordering key.
#[derive(Clone, Copy)]
struct Mv {
    x: u8,
    flips: u64,
    key: i32,
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// The plies of the search that orders the moves of a node of `depth`
/// (0: mobility and the square only). (Searches of 3 plies from depth 10,
/// as before, took 1.5 times the time of these to the same depth on
/// training positions at 24 empties, for about the same error: see
/// [`ORDER_WINDOW`].)
#[inline]
pub(crate) fn sort_plies(depth: u32) -> u32 {
    match depth {
        0..=2 => 0,
        3..=5 => 1,
        _ => 2,
    }
}

/// The ordering searches look at a child's value only down to this far
/// below the node's alpha (1/[`SCALE`] disc): a worse move is ordered
/// last whatever its value, so its search stops as soon as it is known
/// to be that bad (as Edax's `sort_alpha`). With [`sort_plies`], on 100
/// training positions at 24 empties searched to depth 16 (one thread,
/// `Selectivity::TIMED`): 1.22–1.30 s against 1.90–1.93 with full-window
/// searches of up to 3 plies, mean absolute error 2.375 discs against
/// 2.389; at 10 ms a position (1,000 positions), 2.69 against 2.75–2.76.
const ORDER_WINDOW: i32 = 4 * SCALE;

/// A search thread.
pub(crate) struct Searcher<'a> {
    /// The evaluation's weights.
    pub(crate) w: &'a [i16; LEN],
    pub(crate) tt: &'a Table,
    /// The exact solver, for nodes that reach the end of the game.
    pub(crate) solver: &'a Solver,
    pub(crate) control: &'a Control<'a>,
    /// Nodes searched (the exact solver's included).
    pub(crate) nodes: u64,
    /// Nodes already reported to `control`.
    reported: u64,
    /// The selectivity: probcut's `t` in tenths of a standard deviation,
    /// or [`NO_PROBCUT`].
    pub(crate) level: u8,
    /// A limit was passed: every value from now on is meaningless.
    pub(crate) halted: bool,
}

impl<'a> Searcher<'a> {
    pub(crate) fn new(
        w: &'a [i16; LEN],
        tt: &'a Table,
        solver: &'a Solver,
        control: &'a Control<'a>,
        level: u8,
    ) -> Self {
        Searcher {
            w,
            tt,
            solver,
            control,
            nodes: 0,
            reported: 0,
            level,
            halted: control.halted(),
        }
    }

    /// Polls the limits every [`MIDGAME_POLL`] nodes.
    #[inline]
    fn poll(&mut self) -> bool {
        if self.nodes - self.reported >= MIDGAME_POLL {
            self.halted |= self.control.poll(self.nodes - self.reported);
            self.reported = self.nodes;
        } else if !self.halted {
            self.halted = self.control.halted();
        }
        self.halted
    }

    /// The exact score of `(p, o)` (`n` empties) in the window `(alpha,
    /// beta)` (1/SCALE disc), scaled, fail-soft, and its best move.
    fn exact(&mut self, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> (i32, u8) {
        // s * SCALE > alpha  <=>  s > floor(alpha / SCALE), and
        // s * SCALE < beta   <=>  s < ceil(beta / SCALE).
        let a = alpha.div_euclid(SCALE).clamp(-65, 64);
        let b = (-(-beta).div_euclid(SCALE)).clamp(a + 1, 65);
        let (r, nodes) = self.solver.search_window(p, o, (a, b), n, self.control);
        self.nodes += nodes;
        // The solver reported its own nodes to the control.
        self.reported += nodes;
        match r {
            Some((s, m)) => (s * SCALE, if m == 64 { NO_MOVE } else { m }),
            None => {
                self.halted = true;
                (0, NO_MOVE)
            }
        }
    }

    /// Fail-soft search of `depth` plies in the window `(alpha, beta)`;
    /// `line` receives the principal variation.
    pub(crate) fn pvs(
        &mut self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        depth: u32,
        line: &mut Line,
    ) -> i32 {
        line.len = 0;
        let n = empties(p, o);
        if solved(depth, n) {
            let (v, m) = self.exact(p, o, alpha, beta, n);
            if m != NO_MOVE {
                line.single(m);
            }
            return v;
        }
        self.nodes += 1;
        if depth == 0 {
            return leaf(self.w, p, o);
        }
        if self.poll() {
            return 0;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return SCALE * game_over_score(p, o);
            }
            let mut child = Line::new();
            let v = -self.pvs(o, p, -beta, -alpha, depth, &mut child);
            line.set(PASS, &child);
            return v;
        }
        let hash = self.tt.probe(p, o).map_or(NO_MOVE, |b| b.best);
        let mut room = [Mv {
            x: 0,
            flips: 0,
            key: 0,
        }; 64];
        let list = self.order(p, o, moves, hash, depth, alpha, &mut room);
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let mut a = alpha;
        let mut child = Line::new();
        for i in 0..list.len() {
            pick(list, i);
            let mv = list[i];
            let (np, no) = (o ^ mv.flips, p | mv.flips | (1 << mv.x));
            let v = if i == 0 {
                -self.pvs(np, no, -beta, -a, depth - 1, &mut child)
            } else {
                let v = -self.nws(np, no, -a - 1, depth - 1);
                if v > a && v < beta && !self.halted {
                    -self.pvs(np, no, -beta, -a, depth - 1, &mut child)
                } else {
                    v
                }
            };
            if self.halted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv.x;
                if v > a {
                    a = v;
                    line.set(mv.x, &child);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if best <= alpha {
            // Fail low: no line (any move's is as good).
            line.single(best_move);
        }
        self.tt.store(
            p,
            o,
            (alpha, beta),
            best,
            best_move,
            depth as u8,
            self.level,
        );
        best
    }

    /// Null-window search of `depth` plies: whether the value is above
    /// `alpha` (fail-soft).
    pub(crate) fn nws(&mut self, p: u64, o: u64, alpha: i32, depth: u32) -> i32 {
        let n = empties(p, o);
        if solved(depth, n) {
            return self.exact(p, o, alpha, alpha + 1, n).0;
        }
        self.nodes += 1;
        if depth == 0 {
            return leaf(self.w, p, o);
        }
        // The children are leaves: evaluated, unless they are solved.
        if depth == 1 && n > EXACT_LEAF_EMPTIES + 1 {
            return self.nws1(p, o, alpha);
        }
        if self.poll() {
            return 0;
        }
        let beta = alpha + 1;
        let mut hash = NO_MOVE;
        if let Some(b) = self.tt.probe(p, o) {
            if u32::from(b.depth) >= depth && b.level >= self.level {
                if b.lower > alpha {
                    return b.lower;
                }
                if b.upper <= alpha {
                    return b.upper;
                }
            }
            hash = b.best;
        }
        if self.level != NO_PROBCUT
            && depth >= probcut::MIN_DEPTH
            && let Some(v) = self.probcut(p, o, alpha, depth, n)
        {
            return v;
        }
        let moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return SCALE * game_over_score(p, o);
            }
            return -self.nws(o, p, -beta, depth);
        }
        let mut room = [Mv {
            x: 0,
            flips: 0,
            key: 0,
        }; 64];
        let list = self.order(p, o, moves, hash, depth, alpha, &mut room);
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for i in 0..list.len() {
            pick(list, i);
            let mv = list[i];
            let v = -self.nws(o ^ mv.flips, p | mv.flips | (1 << mv.x), -beta, depth - 1);
            if self.halted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = mv.x;
                if v >= beta {
                    break;
                }
            }
        }
        self.tt.store(
            p,
            o,
            (alpha, beta),
            best,
            best_move,
            depth as u8,
            self.level,
        );
        best
    }

    /// [`nws`](Self::nws) at depth 1: the evaluation of each child.
    fn nws1(&mut self, p: u64, o: u64, alpha: i32) -> i32 {
        let mut moves = legal_moves(p, o);
        if moves == 0 {
            if legal_moves(o, p) == 0 {
                return SCALE * game_over_score(p, o);
            }
            return -self.nws(o, p, -alpha - 1, 1);
        }
        let mut best = -INF;
        while moves != 0 {
            let x = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(p, o, x);
            self.nodes += 1;
            let v = -leaf(self.w, o ^ f, p | f | (1 << x));
            if v > best {
                best = v;
                if v > alpha {
                    break;
                }
            }
        }
        best
    }

    /// Probcut: `Some(bound)` when a shallow search says, with the
    /// confidence of this search's selectivity, that the value fails high
    /// or low of the null window `(alpha, alpha + 1)`.
    fn probcut(&mut self, p: u64, o: u64, alpha: i32, depth: u32, n: u32) -> Option<i32> {
        let shallow = probcut::shallow_depth(depth);
        let (mean, sigma) = probcut::error(depth, n);
        let margin = i32::from(self.level) * sigma / 10;
        let beta = alpha + 1;
        // value >= beta is likely when shallow + mean - margin >= beta.
        let hi = beta - mean + margin;
        if hi < 64 * SCALE {
            let v = self.nws(p, o, hi - 1, shallow);
            if self.halted {
                return Some(0);
            }
            if v >= hi {
                return Some(beta);
            }
        }
        let lo = alpha - mean - margin;
        if lo > -64 * SCALE {
            let v = self.nws(p, o, lo, shallow);
            if self.halted {
                return Some(0);
            }
            if v <= lo {
                return Some(alpha);
            }
        }
        None
    }

    /// Fills `room` with the legal moves `moves` and their ordering keys
    /// (the table's move first; then the value of a shallow search of
    /// [`sort_plies`] plies, known only down to [`ORDER_WINDOW`] below
    /// `alpha`, two discs weighing like one opponent reply less; then
    /// potential mobility and corners) and returns that part.
    #[allow(clippy::too_many_arguments)]
    fn order<'l>(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        hash: u8,
        depth: u32,
        alpha: i32,
        room: &'l mut [Mv; 64],
    ) -> &'l mut [Mv] {
        let plies = sort_plies(depth);
        // The child's searches fail high (a bad move for this node) past
        // this bound.
        let cap = (ORDER_WINDOW - alpha).min(INF);
        let mut len = 0;
        let mut m = moves;
        while m != 0 {
            let x = m.trailing_zeros() as usize;
            m &= m - 1;
            let f = flips(p, o, x);
            let key = if x as u8 == hash {
                i32::MAX
            } else {
                let (np, no) = (o ^ f, p | f | (1 << x));
                let reply = legal_moves(np, no);
                let mobility = (reply.count_ones() + (reply & CORNERS).count_ones()) as i32;
                let potential = (neighbours(no) & !(np | no)).count_ones() as i32;
                let value = if plies > 0 {
                    self.nodes += 1;
                    -crate::eval::alphabeta(self.w, np, no, plies - 1, -INF, cap, flips)
                } else {
                    0
                };
                value - 2 * SCALE * mobility - SCALE / 4 * potential
                    + if CORNERS >> x & 1 != 0 { SCALE } else { 0 }
            };
            room[len] = Mv {
                x: x as u8,
                flips: f,
                key,
            };
            len += 1;
        }
        &mut room[..len]
    }
}

/// Moves the best-keyed move of `list[i..]` to `list[i]`.
#[inline]
fn pick(list: &mut [Mv], i: usize) {
    let mut b = i;
    for j in i + 1..list.len() {
        if list[j].key > list[b].key {
            b = j;
        }
    }
    list.swap(i, b);
}
