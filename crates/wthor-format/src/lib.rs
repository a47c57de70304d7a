//! Parsers and writers for every WTHOR file kind: games (`.wtb` 8x8, `.wtd`
//! 10x10), player and tournament names (`.JOU`, `.TRN`) and solitaire puzzles
//! (`.pzz`).
//!
//! `wthor-format` knows no Othello rules: it reads and writes bytes.
//!
//! - Zero-copy: parsed files borrow the input (`&[u8]`, e.g. an mmap) and hand
//!   out record views ([`GameView`], [`NameView`], [`PuzzleView`]).
//! - Lenient by default: data quirks are [`Warning`]s with byte offset and
//!   record; [`ReadOptions::strict`] turns each into an [`Error`].
//! - Lossless: every parser has a writer in the same module; writing a parsed
//!   file gives back its bytes, except that a record count in the header that
//!   disagreed with the file is rewritten to the number of records written
//!   (and trailing bytes shorter than a record are dropped).
//!
//! Entry points: [`parse_any`] (detects the kind with [`detect_kind`]), or
//! one kind: [`parse_game_file`], [`parse_names_file`], [`parse_solitaire_file`].
//! Over a memory map (the crate itself does no I/O):
//!
//! ```text
//! let map = unsafe { memmap2::Mmap::map(&std::fs::File::open(path)?)? };
//! let games = wthor_format::parse_game_file(&map, &ReadOptions::default())?;
//! ```
//!
//! ```
//! use wthor_format::{FileKind, ReadOptions, parse_any, WthorFile};
//! # use wthor_format::{BoardSize, Game, Header, write_game_file};
//! # let mut bytes = Vec::new();
//! # let game = Game::from_squares(0, 0, 1, 33, 33, &["f5"], BoardSize::Eight)?;
//! # write_game_file(&Header { p1: 8, year: 2001, ..Header::default() }, BoardSize::Eight, &[game], &mut bytes)?;
//! // `bytes` holds a WTH_2001.wtb file.
//! let file = parse_any(&bytes, FileKind::from_extension("wtb"), &ReadOptions::default())?;
//! let WthorFile::Games(games) = file else { panic!("not games") };
//! for game in games.games() {
//!     let first = game.moves().next().unwrap().unwrap();
//!     assert_eq!(first.to_string(), "f5");
//! }
//! # Ok::<(), wthor_format::Error>(())
//! ```

// Only the `wthor` binary prints: the libraries return values and errors.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

mod board;
mod error;
mod game;
pub mod header;
mod kind;
mod names;
mod records;
mod solitaire;

pub use board::{BoardSize, Square};
pub use encoding_rs::{self, Encoding, WINDOWS_1252};
pub use error::{Error, ErrorKind, HeaderField, Warning, WarningKind};
pub use game::{
    Game, GameFile, GameView, Games, Moves, OffBoard, encode_moves, parse_game, parse_game_file,
    parse_game_file_as, write_game, write_game_file,
};
pub use header::{CreationDate, HEADER_LEN, Header, parse_header, write_header};
pub use kind::{FileKind, WthorFile, detect_kind, parse_any, parse_kind};
pub use names::{
    Name, NameKind, NameView, Names, NamesFile, parse_name, parse_names_file, write_name,
    write_names_file,
};
pub use solitaire::{
    Cell, PRESENCE_TABLE_LEN, PUZZLE_LEN, PUZZLES_OFFSET, Puzzle, PuzzleView, Puzzles,
    SolitaireFile, count_empty, decode_position, encode_position, expected_presence_table,
    parse_presence_table, parse_puzzle, parse_solitaire_file, write_presence_table, write_puzzle,
    write_solitaire_file,
};

/// How to read: lenient or strict, and the text encoding of names.
///
/// ```
/// let mut options = wthor_format::ReadOptions::default();
/// assert!(!options.strict);
/// options.strict = true;
/// let options = options.with_encoding_label("ISO-8859-2")?;
/// assert_eq!(options.encoding.name(), "ISO-8859-2");
/// # Ok::<(), wthor_format::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Turn every warning into an error.
    pub strict: bool,
    /// Encoding of names (default Windows-1252).
    pub encoding: &'static Encoding,
    /// Check every move byte of a game file when parsing it (the default),
    /// warning about bytes that name no square. Off, parsing a game file
    /// reads its header and counts only (no per-game work) and a bad byte
    /// is found when the game is replayed.
    pub check_moves: bool,
    /// Read a file cut inside a record (fewer whole records than the header
    /// announces, then part of one: a copy or download that stopped) up to
    /// its last whole record, with a [`WarningKind::CutRecord`] warning,
    /// instead of failing with [`ErrorKind::Truncated`]. Off by default (a
    /// file to rewrite or install is refused); what a database reads with.
    /// Strict mode refuses the file whatever this says.
    pub read_cut_records: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        Self {
            strict: false,
            encoding: WINDOWS_1252,
            check_moves: true,
            read_cut_records: false,
        }
    }
}

impl ReadOptions {
    /// Strict reading with the default encoding.
    #[must_use]
    pub fn strict() -> Self {
        Self {
            strict: true,
            ..Self::default()
        }
    }

    /// The same options with the encoding named by `label` (WHATWG labels:
    /// `windows-1252`, `latin1`, `ISO-8859-2`, `utf-8`…).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnknownEncoding`] for an unknown label.
    pub fn with_encoding_label(mut self, label: &str) -> Result<Self, Error> {
        self.encoding = encoding_for_label(label)?;
        Ok(self)
    }
}

/// The encoding named by a WHATWG label.
///
/// # Errors
///
/// [`ErrorKind::UnknownEncoding`] for an unknown label.
pub fn encoding_for_label(label: &str) -> Result<&'static Encoding, Error> {
    Encoding::for_label(label.as_bytes()).ok_or_else(|| {
        Error::new(
            ErrorKind::UnknownEncoding {
                label: label.to_owned(),
            },
            0,
            None,
        )
    })
}
