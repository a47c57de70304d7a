//! Import: games from elsewhere added to a WTHOR directory without breaking
//! it.
//!
//! The whole pipeline lives here, without printing: `wthor import` and
//! Python's `Database.import_games` call the same steps in the same order
//! and only report what they return:
//!
//! 0. [`read_all`]: every input read with
//!    [`read_input`](crate::text::read::read_input) and each game
//!    [`prepare`]d in parallel, the lines and games that fail gathered as
//!    [`Rejected`] (the callers write nothing when some are, unless told
//!    to skip them); [`notes`] lists the odd records, and
//!    [`Gathered::warnings`] what is odd in the WTHOR inputs (a damaged
//!    file, numbers without names), which a front end may refuse
//!    ([`ImportObserver::stop_after_reading`]: `wthor import --strict`).
//! 1. [`prepare`]: a game read from some input ([`Incoming`]: moves, names,
//!    year, recorded score, where it came from) is replayed; an illegal one
//!    is rejected ([`Rejection`], with its move). The moves are turned by
//!    the symmetry that takes the first move to f5 (as every FFO file
//!    starts), passes dropped (WTHOR stores none). The real score is
//!    black's discs by the WTHOR rule (empties to the winner) when the
//!    game is finished; an unfinished game keeps its recorded score (as the
//!    FFO files do), or the rule's on its last position when none was
//!    recorded. A finished game whose recorded result disagrees with its
//!    moves (by the rule, or by the discs on the board without the
//!    empties) is kept with a note ([`Prepared::note`]), as is an
//!    unfinished one.
//! 2. [`plan`]: the directory's names files and yearly files are read; each
//!    player and tournament name gets the number it already has, or a new
//!    one after the last (existing numbers never change); each game goes to
//!    `WTH_<year>.wtb`, new or appended. A game the file already holds
//!    (the same tournament, players and moves), or that the import holds
//!    twice, is left out ([`Plan::duplicates`]) unless
//!    [`ImportOptions::keep_duplicates`]: importing a file twice adds
//!    nothing. Nothing is written; a directory still to create is planned
//!    as an empty one.
//! 3. [`solve_theoretical`]: the theoretical score of every planned game by
//!    the exact solver at the file's depth, in parallel, with the solve
//!    cache (the slow part).
//! 4. [`Plan::write`]: names files first, then game files, each written to
//!    a temporary file in the directory, synced and renamed, with the new
//!    creation date; a game file never points at a name not yet written.
//!
//! [`finish`] runs steps 3 and 4: the cache saved before, during and after
//! the solving, a stop flag honoured between games (then nothing is
//! written), the directory created if missing.
//!
//! [`run`] runs them all in that order, telling an [`ImportObserver`]
//! what each step found: what `wthor import` and Python call.
//!
//! Only 8x8 games are imported.

mod date;
mod plan;
mod prepare;
mod run;
mod solve;

pub use date::{DateError, date_of_unix, parse_date, today};
pub use plan::{
    Duplicate, FileChange, Holder, ImportError, ImportOptions, NamesChange, Plan, PlannedGame, fit,
    plan,
};
pub(crate) use prepare::turned_to_f5;
pub use prepare::{
    Gathered, Incoming, InputWarning, Prepared, RejectReason, Rejected, Rejection, Source,
    Theoretical, notes, prepare, read_all,
};
pub use run::{ImportObserver, ImportOutcome, ImportRun, RunError, run};
pub use solve::{
    FinishError, Progress, Solving, Stopped, finish, solve_theoretical, theoretical, workers,
};
