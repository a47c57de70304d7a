//! Step 2 and 4: the import planned into a directory (names numbered,
//! games sent to their yearly files, duplicates left out), then written.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use othello_core::Size;
use wthor_format::{
    BoardSize, CreationDate, Encoding, FileKind, Game, HEADER_LEN, Header, NameKind, ReadOptions,
};

use super::{Prepared, Source, turned_to_f5};

/// How to plan an import.
#[derive(Clone, Debug)]
pub struct ImportOptions {
    /// The year of every game (else the game's own, else the year of
    /// `created`).
    pub year: Option<u16>,
    /// The tournament of every game (else the game's own, else
    /// `default_tournament`).
    pub tournament: Option<String>,
    /// The tournament of games whose input names none.
    pub default_tournament: String,
    /// The depth (empty squares) of the theoretical scores of new files;
    /// an existing file keeps its own.
    pub depth: u8,
    /// The creation date written in every file changed.
    pub created: CreationDate,
    /// The encoding of the directory's names files.
    pub encoding: &'static Encoding,
    /// Import games the directory (or the import itself) already holds:
    /// the same year, tournament, players and moves. (Default: skip them,
    /// so that importing a file twice adds nothing.)
    pub keep_duplicates: bool,
}

impl ImportOptions {
    /// The options of `wthor import` without flags: games keep their year
    /// and tournament (`Import` when they have none), new files at 24
    /// empties, names in windows-1252, duplicates left out, files dated
    /// `created`.
    #[must_use]
    pub fn new(created: CreationDate) -> ImportOptions {
        ImportOptions {
            year: None,
            tournament: None,
            default_tournament: "Import".to_owned(),
            depth: 24,
            created,
            encoding: wthor_format::WINDOWS_1252,
            keep_duplicates: false,
        }
    }
}

/// What happens to one names file.
#[derive(Clone, Debug)]
pub struct NamesChange {
    /// The file (existing, or `WTHOR.JOU` / `WTHOR.TRN` to create).
    pub path: PathBuf,
    /// Players or tournaments.
    pub kind: NameKind,
    /// Whether the file exists.
    pub existed: bool,
    /// Its whole records before (kept byte for byte).
    pub before: usize,
    /// The names added, numbered from `before` on.
    pub added: Vec<String>,
    /// Names changed to fit the field: `(as given, as stored)`.
    pub shortened: Vec<(String, String)>,
    header: Header,
    records: Vec<u8>,
    numbers: HashMap<String, u16>,
}

/// What happens to one yearly game file.
#[derive(Clone, Debug)]
pub struct FileChange {
    /// `DIR/WTH_<year>.wtb` (an existing file keeps its name's case).
    pub path: PathBuf,
    /// The year.
    pub year: u16,
    /// Whether the file exists.
    pub existed: bool,
    /// Its games before (kept byte for byte).
    pub before: usize,
    /// The games added.
    pub added: usize,
    /// The depth of its theoretical scores (the file's own when it exists).
    pub depth: u8,
    header: Header,
    records: Vec<u8>,
    /// The games of the file and of the import so far, by what makes two
    /// records the same game, with where each is.
    known: HashMap<GameKey, Holder>,
}

/// What makes two records of a yearly file the same game: tournament,
/// black, white, moves (the scores follow from them).
type GameKey = (u16, u16, u16, Vec<u8>);

/// Where a game already is: a record of the file, or an earlier game of
/// the import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Holder {
    /// The record with this index in the file (from 0, as game numbers
    /// are).
    Stored(usize),
    /// An earlier input.
    Imported(Source),
}

/// A game left out because the directory or the import already holds it.
#[derive(Clone, Debug)]
pub struct Duplicate {
    /// Where it came from.
    pub source: Source,
    /// The yearly file it would have gone to.
    pub path: PathBuf,
    /// Where the same game is.
    pub holder: Holder,
}

impl fmt::Display for Duplicate {
    /// `SOURCE: already in PATH (game N)` or `SOURCE: the same game as
    /// SOURCE`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.holder {
            Holder::Stored(i) => write!(
                f,
                "{}: already in {} (game {i})",
                self.source,
                self.path.display()
            ),
            Holder::Imported(first) => write!(f, "{}: the same game as {first}", self.source),
        }
    }
}

/// A game placed in a file, its numbers assigned.
#[derive(Clone, Debug)]
pub struct PlannedGame {
    /// Where it came from.
    pub source: Source,
    /// Its file (index in [`Plan::files`]).
    pub file: usize,
    /// The record (theoretical score filled by [`solve_theoretical`](super::solve_theoretical)).
    pub game: Game,
    /// The theoretical score the input carries at the file's depth, to
    /// prove first.
    pub guess: Option<u8>,
}

/// Everything an import will change, computed before any write.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The players file.
    pub players: NamesChange,
    /// The tournaments file.
    pub tournaments: NamesChange,
    /// The yearly files, by year.
    pub files: Vec<FileChange>,
    /// The games, in input order.
    pub games: Vec<PlannedGame>,
    /// The games left out as already there (none with
    /// [`ImportOptions::keep_duplicates`]).
    pub duplicates: Vec<Duplicate>,
    /// The creation date of the files changed.
    pub created: CreationDate,
}

/// Why an import cannot be planned or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// A file could not be read or written.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// The directory could not be listed (the database's error, kept
    /// whole).
    #[error(transparent)]
    List(#[from] crate::Error),
    /// A file could not be written (see [`crate::atomic`]): it is intact.
    #[error(transparent)]
    Write(#[from] crate::atomic::WriteError),
    /// A file of the directory could not be parsed.
    #[error("{}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: wthor_format::Error,
    },
    /// A yearly file of the directory is not an 8x8 game file.
    #[error("{}: not an 8x8 game file, cannot append to it", path.display())]
    NotEightByEight {
        /// The file.
        path: PathBuf,
    },
    /// The directory to import into could not be created.
    #[error("{}: cannot create", path.display())]
    CreateDir {
        /// The directory.
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// More names or games than the format can count.
    #[error("{what}: more than the format can number (65,535 names)")]
    Full {
        /// Players or tournaments.
        what: &'static str,
    },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> ImportError + '_ {
    move |source| ImportError::Io {
        path: path.to_owned(),
        source,
    }
}

/// The newest file of `kind` among `existing` (the directory's files), by
/// creation date, then size, as [`Database`](crate::Database) joins them.
fn newest(existing: &[PathBuf], kind: FileKind) -> Result<Option<(PathBuf, Vec<u8>)>, ImportError> {
    let mut best: Option<((CreationDate, usize), PathBuf, Vec<u8>)> = None;
    for path in existing {
        if FileKind::from_path(path) != Some(kind) {
            continue;
        }
        let bytes = std::fs::read(path).map_err(io_err(path))?;
        let created = wthor_format::parse_header(&bytes)
            .map(|(_, h)| h.created)
            .unwrap_or_default();
        let rank = (created, bytes.len());
        if best.as_ref().is_none_or(|(r, _, _)| rank > *r) {
            best = Some((rank, path.clone(), bytes));
        }
    }
    Ok(best.map(|(_, p, b)| (p, b)))
}

impl NamesChange {
    fn open(
        dir: &Path,
        existing: &[PathBuf],
        kind: NameKind,
        encoding: &'static Encoding,
    ) -> Result<Self, ImportError> {
        let file_kind = match kind {
            NameKind::Players => FileKind::Players,
            NameKind::Tournaments => FileKind::Tournaments,
        };
        let mut change = NamesChange {
            path: dir.join(match kind {
                NameKind::Players => "WTHOR.JOU",
                NameKind::Tournaments => "WTHOR.TRN",
            }),
            kind,
            existed: false,
            before: 0,
            added: Vec::new(),
            shortened: Vec::new(),
            header: Header::default(),
            records: Vec::new(),
            numbers: HashMap::new(),
        };
        let Some((path, bytes)) = newest(existing, file_kind)? else {
            return Ok(change);
        };
        let mut options = ReadOptions::default();
        options.encoding = encoding;
        let parsed = wthor_format::parse_names_file(&bytes, kind, &options).map_err(|source| {
            ImportError::Format {
                path: path.clone(),
                source,
            }
        })?;
        for (i, name) in parsed.names().enumerate() {
            let text = name.decode(encoding).trim_end().to_owned();
            let n = u16::try_from(i).map_err(|_| ImportError::Full {
                what: kind_name(kind),
            })?;
            change.numbers.entry(text).or_insert(n);
        }
        change.before = parsed.len();
        change.header = *parsed.header();
        change.records = bytes[HEADER_LEN..HEADER_LEN + parsed.len() * kind.width()].to_vec();
        change.path = path;
        change.existed = true;
        Ok(change)
    }

    /// The number of `name` (fitted to the field first), a new one when the
    /// file does not have it.
    fn number(&mut self, name: &str, encoding: &'static Encoding) -> Result<u16, ImportError> {
        let fitted = fit(name.trim(), self.kind.width() - 1, encoding);
        if let Some(&n) = self.numbers.get(&fitted) {
            return Ok(n);
        }
        let n = u16::try_from(self.before + self.added.len())
            .ok()
            .filter(|&n| n < u16::MAX)
            .ok_or(ImportError::Full {
                what: kind_name(self.kind),
            })?;
        if fitted != name.trim() {
            self.shortened
                .push((name.trim().to_owned(), fitted.clone()));
        }
        self.numbers.insert(fitted.clone(), n);
        self.added.push(fitted);
        Ok(n)
    }

    fn bytes(&self, created: CreationDate, encoding: &'static Encoding) -> Vec<u8> {
        let mut header = self.header;
        header.created = created;
        header.n1 = 0;
        header.n2 = u16::try_from(self.before + self.added.len()).unwrap_or(u16::MAX);
        let width = self.kind.width();
        let mut out = Vec::with_capacity(HEADER_LEN + (self.before + self.added.len()) * width);
        out.extend_from_slice(&wthor_format::header::header_bytes(&header));
        out.extend_from_slice(&self.records);
        for name in &self.added {
            let (bytes, _, _) = encoding.encode(name);
            let mut field = vec![0u8; width];
            field[..bytes.len()].copy_from_slice(&bytes);
            out.extend_from_slice(&field);
        }
        out
    }
}

fn kind_name(kind: NameKind) -> &'static str {
    match kind {
        NameKind::Players => "players",
        NameKind::Tournaments => "tournaments",
    }
}

/// `name` with every character the encoding cannot write replaced by `?`,
/// cut to at most `max` encoded bytes (at a character), outer spaces
/// trimmed.
///
/// ```
/// let w = wthor_format::WINDOWS_1252;
/// assert_eq!(wthor_db::import::fit("Suède", 25, w), "Suède");
/// assert_eq!(wthor_db::import::fit("Łukasz Długosz-Kowalczyk", 19, w), "?ukasz D?ugosz-Kowa");
/// ```
#[must_use]
pub fn fit(name: &str, max: usize, encoding: &'static Encoding) -> String {
    let mut out = String::with_capacity(name.len());
    let mut used = 0;
    let mut buf = [0u8; 4];
    for c in name.chars() {
        let c = if c == '\0' || c.is_control() { ' ' } else { c };
        let (bytes, _, unmappable) = encoding.encode(c.encode_utf8(&mut buf));
        let (c, len) = if unmappable {
            ('?', 1)
        } else {
            (c, bytes.len())
        };
        if used + len > max {
            break;
        }
        used += len;
        out.push(c);
    }
    out.trim().to_owned()
}

/// Plans the import of `games` into `dir` (see the module docs); nothing is
/// written. A `dir` that does not exist yet (or is no directory) is
/// planned as an empty one: [`finish`](super::finish) creates it.
///
/// # Errors
/// [`ImportError`] when a file of the directory cannot be read or parsed,
/// a yearly file is not an 8x8 game file, or the names overflow.
pub fn plan(dir: &Path, games: &[Prepared], options: &ImportOptions) -> Result<Plan, ImportError> {
    let enc = options.encoding;
    let existing = if dir.is_dir() {
        crate::list_files(dir, false)?
    } else {
        Vec::new()
    };
    let mut players = NamesChange::open(dir, &existing, NameKind::Players, enc)?;
    let mut tournaments = NamesChange::open(dir, &existing, NameKind::Tournaments, enc)?;
    let mut files: Vec<FileChange> = Vec::new();
    let mut planned = Vec::with_capacity(games.len());
    let mut duplicates = Vec::new();
    for g in games {
        let year = options
            .year
            .or(g.year)
            .unwrap_or(options.created.full_year());
        let file = match files.iter().position(|f| f.year == year) {
            Some(i) => i,
            None => {
                files.push(open_year(dir, &existing, year, options)?);
                files.len() - 1
            }
        };
        let tournament = options
            .tournament
            .as_deref()
            .or(g.tournament.as_deref())
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(&options.default_tournament);
        let squares: Vec<wthor_format::Square> = g
            .squares
            .iter()
            .map(|s| {
                wthor_format::Square::new(s.col(Size::Eight), s.row(Size::Eight), BoardSize::Eight)
                    .expect("a square of the 8x8 board")
            })
            .collect();
        let game = Game {
            tournament: tournaments.number(tournament, enc)?,
            black: players.number(&g.black, enc)?,
            white: players.number(&g.white, enc)?,
            real_score: g.real_score,
            theoretical_score: g.real_score,
            moves: wthor_format::encode_moves(&squares, BoardSize::Eight)
                .expect("at most 60 discs are played"),
        };
        if !options.keep_duplicates {
            let key = (game.tournament, game.black, game.white, game.moves.clone());
            let f = &mut files[file];
            if let Some(holder) = f.known.get(&key) {
                duplicates.push(Duplicate {
                    source: g.source.clone(),
                    path: f.path.clone(),
                    holder: holder.clone(),
                });
                continue;
            }
            f.known.insert(key, Holder::Imported(g.source.clone()));
        }
        files[file].added += 1;
        let depth = files[file].depth;
        planned.push(PlannedGame {
            source: g.source.clone(),
            file,
            game,
            guess: g
                .theoretical
                .filter(|t| t.depth == depth && t.score <= 64)
                .map(|t| t.score),
        });
    }
    Ok(Plan {
        players,
        tournaments,
        files,
        games: planned,
        duplicates,
        created: options.created,
    })
}

fn open_year(
    dir: &Path,
    existing: &[PathBuf],
    year: u16,
    options: &ImportOptions,
) -> Result<FileChange, ImportError> {
    let name = format!("WTH_{year}.wtb");
    let found = existing.iter().find(|p| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(&name))
    });
    let Some(path) = found else {
        return Ok(FileChange {
            path: dir.join(name),
            year,
            existed: false,
            before: 0,
            added: 0,
            depth: options.depth,
            header: Header {
                year,
                p1: 8,
                p3: options.depth,
                ..Header::default()
            },
            records: Vec::new(),
            known: HashMap::new(),
        });
    };
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    let parsed =
        wthor_format::parse_game_file(&bytes, &ReadOptions::default()).map_err(|source| {
            ImportError::Format {
                path: path.clone(),
                source,
            }
        })?;
    if parsed.board_size() != BoardSize::Eight {
        return Err(ImportError::NotEightByEight { path: path.clone() });
    }
    let len = parsed.len() * BoardSize::Eight.record_len();
    let known = if options.keep_duplicates {
        HashMap::new()
    } else {
        parsed
            .games()
            .enumerate()
            .map(|(i, g)| {
                let key = (
                    g.tournament(),
                    g.black(),
                    g.white(),
                    turned_to_f5(g.moves_raw()),
                );
                (key, Holder::Stored(i))
            })
            .collect()
    };
    Ok(FileChange {
        path: path.clone(),
        year,
        existed: true,
        before: parsed.len(),
        added: 0,
        depth: parsed.header().depth(),
        header: *parsed.header(),
        records: bytes[HEADER_LEN..HEADER_LEN + len].to_vec(),
        known,
    })
}

impl Plan {
    /// Writes every change: names files first, then game files, each to a
    /// temporary file in its directory, synced, then renamed over the old
    /// one, with the plan's creation date.
    ///
    /// # Errors
    /// [`ImportError::Write`] naming the file that could not be written (the
    /// files written before it are complete; the others untouched).
    pub fn write(&self, encoding: &'static Encoding) -> Result<(), ImportError> {
        for names in [&self.players, &self.tournaments] {
            if names.added.is_empty() {
                continue;
            }
            let bytes = names.bytes(self.created, encoding);
            crate::atomic::write(&names.path, &bytes)?;
        }
        for (f, file) in self.files.iter().enumerate() {
            if file.added == 0 {
                continue;
            }
            let mut header = file.header;
            header.created = self.created;
            header.n1 = u32::try_from(file.before + file.added).unwrap_or(u32::MAX);
            let mut out = Vec::with_capacity(
                HEADER_LEN + (file.before + file.added) * BoardSize::Eight.record_len(),
            );
            out.extend_from_slice(&wthor_format::header::header_bytes(&header));
            out.extend_from_slice(&file.records);
            for g in self.games.iter().filter(|g| g.file == f) {
                wthor_format::write_game(&g.game, BoardSize::Eight, &mut out)
                    .expect("a complete record written to memory");
            }
            crate::atomic::write(&file.path, &out)?;
        }
        Ok(())
    }
}
