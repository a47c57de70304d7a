//! The database: game, names and puzzle files from one or several
//! directories and single files, each game file paired with the names
//! files of its release.
//!
//! Opening maps and parses each file's header and counts (no per-game work);
//! names are decoded on first use (see [`crate::names`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wthor_format::{FileKind, ReadOptions};

use crate::files::{DbFile, Reads, list_files, list_folder};
use crate::names::NamesTable;
use crate::{Error, GameId};

/// How to open the files of a database.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct OpenOptions {
    /// Descend into subdirectories.
    pub recursive: bool,
    /// Memory-map the files (the default) rather than read them into memory.
    pub mmap: bool,
    /// How to parse the files (strict mode, name encoding). By default a
    /// database reads a file cut inside a record up to its last whole
    /// record, with a warning ([`ReadOptions::read_cut_records`]); strict
    /// mode refuses it.
    pub read: ReadOptions,
}

impl Default for OpenOptions {
    fn default() -> Self {
        let mut read = ReadOptions::default();
        read.read_cut_records = true;
        OpenOptions {
            recursive: false,
            mmap: true,
            read,
        }
    }
}

/// Builds a [`Database`] from directories and files.
///
/// ```
/// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
/// let db = wthor_db::DatabaseBuilder::new()
///     .source(testdata.join("WTH_2001.wtb"))
///     .players(testdata.join("WTHOR.JOU"))
///     .open()?;
/// // The game file, the players file given, and the tournaments file
/// // beside the game file.
/// assert_eq!(db.files().len(), 3);
/// # Ok::<(), wthor_db::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct DatabaseBuilder {
    sources: Vec<PathBuf>,
    players: Option<PathBuf>,
    tournaments: Option<PathBuf>,
    options: OpenOptions,
    skip_damaged: bool,
    require_games: bool,
}

impl Default for DatabaseBuilder {
    fn default() -> Self {
        let mut options = OpenOptions::default();
        options.read.check_moves = false;
        DatabaseBuilder {
            sources: Vec::new(),
            players: None,
            tournaments: None,
            options,
            skip_damaged: false,
            require_games: false,
        }
    }
}

impl DatabaseBuilder {
    /// An empty builder. Its options are the default [`OpenOptions`] except
    /// that move bytes are not checked when the files are opened
    /// ([`ReadOptions::check_moves`] off: opening reads headers and counts
    /// only; a bad byte shows when the game is replayed).
    #[must_use]
    pub fn new() -> DatabaseBuilder {
        DatabaseBuilder::default()
    }

    /// Adds a directory (its WTHOR files, see [`list_files`]) or a single
    /// file. A game or puzzle file brings the names files it is joined
    /// with in its directory (the newest of its own release, else the
    /// FFO's `WTH.JOU`/`WTHOR.JOU`, as for a directory: see
    /// [`Database::from_files`]), unless
    /// [`players`](DatabaseBuilder::players) or
    /// [`tournaments`](DatabaseBuilder::tournaments) name them.
    #[must_use]
    pub fn source(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.sources.push(path.into());
        self
    }

    /// The players file of every game file, instead of the newest of each
    /// game file's directory.
    #[must_use]
    pub fn players(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.players = Some(path.into());
        self
    }

    /// The tournaments file of every game file, instead of the newest of
    /// each game file's directory.
    #[must_use]
    pub fn tournaments(mut self, path: impl Into<PathBuf>) -> DatabaseBuilder {
        self.tournaments = Some(path.into());
        self
    }

    /// How files are opened and parsed.
    #[must_use]
    pub fn options(mut self, options: OpenOptions) -> DatabaseBuilder {
        self.options = options;
        self
    }

    /// The one way a front end opens a database (the `wthor` commands'
    /// `--db`, the server `wthor serve` starts, Python's `Database(...)`):
    /// a database that must hold games ([`require_games`](DatabaseBuilder::require_games));
    /// leniently by default, a damaged file set aside
    /// ([`skip_damaged`](DatabaseBuilder::skip_damaged)) and a file cut
    /// inside a record read up to its last whole record, both said by
    /// [`Database::damage_notes`] (the others still answer; when no game
    /// file is left, the first damaged one's error); `strict` refuses
    /// both. Call [`options`](DatabaseBuilder::options) before it.
    #[must_use]
    pub fn for_front_end(mut self, strict: bool) -> DatabaseBuilder {
        self.options.read.strict |= strict;
        self.skip_damaged(!strict).require_games(true)
    }

    /// Whether a file that cannot be opened or parsed is set aside (listed
    /// by [`Database::skipped`]) rather than failing the whole database.
    /// Off by default. Explicit names files always fail when unreadable.
    #[must_use]
    pub fn skip_damaged(mut self, skip: bool) -> DatabaseBuilder {
        self.skip_damaged = skip;
        self
    }

    /// Whether a database without any game file (`.wtb`, `.wtd`), or a
    /// directory given that holds none ([`list_folder`] with
    /// [`Reads::Games`]), is an error ([`Error::NoGameFiles`], naming the
    /// directory) rather than an empty database: what a front end that
    /// answers queries wants, so that a wrong directory is not taken for a
    /// database where nothing matches. Off by default (a directory to
    /// import or install into may hold no games yet).
    #[must_use]
    pub fn require_games(mut self, require: bool) -> DatabaseBuilder {
        self.require_games = require;
        self
    }

    /// Opens the files: sources in the order given, each directory's files
    /// in path order; a file listed twice is opened once.
    ///
    /// # Errors
    /// [`Error::Io`] when a source cannot be listed or read (a source that
    /// does not exist is never set aside as damaged),
    /// [`Error::Format`] when a file is no readable WTHOR file (unless
    /// [`skip_damaged`](DatabaseBuilder::skip_damaged)),
    /// [`Error::WrongKind`] when an explicit names file is of another kind,
    /// [`Error::NoGameFiles`] when [`require_games`](DatabaseBuilder::require_games)
    /// is set and no game file was found, or a directory given holds none
    /// (the error of the first game file set aside, when one was).
    pub fn open(self) -> Result<Database, Error> {
        let mut paths = Vec::new();
        for source in &self.sources {
            if let Err(e) = std::fs::metadata(source) {
                return Err(Error::Io {
                    path: source.clone(),
                    source: e,
                });
            }
            if source.is_dir() {
                paths.extend(if self.require_games {
                    list_folder(source, self.options.recursive, Reads::Games)?
                } else {
                    list_files(source, self.options.recursive)?
                });
            } else {
                paths.push(source.clone());
                paths.extend(self.names_beside(source));
            }
        }
        let mut seen = std::collections::HashSet::new();
        paths.retain(|p| seen.insert(p.clone()));
        let mut files = Vec::with_capacity(paths.len() + 2);
        let mut skipped = Vec::new();
        for path in &paths {
            match DbFile::open(path, &self.options) {
                Ok(f) => files.push(f),
                Err(e) if self.skip_damaged => skipped.push(e),
                Err(e) => return Err(e),
            }
        }
        if self.require_games && !files.iter().any(|f| f.board_size().is_some()) {
            // A game file set aside explains better than "no game files".
            let game_file = |e: &Error| {
                matches!(
                    FileKind::from_path(e.path()),
                    Some(FileKind::Games8 | FileKind::Games10)
                )
            };
            if let Some(i) = skipped.iter().position(game_file) {
                return Err(skipped.swap_remove(i));
            }
            return Err(Error::NoGameFiles {
                path: self.sources.first().cloned().unwrap_or_default(),
            });
        }
        let mut explicit =
            |path: &Option<PathBuf>, kind: FileKind| -> Result<Option<usize>, Error> {
                let Some(path) = path else { return Ok(None) };
                if let Some(i) = files.iter().position(|f| f.path() == path) {
                    return check_kind(&files[i], kind).map(|()| Some(i));
                }
                let f = DbFile::open(path, &self.options)?;
                check_kind(&f, kind)?;
                files.push(f);
                Ok(Some(files.len() - 1))
            };
        let players = explicit(&self.players, FileKind::Players)?;
        let tournaments = explicit(&self.tournaments, FileKind::Tournaments)?;
        let root = self.sources.first().cloned().unwrap_or_default();
        let mut db = Database::from_files(root, files);
        db.skipped = skipped;
        for (join, file) in db.joins.iter_mut().zip(&db.files) {
            if file.board_size().is_some() || file.kind() == FileKind::Solitaires {
                join.players = players.or(join.players);
                join.tournaments = tournaments.or(join.tournaments);
            }
        }
        Ok(db)
    }
}

impl DatabaseBuilder {
    /// The names files that a game or puzzle file given alone is joined
    /// with, as it would be in a database of its whole directory: those of
    /// its directory of its own release, else the FFO's (see
    /// [`Database::from_files`]); none of a kind given explicitly
    /// ([`players`](DatabaseBuilder::players),
    /// [`tournaments`](DatabaseBuilder::tournaments)). A directory that
    /// cannot be listed gives none (the names are then placeholders).
    fn names_beside(&self, file: &Path) -> Vec<PathBuf> {
        if !matches!(
            FileKind::from_path(file),
            Some(FileKind::Games8 | FileKind::Games10 | FileKind::Solitaires)
        ) {
            return Vec::new();
        }
        let listed = list_files(folder(file), false).unwrap_or_default();
        let own = family(file);
        let mut beside = Vec::new();
        for (kind, explicit) in [
            (FileKind::Players, &self.players),
            (FileKind::Tournaments, &self.tournaments),
        ] {
            if explicit.is_some() {
                continue;
            }
            let of = |release: &str| -> Vec<PathBuf> {
                listed
                    .iter()
                    .filter(|p| FileKind::from_path(p) == Some(kind) && family(p) == release)
                    .cloned()
                    .collect()
            };
            let mine = of(&own);
            beside.extend(if mine.is_empty() { of("WTH") } else { mine });
        }
        beside
    }
}

fn check_kind(file: &DbFile, expected: FileKind) -> Result<(), Error> {
    if file.kind() == expected {
        Ok(())
    } else {
        Err(Error::WrongKind {
            path: file.path().to_owned(),
            expected,
            found: file.kind(),
        })
    }
}

/// The names files a game file is read with (indices in
/// [`Database::files`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Join {
    /// The players file.
    pub players: Option<usize>,
    /// The tournaments file.
    pub tournaments: Option<usize>,
}

/// The WTHOR files of one or several directories, names joined.
///
/// Files keep the order they were opened in; a game is named by a
/// [`GameId`] (its file's position in [`files`](Database::files) and its
/// index in the file).
#[derive(Debug)]
pub struct Database {
    root: PathBuf,
    files: Vec<DbFile>,
    joins: Vec<Join>,
    labels: Vec<String>,
    names: Vec<OnceLock<NamesTable>>,
    skipped: Vec<Error>,
    /// The whole database's ratings for the rating filter, made at its
    /// first use ([`Database::filter_ratings`]).
    filter_ratings: OnceLock<crate::ratings::Ratings>,
    /// Per file, its players' ratings of its year by player number, made
    /// at first use ([`Database::file_ratings`]).
    file_ratings: Vec<OnceLock<Vec<f64>>>,
    /// Where they are kept (`None`: the user's cache directory).
    ratings_file: Option<PathBuf>,
}

impl Database {
    /// Opens the WTHOR files (`.wtb .wtd .jou .trn .pzz`, any case) of
    /// `dir`, not descending into subdirectories, memory-mapped.
    ///
    /// # Errors
    /// As [`Database::open_with`].
    pub fn open(dir: impl AsRef<Path>) -> Result<Database, Error> {
        Database::open_with(dir, &OpenOptions::default())
    }

    /// Opens the WTHOR files of `dir` with `options`, in path order. Files
    /// with other extensions are ignored.
    ///
    /// # Errors
    /// [`Error::Io`] when the directory or a file cannot be read,
    /// [`Error::Format`] when a file is no readable WTHOR file.
    pub fn open_with(dir: impl AsRef<Path>, options: &OpenOptions) -> Result<Database, Error> {
        let root = dir.as_ref().to_owned();
        let paths = list_files(&root, options.recursive)?;
        Database::from_paths(root, &paths, options)
    }

    /// A database of the given files (in that order), `root` naming it.
    ///
    /// # Errors
    /// As [`Database::open_with`].
    pub fn from_paths(
        root: impl Into<PathBuf>,
        paths: &[PathBuf],
        options: &OpenOptions,
    ) -> Result<Database, Error> {
        let files = paths
            .iter()
            .map(|p| DbFile::open(p, options))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Database::from_files(root, files))
    }

    /// A database of files already opened (in that order), `root` naming
    /// it. Each game file is joined with the newest players and
    /// tournaments files (by header creation date, then the one with more
    /// names) of its own release in its directory: names files whose stem
    /// is the game file's up to the first `_` (`PLAYOK.JOU` for
    /// `PLAYOK_2023.wtb`), else the FFO's (`WTH.JOU`, `WTHOR.JOU`, any
    /// case); a game file with neither has no names (placeholders).
    #[must_use]
    pub fn from_files(root: impl Into<PathBuf>, files: Vec<DbFile>) -> Database {
        let joins = default_joins(&files);
        let names = files.iter().map(|_| OnceLock::new()).collect();
        let mut db = Database {
            root: root.into(),
            files,
            joins,
            labels: Vec::new(),
            names,
            skipped: Vec::new(),
            filter_ratings: OnceLock::new(),
            file_ratings: Vec::new(),
            ratings_file: None,
        };
        db.relabel();
        db
    }

    /// Keeps the ratings the rating filter uses in `file` rather than in
    /// the user's cache directory ([`Database::kept_ratings`]).
    #[must_use]
    pub fn with_ratings_file(mut self, file: impl Into<PathBuf>) -> Database {
        self.ratings_file = Some(file.into());
        self
    }

    /// The whole database's ratings, as the rating filter
    /// ([`Query::min_rating`](crate::Query::min_rating)) reads them: kept
    /// between runs ([`Database::kept_ratings`] with the fitted parameters
    /// and the file of [`Database::with_ratings_file`]), made once per
    /// `Database`. A file that cannot be kept is no error here (the
    /// ratings are fitted again next time); `wthor ratings` reports it.
    pub fn filter_ratings(&self) -> &crate::ratings::Ratings {
        self.filter_ratings.get_or_init(|| {
            // Only parameters out of range fail (a query of every game
            // always runs), and the fitted ones are in range.
            self.kept_ratings(
                &crate::ratings::Params::FITTED,
                self.ratings_file.as_deref(),
            )
            .map(|kept| kept.ratings)
            .unwrap_or_else(|_| unreachable!("the fitted parameters are in range"))
        })
    }

    /// The ratings of `file`'s players in its year by player number
    /// ([`Database::filter_ratings`]' fit, as
    /// [`PlayerRatings::rating_in`](crate::ratings::PlayerRatings::rating_in)
    /// gives them), NaN for a player without one; made once per file, so
    /// that a fold over the games reads a rating by its number. Empty for
    /// a file that is no 8x8 game file with a players file (the fit rates
    /// only 8x8 games).
    #[must_use]
    pub fn file_ratings(&self, file: usize) -> &[f64] {
        let Some(slot) = self.file_ratings.get(file) else {
            return &[];
        };
        slot.get_or_init(|| {
            let f = &self.files[file];
            let (Some(n), Some(wthor_format::BoardSize::Eight)) =
                (self.join(file).players, f.board_size())
            else {
                return Vec::new();
            };
            let Some(table) = self.names(n) else {
                return Vec::new();
            };
            let ratings = self.filter_ratings();
            let year = f.year();
            (0..table.len())
                .map(|i| {
                    u16::try_from(i)
                        .ok()
                        .and_then(|number| table.get(number))
                        .and_then(|name| ratings.named(name))
                        .and_then(|p| p.rating_in(year))
                        .unwrap_or(f64::NAN)
                })
                .collect()
        })
    }

    fn relabel(&mut self) {
        self.labels = crate::id::labels(&self.files);
        self.file_ratings = self.files.iter().map(|_| OnceLock::new()).collect();
    }

    /// The first directory or file the database was opened from.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The files, in the order opened.
    #[must_use]
    pub fn files(&self) -> &[DbFile] {
        &self.files
    }

    /// The files that could not be opened (with
    /// [`DatabaseBuilder::skip_damaged`]), each with why.
    #[must_use]
    pub fn skipped(&self) -> &[Error] {
        &self.skipped
    }

    /// What the database left out, a sentence each, as every front end
    /// says it (the CLI as a `wthor: warning:` line, Python as a
    /// `UserWarning`): each damaged file set aside (`PATH: why; file
    /// skipped`), each file read only up to its last whole record (cut
    /// inside a record, or with a header count above its records).
    #[must_use]
    pub fn damage_notes(&self) -> Vec<String> {
        let skipped = self
            .skipped
            .iter()
            .map(|e| format!("{}; file skipped", crate::error_chain(e)));
        let incomplete = self.files.iter().filter_map(|f| {
            f.incomplete()
                .map(|w| format!("{}: {w}", f.path().display()))
        });
        skipped.chain(incomplete).collect()
    }

    /// The names files of file `file` (nothing for files that are not game
    /// files, or an index out of range).
    #[must_use]
    pub fn join(&self, file: usize) -> Join {
        self.joins.get(file).copied().unwrap_or_default()
    }

    /// The label of file `file` in game identities: the year of a yearly
    /// 8x8 file (`2001`), else its name (`WTH_2001.wtd`), else its path
    /// when the name is not unique in the database.
    ///
    /// # Panics
    /// When `file` is out of range.
    #[must_use]
    pub fn label(&self, file: usize) -> &str {
        &self.labels[file]
    }

    /// The decoded names of a players or tournaments file (`None` for
    /// other kinds), decoded once on first use.
    #[must_use]
    pub fn names(&self, file: usize) -> Option<&NamesTable> {
        let f = self.files.get(file)?;
        if !matches!(f.kind(), FileKind::Players | FileKind::Tournaments) {
            return None;
        }
        Some(self.names[file].get_or_init(|| NamesTable::of_file(f)))
    }

    /// The number of games of all game files.
    #[must_use]
    pub fn game_count(&self) -> usize {
        self.files.iter().map(DbFile::game_count).sum()
    }

    /// The game `id`, borrowed from its file.
    #[must_use]
    pub fn game(&self, id: GameId) -> Option<wthor_format::GameView<'_>> {
        self.files.get(id.file())?.game(id.index())
    }

    /// The file of game `id`.
    #[must_use]
    pub fn file_of(&self, id: GameId) -> Option<&DbFile> {
        self.files.get(id.file())
    }

    /// Every game as `(file index, game index, view)`.
    pub fn games(&self) -> impl Iterator<Item = (usize, usize, wthor_format::GameView<'_>)> + '_ {
        self.files
            .iter()
            .enumerate()
            .flat_map(|(f, file)| file.games().enumerate().map(move |(i, g)| (f, i, g)))
    }
}

/// The release family of a file: its stem up to the first `_`, upper case,
/// with `WTHOR` (the FFO's older naming) read as `WTH` (`WTH_2001.wtb`,
/// `WTH.JOU` and `WTHOR.JOU` are one family; `PLAYOK_2023.wtb` and
/// `PLAYOK.JOU` another).
fn family(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_uppercase())
        .unwrap_or_default();
    let head = stem.split('_').next().unwrap_or_default();
    if head == "WTHOR" {
        "WTH".to_owned()
    } else {
        head.to_owned()
    }
}

/// The folder of a file, `.` for a bare name (as `./NAME` gives it), so that
/// `WTH_2001.wtb` and `./WTHOR.JOU` are in the same one.
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// What the join of names files knows of a file: its path (its folder and
/// release), its kind, and its rank among names files of one release
/// (header creation date, then number of records: the newest wins).
#[derive(Clone, Copy, Debug)]
pub(crate) struct JoinFacts<'a> {
    pub(crate) path: &'a Path,
    pub(crate) kind: FileKind,
    pub(crate) rank: (wthor_format::CreationDate, usize),
}

impl<'a> JoinFacts<'a> {
    fn of(f: &'a DbFile) -> JoinFacts<'a> {
        JoinFacts {
            path: f.path(),
            kind: f.kind(),
            rank: (f.header().created, f.len()),
        }
    }
}

fn default_joins(files: &[DbFile]) -> Vec<Join> {
    joins(&files.iter().map(JoinFacts::of).collect::<Vec<_>>())
}

/// Each game file (and puzzle file: its puzzles name the players of the
/// games they come from) joined with the newest names files (by header
/// creation date, then size) of its own release in its directory: same
/// family ([`family`]: `Solitaires.jou` for `Solitaires_6.pzz`), else the
/// FFO's (`WTH`/`WTHOR`); none otherwise. The one rule of the join: a
/// database's, and the one `install` checks names against.
pub(crate) fn joins(files: &[JoinFacts<'_>]) -> Vec<Join> {
    type Key<'a> = (&'a Path, String, FileKind);
    let mut newest: BTreeMap<Key<'_>, usize> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        if !matches!(f.kind, FileKind::Players | FileKind::Tournaments) {
            continue;
        }
        let key = (folder(f.path), family(f.path), f.kind);
        match newest.get(&key) {
            Some(&j) if files[j].rank >= f.rank => {}
            _ => {
                newest.insert(key, i);
            }
        }
    }
    files
        .iter()
        .map(|f| {
            if !matches!(
                f.kind,
                FileKind::Games8 | FileKind::Games10 | FileKind::Solitaires
            ) {
                return Join::default();
            }
            let dir = folder(f.path);
            let own = family(f.path);
            let find = |kind| {
                newest
                    .get(&(dir, own.clone(), kind))
                    .or_else(|| newest.get(&(dir, "WTH".to_owned(), kind)))
                    .copied()
            };
            Join {
                players: find(FileKind::Players),
                tournaments: find(FileKind::Tournaments),
            }
        })
        .collect()
}
