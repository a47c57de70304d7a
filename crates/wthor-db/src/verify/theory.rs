//! The theoretical score of a game record checked with the exact solver:
//! replay to the header's depth, solve (through the cache on 8x8), compare.

use std::time::Instant;

use othello_core::replay::{Reach, replay_to_empties};
use othello_core::solver::{GenericSolver, Solver};
use othello_core::{Board, Board8, Board10, Color, Size, Square};
use serde::{Deserialize, Serialize};

use wthor_format::{BoardSize, GameFile, GameView};

use crate::cache::SolveCache;

/// An exact result for one position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Solved {
    /// Final disc difference for the side to move (empties to the winner).
    pub score: i32,
    /// A best move, when the solver was run (not for cache hits) and the
    /// side to move has a move.
    pub best_move: Option<u8>,
    /// Nodes searched (0 for a cache hit).
    pub nodes: u64,
    /// Whether the score came from the cache.
    pub cached: bool,
    /// Wall-clock seconds spent.
    pub seconds: f64,
}

/// Solves `(p, o)` (side to move, opponent), looking in `cache` first and
/// recording new results there.
///
/// With `guess`, a claimed exact score (e.g. from a stored theoretical
/// score), a search in the window `(guess - 1, guess + 1)` comes first:
/// exact scores are even, so it proves `guess` exact (about a quarter fewer
/// nodes than a full solve on game positions at 24 empties, and no best
/// move), or else a full solve follows.
pub fn solve_cached(
    solver: &mut Solver,
    cache: Option<&SolveCache>,
    p: u64,
    o: u64,
    guess: Option<i32>,
) -> Solved {
    let t = Instant::now();
    if let Some(score) = cache.and_then(|c| c.get(p, o)) {
        return Solved {
            score,
            best_move: None,
            nodes: 0,
            cached: true,
            seconds: t.elapsed().as_secs_f64(),
        };
    }
    let before = solver.nodes();
    let proved = guess
        .filter(|g| (-64..=64).contains(g) && g % 2 == 0)
        .filter(|&g| solver.solve_window(p, o, g - 1, g + 1) == g);
    let (score, best_move) = match proved {
        Some(g) => (g, None),
        None => {
            let s = solver.solve(p, o);
            (s.score, s.best_move)
        }
    };
    if let Some(c) = cache {
        c.insert(p, o, score);
    }
    Solved {
        score,
        best_move,
        nodes: solver.nodes() - before,
        cached: false,
        seconds: t.elapsed().as_secs_f64(),
    }
}

/// The verdict on a stored theoretical score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TheoryStatus {
    /// The stored value is the solver's.
    Ok,
    /// The stored value differs from the solver's.
    Mismatch,
    /// The stored value exceeds the squares of the board (solved anyway).
    Impossible,
    /// The record ends (finished or unfinished) before the depth.
    Short,
    /// A move before the depth is illegal.
    Illegal,
    /// Not solved: a 10x10 game deeper than [`MAX_10X10_EMPTIES`].
    Unavailable,
}

impl TheoryStatus {
    /// The lowercase name used in reports and JSON.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            TheoryStatus::Ok => "ok",
            TheoryStatus::Mismatch => "mismatch",
            TheoryStatus::Impossible => "impossible",
            TheoryStatus::Short => "short",
            TheoryStatus::Illegal => "illegal",
            TheoryStatus::Unavailable => "unavailable",
        }
    }
}

/// The check of one game's theoretical score.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TheoryCheck {
    /// The verdict.
    pub status: TheoryStatus,
    /// The depth (empty squares) of the check.
    pub depth: u8,
    /// The stored theoretical score (black's discs).
    pub stored: u8,
    /// Black's discs after perfect play from the position at the depth
    /// (empties to the winner), when solved.
    pub solved: Option<u8>,
    /// The side to move at the depth (`"black"`/`"white"`), when reached.
    pub side: Option<String>,
    /// The exact score for that side, when solved.
    pub score: Option<i32>,
    /// A best move there (e.g. `"c4"`), when the solver gave one (not when
    /// the stored value was proved by a window search, nor from the cache).
    pub best_move: Option<String>,
    /// The position at the depth as OBF (with the side to move), when
    /// reached: what a maintainer checks a mismatch on.
    #[serde(default)]
    pub obf: Option<String>,
    /// Discs played before the depth (or in the whole record when short).
    pub moves: usize,
    /// For short records: black's WTHOR-rule discs at the end.
    pub final_score: Option<u32>,
    /// For short records: whether the game is over at its end.
    pub finished: Option<bool>,
    /// For illegal records: the index of the illegal move.
    pub illegal_move: Option<usize>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the score came from the cache.
    pub cached: bool,
    /// Seconds spent solving (wall clock).
    pub seconds: f64,
    /// On-CPU seconds of the solving thread, when the caller measured
    /// them (this crate does no OS probing: [`check_theoretical`] leaves it
    /// `None`). On a shared machine the wall clock also counts the time
    /// spent waiting for a core.
    #[serde(default)]
    pub cpu_seconds: Option<f64>,
}

/// Black's discs at the end under the WTHOR rule (empties to the winner) from
/// the exact disc difference `score` for `side`: `(64 + diff_black) / 2`.
#[must_use]
pub fn black_discs(score: i32, side: Color) -> u8 {
    let diff = if side == Color::Black { score } else { -score };
    ((64 + diff) / 2).clamp(0, 64) as u8
}

pub(super) fn color_name(c: Color) -> String {
    match c {
        Color::Black => "black".into(),
        Color::White => "white".into(),
    }
}

pub(super) fn square_name(x: u8) -> String {
    Square::new_unchecked(x).name(Size::Eight).to_string()
}

/// Checks the theoretical score `stored` of an 8x8 game (its WTHOR move
/// bytes) at `depth` empty squares.
pub fn check_theoretical(
    moves: &[u8],
    depth: u8,
    stored: u8,
    solver: &mut Solver,
    cache: Option<&SolveCache>,
) -> TheoryCheck {
    let mut check = TheoryCheck::blank(TheoryStatus::Short, depth, stored);
    replay_into::<Board8>(moves, depth, &mut check, |check, board| {
        let side = board.side_to_move();
        // The stored value as a disc difference for the side to move.
        let claimed = (stored <= 64).then(|| {
            let black = 2 * i32::from(stored) - 64;
            if side == Color::Black { black } else { -black }
        });
        let s = solve_cached(solver, cache, board.player(), board.opponent(), claimed);
        let solved = black_discs(s.score, side);
        check.status = judge(stored, solved, 64);
        check.solved = Some(solved);
        check.side = Some(color_name(side));
        check.score = Some(s.score);
        check.best_move = s.best_move.map(square_name);
        check.nodes = s.nodes;
        check.cached = s.cached;
        check.seconds = s.seconds;
    });
    check
}

/// Replays a game's WTHOR move bytes to `depth` empty squares. There, sets
/// the discs played in `check` and hands both to `at`; a game that ends
/// first is recorded as short, one with an illegal move as illegal.
fn replay_into<B: Board>(
    moves: &[u8],
    depth: u8,
    check: &mut TheoryCheck,
    at: impl FnOnce(&mut TheoryCheck, B),
) {
    match replay_to_empties::<B>(moves, u32::from(depth)) {
        Reach::At { board, moves } => {
            check.moves = moves;
            check.obf = Some(board.to_obf());
            at(check, board);
        }
        Reach::Ended {
            moves,
            finished,
            final_score,
            ..
        } => {
            check.status = TheoryStatus::Short;
            check.moves = moves;
            check.final_score = Some(final_score);
            check.finished = Some(finished);
        }
        Reach::Illegal { index } => {
            check.status = TheoryStatus::Illegal;
            check.illegal_move = Some(index);
        }
    }
}

/// The status of a stored theoretical score against the solver's, on a
/// board of `squares` squares.
fn judge(stored: u8, solved: u8, squares: u8) -> TheoryStatus {
    if stored > squares {
        TheoryStatus::Impossible
    } else if stored == solved {
        TheoryStatus::Ok
    } else {
        TheoryStatus::Mismatch
    }
}

/// The most empties at which 10x10 games are solved (by the generic solver,
/// which has none of the 8x8 solver's speed-ups); deeper checks are
/// reported as unavailable.
pub const MAX_10X10_EMPTIES: u8 = 14;

/// Checks the theoretical score `stored` of a 10x10 game at `depth` empty
/// squares with the generic solver (black's discs out of 100); at more than
/// [`MAX_10X10_EMPTIES`] empties, [`unavailable_10x10`].
pub fn check_theoretical_10x10(
    moves: &[u8],
    depth: u8,
    stored: u8,
    solver: &mut GenericSolver<Board10>,
) -> TheoryCheck {
    if depth > MAX_10X10_EMPTIES {
        return unavailable_10x10(depth, stored);
    }
    let mut check = unavailable_10x10(depth, stored);
    replay_into::<Board10>(moves, depth, &mut check, |check, board| {
        let t = Instant::now();
        let side = board.side_to_move();
        let s = solver.solve(&board);
        let diff = if side == Color::Black {
            s.score
        } else {
            -s.score
        };
        let solved = ((100 + diff) / 2).clamp(0, 100) as u8;
        check.status = judge(stored, solved, 100);
        check.solved = Some(solved);
        check.side = Some(color_name(side));
        check.score = Some(s.score);
        check.best_move = s.best_move.map(|sq| sq.name(Size::Ten).to_string());
        check.nodes = s.nodes;
        check.seconds = t.elapsed().as_secs_f64();
    });
    check
}

/// The check of a 10x10 game too deep for the generic solver.
#[must_use]
pub fn unavailable_10x10(depth: u8, stored: u8) -> TheoryCheck {
    TheoryCheck::blank(TheoryStatus::Unavailable, depth, stored)
}

impl TheoryCheck {
    /// A check with `status` and nothing found yet.
    fn blank(status: TheoryStatus, depth: u8, stored: u8) -> Self {
        TheoryCheck {
            status,
            depth,
            stored,
            solved: None,
            side: None,
            score: None,
            best_move: None,
            obf: None,
            moves: 0,
            final_score: None,
            finished: None,
            illegal_move: None,
            nodes: 0,
            cached: false,
            seconds: 0.0,
            cpu_seconds: None,
        }
    }
}

/// The theoretical score of `game`, a record of `file`, checked at the
/// header's depth: on 8x8 by `solver` through `cache`
/// ([`check_theoretical`]), on 10x10 by a generic solver of its own
/// ([`check_theoretical_10x10`]). The CPU time is the caller's to
/// measure ([`TheoryCheck::cpu_seconds`]).
#[must_use]
pub fn check_game(
    file: &GameFile<'_>,
    game: &GameView<'_>,
    solver: &mut Solver,
    cache: Option<&SolveCache>,
) -> TheoryCheck {
    let depth = file.header().depth();
    match file.board_size() {
        BoardSize::Eight => check_theoretical(
            game.moves_raw(),
            depth,
            game.theoretical_score(),
            solver,
            cache,
        ),
        BoardSize::Ten => check_theoretical_10x10(
            game.moves_raw(),
            depth,
            game.theoretical_score(),
            &mut GenericSolver::new(),
        ),
    }
}

/// What checks of theoretical scores found: the checks by status, and the
/// solve times of the games solved (not those from the cache), for the
/// report of a run or of merged results logs.
///
/// ```
/// use wthor_db::verify::{TheoryStatus, TheoryTally};
///
/// let tally = TheoryTally::default();
/// assert_eq!((tally.checked(), tally.findings()), (0, 0));
/// assert_eq!(tally.n(TheoryStatus::Ok), 0);
/// assert_eq!(tally.times(), (None, None));
/// ```
#[derive(Clone, Debug, Default)]
pub struct TheoryTally {
    counts: std::collections::HashMap<TheoryStatus, usize>,
    checked: usize,
    times: Vec<f64>,
    cpu_times: Vec<f64>,
}

impl TheoryTally {
    /// Counts one check.
    pub fn add(&mut self, check: &TheoryCheck) {
        *self.counts.entry(check.status).or_default() += 1;
        self.checked += 1;
        if check.score.is_some() && !check.cached {
            self.times.push(check.seconds);
            self.cpu_times.extend(check.cpu_seconds);
        }
    }

    /// The checks counted.
    #[must_use]
    pub fn checked(&self) -> usize {
        self.checked
    }

    /// The checks of status `s`.
    #[must_use]
    pub fn n(&self, s: TheoryStatus) -> usize {
        self.counts.get(&s).copied().unwrap_or(0)
    }

    /// The findings: mismatches, impossible values, illegal moves and
    /// games that could not be solved.
    #[must_use]
    pub fn findings(&self) -> usize {
        self.n(TheoryStatus::Mismatch)
            + self.n(TheoryStatus::Impossible)
            + self.n(TheoryStatus::Illegal)
            + self.n(TheoryStatus::Unavailable)
    }

    /// The games solved (not from the cache), whose times are counted.
    #[must_use]
    pub fn solved(&self) -> usize {
        self.times.len()
    }

    /// The median and 90th percentile ([`median_p90`](super::median_p90))
    /// of the wall-clock and of the on-CPU solve times, `None` when no game
    /// was solved (no CPU time measured).
    #[allow(clippy::type_complexity)]
    #[must_use]
    pub fn times(&self) -> (Option<(f64, f64)>, Option<(f64, f64)>) {
        (
            super::median_p90(&mut self.times.clone()),
            super::median_p90(&mut self.cpu_times.clone()),
        )
    }
}
