//! A WTHOR database directory: memory-mapped files, borrowed game views,
//! and a parallel replay check of every game.
//!
//! ```no_run
//! use wthor_db::{Database, OpenOptions};
//!
//! let db = Database::open("data/wthor")?;
//! println!("{} games in {} files", db.game_count(), db.files().len());
//! let summary = db.par_check_games();
//! assert_eq!(summary, db.check_games()); // same answer, any thread count
//! println!("{} legal, {} unfinished", summary.totals.legal, summary.totals.unfinished);
//! # Ok::<(), wthor_db::Error>(())
//! ```
//!
//! The full database (names joined, queries, statistics) is a later issue;
//! this crate holds what `wthor validate` needs.

use std::fmt;
use std::fs::File;
use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use othello_core::replay::{GameStatus, IllegalMove, replay_with, wthor_tokens};
use othello_core::{Board, Board8, Board10};
use rayon::prelude::*;
use wthor_format::{BoardSize, FileKind, GameView, ReadOptions, Warning, WthorFile};

pub mod cache;
pub mod install;
pub mod position_line;
pub mod verify;

/// Why a database could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be listed, opened or mapped.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path concerned.
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// A WTHOR file could not be parsed.
    #[error("{}: {source}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The parse error (with its byte offset and record).
        #[source]
        source: wthor_format::Error,
    },
}

impl Error {
    /// The path of the file or directory that failed.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Error::Io { path, .. } | Error::Format { path, .. } => path,
        }
    }
}

/// How to open a database.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct OpenOptions {
    /// Descend into subdirectories.
    pub recursive: bool,
    /// Memory-map the files (the default) rather than read them into memory.
    pub mmap: bool,
    /// How to parse the files (strict mode, name encoding).
    pub read: ReadOptions,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            recursive: false,
            mmap: true,
            read: ReadOptions::default(),
        }
    }
}

/// The bytes of a file: mapped, or read into memory.
enum Bytes {
    Mapped(Mmap),
    Owned(Vec<u8>),
}

impl Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Bytes::Mapped(m) => m,
            Bytes::Owned(v) => v,
        }
    }
}

/// One WTHOR file of the database.
pub struct DbFile {
    path: PathBuf,
    kind: FileKind,
    bytes: Bytes,
    /// Byte range of the whole game records (game files only).
    records: Range<usize>,
    size: Option<BoardSize>,
    len: usize,
    warnings: Vec<Warning>,
}

impl fmt::Debug for DbFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DbFile")
            .field("path", &self.path)
            .field("kind", &self.kind)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

impl DbFile {
    /// Opens and parses one file (its kind detected from header, size and
    /// extension).
    ///
    /// # Safety of the memory map
    /// With `options.mmap` the file is mapped read-only. Another process
    /// truncating or rewriting the file while it is mapped would change
    /// bytes under our feet (or fault on truncation): the Rust view of the
    /// map as a `&[u8]` assumes it does not happen. WTHOR directories are
    /// archives that only change through the program that owns them, file
    /// by file, so we take that risk, as ripgrep does, for speed; every
    /// record is still bounds-checked, so a change can give wrong answers
    /// or a crash on truncation but is never trusted for indexing. When that
    /// is not acceptable (files being updated), open with `mmap: false`.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read or mapped,
    /// [`Error::Format`] when it is no WTHOR file.
    pub fn open(path: &Path, options: &OpenOptions) -> Result<DbFile, Error> {
        let io = |source| Error::Io {
            path: path.to_owned(),
            source,
        };
        let bytes = if options.mmap {
            let file = File::open(path).map_err(io)?;
            let len = file.metadata().map_err(io)?.len();
            if len == 0 {
                Bytes::Owned(Vec::new())
            } else {
                // SAFETY: read-only map of a file we do not modify; see the
                // `# Safety of the memory map` section above for the stance
                // on other processes changing it.
                Bytes::Mapped(unsafe { Mmap::map(&file) }.map_err(io)?)
            }
        } else {
            Bytes::Owned(std::fs::read(path).map_err(io)?)
        };
        let parsed = wthor_format::parse_any(&bytes, FileKind::from_path(path), &options.read)
            .map_err(|source| Error::Format {
                path: path.to_owned(),
                source,
            })?;
        let kind = parsed.kind();
        let len = parsed.len();
        let warnings = parsed.warnings().to_vec();
        let (records, size) = match &parsed {
            WthorFile::Games(g) => {
                // The records are a sub-slice of `bytes`: find where (an
                // empty slice may point anywhere).
                let records = g.records_bytes();
                let start = (records.as_ptr() as usize)
                    .checked_sub(bytes.as_ptr() as usize)
                    .filter(|s| !records.is_empty() && s + records.len() <= bytes.len());
                match start {
                    Some(start) => (start..start + records.len(), Some(g.board_size())),
                    None => (0..0, Some(g.board_size())),
                }
            }
            _ => (0..0, None),
        };
        drop(parsed);
        Ok(DbFile {
            path: path.to_owned(),
            kind,
            bytes,
            records,
            size,
            len,
            warnings,
        })
    }

    /// The path the file was opened from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kind detected.
    #[must_use]
    pub fn kind(&self) -> FileKind {
        self.kind
    }

    /// The number of whole records.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the file holds no record.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The warnings of the parser (data quirks, not failures).
    #[must_use]
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The board size of a game file, `None` for other kinds.
    #[must_use]
    pub fn board_size(&self) -> Option<BoardSize> {
        self.size
    }

    /// The whole bytes of the file.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The game of index `index` (from 0), borrowed from the file.
    #[must_use]
    pub fn game(&self, index: usize) -> Option<GameView<'_>> {
        let size = self.size?;
        let len = size.record_len();
        let start = self.records.start.checked_add(index.checked_mul(len)?)?;
        if start + len > self.records.end {
            return None;
        }
        GameView::new(&self.bytes[start..start + len], size)
    }

    /// The games of the file (none for other kinds).
    pub fn games(&self) -> impl ExactSizeIterator<Item = GameView<'_>> + '_ {
        (0..self.game_count()).map(|i| self.game(i).expect("index below the record count"))
    }

    /// The number of games (0 for files of other kinds).
    #[must_use]
    pub fn game_count(&self) -> usize {
        self.size
            .map_or(0, |size| self.records.len() / size.record_len())
    }
}

/// The WTHOR files of a directory.
#[derive(Debug)]
pub struct Database {
    root: PathBuf,
    files: Vec<DbFile>,
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
        Ok(Database {
            root: root.into(),
            files,
        })
    }

    /// A database of files already opened (in that order), `root` naming it.
    #[must_use]
    pub fn from_files(root: impl Into<PathBuf>, files: Vec<DbFile>) -> Database {
        Database {
            root: root.into(),
            files,
        }
    }

    /// The directory opened.
    #[must_use]
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The files, in path order.
    #[must_use]
    pub fn files(&self) -> &[DbFile] {
        &self.files
    }

    /// The number of games of all game files.
    #[must_use]
    pub fn game_count(&self) -> usize {
        self.files.iter().map(DbFile::game_count).sum()
    }

    /// Every game as `(file index, game index, view)`.
    pub fn games(&self) -> impl Iterator<Item = (usize, usize, GameView<'_>)> + '_ {
        self.files
            .iter()
            .enumerate()
            .flat_map(|(f, file)| file.games().enumerate().map(move |(i, g)| (f, i, g)))
    }

    /// Replays and checks every game, one after the other.
    #[must_use]
    pub fn check_games(&self) -> CheckSummary {
        let per_file = self
            .files
            .iter()
            .enumerate()
            .map(|(f, file)| {
                file.games()
                    .enumerate()
                    .map(|(i, g)| FileCheck::of_game(f, i, &g))
                    .fold(FileCheck::default(), FileCheck::merge)
            })
            .collect();
        CheckSummary::new(per_file)
    }

    /// Replays and checks every game, in parallel over the games (rayon's
    /// current pool). Equal to [`check_games`](Database::check_games).
    #[must_use]
    pub fn par_check_games(&self) -> CheckSummary {
        let per_file = self
            .files
            .par_iter()
            .enumerate()
            .map(|(f, file)| {
                (0..file.game_count())
                    .into_par_iter()
                    .with_min_len(256)
                    .map(|i| {
                        let g = file.game(i).expect("index below the record count");
                        FileCheck::of_game(f, i, &g)
                    })
                    .reduce(FileCheck::default, FileCheck::merge)
            })
            .collect();
        CheckSummary::new(per_file)
    }
}

/// The WTHOR files of `dir` (extensions `.wtb .wtd .jou .trn .pzz`, any
/// case), sorted by path; subdirectories too when `recursive`.
///
/// # Errors
/// [`Error::Io`] when a directory cannot be listed.
pub fn list_files(dir: &Path, recursive: bool) -> Result<Vec<PathBuf>, Error> {
    let mut paths = Vec::new();
    list(dir, recursive, &mut paths)?;
    paths.sort();
    Ok(paths)
}

fn list(dir: &Path, recursive: bool, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let io = |source| Error::Io {
        path: dir.to_owned(),
        source,
    };
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if path.is_dir() {
            if recursive {
                list(&path, recursive, out)?;
            }
        } else if FileKind::from_path(&path).is_some() {
            out.push(path);
        }
    }
    Ok(())
}

/// The replay of one game checked against its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameCheck {
    /// Discs played.
    pub moves: usize,
    /// Passes inserted.
    pub passes: usize,
    /// The first illegal move, if any.
    pub illegal: Option<IllegalMove>,
    /// Whether the game reached its end.
    pub status: GameStatus,
    /// Black's and white's discs at the end.
    pub discs: (u32, u32),
    /// Black's score under the WTHOR rule (empties to the winner, a draw
    /// splits them).
    pub score: u32,
    /// Black's score as stored in the record.
    pub stored: u8,
}

impl GameCheck {
    /// Replays a game record.
    #[must_use]
    pub fn of(game: &GameView<'_>) -> GameCheck {
        match game.board_size() {
            BoardSize::Eight => check::<Board8>(game),
            BoardSize::Ten => check::<Board10>(game),
        }
    }

    /// Whether a finished game's computed score differs from the stored one
    /// (unfinished games store the recorded result: never a mismatch).
    #[must_use]
    pub fn is_mismatch(&self) -> bool {
        self.status == GameStatus::Finished && self.score != u32::from(self.stored)
    }
}

fn check<B: Board>(game: &GameView<'_>) -> GameCheck {
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(game.moves_raw()), |_| {});
    GameCheck {
        moves: r.moves,
        passes: r.passes,
        illegal: r.illegal,
        status: r.status,
        discs: r.discs(),
        score: r.score().0,
        stored: game.real_score(),
    }
}

/// Game counts of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read.
    pub games: usize,
    /// Games whose every move is legal.
    pub legal: usize,
    /// Games with an illegal move.
    pub illegal: usize,
    /// Games that reached the end (neither side can move).
    pub finished: usize,
    /// Games that stop while a side can still move.
    pub unfinished: usize,
    /// Finished games whose stored real score is not the WTHOR-rule score.
    pub mismatches: usize,
    /// Passes inserted, over all games.
    pub passes: usize,
    /// Discs played, over all games.
    pub moves: usize,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.legal += o.legal;
        self.illegal += o.illegal;
        self.finished += o.finished;
        self.unfinished += o.unfinished;
        self.mismatches += o.mismatches;
        self.passes += o.passes;
        self.moves += o.moves;
    }
}

/// A game worth reporting: an illegal move or a score mismatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Index of the file in [`Database::files`].
    pub file: usize,
    /// Index of the game in its file, from 0.
    pub game: usize,
    /// What the replay found.
    pub check: GameCheck,
}

/// The counts and findings of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCheck {
    /// Game counts.
    pub counts: Counts,
    /// Illegal games and mismatches, in game order.
    pub findings: Vec<Finding>,
}

impl FileCheck {
    fn of_game(file: usize, game: usize, view: &GameView<'_>) -> FileCheck {
        let check = GameCheck::of(view);
        let legal = check.illegal.is_none();
        let finished = check.status == GameStatus::Finished;
        let counts = Counts {
            games: 1,
            legal: usize::from(legal),
            illegal: usize::from(!legal),
            finished: usize::from(finished),
            unfinished: usize::from(!finished),
            mismatches: usize::from(check.is_mismatch()),
            passes: check.passes,
            moves: check.moves,
        };
        let findings = if !legal || check.is_mismatch() {
            vec![Finding { file, game, check }]
        } else {
            Vec::new()
        };
        FileCheck { counts, findings }
    }

    fn merge(mut self, other: FileCheck) -> FileCheck {
        self.counts.add(&other.counts);
        self.findings.extend(other.findings);
        self
    }
}

/// The result of checking every game of a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckSummary {
    /// Counts over all files.
    pub totals: Counts,
    /// Counts and findings per file, in [`Database::files`] order.
    pub per_file: Vec<FileCheck>,
}

impl CheckSummary {
    fn new(per_file: Vec<FileCheck>) -> CheckSummary {
        let mut totals = Counts::default();
        for f in &per_file {
            totals.add(&f.counts);
        }
        CheckSummary { totals, per_file }
    }
}
