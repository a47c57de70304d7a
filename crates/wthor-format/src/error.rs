//! Errors and warnings: where (file, byte offset, record) and what was expected.
//!
//! Nothing here ever prints raw input bytes: a message names a field, a value
//! as a number, a length or an offset.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::kind::FileKind;

/// A header field, as named by the WTHOR documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum HeaderField {
    /// Bytes 4–7: number of games or puzzles.
    N1,
    /// Bytes 8–9: number of names, or number of empty squares in solitaire files.
    N2,
    /// Bytes 10–11: year of the games.
    Year,
    /// Byte 12: board size.
    P1,
    /// Byte 13: game type.
    P2,
    /// Byte 14: depth of the theoretical score.
    P3,
}

impl HeaderField {
    /// The byte offset of the field in the 16-byte header.
    #[must_use]
    pub const fn offset(self) -> u64 {
        match self {
            Self::N1 => 4,
            Self::N2 => 8,
            Self::Year => 10,
            Self::P1 => 12,
            Self::P2 => 13,
            Self::P3 => 14,
        }
    }
}

impl fmt::Display for HeaderField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::N1 => "N1",
            Self::N2 => "N2",
            Self::Year => "year",
            Self::P1 => "P1",
            Self::P2 => "P2",
            Self::P3 => "P3",
        })
    }
}

/// What is odd about the data; the position is in [`Warning`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// The record count in the header disagrees with the whole records present.
    /// Lenient reading reads the records present; writing stores their number.
    CountMismatch {
        /// The header field holding the count (N1 or N2).
        field: HeaderField,
        /// The count the header states.
        header: u32,
        /// The number of whole records in the file.
        actual: u64,
    },
    /// Bytes after the last record the header announces, fewer than a record.
    /// They are ignored and not written back.
    TrailingBytes {
        /// How many bytes.
        len: u64,
        /// The record length of the file kind.
        record_len: usize,
    },
    /// The file ends inside a record, before the count the header states
    /// (read with [`ReadOptions::read_cut_records`](crate::ReadOptions)):
    /// the whole records before it are read, its bytes are ignored and not
    /// written back.
    CutRecord {
        /// The header field holding the count (N1 or N2).
        field: HeaderField,
        /// The count the header states.
        header: u32,
        /// The number of whole records read.
        whole: u64,
        /// The bytes of the cut record, ignored.
        len: u64,
        /// The record length of the file kind.
        record_len: usize,
    },
    /// A header field with a value that the file kind does not use.
    HeaderField {
        /// Which field.
        field: HeaderField,
        /// Its value.
        value: u32,
        /// What the documentation says it should be.
        expected: &'static str,
    },
    /// Non-zero bytes after the NUL that ends a name (ignored on decode,
    /// preserved on write-back of the parsed record).
    GarbageAfterNul {
        /// Number of non-zero bytes after the first NUL.
        count: usize,
    },
    /// A name that fills its whole field: no terminating NUL.
    NameNotTerminated {
        /// The field width (20 or 26).
        width: usize,
    },
    /// A move byte that is no square of the board.
    MoveOffBoard {
        /// The move number, from 1.
        move_number: usize,
        /// The byte value.
        value: u8,
    },
    /// Non-zero bytes after the 0 that ends a move list.
    BytesAfterEnd {
        /// The move number of the first such byte, from 1.
        move_number: usize,
    },
    /// A solitaire presence-table entry that disagrees with the header.
    PresenceTable {
        /// The entry index, from 0 (entry N2 − 1 holds the puzzle count).
        entry: usize,
        /// The stored value.
        value: u32,
        /// The value expected from the header.
        expected: u32,
    },
    /// A puzzle whose stored number of empty squares disagrees with its position.
    EmptyCount {
        /// The stored count (record byte 28).
        stored: u8,
        /// The empty squares of the decoded position.
        counted: u8,
    },
    /// A puzzle side-to-move byte that is neither 1 (black) nor 2 (white).
    SideToMove {
        /// The stored value.
        value: u8,
    },
}

/// `1 record`, `2 records`.
fn records(n: u64) -> String {
    format!("{n} record{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::CountMismatch {
                field,
                header,
                actual,
            } => write!(
                f,
                "header {field} says {}, the file holds {actual} whole {}",
                records(u64::from(*header)),
                if *actual == 1 { "record" } else { "records" }
            ),
            Self::TrailingBytes { len, record_len } => write!(
                f,
                "{len} trailing bytes after the last record (records are {record_len} bytes)"
            ),
            Self::CutRecord {
                field,
                header,
                whole,
                len,
                record_len,
            } => write!(
                f,
                "the file ends inside this record ({len} of its {record_len} bytes; \
                 header {field} says {}): {whole} whole {} read, {len} {} ignored",
                records(u64::from(*header)),
                if *whole == 1 { "record" } else { "records" },
                if *len == 1 { "byte" } else { "bytes" }
            ),
            Self::HeaderField {
                field,
                value,
                expected,
            } => write!(f, "header {field} is {value}, expected {expected}"),
            Self::GarbageAfterNul { count } => write!(
                f,
                "{count} non-zero bytes after the NUL that ends the name, expected zeros"
            ),
            Self::NameNotTerminated { width } => write!(
                f,
                "name fills all {width} bytes, expected a terminating NUL"
            ),
            Self::MoveOffBoard { move_number, value } => write!(
                f,
                "move {move_number} is byte {value}, which is no square of the board"
            ),
            Self::BytesAfterEnd { move_number } => write!(
                f,
                "non-zero byte at move {move_number} after the 0 that ends the move list, expected zeros"
            ),
            Self::PresenceTable {
                entry,
                value,
                expected,
            } => write!(
                f,
                "presence table entry {entry} is {value}, expected {expected}"
            ),
            Self::EmptyCount { stored, counted } => write!(
                f,
                "stored empty count is {stored}, the position has {counted} empty squares"
            ),
            Self::SideToMove { value } => {
                write!(
                    f,
                    "side to move is {value}, expected 1 (black) or 2 (white)"
                )
            }
        }
    }
}

/// A data quirk found while reading: a value, not a failure.
///
/// In strict mode ([`ReadOptions::strict`](crate::ReadOptions)) every warning is
/// returned as an [`Error`] of kind [`ErrorKind::Strict`] instead.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Warning {
    /// Byte offset in the file where the odd data starts.
    pub offset: u64,
    /// Record index (from 0) when the warning is about one record.
    pub record: Option<u64>,
    /// What is odd.
    pub kind: WarningKind,
}

impl Warning {
    pub(crate) const fn new(offset: u64, record: Option<u64>, kind: WarningKind) -> Self {
        Self {
            offset,
            record,
            kind,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt_position(f, self.offset, self.record)?;
        write!(f, ": {}", self.kind)
    }
}

fn fmt_position(f: &mut fmt::Formatter<'_>, offset: u64, record: Option<u64>) -> fmt::Result {
    write!(f, "byte {offset}")?;
    if let Some(record) = record {
        write!(f, " (record {record})")?;
    }
    Ok(())
}

/// Why reading or writing failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input holds no byte at all.
    #[error("empty file, expected at least a 16-byte header")]
    Empty,
    /// The input ends inside a structure.
    #[error("truncated {what}: expected {expected} bytes, found {found}")]
    Truncated {
        /// What was being read ("header", "presence table", "record").
        what: &'static str,
        /// Bytes needed for it.
        expected: u64,
        /// Bytes available.
        found: u64,
    },
    /// The header and size fit no WTHOR file kind.
    #[error("not a WTHOR file: {reason}")]
    UnknownKind {
        /// Why the kinds were rejected.
        reason: String,
    },
    /// The bytes are of another kind than the one asked for.
    #[error("expected a {expected} file, found a {found} file")]
    WrongKind {
        /// The kind asked for.
        expected: FileKind,
        /// The kind the bytes have.
        found: FileKind,
    },
    /// A warning turned into an error by strict mode.
    #[error("{0} (strict mode)")]
    Strict(WarningKind),
    /// A value given to a writer that the format cannot hold.
    #[error("invalid value: {detail}")]
    InvalidValue {
        /// What is wrong, without raw input.
        detail: String,
    },
    /// An unknown text-encoding label.
    #[error("unknown text encoding {label:?}")]
    UnknownEncoding {
        /// The label (from the user, not from a file).
        label: String,
    },
    /// Writing failed.
    #[error("write failed")]
    Io(#[source] std::io::Error),
}

/// An error of this crate: what went wrong, and where (file, byte offset, record).
///
/// Parsers work on bytes and do not know the file name: callers that do add it
/// with [`Error::with_file`].
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    offset: u64,
    record: Option<u64>,
    file: Option<PathBuf>,
}

impl Error {
    pub(crate) const fn new(kind: ErrorKind, offset: u64, record: Option<u64>) -> Self {
        Self {
            kind,
            offset,
            record,
            file: None,
        }
    }

    pub(crate) fn from_warning(warning: Warning) -> Self {
        Self::new(
            ErrorKind::Strict(warning.kind),
            warning.offset,
            warning.record,
        )
    }

    pub(crate) fn invalid(detail: impl Into<String>) -> Self {
        Self::new(
            ErrorKind::InvalidValue {
                detail: detail.into(),
            },
            0,
            None,
        )
    }

    /// The same error, naming the file it is about.
    #[must_use]
    pub fn with_file(mut self, path: impl AsRef<Path>) -> Self {
        self.file = Some(path.as_ref().to_path_buf());
        self
    }

    /// What went wrong.
    #[must_use]
    pub const fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Byte offset in the input.
    #[must_use]
    pub const fn offset(&self) -> u64 {
        self.offset
    }

    /// Record index (from 0), when the error is about one record.
    #[must_use]
    pub const fn record(&self) -> Option<u64> {
        self.record
    }

    /// The file, when the caller named it.
    #[must_use]
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}: ", file.display())?;
        }
        match self.kind {
            ErrorKind::InvalidValue { .. }
            | ErrorKind::UnknownEncoding { .. }
            | ErrorKind::Io(_) => {}
            _ => {
                fmt_position(f, self.offset, self.record)?;
                f.write_str(": ")?;
            }
        }
        write!(f, "{}", self.kind)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(err) => Some(err),
            _ => None,
        }
    }
}

impl From<std::io::Error> for Error {
    fn from(err: std::io::Error) -> Self {
        Self::new(ErrorKind::Io(err), 0, None)
    }
}

/// Collects warnings, or fails at the first one in strict mode.
pub(crate) struct Sink {
    strict: bool,
    /// [`ReadOptions::read_cut_records`](crate::ReadOptions), and not strict.
    pub(crate) read_cut_records: bool,
    pub(crate) list: Vec<Warning>,
}

impl Sink {
    pub(crate) const fn new(options: &crate::ReadOptions) -> Self {
        Self {
            strict: options.strict,
            read_cut_records: options.read_cut_records && !options.strict,
            list: Vec::new(),
        }
    }

    pub(crate) fn warn(
        &mut self,
        offset: u64,
        record: Option<u64>,
        kind: WarningKind,
    ) -> Result<(), Error> {
        let warning = Warning::new(offset, record, kind);
        if self.strict {
            Err(Error::from_warning(warning))
        } else {
            self.list.push(warning);
            Ok(())
        }
    }
}
