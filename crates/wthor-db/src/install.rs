//! Installing WTHOR files into a directory safely, the way the format's
//! authors asked programs to update a WTHOR directory (the creation date of
//! a file is its signature):
//!
//! - a file is **added** when the directory has none of its name;
//! - it **replaces** the installed file of the same name only if its header
//!   creation date is newer; an older or equal date is **refused** (unless
//!   forced), as is a file of another kind than the installed one;
//! - a players or tournaments file that would drop or change any existing
//!   name (the numbers games refer to) is **refused**, even when forced;
//! - a file that does not parse as WTHOR is refused.
//!
//! Every decision is made, reading every file, before anything is written.
//! Then each file is written to a temporary file in the target directory,
//! synced, and renamed over its target, and the directory is synced: a
//! failure at any point leaves each file of the directory either wholly old
//! or wholly new (no temporary file left behind). Files are written one
//! after the other, so a failure stops the installation there: the files
//! before are installed, those after are not, and the report says which.
//!
//! ```no_run
//! use std::path::PathBuf;
//! use wthor_db::install::{InstallOptions, install};
//!
//! let report = install(&[PathBuf::from("new/WTH_2026.wtb")], "wthor".as_ref(), &InstallOptions::default())?;
//! for file in &report.files {
//!     println!("{}: {:?}", file.name, file.action);
//! }
//! # Ok::<(), wthor_db::Error>(())
//! ```

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use wthor_format::{CreationDate, FileKind, ReadOptions, WthorFile, parse_any};

use crate::Error;
use crate::atomic::{AtomicFile, Step, WriteError, sync_folder};

/// How to install.
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct InstallOptions {
    /// Decide and report, write nothing.
    pub dry_run: bool,
    /// Replace an installed file whatever the creation dates (the names
    /// checks still hold).
    pub force: bool,
    /// How to parse the files (strictness; the encoding does not matter:
    /// names are compared as bytes).
    pub read: ReadOptions,
}

/// What happened to one file given to [`install`].
#[derive(Debug)]
pub struct Installed {
    /// The file name, in the target directory.
    pub name: String,
    /// The file given.
    pub source: PathBuf,
    /// What was done (or would be, in a dry run).
    pub action: Action,
}

/// What [`install`] did with a file.
#[derive(Debug)]
#[non_exhaustive]
pub enum Action {
    /// The directory had no file of that name.
    Added {
        /// The creation date of the file.
        created: CreationDate,
    },
    /// The installed file was replaced.
    Replaced {
        /// The creation date of the file replaced.
        installed: CreationDate,
        /// The creation date of the new one.
        created: CreationDate,
        /// Whether it was replaced only because of `force` (not newer).
        forced: bool,
    },
    /// The file was not installed.
    Refused(Refusal),
    /// Writing failed; the target is wholly old or wholly new (see
    /// `renamed`), and the files after it were not written.
    Failed {
        /// Whether the rename had happened (the new file is in place; only
        /// the sync of the directory failed).
        renamed: bool,
        /// The system error.
        error: io::Error,
    },
    /// Not attempted: an earlier file failed.
    Skipped,
}

/// Why a file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Refusal {
    /// Its creation date is not newer than the installed file's.
    NotNewer {
        /// The installed file's date.
        installed: CreationDate,
        /// The given file's date.
        created: CreationDate,
    },
    /// It is of another kind than the installed file.
    KindDiffers {
        /// The installed file's kind.
        installed: FileKind,
        /// The given file's kind.
        given: FileKind,
    },
    /// A names file with fewer names than the installed one.
    NamesDropped {
        /// Names installed.
        installed: usize,
        /// Names in the given file.
        given: usize,
    },
    /// A names file whose name at `number` differs from the installed one.
    NameChanged {
        /// The number (0-based index) of the first name that differs.
        number: usize,
    },
    /// The given file does not parse (the parse error).
    Unreadable(String),
    /// The installed file does not parse (the parse error); only `force`
    /// replaces it.
    InstalledUnreadable(String),
    /// Another file of the same name was given before it.
    Duplicate,
}

/// What [`install`] did, file by file, in the order given.
#[derive(Debug)]
pub struct InstallReport {
    /// One entry per file given.
    pub files: Vec<Installed>,
    /// Whether nothing was written.
    pub dry_run: bool,
}

impl InstallReport {
    /// The number of files refused.
    #[must_use]
    pub fn refused(&self) -> usize {
        self.count(|a| matches!(a, Action::Refused(_)))
    }

    /// Whether a write failed.
    #[must_use]
    pub fn failed(&self) -> bool {
        self.count(|a| matches!(a, Action::Failed { .. })) > 0
    }

    fn count(&self, f: impl Fn(&Action) -> bool) -> usize {
        self.files.iter().filter(|i| f(&i.action)).count()
    }
}

/// Installs `files` into the directory `into` (see the module docs).
///
/// # Errors
/// [`Error::Io`] when `into` is not a directory (one that does not exist
/// is made, unless in a dry run), or a given or installed file cannot be
/// read; nothing is written then. Failures while writing
/// are in the report ([`Action::Failed`]), not errors.
pub fn install(
    files: &[PathBuf],
    into: &Path,
    options: &InstallOptions,
) -> Result<InstallReport, Error> {
    install_with_hook(files, into, options, &mut |_, _| Ok(()))
}

/// [`install`], calling `before_step(k, step)` before each [`Step`] of
/// writing the `k`-th file written (from 0, counting only the files added
/// or replaced; [`Step::Write`] comes between the two halves of the
/// bytes). An error it returns fails that step as an I/O error there
/// would: that file is [`Action::Failed`] (`renamed` when the step was
/// [`Step::SyncDir`]), those after it [`Action::Skipped`], every file of
/// the directory left wholly old or wholly new. A front end can follow the
/// writes or stop between them with it; the tests inject a failure at
/// every step of every file.
///
/// ```
/// use wthor_db::atomic::Step;
/// use wthor_db::install::{Action, InstallOptions, install_with_hook};
///
/// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
/// let dir = tempfile::tempdir()?;
/// let files = [testdata.join("WTH_2001.wtb")];
/// let mut steps = Vec::new();
/// let options = InstallOptions::default();
/// let report = install_with_hook(&files, dir.path(), &options, &mut |k, step| {
///     steps.push((k, step));
///     Ok(())
/// })?;
/// assert!(matches!(report.files[0].action, Action::Added { .. }));
/// let each = [Step::Create, Step::Write, Step::Sync, Step::Rename, Step::SyncDir];
/// assert_eq!(steps, each.map(|s| (0, s)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`install`].
pub fn install_with_hook(
    files: &[PathBuf],
    into: &Path,
    options: &InstallOptions,
    before_step: &mut dyn FnMut(usize, Step) -> io::Result<()>,
) -> Result<InstallReport, Error> {
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| Error::Io { path, source }
    };
    // A directory that does not exist yet is made (as `import` makes its
    // target), except in a dry run, which writes nothing.
    match std::fs::metadata(into) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if !options.dry_run {
                std::fs::create_dir_all(into).map_err(io(into))?;
            }
        }
        Err(e) => return Err(io(into)(e)),
        Ok(meta) if !meta.is_dir() => {
            return Err(Error::Io {
                path: into.to_owned(),
                source: io::Error::other("not a directory"),
            });
        }
        Ok(_) => {}
    }
    // Decide everything first.
    let mut plan: Vec<(Installed, Option<Vec<u8>>)> = Vec::with_capacity(files.len());
    for source in files {
        let name = source
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| Error::Io {
                path: source.clone(),
                source: io::Error::other("not a file name"),
            })?;
        let bytes = std::fs::read(source).map_err(io(source))?;
        let target = into.join(&name);
        let installed = match std::fs::read(&target) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(&target)(e)),
        };
        let duplicate = plan.iter().any(|(i, _)| i.name == name);
        let action = if duplicate {
            Action::Refused(Refusal::Duplicate)
        } else {
            decide(&name, &bytes, installed.as_deref(), options)
        };
        let data =
            matches!(action, Action::Added { .. } | Action::Replaced { .. }).then_some(bytes);
        plan.push((
            Installed {
                name,
                source: source.clone(),
                action,
            },
            data,
        ));
    }
    let mut report = InstallReport {
        files: Vec::with_capacity(plan.len()),
        dry_run: options.dry_run,
    };
    let mut written = 0;
    let mut stopped = false;
    for (mut entry, data) in plan {
        if let Some(data) = data.filter(|_| !options.dry_run) {
            if stopped {
                entry.action = Action::Skipped;
            } else if let Err((renamed, error)) =
                write_file(into, &entry.name, &data, &mut |step| {
                    before_step(written, step)
                })
            {
                entry.action = Action::Failed { renamed, error };
                stopped = true;
            }
            written += 1;
        }
        report.files.push(entry);
    }
    Ok(report)
}

/// What to do with the file `name` of `bytes`, given the installed bytes.
fn decide(name: &str, bytes: &[u8], installed: Option<&[u8]>, options: &InstallOptions) -> Action {
    let hint = FileKind::from_path(Path::new(name));
    let given = match parse_any(bytes, hint, &options.read) {
        Ok(f) => f,
        Err(e) => return Action::Refused(Refusal::Unreadable(e.to_string())),
    };
    let created = given.header().created;
    let Some(installed) = installed else {
        return Action::Added { created };
    };
    let old = match parse_any(installed, hint, &options.read) {
        Ok(f) => f,
        Err(e) if !options.force => {
            return Action::Refused(Refusal::InstalledUnreadable(e.to_string()));
        }
        Err(_) => {
            return Action::Replaced {
                installed: CreationDate::default(),
                created,
                forced: true,
            };
        }
    };
    if old.kind() != given.kind() {
        return Action::Refused(Refusal::KindDiffers {
            installed: old.kind(),
            given: given.kind(),
        });
    }
    if let (WthorFile::Names(old), WthorFile::Names(new)) = (&old, &given) {
        if new.len() < old.len() {
            return Action::Refused(Refusal::NamesDropped {
                installed: old.len(),
                given: new.len(),
            });
        }
        if let Some(number) = old
            .names()
            .zip(new.names())
            .position(|(a, b)| a.text_bytes() != b.text_bytes())
        {
            return Action::Refused(Refusal::NameChanged { number });
        }
    }
    let installed = old.header().created;
    if created > installed {
        Action::Replaced {
            installed,
            created,
            forced: false,
        }
    } else if options.force {
        Action::Replaced {
            installed,
            created,
            forced: true,
        }
    } else {
        Action::Refused(Refusal::NotNewer { installed, created })
    }
}

/// Writes `data` as `dir/name` atomically (see [`crate::atomic`]), with
/// `before_step` called before each step ([`install_with_hook`]). On
/// failure: whether the rename happened, and the error (the temporary file
/// is removed).
fn write_file(
    dir: &Path,
    name: &str,
    data: &[u8],
    before_step: &mut dyn FnMut(Step) -> io::Result<()>,
) -> Result<(), (bool, io::Error)> {
    let target = dir.join(name);
    let at = |step: Step| move |e: io::Error| (step == Step::SyncDir, e);
    let failed = |e: WriteError| (e.step == Step::SyncDir, e.cause);
    before_step(Step::Create).map_err(at(Step::Create))?;
    let mut file = AtomicFile::create(&target).map_err(failed)?;
    let half = data.len() / 2;
    file.write_all(&data[..half]).map_err(at(Step::Write))?;
    before_step(Step::Write).map_err(at(Step::Write))?;
    file.write_all(&data[half..]).map_err(at(Step::Write))?;
    before_step(Step::Sync).map_err(at(Step::Sync))?;
    file.sync().map_err(failed)?;
    before_step(Step::Rename).map_err(at(Step::Rename))?;
    let target = file.rename().map_err(failed)?;
    before_step(Step::SyncDir).map_err(at(Step::SyncDir))?;
    sync_folder(&target).map_err(failed)
}
