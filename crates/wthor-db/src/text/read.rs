//! The one reader of games in text (and of WTHOR game files for
//! `wthor import`): games as [`Incoming`], each with its file and line, or
//! a failure for the line ([`LineError`]); a failure of the whole input is
//! a [`ReadError`]. `wthor import` and Python's `wthor.read_games` read
//! through [`read_input`].
//!
//! The kind of input is told by the extension, then by the first line:
//!
//! * `.wtb` (`.wtd` is refused: only 8x8 games are imported): a WTHOR game
//!   file, read with the names files given, else those of its directory
//!   whose name starts its own (`PLAYOK.JOU` for `PLAYOK_2023.wtb`), else
//!   the newest of its directory;
//! * `.ggf`: one GGF game per line (see [`super::ggf::parse_ggf`]): `PB`,
//!   `PW`, `PC` (the tournament), `DT` (the year, [`super::ggf::year`]),
//!   `RE` (the score, without komi);
//! * `.jsonl`: our JSON Lines (`transcript` or `moves`, names, `year`,
//!   `blackScore`);
//! * `.csv`: ours or the Japanese article's (a `transcript` column), or
//!   eOthello's (`…game_id,winner,game_moves`);
//! * anything else, line by line: Logistello's `+d3-c3…: -04 10`, or a
//!   transcript optionally followed by a result (`1`, `0`, `-1`:
//!   Egaroucid). Empty lines and lines starting with `#` or `%` are skipped.
//!
//! A player with no name is `?`; a game without a tournament gets its
//! input file's name (without extension).

use std::path::{Path, PathBuf};

use othello_core::notation::{TranscriptError, parse_signed_transcript, parse_transcript};
use othello_core::replay::{Token, wthor_tokens};
use othello_core::{Board8, Move, Size};
use wthor_format::{BoardSize, FileKind};

use super::ggf::{GgfError, parse_ggf};
use crate::DatabaseBuilder;
use crate::import::{Incoming, Source, Theoretical};

/// Why a whole input cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReadError {
    /// The file cannot be read.
    #[error("{}: cannot read", path.display())]
    Io {
        /// The input.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A WTHOR file of another kind than games.
    #[error("{}: a {kind} file holds no games", path.display())]
    NoGames {
        /// The input.
        path: PathBuf,
        /// Its kind.
        kind: FileKind,
    },
    /// A 10x10 WTHOR game file (only 8x8 games are imported).
    #[error("{}: only 8x8 games can be imported (this is a 10x10 file)", path.display())]
    TenByTen {
        /// The input.
        path: PathBuf,
    },
    /// The WTHOR file was not among those opened.
    #[error("{}: not opened", path.display())]
    NotOpened {
        /// The input.
        path: PathBuf,
    },
    /// A CSV without a header line.
    #[error("{}: no CSV header line", path.display())]
    NoCsvHeader {
        /// The input.
        path: PathBuf,
        /// Why.
        #[source]
        source: ::csv::Error,
    },
    /// A CSV without a column of moves.
    #[error("{}: a CSV needs a transcript or game_moves column", path.display())]
    NoTranscriptColumn {
        /// The input.
        path: PathBuf,
    },
    /// The encoding label or the WTHOR file.
    #[error(transparent)]
    Format(#[from] wthor_format::Error),
    /// Opening the WTHOR file with its names.
    #[error(transparent)]
    Db(#[from] crate::Error),
}

/// Why one line (or record) of an input is not a game.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// A 10x10 game (only 8x8 games are imported).
    #[error("only 8x8 games can be imported")]
    TenByTen,
    /// A GGF game that cannot be read.
    #[error(transparent)]
    Ggf(#[from] GgfError),
    /// Moves that are not a transcript.
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    /// A JSON Lines line that is not JSON.
    #[error("not JSON")]
    Json(#[from] serde_json::Error),
    /// A JSON Lines object without moves.
    #[error("no \"transcript\" nor \"moves\"")]
    NoMoves,
    /// A CSV record that cannot be read.
    #[error(transparent)]
    Csv(#[from] ::csv::Error),
    /// A WTHOR move byte that names no square.
    #[error("move {index} is byte {byte}, no square")]
    BadByte {
        /// The move (from 1).
        index: usize,
        /// The byte.
        byte: u8,
    },
}

impl LineError {
    /// The column (from 1, in bytes) of the line where the problem is, when
    /// it is known: a GGF game's and a JSON line's; a transcript's is within
    /// its field.
    #[must_use]
    pub fn column(&self) -> Option<usize> {
        match self {
            LineError::Ggf(e) => Some(e.position() + 1),
            LineError::Transcript(e) => Some(e.position() + 1),
            LineError::Json(e) => Some(e.column()),
            _ => None,
        }
    }
}

/// A line that could not be read as a game.
#[derive(Debug)]
pub struct Unreadable {
    /// Where: the file and its line (or record).
    pub source: Source,
    /// What is wrong.
    pub reason: LineError,
}

/// The games of an input and its unreadable lines.
#[derive(Debug, Default)]
pub struct Read {
    /// The games, in input order.
    pub games: Vec<Incoming>,
    /// The lines that are no game.
    pub unreadable: Vec<Unreadable>,
}

/// Names files to read a WTHOR input with.
#[derive(Debug, Default, Clone)]
pub struct NamesFiles {
    /// The players file (default: that of the game file's release).
    pub players: Option<PathBuf>,
    /// The tournaments file.
    pub tournaments: Option<PathBuf>,
    /// The encoding of the names (a WHATWG label; default windows-1252).
    pub encoding: Option<String>,
}

const UNKNOWN: &str = "?";

fn stem(path: &Path) -> String {
    path.file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

struct Lines<'a> {
    path: &'a Path,
    tournament: String,
    read: Read,
    limit: Option<usize>,
}

impl Lines<'_> {
    fn full(&self) -> bool {
        self.limit.is_some_and(|n| self.read.games.len() >= n)
    }

    fn source(&self, line: usize) -> Source {
        Source {
            file: self.path.to_owned(),
            line,
            record: false,
        }
    }

    fn bad(&mut self, line: usize, reason: impl Into<LineError>) {
        let source = self.source(line);
        self.read.unreadable.push(Unreadable {
            source,
            reason: reason.into(),
        });
    }

    #[allow(clippy::too_many_arguments)]
    fn game(
        &mut self,
        line: usize,
        moves: Vec<Move>,
        black: Option<&str>,
        white: Option<&str>,
        tournament: Option<&str>,
        year: Option<u16>,
        score: Option<u8>,
        winner: Option<i8>,
        theoretical: Option<Theoretical>,
    ) {
        let name = |n: Option<&str>| {
            n.map(str::trim)
                .filter(|n| !n.is_empty())
                .unwrap_or(UNKNOWN)
                .to_owned()
        };
        let source = self.source(line);
        let tournament = tournament
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map_or_else(|| self.tournament.clone(), str::to_owned);
        self.read.games.push(Incoming {
            source,
            moves,
            black: name(black),
            white: name(white),
            tournament: Some(tournament),
            year,
            score,
            winner,
            theoretical,
        });
    }
}

/// Reads one input (see the module docs); at most `limit` games.
///
/// # Errors
/// [`ReadError`] when the input as a whole cannot be read; a line that is
/// no game is an [`Unreadable`] of the result.
pub fn read_input(
    path: &Path,
    names: &NamesFiles,
    limit: Option<usize>,
) -> Result<Read, ReadError> {
    let mut lines = Lines {
        path,
        tournament: stem(path),
        read: Read::default(),
        limit,
    };
    match FileKind::from_path(path) {
        Some(FileKind::Games8 | FileKind::Games10) => {
            read_wthor(path, names, &mut lines)?;
            return Ok(lines.read);
        }
        Some(kind) => {
            return Err(ReadError::NoGames {
                path: path.to_owned(),
                kind,
            });
        }
        None => {}
    }
    let bytes = std::fs::read(path).map_err(|source| ReadError::Io {
        path: path.to_owned(),
        source,
    })?;
    let text = String::from_utf8_lossy(&bytes);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "ggf" => read_ggf(&text, &mut lines),
        "jsonl" => read_jsonl(&text, &mut lines),
        "csv" => read_csv(&text, &mut lines)?,
        _ => read_transcripts(&text, &mut lines),
    }
    Ok(lines.read)
}

fn read_wthor(path: &Path, names: &NamesFiles, lines: &mut Lines<'_>) -> Result<(), ReadError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let own = |kind: FileKind| -> Option<PathBuf> {
        let me = stem(path).to_ascii_lowercase();
        let entries = std::fs::read_dir(dir).ok()?;
        let mut found: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| FileKind::from_path(p) == Some(kind))
            .filter(|p| {
                let s = stem(p).to_ascii_lowercase();
                !s.is_empty() && me.starts_with(&s)
            })
            .collect();
        found.sort();
        found.pop()
    };
    let players = names
        .players
        .clone()
        .or_else(|| own(FileKind::Players))
        .or_else(|| joined_names(path, FileKind::Players));
    let tournaments = names
        .tournaments
        .clone()
        .or_else(|| own(FileKind::Tournaments))
        .or_else(|| joined_names(path, FileKind::Tournaments));
    let mut options = crate::OpenOptions::default();
    options.read.check_moves = false;
    if let Some(label) = &names.encoding {
        options.read = options.read.with_encoding_label(label)?;
    }
    let mut b = DatabaseBuilder::new().options(options).source(path);
    if let Some(p) = &players {
        b = b.players(p);
    }
    if let Some(t) = &tournaments {
        b = b.tournaments(t);
    }
    let db = b.open()?;
    let Some(file) = db.files().iter().position(|f| f.path() == path) else {
        return Err(ReadError::NotOpened {
            path: path.to_owned(),
        });
    };
    let f = &db.files()[file];
    if f.board_size() != Some(BoardSize::Eight) {
        return Err(ReadError::TenByTen {
            path: path.to_owned(),
        });
    }
    for (i, game) in f.games().enumerate() {
        if lines.full() {
            break;
        }
        let id = crate::GameId::new(file, i);
        let mut moves = Vec::with_capacity(60);
        let mut bad = None;
        for t in wthor_tokens::<Board8>(game.moves_raw()) {
            match t {
                Token::Move(m) => moves.push(m),
                Token::OffBoard(b) => {
                    bad = Some(b);
                    break;
                }
            }
        }
        let source = Source {
            file: path.to_owned(),
            line: i,
            record: true,
        };
        if let Some(b) = bad {
            lines.read.unreadable.push(Unreadable {
                source,
                reason: LineError::BadByte {
                    index: moves.len() + 1,
                    byte: b,
                },
            });
            continue;
        }
        let name = |n: crate::NameRef<'_>| n.name.unwrap_or(UNKNOWN).to_owned();
        lines.read.games.push(Incoming {
            source,
            moves,
            black: name(db.black(id)),
            white: name(db.white(id)),
            tournament: Some(name(db.tournament(id))),
            year: Some(f.year()).filter(|&y| y != 0),
            score: Some(game.real_score()),
            winner: None,
            theoretical: Some(Theoretical {
                depth: f.header().depth(),
                score: game.theoretical_score(),
            }),
        });
    }
    Ok(())
}

/// The names file of `kind` that `game` is joined with: the one a
/// database of its directory joins it with (the newest of its release;
/// see [`DatabaseBuilder::source`](crate::DatabaseBuilder::source)).
#[must_use]
pub fn joined_names(game: &Path, kind: FileKind) -> Option<PathBuf> {
    let db = crate::DatabaseBuilder::new()
        .source(game)
        .skip_damaged(true)
        .open()
        .ok()?;
    let f = db.files().iter().position(|f| f.path() == game)?;
    let join = db.join(f);
    let i = if kind == FileKind::Players {
        join.players
    } else {
        join.tournaments
    }?;
    Some(db.files()[i].path().to_owned())
}

fn read_ggf(text: &str, lines: &mut Lines<'_>) {
    for (i, line) in text.lines().enumerate() {
        if lines.full() {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        match parse_ggf(line) {
            Ok(g) if g.size != Size::Eight => lines.bad(i + 1, LineError::TenByTen),
            Ok(g) => {
                let score = g.black_discs();
                let year = g.year();
                let (b, w, pc) = (g.get("PB"), g.get("PW"), g.get("PC"));
                let (b, w, pc) = (
                    b.map(str::to_owned),
                    w.map(str::to_owned),
                    pc.map(str::to_owned),
                );
                lines.game(
                    i + 1,
                    g.moves,
                    b.as_deref(),
                    w.as_deref(),
                    pc.as_deref(),
                    year,
                    score,
                    None,
                    None,
                );
            }
            Err(e) => lines.bad(i + 1, e),
        }
    }
}

fn transcript(text: &str) -> Result<Vec<Move>, LineError> {
    Ok(parse_transcript(text, Size::Eight)?)
}

fn read_jsonl(text: &str, lines: &mut Lines<'_>) {
    for (i, line) in text.lines().enumerate() {
        if lines.full() {
            break;
        }
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                lines.bad(i + 1, e);
                continue;
            }
        };
        let moves = match (v.get("transcript"), v.get("moves")) {
            (Some(serde_json::Value::String(t)), _) => transcript(t),
            (_, Some(serde_json::Value::Array(list))) => {
                let joined: Vec<&str> = list.iter().filter_map(|m| m.as_str()).collect();
                transcript(&joined.join(""))
            }
            _ => Err(LineError::NoMoves),
        };
        let moves = match moves {
            Ok(m) => m,
            Err(e) => {
                lines.bad(i + 1, e);
                continue;
            }
        };
        if v.get("boardSize")
            .and_then(serde_json::Value::as_u64)
            .unwrap_or(8)
            != 8
        {
            lines.bad(i + 1, LineError::TenByTen);
            continue;
        }
        let s = |k: &str| v.get(k).and_then(serde_json::Value::as_str);
        let n = |k: &str| v.get(k).and_then(serde_json::Value::as_u64);
        lines.game(
            i + 1,
            moves,
            s("blackPlayerName"),
            s("whitePlayerName"),
            s("tournamentName"),
            n("year").and_then(|y| u16::try_from(y).ok()),
            n("blackScore").and_then(|y| u8::try_from(y).ok()),
            None,
            n("depth")
                .and_then(|d| u8::try_from(d).ok())
                .zip(n("blackTheoreticalScore").and_then(|t| u8::try_from(t).ok()))
                .map(|(depth, score)| Theoretical { depth, score }),
        );
    }
}

fn read_csv(text: &str, lines: &mut Lines<'_>) -> Result<(), ReadError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes());
    let headers = reader
        .headers()
        .map_err(|source| ReadError::NoCsvHeader {
            path: lines.path.to_owned(),
            source,
        })?
        .clone();
    let col = |name: &str| headers.iter().position(|h| h.trim() == name);
    let eothello = col("game_moves");
    let transcript_col =
        col("transcript")
            .or(eothello)
            .ok_or_else(|| ReadError::NoTranscriptColumn {
                path: lines.path.to_owned(),
            })?;
    let (black, white, tournament) = (
        col("blackPlayerName"),
        col("whitePlayerName"),
        col("tournamentName"),
    );
    let (year, score, winner, size) = (
        col("year"),
        col("blackScore"),
        col("winner"),
        col("boardSize"),
    );
    let (depth, theoretical) = (col("depth"), col("blackTheoreticalScore"));
    for record in reader.records() {
        if lines.full() {
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line() as usize);
                lines.bad(line, e);
                continue;
            }
        };
        let line = record.position().map_or(0, |p| p.line() as usize);
        let get = |c: Option<usize>| c.and_then(|c| record.get(c));
        if get(size).is_some_and(|s| s.trim() != "8") {
            lines.bad(line, LineError::TenByTen);
            continue;
        }
        let moves = match transcript(get(Some(transcript_col)).unwrap_or("")) {
            Ok(m) => m,
            Err(e) => {
                lines.bad(line, e);
                continue;
            }
        };
        let (b, w, t) = (
            get(black).map(str::to_owned),
            get(white).map(str::to_owned),
            get(tournament).map(str::to_owned),
        );
        let y = get(year).and_then(|y| y.trim().parse().ok());
        let s = get(score).and_then(|s| s.trim().parse().ok());
        let win = get(winner).and_then(|s| s.trim().parse().ok());
        let th = get(depth)
            .and_then(|d| d.trim().parse().ok())
            .zip(get(theoretical).and_then(|t| t.trim().parse().ok()))
            .map(|(depth, score)| Theoretical { depth, score });
        lines.game(
            line,
            moves,
            b.as_deref(),
            w.as_deref(),
            t.as_deref(),
            y,
            s,
            win,
            th,
        );
    }
    Ok(())
}

fn read_transcripts(text: &str, lines: &mut Lines<'_>) {
    for (i, line) in text.lines().enumerate() {
        if lines.full() {
            break;
        }
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('%') {
            continue;
        }
        if line.starts_with(['+', '-']) {
            // Logistello: +d3-c3…: -04 10
            let (moves, rest) = line.split_once(':').unwrap_or((line, ""));
            let moves = match parse_signed_transcript(moves, Size::Eight) {
                Ok(m) => m,
                Err(e) => {
                    lines.bad(i + 1, e);
                    continue;
                }
            };
            let score = rest
                .split_whitespace()
                .next()
                .and_then(|d| d.parse::<i32>().ok())
                .filter(|d| d.abs() <= 64 && d % 2 == 0)
                .and_then(|d| u8::try_from((64 + d) / 2).ok());
            lines.game(i + 1, moves, None, None, None, None, score, None, None);
            continue;
        }
        let mut words = line.split_whitespace();
        let moves = match transcript(words.next().unwrap_or("")) {
            Ok(m) => m,
            Err(e) => {
                lines.bad(i + 1, e);
                continue;
            }
        };
        let winner = words.next().and_then(|w| w.parse::<i8>().ok());
        lines.game(i + 1, moves, None, None, None, None, None, winner, None);
    }
}
