//! Steps 0 and 1: inputs read, each game replayed, checked and turned to
//! start with f5 (see the module docs of [`super`]).

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use othello_core::replay::{GameStatus, replay_moves};
use othello_core::symmetry::Symmetry;
use othello_core::{Board8, IllegalReason, Move, Size, Square};

use wthor_format::{FileKind, NameKind};

use crate::text::read::{LineError, NamesFiles, ReadError};

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
    /// What is odd in the WTHOR inputs, whose games are still imported: a
    /// damaged file read up to its last whole record, numbers without
    /// names (imported as `?`). Input by input.
    pub warnings: Vec<InputWarning>,
}

impl Gathered {
    /// Whether the import stops here, writing nothing: some games were
    /// rejected and the caller did not ask to skip them (`wthor import
    /// --skip-illegal`).
    #[must_use]
    pub fn blocked(&self, skip_illegal: bool) -> bool {
        !self.rejected.is_empty() && !skip_illegal
    }

    /// Whether an input had a format warning ([`InputWarning::Format`]):
    /// what a strict import refuses (`wthor import --strict`, through
    /// [`ImportObserver::stop_after_reading`](super::ImportObserver::stop_after_reading)).
    #[must_use]
    pub fn damaged(&self) -> bool {
        self.warnings
            .iter()
            .any(|w| matches!(w, InputWarning::Format { .. }))
    }
}

/// What is odd in a WTHOR input whose games are still imported
/// ([`Gathered::warnings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum InputWarning {
    /// A format warning of the game file: cut inside a record or a header
    /// count above its records (the whole records are read, the rest
    /// ignored), or another quirk of its header.
    Format {
        /// The input.
        path: PathBuf,
        /// The parser's warning.
        warning: wthor_format::Warning,
    },
    /// Games whose player (or tournament) number has no name: there is no
    /// names file of that kind beside the input (nor one given), or none
    /// read with it holds the number. Their names are imported as `?`.
    Unnamed {
        /// The input.
        path: PathBuf,
        /// Players or tournaments.
        kind: NameKind,
        /// The numbers without a name, in increasing order.
        numbers: Vec<u16>,
        /// The games (records) that name one of them.
        games: usize,
        /// Whether there was no names file of that kind at all.
        no_file: bool,
    },
}

impl fmt::Display for InputWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputWarning::Format { path, warning } => write!(f, "{}: {warning}", path.display()),
            InputWarning::Unnamed {
                path,
                kind,
                numbers,
                games,
                no_file,
            } => {
                let (what, file, option) = match kind {
                    NameKind::Players => ("player", "players file", "--players"),
                    NameKind::Tournaments => ("tournament", "tournaments file", "--tournaments"),
                };
                const SHOWN: usize = 8;
                let mut list: Vec<String> = numbers
                    .iter()
                    .take(SHOWN)
                    .map(ToString::to_string)
                    .collect();
                if numbers.len() > SHOWN {
                    list.push(format!("… ({} more)", numbers.len() - SHOWN));
                }
                let plural = if numbers.len() == 1 { "" } else { "s" };
                let games = if *games == 1 {
                    "1 game".to_owned()
                } else {
                    format!("{games} games")
                };
                let why = if *no_file {
                    format!("there is no {file} beside it")
                } else {
                    format!("no {file} read with it names them")
                };
                write!(
                    f,
                    "{}: {what} number{plural} {} ({games}) without a name: {why}; imported as \"?\" \
                     ({option} FILE names them)",
                    path.display(),
                    list.join(", ")
                )
            }
        }
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
    let mut warnings = Vec::new();
    for input in inputs {
        let read = crate::text::read::read_input(input, names, limit)?;
        if FileKind::from_path(input) == Some(FileKind::Games8) {
            warnings.extend(wthor_warnings(input, names, &read.games));
        }
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
        warnings,
    })
}

/// The warnings of the WTHOR game file `path` whose games `read` were read
/// (with `names`): its format warnings, and per kind the numbers of those
/// games that came without a name (`?`, the reader's name for a number
/// its names file does not hold), looked up in the file's records.
fn wthor_warnings(path: &Path, names: &NamesFiles, read: &[Incoming]) -> Vec<InputWarning> {
    let mut options = crate::OpenOptions::default();
    options.read.check_moves = false;
    let Ok(db) = crate::DatabaseBuilder::new()
        .options(options)
        .source(path)
        .skip_damaged(true)
        .open()
    else {
        // (The reader opened it; nothing more to say if this fails.)
        return Vec::new();
    };
    let Some(f) = db.files().iter().position(|f| f.path() == path) else {
        return Vec::new();
    };
    let mut out: Vec<InputWarning> = db.files()[f]
        .warnings()
        .iter()
        .map(|w| InputWarning::Format {
            path: path.to_owned(),
            warning: w.clone(),
        })
        .collect();
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let has_file = |kind: FileKind, given: &Option<PathBuf>| {
        given.is_some()
            || std::fs::read_dir(dir.unwrap_or(Path::new(".")))
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .any(|e| FileKind::from_path(&e.path()) == Some(kind))
    };
    for (kind, file_kind, given) in [
        (NameKind::Players, FileKind::Players, &names.players),
        (
            NameKind::Tournaments,
            FileKind::Tournaments,
            &names.tournaments,
        ),
    ] {
        let mut numbers = std::collections::BTreeSet::new();
        let mut games = 0;
        for g in read.iter().filter(|g| g.source.record) {
            let id = crate::GameId::new(f, g.source.line);
            let unnamed: Vec<u16> = match kind {
                NameKind::Players => [(&g.black, db.black(id)), (&g.white, db.white(id))]
                    .into_iter()
                    .filter(|(name, _)| name.as_str() == "?")
                    .map(|(_, n)| n.number)
                    .collect(),
                NameKind::Tournaments => [(g.tournament.as_deref(), db.tournament(id))]
                    .into_iter()
                    .filter(|(name, _)| *name == Some("?"))
                    .map(|(_, n)| n.number)
                    .collect(),
            };
            if !unnamed.is_empty() {
                games += 1;
                numbers.extend(unnamed);
            }
        }
        if games > 0 {
            out.push(InputWarning::Unnamed {
                path: path.to_owned(),
                kind,
                numbers: numbers.into_iter().collect(),
                games,
                no_file: !has_file(file_kind, given),
            });
        }
    }
    out
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
