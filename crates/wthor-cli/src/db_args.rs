//! `--db DIR` (repeatable) or `WTHOR_DIR`: the database of the commands
//! that read one, opened leniently (a damaged file is reported once on
//! stderr and left out; a file cut inside a record, or whose header
//! announces more records than it holds, answers from its whole records
//! with a warning; the others still answer), or with `--strict` refused.

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
    /// The players file of every game file (default: for each game file,
    /// the newest `.JOU` by header date of its release in its directory:
    /// `PLAYOK.JOU` for `PLAYOK_2023.wtb`, else `WTH.JOU` or `WTHOR.JOU`).
    #[arg(long, value_name = "FILE")]
    pub(crate) players: Option<PathBuf>,
    /// The tournaments file of every game file (default: as for players,
    /// with `.TRN` files).
    #[arg(long, value_name = "FILE")]
    pub(crate) tournaments: Option<PathBuf>,
    /// Refuse a damaged database file (cut inside a record, a header count
    /// above its records, any format warning) rather than read what it can
    /// with a warning or leave it out: exit 2.
    #[arg(long)]
    pub(crate) strict: bool,
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
        self.open_with_options(extra, wthor_db::OpenOptions::default())
    }

    /// Opens the database with `options` (e.g. the names encoding), `extra`
    /// files added; each damaged file is reported once on stderr (with
    /// `--strict`, the first one is the error).
    pub(crate) fn open_with_options(
        &self,
        extra: &[PathBuf],
        options: wthor_db::OpenOptions,
    ) -> anyhow::Result<Database> {
        let sources = self.sources();
        if sources.is_empty() && extra.is_empty() {
            return Err(anyhow::anyhow!(
                "no database: give --db DIR or set WTHOR_DIR"
            ));
        }
        let mut builder = DatabaseBuilder::new()
            .options(options)
            .for_front_end(self.strict);
        for source in sources.iter().chain(extra) {
            if !source.exists() {
                return Err(anyhow::anyhow!(
                    "{}: no such file or directory",
                    source.display()
                ));
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
            .map_err(|e| anyhow::Error::new(e).context("opening the database"))?;
        report_damage(&db);
        Ok(db)
    }

    /// Opens the database.
    pub(crate) fn open(&self) -> anyhow::Result<Database> {
        self.open_with(&[])
    }
}

/// Prints on stderr what the database leaves out: each damaged file set
/// aside, and each file read only up to its last whole record (cut inside a
/// record, or with a header count above its records).
pub(crate) fn report_damage(db: &Database) {
    for note in db.damage_notes() {
        eprintln!("wthor: warning: {note}");
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
