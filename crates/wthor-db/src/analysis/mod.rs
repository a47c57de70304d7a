//! The analysis of one 8x8 game: every move judged, exactly from a number
//! of empty squares to the end, estimated before.
//!
//! From [`AnalysisOptions::empties`] empty squares (20 by default) every
//! position where a move is made is solved by the exact solver: its
//! perfect-play value for the side to move, every move reaching it, the
//! value of the move played and the discs it threw away (its *loss*: 0 for
//! a perfect move). Before that, the pattern evaluation's search at
//! [`AnalysisOptions::estimate_depth`] plies gives the same fields as an
//! **estimate** ([`Judged::exact`] is false): the value of the position is
//! the search's, the value of the move played that of a search one ply
//! shallower from the position after it, so that the search's own best move
//! loses nothing and no move gains. Passes are not moves: they are not
//! judged.
//!
//! The solves of one game share the solver's transposition table (the
//! caller's [`Solver`]), so each position after the first costs little; a
//! value never depends on the table, only the time does (tested against a
//! cold solver). When the analysis reaches the file's depth, the stored
//! theoretical score is checked there ([`Analysis::theoretical`]: the audit
//! of `wthor validate --solve`, which the analysis gets for free).
//!
//! ```
//! use othello_core::solver::{Solver, SolverOptions};
//! use wthor_db::analysis::{AnalysisOptions, analyze_moves};
//! use othello_core::notation::parse_transcript;
//! use othello_core::Size;
//!
//! // The Tiger: five moves, all estimated (55 empties is far from 20).
//! let moves = parse_transcript("f5d6c3d3c4", Size::Eight).unwrap();
//! let mut solver = Solver::new(SolverOptions { threads: 1, tt_bits: 16 });
//! let a = analyze_moves(&moves, &AnalysisOptions::default(), &mut solver).unwrap();
//! assert_eq!(a.moves.len(), 5);
//! assert!(a.moves.iter().all(|m| !m.exact && m.loss >= 0));
//! assert_eq!(a.black_line().len(), 6);
//! ```

mod accuracy;
mod record;

pub use accuracy::{
    AccuracyOptions, AnalysisLog, Blunder, LogReadError, PlayerAccuracy, accuracy, read_analyses,
    read_selected,
};
pub use record::{GameAnalysis, MoveLoss, Side};

use othello_core::replay::{IllegalMove, Token, replay_with, wthor_tokens};
use othello_core::solver::Solver;
use othello_core::{Board, Board8, Color, Move, Square, eval};
use serde::Serialize;
use wthor_format::{BoardSize, GameView};

use crate::verify::{TheoryCheck, check_theoretical};
use crate::{Database, GameId};

/// How a game is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Positions with at most this many empty squares are solved exactly
    /// (default 20; each more empty square costs about twice the time).
    pub empties: u8,
    /// Plies of the evaluation search that estimates the earlier positions
    /// (default 4; at least 2).
    pub estimate_depth: u32,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            empties: 20,
            estimate_depth: 4,
        }
    }
}

/// One move of a game, judged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Judged {
    /// The index of the move in the game's record (0 for the first disc
    /// played; passes are not counted).
    pub index: usize,
    /// The side that played it.
    #[serde(serialize_with = "color_name")]
    pub color: Color,
    /// The square played.
    #[serde(serialize_with = "square_name")]
    pub square: Square,
    /// Empty squares before the move.
    pub empties: u8,
    /// Whether the values are exact (solved) or estimates.
    pub exact: bool,
    /// The value of the position for the side to move: its final disc
    /// difference under perfect play (WTHOR convention: empty squares to
    /// the winner), or the estimate.
    pub value: i32,
    /// The value of the move played, same side and unit.
    pub played: i32,
    /// `value - played`: the discs the move threw away (0: a best move).
    pub loss: i32,
    /// Moves reaching `value`: exact, a best move (the solver's) when the
    /// move played lost discs, none when it is itself a best move (the
    /// other best moves are not searched); estimated, the search's best
    /// move.
    #[serde(serialize_with = "square_names")]
    pub best: Vec<Square>,
}

/// How the moves of a game end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Neither side can move.
    Finished,
    /// The record stops while moves remain.
    Unfinished,
}

/// The analysis of a game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Analysis {
    /// Every move, in order.
    pub moves: Vec<Judged>,
    /// How the record ends.
    pub ending: Ending,
    /// The value of the final position for black (the disc difference
    /// with empty squares to the winner when finished; when unfinished,
    /// exact or estimated as the last position is).
    pub final_black: i32,
    /// The check of the stored theoretical score at the file's depth, when
    /// the analysis solved that deep (`empties` at least the depth) and a
    /// stored score was given.
    pub theoretical: Option<TheoryCheck>,
}

impl Judged {
    /// [`value`](Self::value) from black's side.
    #[must_use]
    pub fn black_value(&self) -> i32 {
        black_view(self.value, self.color)
    }
}

impl Analysis {
    /// The value before each move from black's side, then the final value:
    /// the line of the game's graph (exact and estimated alike; see each
    /// move's `exact`).
    #[must_use]
    pub fn black_line(&self) -> Vec<i32> {
        self.moves
            .iter()
            .map(Judged::black_value)
            .chain(std::iter::once(self.final_black))
            .collect()
    }

    /// The moves that lost discs, the largest loss first (exact losses
    /// before estimated ones of the same size; then in game order).
    #[must_use]
    pub fn mistakes(&self) -> Vec<&Judged> {
        let mut out: Vec<&Judged> = self.moves.iter().filter(|m| m.loss > 0).collect();
        out.sort_by_key(|m| (std::cmp::Reverse(m.loss), !m.exact, m.index));
        out
    }
}

/// Why a game cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnalysisError {
    /// A 10x10 game: there is no 10x10 solver fast enough.
    #[error("a 10x10 game: only 8x8 games are analysed (no 10x10 endgame solver)")]
    TenByTen,
    /// A move that is no square or illegal.
    #[error("illegal {}: {}", .0.describe(othello_core::Size::Eight), .0.reason)]
    Illegal(IllegalMove),
    /// An estimate depth out of range.
    #[error("the estimate depth is {0}: it must be from 2 to 8")]
    EstimateDepth(u32),
    /// Exact solves from too many empty squares.
    #[error("exact from {0} empties: at most 30 (each more empty square doubles the time)")]
    Empties(u8),
}

/// Analyses the game `view` (its file's theoretical score, at `depth`
/// empties, checked when reached).
///
/// # Errors
/// A 10x10 game; a move that is no square or illegal.
pub fn analyze_game(
    view: &GameView<'_>,
    depth: u8,
    options: &AnalysisOptions,
    solver: &mut Solver,
) -> Result<Analysis, AnalysisError> {
    if view.board_size() != BoardSize::Eight {
        return Err(AnalysisError::TenByTen);
    }
    let mut a = analyze_tokens(wthor_tokens::<Board8>(view.moves_raw()), options, solver)?;
    if options.empties >= depth {
        a.theoretical = Some(check_theoretical(
            view.moves_raw(),
            depth,
            view.theoretical_score(),
            solver,
            None,
        ));
    }
    Ok(a)
}

/// Analyses the 8x8 game of `moves` from the start (passes may be given or
/// left out).
///
/// # Errors
/// An illegal move.
pub fn analyze_moves(
    moves: &[Move],
    options: &AnalysisOptions,
    solver: &mut Solver,
) -> Result<Analysis, AnalysisError> {
    analyze_tokens(moves.iter().map(|&m| Token::Move(m)), options, solver)
}

/// The analyses of the games `ids` of `db` (each checked against its
/// file's theoretical score as [`analyze_game`] does), in the order of
/// `ids`, computed in parallel on rayon's pool: each worker has its own
/// one-thread solver with a table of `2^tt_bits` entries, which the
/// positions of a game share (the values never depend on it). An id that
/// is no game of `db` is left out.
pub fn analyze_games(
    db: &Database,
    ids: &[GameId],
    options: &AnalysisOptions,
    tt_bits: u32,
) -> Vec<(GameId, Result<Analysis, AnalysisError>)> {
    use rayon::prelude::*;
    let solver = || {
        Solver::new(othello_core::solver::SolverOptions {
            threads: 1,
            tt_bits,
        })
    };
    ids.par_iter()
        .map_init(solver, |solver, &id| {
            let view = db.game(id)?;
            let depth = db.file_of(id)?.header().depth();
            Some((id, analyze_game(&view, depth, options, solver)))
        })
        .flatten()
        .collect()
}

/// Black's view of a value for `side`.
fn black_view(value: i32, side: Color) -> i32 {
    if side == Color::Black { value } else { -value }
}

fn analyze_tokens(
    tokens: impl IntoIterator<Item = Token>,
    options: &AnalysisOptions,
    solver: &mut Solver,
) -> Result<Analysis, AnalysisError> {
    if !(2..=8).contains(&options.estimate_depth) {
        return Err(AnalysisError::EstimateDepth(options.estimate_depth));
    }
    if options.empties > 30 {
        return Err(AnalysisError::Empties(options.empties));
    }
    // The positions where a disc is played, with the move and the board
    // after it.
    let mut plays: Vec<(usize, Board8, Square, Board8)> = Vec::new();
    let mut before = Board8::start();
    let replay = replay_with::<Board8, _, _>(tokens, |step| {
        if let Move::Play(sq) = step.mv {
            plays.push((step.index, before, sq, step.board));
        }
        before = step.board;
    });
    if let Some(illegal) = replay.illegal {
        return Err(AnalysisError::Illegal(illegal));
    }
    let last = replay.board;
    let exact_from = u32::from(options.empties);
    let depth = options.estimate_depth;
    // Each exact value is solved once: the position after a move is the
    // next position where a move is made, or its pass (the value negated).
    // The exact part is solved from the end backwards: the value of the
    // move played is then the next position's, known, and the position's
    // own value needs only a null-window test that no move beats it (the
    // cost of a perfect move), or when one does a search above it. The
    // table filled by the later positions serves the earlier ones.
    let mut solved = Solved::default();
    let final_value = if last.is_game_over() || last.empty_count() <= exact_from {
        solved.value(solver, last.player(), last.opponent())
    } else {
        eval::search(last.player(), last.opponent(), depth).score
    };
    let mut moves: Vec<Option<Judged>> = vec![None; plays.len()];
    for (slot, &(index, board, square, after)) in moves.iter_mut().zip(&plays).rev() {
        let empties = board.empty_count();
        if empties > exact_from {
            break;
        }
        let (p, o) = (board.player(), board.opponent());
        // The board after the move, from the opponent's side (who may have
        // to pass: the solver scores it for its owner).
        let played = -solved.value(solver, after.player(), after.opponent());
        let (value, found) = solved.at_least(solver, p, o, played);
        // A move that lost discs gets the best move its search found; the
        // other best moves are not searched (a null-window search per legal
        // move: half the time of an analysis from 24 empties).
        let best = match found {
            Some(mv) if played < value => vec![mv],
            None if played < value => solver.moves_at_least(p, o, value),
            _ => Vec::new(),
        };
        *slot = Some(Judged {
            index,
            color: board.side_to_move(),
            square,
            empties: empties as u8,
            exact: true,
            value,
            played,
            loss: value - played,
            best: best.into_iter().map(Square::new_unchecked).collect(),
        });
    }
    let moves = moves
        .into_iter()
        .zip(plays)
        .map(|(exact, (index, board, square, after))| {
            exact.unwrap_or_else(|| {
                let e = eval::search(board.player(), board.opponent(), depth);
                let played = -eval::search(after.player(), after.opponent(), depth - 1).score;
                Judged {
                    index,
                    color: board.side_to_move(),
                    square,
                    empties: board.empty_count() as u8,
                    exact: false,
                    value: e.score,
                    played,
                    loss: e.score - played,
                    best: e.best_move.map(Square::new_unchecked).into_iter().collect(),
                }
            })
        })
        .collect();
    let ending = if last.is_game_over() {
        Ending::Finished
    } else {
        Ending::Unfinished
    };
    let side = last.side_to_move();
    Ok(Analysis {
        moves,
        ending,
        final_black: black_view(final_value, side),
        theoretical: None,
    })
}

/// The exact values solved so far in one game, by position.
#[derive(Default)]
struct Solved(std::collections::HashMap<(u64, u64), i32>);

impl Solved {
    /// The exact value for the owner of `p` (a side that must pass scores
    /// minus its opponent's value).
    fn value(&mut self, solver: &mut Solver, p: u64, o: u64) -> i32 {
        if let Some(&v) = self.0.get(&(p, o)) {
            return v;
        }
        // The same discs with the other side to move: a pass.
        if let Some(&v) = self.0.get(&(o, p))
            && othello_core::bitboard8::legal_moves(p, o) == 0
        {
            return -v;
        }
        let v = solver.solve(p, o).score;
        self.0.insert((p, o), v);
        v
    }

    /// The exact value for the owner of `p`, known to be at least `low`
    /// (the value of one of its moves): a null-window test that it is not
    /// more, else a search above `low`.
    /// With the value, a best move when the search gives one (when the
    /// value is above `low`).
    fn at_least(&mut self, solver: &mut Solver, p: u64, o: u64, low: i32) -> (i32, Option<u8>) {
        if let Some(&v) = self.0.get(&(p, o)) {
            return (v, None);
        }
        let (v, best) = if solver.solve_window(p, o, low, low + 1) <= low {
            (low, None)
        } else {
            // Fail-soft in (low, 65): exact, every score being below 65.
            solver.solve_window_move(p, o, low, 65)
        };
        self.0.insert((p, o), v);
        (v, best)
    }
}

fn color_name<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(c)
}

fn square_name<S: serde::Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(&sq.name(othello_core::Size::Eight))
}

fn square_names<S: serde::Serializer>(sqs: &[Square], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(
        sqs.iter()
            .map(|sq| sq.name(othello_core::Size::Eight).to_string()),
    )
}
