//! `wthor index build|status`: the optional position index of a database.
//!
//! The index holds every position of every game (canonical orientation,
//! side to move) with the games reaching it; `wthor stats` (and `wthor
//! search`) answer position filters with it when it is fresh, and scan
//! otherwise, saying why on stderr. Its default place is `wthor.idx` in
//! the first `--db` directory (`FILE.idx` beside a single file); `-o` /
//! `--index` choose another (e.g. when the database is read-only).
//!
//! Fresh means built from exactly the game files of the database as they
//! are now: path, size, header and a content hash of each. `status` exits
//! with 0 when the index is fresh and 1 when it is stale, missing or
//! damaged, so that `wthor index status || wthor index build` keeps it
//! up to date.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use wthor_db::Database;
use wthor_db::index::{IndexChoice, IndexStatus, PositionIndex, default_path};

use anyhow::Context as _;

use crate::db_args::DbArgs;
use crate::textfmt::count;

/// Arguments of `wthor index`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::INDEX)]
pub(crate) struct Args {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    /// Build the index of the database and write it (atomically).
    Build(BuildArgs),
    /// Tell whether the index is fresh, stale (and why), missing or
    /// damaged; exit 1 unless fresh.
    Status(StatusArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    db: DbArgs,
    /// Where to write the index (default: `wthor.idx` in the first --db
    /// directory): the same --index as `index status`, `search` and
    /// `stats` read (-o/--output still accepted).
    #[arg(long = "index", short = 'o', alias = "output", value_name = "PATH")]
    output: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct StatusArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    index: IndexArgs,
}

/// Which index a command that reads the database uses.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct IndexArgs {
    /// The position index file (default: `wthor.idx` in the first --db
    /// directory).
    #[arg(long = "index", value_name = "PATH")]
    pub(crate) index: Option<PathBuf>,
    /// Never use a position index: scan.
    #[arg(long, conflicts_with = "index")]
    pub(crate) no_index: bool,
}

impl IndexArgs {
    fn path(&self, db: &Database) -> PathBuf {
        self.index.clone().unwrap_or_else(|| default_path(db))
    }

    /// The library's index choice of these flags (see
    /// [`wthor_db::Searcher`] for the rule).
    pub(crate) fn choice(&self) -> IndexChoice {
        match (&self.index, self.no_index) {
            (_, true) => IndexChoice::Never,
            (Some(path), false) => IndexChoice::At(path.clone()),
            (None, false) => IndexChoice::Default,
        }
    }
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match &args.action {
        Action::Build(a) => build(a, out),
        Action::Status(a) => status(a, out),
    }
}

fn build(args: &BuildArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let db = args.db.open()?;
    let path = args.output.clone().unwrap_or_else(|| default_path(&db));
    let start = Instant::now();
    let report = PositionIndex::build(&db, &path).context("building the index")?;
    writeln!(
        out,
        "wrote {}: {}, {}, {}",
        path.display(),
        count(report.games, "game", "games"),
        count(report.entries, "position", "positions"),
        count(report.bytes, "byte", "bytes")
    )?;
    eprintln!(
        "wthor: index built in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

fn status(args: &StatusArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let db = args.db.open()?;
    let path = args.index.path(&db);
    writeln!(out, "index: {}", path.display())?;
    let ix = match db.index_status(&path) {
        IndexStatus::Fresh(ix) => ix,
        IndexStatus::Missing => {
            writeln!(out, "status: missing (build it with `wthor index build`)")?;
            return Ok(ExitCode::FAILURE);
        }
        IndexStatus::Stale(reason) => {
            writeln!(out, "status: stale: {reason}")?;
            return Ok(ExitCode::FAILURE);
        }
        IndexStatus::Corrupt(e) => {
            writeln!(out, "status: damaged: {}", wthor_db::error_chain(&e))?;
            return Ok(ExitCode::FAILURE);
        }
    };
    if let Err(e) = ix.verify() {
        writeln!(out, "status: damaged: {}", wthor_db::error_chain(&e))?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "status: fresh")?;
    writeln!(
        out,
        "games: {}, positions: {}, bytes: {}",
        ix.games(),
        ix.entries(),
        ix.byte_len()
    )?;
    let width = ix
        .files()
        .iter()
        .map(|f| name(&f.path).len())
        .max()
        .unwrap_or(0);
    for f in ix.files() {
        writeln!(
            out,
            "  {:width$}  {:>5}  {:>7} games  {:>9} bytes  xxh3 {:016x}",
            name(&f.path),
            format!("{}x{}", f.side, f.side),
            f.games,
            f.len,
            f.hash
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

fn name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or_else(|| path.to_owned(), |n| n.to_string_lossy().into_owned())
}
