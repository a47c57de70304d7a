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
    install_with_faults(files, into, options, &mut |_, _| Ok(()))
}

/// The file written at a step: its position among the files written.
type Fault<'a> = &'a mut dyn FnMut(usize, Step) -> io::Result<()>;

fn install_with_faults(
    files: &[PathBuf],
    into: &Path,
    options: &InstallOptions,
    fault: Fault<'_>,
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
                write_file(into, &entry.name, &data, &mut |step| fault(written, step))
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
/// `fault` called before each step (tests inject failures there). On
/// failure: whether the rename happened, and the error (the temporary file
/// is removed).
fn write_file(
    dir: &Path,
    name: &str,
    data: &[u8],
    fault: &mut dyn FnMut(Step) -> io::Result<()>,
) -> Result<(), (bool, io::Error)> {
    let target = dir.join(name);
    let at = |step: Step| move |e: io::Error| (step == Step::SyncDir, e);
    let failed = |e: WriteError| (e.step == Step::SyncDir, e.cause);
    fault(Step::Create).map_err(at(Step::Create))?;
    let mut file = AtomicFile::create(&target).map_err(failed)?;
    let half = data.len() / 2;
    file.write_all(&data[..half]).map_err(at(Step::Write))?;
    fault(Step::Write).map_err(at(Step::Write))?;
    file.write_all(&data[half..]).map_err(at(Step::Write))?;
    fault(Step::Sync).map_err(at(Step::Sync))?;
    file.sync().map_err(failed)?;
    fault(Step::Rename).map_err(at(Step::Rename))?;
    let target = file.rename().map_err(failed)?;
    fault(Step::SyncDir).map_err(at(Step::SyncDir))?;
    sync_folder(&target).map_err(failed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wthor_format::{
        BoardSize, Game, Header, Name, NameKind, WINDOWS_1252, write_game_file, write_names_file,
    };

    fn date(day: u8) -> CreationDate {
        CreationDate {
            century: 20,
            year: 25,
            month: 1,
            day,
        }
    }

    fn games(day: u8, n: usize) -> Vec<u8> {
        let header = Header {
            created: date(day),
            year: 2025,
            p1: 8,
            p3: 24,
            ..Header::default()
        };
        let games: Vec<Game> = (0..n)
            .map(|_| Game::from_squares(0, 0, 1, 40, 38, &["f5", "d6"], BoardSize::Eight).unwrap())
            .collect();
        let mut bytes = Vec::new();
        write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
        bytes
    }

    fn names(day: u8, list: &[&str]) -> Vec<u8> {
        let header = Header {
            created: date(day),
            ..Header::default()
        };
        let names: Vec<Name> = list
            .iter()
            .map(|n| Name::from_text(n, NameKind::Players, WINDOWS_1252).unwrap())
            .collect();
        let mut bytes = Vec::new();
        write_names_file(&header, NameKind::Players, &names, &mut bytes).unwrap();
        bytes
    }

    /// A directory `db` with two installed files, and a directory `new` with
    /// newer versions of both and one more file.
    fn setup() -> (tempfile::TempDir, PathBuf, Vec<PathBuf>) {
        let root = tempfile::tempdir().unwrap();
        let db = root.path().join("db");
        let new = root.path().join("new");
        std::fs::create_dir_all(&db).unwrap();
        std::fs::create_dir_all(&new).unwrap();
        std::fs::write(db.join("WTH_2025.wtb"), games(1, 2)).unwrap();
        std::fs::write(db.join("WTHOR.JOU"), names(1, &["Ann", "Bo"])).unwrap();
        std::fs::write(new.join("WTH_2025.wtb"), games(2, 3)).unwrap();
        std::fs::write(new.join("WTHOR.JOU"), names(2, &["Ann", "Bo", "Cy"])).unwrap();
        std::fs::write(new.join("WTH_2026.wtb"), games(3, 1)).unwrap();
        let files = ["WTH_2025.wtb", "WTHOR.JOU", "WTH_2026.wtb"]
            .iter()
            .map(|n| new.join(n))
            .collect();
        (root, db, files)
    }

    fn listing(dir: &Path) -> Vec<(String, Vec<u8>)> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        v.sort();
        v
    }

    fn kinds(report: &InstallReport) -> Vec<&'static str> {
        report
            .files
            .iter()
            .map(|f| match &f.action {
                Action::Added { .. } => "added",
                Action::Replaced { forced: false, .. } => "replaced",
                Action::Replaced { forced: true, .. } => "forced",
                Action::Refused(_) => "refused",
                Action::Failed { .. } => "failed",
                Action::Skipped => "skipped",
            })
            .collect()
    }

    #[test]
    fn newer_files_replace_older_are_refused() {
        let (_root, db, files) = setup();
        let before = listing(&db);
        let dry = InstallOptions {
            dry_run: true,
            ..InstallOptions::default()
        };
        let report = install(&files, &db, &dry).unwrap();
        assert_eq!(kinds(&report), ["replaced", "replaced", "added"]);
        assert_eq!(listing(&db), before, "a dry run writes nothing");

        let report = install(&files, &db, &InstallOptions::default()).unwrap();
        assert_eq!(kinds(&report), ["replaced", "replaced", "added"]);
        for f in &files {
            let name = f.file_name().unwrap();
            assert_eq!(
                std::fs::read(db.join(name)).unwrap(),
                std::fs::read(f).unwrap()
            );
        }
        // Again: equal dates are refused, unless forced.
        let report = install(&files, &db, &InstallOptions::default()).unwrap();
        assert_eq!(kinds(&report), ["refused", "refused", "refused"]);
        assert_eq!(report.refused(), 3);
        let Action::Refused(r) = &report.files[0].action else {
            unreachable!()
        };
        assert_eq!(
            r,
            &Refusal::NotNewer {
                installed: date(2),
                created: date(2)
            }
        );
        let forced = InstallOptions {
            force: true,
            ..InstallOptions::default()
        };
        let report = install(&files, &db, &forced).unwrap();
        assert_eq!(kinds(&report), ["forced", "forced", "forced"]);
        // An older file is refused.
        let old = db.parent().unwrap().join("WTH_2025.wtb");
        std::fs::write(&old, games(1, 5)).unwrap();
        let report = install(&[old], &db, &InstallOptions::default()).unwrap();
        assert_eq!(kinds(&report), ["refused"]);
    }

    #[test]
    fn names_files_never_drop_or_change_names() {
        let (root, db, _) = setup();
        let check = |list: &[&str], force: bool, expected: Option<Refusal>| {
            let path = root.path().join("WTHOR.JOU");
            std::fs::write(&path, names(9, list)).unwrap();
            let options = InstallOptions {
                force,
                dry_run: true,
                ..InstallOptions::default()
            };
            let report = install(&[path], &db, &options).unwrap();
            match (&report.files[0].action, expected) {
                (Action::Refused(r), Some(e)) => assert_eq!(r, &e, "{list:?}"),
                (Action::Replaced { .. }, None) => {}
                (a, e) => panic!("{list:?}: {a:?}, expected {e:?}"),
            }
        };
        check(&["Ann", "Bo", "New"], false, None);
        check(
            &["Ann"],
            false,
            Some(Refusal::NamesDropped {
                installed: 2,
                given: 1,
            }),
        );
        check(
            &["Ann"],
            true,
            Some(Refusal::NamesDropped {
                installed: 2,
                given: 1,
            }),
        );
        check(
            &["Bo", "Ann"],
            true,
            Some(Refusal::NameChanged { number: 0 }),
        );
        check(
            &["Ann", "Bob", "Cy"],
            false,
            Some(Refusal::NameChanged { number: 1 }),
        );
    }

    #[test]
    fn bad_files_duplicates_and_other_kinds_are_refused() {
        let (root, db, files) = setup();
        let bad = root.path().join("WTH_2030.wtb");
        std::fs::write(&bad, b"short").unwrap();
        let jou_as_wtb = root.path().join("x").join("WTH_2025.wtb");
        std::fs::create_dir_all(jou_as_wtb.parent().unwrap()).unwrap();
        std::fs::write(&jou_as_wtb, names(9, &["Ann", "Bo"])).unwrap();
        let report = install(
            &[bad, files[2].clone(), files[2].clone(), jou_as_wtb],
            &db,
            &InstallOptions::default(),
        )
        .unwrap();
        assert_eq!(kinds(&report), ["refused", "added", "refused", "refused"]);
        assert!(matches!(
            report.files[0].action,
            Action::Refused(Refusal::Unreadable(_))
        ));
        assert!(matches!(
            report.files[2].action,
            Action::Refused(Refusal::Duplicate)
        ));
        assert!(matches!(
            report.files[3].action,
            Action::Refused(Refusal::KindDiffers { .. })
        ));
        // A missing source is an error, nothing written; a target that is
        // a file too.
        let before = listing(&db);
        assert!(
            install(
                &[root.path().join("nope.wtb"), files[0].clone()],
                &db,
                &InstallOptions::default()
            )
            .is_err()
        );
        assert!(install(&files, &files[0], &InstallOptions::default()).is_err());
        assert_eq!(listing(&db), before);
        // A missing target directory is made (not in a dry run).
        let dry = InstallOptions {
            dry_run: true,
            ..InstallOptions::default()
        };
        assert!(install(&files, &root.path().join("nope"), &dry).is_ok());
        assert!(!root.path().join("nope").exists());
        assert!(
            install(
                &files,
                &root.path().join("nope"),
                &InstallOptions::default()
            )
            .is_ok()
        );
        assert!(root.path().join("nope").is_dir());
    }

    #[test]
    fn a_failure_at_any_step_leaves_each_file_whole() {
        let steps = [
            Step::Create,
            Step::Write,
            Step::Sync,
            Step::Rename,
            Step::SyncDir,
        ];
        for failing in 0..3 {
            for step in steps {
                let (_root, db, files) = setup();
                let old = listing(&db);
                let new: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
                let report =
                    install_with_faults(&files, &db, &InstallOptions::default(), &mut |k, s| {
                        if (k, s) == (failing, step) {
                            Err(io::Error::other("injected"))
                        } else {
                            Ok(())
                        }
                    })
                    .unwrap();
                assert!(report.failed());
                let after = listing(&db);
                // No temporary file left, and each file wholly old or new.
                for (name, bytes) in &after {
                    let i = files
                        .iter()
                        .position(|f| f.file_name().unwrap() == name.as_str());
                    let was = old.iter().find(|(n, _)| n == name).map(|(_, b)| b);
                    let is_new = i.is_some_and(|i| &new[i] == bytes);
                    assert!(
                        is_new || was == Some(bytes),
                        "{failing} {step:?}: {name} is neither"
                    );
                }
                // Before the failing file: new; the failing file: new only if
                // renamed; after it: old (or absent).
                for (k, f) in files.iter().enumerate() {
                    let name = f.file_name().unwrap().to_string_lossy();
                    let now = after.iter().find(|(n, _)| *n == name).map(|(_, b)| b);
                    let expect_new = k < failing || (k == failing && step == Step::SyncDir);
                    assert_eq!(
                        now == Some(&new[k]),
                        expect_new,
                        "{failing} {step:?}: {name}"
                    );
                }
                let Action::Failed { renamed, .. } = &report.files[failing].action else {
                    panic!("{failing} {step:?}: {:?}", report.files[failing].action)
                };
                assert_eq!(*renamed, step == Step::SyncDir);
                for f in &report.files[failing + 1..] {
                    assert!(matches!(f.action, Action::Skipped));
                }
                assert!(after.len() == old.len() || after.len() == old.len() + 1);
            }
        }
    }
}
