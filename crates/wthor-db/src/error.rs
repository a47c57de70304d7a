//! Why a database, or one of its files, could not be opened.

use std::path::{Path, PathBuf};

/// Why a database (or one of its files) could not be opened.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A file or directory could not be listed, opened or mapped.
    #[error("{}", path.display())]
    Io {
        /// The path concerned.
        path: PathBuf,
        /// The system error.
        #[source]
        source: std::io::Error,
    },
    /// A WTHOR file could not be parsed.
    #[error("{}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// The parse error (with its byte offset and record).
        #[source]
        source: wthor_format::Error,
    },
    /// A file named as a players or tournaments file holds another kind.
    #[error("{}: expected a {expected} file, found a {found} file", path.display())]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// The kind it should have.
        expected: wthor_format::FileKind,
        /// The kind it has.
        found: wthor_format::FileKind,
    },
    /// A database asked to hold games holds no game file at all (see
    /// [`DatabaseBuilder::require_games`](crate::DatabaseBuilder::require_games)).
    #[error(
        "no WTHOR game files in {} (looked for *.wtb and *.wtd files, such as WTH_2024.wtb)",
        path.display()
    )]
    NoGameFiles {
        /// The directory without game files, or the first source
        /// (directory or file) of a database without any.
        path: PathBuf,
    },
    /// A directory holds none of the files read from it (see
    /// [`list_folder`](crate::files::list_folder)); a directory without
    /// game files to query is [`Error::NoGameFiles`].
    #[error("no WTHOR {} in {} (looked for {})", reads.what(), path.display(), reads.looked_for())]
    NoFilesToRead {
        /// The directory.
        path: PathBuf,
        /// What was looked for.
        reads: crate::files::Reads,
    },
}

impl Error {
    /// The path of the file or directory that failed.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Error::Io { path, .. }
            | Error::Format { path, .. }
            | Error::WrongKind { path, .. }
            | Error::NoGameFiles { path }
            | Error::NoFilesToRead { path, .. } => path,
        }
    }
}

/// An error and its causes as one line, `: ` between them: the one
/// message style of the `wthor` command, the server and Python. Every
/// error of this crate gives its cause as its `source()` only, never in
/// its `Display` as well, so nothing is said twice.
///
/// ```
/// let e = wthor_db::Database::open("/no/such/folder").unwrap_err();
/// assert_eq!(e.to_string(), "/no/such/folder");
/// assert_eq!(
///     wthor_db::error_chain(&e),
///     "/no/such/folder: No such file or directory (os error 2)"
/// );
/// ```
#[must_use]
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}
