//! `wthor.Database` and `wthor.Game`.

use std::path::PathBuf;

use numpy::PyArray1;
use othello_core::notation::write_transcript;
use othello_core::{Move, Size, Square};
use pyo3::exceptions::{PyIndexError, PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::{Database, OpenOptions};
use wthor_format::{BoardSize, FileKind, GameView, parse_header};

use crate::errors::{db_error, notation_error};
use crate::ids::{self, Span, Unknown};
use crate::names::{self, Names};
use crate::positions::{self, Columns, GameRows};

/// A game file of the database: where its games sit, and its header's
/// year and depth.
#[derive(Clone, Debug)]
struct GameFile {
    /// Index in `Database::files`.
    file: usize,
    span: Span,
    year: u16,
    depth: u8,
}

/// A WTHOR database: game files with the names files beside them.
#[pyclass(frozen, name = "Database", module = "wthor")]
pub struct PyDatabase {
    db: Database,
    files: Vec<GameFile>,
    names: Names,
    len: usize,
}

/// Opens a directory (its WTHOR files, not descending), or the files and
/// directories of a list with the names files beside them.
///
/// **Temporary, one place** (with `ids` and `names`): to be replaced by the
/// database builder of `wthor-db` when its query API lands.
fn open(paths: &[PathBuf]) -> Result<Database, wthor_db::Error> {
    let options = OpenOptions::default();
    if let [dir] = paths {
        if dir.is_dir() {
            return Database::open_with(dir, &options);
        }
    }
    let mut all = Vec::new();
    for p in paths {
        if p.is_dir() {
            all.extend(wthor_db::list_files(p, false)?);
        } else {
            all.push(p.clone());
        }
    }
    let beside = names::beside(&all)?;
    all.extend(beside);
    let root = paths.first().cloned().unwrap_or_default();
    Database::from_paths(root, &all, &options)
}

impl PyDatabase {
    fn from_db(db: Database) -> Result<PyDatabase, wthor_db::Error> {
        let names = Names::of(db.files())?;
        let mut files = Vec::new();
        let mut start = 0;
        for (i, f) in db.files().iter().enumerate() {
            if !matches!(f.kind(), FileKind::Games8 | FileKind::Games10) {
                continue;
            }
            let header = parse_header(f.bytes()).ok().map(|(_, h)| h);
            let len = f.game_count();
            let name = f
                .path()
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            files.push(GameFile {
                file: i,
                span: Span::new(name, start, len),
                year: header.map_or(0, |h| h.year),
                depth: header.map_or(22, |h| h.depth()),
            });
            start += len;
        }
        Ok(PyDatabase {
            db,
            files,
            names,
            len: start,
        })
    }

    /// The game file holding the game of database-wide index `index`, and
    /// the index in that file.
    fn locate(&self, index: usize) -> Option<(&GameFile, usize)> {
        let k = self.files.partition_point(|g| g.span.start <= index);
        let g = self.files.get(k.checked_sub(1)?)?;
        (index < g.span.start + g.span.len).then(|| (g, index - g.span.start))
    }

    fn view(&self, g: &GameFile, index: usize) -> GameView<'_> {
        self.db.files()[g.file]
            .game(index)
            .expect("index below the file's game count")
    }

    fn game(&self, index: usize) -> Option<PyGame> {
        let (g, i) = self.locate(index)?;
        let v = self.view(g, i);
        let name = |n: Option<&str>| n.map(str::to_owned);
        Some(PyGame {
            id: g.span.id(i),
            file: g.span.name.clone(),
            index: i,
            number: index,
            year: g.year,
            depth: g.depth,
            size: v.board_size().side(),
            tournament_number: v.tournament(),
            black_number: v.black(),
            white_number: v.white(),
            tournament: name(self.names.tournament(v.tournament())),
            black: name(self.names.player(v.black())),
            white: name(self.names.player(v.white())),
            real_score: v.real_score(),
            theoretical_score: v.theoretical_score(),
            record: v.as_bytes().to_vec(),
        })
    }

    /// The games of database-wide indices `numbers` (in that order; 10x10
    /// games give no rows) as the input of [`positions::collect`].
    fn rows_of(&self, numbers: &[i64]) -> PyResult<Vec<GameRows<'_>>> {
        numbers
            .iter()
            .map(|&n| {
                let (g, i) = usize::try_from(n)
                    .ok()
                    .and_then(|n| self.locate(n))
                    .ok_or_else(|| {
                        PyIndexError::new_err(format!(
                            "game number {n} out of range ({} games)",
                            self.len
                        ))
                    })?;
                Ok(GameRows {
                    view: self.view(g, i),
                    depth: g.depth,
                    game: u32::try_from(g.span.start + i).unwrap_or(u32::MAX),
                })
            })
            .collect()
    }

    /// Every 8x8 game as the input of [`positions::collect`].
    fn rows(&self) -> Vec<GameRows<'_>> {
        let mut out = Vec::with_capacity(self.len);
        for g in &self.files {
            let file = &self.db.files()[g.file];
            if file.board_size() != Some(BoardSize::Eight) {
                continue;
            }
            for (i, view) in file.games().enumerate() {
                out.push(GameRows {
                    view,
                    depth: g.depth,
                    game: u32::try_from(g.span.start + i).unwrap_or(u32::MAX),
                });
            }
        }
        out
    }
}

/// Paths from a str, an `os.PathLike` or a sequence of them.
fn paths_of(arg: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(p) = arg.extract::<PathBuf>() {
        return Ok(vec![p]);
    }
    let mut out = Vec::new();
    for item in arg.try_iter().map_err(|_| {
        PyTypeError::new_err("Database() expects a path (str or os.PathLike) or a list of paths")
    })? {
        out.push(item?.extract::<PathBuf>()?);
    }
    if out.is_empty() {
        return Err(PyValueError::new_err("Database() was given no path"));
    }
    Ok(out)
}

/// The columns as a dict of NumPy arrays (no copy of the data).
fn columns_dict<'py>(py: Python<'py>, c: Columns) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("player", PyArray1::from_vec(py, c.player))?;
    d.set_item("opponent", PyArray1::from_vec(py, c.opponent))?;
    d.set_item("side", PyArray1::from_vec(py, c.side))?;
    d.set_item("ply", PyArray1::from_vec(py, c.ply))?;
    d.set_item("move", PyArray1::from_vec(py, c.moves))?;
    d.set_item("final", PyArray1::from_vec(py, c.final_diff))?;
    d.set_item("theoretical", PyArray1::from_vec(py, c.theoretical))?;
    d.set_item("game", PyArray1::from_vec(py, c.game))?;
    if let Some(s) = c.symmetry {
        d.set_item("symmetry", PyArray1::from_vec(py, s))?;
    }
    Ok(d)
}

/// Columns, augmented on request, built without the GIL.
fn build<'py>(
    py: Python<'py>,
    rows: &[GameRows<'_>],
    augment: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let c = py.detach(|| {
        let c = positions::collect(rows);
        if augment { positions::augment(&c) } else { c }
    });
    columns_dict(py, c)
}

/// Converts a dict of columns to `to`: None (the dict), "pandas" or "pyarrow".
fn convert<'py>(
    py: Python<'py>,
    d: Bound<'py, PyDict>,
    to: Option<&str>,
) -> PyResult<Bound<'py, PyAny>> {
    match to {
        None | Some("dict") => Ok(d.into_any()),
        Some("pandas") => py.import("pandas")?.getattr("DataFrame")?.call1((d,)),
        Some("pyarrow") => py.import("pyarrow")?.getattr("table")?.call1((d,)),
        Some(other) => Err(PyValueError::new_err(format!(
            "to={other:?}: expected None, \"dict\", \"pandas\" or \"pyarrow\""
        ))),
    }
}

#[pymethods]
impl PyDatabase {
    /// Opens a WTHOR database: a directory (its `.wtb .wtd .jou .trn .pzz`
    /// files, not descending into subdirectories), or a list of files and
    /// directories. Names are read from the `.JOU`/`.TRN` files opened (for
    /// a list of game files, from those beside them).
    #[new]
    fn new(py: Python<'_>, path_or_paths: &Bound<'_, PyAny>) -> PyResult<PyDatabase> {
        let paths = paths_of(path_or_paths)?;
        py.detach(|| open(&paths).and_then(PyDatabase::from_db))
            .map_err(|e| db_error(py, &e))
    }

    /// The number of games (8x8 and 10x10).
    fn __len__(&self) -> usize {
        self.len
    }

    /// A game by its database-wide index (negative from the end) or its
    /// identity, `"YEAR:INDEX"` (yearly 8x8 file) or `"FILE:INDEX"`.
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<PyGame> {
        if let Ok(i) = key.extract::<isize>() {
            let index = if i < 0 { i + self.len as isize } else { i };
            return usize::try_from(index)
                .ok()
                .and_then(|i| self.game(i))
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
        match ids::resolve(&text, self.files.iter().map(|g| &g.span)) {
            Ok(i) => Ok(self.game(i).expect("a resolved game exists")),
            Err(Unknown::Syntax(e)) => Err(notation_error(e)),
            Err(Unknown::Missing(e)) => Err(PyKeyError::new_err(e)),
        }
    }

    /// The games, in file order.
    fn __iter__(slf: Py<Self>) -> GameIter {
        GameIter { db: slf, next: 0 }
    }

    fn __repr__(&self) -> String {
        format!(
            "Database({:?}, {} games in {} game files)",
            self.db.root().display().to_string(),
            self.len,
            self.files.len()
        )
    }

    /// The paths of every file opened (games, names, puzzles), in order.
    #[getter]
    fn paths(&self) -> Vec<String> {
        self.db
            .files()
            .iter()
            .map(|f| f.path().display().to_string())
            .collect()
    }

    /// Every position of the 8x8 games (or of the games numbered in
    /// `games`, in that order) as a dict of equal-length NumPy arrays (see
    /// the stubs for the columns); `augment=True` adds the 8 symmetric
    /// images (8 blocks, the first one the positions as they are). Built in
    /// Rust in parallel, without the GIL.
    #[pyo3(signature = (games = None, augment = false))]
    fn positions<'py>(
        &self,
        py: Python<'py>,
        games: Option<Vec<i64>>,
        augment: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let rows = match games {
            Some(numbers) => self.rows_of(&numbers)?,
            None => self.rows(),
        };
        build(py, &rows, augment)
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
        for g in &self.files {
            for i in 0..g.span.len {
                let v = self.view(g, i);
                id.push(g.span.id(i));
                file.push(g.span.name.as_str());
                index.push(i as u32);
                year.push(g.year);
                size.push(v.board_size().side());
                depth.push(g.depth);
                tn.push(v.tournament());
                bn.push(v.black());
                wn.push(v.white());
                tournament.push(self.names.tournament(v.tournament()));
                black.push(self.names.player(v.black()));
                white.push(self.names.player(v.white()));
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
}

/// An iterator over the games of a database.
#[pyclass(name = "GameIterator", module = "wthor")]
pub struct GameIter {
    db: Py<PyDatabase>,
    next: usize,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<PyGame> {
        let game = self.db.bind(py).get().game(self.next)?;
        self.next += 1;
        Some(game)
    }
}

/// One game of a database, with its names joined.
#[pyclass(frozen, name = "Game", module = "wthor")]
#[derive(Clone, Debug)]
pub struct PyGame {
    /// `"YEAR:INDEX"` (yearly 8x8 files) or `"FILE:INDEX"`.
    #[pyo3(get)]
    id: String,
    /// The name of its file (`WTH_2025.wtb`).
    #[pyo3(get)]
    file: String,
    /// Its index in the file, from 0.
    #[pyo3(get)]
    index: usize,
    /// Its index in the database (its row in `games_table()`).
    #[pyo3(get)]
    number: usize,
    /// The year of its file.
    #[pyo3(get)]
    year: u16,
    /// The depth (empties) of the theoretical score.
    #[pyo3(get)]
    depth: u8,
    /// 8 or 10.
    #[pyo3(get)]
    size: u8,
    /// The tournament number (index into the TRN file).
    #[pyo3(get)]
    tournament_number: u16,
    /// The black player's number (index into the JOU file).
    #[pyo3(get)]
    black_number: u16,
    /// The white player's number.
    #[pyo3(get)]
    white_number: u16,
    /// The tournament's name, None when the number is beyond the TRN file.
    #[pyo3(get)]
    tournament: Option<String>,
    /// The black player's name, None when unknown.
    #[pyo3(get)]
    black: Option<String>,
    /// The white player's name, None when unknown.
    #[pyo3(get)]
    white: Option<String>,
    /// Black's discs at the end, as recorded (empties to the winner).
    #[pyo3(get)]
    real_score: u8,
    /// Black's discs after perfect play from `depth` empties, as recorded.
    #[pyo3(get)]
    theoretical_score: u8,
    /// The record as stored (68 or 104 bytes).
    record: Vec<u8>,
}

impl PyGame {
    fn board_size(&self) -> BoardSize {
        if self.size == 10 {
            BoardSize::Ten
        } else {
            BoardSize::Eight
        }
    }

    fn core_size(&self) -> Size {
        if self.size == 10 {
            Size::Ten
        } else {
            Size::Eight
        }
    }

    fn view(&self) -> GameView<'_> {
        GameView::new(&self.record, self.board_size()).expect("a whole record")
    }

    /// The recorded moves as squares; an error naming the first byte that
    /// is no square.
    fn squares_checked(&self) -> PyResult<Vec<Square>> {
        let size = self.core_size();
        let view = self.view();
        view.moves_raw()[..view.move_count()]
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                Square::from_wthor(b, size).ok_or_else(|| {
                    crate::errors::FormatError::new_err(format!(
                        "{} game {}: move {} is byte {b}, which is no square of the board",
                        self.file,
                        self.index,
                        i + 1
                    ))
                })
            })
            .collect()
    }
}

#[pymethods]
impl PyGame {
    /// The recorded moves as square names (`"f5"`); WTHOR stores no passes.
    #[getter]
    fn moves(&self) -> PyResult<Vec<String>> {
        let size = self.core_size();
        Ok(self
            .squares_checked()?
            .into_iter()
            .map(|s| s.name(size).to_string())
            .collect())
    }

    /// The recorded moves as square indices (`side × row + column`, a1 = 0).
    #[getter]
    fn squares(&self) -> PyResult<Vec<usize>> {
        Ok(self
            .squares_checked()?
            .into_iter()
            .map(Square::index)
            .collect())
    }

    /// The recorded moves as one transcript (`"f5d6c3…"`, no passes).
    #[getter]
    fn transcript(&self) -> PyResult<String> {
        let moves: Vec<Move> = self
            .squares_checked()?
            .into_iter()
            .map(Move::Play)
            .collect();
        Ok(write_transcript(&moves, self.core_size()))
    }

    /// The game's positions as `Database.positions()` gives them (8x8
    /// games only).
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if self.board_size() != BoardSize::Eight {
            return Err(PyValueError::new_err(
                "positions() holds 8x8 positions (uint64 bitboards); this is a 10x10 game",
            ));
        }
        let rows = [GameRows {
            view: self.view(),
            depth: self.depth,
            game: u32::try_from(self.number).unwrap_or(u32::MAX),
        }];
        build(py, &rows, false)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, {} vs {}, {}-{}, {} moves)",
            self.id,
            self.black.as_deref().unwrap_or("?"),
            self.white.as_deref().unwrap_or("?"),
            self.real_score,
            self.size as usize * self.size as usize - self.real_score as usize,
            self.view().move_count()
        )
    }
}
