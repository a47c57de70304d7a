//! `wthor.Database` and `wthor.Game`.
use std::path::PathBuf;

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::index::IndexChoice;
use wthor_db::stats::{NextMovesAsked, StatsOptions};
use wthor_db::{Database, DatabaseBuilder, GameId, GameIdError, GameNumbers, Searcher};
use wthor_format::{BoardSize, GameView};

use crate::errors::{db_error, notation_error, query_error};
use crate::query::{self, query_of};
use wthor_db::datasets::{self, SplitBy};
use wthor_db::positions::{self, GameRows};
use wthor_parquet::{Export, ExportChoiceError};

mod columns;
mod game;

use columns::{build, columns_dict, convert, unique_dict};
pub use game::{GameIter, PyGame};

/// A WTHOR database: game files with the names files of their release.
/// Not frozen: `import_games` opens it again in place once it has written.
#[pyclass(name = "Database", module = "wthor")]
pub struct PyDatabase {
    /// The database and the position index its queries use (chosen, and
    /// checked fresh, once: at the first query with a position filter).
    searcher: Searcher<Database>,
    /// What it was opened with, to open it again.
    opened: Opened,
    /// The database-wide numbers of the games (the library's one
    /// numbering: `Game.number`, `Database[n]`, the `game` column).
    numbers: GameNumbers,
    len: usize,
}

/// A note of the index choice (an index not used, and why) as a
/// `UserWarning`, as `wthor` says it on stderr.
pub(crate) fn warn_note(py: Python<'_>, note: Option<String>) -> PyResult<()> {
    if let Some(note) = note {
        let text = std::ffi::CString::new(note.replace('\0', " ")).expect("no NUL left");
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 1)?;
    }
    Ok(())
}

/// The arguments a database was opened with.
#[derive(Clone, Debug)]
struct Opened {
    paths: Vec<PathBuf>,
    players: Option<PathBuf>,
    tournaments: Option<PathBuf>,
    /// The position index queries may use (see `wthor_db::Searcher`).
    index: IndexChoice,
    /// Refuse a damaged file rather than leave it out with a warning.
    strict: bool,
}

impl Opened {
    /// Opens the sources with `wthor-db`'s builder (directories not
    /// descending, names joined per release, or the names files given),
    /// without the GIL, by the library's one rule for front ends
    /// (`DatabaseBuilder::for_front_end`): a damaged file left out and a
    /// file read only up to its last whole record are each a
    /// `UserWarning`, as `wthor` says them on stderr.
    fn open(self, py: Python<'_>) -> PyResult<PyDatabase> {
        let db = py
            .detach(|| {
                let mut builder = DatabaseBuilder::new().for_front_end(self.strict);
                for p in &self.paths {
                    builder = builder.source(p);
                }
                if let Some(p) = &self.players {
                    builder = builder.players(p);
                }
                if let Some(t) = &self.tournaments {
                    builder = builder.tournaments(t);
                }
                builder.open()
            })
            .map_err(|e| db_error(py, &e))?;
        for note in db.damage_notes() {
            warn_note(py, Some(note))?;
        }
        Ok(PyDatabase::from_db(db, self))
    }

    /// The one directory it was opened over, which `import_games` adds to.
    fn import_dir(&self) -> PyResult<&PathBuf> {
        match self.paths.as_slice() {
            [dir] if dir.is_dir() => Ok(dir),
            [file] => Err(PyValueError::new_err(format!(
                "import_games() adds to a directory; this Database was opened over the file {}: open its directory",
                file.display()
            ))),
            paths => Err(PyValueError::new_err(format!(
                "import_games() adds to one directory; this Database was opened over {} paths: open the directory alone",
                paths.len()
            ))),
        }
    }
}

impl PyDatabase {
    fn from_db(db: Database, opened: Opened) -> PyDatabase {
        let numbers = db.game_numbers();
        PyDatabase {
            len: numbers.len(),
            numbers,
            searcher: Searcher::new(db, opened.index.clone()),
            opened,
        }
    }

    /// The database.
    fn db(&self) -> &Database {
        self.searcher.database()
    }

    /// The game of database-wide number `number`.
    fn id_of(&self, number: usize) -> Option<GameId> {
        self.numbers.id(number)
    }

    /// The database-wide number of `id` (a game of this database).
    fn number_of(&self, id: GameId) -> usize {
        self.numbers.number(id).expect("a game of this database")
    }

    /// The depth of the theoretical scores of `id`'s file.
    fn depth_of(&self, id: GameId) -> u8 {
        self.db().files()[id.file()].header().depth()
    }

    fn view(&self, id: GameId) -> GameView<'_> {
        self.db().game(id).expect("a game of this database")
    }

    /// The game of `__getitem__`'s key.
    fn item(&self, key: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        if let Ok(i) = key.extract::<isize>() {
            let index = if i < 0 { i + self.len as isize } else { i };
            return usize::try_from(index)
                .ok()
                .and_then(|i| self.id_of(i))
                .map(|id| self.game(id))
                .ok_or_else(|| {
                    PyIndexError::new_err(format!(
                        "game index {i} out of range ({} games)",
                        self.len
                    ))
                });
        }
        let Ok(text) = key.extract::<String>() else {
            return Err(PyTypeError::new_err(
                "a game is an int index or a \"YEAR:INDEX\" / \"FILE:INDEX\" string",
            ));
        };
        self.id_by_text(&text).map(|id| self.game(id))
    }

    /// The game `id` as the input of [`positions::collect`].
    fn game_rows(&self, id: GameId) -> GameRows<'_> {
        GameRows {
            view: self.view(id),
            depth: self.depth_of(id),
            game: u32::try_from(self.number_of(id)).unwrap_or(u32::MAX),
        }
    }

    /// The game a text names (`"2001:5"`, `"WTH_2001.wtd:3"`):
    /// `NotationError` when it is no identity, `KeyError` when no game has
    /// it.
    fn id_by_text(&self, text: &str) -> PyResult<GameId> {
        self.db().parse_game_id(text).map_err(|e| match e {
            GameIdError::Syntax(_) => notation_error(e),
            _ => PyKeyError::new_err(e.to_string()),
        })
    }

    /// The games of `games=`: numbers, identities or `Game`s.
    fn ids_of(&self, games: &Bound<'_, PyAny>) -> PyResult<Vec<GameId>> {
        let expected = || {
            PyTypeError::new_err(
                "games= expects a sequence of game numbers (int), identities (str) or Games",
            )
        };
        if games.is_instance_of::<pyo3::types::PyString>() {
            return Err(expected());
        }
        let mut out = Vec::new();
        for item in games.try_iter().map_err(|_| expected())? {
            let item = item?;
            let id = if let Ok(n) = item.extract::<i64>() {
                usize::try_from(n)
                    .ok()
                    .and_then(|n| self.id_of(n))
                    .ok_or_else(|| {
                        PyIndexError::new_err(format!(
                            "game number {n} out of range ({} games)",
                            self.len
                        ))
                    })?
            } else if let Ok(g) = item.extract::<PyRef<'_, PyGame>>() {
                self.id_by_text(&g.id)?
            } else if let Ok(text) = item.extract::<String>() {
                self.id_by_text(&text)?
            } else {
                return Err(expected());
            };
            out.push(id);
        }
        Ok(out)
    }

    /// The games matching the keyword filters, found without the GIL.
    fn find(
        &self,
        py: Python<'_>,
        method: &str,
        filters: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<GameId>> {
        let query = query_of(method, filters)?;
        let ids = py
            .detach(|| self.searcher.search(&query))
            .map_err(|e| query_error(&e))?;
        warn_note(py, ids.note)?;
        Ok(ids.value)
    }

    /// The games of `positions()`, `split()` and `analyze()` (`method`):
    /// `games`, or those of the keyword filters, or every 8x8 game.
    fn chosen(
        &self,
        py: Python<'_>,
        method: &str,
        games: Option<&Bound<'_, PyAny>>,
        filters: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<GameId>> {
        match games {
            Some(games) => {
                if query::any(filters) {
                    return Err(PyValueError::new_err(format!(
                        "{method}(): give games= or keyword filters, not both"
                    )));
                }
                self.ids_of(games)
            }
            None if filters.is_some_and(|d| !d.is_empty()) => self.find(py, method, filters),
            None => Ok(self.ids_8x8()),
        }
    }

    /// Every 8x8 game, in database order.
    fn ids_8x8(&self) -> Vec<GameId> {
        let mut out = Vec::with_capacity(self.len);
        for (file, f) in self.db().files().iter().enumerate() {
            if f.board_size() == Some(BoardSize::Eight) {
                out.extend((0..f.game_count()).map(|i| GameId::new(file, i)));
            }
        }
        out
    }
}

/// Paths from a str, an `os.PathLike` or a sequence of them (`what` takes
/// them, for the errors).
fn paths_of(arg: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = arg.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    let mut out = Vec::new();
    for item in arg.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{what} expects a path (str or os.PathLike) or a list of paths"
        ))
    })? {
        out.push(item?.extract::<PathBuf>()?);
    }
    if out.is_empty() {
        return Err(PyValueError::new_err(format!("{what} was given no path")));
    }
    Ok(out)
}

#[pymethods]
impl PyDatabase {
    /// Opens a WTHOR database: a directory (its `.wtb .wtd .jou .trn .pzz`
    /// files, not descending into subdirectories), or a list of files and
    /// directories. Each game file is read with the newest names files of
    /// its release among the files opened, in its directory, or with the
    /// `players` / `tournaments` files given.
    #[new]
    ///
    /// Queries with a position filter use the position index `wthor index
    /// build` writes (`wthor.idx` in the directory) when it is fresh, as
    /// `wthor search` does; `index=PATH` names another, `index=False`
    /// never uses one (chosen and checked once, at the first query with a
    /// position filter). An index that cannot be used is a `UserWarning`
    /// (the answer is the same, by a scan).
    ///
    /// A damaged file is left out with a `UserWarning` (the others still
    /// answer; when no game file is left, its error), as `wthor` does;
    /// `strict=True` refuses it, and a file cut inside a record.
    #[pyo3(signature = (path_or_paths, *, players = None, tournaments = None, index = None, strict = false))]
    fn new(
        py: Python<'_>,
        path_or_paths: &Bound<'_, PyAny>,
        players: Option<PathBuf>,
        tournaments: Option<PathBuf>,
        index: Option<&Bound<'_, PyAny>>,
        strict: bool,
    ) -> PyResult<PyDatabase> {
        let index = match index {
            None => IndexChoice::Default,
            Some(v) if v.is_instance_of::<pyo3::types::PyBool>() => {
                if v.extract::<bool>()? {
                    IndexChoice::Default
                } else {
                    IndexChoice::Never
                }
            }
            Some(v) => IndexChoice::At(v.extract::<PathBuf>()?),
        };
        let paths = paths_of(path_or_paths, "Database()")?;
        Opened {
            paths,
            players,
            tournaments,
            index,
            strict,
        }
        .open(py)
    }

    /// The number of games (8x8 and 10x10).
    fn __len__(&self) -> usize {
        self.len
    }

    /// A game by its database-wide index (negative from the end) or its
    /// identity, `"YEAR:INDEX"` (yearly 8x8 file) or `"FILE:INDEX"`.
    fn __getitem__(slf: &Bound<'_, Self>, key: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        let this = slf.borrow();
        this.item(key).map(|g| g.read_from(slf))
    }

    /// The games, in file order.
    fn __iter__(slf: Py<Self>) -> GameIter {
        GameIter { db: slf, next: 0 }
    }

    fn __repr__(&self) -> String {
        format!(
            "Database({:?}, {} games in {} game files)",
            self.db().root().display().to_string(),
            self.len,
            self.db()
                .files()
                .iter()
                .filter(|f| f.board_size().is_some())
                .count()
        )
    }

    /// The paths of every file opened (games, names, puzzles), in order.
    #[getter]
    fn paths(&self) -> Vec<String> {
        self.db()
            .files()
            .iter()
            .map(|f| f.path().display().to_string())
            .collect()
    }

    /// The games matching every keyword filter (those of `wthor search`:
    /// `player`, `black`, `white`, `exact`, `program`, `human`,
    /// `tournament`, `years`, `result`, `black_discs`, `theoretical`,
    /// `opening`, `as_played`, `position`, `position_after`, `size`,
    /// `sort`, `limit`; see the stubs), as a list of `Game`, in database
    /// order unless sorted. Scanned in parallel, without the GIL.
    #[pyo3(signature = (**filters))]
    fn search(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        filters: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<PyGame>> {
        let this = slf.borrow();
        let ids = this.find(py, "search", filters)?;
        Ok(ids
            .into_iter()
            .map(|id| this.game(id).read_from(slf))
            .collect())
    }

    /// Writes the games matching every keyword filter (as `search`; all
    /// by default) to the file `path`: `format` (`"csv"`, `"jsonl"`,
    /// `"ggf"`, `"transcript"` or `"txt"`, `"obf"`, `"parquet"`), else the
    /// extension of `path`; `positions=True` writes the Parquet table of
    /// positions (the columns of `positions()`) instead of the games;
    /// `empties` for OBF (default each file's depth). The bytes `wthor
    /// export -o PATH` writes for the same filters, written as it writes
    /// them (a temporary file renamed over `path`). Returns the counts:
    /// `written` (games, or positions), `bad_moves` (games written up to
    /// a move that is no square or illegal; skipped in OBF), `short` (OBF:
    /// games ending before the position; skipped).
    #[pyo3(signature = (path, format = None, *, positions = false, empties = None, **filters))]
    fn export<'py>(
        &self,
        py: Python<'py>,
        path: PathBuf,
        format: Option<&str>,
        positions: bool,
        empties: Option<u8>,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let format = crate::text::format_of(&path, format)?;
        let export = Export::new(format, positions, empties).map_err(|e| match e {
            ExportChoiceError::PositionsInText => {
                PyValueError::new_err(format!("positions=True: {e}: give format=\"parquet\""))
            }
        })?;
        let ids = self.find(py, "export", filters)?;
        if let Some(e) = empties {
            wthor_db::text::check_empties(self.db(), &ids, e)
                .map_err(|err| PyValueError::new_err(format!("empties={e}: {err}")))?;
        }
        let counts = py
            .detach(|| export.to_file(self.db(), &ids, &path))
            .map_err(|e| crate::errors::write_error(&e))?;
        let d = PyDict::new(py);
        d.set_item("written", counts.written)?;
        d.set_item("bad_moves", counts.bad_moves)?;
        d.set_item("short", counts.short)?;
        Ok(d)
    }

    /// Adds the games of `inputs` (a path or a list of paths: transcripts,
    /// GGF, CSV, JSON Lines, WTHOR game files) to this database's
    /// directory, as `wthor import INPUTS --into DIR` does with the same
    /// options, through the same library steps (the same bytes written):
    /// every game replayed and turned to f5, names numbered after the
    /// existing ones, games appended to `WTH_<year>.wtb`, theoretical
    /// scores solved at the file's depth (`depth` for new files) without
    /// the GIL, each file written atomically. A rejected game (an
    /// unreadable line, an illegal move) writes nothing unless
    /// `skip_illegal`; `dry_run` only plans. Returns the report (see the
    /// stubs). Once written, the database is opened again in place and
    /// holds the new games. `ValueError` when it was opened over several
    /// paths or a file: it adds to one directory.
    #[pyo3(signature = (
        inputs,
        *,
        year = None,
        tournament = None,
        depth = 24,
        skip_illegal = false,
        dry_run = false,
        keep_duplicates = false,
        threads = None,
        cache = None,
        limit = None,
        players = None,
        tournaments = None,
        encoding = None,
        date = None
    ))]
    #[allow(clippy::too_many_arguments)]
    fn import_games<'py>(
        slf: &Bound<'py, Self>,
        inputs: &Bound<'py, PyAny>,
        year: Option<u16>,
        tournament: Option<String>,
        depth: u8,
        skip_illegal: bool,
        dry_run: bool,
        keep_duplicates: bool,
        threads: Option<usize>,
        cache: Option<PathBuf>,
        limit: Option<usize>,
        players: Option<PathBuf>,
        tournaments: Option<PathBuf>,
        encoding: Option<String>,
        date: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let opened = slf.borrow().opened.clone();
        let dir = opened.import_dir()?;
        let args = crate::import::ImportArgs {
            inputs: paths_of(inputs, "import_games()")?,
            year,
            tournament,
            depth,
            skip_illegal,
            dry_run,
            keep_duplicates,
            threads,
            cache,
            limit,
            players,
            tournaments,
            encoding,
            date: date.map(crate::import::date_text).transpose()?,
        };
        let (report, written) = crate::import::run(py, dir, args)?;
        if written {
            let fresh = opened.open(py)?;
            *slf.borrow_mut() = fresh;
        }
        Ok(report)
    }

    /// The number of games matching every keyword filter (as `search`;
    /// `limit` caps it). Counted in parallel, without the GIL.
    #[pyo3(signature = (**filters))]
    fn count(&self, py: Python<'_>, filters: Option<&Bound<'_, PyDict>>) -> PyResult<usize> {
        let query = query_of("count", filters)?;
        let n = py
            .detach(|| self.searcher.count(&query))
            .map_err(|e| query_error(&e))?;
        warn_note(py, n.note)?;
        Ok(n.value)
    }

    /// Every position of the 8x8 games as a dict of equal-length NumPy
    /// arrays (see the stubs for the columns): of every game, of the games
    /// `games` (numbers, identities or `Game`s, in that order), or of the
    /// games matching the keyword filters (as `search`, in its order);
    /// `augment=True` adds the 8 symmetric images (8 blocks, the first one
    /// the positions as they are). Built in Rust in parallel, without the
    /// GIL.
    ///
    /// `dedupe=True` leaves out the later copies of games whose moves are
    /// equal up to the 8 symmetries (as `wthor duplicates` finds them among
    /// the games chosen); `unique=True` gives one row per position up to
    /// symmetry instead (see the stubs).
    #[pyo3(signature = (games = None, augment = false, dedupe = false, unique = false, **filters))]
    fn positions<'py>(
        &self,
        py: Python<'py>,
        games: Option<&Bound<'py, PyAny>>,
        augment: bool,
        dedupe: bool,
        unique: bool,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if augment && unique {
            return Err(PyValueError::new_err(
                "positions(): augment=True and unique=True exclude each other (unique rows are in canonical orientation)",
            ));
        }
        let ids = self.chosen(py, "positions", games, filters)?;
        let ids = if dedupe {
            py.detach(|| self.db().dedupe(&ids))
        } else {
            ids
        };
        if unique {
            let u = py.detach(|| {
                datasets::unique(&positions::collect(self.db(), &ids, |g| {
                    self.game_rows(g.id)
                }))
            });
            return unique_dict(py, u);
        }
        build(py, self, &ids, augment)
    }

    /// The positions of the 8x8 games split into a train and a test set
    /// that share no position in any orientation: `(train, test)`, two
    /// dicts of the columns of `positions()`. `by="year"`: the test games
    /// are those of the years `test` (one int or a pair `(a, b)`, either
    /// end None); `by="game"`: a share `test` (between 0 and 1) of the
    /// games, chosen by a hash of the game's identity and `seed`. The
    /// test positions that occur in the train set (same discs up to the 8
    /// symmetries, same side to move) are removed from the test set.
    /// `games`, `dedupe` and the keyword filters choose the games as in
    /// `positions()`. Built in Rust in parallel, without the GIL.
    #[pyo3(signature = (test, by = "year", seed = 0, games = None, dedupe = false, **filters))]
    #[allow(clippy::too_many_arguments)]
    fn split<'py>(
        &self,
        py: Python<'py>,
        test: &Bound<'py, PyAny>,
        by: &str,
        seed: u64,
        games: Option<&Bound<'py, PyAny>>,
        dedupe: bool,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Bound<'py, PyDict>, Bound<'py, PyDict>)> {
        let by = match by {
            "year" => SplitBy::Years(query::years("test", test)?),
            "game" => {
                let fraction: f64 = test.extract().map_err(|_| {
                    PyTypeError::new_err("split(by=\"game\") expects test= a share of the games, a float between 0 and 1")
                })?;
                if !(0.0..=1.0).contains(&fraction) {
                    return Err(PyValueError::new_err(format!(
                        "split(): test={fraction} is no share of the games: expected a float between 0 and 1"
                    )));
                }
                SplitBy::Games { fraction, seed }
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "split(): by={other:?}: expected \"year\" or \"game\""
                )));
            }
        };
        let ids = self.chosen(py, "split", games, filters)?;
        let s = py.detach(|| {
            let ids = if dedupe { self.db().dedupe(&ids) } else { ids };
            datasets::split(self.db(), &ids, &by, |g| self.game_rows(g.id))
        });
        Ok((columns_dict(py, s.train)?, columns_dict(py, s.test)?))
    }

    /// Statistics of the games matching the keyword filters (as
    /// `search`): totals, and the next moves from the position filter
    /// (shown by default when a position is given, as `wthor stats` does;
    /// `next_moves=True` asks for them from the start, `False` hides them;
    /// `solve=True` adds exact scores), player
    /// records (only of the `player` names when given; `by_year=True`
    /// splits them by year) and the most frequent openings of `openings`
    /// moves; `top` cuts the player and opening tables. A dict with the
    /// keys of `wthor stats --format jsonl` (see the stubs). Computed in
    /// parallel, without the GIL.
    #[pyo3(signature = (
        *,
        next_moves = None,
        solve = false,
        player_records = false,
        by_year = false,
        openings = 0,
        top = None,
        **filters
    ))]
    #[allow(clippy::too_many_arguments)]
    fn stats<'py>(
        &self,
        py: Python<'py>,
        next_moves: Option<bool>,
        solve: bool,
        player_records: bool,
        by_year: bool,
        openings: usize,
        top: Option<usize>,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let parsed = query::parse("stats", filters)?;
        let query = query::to_query(&parsed)?;
        let next = match next_moves {
            None => NextMovesAsked::WithPosition,
            Some(true) => NextMovesAsked::Yes,
            Some(false) => NextMovesAsked::No,
        };
        let options = StatsOptions::default()
            .with_solve(solve)
            .with_players(player_records)
            .with_by_year(by_year)
            .with_openings(openings)
            .with_next_moves(next, &query);
        let stats = py
            .detach(|| self.searcher.stats(&query, &options))
            .map_err(|e| query_error(&e))?;
        warn_note(py, stats.note)?;
        crate::stats::to_dict(py, &stats.value, &parsed.player_patterns(), by_year, top)
    }

    /// Every move of the 8x8 games judged (`wthor analyze`'s batch):
    /// exact from `empties` empty squares, estimated before by the midgame
    /// search (at `estimate_depth` plies, 18 when `None`, or `time_ms` a
    /// search: not repeatable). Which games:
    /// `games` (numbers, identities or `Game`s), or those of the keyword
    /// filters (their 8x8 games), or every 8x8 game; 10x10 games named in
    /// `games` and illegal records are left out with a warning. One row per move (see the stubs), computed
    /// in parallel without the GIL.
    #[pyo3(signature = (games = None, empties = 20, *, estimate_depth = None, time_ms = None, **filters))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        games: Option<&Bound<'py, PyAny>>,
        empties: u8,
        estimate_depth: Option<u32>,
        time_ms: Option<u64>,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = crate::analysis::options(empties, estimate_depth, time_ms)?;
        let mut ids = self.chosen(py, "analyze", games, filters)?;
        if games.is_none() {
            // The filters' 10x10 games are not asked for by name.
            ids.retain(|&id| self.view(id).board_size() == BoardSize::Eight);
        }
        let number = |id: GameId| u32::try_from(self.number_of(id)).unwrap_or(u32::MAX);
        crate::analysis::of_games(py, self.db(), &ids, number, &options)
    }

    /// Endgame accuracy per player (`wthor stats --accuracy`) from the
    /// results logs of `wthor analyze --results` (a path or a list of
    /// them): the games of this database that the keyword filters select
    /// (every game of the logs that is one of this database's when none),
    /// a row per player (per player and year with `by_year`) with at least
    /// `min_moves` moves judged, the `worst` largest blunders each; the
    /// rows of the `player` filters only when given. Sorted by mean loss.
    #[pyo3(signature = (results, *, min_moves = 0, by_year = false, worst = 3, **filters))]
    fn accuracy<'py>(
        &self,
        py: Python<'py>,
        results: &Bound<'py, PyAny>,
        min_moves: usize,
        by_year: bool,
        worst: usize,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let paths = paths_of(results, "results")?;
        let parsed = query::parse("accuracy", filters)?;
        let ids = if query::any(filters) {
            self.find(py, "accuracy", filters)?
        } else {
            self.ids_8x8()
        };
        let selected: std::collections::HashSet<_> = ids
            .into_iter()
            .filter_map(|id| wthor_db::verify::RecordKey::of_game(self.db(), id))
            .collect();
        crate::analysis::table(
            py,
            &paths,
            Some(&selected),
            parsed.player_patterns(),
            by_year,
            min_moves,
            worst,
        )
    }

    /// One row per game: numbers, names, scores and places, as a dict of
    /// columns (NumPy arrays, and lists of str for the names), or a pandas
    /// DataFrame (`to="pandas"`) or a pyarrow Table (`to="pyarrow"`).
    #[pyo3(signature = (to = None))]
    fn games_table<'py>(&self, py: Python<'py>, to: Option<&str>) -> PyResult<Bound<'py, PyAny>> {
        let n = self.len;
        let mut id = Vec::with_capacity(n);
        let mut file = Vec::with_capacity(n);
        let mut index = Vec::with_capacity(n);
        let mut year = Vec::with_capacity(n);
        let mut size = Vec::with_capacity(n);
        let mut depth = Vec::with_capacity(n);
        let (mut tn, mut bn, mut wn) = (Vec::new(), Vec::new(), Vec::new());
        let (mut tournament, mut black, mut white) = (Vec::new(), Vec::new(), Vec::new());
        let (mut real, mut theo, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        for (k, f) in self.db().files().iter().enumerate() {
            if f.board_size().is_none() {
                continue;
            }
            let name = f.file_name();
            for i in 0..f.game_count() {
                let gid = GameId::new(k, i);
                let v = self.view(gid);
                id.push(self.db().game_name(gid).to_string());
                file.push(name.clone());
                index.push(i as u32);
                year.push(f.year());
                size.push(v.board_size().side());
                depth.push(f.header().depth());
                tn.push(v.tournament());
                bn.push(v.black());
                wn.push(v.white());
                tournament.push(self.db().tournament(gid).name);
                black.push(self.db().black(gid).name);
                white.push(self.db().white(gid).name);
                real.push(v.real_score());
                theo.push(v.theoretical_score());
                moves.push(v.move_count() as u8);
            }
        }
        let d = PyDict::new(py);
        d.set_item("id", PyList::new(py, id)?)?;
        d.set_item("file", PyList::new(py, file)?)?;
        d.set_item("index", PyArray1::from_vec(py, index))?;
        d.set_item("year", PyArray1::from_vec(py, year))?;
        d.set_item("size", PyArray1::from_vec(py, size))?;
        d.set_item("depth", PyArray1::from_vec(py, depth))?;
        d.set_item("tournament", PyList::new(py, tournament)?)?;
        d.set_item("black", PyList::new(py, black)?)?;
        d.set_item("white", PyList::new(py, white)?)?;
        d.set_item("tournament_number", PyArray1::from_vec(py, tn))?;
        d.set_item("black_number", PyArray1::from_vec(py, bn))?;
        d.set_item("white_number", PyArray1::from_vec(py, wn))?;
        d.set_item("real_score", PyArray1::from_vec(py, real))?;
        d.set_item("theoretical_score", PyArray1::from_vec(py, theo))?;
        d.set_item("moves", PyArray1::from_vec(py, moves))?;
        convert(py, d, to)
    }

    /// Where each 8x8 game the keyword filters choose left known play and
    /// became unique (`wthor novelties`), one row per game in database
    /// order: `game` (str), `year`, `kind` (str: "novelty", "known",
    /// "copy" or "first-year"), `move` (the novelty's move number, 0
    /// without one), `before`, `same_year`, `followed`, `unique_from` (0:
    /// never unique).
    #[pyo3(signature = (*, to = None, **filters))]
    fn novelties<'py>(
        &self,
        py: Python<'py>,
        to: Option<&str>,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let q = query_of("novelties", filters)?;
        let all = py
            .detach(|| self.db().novelties(&q))
            .map_err(|e| query_error(&e))?;
        let mut game = Vec::with_capacity(all.len());
        let (mut year, mut kind, mut ply) = (Vec::new(), Vec::new(), Vec::new());
        let (mut before, mut same, mut followed, mut unique) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for n in &all {
            game.push(self.db().game_name(n.game).to_string());
            year.push(n.year);
            let (p, b, s) = n.departure.novelty().unwrap_or((0, 0, false));
            kind.push(novelty_kind(n.departure));
            ply.push(u8::try_from(p).unwrap_or(u8::MAX));
            before.push(b);
            same.push(s);
            followed.push(n.followed);
            unique.push(
                n.unique_from
                    .map_or(0, |u| u8::try_from(u).unwrap_or(u8::MAX)),
            );
        }
        let d = PyDict::new(py);
        d.set_item("game", PyList::new(py, game)?)?;
        d.set_item("year", PyArray1::from_vec(py, year))?;
        d.set_item("kind", PyList::new(py, kind)?)?;
        d.set_item("move", PyArray1::from_vec(py, ply))?;
        d.set_item("before", PyArray1::from_vec(py, before))?;
        d.set_item("same_year", PyArray1::from_vec(py, same))?;
        d.set_item("followed", PyArray1::from_vec(py, followed))?;
        d.set_item("unique_from", PyArray1::from_vec(py, unique))?;
        convert(py, d, to)
    }

    /// The history of a position (`wthor history`): one row per year of
    /// the database's range, the games reaching the position (any
    /// orientation, any order of moves) and black's results; the keyword
    /// filters choose the games. `position` is a transcript from the start,
    /// an OBF position, or a `Board`.
    #[pyo3(signature = (position, *, to = None, **filters))]
    fn history<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
        to: Option<&str>,
        filters: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut f = query::parse("history", filters)?;
        let text: String = if position.is_instance_of::<crate::board::PyBoard>() {
            position.call_method0("obf")?.extract()?
        } else {
            position.extract()?
        };
        f.set_position_text(&text);
        let q = query::to_query(&f)?;
        let h = py
            .detach(|| self.searcher.history(&q))
            .map_err(|e| query_error(&e))?;
        let d = PyDict::new(py);
        d.set_item(
            "year",
            PyArray1::from_vec(py, h.years.iter().map(|y| y.year).collect()),
        )?;
        d.set_item(
            "games",
            PyArray1::from_vec(py, h.years.iter().map(|y| y.reached.games).collect()),
        )?;
        d.set_item(
            "black_wins",
            PyArray1::from_vec(py, h.years.iter().map(|y| y.reached.black_wins).collect()),
        )?;
        d.set_item(
            "draws",
            PyArray1::from_vec(py, h.years.iter().map(|y| y.reached.draws).collect()),
        )?;
        d.set_item(
            "black_losses",
            PyArray1::from_vec(py, h.years.iter().map(|y| y.reached.black_losses).collect()),
        )?;
        convert(py, d, to)
    }

    /// Every rated player's rating per year (Whole-History Rating over the
    /// database's 8x8 games; see `wthor ratings`), one row per player and
    /// year played, or the players of `year` only: kept between runs in
    /// the user's cache directory or in `ratings` (a file path), fitted
    /// once per database content.
    #[pyo3(signature = (year = None, *, to = None, ratings = None))]
    fn ratings<'py>(
        &self,
        py: Python<'py>,
        year: Option<u16>,
        to: Option<&str>,
        ratings: Option<PathBuf>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let kept = py
            .detach(|| {
                self.db()
                    .kept_ratings(&wthor_db::ratings::Params::FITTED, ratings.as_deref())
            })
            .map_err(|e| {
                PyValueError::new_err(format!("ratings: {}", wthor_db::error_chain(&e)))
            })?;
        warn_note(py, kept.note)?;
        let (mut name, mut program, mut years) = (Vec::new(), Vec::new(), Vec::new());
        let (mut rating, mut sd, mut games, mut points) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let (mut provisional, mut rank) = (Vec::new(), Vec::new());
        for p in kept.ratings.players() {
            for y in &p.years {
                if year.is_some_and(|want| want != y.year) {
                    continue;
                }
                name.push(p.name.clone());
                program.push(p.program);
                years.push(y.year);
                rating.push(y.rating);
                sd.push(y.sd);
                games.push(y.games);
                points.push(y.points);
                provisional.push(y.provisional);
                rank.push(y.rank.unwrap_or(0));
            }
        }
        let d = PyDict::new(py);
        d.set_item("name", PyList::new(py, name)?)?;
        d.set_item("program", PyArray1::from_vec(py, program))?;
        d.set_item("year", PyArray1::from_vec(py, years))?;
        d.set_item("rating", PyArray1::from_vec(py, rating))?;
        d.set_item("sd", PyArray1::from_vec(py, sd))?;
        d.set_item("games", PyArray1::from_vec(py, games))?;
        d.set_item("points", PyArray1::from_vec(py, points))?;
        d.set_item("provisional", PyArray1::from_vec(py, provisional))?;
        d.set_item("rank", PyArray1::from_vec(py, rank))?;
        convert(py, d, to)
    }
}

/// A novelty's kind as Python names it: `novelty`, `known`, `copy`,
/// `first-year` (the JSON's `firstYear`).
pub(crate) fn novelty_kind(d: wthor_db::novelty::Departure) -> &'static str {
    match d {
        wthor_db::novelty::Departure::FirstYear => "first-year",
        other => other.kind(),
    }
}
