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
//!    to skip them); [`notes`] lists the odd records.
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
//! Only 8x8 games are imported.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use othello_core::replay::{GameStatus, replay_moves};
use othello_core::solver::Solver;
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Color, IllegalReason, Move, Size, Square};
use wthor_format::{
    BoardSize, CreationDate, Encoding, FileKind, Game, HEADER_LEN, Header, NameKind, ReadOptions,
};

use othello_core::replay::{Reach, replay_to_empties};

use crate::cache::{CacheError, SolveCache};
use crate::text::read::{LineError, NamesFiles, ReadError};
use crate::verify::{CacheSaver, Workers, black_discs, run_parallel, solve_cached};

/// Where a game came from: the input file and its line (from 1), or its
/// record index for binary inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The input file.
    pub file: PathBuf,
    /// The line (from 1) of a text input, or the record (from 0) of a WTHOR
    /// file.
    pub line: usize,
    /// Whether `line` is a record index of a WTHOR file.
    pub record: bool,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.record {
            write!(f, "{}: game {}", self.file.display(), self.line)
        } else {
            write!(f, "{}:{}", self.file.display(), self.line)
        }
    }
}

/// A game as read from an input, before any check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    /// Where it came from.
    pub source: Source,
    /// The moves from the standard start (passes optional).
    pub moves: Vec<Move>,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The tournament, when the input names one.
    pub tournament: Option<String>,
    /// The year, when the input tells it.
    pub year: Option<u16>,
    /// Black's discs at the end as recorded, when the input tells it.
    pub score: Option<u8>,
    /// The winner as recorded, when the input tells only that: 1 black, 0
    /// draw, -1 white.
    pub winner: Option<i8>,
    /// A theoretical score the input carries, with its depth: the solver
    /// then proves it first when the depth is the file's (a narrow search,
    /// cheaper than a full solve), and solves fully only if it is wrong.
    pub theoretical: Option<Theoretical>,
}

/// A theoretical score as stored: black's discs after perfect play from the
/// position with `depth` empty squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theoretical {
    /// The empty squares.
    pub depth: u8,
    /// Black's discs.
    pub score: u8,
}

/// Why a game is not imported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Rejection {
    /// A move that cannot be played.
    #[error("move {number} ({mv}) is illegal: {reason}")]
    Illegal {
        /// Its number among the recorded moves, from 1.
        number: usize,
        /// The move as written (`e6`, `pa`).
        mv: String,
        /// Why.
        reason: IllegalReason,
    },
    /// No move at all.
    #[error("the game has no move")]
    Empty,
    /// A recorded score beyond the board.
    #[error("recorded score {0} is more than the 64 squares")]
    BadScore(u8),
}

/// A game checked and normalised, ready to be planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prepared {
    /// Where it came from.
    pub source: Source,
    /// The moves turned to start with f5, passes dropped.
    pub squares: Vec<Square>,
    /// The symmetry applied.
    pub symmetry: Symmetry,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The tournament, when the input names one.
    pub tournament: Option<String>,
    /// The year, when the input tells it.
    pub year: Option<u16>,
    /// The real score: black's discs.
    pub real_score: u8,
    /// Whether the game is over at its last move.
    pub finished: bool,
    /// Something odd but not fatal (a recorded result that the moves
    /// contradict, a game that stops while moves remain), to report.
    pub note: Option<String>,
    /// The theoretical score the input carries, if any.
    pub theoretical: Option<Theoretical>,
}

/// f5 on 8x8.
const F5: Square = Square::new_unchecked(4 * 8 + 5);

/// The symmetry taking `first` (a first move) to f5, if one does.
fn to_f5(first: Square) -> Option<Symmetry> {
    Symmetry::taking(first, F5, Size::Eight)
}

/// Raw 8x8 move bytes turned, like [`prepare`] turns an input, by the
/// symmetry taking the first move to f5 (as they are if the game came from
/// an import); bytes that do not start with a first move are kept.
pub(crate) fn turned_to_f5(raw: &[u8]) -> Vec<u8> {
    let squares: Vec<Square> = raw
        .iter()
        .take_while(|&&b| b != 0)
        .map_while(|&b| Square::from_wthor(b, Size::Eight))
        .collect();
    let Some(symmetry) = squares.first().and_then(|&first| to_f5(first)) else {
        return raw.to_vec();
    };
    let mut out = vec![0u8; raw.len()];
    for (byte, &sq) in out.iter_mut().zip(&squares) {
        *byte = symmetry.square(sq, Size::Eight).to_wthor(Size::Eight);
    }
    out
}

/// Replays and normalises one game (see the module docs).
///
/// ```
/// use othello_core::{notation::parse_transcript, Size};
/// use wthor_db::import::{Incoming, Source, prepare};
///
/// let game = Incoming {
///     source: Source { file: "x.txt".into(), line: 1, record: false },
///     moves: parse_transcript("d3c3", Size::Eight).unwrap(),
///     black: "a".into(), white: "b".into(), tournament: None, year: None,
///     score: None, winner: None, theoretical: None,
/// };
/// let p = prepare(game).unwrap();
/// let text: Vec<String> = p.squares.iter().map(|s| s.name(Size::Eight).to_string()).collect();
/// assert_eq!(text, ["f5", "f6"]); // d3 c3 turned to f5 f6
/// ```
///
/// # Errors
/// [`Rejection`]: an illegal move, no move, a recorded score beyond 64.
pub fn prepare(game: Incoming) -> Result<Prepared, Rejection> {
    let r = replay_moves::<Board8>(&game.moves);
    if let Some(bad) = r.illegal {
        return Err(Rejection::Illegal {
            number: bad.index + 1,
            mv: game.moves[bad.index].name(Size::Eight).to_string(),
            reason: bad.reason,
        });
    }
    let Some(first) = game.moves.iter().find_map(|m| m.square()) else {
        return Err(Rejection::Empty);
    };
    if let Some(s) = game.score.filter(|&s| s > 64) {
        return Err(Rejection::BadScore(s));
    }
    let symmetry = to_f5(first).expect("every first move is a symmetric image of f5");
    let squares = game
        .moves
        .iter()
        .filter_map(|m| m.square())
        .map(|s| symmetry.square(s, Size::Eight))
        .collect();
    let finished = r.status == GameStatus::Finished;
    let rule = u8::try_from(r.score().0).expect("at most 64 discs");
    // A disc difference recorded without the empties (Logistello's), as
    // black's discs: not odd either.
    let (b, w) = r.discs();
    let counted = u8::try_from((64 + b - w) / 2).unwrap_or(rule);
    let (real_score, note) = match (finished, game.score) {
        (true, Some(s)) if s != rule && s != counted => (
            rule,
            Some(format!(
                "recorded score {s}-{} but the moves end {rule}-{}: the moves' score is kept",
                64 - s,
                64 - rule
            )),
        ),
        (false, Some(s)) => (s, None),
        _ => (rule, None),
    };
    let winner = |discs: u8| i8::from(discs > 32) - i8::from(discs < 32);
    let note = note.or_else(|| match game.winner {
        Some(w) if w != winner(real_score) => Some(format!(
            "recorded winner {w:+} but the moves end {real_score}-{}: the moves' score is kept",
            64 - real_score
        )),
        _ => None,
    });
    let note = note.or_else(|| {
        (!finished).then(|| {
            format!(
                "unfinished: stops after {} {} while moves remain (score {real_score}-{})",
                r.moves,
                if r.moves == 1 { "move" } else { "moves" },
                64 - real_score
            )
        })
    });
    Ok(Prepared {
        source: game.source,
        squares,
        symmetry,
        black: game.black,
        white: game.white,
        tournament: game.tournament,
        year: game.year,
        real_score,
        finished,
        note,
        theoretical: game.theoretical,
    })
}

/// Why a game of an input is not imported: its line is no game, or the
/// game cannot be played.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RejectReason {
    /// The line (or record) could not be read as a game.
    #[error(transparent)]
    Unreadable(#[from] LineError),
    /// The game was read but is illegal, empty or scored beyond the board.
    #[error(transparent)]
    Rejected(#[from] Rejection),
}

/// A game of an input that is not imported, with where it is.
#[derive(Debug, thiserror::Error)]
#[error("{source}: {reason}")]
pub struct Rejected {
    /// Where: the input and its line (or record).
    pub source: Source,
    /// Why.
    #[source]
    pub reason: RejectReason,
}

/// The games of an import's inputs, read and prepared ([`read_all`]).
#[derive(Debug, Default)]
pub struct Gathered {
    /// The games read, lines that are no game included.
    pub read: usize,
    /// The games to plan, in input order.
    pub games: Vec<Prepared>,
    /// The games left out: first the lines that are no game (input by
    /// input), then the games that cannot be played, in input order.
    pub rejected: Vec<Rejected>,
}

impl Gathered {
    /// Whether the import stops here, writing nothing: some games were
    /// rejected and the caller did not ask to skip them (`wthor import
    /// --skip-illegal`).
    #[must_use]
    pub fn blocked(&self, skip_illegal: bool) -> bool {
        !self.rejected.is_empty() && !skip_illegal
    }
}

/// Reads every input with [`read_input`](crate::text::read::read_input)
/// (at most `limit` games of each) and [`prepare`]s its games in
/// parallel: step 1 of an import.
///
/// # Errors
/// The [`ReadError`] of the first input that cannot be read at all (a
/// missing file, a names file of another kind…); a line or a game that
/// fails is a [`Rejected`] instead.
pub fn read_all(
    inputs: &[PathBuf],
    names: &NamesFiles,
    limit: Option<usize>,
) -> Result<Gathered, ReadError> {
    use rayon::prelude::*;
    let mut incoming = Vec::new();
    let mut rejected = Vec::new();
    for input in inputs {
        let read = crate::text::read::read_input(input, names, limit)?;
        incoming.extend(read.games);
        rejected.extend(read.unreadable.into_iter().map(|u| Rejected {
            source: u.source,
            reason: u.reason.into(),
        }));
    }
    let read = incoming.len() + rejected.len();
    let prepared: Vec<_> = incoming
        .into_par_iter()
        .map(|g| {
            let source = g.source.clone();
            prepare(g).map_err(|e| Rejected {
                source,
                reason: e.into(),
            })
        })
        .collect();
    let mut games = Vec::with_capacity(prepared.len());
    for p in prepared {
        match p {
            Ok(g) => games.push(g),
            Err(e) => rejected.push(e),
        }
    }
    Ok(Gathered {
        read,
        games,
        rejected,
    })
}

/// Odd records: each game's note, and the same moves twice (unless the
/// whole game is the same: the plan leaves it out as a duplicate, unless
/// `keep_duplicates`).
#[must_use]
pub fn notes(games: &[Prepared], keep_duplicates: bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen: HashMap<&[Square], &Prepared> = HashMap::new();
    let same_game = |a: &Prepared, b: &Prepared| {
        (&a.black, &a.white, &a.tournament, a.year) == (&b.black, &b.white, &b.tournament, b.year)
    };
    for g in games {
        if let Some(n) = &g.note {
            out.push(format!("{}: {n}", g.source));
        }
        if let Some(first) = seen.insert(&g.squares, g) {
            if keep_duplicates || !same_game(first, g) {
                out.push(format!("{}: the same moves as {}", g.source, first.source));
            }
            seen.insert(&g.squares, first);
        }
    }
    out
}

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
    /// The record (theoretical score filled by [`solve_theoretical`]).
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
    #[error("{}: {source}", path.display())]
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
    #[error("{}: {source}", path.display())]
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
/// planned as an empty one: [`finish`] creates it.
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

/// Fills the theoretical score of every planned game: black's discs after
/// perfect play from the position with the file's depth of empty squares,
/// by the exact solver (one per worker, `workers` of them, the cache looked
/// up first and fed); a game that ends before that depth keeps its real
/// score. `progress` is called once per game solved (from the worker
/// threads).
///
/// Once `stop` is set (by a signal handler, say) no new game is started;
/// those being solved are finished (and cached).
///
/// # Errors
/// [`Stopped`] when `stop` ended the run before every game was solved:
/// the plan is then incomplete and must not be written, the cache holds
/// what was solved.
pub fn solve_theoretical(
    plan: &mut Plan,
    workers: Workers,
    cache: Option<&SolveCache>,
    stop: &AtomicBool,
    progress: impl Fn() + Sync,
) -> Result<(), Stopped> {
    let jobs: Vec<(usize, u8, &PlannedGame)> = plan
        .games
        .iter()
        .enumerate()
        .map(|(i, g)| (i, plan.files[g.file].depth, g))
        .collect();
    let results = std::sync::Mutex::new(vec![None; jobs.len()]);
    let work = |&(_, depth, g): &(usize, u8, &PlannedGame), solver: &mut Solver| {
        theoretical(
            &g.game.moves,
            depth,
            g.game.real_score,
            g.guess,
            solver,
            cache,
        )
    };
    let done = |&(i, ..): &(usize, u8, &PlannedGame), score: u8| -> Result<(), ()> {
        results
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)[i] = Some(score);
        progress();
        if stop.load(Ordering::SeqCst) {
            Err(())
        } else {
            Ok(())
        }
    };
    // Set before the first game, the flag stops the run before any.
    if !stop.load(Ordering::SeqCst) {
        let _ = run_parallel(&jobs, workers, work, done);
    }
    let results = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let solved = results.iter().flatten().count();
    if solved < results.len() {
        return Err(Stopped {
            solved,
            total: results.len(),
        });
    }
    for (g, score) in plan.games.iter_mut().zip(results) {
        g.game.theoretical_score = score.unwrap_or(g.game.real_score);
    }
    Ok(())
}

/// [`solve_theoretical`] stopped before the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped after {solved} of {total} games solved")]
pub struct Stopped {
    /// Games solved (and cached) before the stop.
    pub solved: usize,
    /// Games planned.
    pub total: usize,
}

/// The workers of an import's solving: `threads` (default: the cores
/// available) workers of one solver thread each, with a table of 2^20
/// entries.
#[must_use]
pub fn workers(threads: Option<usize>) -> Workers {
    let threads = threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    Workers {
        workers: threads.max(1),
        solver_threads: 1,
        tt_bits: 20,
    }
}

/// How [`finish`] solves: the workers, the solve cache and the file it is
/// saved to, the stop flag.
#[derive(Clone, Copy, Debug)]
pub struct Solving<'a> {
    /// Worker threads and solvers (see [`workers`]).
    pub workers: Workers,
    /// The solve cache, looked up first and fed.
    pub cache: Option<&'a SolveCache>,
    /// Where the cache is saved: before the solving (to fail early), every
    /// [`CACHE_SAVE_EVERY`](crate::verify::CACHE_SAVE_EVERY) while
    /// solving, and at the end.
    pub cache_path: Option<&'a Path>,
    /// Once set (by a signal handler, say), no new game is started.
    pub stop: &'a AtomicBool,
}

/// What [`finish`] tells its caller while solving (from the worker
/// threads).
#[derive(Debug)]
#[non_exhaustive]
pub enum Progress<'a> {
    /// One more game solved.
    Solved,
    /// The cache could not be saved while solving (said once; the solving
    /// goes on, and the cache is saved again at the end).
    CacheNotSaved(&'a CacheError),
}

/// Why [`finish`] wrote nothing.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FinishError {
    /// The cache could not be saved before the solving.
    #[error(transparent)]
    Cache(CacheError),
    /// The cache could not be saved after the solving.
    #[error("cannot save the cache")]
    CacheAtEnd(#[source] CacheError),
    /// The stop flag ended the solving: nothing written, the cache (saved)
    /// holds what was solved.
    #[error(transparent)]
    Stopped(#[from] Stopped),
    /// The directory could not be created, or a file written.
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// The last steps of an import: [`solve_theoretical`] (with the cache
/// saved as [`Solving`] says, `progress` told of each game), then `dir`
/// created if missing and [`Plan::write`].
///
/// # Errors
/// [`FinishError`]: the cache cannot be saved, the solving was stopped
/// (nothing written), the directory cannot be created or a file written.
pub fn finish(
    plan: &mut Plan,
    dir: &Path,
    solving: Solving<'_>,
    encoding: &'static Encoding,
    progress: impl Fn(Progress<'_>) + Sync,
) -> Result<(), FinishError> {
    let saver = CacheSaver::new(solving.cache, solving.cache_path);
    saver.maybe_save(true).map_err(FinishError::Cache)?;
    let warned = AtomicBool::new(false);
    let solved = solve_theoretical(plan, solving.workers, solving.cache, solving.stop, || {
        progress(Progress::Solved);
        // Saved every minute: a killed run loses one minute at most.
        if let Err(e) = saver.maybe_save(false)
            && !warned.swap(true, Ordering::Relaxed)
        {
            progress(Progress::CacheNotSaved(&e));
        }
    });
    saver.maybe_save(true).map_err(FinishError::CacheAtEnd)?;
    solved?;
    std::fs::create_dir_all(dir).map_err(|source| ImportError::CreateDir {
        path: dir.to_owned(),
        source,
    })?;
    plan.write(encoding)?;
    Ok(())
}

/// The theoretical score of one game (WTHOR move bytes) at `depth`: black's
/// discs after perfect play, `real` when the game ends before. A `guess`
/// (black's discs) is proved first by a narrow search (see
/// [`solve_cached`]); a wrong one costs a full solve after it.
#[must_use]
pub fn theoretical(
    moves: &[u8],
    depth: u8,
    real: u8,
    guess: Option<u8>,
    solver: &mut Solver,
    cache: Option<&SolveCache>,
) -> u8 {
    match replay_to_empties::<Board8>(moves, u32::from(depth)) {
        Reach::At { board, .. } => {
            let side = board.side_to_move();
            let guess = guess.map(|g| {
                let black = 2 * i32::from(g) - 64;
                if side == Color::Black { black } else { -black }
            });
            let s = solve_cached(solver, cache, board.player(), board.opponent(), guess);
            black_discs(s.score, board.side_to_move())
        }
        Reach::Ended { .. } | Reach::Illegal { .. } => real,
    }
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

/// The calendar date (UTC) of a Unix time in seconds, as a creation date.
///
/// ```
/// let d = wthor_db::import::date_of_unix(1_700_000_000);
/// assert_eq!(d.to_string(), "2023-11-14");
/// ```
#[must_use]
pub fn date_of_unix(secs: i64) -> CreationDate {
    // Howard Hinnant's civil_from_days.
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let year = year.clamp(0, 25_599);
    CreationDate {
        century: (year / 100) as u8,
        year: (year % 100) as u8,
        month: month as u8,
        day: day as u8,
    }
}

/// Today's date (UTC), as a creation date.
#[must_use]
pub fn today() -> CreationDate {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_unix(i64::try_from(secs).unwrap_or(0))
}

/// A creation date that is not `YYYY-MM-DD` (years 1900 to 2555).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?}: expected YYYY-MM-DD")]
pub struct DateError {
    /// The text given.
    pub text: String,
}

/// Reads a creation date, `YYYY-MM-DD` (years 1900 to 2555, as the header
/// stores them).
///
/// ```
/// let d = wthor_db::import::parse_date("2026-01-02").unwrap();
/// assert_eq!(d.to_string(), "2026-01-02");
/// assert!(wthor_db::import::parse_date("2026-13-01").is_err());
/// ```
///
/// # Errors
/// [`DateError`] for anything else.
pub fn parse_date(text: &str) -> Result<CreationDate, DateError> {
    let bad = || DateError {
        text: text.to_owned(),
    };
    let mut it = text.split('-').map(|p| p.parse::<u16>().map_err(|_| bad()));
    let (Some(y), Some(m), Some(d), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let (y, m, d) = (y?, m?, d?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=2555).contains(&y) {
        return Err(bad());
    }
    Ok(CreationDate {
        century: (y / 100) as u8,
        year: (y % 100) as u8,
        month: m as u8,
        day: d as u8,
    })
}
