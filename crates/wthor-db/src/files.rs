//! Files: one WTHOR file of the database ([`DbFile`], memory-mapped or
//! read, its records borrowed without copying) and the listing of a
//! directory ([`list_files`]).

use std::fmt;
use std::fs::File;
use std::ops::{Deref, Range};
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use wthor_format::{
    BoardSize, FileKind, GameView, Header, ReadOptions, Warning, WarningKind, WthorFile,
};

use crate::{Error, OpenOptions};

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
    header: Header,
    read: ReadOptions,
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
        let header = *parsed.header();
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
            header,
            read: options.read,
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

    /// The header as stored (creation date, year, depth of the theoretical
    /// scores).
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The options the file was read with.
    #[must_use]
    pub fn read_options(&self) -> &ReadOptions {
        &self.read
    }

    /// The year of the games (header field; 0 in other kinds of file).
    #[must_use]
    pub fn year(&self) -> u16 {
        self.header.year
    }

    /// The file name (without its directory), lossily as UTF-8.
    #[must_use]
    pub fn file_name(&self) -> String {
        self.path.file_name().map_or_else(
            || self.path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        )
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

    /// The warning saying that the file holds fewer records than its header
    /// announces (cut inside a record, or a count above its whole records),
    /// when it does: the records read are the whole ones, and whoever
    /// answers from them should say so.
    #[must_use]
    pub fn incomplete(&self) -> Option<&Warning> {
        self.warnings.iter().find(|w| match w.kind {
            WarningKind::CutRecord { .. } => true,
            WarningKind::CountMismatch { header, actual, .. } => u64::from(header) > actual,
            _ => false,
        })
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

/// The files a command reads from a directory: what makes a directory
/// worth reading for it (see [`list_folder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Reads {
    /// Game files (`.wtb`, `.wtd`): the queries, the solver checks of the
    /// theoretical scores.
    Games,
    /// Game or puzzle files: the format and replay checks (`wthor
    /// validate`).
    GamesOrPuzzles,
    /// Puzzle files (`.pzz`): `wthor puzzles`.
    Puzzles,
}

impl Reads {
    /// Whether a file of `kind` is one of those read.
    #[must_use]
    pub fn takes(self, kind: FileKind) -> bool {
        match self {
            Reads::Games => matches!(kind, FileKind::Games8 | FileKind::Games10),
            Reads::GamesOrPuzzles => matches!(
                kind,
                FileKind::Games8 | FileKind::Games10 | FileKind::Solitaires
            ),
            Reads::Puzzles => kind == FileKind::Solitaires,
        }
    }

    /// What the files are, in words (`game or puzzle files`).
    #[must_use]
    pub fn what(self) -> &'static str {
        match self {
            Reads::Games => "game files",
            Reads::GamesOrPuzzles => "game or puzzle files",
            Reads::Puzzles => "puzzle files",
        }
    }

    /// The file names looked for, in words.
    #[must_use]
    pub fn looked_for(self) -> &'static str {
        match self {
            Reads::Games => "*.wtb and *.wtd files, such as WTH_2024.wtb",
            Reads::GamesOrPuzzles => "*.wtb, *.wtd and *.pzz files, such as WTH_2024.wtb",
            Reads::Puzzles => "*.pzz files, such as Solitaires_12.pzz",
        }
    }
}

/// The WTHOR files of the directory `dir` ([`list_files`]), refused when
/// none of them is a file that `reads` takes (by its extension): a
/// directory with no WTHOR file at all, or only names files, is a mistake
/// (a wrong path), not an empty answer.
///
/// ```
/// use wthor_db::files::{Reads, list_folder};
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("WTHOR.JOU"), b"")?;
/// let e = list_folder(dir.path(), false, Reads::Games).unwrap_err();
/// assert!(e.to_string().starts_with("no WTHOR game files in "));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`Error::Io`] when a directory cannot be listed;
/// [`Error::NoGameFiles`] (for [`Reads::Games`]) or
/// [`Error::NoFilesToRead`] when it holds none of the files read.
pub fn list_folder(dir: &Path, recursive: bool, reads: Reads) -> Result<Vec<PathBuf>, Error> {
    let paths = list_files(dir, recursive)?;
    if paths
        .iter()
        .any(|p| FileKind::from_path(p).is_some_and(|k| reads.takes(k)))
    {
        return Ok(paths);
    }
    let path = dir.to_owned();
    Err(match reads {
        Reads::Games => Error::NoGameFiles { path },
        _ => Error::NoFilesToRead { path, reads },
    })
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
