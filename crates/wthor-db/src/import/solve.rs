//! Step 3 and the run: theoretical scores solved with the cache and a
//! stop flag ([`solve_theoretical`]), and [`finish`], steps 3 and 4.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use othello_core::solver::Solver;
use othello_core::{Board, Board8, Color};
use wthor_format::Encoding;

use othello_core::replay::{Reach, replay_to_empties};

use super::{ImportError, Plan, PlannedGame};
use crate::cache::{CacheError, SolveCache};
use crate::verify::{CacheSaver, Workers, black_discs, run_parallel, solve_cached};

/// Fills the theoretical score of every planned game: black's discs after
/// perfect play from the position with the file's depth of empty squares,
/// by the exact solver (one per worker, `workers` of them, the cache looked
/// up first and fed); a game that ends before that depth keeps its real
/// score. `progress` is called once per game solved (from the worker
/// threads).
///
/// Once `stop` is set (by a signal handler, say) no new game is started;
/// those being solved are finished (and cached).
///
/// # Errors
/// [`Stopped`] when `stop` ended the run before every game was solved:
/// the plan is then incomplete and must not be written, the cache holds
/// what was solved.
pub fn solve_theoretical(
    plan: &mut Plan,
    workers: Workers,
    cache: Option<&SolveCache>,
    stop: &AtomicBool,
    progress: impl Fn() + Sync,
) -> Result<(), Stopped> {
    let jobs: Vec<(usize, u8, &PlannedGame)> = plan
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| (i, plan.files[g.file].depth, g))
        .collect();
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    let work = |&(_, depth, g): &(usize, u8, &PlannedGame), solver: &mut Solver| {
        theoretical(
            &g.game.moves,
            depth,
            g.game.real_score,
            g.guess,
            solver,
            cache,
        )
    };
    let done = |&(i, ..): &(usize, u8, &PlannedGame), score: u8| -> Result<(), ()> {
        results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(score);
        progress();
        if stop.load(Ordering::SeqCst) {
            Err(())
        } else {
            Ok(())
        }
    };
    // Set before the first game, the flag stops the run before any.
    if !stop.load(Ordering::SeqCst) {
        let _ = run_parallel(&jobs, workers, work, done);
    }
    let results = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let solved = results.iter().flatten().count();
    if solved < results.len() {
        return Err(Stopped {
            solved,
            total: results.len(),
        });
    }
    for (g, score) in plan.games.iter_mut().zip(results) {
        g.game.theoretical_score = score.unwrap_or(g.game.real_score);
    }
    Ok(())
}

/// [`solve_theoretical`] stopped before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped after {solved} of {total} games solved")]
pub struct Stopped {
    /// Games solved (and cached) before the stop.
    pub solved: usize,
    /// Games planned.
    pub total: usize,
}

/// The workers of an import's solving: `threads` (default: the cores
/// available) workers of one solver thread each, with a table of 2^20
/// entries.
#[must_use]
pub fn workers(threads: Option<usize>) -> Workers {
    Workers::new(threads, 20)
}

/// How [`finish`] solves: the workers, the solve cache and the file it is
/// saved to, the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Solving<'a> {
    /// Worker threads and solvers (see [`workers`]).
    pub workers: Workers,
    /// The solve cache, looked up first and fed.
    pub cache: Option<&'a SolveCache>,
    /// Where the cache is saved: before the solving (to fail early), every
    /// [`CACHE_SAVE_EVERY`](crate::verify::CACHE_SAVE_EVERY) while
    /// solving, and at the end.
    pub cache_path: Option<&'a Path>,
    /// Once set (by a signal handler, say), no new game is started.
    pub stop: &'a AtomicBool,
}

/// What [`finish`] tells its caller while solving (from the worker
/// threads).
#[derive(Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// One more game solved.
    Solved,
    /// The cache could not be saved while solving (said once; the solving
    /// goes on, and the cache is saved again at the end).
    CacheNotSaved(&'a CacheError),
}

/// Why [`finish`] wrote nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FinishError {
    /// The cache could not be saved before the solving.
    #[error(transparent)]
    Cache(CacheError),
    /// The cache could not be saved after the solving.
    #[error("cannot save the cache")]
    CacheAtEnd(#[source] CacheError),
    /// The stop flag ended the solving: nothing written, the cache (saved)
    /// holds what was solved.
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// The directory could not be created, or a file written.
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// The last steps of an import: [`solve_theoretical`] (with the cache
/// saved as [`Solving`] says, `progress` told of each game), then `dir`
/// created if missing and [`Plan::write`].
///
/// # Errors
/// [`FinishError`]: the cache cannot be saved, the solving was stopped
/// (nothing written), the directory cannot be created or a file written.
pub fn finish(
    plan: &mut Plan,
    dir: &Path,
    solving: Solving<'_>,
    encoding: &'static Encoding,
    progress: impl Fn(Progress<'_>) + Sync,
) -> Result<(), FinishError> {
    let saver = CacheSaver::new(solving.cache, solving.cache_path);
    saver.maybe_save(true).map_err(FinishError::Cache)?;
    let warned = AtomicBool::new(false);
    let solved = solve_theoretical(plan, solving.workers, solving.cache, solving.stop, || {
        progress(Progress::Solved);
        // Saved every minute: a killed run loses one minute at most.
        if let Err(e) = saver.maybe_save(false)
            && !warned.swap(true, Ordering::Relaxed)
        {
            progress(Progress::CacheNotSaved(&e));
        }
    });
    saver.maybe_save(true).map_err(FinishError::CacheAtEnd)?;
    solved?;
    std::fs::create_dir_all(dir).map_err(|source| ImportError::CreateDir {
        path: dir.to_owned(),
        source,
    })?;
    plan.write(encoding)?;
    Ok(())
}

/// The theoretical score of one game (WTHOR move bytes) at `depth`: black's
/// discs after perfect play, `real` when the game ends before. A `guess`
/// (black's discs) is proved first by a narrow search (see
/// [`solve_cached`]); a wrong one costs a full solve after it.
#[must_use]
pub fn theoretical(
    moves: &[u8],
    depth: u8,
    real: u8,
    guess: Option<u8>,
    solver: &mut Solver,
    cache: Option<&SolveCache>,
) -> u8 {
    match replay_to_empties::<Board8>(moves, u32::from(depth)) {
        Reach::At { board, .. } => {
            let side = board.side_to_move();
            let guess = guess.map(|g| {
                let black = 2 * i32::from(g) - 64;
                if side == Color::Black { black } else { -black }
            });
            let s = solve_cached(solver, cache, board.player(), board.opponent(), guess);
            black_discs(s.score, board.side_to_move())
        }
        Reach::Ended { .. } | Reach::Illegal { .. } => real,
    }
}
