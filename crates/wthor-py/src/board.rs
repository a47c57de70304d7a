//! `wthor.Board` (8x8 and 10x10) and `wthor.solve` (8x8).

use othello_core::notation::parse_transcript;
use othello_core::solver::{MAX_THREADS, Solver, SolverOptions};
use othello_core::symmetry::Symmetry;
use othello_core::{Bitboard, Board, Color, Move, Size, Square};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::errors::{illegal_move, notation_error};

/// A board of either size: the rules crate's.
use othello_core::position::{AnyBoard, AnyBoardError};

/// Runs `$e` with `$b` bound to the board of either size.
macro_rules! on {
    ($board:expr, $b:ident => $e:expr) => {
        match $board {
            AnyBoard::Eight($b) => $e,
            AnyBoard::Ten($b) => $e,
        }
    };
}

/// A set of squares as their names, in square order.
fn names<B: Bitboard>(bits: B, size: Size) -> Vec<String> {
    bits.squares().map(|s| s.name(size).to_string()).collect()
}

/// One move from text (`"f5"`, `"pass"`, `"pa"`, `"--"`) or a square index.
fn parse_move(arg: &Bound<'_, PyAny>, size: Size) -> PyResult<Move> {
    if let Ok(i) = arg.extract::<u8>() {
        return Square::new(i, size)
            .map(Move::Play)
            .ok_or_else(|| notation_error(format!("square index {i} is off the {size} board")));
    }
    let text: String = arg
        .extract()
        .map_err(|_| PyTypeError::new_err("a move is a square name, \"pass\", or an index"))?;
    match parse_transcript(&text, size)
        .map_err(notation_error)?
        .as_slice()
    {
        [m] => Ok(*m),
        _ => Err(notation_error(format!("expected one move, got {text:?}"))),
    }
}

fn play<B: Board + Into<AnyBoard>>(b: &B, mv: Move) -> PyResult<AnyBoard> {
    b.play(mv).map(Into::into).map_err(illegal_move)
}

/// An Othello position, 8x8 or 10x10: the discs and the side to move.
/// Immutable: `play` returns a new board.
#[pyclass(frozen, eq, hash, name = "Board", module = "wthor")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyBoard(AnyBoard);

/// One of the disc sets of a board.
#[derive(Clone, Copy)]
enum Which {
    Black,
    White,
    Player,
    Opponent,
}

impl Which {
    fn of<B: Board>(self, b: &B) -> B::Bits {
        match self {
            Which::Black => b.discs(Color::Black),
            Which::White => b.discs(Color::White),
            Which::Player => b.player(),
            Which::Opponent => b.opponent(),
        }
    }
}

impl PyBoard {
    /// A disc set as a Python-sized integer.
    fn set(&self, which: Which) -> u128 {
        match &self.0 {
            AnyBoard::Eight(b) => u128::from(which.of(b)),
            AnyBoard::Ten(b) => which.of(b),
        }
    }

    fn size(&self) -> Size {
        self.0.size()
    }

    fn obf_of(text: &str) -> PyResult<AnyBoard> {
        AnyBoard::from_obf(text).map_err(|e| notation_error(format!("bad OBF position: {e}")))
    }
}

fn size_of(side: u8) -> PyResult<Size> {
    Size::from_side(side).ok_or_else(|| {
        PyValueError::new_err(format!("size={side}: boards are 8 or 10 squares wide"))
    })
}

#[pymethods]
impl PyBoard {
    /// A board from an OBF position (64 or 100 squares, `X` black, `O`
    /// white, `-` empty, then the side to move), or the start position of
    /// `size` (8 or 10) when `obf` is None.
    #[new]
    #[pyo3(signature = (obf = None, size = 8))]
    fn new(obf: Option<&str>, size: u8) -> PyResult<PyBoard> {
        match obf {
            Some(text) => Ok(PyBoard(PyBoard::obf_of(text)?)),
            None => PyBoard::start(size),
        }
    }

    /// The start position, black to move.
    #[staticmethod]
    #[pyo3(signature = (size = 8))]
    fn start(size: u8) -> PyResult<PyBoard> {
        Ok(PyBoard(AnyBoard::start(size_of(size)?)))
    }

    /// A board from an OBF position.
    #[staticmethod]
    fn from_obf(obf: &str) -> PyResult<PyBoard> {
        Ok(PyBoard(PyBoard::obf_of(obf)?))
    }

    /// The position after a transcript (`"f5d6c3"`, passes optional) played
    /// from the start.
    #[staticmethod]
    #[pyo3(signature = (transcript, size = 8))]
    fn from_transcript(transcript: &str, size: u8) -> PyResult<PyBoard> {
        match AnyBoard::after_transcript(transcript, size_of(size)?) {
            Ok(board) => Ok(PyBoard(board)),
            Err(e @ AnyBoardError::Illegal { .. }) => Err(illegal_move(e)),
            Err(e) => Err(notation_error(format!("bad transcript: {e}"))),
        }
    }

    /// 8 or 10.
    #[getter(size)]
    fn side(&self) -> u8 {
        self.size().side()
    }

    /// `"black"` or `"white"`.
    #[getter]
    fn side_to_move(&self) -> &'static str {
        match on!(self.0, b => b.side_to_move()) {
            Color::Black => "black",
            Color::White => "white",
        }
    }

    /// Black's discs as a bit set (bit `side × row + column`, a1 = bit 0).
    #[getter]
    fn black(&self) -> u128 {
        self.set(Which::Black)
    }

    /// White's discs as a bit set.
    #[getter]
    fn white(&self) -> u128 {
        self.set(Which::White)
    }

    /// The side to move's discs as a bit set.
    #[getter]
    fn player(&self) -> u128 {
        self.set(Which::Player)
    }

    /// The other side's discs as a bit set.
    #[getter]
    fn opponent(&self) -> u128 {
        self.set(Which::Opponent)
    }

    /// `(black discs, white discs)`.
    fn counts(&self) -> (u32, u32) {
        on!(self.0, b => (b.count(Color::Black), b.count(Color::White)))
    }

    /// The number of empty squares.
    #[getter]
    fn empties(&self) -> u32 {
        on!(self.0, b => b.empty_count())
    }

    /// The legal moves of the side to move as square names, in square
    /// order (empty when it must pass or the game is over).
    fn legal_moves(&self) -> Vec<String> {
        let size = self.size();
        on!(self.0, b => names(b.legal_moves(), size))
    }

    /// Whether the side to move has no move but the other side has one.
    fn must_pass(&self) -> bool {
        on!(self.0, b => b.must_pass())
    }

    /// Whether neither side can move.
    fn is_game_over(&self) -> bool {
        on!(self.0, b => b.is_game_over())
    }

    /// The board after `move`: a square name (`"f5"`), a square index, or
    /// `"pass"`. Raises `IllegalMoveError` when it is not legal.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        let mv = parse_move(r#move, self.size())?;
        Ok(PyBoard(on!(&self.0, b => play(b, mv))?))
    }

    /// The board after the side to move passes (legal only when it has no
    /// move and the other side has one).
    fn pass_(&self) -> PyResult<PyBoard> {
        Ok(PyBoard(on!(&self.0, b => play(b, Move::Pass))?))
    }

    /// The image under symmetry `k` (0–7): transpose when `k & 4`, then
    /// reverse the columns when `k & 1`, then the rows when `k & 2`.
    fn symmetry(&self, k: usize) -> PyResult<PyBoard> {
        let sym = *Symmetry::ALL
            .get(k)
            .ok_or_else(|| PyValueError::new_err(format!("symmetry {k}: expected 0 to 7")))?;
        Ok(PyBoard(on!(&self.0, b => sym.board(b).into())))
    }

    /// The 8 symmetric images, symmetry 0 (the board itself) first.
    fn symmetries(&self) -> Vec<PyBoard> {
        Symmetry::ALL
            .iter()
            .map(|sym| PyBoard(on!(&self.0, b => sym.board(b).into())))
            .collect()
    }

    /// The final score `(black, white)` under the WTHOR rule (empties to
    /// the winner, a draw splits them).
    fn wthor_score(&self) -> (u32, u32) {
        on!(self.0, b => b.wthor_score())
    }

    /// The OBF text of the board.
    fn obf(&self) -> String {
        on!(self.0, b => b.to_obf())
    }

    /// The board drawn as SVG (the picture of `wthor show --svg`): `size`
    /// its width and height in pixels (default 440 on 8x8, 536 on 10x10
    /// with the coordinates), `coordinates` the letters and numbers
    /// around it, `legal` dots on the legal moves of the side that plays
    /// next, `last_move` a square (name or index) whose disc gets the
    /// red dot of the last move, `title` the picture's `<title>`.
    #[pyo3(name = "to_svg", signature = (size = None, coordinates = true, legal = false, last_move = None, title = None))]
    fn svg(
        &self,
        size: Option<u32>,
        coordinates: bool,
        legal: bool,
        last_move: Option<&Bound<'_, PyAny>>,
        title: Option<String>,
    ) -> PyResult<String> {
        if size == Some(0) {
            return Err(PyValueError::new_err(
                "size=0: a picture is 1 pixel wide or more",
            ));
        }
        let last = match last_move {
            None => None,
            Some(arg) => match parse_move(arg, self.size())? {
                Move::Play(sq) => Some(sq),
                Move::Pass => {
                    return Err(PyValueError::new_err("last_move is a square, not a pass"));
                }
            },
        };
        let position = on!(&self.0, b => wthor_draw::Position::from_board(b))
            .with_last_move(last)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let options = wthor_draw::Options {
            size,
            coordinates,
            legal,
            title,
            ..wthor_draw::Options::default()
        };
        Ok(wthor_draw::svg(&position, &options))
    }

    /// The SVG picture with the default options: how Jupyter shows a board.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(None, true, false, None, None)
    }

    /// An ASCII diagram.
    fn __str__(&self) -> String {
        on!(self.0, b => b.diagram().to_string())
    }

    fn __repr__(&self) -> String {
        format!("Board({:?})", self.obf())
    }

    /// The midgame search's judgement of an 8x8 position (``wthor solve``
    /// past the exact limit): its value for the side to move, best move
    /// and line, within ``depth`` plies, ``nodes`` or ``time_ms``
    /// milliseconds (the first reached stops it; none given: 12 plies, so
    /// that the value repeats); a depth at least the empties gives the
    /// exact score (``exact=True``). ``all_moves`` adds every legal move's
    /// value. The GIL is released while searching; Ctrl-C (a signal the
    /// interpreter handles) stops the search and raises
    /// ``KeyboardInterrupt``. A 10x10 board or a limit out of range raises
    /// ``ValueError``.
    #[pyo3(signature = (depth = None, nodes = None, time_ms = None, all_moves = false))]
    fn evaluate(
        &self,
        py: Python<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        time_ms: Option<u64>,
        all_moves: bool,
    ) -> PyResult<PyEvaluation> {
        use othello_core::midgame::{self, Limits, Query};
        let AnyBoard::Eight(b) = self.0 else {
            return Err(PyValueError::new_err(
                "evaluate() judges 8x8 positions: there is no 10x10 evaluation",
            ));
        };
        if time_ms == Some(0) {
            return Err(PyValueError::new_err("time_ms=0: give at least 1 ms"));
        }
        let mut limits = Limits {
            depth,
            nodes,
            time: time_ms.map(std::time::Duration::from_millis),
        };
        if limits == Limits::default() {
            limits.depth = Some(midgame::DEFAULT_DEPTH);
        }
        let mut query = Query::from(limits);
        if all_moves {
            query = query.all_moves();
        }
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let query = query.stop(std::sync::Arc::clone(&stop));
        let a = interruptible(py, &stop, || {
            midgame::analyze(b.player(), b.opponent(), query)
        })?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let name = |sq: u8| Square::new_unchecked(sq).name(Size::Eight).to_string();
        Ok(PyEvaluation {
            value: a.value,
            exact: a.exact,
            best_move: a.best_move.map(name),
            pv: a
                .pv
                .iter()
                .map(|m| match m {
                    Move::Play(sq) => sq.name(Size::Eight).to_string(),
                    Move::Pass => "pass".to_owned(),
                })
                .collect(),
            depth: a.depth,
            nodes: a.nodes,
            moves: a
                .moves
                .iter()
                .map(|m| (name(m.square), m.value, m.exact))
                .collect(),
        })
    }
}

/// The result of `Board.evaluate`.
#[pyclass(frozen, get_all, name = "Evaluation", module = "wthor")]
#[derive(Clone, Debug)]
pub struct PyEvaluation {
    /// The value for the side to move, in discs: the final disc difference
    /// it expects (exact when `exact`).
    value: f32,
    /// Whether `value` is the exact score (solved to the end).
    exact: bool,
    /// The best move found, None when the side must pass or the game is over.
    best_move: Option<String>,
    /// The principal variation (square names, "pass" for a pass).
    pv: Vec<String>,
    /// The plies of the last completed iteration (the empties when exact).
    depth: u32,
    /// Nodes searched.
    nodes: u64,
    /// With `all_moves=True`, every legal move as (square, value, exact),
    /// best first; else empty.
    moves: Vec<(String, f32, bool)>,
}

#[pymethods]
impl PyEvaluation {
    fn __repr__(&self) -> String {
        format!(
            "Evaluation(value={:+.2}, exact={}, best_move={}, depth={}, nodes={})",
            self.value,
            if self.exact { "True" } else { "False" },
            // As Python writes it: 'd3' or None.
            self.best_move
                .as_ref()
                .map_or_else(|| "None".to_owned(), |m| format!("'{m}'")),
            self.depth,
            self.nodes
        )
    }
}

/// The exact result of `solve`.
#[pyclass(frozen, get_all, name = "Solution", module = "wthor")]
#[derive(Clone, Debug)]
pub struct PySolution {
    /// The final disc difference for the side to move under perfect play
    /// (empties to the winner).
    score: i32,
    /// The moves achieving it (all of them, or one with `all_best=False`),
    /// as square names in square order; empty when the side to move must
    /// pass or the game is over.
    best_moves: Vec<String>,
    /// The nodes searched.
    nodes: u64,
}

#[pymethods]
impl PySolution {
    fn __repr__(&self) -> String {
        format!(
            "Solution(score={}, best_moves={:?}, nodes={})",
            self.score, self.best_moves, self.nodes
        )
    }
}

/// Solves an 8x8 position exactly: its score for the side to move under
/// perfect play and the moves achieving it. `position` is an OBF string or
/// a `Board`. `threads` defaults to every core; `tt_bits` sizes the
/// transposition table (2^bits entries of 32 bytes, bits from 4 to 32: a
/// `ValueError` outside, a `MemoryError` when the memory cannot be had).
/// The GIL is released while searching.
#[pyfunction]
#[pyo3(signature = (position, threads = None, tt_bits = 20, all_best = true))]
pub fn solve(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    threads: Option<usize>,
    tt_bits: u32,
    all_best: bool,
) -> PyResult<PySolution> {
    let board = match position.cast::<PyBoard>() {
        Ok(b) => b.get().0,
        Err(_) => {
            let text: String = position
                .extract()
                .map_err(|_| PyTypeError::new_err("solve() expects an OBF string or a Board"))?;
            PyBoard::obf_of(&text)?
        }
    };
    let AnyBoard::Eight(b) = board else {
        return Err(PyValueError::new_err(
            "solve() solves 8x8 positions; this one is 10x10",
        ));
    };
    let mut options = SolverOptions {
        tt_bits,
        ..SolverOptions::default()
    };
    if let Some(t) = threads {
        if !(1..=MAX_THREADS).contains(&t) {
            return Err(PyValueError::new_err(format!(
                "threads={t}: give 1 to {MAX_THREADS}, or None for all cores"
            )));
        }
        options.threads = t;
    }
    let mut solver = match Solver::try_new(options) {
        Ok(solver) => solver,
        Err(e @ othello_core::solver::SolverError::TableSize(_)) => {
            return Err(PyValueError::new_err(e.to_string()));
        }
        Err(e) => return Err(pyo3::exceptions::PyMemoryError::new_err(e.to_string())),
    };
    let (score, moves, nodes) = py.detach(|| {
        let (score, moves) = if all_best {
            solver.best_moves(b.player(), b.opponent())
        } else {
            let s = solver.solve(b.player(), b.opponent());
            (s.score, s.best_move.into_iter().collect())
        };
        (score, moves, solver.nodes())
    });
    Ok(PySolution {
        score,
        best_moves: moves
            .into_iter()
            .map(|m| Square::new_unchecked(m).name(Size::Eight).to_string())
            .collect(),
        nodes,
    })
}

/// `f()` on another thread, the GIL released, while this one checks the
/// interpreter's signals every 20 ms: on Ctrl-C `stop` is raised (the
/// search `f` runs polls it and returns soon) and the signal's exception
/// (``KeyboardInterrupt``) is returned once `f` has ended.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &std::sync::atomic::AtomicBool,
    f: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    use std::sync::atomic::Ordering;
    use std::time::Duration;
    std::thread::scope(|scope| {
        let handle = scope.spawn(f);
        let mut interrupted = None;
        loop {
            py.detach(|| {
                for _ in 0..20 {
                    if handle.is_finished() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            });
            if handle.is_finished() {
                break;
            }
            if interrupted.is_none()
                && let Err(e) = py.check_signals()
            {
                stop.store(true, Ordering::Relaxed);
                interrupted = Some(e);
            }
        }
        let value = handle
            .join()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the search panicked"))?;
        match interrupted {
            Some(e) => Err(e),
            None => Ok(value),
        }
    })
}
