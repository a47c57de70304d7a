//! The WTHOR archive as a database: files memory-mapped, names joined,
//! games named, scanned and queried.
//!
//! # The API in one screen
//!
//! * **Opening** ([`database`], [`files`]): [`Database::open`] one
//!   directory, or [`DatabaseBuilder`] over several directories and single
//!   files (explicit names files, [`OpenOptions`], damaged files set
//!   aside). Each [`DbFile`] is mapped; records are borrowed
//!   [`GameView`](wthor_format::GameView)s, never copied; opening reads
//!   headers only.
//! * **Identity** ([`id`]): a [`GameId`] is `(file, index)`;
//!   [`Database::game_name`] writes it `2001:5` (yearly 8x8 file) or
//!   `FILE:INDEX`, [`Database::parse_game_id`] reads it back.
//! * **Names** ([`names`]): each game file is paired ([`Join`]) with the
//!   newest players and tournaments files of its directory, or the ones
//!   given; [`Database::black`], [`Database::white`],
//!   [`Database::tournament`] give a [`NameRef`] (a placeholder with the
//!   number when it is out of range, never a failure).
//! * **Scan** ([`scan`]): [`Database::scan`], the sequential visitor with
//!   early exit, and [`Database::par_fold`], rayon on top. Everything below
//!   is written on it.
//! * **Check** ([`check`]): [`Database::check_games`] /
//!   [`Database::par_check_games`], every game replayed.
//! * **Query** ([`query`]): a [`Query`] (players, tournament, years,
//!   result, score ranges, opening under the 8 symmetries, position in any
//!   orientation, sort, limit).
//! * **Searcher** ([`searcher`]): the one entry point of queries. A
//!   [`Searcher`] ([`Database::searcher`]) holds the database and the
//!   position index chosen for it ([`IndexChoice`](index::IndexChoice),
//!   checked once), and answers [`Searcher::search`], [`Searcher::count`],
//!   [`Searcher::stats`] and [`Searcher::count_reaching`]: through the
//!   index for a position filter, else (or when the index cannot serve,
//!   with a note) by a scan, in parallel or
//!   [`sequential`](Searcher::sequential); each an [`Answer`].
//! * **Statistics** ([`stats`]): [`Searcher::stats`] over any query:
//!   totals, the next moves from a position (in the orientation given, with
//!   exact scores on request), player records, openings.
//! * **Openings** ([`openings`]): the table of named openings (data,
//!   embedded), matched by position under the 8 symmetries: the name of
//!   a position, a game's opening (the deepest named position it passes
//!   through), the named continuations, names found accent-insensitively.
//! * **Duplicates** ([`duplicates`]): games whose moves are equal up to
//!   the 8 symmetries, grouped in parallel ([`Database::duplicates`]) into
//!   double entries (same players and year) and other players' copies;
//!   [`Database::dedupe`] keeps the first copy of each.
//! * **Index** ([`index`]): an optional [`PositionIndex`] file of the
//!   positions of every game, which knows when it is stale
//!   ([`Database::index_status`]); a [`Searcher`] answers position filters
//!   with it.
//! * **Import** ([`import`]): the whole pipeline of `wthor import` and
//!   Python's `Database.import_games`, step by step and without printing:
//!   inputs read and games checked, turned to start with f5
//!   ([`import::read_all`], [`import::notes`]), planned into a directory,
//!   existing or still to create (names appended, numbers kept;
//!   [`import::plan`]), theoretical scores solved with the cache and a stop
//!   flag, files written atomically ([`import::finish`]).
//! * **Verify** ([`verify`], [`cache`]): the solver checks of theoretical
//!   scores and puzzles, their whole run ([`verify::Run`]: inputs,
//!   selection, resume, workers, results log, told to an observer), and
//!   their persistent cache.
//! * **Text** ([`text`]): the text formats of games (CSV, JSON Lines,
//!   GGF, transcripts, OBF), one writer and one reader each:
//!   [`text::export`] and [`text::read::read_input`].
//! * **Positions** ([`positions`]): the positions of many games as
//!   columns (bitboards, side, ply, move, scores), for Python's
//!   `Database.positions()` and Parquet export.
//! * **Data sets** ([`datasets`]): positions merged up to symmetry with
//!   their counts and mean scores, train/test splits by year or by game
//!   whose test side shares no position with the train side.
//! * **Ratings** ([`ratings`]): every player's rating per year by
//!   Whole-History Rating ([`Database::ratings`]: the list of a year, a
//!   player's history, the names probably one person's) and its
//!   validation against Elo and Glicko-2 ([`Database::evaluate_ratings`]).
//! * **Writing** ([`atomic`]): every file written whole or not at all
//!   (temporary file, sync, rename), errors naming the target.
//! * **Re-exports**: [`othello_core`] (boards, squares, sizes; a
//!   [`query::Position`] is its `AnyBoard`) and [`wthor_format`] (records
//!   as `GameView`s, headers, board sizes, warnings), whose types this
//!   API shows: `wthor_db::othello_core::Size` needs no dependency of
//!   your own, nor a version to keep in step with this crate's.
//!
//! ```
//! use wthor_db::{Database, Query};
//! use wthor_db::index::IndexChoice;
//! use wthor_db::query::Outcome;
//!
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = Database::open(&testdata)?; // the fixture database
//! let summary = db.par_check_games();
//! assert_eq!(summary, db.check_games()); // same answer, any thread count
//! assert_eq!(summary.totals.illegal, 0);
//!
//! // Draws of 2001 and later, and who played them.
//! let query = Query::new().years(Some(2001), None).result(Outcome::Draw);
//! let searcher = db.searcher(IndexChoice::Default);
//! let draws = searcher.search(&query)?.value;
//! let sequential = db.searcher(IndexChoice::Default).sequential();
//! assert_eq!(draws, sequential.search(&query)?.value);
//! for &id in &draws {
//!     let game = db.game(id).unwrap();
//!     assert_eq!(game.real_score() * 2, if id_is_ten(&db, id) { 100 } else { 64 });
//!     println!("{} {} - {}", db.game_name(id), db.black(id), db.white(id));
//! }
//! # fn id_is_ten(db: &Database, id: wthor_db::GameId) -> bool {
//! #     db.file_of(id).unwrap().board_size() == Some(wthor_format::BoardSize::Ten)
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

// Only the `wthor` binary prints: the libraries return values and errors.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

pub mod analysis;
pub mod atomic;
pub mod cache;
pub mod check;
pub mod database;
pub mod datasets;
pub mod duplicates;
mod error;
pub mod files;
pub mod history;
pub mod id;
pub mod import;
pub mod index;
pub mod install;
pub mod names;
pub mod novelty;
pub mod openings;
pub mod position_line;
pub mod positions;
pub mod query;
pub mod ratings;
pub mod report;
pub mod scan;
pub mod searcher;
pub mod stats;
pub mod text;
pub mod verify;

/// The rules crate, whose boards, squares and sizes this crate's API
/// shows.
pub use othello_core;
/// The file-format crate, whose records, headers and board sizes this
/// crate's API shows.
pub use wthor_format;

pub use check::{CheckSummary, Counts, FileCheck, Finding, GameCheck};
pub use database::{Database, DatabaseBuilder, Join, OpenOptions};
pub use error::{Error, error_chain};
pub use files::{DbFile, Reads, list_files, list_folder};
pub use id::{GameId, GameIdError, GameName, GameNumbers};
pub use index::{IndexStatus, PositionIndex};
pub use names::{NamePattern, NameRef, NameSet, NamesTable};
pub use query::{Query, QueryError};
pub use scan::GameRef;
pub use searcher::{Answer, Searcher};
pub use stats::{Stats, StatsOptions};

/// The rules' board size ([`othello_core::Size`]) of a file's board size
/// ([`wthor_format::BoardSize`]): the one bridge between the two crates,
/// which do not depend on each other.
#[must_use]
pub const fn rules_size(size: wthor_format::BoardSize) -> othello_core::Size {
    match size {
        wthor_format::BoardSize::Eight => othello_core::Size::Eight,
        wthor_format::BoardSize::Ten => othello_core::Size::Ten,
    }
}
