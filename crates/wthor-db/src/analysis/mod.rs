//! The analysis of one 8x8 game: every move judged, exactly from a number
//! of empty squares to the end, estimated before.
//!
//! From [`AnalysisOptions::empties`] empty squares (20 by default) every
//! position where a move is made is solved by the exact solver: its
//! perfect-play value for the side to move, every move reaching it, the
//! value of the move played and the discs it threw away (its *loss*: 0 for
//! a perfect move). Before that, the midgame search
//! ([`othello_core::midgame`]) at [`AnalysisOptions::estimate_depth`]
//! plies (18 by default) gives the same fields as an **estimate**
//! ([`Judged::exact`] is false, [`Judged::depth`] the search's plies): the
//! value of the position is the search's, the value of the move played
//! minus that of a search one ply shallower from the position after it.
//! Searched alone, that child can come out above the value the position's
//! own search gave it (probcut and the tables cut differently in the two
//! searches: in a tenth of the moves of 2024–2025 games, by 1.5 discs on
//! average), so the move's value is capped at the position's and the
//! search's own best move loses nothing: no move gains, and only moves
//! that the search finds worse lose discs. Passes are not moves: they are
//! not judged.
//!
//! **Estimates repeat.** The midgame search's tables are cleared before
//! each search (they are small: 2^16 entries, cleared in microseconds),
//! so an estimate depends on its position and depth only, never on the
//! positions searched before: an analysis gives the same values alone, in
//! a batch, resumed or on another machine (tested). A time limit
//! ([`AnalysisOptions::estimate_time`]) gives up that: the depth reached
//! depends on the machine and its load.
//!
//! The solves of one game share the solver's transposition table (the
//! caller's [`Analyzer`]), so each position after the first costs little; a
//! value never depends on the table, only the time does (tested against a
//! cold solver). When the analysis reaches the file's depth, the stored
//! theoretical score is checked there ([`Analysis::theoretical`]: the audit
//! of `wthor validate --solve`, which the analysis gets for free).
//!
//! ```
//! use othello_core::solver::SolverOptions;
//! use wthor_db::analysis::{AnalysisOptions, Analyzer, analyze_moves};
//! use othello_core::notation::parse_transcript;
//! use othello_core::Size;
//!
//! // The Tiger: five moves, all estimated (55 empties is far from 20).
//! let moves = parse_transcript("f5d6c3d3c4", Size::Eight).unwrap();
//! let mut analyzer = Analyzer::new(SolverOptions { threads: 1, tt_bits: 16 }).unwrap();
//! let options = AnalysisOptions { estimate_depth: 8, ..AnalysisOptions::default() };
//! let a = analyze_moves(&moves, &options, &mut analyzer).unwrap();
//! assert_eq!(a.moves.len(), 5);
//! assert!(a.moves.iter().all(|m| !m.exact && m.depth == Some(8) && m.loss >= 0));
//! assert_eq!(a.black_line().len(), 6);
//! assert_eq!(a.estimate.to_string(), "midgame search, depth 8");
//! ```

mod accuracy;
mod record;
mod report;

pub use accuracy::{
    AccuracyOptions, AnalysisLog, Blunder, LogReadError, MatchedLogs, PlayerAccuracy, accuracy,
    read_analyses, read_matched, read_selected, worst_moves,
};
pub use record::{GameAnalysis, MoveLoss, OLD_ESTIMATES, Side};
pub use report::Report;

use std::ops::RangeInclusive;
use std::time::Duration;

use othello_core::midgame::{Engine, EngineOptions, Limits, MidgameError};
use othello_core::replay::{IllegalMove, Token, replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Color, Move, Square};
use serde::{Deserialize, Serialize};
use wthor_format::{BoardSize, GameView};

use crate::verify::{TheoryCheck, check_theoretical};
use crate::{Database, GameId};

/// The plies of the estimate search by default: the depth at which the
/// estimates of a whole game take about a second (one thread, release
/// build, games of 2024–2025 drawn at random, `benches/analyze.rs`, on
/// the CPU, 60 games, another process beside): a median of 1.04 s (mean
/// 1.15 s) at 18 plies since the leaves of 10 empties or fewer are solved
/// (0.85 s before; 16 plies 0.46 s before, about 0.6 s since). (16 was
/// chosen first, at 0.84 s, before the midgame's cheaper ordering
/// searches; 18 then took 1.9 s.)
pub const DEFAULT_ESTIMATE_DEPTH: u32 = 18;

/// The estimate depths an analysis accepts. At least 2: the move played is
/// judged one ply shallower. At most 20: the time about doubles every two
/// plies (3.1 s a game as a median at 20, 4.1 s mean, 20 games), and at 20
/// plies the last positions estimated by default (21 empties) are
/// searched to within a ply of the end; a larger `empties` is the way to
/// values that deep.
pub const ESTIMATE_DEPTHS: RangeInclusive<u32> = 2..=20;

/// The midgame search's tables of an [`Analyzer`]: 2^16 entries each,
/// cleared before every search (a larger table was slower: 0.58 s a game
/// at 2^18 entries against 0.52 s, 14 plies).
const ENGINE_TT_BITS: u32 = 16;

/// The largest exact solver table of an analysis: 2^21 entries (64 MiB),
/// reached from 19 empties.
const MAX_TT_BITS: u32 = 21;

/// How a game is analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Positions with at most this many empty squares are solved exactly
    /// (default 20; each more empty square costs about twice the time).
    pub empties: u8,
    /// Plies of the midgame search that estimates the earlier positions
    /// (default [`DEFAULT_ESTIMATE_DEPTH`], within [`ESTIMATE_DEPTHS`]).
    pub estimate_depth: u32,
    /// Instead of a depth, each estimate search stops after this time
    /// (its deepest even iteration completed then): deeper where time
    /// allows, but **not repeatable** (the depth reached depends on the
    /// machine and its load). An estimated move costs one search, two when
    /// the move played is not the search's (the position after it too).
    pub estimate_time: Option<Duration>,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            empties: 20,
            estimate_depth: DEFAULT_ESTIMATE_DEPTH,
            estimate_time: None,
        }
    }
}

impl AnalysisOptions {
    /// The search that estimates the moves before the exact part, as
    /// [`Analysis::estimate`] and the results logs name it.
    #[must_use]
    pub fn estimator(&self) -> Estimator {
        match self.estimate_time {
            Some(t) => Estimator {
                search: Search::Midgame,
                depth: None,
                time_ms: Some(u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            },
            None => Estimator {
                search: Search::Midgame,
                depth: Some(self.estimate_depth),
                time_ms: None,
            },
        }
    }

    /// The exact solver's table for these options: sized for the exact
    /// part ([`SolverOptions::table_bits_for`] `empties`), at most 2^21
    /// entries (64 MiB). The values never depend on it, only the time.
    #[must_use]
    pub fn table_bits(&self) -> u32 {
        SolverOptions::table_bits_for(u32::from(self.empties), MAX_TT_BITS)
    }

    /// The exact solver of the analysis of one game with these options:
    /// the one choice of `wthor analyze GAME`, the server's game page and
    /// Python's `Game.analyze`. `threads` solver threads (`None`: one per
    /// available core; the server gives its configured number, 1 by
    /// default, its queries being its parallelism) and
    /// [`table_bits`](Self::table_bits).
    ///
    /// ```
    /// use wthor_db::analysis::AnalysisOptions;
    /// let options = AnalysisOptions { empties: 14, ..AnalysisOptions::default() };
    /// let solver = options.one_game_solver(Some(1));
    /// assert_eq!((solver.threads, solver.tt_bits), (1, 16));
    /// assert_eq!(AnalysisOptions::default().one_game_solver(Some(2)).tt_bits, 21);
    /// ```
    #[must_use]
    pub fn one_game_solver(&self, threads: Option<usize>) -> SolverOptions {
        SolverOptions {
            threads: threads.unwrap_or_else(crate::verify::cores),
            tt_bits: self.table_bits(),
        }
    }

    /// The options checked.
    ///
    /// # Errors
    /// [`AnalysisError::EstimateDepth`], [`AnalysisError::EstimateTime`],
    /// [`AnalysisError::Empties`].
    pub fn check(&self) -> Result<(), AnalysisError> {
        if !ESTIMATE_DEPTHS.contains(&self.estimate_depth) {
            return Err(AnalysisError::EstimateDepth(self.estimate_depth));
        }
        if self.estimate_time.is_some_and(|t| t.is_zero()) {
            return Err(AnalysisError::EstimateTime);
        }
        if self.empties > 30 {
            return Err(AnalysisError::Empties(self.empties));
        }
        Ok(())
    }

    /// The limits of the search of a position (`shallower`: of the
    /// position after its move, one ply less).
    fn limits(&self, shallower: bool) -> Limits {
        match self.estimate_time {
            Some(t) => Limits::time(t),
            None => Limits::depth(self.estimate_depth - u32::from(shallower)),
        }
    }
}

/// The search that made the estimates of an analysis: in JSON
/// `{"search": "midgame", "depth": 16}`, or `{"search": "midgame",
/// "time_ms": 100}` for a timed one. A results log line without one was
/// written before the midgame search (issue 37): its estimates were the
/// old 2-to-8-ply evaluation search's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Estimator {
    /// The search.
    pub search: Search,
    /// Its plies, for a search of fixed depth (repeatable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Its time per search, in milliseconds, for a timed one (not
    /// repeatable).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

/// The searches that estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Search {
    /// [`othello_core::midgame`]'s search.
    Midgame,
}

impl std::fmt::Display for Estimator {
    /// `midgame search, depth 16`, `midgame search, 100 ms a search`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.search {
            Search::Midgame => f.write_str("midgame search")?,
        }
        if let Some(d) = self.depth {
            write!(f, ", depth {d}")?;
        }
        if let Some(ms) = self.time_ms {
            write!(f, ", {ms} ms a search")?;
        }
        Ok(())
    }
}

/// The searches of an analysis: the exact solver of the endgame part (its
/// table shared by the positions of a game) and the midgame search of the
/// estimates (small tables, cleared before each search). Make one per
/// thread and reuse it from game to game: [`analyze_games`] makes one per
/// worker.
#[derive(Debug)]
pub struct Analyzer {
    solver: Solver,
    engine: Engine,
}

impl Analyzer {
    /// The searches, the solver with `solver`'s threads and table.
    ///
    /// # Errors
    /// [`MidgameError::Table`] when a table size is out of range or its
    /// memory cannot be had.
    pub fn new(solver: SolverOptions) -> Result<Analyzer, MidgameError> {
        let solver = Solver::try_new(solver)?;
        let engine = Engine::new(EngineOptions {
            tt_bits: ENGINE_TT_BITS,
            solver_tt_bits: ENGINE_TT_BITS,
        })?;
        Ok(Analyzer { solver, engine })
    }

    /// The searches of the analysis of one game with `options`: the
    /// solver of [`AnalysisOptions::one_game_solver`] (`threads`: `None`
    /// for one per available core).
    ///
    /// # Errors
    /// [`MidgameError::Table`] when the table's memory cannot be had.
    pub fn for_one_game(
        options: &AnalysisOptions,
        threads: Option<usize>,
    ) -> Result<Analyzer, MidgameError> {
        Analyzer::new(options.one_game_solver(threads))
    }

    /// The exact solver (its table keeps what the last game solved).
    pub fn solver(&mut self) -> &mut Solver {
        &mut self.solver
    }

    /// The midgame search's estimate of the position where the owner of
    /// `p` is to move: its value rounded to whole discs, its best move and
    /// the plies searched, from cleared tables.
    fn estimate(
        &mut self,
        p: u64,
        o: u64,
        limits: Limits,
    ) -> Result<(i32, Option<u8>, u32), AnalysisError> {
        self.engine.clear();
        let a = self.engine.analyze(p, o, limits)?;
        // |value| <= 64 (the search's values are within the discs).
        let value = (a.value.round() as i32).clamp(-64, 64);
        Ok((value, a.best_move, a.depth))
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
    /// For an estimate, the plies of the search that valued the position:
    /// the estimate depth, or with a time limit the depth reached; the
    /// empties when the search reached the end of the game (a depth at
    /// least the empties, with a small `empties`: the value is then exact,
    /// but the move is counted with the estimates, its loss from a search
    /// one ply shallower; with a time limit, also the solver's selective
    /// searches near the end). `None` (left out of JSON) for an exact
    /// value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
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
    /// The plies of the estimate of the final position, `None` (left out
    /// of JSON) when `final_black` is exact.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_depth: Option<u32>,
    /// The search that made the estimates (those moves whose `exact` is
    /// false; there may be none).
    pub estimate: Estimator,
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
    /// An estimate depth out of [`ESTIMATE_DEPTHS`].
    #[error("the estimate depth is {0}: it must be from 2 to 20")]
    EstimateDepth(u32),
    /// An estimate time of zero.
    #[error("an estimate time of 0: at least 1 ms")]
    EstimateTime,
    /// The midgame search's tables could not be had (or a search that
    /// cannot run, which checked options never ask for).
    #[error("the estimate search")]
    Search(#[from] MidgameError),
    /// Exact solves from too many empty squares.
    #[error("exact from {0} empties: at most 30 (each more empty square doubles the time)")]
    Empties(u8),
}

/// Analyses the game `view` (its file's theoretical score, at `depth`
/// empties, checked when reached).
///
/// # Errors
/// A 10x10 game; a move that is no square or illegal; options out of
/// range ([`AnalysisOptions::check`]).
pub fn analyze_game(
    view: &GameView<'_>,
    depth: u8,
    options: &AnalysisOptions,
    analyzer: &mut Analyzer,
) -> Result<Analysis, AnalysisError> {
    if view.board_size() != BoardSize::Eight {
        return Err(AnalysisError::TenByTen);
    }
    let mut a = analyze_tokens(wthor_tokens::<Board8>(view.moves_raw()), options, analyzer)?;
    if options.empties >= depth {
        a.theoretical = Some(check_theoretical(
            view.moves_raw(),
            depth,
            view.theoretical_score(),
            &mut analyzer.solver,
            None,
        ));
    }
    Ok(a)
}

/// Analyses the 8x8 game of `moves` from the start (passes may be given or
/// left out).
///
/// # Errors
/// An illegal move; options out of range ([`AnalysisOptions::check`]).
pub fn analyze_moves(
    moves: &[Move],
    options: &AnalysisOptions,
    analyzer: &mut Analyzer,
) -> Result<Analysis, AnalysisError> {
    analyze_tokens(moves.iter().map(|&m| Token::Move(m)), options, analyzer)
}

/// The analyses of the games `ids` of `db` (each checked against its
/// file's theoretical score as [`analyze_game`] does), in the order of
/// `ids`, computed in parallel on rayon's pool: each worker has its own
/// [`Analyzer`], a one-thread solver with a table of `2^tt_bits` entries,
/// which the positions of a game share (the values never depend on it).
/// An id that is no game of `db` is left out; a worker whose tables
/// cannot be had gives [`AnalysisError::Search`] for its games.
pub fn analyze_games(
    db: &Database,
    ids: &[GameId],
    options: &AnalysisOptions,
    tt_bits: u32,
) -> Vec<(GameId, Result<Analysis, AnalysisError>)> {
    use rayon::prelude::*;
    let analyzer = || {
        Analyzer::new(SolverOptions {
            threads: 1,
            tt_bits,
        })
    };
    ids.par_iter()
        .map_init(analyzer, |analyzer, &id| {
            let view = db.game(id)?;
            let depth = db.file_of(id)?.header().depth();
            let a = match analyzer {
                Ok(analyzer) => analyze_game(&view, depth, options, analyzer),
                Err(e) => Err(AnalysisError::Search(e.clone())),
            };
            Some((id, a))
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
    analyzer: &mut Analyzer,
) -> Result<Analysis, AnalysisError> {
    options.check()?;
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
    // Each exact value is solved once: the position after a move is the
    // next position where a move is made, or its pass (the value negated).
    // The exact part is solved from the end backwards: the value of the
    // move played is then the next position's, known, and the position's
    // own value needs only a null-window test that no move beats it (the
    // cost of a perfect move), or when one does a search above it. The
    // table filled by the later positions serves the earlier ones.
    let mut solved = Solved::default();
    let (final_value, final_depth) = if last.is_game_over() || last.empty_count() <= exact_from {
        let v = solved.value(&mut analyzer.solver, last.player(), last.opponent());
        (v, None)
    } else {
        let (v, _, d) = analyzer.estimate(last.player(), last.opponent(), options.limits(false))?;
        (v, Some(d))
    };
    let mut moves: Vec<Option<Judged>> = vec![None; plays.len()];
    for (slot, &(index, board, square, after)) in moves.iter_mut().zip(&plays).rev() {
        let empties = board.empty_count();
        if empties > exact_from {
            break;
        }
        let solver = &mut analyzer.solver;
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
            depth: None,
            value,
            played,
            loss: value - played,
            best: best.into_iter().map(Square::new_unchecked).collect(),
        });
    }
    let mut judged = Vec::with_capacity(plays.len());
    for (exact, (index, board, square, after)) in moves.into_iter().zip(plays) {
        if let Some(j) = exact {
            judged.push(j);
            continue;
        }
        let (value, best, depth) =
            analyzer.estimate(board.player(), board.opponent(), options.limits(false))?;
        // The search's own move loses nothing; another's value is the
        // position after it, for the opponent (the search passes for a
        // side that must), one ply shallower, capped at the position's
        // (see the module's docs).
        let played = if best == Some(square.index() as u8) {
            value
        } else {
            let (after_value, _, _) =
                analyzer.estimate(after.player(), after.opponent(), options.limits(true))?;
            (-after_value).min(value)
        };
        judged.push(Judged {
            index,
            color: board.side_to_move(),
            square,
            empties: board.empty_count() as u8,
            exact: false,
            depth: Some(depth),
            value,
            played,
            loss: value - played,
            best: best.map(Square::new_unchecked).into_iter().collect(),
        });
    }
    let ending = if last.is_game_over() {
        Ending::Finished
    } else {
        Ending::Unfinished
    };
    let side = last.side_to_move();
    Ok(Analysis {
        moves: judged,
        ending,
        final_black: black_view(final_value, side),
        final_depth,
        estimate: options.estimator(),
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
