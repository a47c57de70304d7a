//! Game identity: [`GameId`], and its text form `YEAR:INDEX` or
//! `FILE:INDEX`.
//!
//! A [`GameId`] is the position of a game's file in
//! [`Database::files`](crate::Database::files) and the game's index in that
//! file (from 0): small, `Copy`, ordered as the database is. Its text form
//! comes from the database ([`Database::game_name`], parsed back by
//! [`Database::parse_game_id`]):
//!
//! * `2001:5`: game 5 of the yearly 8x8 file `WTH_2001.wtb` (any case);
//! * `WTH_2001.wtd:5`: a yearly 10x10 file is named by its file name, so
//!   that `2001:5` always means the 8x8 game;
//! * `PLAYOK_2023.wtb:0`: any other file, by its name;
//! * a path (`variants/x/WTH_2001.wtb:5`) when two files of the database
//!   share a name (the year form then names neither).
//!
//! [`GameNumbers`] ([`Database::game_numbers`]) numbers the games across
//! the database, from 0, the game files counted in database order: the
//! one numbering of Python's `Game.number` and `Database[n]`, the Parquet
//! export's `number`, the positions' `game` column and the index's
//! entries.

use std::fmt;

use crate::Database;
use crate::files::DbFile;

/// A game of the database: its file (position in
/// [`Database::files`](crate::Database::files)) and its index in the file,
/// from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId {
    file: u32,
    index: u32,
}

impl GameId {
    /// The game of index `index` in file `file`.
    ///
    /// # Panics
    /// When either number does not fit in 32 bits.
    #[must_use]
    pub fn new(file: usize, index: usize) -> GameId {
        GameId {
            file: u32::try_from(file).expect("file index fits in 32 bits"),
            index: u32::try_from(index).expect("game index fits in 32 bits"),
        }
    }

    /// The position of the game's file in the database.
    #[must_use]
    #[inline]
    pub fn file(self) -> usize {
        self.file as usize
    }

    /// The index of the game in its file, from 0.
    #[must_use]
    #[inline]
    pub fn index(self) -> usize {
        self.index as usize
    }
}

/// The text form of a [`GameId`] (`2001:5`), from [`Database::game_name`].
#[derive(Clone, Copy, Debug)]
pub struct GameName<'a> {
    label: &'a str,
    index: usize,
}

impl fmt::Display for GameName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.label, self.index)
    }
}

/// Why a text is not a game of the database.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameIdError {
    /// No `:` between the file and the index, or an index that is no
    /// number.
    #[error("expected YEAR:INDEX or FILE:INDEX (e.g. 2001:0), got {0:?}")]
    Syntax(String),
    /// No game file of the database has that year or name.
    #[error("no game file {0:?} in the database")]
    NoFile(String),
    /// Several files have that year or name.
    #[error("{0:?} names {1} files of the database: give the path")]
    Ambiguous(String, usize),
    /// The file has fewer games.
    #[error(
        "{file} has {count} {} (indices from 0), no game {index}",
        if *count == 1 { "game" } else { "games" }
    )]
    NoGame {
        /// The file's label.
        file: String,
        /// The index asked for.
        index: usize,
        /// The games of the file.
        count: usize,
    },
}

/// `Some(year)` when the file name is `WTH_YYYY.wtb` (any case).
fn yearly8(name: &str) -> Option<&str> {
    let lower = name.to_ascii_lowercase();
    let year = lower.strip_prefix("wth_")?.strip_suffix(".wtb")?;
    (year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit())).then(|| &name[4..8])
}

/// The label of a game file known by its name alone (no database to tell
/// two files of one name apart): the year of a yearly 8x8 file
/// `WTH_YYYY.wtb` (any case), else the name. `format!("{label}:{index}")`
/// is then the game's text form, as in a results log's report.
///
/// ```
/// use wthor_db::id::file_label;
/// assert_eq!(file_label("WTH_1990.wtb"), "1990");
/// assert_eq!(file_label("wth_2025.WTB"), "2025");
/// assert_eq!(file_label("WTH_2001.wtd"), "WTH_2001.wtd");
/// assert_eq!(file_label("PLAYOK_2023.wtb"), "PLAYOK_2023.wtb");
/// assert_eq!(file_label("WTH_19x0.wtb"), "WTH_19x0.wtb");
/// ```
#[must_use]
pub fn file_label(name: &str) -> &str {
    yearly8(name).unwrap_or(name)
}

/// The label of each file (see the module docs).
pub(crate) fn labels(files: &[DbFile]) -> Vec<String> {
    let names: Vec<String> = files.iter().map(DbFile::file_name).collect();
    let count = |n: &str| names.iter().filter(|m| m.eq_ignore_ascii_case(n)).count();
    files
        .iter()
        .zip(&names)
        .map(|(f, name)| {
            if count(name) > 1 {
                f.path().display().to_string()
            } else if let Some(year) = yearly8(name) {
                year.to_owned()
            } else {
                name.clone()
            }
        })
        .collect()
}

impl Database {
    /// The text form of a game: `2001:5`, `WTH_2001.wtd:5`, `FILE:INDEX`.
    ///
    /// # Panics
    /// When `id` names no file of this database.
    #[must_use]
    pub fn game_name(&self, id: GameId) -> GameName<'_> {
        GameName {
            label: self.label(id.file()),
            index: id.index(),
        }
    }

    /// The game a text names: `YEAR:INDEX` (the 8x8 yearly file), or
    /// `FILE:INDEX` with a file name (any case) or a path; the game must
    /// exist.
    ///
    /// ```
    /// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    /// let db = wthor_db::Database::open(&testdata)?;
    /// let id = db.parse_game_id("2001:3").unwrap();
    /// assert_eq!(db.game_name(id).to_string(), "2001:3");
    /// let ten = db.parse_game_id("wth_2001.WTD:3").unwrap();
    /// assert_eq!(db.game_name(ten).to_string(), "WTH_2001.wtd:3");
    /// assert!(db.parse_game_id("2001:100000").is_err());
    /// # Ok::<(), wthor_db::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`GameIdError`]: the syntax, no such file, several, no such game.
    pub fn parse_game_id(&self, text: &str) -> Result<GameId, GameIdError> {
        let syntax = || GameIdError::Syntax(text.to_owned());
        let (file, index) = text.trim().rsplit_once(':').ok_or_else(syntax)?;
        let index: usize = index.parse().map_err(|_| syntax())?;
        if file.is_empty() {
            return Err(syntax());
        }
        let matches: Vec<usize> = (0..self.files().len())
            .filter(|&i| self.files()[i].board_size().is_some())
            .filter(|&i| {
                let f = &self.files()[i];
                let name = f.file_name();
                self.label(i).eq_ignore_ascii_case(file)
                    || name.eq_ignore_ascii_case(file)
                    || yearly8(&name) == Some(file)
                    || f.path() == std::path::Path::new(file)
            })
            .collect();
        let &[i] = matches.as_slice() else {
            return Err(if matches.is_empty() {
                GameIdError::NoFile(file.to_owned())
            } else {
                GameIdError::Ambiguous(file.to_owned(), matches.len())
            });
        };
        let count = self.files()[i].game_count();
        if index >= count {
            return Err(GameIdError::NoGame {
                file: self.label(i).to_owned(),
                index,
                count,
            });
        }
        Ok(GameId::new(i, index))
    }
}

/// The database-wide numbers of the games (see the module docs): the
/// games of the game files counted in database order, from 0.
///
/// ```
/// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
/// let db = wthor_db::Database::open(&testdata)?;
/// let numbers = db.game_numbers();
/// let last = numbers.len() - 1;
/// let id = numbers.id(last).unwrap();
/// assert_eq!(numbers.number(id), Some(last));
/// assert_eq!(numbers.id(numbers.len()), None);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameNumbers {
    /// Per file of the database: the number of its first game.
    starts: Vec<usize>,
    /// The game files: (first number, file, games), in database order.
    ranges: Vec<(usize, usize, usize)>,
    /// Every game.
    len: usize,
}

impl GameNumbers {
    /// The number of game `id` (`None` when the database has no such
    /// game).
    #[must_use]
    pub fn number(&self, id: GameId) -> Option<usize> {
        let k = self
            .ranges
            .binary_search_by_key(&id.file(), |&(_, file, _)| file)
            .ok()?;
        let (start, _, games) = self.ranges[k];
        (id.index() < games).then_some(start + id.index())
    }

    /// The game numbered `number` (`None` past the last).
    #[must_use]
    pub fn id(&self, number: usize) -> Option<GameId> {
        let k = self
            .ranges
            .partition_point(|&(start, _, _)| start <= number);
        let (start, file, games) = *self.ranges.get(k.checked_sub(1)?)?;
        (number < start + games).then(|| GameId::new(file, number - start))
    }

    /// The number of the first game of each file of the database, in the
    /// order of [`Database::files`] (a file without games: the number the
    /// next game file starts at).
    #[must_use]
    pub fn starts(&self) -> &[usize] {
        &self.starts
    }

    /// How many games are numbered.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the database has no game.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Database {
    /// The database-wide numbers of its games ([`GameNumbers`]).
    #[must_use]
    pub fn game_numbers(&self) -> GameNumbers {
        let mut numbers = GameNumbers::default();
        for (file, f) in self.files().iter().enumerate() {
            numbers.starts.push(numbers.len);
            if f.board_size().is_some() && f.game_count() > 0 {
                numbers.ranges.push((numbers.len, file, f.game_count()));
                numbers.len += f.game_count();
            }
        }
        numbers
    }
}
