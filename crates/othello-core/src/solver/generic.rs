//! An exact solver written once over the [`Board`] trait, for both board
//! sizes: what 10x10 theoretical scores need (positions with few empties).
//!
//! It is a plain principal-variation search with a transposition table, a
//! hash move and fastest-first ordering; the 8x8 [`Solver`](super::Solver)
//! adds the specialised machinery that deep 8x8 endgames need.

use std::collections::HashMap;

use crate::{Bitboard, Board, Square};

/// Empty counts from which the table is used and moves are sorted.
const TABLE_MIN: u32 = 5;
/// The table is emptied when it grows beyond this many positions.
const TABLE_MAX: usize = 1 << 22;

/// The exact result of [`GenericSolver::solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenericSolution {
    /// The final disc difference for the side to move under perfect play
    /// (WTHOR convention: empty squares go to the winner).
    pub score: i32,
    /// A move achieving `score`; `None` when the side to move must pass or
    /// the game is over.
    pub best_move: Option<Square>,
    /// The nodes searched by this call.
    pub nodes: u64,
}

/// A table key: the discs of the side to move and of its opponent.
type Key<B> = (<B as Board>::Bits, <B as Board>::Bits);

/// Bounds of a position's score and its best move.
#[derive(Clone, Copy)]
struct Entry {
    lower: i8,
    upper: i8,
    best: Option<Square>,
}

/// An exact solver for any [`Board`] (8x8 or 10x10), meant for positions
/// with few empty squares (up to about 16). It keeps a transposition table
/// across calls.
///
/// ```
/// use othello_core::solver::GenericSolver;
/// use othello_core::{Board, Board10, Color};
///
/// // 10x10: black owns the first 60 squares, white the next 38, 2 empty.
/// let black: u128 = (1 << 60) - 1;
/// let white: u128 = ((1 << 98) - 1) & !black;
/// let board = Board10::from_colors(black, white, Color::Black).unwrap();
/// let mut solver = GenericSolver::new();
/// let solution = solver.solve(&board);
/// assert!(solution.score > 0);
/// ```
#[derive(Debug)]
pub struct GenericSolver<B: Board> {
    table: HashMap<Key<B>, (i8, i8, u8)>,
    nodes: u64,
}

impl<B: Board> Default for GenericSolver<B> {
    fn default() -> Self {
        Self::new()
    }
}

/// The final score of a finished game for the side to move.
fn final_score<B: Board>(b: &B) -> i32 {
    let total = B::SIZE.squares() as i32;
    let pc = b.player().count() as i32;
    let oc = b.opponent().count() as i32;
    match pc.cmp(&oc) {
        std::cmp::Ordering::Greater => total - 2 * oc,
        std::cmp::Ordering::Less => 2 * pc - total,
        std::cmp::Ordering::Equal => 0,
    }
}

impl<B: Board> GenericSolver<B> {
    /// A solver with an empty table.
    #[must_use]
    pub fn new() -> Self {
        GenericSolver {
            table: HashMap::new(),
            nodes: 0,
        }
    }

    /// All nodes searched since the solver was made.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The exact score and a best move of `board` for its side to move.
    pub fn solve(&mut self, board: &B) -> GenericSolution {
        let before = self.nodes;
        let limit = B::SIZE.squares() as i32;
        let (score, best) = self.pvs(board, -limit, limit, board.empty_count(), true);
        GenericSolution {
            score,
            best_move: best,
            nodes: self.nodes - before,
        }
    }

    /// A fail-soft search in `(alpha, beta)` (see
    /// [`Solver::solve_window`](super::Solver::solve_window)); an empty
    /// window is taken as `(alpha, alpha + 1)`.
    pub fn solve_window(&mut self, board: &B, alpha: i32, beta: i32) -> i32 {
        let limit = B::SIZE.squares() as i32 + 1;
        let alpha = alpha.clamp(-limit, limit);
        let beta = if beta <= alpha {
            alpha + 1
        } else {
            beta.min(limit + 1)
        };
        self.pvs(board, alpha, beta, board.empty_count(), true).0
    }

    /// The exact score of every legal move, in square order (empty when the
    /// side must pass or the game is over).
    pub fn move_scores(&mut self, board: &B) -> Vec<(Square, i32)> {
        board
            .legal_moves()
            .squares()
            .map(|sq| (sq, -self.solve(&board.play_unchecked(sq)).score))
            .collect()
    }

    /// The legal moves whose exact score is at least `bound`, in square
    /// order (see [`Solver::moves_at_least`](super::Solver::moves_at_least)).
    pub fn moves_at_least(&mut self, board: &B, bound: i32) -> Vec<Square> {
        board
            .legal_moves()
            .squares()
            .filter(|&sq| {
                -self.solve_window(&board.play_unchecked(sq), -bound, -bound + 1) >= bound
            })
            .collect()
    }

    fn probe(&self, b: &B) -> Option<Entry> {
        self.table
            .get(&(b.player(), b.opponent()))
            .map(|&(lower, upper, best)| Entry {
                lower,
                upper,
                best: (best != u8::MAX).then(|| Square::new_unchecked(best)),
            })
    }

    fn store(&mut self, b: &B, alpha: i32, beta: i32, score: i32, best: Option<Square>) {
        if self.table.len() >= TABLE_MAX {
            self.table.clear();
        }
        let limit = B::SIZE.squares() as i8;
        let e = self
            .table
            .entry((b.player(), b.opponent()))
            .or_insert((-limit, limit, u8::MAX));
        let s = score as i8;
        if score > alpha && score < beta {
            e.0 = s;
            e.1 = s;
        } else if score >= beta {
            e.0 = e.0.max(s);
        } else {
            e.1 = e.1.min(s);
        }
        if let Some(sq) = best {
            e.2 = sq.index() as u8;
        }
    }

    /// Fail-soft principal-variation search with `n` empties; at the `root`
    /// the table gives no cutoff (its best move may not be the score's).
    fn pvs(&mut self, b: &B, alpha: i32, beta: i32, n: u32, root: bool) -> (i32, Option<Square>) {
        self.nodes += 1;
        let moves = b.legal_moves();
        if moves.is_empty() {
            if b.pass().legal_moves().is_empty() {
                return (final_score(b), None);
            }
            let (s, _) = self.pvs(&b.pass(), -beta, -alpha, n, false);
            return (-s, None);
        }
        let mut hash_move = None;
        if n >= TABLE_MIN && !root {
            if let Some(e) = self.probe(b) {
                let (lower, upper) = (i32::from(e.lower), i32::from(e.upper));
                if lower >= beta || lower == upper {
                    return (lower, None);
                }
                if upper <= alpha {
                    return (upper, None);
                }
                hash_move = e.best;
            }
        } else if root {
            hash_move = self.probe(b).and_then(|e| e.best);
        }
        // Children, hash move first then fewest opponent replies.
        let mut children: Vec<(i32, Square, B)> = moves
            .squares()
            .map(|sq| {
                let child = b.play_with_flips_unchecked(sq, b.flips(sq));
                let key = if Some(sq) == hash_move {
                    i32::MIN
                } else if n >= TABLE_MIN {
                    child.legal_moves().count() as i32
                } else {
                    0
                };
                (key, sq, child)
            })
            .collect();
        if n >= TABLE_MIN {
            children.sort_by_key(|c| c.0);
        }
        let mut best = -i32::MAX;
        let mut best_move = None;
        let mut a = alpha;
        for (i, (_, sq, child)) in children.iter().enumerate() {
            let s = if i == 0 {
                -self.pvs(child, -beta, -a, n - 1, false).0
            } else {
                let s = -self.pvs(child, -a - 1, -a, n - 1, false).0;
                if s > a && s < beta {
                    -self.pvs(child, -beta, -a, n - 1, false).0
                } else {
                    s
                }
            };
            if s > best {
                best = s;
                best_move = Some(*sq);
                a = a.max(s);
                if s >= beta {
                    break;
                }
            }
        }
        if n >= TABLE_MIN {
            self.store(b, alpha, beta, best, best_move);
        }
        (best, best_move)
    }
}
