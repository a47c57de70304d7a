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
//! - a game file whose games name players or tournaments past the names
//!   file the directory would read them with (the database's join, see
//!   [`Database::from_files`](crate::Database::from_files), counting the
//!   names files installed by the same call) is **refused**, and so is a
//!   names file that would leave installed games with fewer names than
//!   they had; forced, they are installed with a warning
//!   ([`Installed::warnings`]). A game file installed where the directory
//!   has no names file of a kind at all is installed with a warning (its
//!   names may come later);
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

use std::collections::BTreeMap;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use wthor_format::{CreationDate, FileKind, NameKind, ReadOptions, WthorFile, parse_any};

use crate::Error;
use crate::atomic::{AtomicFile, Step, WriteError, sync_folder};
use crate::database::{JoinFacts, joins};

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
    /// For a file installed: the names its games (or the games read with
    /// it) will lack, when forced past a [`Refusal::ShortNames`] or when
    /// the directory has no names file of that kind.
    pub warnings: Vec<ShortNames>,
}

/// Games that name players (or tournaments) past the names file they are
/// read with: `needed` names, the file's `available`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortNames {
    /// The game file, by its name in the directory.
    pub game_file: String,
    /// Players or tournaments.
    pub kind: NameKind,
    /// The names the games need: their highest number plus one.
    pub needed: usize,
    /// The names file they would be read with after the install (its name
    /// in the directory) and its number of names; `None` when the
    /// directory would have no names file of that kind.
    pub names_file: Option<(String, usize)>,
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
    /// Games would name players or tournaments past their names file: a
    /// game file's own games (with the names files of the directory after
    /// the install), or the installed games that a names file would leave
    /// with fewer names than they had. `force` installs anyway.
    ShortNames(Vec<ShortNames>),
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
    install_stepwise(files, into, options, &mut |_, _| Ok(()))
}

/// [`install`], calling `before_step(k, step)` before each [`Step`] of
/// writing the `k`-th file written (from 0, counting only the files added
/// or replaced; [`Step::Write`] comes between the two halves of the
/// bytes). An error it returns fails that step as an I/O error there
/// would: that file is [`Action::Failed`] (`renamed` when the step was
/// [`Step::SyncDir`]), those after it [`Action::Skipped`], every file of
/// the directory left wholly old or wholly new.
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
///
/// Test support: built with the `test-support` feature only (the
/// tests inject a failure at each step).
#[cfg(feature = "test-support")]
pub fn install_with_hook(
    files: &[PathBuf],
    into: &Path,
    options: &InstallOptions,
    before_step: &mut dyn FnMut(usize, Step) -> io::Result<()>,
) -> Result<InstallReport, Error> {
    install_stepwise(files, into, options, before_step)
}

/// [`install`] with a hook before each step.
fn install_stepwise(
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
                warnings: Vec::new(),
            },
            data,
        ));
    }
    check_names(into, &mut plan, options)?;
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

/// A file of the directory, installed or to install, as the names check
/// sees it.
#[derive(Clone, Debug)]
struct Entry {
    /// Its path in the directory.
    path: PathBuf,
    kind: FileKind,
    rank: (CreationDate, usize),
    /// For a game file: the players and the tournaments its games need
    /// (highest number plus one; 0 without games).
    needs: Option<[usize; 2]>,
    /// Its index in the plan, when this call installs it.
    planned: Option<usize>,
}

impl Entry {
    fn of(path: PathBuf, bytes: &[u8], planned: Option<usize>) -> Option<Entry> {
        let mut read = ReadOptions::default();
        read.read_cut_records = true;
        read.check_moves = false;
        let file = parse_any(bytes, FileKind::from_path(&path), &read).ok()?;
        let needs = match &file {
            WthorFile::Games(g) => Some(g.games().fold([0, 0], |[p, t], game| {
                let player = usize::from(game.black().max(game.white())) + 1;
                [p.max(player), t.max(usize::from(game.tournament()) + 1)]
            })),
            _ => None,
        };
        Some(Entry {
            path,
            kind: file.kind(),
            rank: (file.header().created, file.len()),
            needs,
            planned,
        })
    }

    fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

/// The names check of an install (see the module docs): refuses, unless
/// forced, the planned game files whose games would point past the names
/// files of the directory after the install, and the planned names files
/// that would leave installed games with fewer names than they had; the
/// files installed anyway get the [`ShortNames`] as warnings. Files are
/// refused until none is left to refuse (a refused names file changes
/// what the others are read with).
fn check_names(
    into: &Path,
    plan: &mut [(Installed, Option<Vec<u8>>)],
    options: &InstallOptions,
) -> Result<(), Error> {
    let is_names = |name: &str| {
        matches!(
            FileKind::from_path(Path::new(name)),
            Some(FileKind::Players | FileKind::Tournaments)
        )
    };
    if !plan.iter().any(|(_, data)| data.is_some()) {
        return Ok(());
    }
    // The installed files: names files always, game files only when a
    // names file is installed (they are read only then).
    let names_planned = plan
        .iter()
        .any(|(i, data)| data.is_some() && is_names(&i.name));
    let mut installed = Vec::new();
    if into.is_dir() {
        for path in crate::list_files(into, false)? {
            let wanted = match FileKind::from_path(&path) {
                Some(FileKind::Players | FileKind::Tournaments) => true,
                Some(FileKind::Games8 | FileKind::Games10) => names_planned,
                _ => false,
            };
            if !wanted {
                continue;
            }
            let bytes = std::fs::read(&path).map_err(|source| Error::Io {
                path: path.clone(),
                source,
            })?;
            // A file that does not parse is no part of the database.
            installed.extend(Entry::of(path, &bytes, None));
        }
    }
    let planned: Vec<Option<Entry>> = plan
        .iter()
        .enumerate()
        .map(|(k, (i, data))| {
            data.as_ref()
                .and_then(|bytes| Entry::of(into.join(&i.name), bytes, Some(k)))
        })
        .collect();
    let before = join_of(&installed);
    loop {
        // The directory after the install: the installed files, those of
        // the same name replaced.
        let mut after: Vec<Entry> = installed
            .iter()
            .filter(|e| {
                !plan
                    .iter()
                    .any(|(i, data)| data.is_some() && e.path == into.join(&i.name))
            })
            .cloned()
            .collect();
        after.extend(
            planned
                .iter()
                .enumerate()
                .filter(|(k, _)| plan[*k].1.is_some())
                .filter_map(|(_, e)| e.clone()),
        );
        let joined = join_of(&after);
        // (plan index of the file at fault, what is short, a refusal?)
        let mut issues: Vec<(usize, ShortNames, bool)> = Vec::new();
        for (e, join) in after.iter().zip(&joined) {
            let Some(needs) = e.needs else { continue };
            for (slot, kind) in [NameKind::Players, NameKind::Tournaments]
                .into_iter()
                .enumerate()
            {
                let needed = needs[slot];
                let file = join[slot].map(|j| &after[j]);
                let available = file.map_or(0, |f| f.rank.1);
                if needed <= available {
                    continue;
                }
                let short = ShortNames {
                    game_file: e.name(),
                    kind,
                    needed,
                    names_file: file.map(|f| (f.name(), f.rank.1)),
                };
                if let Some(k) = e.planned {
                    // A game file installed now: refused when a names file
                    // is there, but short.
                    issues.push((k, short, file.is_some()));
                } else if let Some(k) = file.and_then(|f| f.planned) {
                    // An installed game file, read with a names file
                    // installed now: refused when the games had more
                    // names before.
                    let had = before
                        .iter()
                        .zip(&installed)
                        .find(|(_, i)| i.path == e.path)
                        .and_then(|(j, _)| j[slot])
                        .map_or(0, |j| installed[j].rank.1);
                    if available < had {
                        issues.push((k, short, true));
                    }
                }
            }
        }
        if !options.force && issues.iter().any(|(_, _, refuse)| *refuse) {
            let mut refused: BTreeMap<usize, Vec<ShortNames>> = BTreeMap::new();
            for (k, short, refuse) in issues {
                if refuse {
                    refused.entry(k).or_default().push(short);
                }
            }
            for (k, list) in refused {
                plan[k].1 = None;
                plan[k].0.action = Action::Refused(Refusal::ShortNames(list));
            }
            continue;
        }
        for (k, short, _) in issues {
            plan[k].0.warnings.push(short);
        }
        return Ok(());
    }
}

/// The names files of each file of `entries` (`[players, tournaments]`,
/// indices in `entries`), by the database's join.
fn join_of(entries: &[Entry]) -> Vec<[Option<usize>; 2]> {
    let facts: Vec<JoinFacts<'_>> = entries
        .iter()
        .map(|e| JoinFacts {
            path: &e.path,
            kind: e.kind,
            rank: e.rank,
        })
        .collect();
    joins(&facts)
        .into_iter()
        .map(|j| [j.players, j.tournaments])
        .collect()
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
