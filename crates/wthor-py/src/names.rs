//! The player and tournament names joined to games.
//!
//! **Temporary, one place:** until `wthor-db` joins names itself, this
//! module picks the names files of a database and decodes them with
//! `wthor-format`; it is then replaced by the database's own join.
//!
//! Of several files of one kind (`WTH.JOU` and `WTHOR.JOU` side by side),
//! the one with the latest creation date in its header is used (a game file
//! must be read with the names of its own release, and the newest release
//! holds every number of the games beside it); on equal dates, the longer
//! one. Names are decoded as Windows-1252 (the spec's finding on the real
//! files). A number beyond the end of the file has no name (`None`).

use std::path::{Path, PathBuf};

use wthor_db::{DbFile, Error};
use wthor_format::{FileKind, NameKind, ReadOptions, parse_header, parse_names_file};

/// The decoded names of a database.
#[derive(Clone, Debug, Default)]
pub struct Names {
    players: Vec<String>,
    tournaments: Vec<String>,
}

impl Names {
    /// The names of the players and tournaments files among `files`.
    ///
    /// # Errors
    /// [`Error::Format`] when a names file cannot be parsed (it was parsed
    /// once already when the database was opened, so this does not happen
    /// short of the file changing).
    pub fn of(files: &[DbFile]) -> Result<Names, Error> {
        Ok(Names {
            players: decode(files, FileKind::Players, NameKind::Players)?,
            tournaments: decode(files, FileKind::Tournaments, NameKind::Tournaments)?,
        })
    }

    /// The name of player `number`.
    #[must_use]
    pub fn player(&self, number: u16) -> Option<&str> {
        self.players.get(usize::from(number)).map(String::as_str)
    }

    /// The name of tournament `number`.
    #[must_use]
    pub fn tournament(&self, number: u16) -> Option<&str> {
        self.tournaments
            .get(usize::from(number))
            .map(String::as_str)
    }
}

fn decode(files: &[DbFile], kind: FileKind, names: NameKind) -> Result<Vec<String>, Error> {
    let date = |f: &DbFile| parse_header(f.bytes()).ok().map(|(_, h)| h.created);
    let Some(file) = files
        .iter()
        .filter(|f| f.kind() == kind)
        .max_by_key(|f| (date(f), f.len()))
    else {
        return Ok(Vec::new());
    };
    let parsed =
        parse_names_file(file.bytes(), names, &ReadOptions::default()).map_err(|source| {
            Error::Format {
                path: file.path().to_owned(),
                source,
            }
        })?;
    Ok(parsed
        .names()
        .map(|n| n.decode(parsed.encoding()).into_owned())
        .collect())
}

/// The names files (`.JOU`, `.TRN`) in the directories of the given game
/// files, for a database opened from a list of files that names none: the
/// names files "beside the games".
///
/// # Errors
/// [`Error::Io`] when a directory cannot be listed.
pub fn beside(files: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let is = |p: &Path, k| FileKind::from_path(p) == Some(k);
    let mut out = Vec::new();
    for kind in [FileKind::Players, FileKind::Tournaments] {
        if files.iter().any(|p| is(p, kind)) {
            continue;
        }
        let mut dirs: Vec<&Path> = files
            .iter()
            .filter(|p| {
                matches!(
                    FileKind::from_path(p),
                    Some(FileKind::Games8 | FileKind::Games10)
                )
            })
            .map(|p| p.parent().unwrap_or(Path::new(".")))
            .map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            })
            .collect();
        dirs.dedup();
        // A missing directory is left to the opening of its game file,
        // whose error names the file.
        for dir in dirs.into_iter().filter(|d| d.is_dir()) {
            for p in wthor_db::list_files(dir, false)? {
                if is(&p, kind) && !out.contains(&p) {
                    out.push(p);
                }
            }
        }
    }
    Ok(out)
}
