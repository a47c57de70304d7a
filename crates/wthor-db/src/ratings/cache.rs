//! The ratings of a whole database, kept in a file between runs: fitted
//! once per database content and parameters, read back afterwards.
//!
//! The file is JSON (`{"format", "database", "ratings"}`): `database` is
//! the [content key](Database::content_key) of the database whose every
//! game the ratings were fitted on, and the ratings hold their parameters.
//! A file of another database, of other parameters, of an older format,
//! or damaged, is replaced by a new fit; a file that cannot be written
//! leaves the ratings computed and says why. By default the file is
//! `ratings-KEY.json` in the user's cache directory
//! ([`default_cache_path`]), never in the data folder.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use super::{Params, Ratings, RatingsError};
use crate::{Database, Query};

/// The version of the file's layout; a file of another is fitted anew.
const FORMAT: u32 = 1;

/// Ratings with where they came from.
#[derive(Debug)]
pub struct CachedRatings {
    /// The ratings of every game of the database.
    pub ratings: Ratings,
    /// Whether they were read from the file (else fitted, and written).
    pub read: bool,
    /// Why the file was not used or not written, when it was not: a
    /// sentence naming the file, for a warning (the ratings are good).
    pub note: Option<String>,
}

#[derive(serde::Serialize)]
struct Stored<'a> {
    format: u32,
    database: &'a str,
    ratings: &'a Ratings,
}

#[derive(serde::Deserialize)]
struct Read {
    format: u32,
    database: String,
    ratings: Ratings,
}

/// The default file of a database's ratings: `ratings-KEY.json` in the
/// `wthor` folder of the user's cache directory (`$XDG_CACHE_HOME` or
/// `~/.cache` on Linux, `~/Library/Caches` on macOS, the local application
/// data on Windows); `None` when the system names none.
#[must_use]
pub fn default_cache_path(db: &Database) -> Option<PathBuf> {
    dirs::cache_dir().map(|dir| {
        dir.join("wthor")
            .join(format!("ratings-{}.json", db.content_key()))
    })
}

impl Database {
    /// A key of the database's content: 16 hexadecimal digits hashing,
    /// for each of its files in order, its name, length and bytes (game,
    /// players and tournaments files alike). Two databases with the same
    /// files have the same key, wherever they are; a file changed, added
    /// or removed changes it.
    #[must_use]
    pub fn content_key(&self) -> String {
        let parts: Vec<(String, u64, u64)> = self
            .files()
            .par_iter()
            .map(|f| {
                let name = f
                    .path()
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (name, f.bytes().len() as u64, xxh3_64(f.bytes()))
            })
            .collect();
        let mut h = Xxh3::new();
        for (name, len, hash) in &parts {
            h.update(name.as_bytes());
            h.update(&[0]);
            h.update(&len.to_le_bytes());
            h.update(&hash.to_le_bytes());
        }
        format!("{:016x}", h.digest())
    }

    /// The ratings of every game of the database fitted with `params`,
    /// kept in `file` or, without one, in the [default
    /// file](default_cache_path) (fitted each time on a system without a
    /// cache directory): what the front ends use.
    ///
    /// # Errors
    /// As [`Database::cached_ratings`].
    pub fn kept_ratings(
        &self,
        params: &Params,
        file: Option<&Path>,
    ) -> Result<CachedRatings, RatingsError> {
        match file
            .map(Path::to_owned)
            .or_else(|| default_cache_path(self))
        {
            Some(path) => self.cached_ratings(params, &path),
            None => Ok(CachedRatings {
                ratings: self.ratings(&Query::new(), params)?,
                read: false,
                note: None,
            }),
        }
    }

    /// The ratings of every game of the database fitted with `params`:
    /// read from `file` when it holds this database's at these parameters,
    /// else fitted and written there (a temporary file renamed, its
    /// folder made when missing).
    ///
    /// # Errors
    /// As [`Database::ratings`]; a file that cannot be read or written is
    /// no error but a [`CachedRatings::note`].
    pub fn cached_ratings(
        &self,
        params: &Params,
        file: &Path,
    ) -> Result<CachedRatings, RatingsError> {
        params.check()?;
        let key = self.content_key();
        let stale = match std::fs::read(file) {
            Ok(bytes) => match serde_json::from_slice::<Read>(&bytes) {
                Ok(r)
                    if r.format == FORMAT && r.database == key && r.ratings.params() == params =>
                {
                    let mut ratings = r.ratings;
                    ratings.reindex();
                    return Ok(CachedRatings {
                        ratings,
                        read: true,
                        note: None,
                    });
                }
                Ok(r) if r.format != FORMAT => Some("of another format"),
                Ok(r) if r.database != key => Some("of another database or an older content"),
                Ok(_) => Some("of other parameters"),
                Err(_) => Some("damaged"),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(_) => Some("unreadable"),
        };
        let ratings = self.ratings(&Query::new(), params)?;
        let stored = Stored {
            format: FORMAT,
            database: &key,
            ratings: &ratings,
        };
        let written = file
            .parent()
            .filter(|dir| !dir.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| serde_json::to_vec(&stored).map_err(|e| e.to_string()))
            .and_then(|bytes| crate::atomic::write(file, &bytes).map_err(|e| e.to_string()));
        let note = match (written, stale) {
            (Err(e), _) => Some(format!(
                "{}: the ratings could not be kept ({e}); they are fitted again each time",
                file.display()
            )),
            (Ok(()), Some(why)) => Some(format!(
                "{}: the kept ratings were {why}: fitted again and replaced",
                file.display()
            )),
            (Ok(()), None) => None,
        };
        Ok(CachedRatings {
            ratings,
            read: false,
            note,
        })
    }
}
