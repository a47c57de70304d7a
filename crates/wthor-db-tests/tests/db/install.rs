//! Installing WTHOR files: newer replaces older, names never dropped, a
//! failure at any step leaving each file whole.

use std::io::{self};
use std::path::{Path, PathBuf};
use wthor_db::atomic::Step;
use wthor_db::install::*;
use wthor_format::CreationDate;
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
            other => panic!("an action this test does not know: {other:?}"),
        })
        .collect()
}

#[test]
fn newer_files_replace_older_are_refused() {
    let (_root, db, files) = setup();
    let before = listing(&db);
    let mut dry = InstallOptions::default();
    dry.dry_run = true;
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
    let mut forced = InstallOptions::default();
    forced.force = true;
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
        let mut options = InstallOptions::default();
        options.force = force;
        options.dry_run = true;
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

/// A game file of one game whose black player is `black` (tournament 0).
fn games_naming(day: u8, black: u16) -> Vec<u8> {
    let header = Header {
        created: date(day),
        year: 2025,
        p1: 8,
        p3: 24,
        ..Header::default()
    };
    let game = Game::from_squares(0, black, 0, 40, 38, &["f5", "d6"], BoardSize::Eight).unwrap();
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &[game], &mut bytes).unwrap();
    bytes
}

/// Games that would name players past the names file the directory reads
/// them with are refused, counting the names files of the same call, and
/// so is a names file that would leave installed games with fewer names;
/// forced, or without any names file, they are installed with a warning
/// (issue 36, item 3).
#[test]
fn games_past_their_names_file_are_refused_unless_forced() {
    let root = tempfile::tempdir().unwrap();
    let (db, new) = (root.path().join("db"), root.path().join("new"));
    std::fs::create_dir_all(&db).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    std::fs::write(db.join("WTHOR.JOU"), names(1, &["Ann", "Bo"])).unwrap();
    std::fs::write(new.join("WTH_2025.wtb"), games_naming(2, 4)).unwrap();
    std::fs::write(
        new.join("WTHOR.JOU"),
        names(2, &["Ann", "Bo", "Cy", "Di", "Ed"]),
    )
    .unwrap();
    std::fs::write(new.join("WTH.JOU"), names(3, &["Ann", "Bo", "Cy", "Di"])).unwrap();
    let game = new.join("WTH_2025.wtb");
    let short = |names_file: Option<(&str, usize)>| ShortNames {
        game_file: "WTH_2025.wtb".into(),
        kind: NameKind::Players,
        needed: 5,
        names_file: names_file.map(|(f, n)| (f.to_owned(), n)),
    };
    let before = listing(&db);
    let report = install(std::slice::from_ref(&game), &db, &InstallOptions::default()).unwrap();
    let Action::Refused(Refusal::ShortNames(why)) = &report.files[0].action else {
        panic!("{:?}", report.files[0].action)
    };
    assert_eq!(why, &[short(Some(("WTHOR.JOU", 2)))]);
    assert_eq!(listing(&db), before, "nothing written");
    // With its players file in the same call: installed. With a newer
    // players file of another name that still lacks one: refused too.
    let report = install(
        &[game.clone(), new.join("WTHOR.JOU")],
        &db,
        &InstallOptions::default(),
    )
    .unwrap();
    assert_eq!(kinds(&report), ["added", "replaced"]);
    // (No tournaments file: said, not refused.)
    let no_tournaments = ShortNames {
        kind: NameKind::Tournaments,
        needed: 1,
        ..short(None)
    };
    assert_eq!(
        report.files[0].warnings,
        std::slice::from_ref(&no_tournaments)
    );
    assert_eq!(report.files[1].warnings, []);
    let mut dry = InstallOptions::default();
    dry.dry_run = true;
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("WTHOR.JOU"), names(1, &["Ann", "Bo"])).unwrap();
    let report = install(&[game.clone(), new.join("WTH.JOU")], other.path(), &dry).unwrap();
    assert_eq!(kinds(&report), ["refused", "added"]);
    let Action::Refused(Refusal::ShortNames(why)) = &report.files[0].action else {
        unreachable!()
    };
    assert_eq!(why, &[short(Some(("WTH.JOU", 4)))]);
    // The installed games now read 5 names from db/WTHOR.JOU: the newer
    // WTH.JOU with 4 would hide one of them.
    let report = install(&[new.join("WTH.JOU")], &db, &InstallOptions::default()).unwrap();
    let Action::Refused(Refusal::ShortNames(why)) = &report.files[0].action else {
        panic!("{:?}", report.files[0].action)
    };
    assert_eq!(why, &[short(Some(("WTH.JOU", 4)))]);
    // Forced: installed, with the warning.
    let mut forced = InstallOptions::default();
    forced.force = true;
    let report = install(std::slice::from_ref(&game), other.path(), &forced).unwrap();
    assert_eq!(kinds(&report), ["added"]);
    assert_eq!(
        report.files[0].warnings,
        [short(Some(("WTHOR.JOU", 2))), no_tournaments]
    );
    // No players file at all: installed, with a warning.
    let empty = tempfile::tempdir().unwrap();
    let report = install(&[game], empty.path(), &InstallOptions::default()).unwrap();
    assert_eq!(kinds(&report), ["added"]);
    assert!(
        report.files[0].warnings.contains(&short(None)),
        "{:?}",
        report.files[0].warnings
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
    let mut dry = InstallOptions::default();
    dry.dry_run = true;
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
            let report = install_with_hook(&files, &db, &InstallOptions::default(), &mut |k, s| {
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
