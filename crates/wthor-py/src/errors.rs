//! Rust errors as Python exceptions, mapped here and nowhere else.
//!
//! | Rust error | Python exception |
//! |---|---|
//! | I/O (`wthor_db::Error::Io`) | `FileNotFoundError`, `PermissionError`, `IsADirectoryError`, `NotADirectoryError` or `OSError` |
//! | a file that is no WTHOR file (`wthor_db::Error::Format`) | `wthor.FormatError`, with `path`, `offset` and `record` attributes |
//! | OBF or transcript text (`ObfError`, `TranscriptError`) | `wthor.NotationError` |
//! | an illegal move (`PlayError`) | `wthor.IllegalMoveError` |
//! | filters that exclude each other (`wthor_db::query::FiltersError`) | `ValueError` |
//! | a query's OBF or transcript (`FiltersError::Text`) | `wthor.NotationError`, or `wthor.IllegalMoveError` for a move that cannot be played |
//! | a folder without any game file (`wthor_db::Error::NoGameFiles`) | `wthor.WthorError` |
//! | a text input that cannot be read (`wthor_db::text::read::ReadError`) | as its I/O or database error, else `wthor.WthorError` |
//! | a line of a text input that is no game (`LineError`) | `wthor.NotationError`, naming the file and line |
//! | an export that cannot be written (`wthor_db::atomic::WriteError`) | the `OSError` of its cause, as for I/O |
//! | a query that cannot run (`wthor_db::QueryError`: empty range, more than two players, unknown sort key) | `wthor.WthorError` |
//! | an import that cannot be planned or written (`wthor_db::import::ImportError`, `FinishError`) | the `OSError` of its cause for I/O, `wthor.FormatError` for a file of the directory that cannot be parsed, else `wthor.WthorError` |
//! | a solve cache that cannot be read or saved (`wthor_db::cache::CacheError`) | the `OSError` of its cause for I/O, else `wthor.WthorError` |
//!
//! `wthor.WthorError` (a `ValueError`) is the base of the `wthor` exceptions.
//! The message is always the Rust error's, with its chain: file, byte
//! offset and record where the error has them.

use std::io::ErrorKind;

use pyo3::create_exception;
use pyo3::exceptions::{
    PyFileNotFoundError, PyIsADirectoryError, PyNotADirectoryError, PyOSError, PyPermissionError,
    PyValueError,
};
use pyo3::prelude::*;
use wthor_db::error_chain as message;

create_exception!(
    wthor,
    WthorError,
    PyValueError,
    "The base of the errors of `wthor` (a `ValueError`): bad files, bad notation, illegal moves."
);
create_exception!(
    wthor,
    FormatError,
    WthorError,
    "A file that is no readable WTHOR file. Attributes: `path`, `offset` (bytes), `record` (from 0, or None)."
);
create_exception!(
    wthor,
    NotationError,
    WthorError,
    "A position (OBF), transcript, square or game identity that cannot be read."
);
create_exception!(
    wthor,
    IllegalMoveError,
    WthorError,
    "A move that is not legal on the board it is played on."
);

/// The `OSError` subclass of an I/O error's kind.
fn os_error(kind: ErrorKind, text: String) -> PyErr {
    match kind {
        ErrorKind::NotFound => PyFileNotFoundError::new_err(text),
        ErrorKind::PermissionDenied => PyPermissionError::new_err(text),
        ErrorKind::IsADirectory => PyIsADirectoryError::new_err(text),
        ErrorKind::NotADirectory => PyNotADirectoryError::new_err(text),
        _ => PyOSError::new_err(text),
    }
}

/// A database error as a Python exception.
pub(crate) fn db_error(py: Python<'_>, e: &wthor_db::Error) -> PyErr {
    let text = message(e);
    match e {
        wthor_db::Error::Io { source, .. } => os_error(source.kind(), text),
        wthor_db::Error::Format { path, source } => format_error(py, text, path, source),
        _ => WthorError::new_err(text),
    }
}

/// `FormatError` with its `path`, `offset` and `record` attributes.
fn format_error(
    py: Python<'_>,
    text: String,
    path: &std::path::Path,
    source: &wthor_format::Error,
) -> PyErr {
    let err = FormatError::new_err(text);
    let value = err.value(py);
    // Setting attributes on a fresh exception object cannot fail short of
    // memory; the message carries them anyway.
    let _ = value.setattr("path", path.to_string_lossy().into_owned());
    let _ = value.setattr("offset", source.offset());
    let _ = value.setattr("record", source.record());
    err
}

/// An import that cannot be planned or written.
pub(crate) fn import_error(py: Python<'_>, e: &wthor_db::import::ImportError) -> PyErr {
    use wthor_db::import::ImportError;
    match e {
        ImportError::Io { source, .. } | ImportError::CreateDir { source, .. } => {
            os_error(source.kind(), message(e))
        }
        ImportError::List(e) => db_error(py, e),
        ImportError::Write(e) => write_error(e),
        ImportError::Format { path, source } => format_error(py, message(e), path, source),
        _ => WthorError::new_err(message(e)),
    }
}

/// A solve cache that cannot be read or saved; `text`, the message (the
/// cache's, or that of an error around it).
fn cache_error_text(e: &wthor_db::cache::CacheError, text: String) -> PyErr {
    use wthor_db::cache::CacheError;
    match e {
        CacheError::Io { source, .. } => os_error(source.kind(), text),
        CacheError::Write(w) => os_error(w.cause.kind(), text),
        _ => WthorError::new_err(text),
    }
}

/// A solve cache that cannot be read or saved.
pub(crate) fn cache_error(e: &wthor_db::cache::CacheError) -> PyErr {
    cache_error_text(e, message(e))
}

/// The last steps of an import (solving, writing) that failed.
pub(crate) fn finish_error(py: Python<'_>, e: &wthor_db::import::FinishError) -> PyErr {
    use wthor_db::import::FinishError;
    match e {
        FinishError::Cache(c) | FinishError::CacheAtEnd(c) => cache_error_text(c, message(e)),
        FinishError::Import(i) => import_error(py, i),
        _ => WthorError::new_err(message(e)),
    }
}

/// A text input that cannot be read.
pub(crate) fn read_error(py: Python<'_>, e: &wthor_db::text::read::ReadError) -> PyErr {
    use wthor_db::text::read::ReadError;
    match e {
        ReadError::Db(e) => db_error(py, e),
        ReadError::Io { source, .. } => os_error(source.kind(), message(e)),
        _ => WthorError::new_err(message(e)),
    }
}

/// A file that cannot be written.
pub(crate) fn write_error(e: &wthor_db::atomic::WriteError) -> PyErr {
    os_error(e.cause.kind(), message(e))
}

/// A notation error (OBF, transcript, square, game identity).
pub(crate) fn notation_error(e: impl std::fmt::Display) -> PyErr {
    NotationError::new_err(e.to_string())
}

/// An illegal move.
pub(crate) fn illegal_move(e: impl std::fmt::Display) -> PyErr {
    IllegalMoveError::new_err(e.to_string())
}

/// A query that cannot run (empty range, too many players, unknown sort
/// key).
pub(crate) fn query_error(e: &wthor_db::QueryError) -> PyErr {
    WthorError::new_err(message(e))
}

/// Filters that cannot make a query: keywords that exclude each other (a
/// `ValueError`), or a position or opening that cannot be read, the keyword
/// named and the character found added (as `wthor search` reports it).
pub(crate) fn filters_error(e: &wthor_db::query::FiltersError) -> PyErr {
    use wthor_db::query::{AnyBoardError, FiltersError, KeyStyle};
    let text = e.worded(KeyStyle::Keyword);
    match e {
        FiltersError::Text {
            error: AnyBoardError::Illegal { .. },
            ..
        } => IllegalMoveError::new_err(text),
        FiltersError::Text { .. } => NotationError::new_err(text),
        FiltersError::ProgramAndHuman
        | FiltersError::AsPlayedWithoutOpening
        | FiltersError::TwoPositions => PyValueError::new_err(text),
        _ => WthorError::new_err(text),
    }
}
