//! Checking stored results with the exact solver: the theoretical score of
//! game records and the solution of solitaire puzzles, with what long runs
//! need (deterministic sampling, sharding, a JSON Lines results log that a
//! re-run resumes from, parallel workers each owning a solver).
//!
//! This module reads and writes files but prints nothing: the command line
//! reports what it returns.
//!
//! ```
//! use othello_core::Board8;
//! use othello_core::solver::{Solver, SolverOptions};
//! use wthor_db::verify::{Reach, check_theoretical, replay_to_empties};
//!
//! // A 9-move game (black wipes white out): it ends before 24 empties.
//! let moves = [34, 33, 32, 24, 15, 64, 74, 35, 46]; // d3 c3 b3 d2 e1 d6 d7 e3 f4
//! match replay_to_empties::<Board8>(&moves, 24) {
//!     Reach::Ended { moves, finished, .. } => assert_eq!((moves, finished), (9, true)),
//!     other => panic!("{other:?}"),
//! }
//! let mut solver = Solver::new(SolverOptions { threads: 1, tt_bits: 10 });
//! let check = check_theoretical(&moves, 24, 64, &mut solver, None);
//! assert_eq!(check.status.as_str(), "short");
//! assert_eq!(check.final_score, Some(64));
//! ```

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use othello_core::replay::{GameStatus, replay_with, wthor_tokens};
use othello_core::solver::{GenericSolver, Solver, SolverOptions};
use othello_core::{Board, Board8, Board10, Color, Move, Size, Square};
use serde::{Deserialize, Serialize};
use wthor_format::{Cell, PuzzleView};

use crate::cache::SolveCache;

/// One shard `K/N` of a run split over `N` machines: the `i`-th selected
/// game (from 0, in input order, after sampling) belongs to shard
/// `i mod N + 1`. The `N` shards `1/N … N/N` cover every game exactly once.
///
/// ```
/// use wthor_db::verify::Shard;
/// let s: Shard = "2/3".parse()?;
/// assert_eq!((s.index(), s.count()), (2, 3));
/// assert!(s.contains(1) && s.contains(4) && !s.contains(0));
/// assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// Shard `k` of `n` (1-based), or `None` unless `1 <= k <= n`.
    #[must_use]
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (1..=n).contains(&k).then_some(Shard { k, n })
    }

    /// `K`, from 1.
    #[must_use]
    pub fn index(self) -> usize {
        self.k
    }

    /// `N`.
    #[must_use]
    pub fn count(self) -> usize {
        self.n
    }

    /// Whether the `i`-th item (from 0) belongs to this shard.
    #[must_use]
    pub fn contains(self, i: usize) -> bool {
        i % self.n + 1 == self.k
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {s:?}: expected K/N with 1 <= K <= N, e.g. 1/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// SplitMix64: a small deterministic generator (the sample must not depend
/// on a crate's version).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        // n is far below 2^32 here: the modulo bias is negligible.
        (self.next() % n as u64) as usize
    }
}

/// The items to process, as `(file, index)` pairs in input order: every
/// index of `counts[file]`, or a deterministic random sample of `sample =
/// (size, seed)` of them (the same inputs and seed always give the same
/// sample, on any machine), then only those of `shard`.
///
/// ```
/// use wthor_db::verify::{Shard, select};
/// let all = select(&[3, 2], None, None);
/// assert_eq!(all, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]);
/// let sample = select(&[100, 100], Some((10, 1)), None);
/// assert_eq!(sample.len(), 10);
/// assert_eq!(sample, select(&[100, 100], Some((10, 1)), None));
/// let mut shards: Vec<_> = (1..=3)
///     .flat_map(|k| select(&[3, 2], None, Shard::new(k, 3)))
///     .collect();
/// shards.sort();
/// assert_eq!(shards, all);
/// ```
#[must_use]
pub fn select(
    counts: &[usize],
    sample: Option<(usize, u64)>,
    shard: Option<Shard>,
) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = counts
        .iter()
        .enumerate()
        .flat_map(|(f, &n)| (0..n).map(move |i| (f, i)))
        .collect();
    if let Some((size, seed)) = sample {
        if size < all.len() {
            // Partial Fisher-Yates, then back to input order.
            let mut rng = SplitMix(seed);
            for i in 0..size {
                let j = i + rng.below(all.len() - i);
                all.swap(i, j);
            }
            all.truncate(size);
            all.sort_unstable();
        }
    }
    if let Some(shard) = shard {
        all = all
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| shard.contains(i))
            .map(|(_, item)| item)
            .collect();
    }
    all
}

/// What identifies a checked record across runs: the file name, the
/// creation date of its header (another release of the same year has
/// another date), the record's index and an FNV-1a hash of its bytes (the
/// moves of a game, the whole record of a puzzle), so that a record edited
/// in a new release is checked again.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecordKey {
    /// The file name (without its directory).
    pub file: String,
    /// The header's creation date, `YYYY-MM-DD`.
    pub created: String,
    /// The record's index in its file, from 0.
    pub index: usize,
    /// The FNV-1a 64 hash of the record's bytes, 16 hex digits.
    pub hash: String,
}

impl RecordKey {
    /// The key of record `index` of `file`, whose bytes are `bytes`.
    #[must_use]
    pub fn new(file: &Path, created: impl fmt::Display, index: usize, bytes: &[u8]) -> RecordKey {
        RecordKey {
            file: file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            created: created.to_string(),
            index,
            hash: format!("{:016x}", crate::cache::fnv1a64(bytes)),
        }
    }
}

/// An append-only JSON Lines file of results, one object per checked
/// record, each holding the fields of a [`RecordKey`]. Opening it reads the
/// keys already done; each line is flushed when appended, so an interrupted
/// run loses at most the record being written.
#[derive(Debug)]
pub struct ResultsLog {
    file: File,
    done: HashMap<RecordKey, serde_json::Value>,
}

impl ResultsLog {
    /// Opens (or creates) the log at `path` and reads the records done.
    /// Returns the log and warnings: a last line without its newline (an
    /// interrupted run) is cut off the file; other unreadable lines are
    /// skipped (their records are checked again).
    ///
    /// # Errors
    /// Any I/O error opening, reading or truncating the file.
    pub fn open(path: &Path) -> io::Result<(ResultsLog, Vec<String>)> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        let mut warnings = Vec::new();
        let mut done = HashMap::new();
        let mut good_len = 0u64;
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        let mut number = 0usize;
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)?;
            if n == 0 {
                break;
            }
            number += 1;
            if line.last() != Some(&b'\n') {
                warnings.push(format!(
                    "{}: line {number}: dropped a truncated last line (interrupted run)",
                    path.display()
                ));
                break;
            }
            good_len += n as u64;
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<serde_json::Value>(&text) {
                Ok(value) => match RecordKey::deserialize(&value) {
                    Ok(key) => {
                        done.insert(key, value);
                    }
                    Err(e) => warnings.push(format!(
                        "{}: line {number}: not a result record ({e}); ignored",
                        path.display()
                    )),
                },
                Err(e) => warnings.push(format!(
                    "{}: line {number}: invalid JSON ({e}); ignored",
                    path.display()
                )),
            }
        }
        drop(reader);
        if file.metadata()?.len() != good_len {
            file.set_len(good_len)?;
        }
        file.seek(SeekFrom::End(0))?;
        Ok((ResultsLog { file, done }, warnings))
    }

    /// Whether the record of `key` is in the log.
    #[must_use]
    pub fn contains(&self, key: &RecordKey) -> bool {
        self.done.contains_key(key)
    }

    /// The records in the log when it was opened plus those appended, by key.
    #[must_use]
    pub fn records(&self) -> &HashMap<RecordKey, serde_json::Value> {
        &self.done
    }

    /// Appends one record as a JSON line and flushes it.
    ///
    /// # Errors
    /// Serialisation errors (as [`io::Error`]) and write errors.
    pub fn append<T: Serialize>(&mut self, key: &RecordKey, record: &T) -> io::Result<()> {
        let value = serde_json::to_value(record).map_err(io::Error::other)?;
        let mut line = serde_json::to_vec(&value).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()?;
        self.done.insert(key.clone(), value);
        Ok(())
    }
}

/// Where a replay to a given depth got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach<B> {
    /// The first position with the wanted number of empty squares, after
    /// `moves` discs played.
    At {
        /// The position (side to move as in the game; it may have to pass).
        board: B,
        /// Discs played to get there.
        moves: usize,
    },
    /// The record ends (legally) before that depth.
    Ended {
        /// Discs played.
        moves: usize,
        /// Empty squares left.
        empties: u32,
        /// Whether the game is over (neither side can move); otherwise it
        /// stops while moves remain.
        finished: bool,
        /// Black's discs under the WTHOR rule (empties to the winner) at
        /// the end of the record.
        final_score: u32,
    },
    /// A move before that depth is illegal.
    Illegal {
        /// Its 0-based index among the recorded moves.
        index: usize,
    },
}

/// Replays WTHOR move bytes to the first position with `empties` empty
/// squares.
#[must_use]
pub fn replay_to_empties<B: Board>(moves: &[u8], empties: u32) -> Reach<B> {
    let start = B::start();
    if start.empty_count() == empties {
        return Reach::At {
            board: start,
            moves: 0,
        };
    }
    let mut found = None;
    let mut played = 0;
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(moves), |step| {
        if matches!(step.mv, Move::Play(_)) {
            played += 1;
        }
        if found.is_none() && step.board.empty_count() == empties {
            found = Some((step.board, played));
        }
    });
    match (found, r.illegal) {
        (Some((board, moves)), _) => Reach::At { board, moves },
        (None, Some(bad)) => Reach::Illegal { index: bad.index },
        (None, None) => Reach::Ended {
            moves: r.moves,
            empties: r.board.empty_count(),
            finished: r.status == GameStatus::Finished,
            final_score: r.score().0,
        },
    }
}

/// Replays the first `n` recorded moves (passes the record implies are
/// inserted); `None` when the record holds fewer legal moves.
#[must_use]
pub fn replay_moves_prefix<B: Board>(moves: &[u8], n: usize) -> Option<B> {
    let limited = &moves[..n.min(moves.len())];
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(limited), |_| {});
    (r.illegal.is_none() && wthor_tokens::<B>(limited).count() == n).then_some(r.board)
}

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

fn color_name(c: Color) -> String {
    match c {
        Color::Black => "black".into(),
        Color::White => "white".into(),
    }
}

fn square_name(x: u8) -> String {
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

/// A puzzle position: `(p, o, side)` with `p` the discs of the side to move.
///
/// # Errors
/// A message when the side-to-move byte is not 1 or 2 or a square holds
/// the unused code `01`.
pub fn puzzle_position(puzzle: &PuzzleView<'_>) -> Result<(u64, u64, Color), String> {
    let side = match puzzle.side_to_move() {
        1 => Color::Black,
        2 => Color::White,
        other => {
            return Err(format!(
                "side to move is {other}, expected 1 (black) or 2 (white)"
            ));
        }
    };
    let (mut black, mut white) = (0u64, 0u64);
    for (i, cell) in puzzle.position().iter().enumerate() {
        match cell {
            Cell::Black => black |= 1 << i,
            Cell::White => white |= 1 << i,
            Cell::Empty => {}
            Cell::Unused => {
                return Err(format!(
                    "square {} holds the unused code 01",
                    square_name(i as u8)
                ));
            }
        }
    }
    Ok(match side {
        Color::Black => (black, white, side),
        Color::White => (white, black, side),
    })
}

/// The check of one solitaire puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleCheck {
    /// Whether everything holds.
    pub ok: bool,
    /// What does not hold, one sentence each.
    pub problems: Vec<String>,
    /// The empty squares of the board.
    pub empties: u32,
    /// The stored empties count.
    pub stored_empties: u8,
    /// The side to move (`"black"`/`"white"`), when valid.
    pub side: Option<String>,
    /// The stored solution score (disc difference for the side to move).
    pub stored_score: i8,
    /// The stored first move (e.g. `"g8"`), or the raw byte when it names no square.
    pub stored_move: String,
    /// The exact score, when solved.
    pub score: Option<i32>,
    /// The moves reaching the threshold (win, or draw when the best is a
    /// draw), when solved.
    pub solutions: Vec<String>,
    /// When the stored score is not the solver's: whether it has the same
    /// sign and a smaller size by at most the empties (as if the empty
    /// squares left at the end were not given to the winner).
    pub empties_uncounted: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Verifies a solitaire: a valid position, the stored empties count, the
/// stored score and first move against the solver, and the defining
/// property: exactly one move wins (or, when the best is a draw, exactly
/// one move draws).
pub fn check_puzzle(puzzle: &PuzzleView<'_>, solver: &mut Solver) -> PuzzleCheck {
    let t = Instant::now();
    let stored_move = match puzzle.first_move() {
        Some(sq) => sq.to_string(),
        None => format!("byte {}", puzzle.first_move_raw()),
    };
    let mut check = PuzzleCheck {
        ok: false,
        problems: Vec::new(),
        empties: 0,
        stored_empties: puzzle.empties(),
        side: None,
        stored_score: puzzle.score(),
        stored_move: stored_move.clone(),
        score: None,
        solutions: Vec::new(),
        empties_uncounted: false,
        nodes: 0,
        seconds: 0.0,
    };
    let (p, o, side) = match puzzle_position(puzzle) {
        Ok(pos) => pos,
        Err(e) => {
            check.problems.push(e);
            return check;
        }
    };
    check.side = Some(color_name(side));
    check.empties = (!(p | o)).count_ones();
    if check.empties != u32::from(puzzle.empties()) {
        check.problems.push(format!(
            "stored empties {} but the board has {}",
            puzzle.empties(),
            check.empties
        ));
    }
    let nodes0 = solver.nodes();
    let s = solver.solve(p, o);
    check.score = Some(s.score);
    let stored = i32::from(puzzle.score());
    if s.score != stored {
        // Same winner, fewer discs, by at most the empties: the stored value
        // looks like a disc count that leaves the empties out.
        check.empties_uncounted = stored.signum() == s.score.signum()
            && stored.abs() < s.score.abs()
            && s.score.abs() - stored.abs() <= check.empties as i32;
        check.problems.push(format!(
            "stored score {stored:+} but the solver finds {:+} (empties to the winner){}",
            s.score,
            if check.empties_uncounted {
                "; the stored value fits a count without the empties"
            } else {
                ""
            }
        ));
    }
    if s.best_move.is_none() {
        check
            .problems
            .push("the side to move has no legal move".into());
    } else if s.score < 0 {
        check
            .problems
            .push(format!("no move wins or draws (best {:+})", s.score));
    } else {
        let bound = if s.score > 0 { 1 } else { 0 };
        let good = solver.moves_at_least(p, o, bound);
        check.solutions = good.iter().map(|&x| square_name(x)).collect();
        let what = if bound > 0 { "winning" } else { "drawing" };
        if good.len() != 1 {
            check.problems.push(format!(
                "{} {what} moves ({}), expected exactly one",
                good.len(),
                check.solutions.join(" ")
            ));
        }
        if !check.solutions.contains(&stored_move) {
            check.problems.push(format!(
                "stored first move {stored_move} is not a {what} move"
            ));
        }
    }
    check.nodes = solver.nodes() - nodes0;
    check.seconds = t.elapsed().as_secs_f64();
    check.ok = check.problems.is_empty();
    check
}

/// How to run jobs in parallel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Workers {
    /// Worker threads, each with its own solver (at least 1).
    pub workers: usize,
    /// Search threads of each solver (at least 1).
    pub solver_threads: usize,
    /// Transposition-table size of each solver (`2^tt_bits` entries).
    pub tt_bits: u32,
}

/// Runs `work` on every job, `workers.workers` at a time, each worker
/// owning one [`Solver`] (reused from job to job), and hands each result to
/// `done` (called from the worker threads, in completion order). Stops
/// taking new jobs once `done` returns an error, and returns the first one.
///
/// # Errors
/// The first error returned by `done`.
pub fn run_parallel<J, R, E>(
    jobs: &[J],
    workers: Workers,
    work: impl Fn(&J, &mut Solver) -> R + Sync,
    done: impl Fn(&J, R) -> Result<(), E> + Sync,
) -> Result<(), E>
where
    J: Sync,
    R: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let failed: Mutex<Option<E>> = Mutex::new(None);
    let worker = || {
        let mut solver = Solver::new(SolverOptions {
            threads: workers.solver_threads.max(1),
            tt_bits: workers.tt_bits,
        });
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(job) = jobs.get(i) else { break };
            let r = work(job, &mut solver);
            if let Err(e) = done(job, r) {
                next.store(jobs.len(), Ordering::Relaxed);
                let mut f = failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                f.get_or_insert(e);
                break;
            }
        }
    };
    let n = workers.workers.max(1).min(jobs.len().max(1));
    if n == 1 {
        worker();
    } else {
        std::thread::scope(|s| {
            for _ in 0..n {
                s.spawn(worker);
            }
        });
    }
    match failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The median and 90th percentile (nearest rank) of `values`, `None` when
/// empty.
///
/// ```
/// let (m, p90) = wthor_db::verify::median_p90(&mut [5.0, 1.0, 3.0, 2.0, 4.0]).unwrap();
/// assert_eq!((m, p90), (3.0, 5.0));
/// ```
pub fn median_p90(values: &mut [f64]) -> Option<(f64, f64)> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let rank =
        |q: f64| values[((q * values.len() as f64).ceil() as usize).clamp(1, values.len()) - 1];
    Some((rank(0.5), rank(0.9)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_log_resumes_and_drops_a_truncated_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("r.jsonl");
        let key = |i| RecordKey {
            file: "WTH_1977.wtb".into(),
            created: "2007-05-22".into(),
            index: i,
            hash: "00".into(),
        };
        {
            let (mut log, w) = ResultsLog::open(&path).unwrap();
            assert!(w.is_empty());
            for i in 0..3 {
                log.append(&key(i), &key(i)).unwrap();
            }
        }
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"file\":\"WTH_1977.wtb\",\"crea").unwrap();
        drop(f);
        let (mut log, w) = ResultsLog::open(&path).unwrap();
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("truncated"));
        assert!(log.contains(&key(2)) && !log.contains(&key(3)));
        log.append(&key(3), &key(3)).unwrap();
        drop(log);
        let (log, w) = ResultsLog::open(&path).unwrap();
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(log.records().len(), 4);
    }

    #[test]
    fn replay_stops_at_the_first_position_with_the_depth() {
        // f5 d6 c3 d3 c4: after 5 moves, 55 empties, white to move.
        let moves = [56, 64, 33, 34, 43];
        match replay_to_empties::<Board8>(&moves, 55) {
            Reach::At { board, moves } => {
                assert_eq!(moves, 5);
                assert_eq!(board.side_to_move(), Color::White);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            replay_to_empties::<Board8>(&moves, 60),
            Reach::At { moves: 0, .. }
        ));
        assert!(matches!(
            replay_to_empties::<Board8>(&moves, 50),
            Reach::Ended {
                moves: 5,
                finished: false,
                ..
            }
        ));
        assert!(matches!(
            replay_to_empties::<Board8>(&[56, 56], 50),
            Reach::Illegal { index: 1 }
        ));
        assert_eq!(
            replay_moves_prefix::<Board8>(&moves, 5),
            match replay_to_empties::<Board8>(&moves, 55) {
                Reach::At { board, .. } => Some(board),
                _ => None,
            }
        );
        assert_eq!(replay_moves_prefix::<Board8>(&moves, 6), None);
    }

    #[test]
    fn black_discs_follow_the_wthor_rule() {
        assert_eq!(black_discs(0, Color::White), 32);
        assert_eq!(black_discs(10, Color::Black), 37);
        assert_eq!(black_discs(10, Color::White), 27);
        assert_eq!(black_discs(-64, Color::White), 64);
    }

    #[test]
    fn run_parallel_hands_back_every_result() {
        let jobs: Vec<usize> = (0..20).collect();
        let seen = Mutex::new(Vec::new());
        let w = Workers {
            workers: 2,
            solver_threads: 1,
            tt_bits: 8,
        };
        run_parallel(
            &jobs,
            w,
            |&j, _| j * 2,
            |_, r| {
                seen.lock().unwrap().push(r);
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_unstable();
        assert_eq!(seen, (0..20).map(|j| j * 2).collect::<Vec<_>>());
        let r = run_parallel(
            &jobs,
            w,
            |&j, _| j,
            |_, r| if r == 5 { Err(r) } else { Ok(()) },
        );
        assert_eq!(r, Err(5));
    }
}
