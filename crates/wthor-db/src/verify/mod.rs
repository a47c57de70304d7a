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
//! use othello_core::replay::{Reach, replay_to_empties};
//! use wthor_db::verify::check_theoretical;
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
//!
//! One file per concept, everything re-exported here: `run.rs` (the
//! whole run every front end calls, [`Run`]: prepared, then checked,
//! told to a [`RunObserver`]), `inputs.rs` (its input files read and
//! parsed, with their players' names), `batch.rs` (the batch loop under
//! it: selection, resume, workers, log, cache saving, a stop flag,
//! progress through a callback), `select.rs`
//! (sampling and sharding), `log.rs` (the results log and its keys),
//! `merge.rs` (logs read back and merged, duplicates and conflicts),
//! `theory.rs` (theoretical scores of games), `puzzle.rs` (solitaire
//! solutions), `runner.rs` (worker threads), `stats.rs` (median and 90th
//! percentile). No timing here needs the OS: a thread's CPU time is
//! the caller's to measure ([`TheoryCheck::cpu_seconds`]).

mod batch;
mod inputs;
mod line;
mod log;
mod merge;
mod puzzle;
mod run;
mod runner;
mod select;
mod stats;
mod theory;

pub use batch::{
    Batch, BatchError, CACHE_SAVE_EVERY, CacheSaver, Checked, Job, Selection, load_cache,
    load_or_set_aside, run_batch, select_jobs,
};
pub use inputs::{Input, InputError, Loaded, PlayerNames, parse_inputs, read_inputs, read_regular};
pub use line::{PuzzleLine, RecordLine, TheoryLine};
pub use log::{RecordKey, ResultsLog};
pub use merge::{
    Conflict, KindError, LinePlace, LogError, LogKind, LogRecord, Merged, VOLATILE_FIELDS,
    merge_results, one_kind, outcome, read_results,
};
pub use puzzle::{PuzzleCheck, check_puzzle, puzzle_position};
pub use run::{Run, RunError, RunObserver, RunOptions, Verified};
pub(crate) use runner::cores;
pub use runner::{Workers, run_parallel, run_parallel_on};
pub use select::{Shard, sample_of, select};
pub use stats::median_p90;
pub use theory::{
    MAX_10X10_EMPTIES, Solved, TheoryCheck, TheoryStatus, TheoryTally, black_discs, check_game,
    check_theoretical, check_theoretical_10x10, solve_cached, unavailable_10x10,
};
