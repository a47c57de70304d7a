//! The input files of a verification run: read whole ([`read_inputs`]),
//! parsed and kept when of the kind the run takes ([`parse_inputs`]), each
//! with the player names of its release ([`PlayerNames`]). A file that
//! cannot be read or parsed, or is of another kind, is an [`InputError`]
//! handed back beside the others: the run goes on without it.

use std::path::{Path, PathBuf};

use wthor_format::{CreationDate, FileKind, ReadOptions, WthorFile, parse_any};

use super::RecordKey;

/// One input file, read whole.
#[derive(Clone, Debug)]
pub struct Input {
    /// Where it was read.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// An input file left out of a run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum InputError {
    /// It could not be read.
    #[error("{}: cannot read", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// It is a directory.
    #[error("{}: is a directory, expected a WTHOR file", path.display())]
    Directory {
        /// The directory.
        path: PathBuf,
    },
    /// It is not a regular file (a device, a pipe).
    #[error("{}: not a regular file", path.display())]
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// It is not a WTHOR file, or a damaged one.
    #[error("{}: {error}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's error (its message is this error's).
        error: wthor_format::Error,
    },
    /// It is a WTHOR file of a kind the run does not take.
    #[error("{}: a {kind} file", path.display())]
    OtherKind {
        /// The file.
        path: PathBuf,
        /// Its kind.
        kind: FileKind,
    },
}

/// Reads every file of `paths` whole, in order; those that cannot be read
/// (missing, a directory, not a regular file) come back as errors, in
/// order, beside the others.
#[must_use]
pub fn read_inputs(paths: Vec<PathBuf>) -> (Vec<Input>, Vec<InputError>) {
    let mut inputs = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        match read_regular(&path) {
            Ok(bytes) => inputs.push(Input { path, bytes }),
            Err(e) => errors.push(e),
        }
    }
    (inputs, errors)
}

/// The bytes of the regular file at `path`.
///
/// # Errors
/// [`InputError::Read`], [`InputError::Directory`] or
/// [`InputError::NotRegular`].
pub fn read_regular(path: &Path) -> Result<Vec<u8>, InputError> {
    let read = |source| InputError::Read {
        path: path.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(read)?;
    if meta.is_dir() {
        return Err(InputError::Directory {
            path: path.to_owned(),
        });
    }
    if !meta.is_file() {
        return Err(InputError::NotRegular {
            path: path.to_owned(),
        });
    }
    std::fs::read(path).map_err(read)
}

/// One input file, parsed: its records borrow the bytes of its [`Input`].
#[derive(Debug)]
pub struct Loaded<'a, F> {
    /// Where it was read.
    pub path: &'a Path,
    /// Its header's creation date (with the path, what tells a release
    /// of the file in the results log).
    pub created: CreationDate,
    /// The file as the run takes it (its games, its puzzles).
    pub file: F,
    /// The names of its players.
    pub names: PlayerNames,
}

impl<F> Loaded<'_, F> {
    /// The key in the results log of its record `index` of bytes `bytes`
    /// (a game's moves, a puzzle's record).
    #[must_use]
    pub fn key(&self, index: usize, bytes: &[u8]) -> RecordKey {
        RecordKey::new(self.path, self.created, index, bytes)
    }
}

/// Parses every input (`hint(path)`: the kind the parser tries first,
/// only a hint, a file parses as what it is) and keeps those `want` takes,
/// each with the player names of its release ([`PlayerNames::beside`]).
/// Those that cannot be parsed, or that `want` does not take
/// ([`InputError::OtherKind`]), come back as errors, in input order.
pub fn parse_inputs<'a, F>(
    inputs: &'a [Input],
    hint: impl Fn(&Path) -> Option<FileKind>,
    want: impl Fn(WthorFile<'a>) -> Option<F>,
) -> (Vec<Loaded<'a, F>>, Vec<InputError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for input in inputs {
        let path = input.path.as_path();
        let parsed = match parse_any(&input.bytes, hint(path), &ReadOptions::default()) {
            Ok(parsed) => parsed,
            Err(error) => {
                errors.push(InputError::Parse {
                    path: path.to_owned(),
                    error,
                });
                continue;
            }
        };
        let kind = parsed.kind();
        let created = parsed.header().created;
        match want(parsed) {
            Some(file) => files.push(Loaded {
                path,
                created,
                file,
                names: PlayerNames::beside(path),
            }),
            None => errors.push(InputError::OtherKind {
                path: path.to_owned(),
                kind,
            }),
        }
    }
    (files, errors)
}

/// Player names of a file: those of the players file the database joins
/// it with (the newest of its own release in its directory, see
/// [`Join`](crate::Join)).
#[derive(Clone, Debug, Default)]
pub struct PlayerNames {
    names: Vec<String>,
}

impl PlayerNames {
    /// The names of the players file joined to `file`, if any; a players
    /// file that cannot be read gives no names.
    #[must_use]
    pub fn beside(file: &Path) -> PlayerNames {
        let Ok(db) = crate::DatabaseBuilder::new()
            .source(file)
            .skip_damaged(true)
            .open()
        else {
            return PlayerNames::default();
        };
        let Some(f) = db.files().iter().position(|f| f.path() == file) else {
            return PlayerNames::default();
        };
        let table = db.join(f).players.and_then(|n| db.names(n));
        PlayerNames {
            names: table.map_or_else(Vec::new, |t| {
                (0..t.len())
                    .map(|i| {
                        u16::try_from(i)
                            .ok()
                            .and_then(|n| t.get(n))
                            .unwrap_or_default()
                            .to_owned()
                    })
                    .collect()
            }),
        }
    }

    /// The name of player `index`, or `#index` when unknown (no names
    /// file, a number past its end, an empty name).
    #[must_use]
    pub fn get(&self, index: usize) -> String {
        match self.names.get(index) {
            Some(n) if !n.is_empty() => n.clone(),
            _ => format!("#{index}"),
        }
    }
}
