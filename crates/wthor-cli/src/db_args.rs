//! `--db DIR` (repeatable) or `WTHOR_DIR`: the database of the commands
//! that read one, opened leniently (a damaged file is reported once on
//! stderr and left out; the others still answer).

use std::fmt;
use std::path::PathBuf;

use wthor_db::{Database, DatabaseBuilder};

/// The database options shared by `search`, `replay` and the other
/// commands that read a database.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DbArgs {
    /// A database directory or file; repeat for several. Default: the
    /// directories of the WTHOR_DIR environment variable (a path list).
    #[arg(long = "db", value_name = "DIR")]
    pub(crate) db: Vec<PathBuf>,
    /// The players file of every game file (default: the newest `.JOU` by
    /// header date in each game file's directory).
    #[arg(long, value_name = "FILE")]
    pub(crate) players: Option<PathBuf>,
    /// The tournaments file of every game file (default: the newest `.TRN`
    /// by header date in each game file's directory).
    #[arg(long, value_name = "FILE")]
    pub(crate) tournaments: Option<PathBuf>,
}

impl DbArgs {
    /// The sources: `--db`, else `WTHOR_DIR`.
    pub(crate) fn sources(&self) -> Vec<PathBuf> {
        if !self.db.is_empty() {
            return self.db.clone();
        }
        env_sources()
    }

    /// Opens the database, `extra` files added; each damaged file is
    /// reported once on stderr.
    pub(crate) fn open_with(&self, extra: &[PathBuf]) -> anyhow::Result<Database> {
        let sources = self.sources();
        if sources.is_empty() && extra.is_empty() {
            return Err(Exit2(anyhow::anyhow!(
                "no database: give --db DIR or set WTHOR_DIR"
            ))
            .into());
        }
        let mut builder = DatabaseBuilder::new().skip_damaged(true);
        for source in sources.iter().chain(extra) {
            if !source.exists() {
                return Err(Exit2(anyhow::anyhow!(
                    "{}: no such file or directory",
                    source.display()
                ))
                .into());
            }
            builder = builder.source(source);
        }
        if let Some(p) = &self.players {
            builder = builder.players(p);
        }
        if let Some(t) = &self.tournaments {
            builder = builder.tournaments(t);
        }
        let db = builder
            .open()
            .map_err(|e| Exit2(anyhow::Error::new(e).context("opening the database")))?;
        for skipped in db.skipped() {
            eprintln!("wthor: warning: {skipped}; file skipped");
        }
        Ok(db)
    }

    /// Opens the database.
    pub(crate) fn open(&self) -> anyhow::Result<Database> {
        self.open_with(&[])
    }
}

/// The directories of the `WTHOR_DIR` environment variable (a path list,
/// `:`-separated on Unix).
pub(crate) fn env_sources() -> Vec<PathBuf> {
    std::env::var_os("WTHOR_DIR")
        .map(|v| {
            std::env::split_paths(&v)
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// An error that exits with status 2 (usage or I/O error, the project
/// convention) rather than 1.
#[derive(Debug)]
pub(crate) struct Exit2(pub(crate) anyhow::Error);

impl fmt::Display for Exit2 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for Exit2 {}

/// Wraps any error of `result` so that it exits with status 2.
pub(crate) fn exit2<T>(result: anyhow::Result<T>) -> anyhow::Result<T> {
    result.map_err(|e| if e.is::<Exit2>() { e } else { Exit2(e).into() })
}

/// Context for an error that exits with status 2.
pub(crate) trait Context2<T> {
    /// The error with `what` in front, exiting with status 2.
    fn usage(self, what: impl fmt::Display) -> anyhow::Result<T>;
}

impl<T, E: std::error::Error + Send + Sync + 'static> Context2<T> for Result<T, E> {
    fn usage(self, what: impl fmt::Display) -> anyhow::Result<T> {
        self.map_err(|e| Exit2(anyhow::Error::new(e).context(what.to_string())).into())
    }
}
