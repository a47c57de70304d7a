//! Files written whole or not at all: the one way every writer of the
//! workspace replaces a file (game and names files of `import` and
//! `install`, the index, the solve cache, and the CLI's exports,
//! conversions, pictures and man pages).
//!
//! The bytes go to a temporary file in the target's directory (so the
//! rename never crosses file systems), which is synced, renamed over the
//! target, and the directory synced: after a crash or an error the target
//! is wholly old or wholly new, and a temporary file left by a failure is
//! removed. The new file keeps the permissions of the one it replaces, or
//! gets the usual ones of a new file (0666 less the umask on Unix), not the
//! temporary file's private 0600.
//!
//! Errors name the target and the step, never the temporary file (whose
//! random name means nothing to the user):
//!
//! ```
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("no/such/folder/games.csv");
//! let err = wthor_db::atomic::write(&path, b"x").unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     format!(
//!         "{}: cannot write: folder {} does not exist",
//!         path.display(),
//!         path.parent().unwrap().display()
//!     )
//! );
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// The step of an atomic write that failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Making the temporary file in the target's directory.
    Create,
    /// Writing the bytes.
    Write,
    /// Flushing them to the disk.
    Sync,
    /// Renaming the temporary file over the target.
    Rename,
    /// Syncing the directory after the rename (the new file is in place).
    SyncDir,
}

/// An atomic write that failed: the target keeps its old content (or stays
/// absent), unless `step` is [`Step::SyncDir`] (the new content is in
/// place, its directory entry may not be on the disk yet).
///
/// Its message is whole (the system error included, as the last part), so
/// it has no [`source`](std::error::Error::source): a chain of causes
/// printed after it would repeat it.
#[derive(Debug, thiserror::Error)]
#[error("{}: {}", path.display(), describe(path, *step, cause))]
pub struct WriteError {
    /// The file being written.
    pub path: PathBuf,
    /// What failed.
    pub step: Step,
    /// The system error, without the temporary file's name.
    pub cause: io::Error,
}

fn describe(path: &Path, step: Step, source: &io::Error) -> String {
    match (step, source.kind()) {
        (Step::Create, io::ErrorKind::NotFound) => {
            format!(
                "cannot write: folder {} does not exist",
                folder(path).display()
            )
        }
        (Step::Create, io::ErrorKind::PermissionDenied) => format!(
            "cannot write: folder {} is not writable ({source})",
            folder(path).display()
        ),
        (Step::Create | Step::Write, _) => format!("cannot write: {source}"),
        (Step::Sync, _) => format!("cannot flush to the disk: {source}"),
        (Step::Rename, _) => format!("cannot replace: {source}"),
        (Step::SyncDir, _) => format!("written, but its folder cannot be synced: {source}"),
    }
}

/// The error without the temporary file's path, which tempfile appends to
/// the OS error's message (" at path \"…/.wthor-XXXX\""; its wrapper
/// gives no access to the error inside). The test below checks it.
fn bare(e: io::Error) -> io::Error {
    if e.raw_os_error().is_some() {
        return e;
    }
    let text = e.to_string();
    match text.find(" at path ") {
        Some(at) => io::Error::new(e.kind(), &text[..at]),
        None => e,
    }
}

/// The directory a file is written in (`.` for a bare name).
fn folder(path: &Path) -> &Path {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    }
}

/// A file being written: [`AtomicFile::create`], write to it (it is
/// [`Write`], buffered), then [`AtomicFile::commit`]. Dropped without a
/// commit, the temporary file is removed and the target left alone.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    temp: BufWriter<tempfile::NamedTempFile>,
}

impl AtomicFile {
    /// Starts writing `path`: a temporary file in its directory.
    ///
    /// # Errors
    /// [`Step::Create`]: the folder is missing or not writable, or `path`
    /// is a directory.
    pub fn create(path: &Path) -> Result<AtomicFile, WriteError> {
        let fail = |source| WriteError {
            path: path.to_owned(),
            step: Step::Create,
            cause: source,
        };
        if path.is_dir() {
            return Err(fail(io::Error::new(
                io::ErrorKind::IsADirectory,
                "it is a directory, expected a file name",
            )));
        }
        let mut builder = tempfile::Builder::new();
        builder.prefix(".wthor-");
        match std::fs::metadata(path) {
            Ok(meta) => {
                builder.permissions(meta.permissions());
            }
            Err(_) => {
                #[cfg(unix)]
                {
                    use std::os::unix::fs::PermissionsExt as _;
                    builder.permissions(std::fs::Permissions::from_mode(0o666));
                }
            }
        }
        let temp = builder
            .tempfile_in(folder(path))
            .map_err(|e| fail(bare(e)))?;
        Ok(AtomicFile {
            path: path.to_owned(),
            temp: BufWriter::with_capacity(1 << 16, temp),
        })
    }

    /// The file being written.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn fail(&self, step: Step) -> impl FnOnce(io::Error) -> WriteError + '_ {
        move |e| WriteError {
            path: self.path.clone(),
            step,
            cause: bare(e),
        }
    }

    /// Flushes the bytes written and syncs them to the disk.
    ///
    /// # Errors
    /// [`Step::Write`] or [`Step::Sync`].
    pub fn sync(&mut self) -> Result<(), WriteError> {
        self.temp.flush().map_err(self.fail(Step::Write))?;
        self.temp
            .get_ref()
            .as_file()
            .sync_all()
            .map_err(self.fail(Step::Sync))
    }

    /// Renames the (synced) temporary file over the target.
    ///
    /// # Errors
    /// [`Step::Write`] when the last bytes cannot be written, [`Step::Rename`].
    pub fn rename(self) -> Result<PathBuf, WriteError> {
        let AtomicFile { path, temp } = self;
        let temp = temp.into_inner().map_err(|e| WriteError {
            path: path.clone(),
            step: Step::Write,
            cause: bare(e.into_error()),
        })?;
        match temp.persist(&path) {
            Ok(_) => Ok(path),
            Err(e) => Err(WriteError {
                path,
                step: Step::Rename,
                cause: bare(e.error),
            }),
        }
    }

    /// Syncs, renames over the target and syncs the directory.
    ///
    /// # Errors
    /// The step that failed (see [`WriteError`]).
    pub fn commit(mut self) -> Result<(), WriteError> {
        self.sync()?;
        let path = self.rename()?;
        sync_folder(&path)
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.temp.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.temp.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.temp.flush()
    }
}

/// Syncs the directory of `path` (after a rename into it), so that the new
/// directory entry is on the disk. Not available on Windows (where a
/// directory cannot be opened as a file): a no-op there.
///
/// # Errors
/// [`Step::SyncDir`].
pub fn sync_folder(path: &Path) -> Result<(), WriteError> {
    if cfg!(windows) {
        return Ok(());
    }
    File::open(folder(path))
        .and_then(|d| d.sync_all())
        .map_err(|source| WriteError {
            path: path.to_owned(),
            step: Step::SyncDir,
            cause: source,
        })
}

/// Writes `bytes` as `path`, atomically (see the module).
///
/// # Errors
/// The step that failed; the old file is then intact.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), WriteError> {
    write_with(path, |w| w.write_all(bytes))
}

/// Writes what `write` produces as `path`, atomically (see the module),
/// and returns its value. An error of `write` leaves the old file intact.
///
/// # Errors
/// The step that failed ([`Step::Write`] for an error of `write`).
pub fn write_with<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<T, WriteError> {
    write_file_with(path, |file| write(file))
}

/// [`write_with`] for a writer that needs the file itself (a `Write +
/// Send`, as Parquet's writer does) rather than a `dyn Write`.
///
/// # Errors
/// The step that failed ([`Step::Write`] for an error of `write`).
pub fn write_file_with<T>(
    path: &Path,
    write: impl FnOnce(&mut AtomicFile) -> io::Result<T>,
) -> Result<T, WriteError> {
    let mut file = AtomicFile::create(path)?;
    let value = write(&mut file).map_err(file.fail(Step::Write))?;
    file.commit()?;
    Ok(value)
}
