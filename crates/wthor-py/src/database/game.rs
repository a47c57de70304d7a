//! `wthor.Game` and the iterator over a database's games.

use std::sync::Arc;

use othello_core::notation::write_transcript;
use othello_core::{Move, Size, Square};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use wthor_db::GameId;
use wthor_db::names::placeholder;
use wthor_format::{BoardSize, GameView, NameKind};

use wthor_db::positions::{self, GameRows};

use super::PyDatabase;
use super::columns::columns_dict;

impl PyDatabase {
    /// The game `id` (a game of this database) with its names joined.
    pub(super) fn game(&self, id: GameId) -> PyGame {
        let v = self.view(id);
        let file = &self.db().files()[id.file()];
        let name = |n: wthor_db::NameRef<'_>| n.name.map(str::to_owned);
        PyGame {
            id: self.db().game_name(id).to_string(),
            file: file.file_name(),
            index: id.index(),
            number: self.number_of(id),
            year: file.year(),
            depth: self.depth_of(id),
            size: v.board_size().side(),
            tournament_number: v.tournament(),
            black_number: v.black(),
            white_number: v.white(),
            tournament: name(self.db().tournament(id)),
            black: name(self.db().black(id)),
            white: name(self.db().white(id)),
            real_score: v.real_score(),
            theoretical_score: v.theoretical_score(),
            record: v.as_bytes().to_vec(),
            source: Source(None),
        }
    }
}

/// An iterator over the games of a database.
#[pyclass(name = "GameIterator", module = "wthor")]
pub struct GameIter {
    pub(super) db: Py<PyDatabase>,
    pub(super) next: usize,
}

#[pymethods]
impl GameIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> Option<PyGame> {
        let db = self.db.bind(py).borrow();
        let game = db.game(db.id_of(self.next)?).read_from(self.db.bind(py));
        self.next += 1;
        Some(game)
    }
}

/// One game of a database, with its names joined. Games are equal when
/// every field is (identity, names, record).
#[pyclass(frozen, eq, hash, name = "Game", module = "wthor")]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyGame {
    /// `"YEAR:INDEX"` (yearly 8x8 files) or `"FILE:INDEX"`.
    #[pyo3(get)]
    pub(super) id: String,
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
    /// The database it was read from.
    source: Source,
}

/// The database a game was read from, for what needs the other games
/// (`Game.novelty()`); no part of the game's identity (its equality and
/// hash).
#[derive(Clone, Debug)]
struct Source(Option<Arc<Py<PyDatabase>>>);

impl PartialEq for Source {
    fn eq(&self, _: &Source) -> bool {
        true
    }
}

impl Eq for Source {}

impl std::hash::Hash for Source {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl PyGame {
    /// The game, read from `db`.
    pub(super) fn read_from(self, db: &Bound<'_, PyDatabase>) -> PyGame {
        PyGame {
            source: Source(Some(Arc::new(db.clone().unbind()))),
            ..self
        }
    }

    /// The rating of `name` in the game's year by the fit of the database
    /// the game was read from (made once, without the GIL).
    fn rating(&self, py: Python<'_>, name: Option<&str>) -> Option<f64> {
        let db = self.source.0.as_ref()?.bind(py).borrow();
        let database = db.db();
        let (year, size) = (self.year, self.board_size());
        py.detach(|| wthor_db::text::rating(database, name, year, size))
    }

    fn board_size(&self) -> BoardSize {
        if self.size == 10 {
            BoardSize::Ten
        } else {
            BoardSize::Eight
        }
    }

    fn core_size(&self) -> Size {
        wthor_db::rules_size(self.board_size())
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

    /// The game's named opening: the deepest named position it passes
    /// through (`wthor_db::openings`, as `wthor search` shows it), None
    /// when it passes through none, and on 10x10.
    #[getter]
    fn opening(&self) -> Option<&'static str> {
        wthor_db::openings::table()
            .opening_of_view(&self.view())
            .map(|o| o.name())
    }

    /// Black's rating of the game's year by the whole-history fit of the
    /// database it was read from (the `blackRating` of `wthor search
    /// --format csv|jsonl`, to a tenth; the ratings of
    /// `Database.ratings()`, fitted once per database): None when unrated
    /// (`???`, 10x10) or when the game was not read from a Database.
    #[getter]
    fn black_rating(&self, py: Python<'_>) -> Option<f64> {
        self.rating(py, self.black.as_deref())
    }

    /// White's rating of the game's year, as `black_rating`.
    #[getter]
    fn white_rating(&self, py: Python<'_>) -> Option<f64> {
        self.rating(py, self.white.as_deref())
    }

    /// Where the game left known play (`wthor show --novelty`; its row of
    /// `Database.novelties()`, found by one pass over the database it was
    /// read from, without the GIL), as a dict: `game`, `year`, `kind`
    /// ("novelty", "known", "copy", "first-year"), `move` (the first move
    /// after which no game of an earlier year had reached its position),
    /// `square` (that move's name), `before`, `same_year` (None without a
    /// novelty), `followed`, `unique_from` (None: never unique), and the
    /// novelty move's `value` for the side that played it (discs),
    /// `loss` (the position's best value minus the move's, 0 for a best
    /// move), `exact` and `value_depth` (the search's plies for an
    /// estimate), from one multi-PV search of the position before it (the
    /// same every time: `wthor show --novelty`'s; None without a novelty).
    /// None for a 10x10 game.
    fn novelty<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(db) = &self.source.0 else {
            return Err(PyValueError::new_err(
                "this game was not read from a Database: its novelty needs the other games",
            ));
        };
        if self.board_size() != BoardSize::Eight {
            return Ok(None);
        }
        let db = db.bind(py).borrow();
        let id = db
            .id_of(self.number)
            .filter(|&id| db.view(id).as_bytes() == self.record.as_slice())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "game {}: its database changed since it was read (read the game again)",
                    self.id
                ))
            })?;
        let database = db.db();
        let Some((n, value)) = py
            .detach(|| {
                database
                    .novelty_of(id)
                    .map(|n| database.novelty_value(&n).map(|v| (n, v)))
            })
            .transpose()
            .map_err(|e| PyValueError::new_err(format!("the novelty's value: {e}")))?
        else {
            return Ok(None);
        };
        let kind = super::novelty_kind(n.departure);
        let novelty = n.departure.novelty();
        let (ply, before, same_year) = (
            novelty.map(|(ply, _, _)| ply),
            novelty.map(|(_, before, _)| before),
            novelty.map(|(_, _, same)| same),
        );
        let moves = self.moves()?;
        let d = PyDict::new(py);
        d.set_item("game", &self.id)?;
        d.set_item("year", n.year)?;
        d.set_item("kind", kind)?;
        d.set_item("move", ply)?;
        d.set_item("square", ply.and_then(|p| moves.get(p - 1)))?;
        d.set_item("before", before)?;
        d.set_item("same_year", same_year)?;
        d.set_item("followed", n.followed)?;
        d.set_item("unique_from", n.unique_from)?;
        d.set_item("value", value.and_then(|v| v.value))?;
        d.set_item("loss", value.map(|v| v.loss))?;
        d.set_item("exact", value.map(|v| v.exact))?;
        d.set_item("value_depth", value.and_then(|v| v.depth))?;
        Ok(Some(d))
    }

    /// The game's positions as `Database.positions()` gives them (8x8
    /// games only).
    fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        if self.board_size() != BoardSize::Eight {
            return Err(PyValueError::new_err(
                "positions() holds 8x8 positions (uint64 bitboards); this is a 10x10 game",
            ));
        }
        let rows = GameRows {
            view: self.view(),
            depth: self.depth,
            game: u32::try_from(self.number).unwrap_or(u32::MAX),
        };
        columns_dict(py, positions::of_game(&rows))
    }

    /// Every move judged (`wthor analyze`): exact from `empties` empty
    /// squares to the end, the midgame search's estimate (at
    /// `estimate_depth` plies, 18 when `None`, or `time_ms` a search: not
    /// repeatable) before; the stored theoretical score checked when
    /// `empties` reaches the file's depth. A dict of NumPy arrays, one row
    /// per move (see the stubs), and the rest of the analysis's report
    /// (`wthor analyze --format jsonl`'s line) in snake_case: `exact_from`,
    /// `black_line`, `final_black`, `final_depth`, `ending`, `estimate`,
    /// `theoretical`. Solved without the GIL; 8x8
    /// games only (`ValueError` for 10x10).
    #[pyo3(signature = (empties = 20, *, estimate_depth = None, time_ms = None))]
    fn analyze<'py>(
        &self,
        py: Python<'py>,
        empties: u8,
        estimate_depth: Option<u32>,
        time_ms: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = crate::analysis::options(empties, estimate_depth, time_ms)?;
        let view = self.view();
        let mut analyzer = crate::analysis::analyzer(&options)?;
        let analysis = py.detach(|| {
            wthor_db::analysis::analyze_game(&view, self.depth, &options, &mut analyzer)
        });
        let analysis = analysis.map_err(|e| crate::analysis::error(&e))?;
        let report = wthor_db::analysis::Report::new(self.id.as_str(), &options, analysis);
        crate::analysis::of_game(
            py,
            u32::try_from(self.number).unwrap_or(u32::MAX),
            &report,
            self.depth,
            view.theoretical_score(),
        )
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({:?}, {} vs {}, {}-{}, {} moves)",
            self.id,
            self.black
                .clone()
                .unwrap_or_else(|| placeholder(NameKind::Players, self.black_number)),
            self.white
                .clone()
                .unwrap_or_else(|| placeholder(NameKind::Players, self.white_number)),
            self.real_score,
            self.size as usize * self.size as usize - self.real_score as usize,
            self.view().move_count()
        )
    }
}
