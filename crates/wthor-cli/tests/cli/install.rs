//! `wthor install` on a copy of the fixture database: the report
//! (snapshots) and the exit codes. The failure injection at each write step
//! is tested in `wthor_db::install`.

use std::path::Path;

use wthor_format::{
    BoardSize, CreationDate, Game, Header, NameKind, ReadOptions, parse_names_file,
    write_game_file, write_names_file,
};

use crate::info::{stderr, stdout, wthor_in};
use crate::workspace_root;

/// A copy of `testdata/` (the database) and a folder of files to install:
/// a newer players file with one more name, a new year, and the fixtures'
/// own 2001 file (same date as the installed one).
fn setup() -> tempfile::TempDir {
    let root = tempfile::tempdir().unwrap();
    let db = root.path().join("db");
    let new = root.path().join("new");
    std::fs::create_dir_all(&db).unwrap();
    std::fs::create_dir_all(&new).unwrap();
    let testdata = workspace_root().join("testdata");
    for entry in std::fs::read_dir(&testdata).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, db.join(path.file_name().unwrap())).unwrap();
        }
    }
    let newer = CreationDate {
        century: 20,
        year: 26,
        month: 3,
        day: 4,
    };
    let jou = std::fs::read(testdata.join("WTHOR.JOU")).unwrap();
    let players = parse_names_file(&jou, NameKind::Players, &ReadOptions::default()).unwrap();
    let mut names: Vec<_> = players.names().map(|n| n.to_name()).collect();
    names.push(names[0].clone());
    write(&new.join("WTHOR.JOU"), |out| {
        let header = Header {
            created: newer,
            ..Header::default()
        };
        write_names_file(&header, NameKind::Players, &names, out).unwrap();
    });
    // The same names without the last: refused.
    std::fs::create_dir_all(new.join("short")).unwrap();
    write(&new.join("short/WTHOR.JOU"), |out| {
        let header = Header {
            created: newer,
            ..Header::default()
        };
        write_names_file(&header, NameKind::Players, &names[..10], out).unwrap();
    });
    write(&new.join("WTH_2010.wtb"), |out| {
        let header = Header {
            created: newer,
            year: 2010,
            p1: 8,
            p3: 24,
            ..Header::default()
        };
        let game = Game::from_squares(0, 1, 2, 33, 33, &["f5", "f6"], BoardSize::Eight).unwrap();
        write_game_file(&header, BoardSize::Eight, &[game], out).unwrap();
    });
    std::fs::copy(testdata.join("WTH_2001.wtb"), new.join("WTH_2001.wtb")).unwrap();
    root
}

/// The number of names of the fixtures' players file.
fn installed_players() -> usize {
    let jou = std::fs::read(workspace_root().join("testdata/WTHOR.JOU")).unwrap();
    parse_names_file(&jou, NameKind::Players, &ReadOptions::default())
        .unwrap()
        .names()
        .count()
}

fn write(path: &Path, f: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = Vec::new();
    f(&mut bytes);
    std::fs::write(path, bytes).unwrap();
}

const FILES: [&str; 3] = ["new/WTHOR.JOU", "new/WTH_2010.wtb", "new/WTH_2001.wtb"];

#[test]
fn install_dry_run_then_install_then_again() {
    let root = setup();
    let dir = root.path();
    let before = std::fs::read(dir.join("db/WTHOR.JOU")).unwrap();
    let mut args = vec!["install", "--into", "db"];
    args.extend(FILES);
    let dry: Vec<&str> = args.iter().copied().chain(["--dry-run"]).collect();
    let out = wthor_in(dir, &dry);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    insta::assert_snapshot!("install_dry_run", stdout(&out));
    assert_eq!(std::fs::read(dir.join("db/WTHOR.JOU")).unwrap(), before);
    assert!(!dir.join("db/WTH_2010.wtb").exists());

    let out = wthor_in(dir, &args);
    assert_eq!(out.status.code(), Some(1), "the 2001 file is refused");
    insta::assert_snapshot!("install", stdout(&out));
    for f in &FILES[..2] {
        let name = Path::new(f).file_name().unwrap();
        assert_eq!(
            std::fs::read(dir.join("db").join(name)).unwrap(),
            std::fs::read(dir.join(f)).unwrap()
        );
    }
    // Again: nothing is newer; --force replaces.
    let out = wthor_in(dir, &args);
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).ends_with("0 added, 0 replaced, 3 refused\n"));
    args.push("--force");
    let out = wthor_in(dir, &args);
    assert_eq!(out.status.code(), Some(0));
    insta::assert_snapshot!("install_force", stdout(&out));
}

#[test]
fn install_refuses_dropped_names_even_forced() {
    let root = setup();
    let out = wthor_in(
        root.path(),
        &["install", "--force", "--into", "db", "new/short/WTHOR.JOU"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stdout(&out),
        format!(
            "refused WTHOR.JOU: 10 names where {} are installed: games would lose their names\n\
             0 added, 0 replaced, 1 refused\n",
            installed_players()
        )
    );
}

#[test]
fn install_errors_are_usage_errors() {
    let root = setup();
    // A file as the target directory.
    let out = wthor_in(
        root.path(),
        &["install", "--into", "new/WTH_2010.wtb", "new/WTH_2010.wtb"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: new/WTH_2010.wtb: not a directory\n",
        "one cause, said once"
    );
    let out = wthor_in(root.path(), &["install", "--into", "db", "new/missing.wtb"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: new/missing.wtb: No such file or directory (os error 2)\n",
        "one cause, said once"
    );
    assert!(!root.path().join("db/missing.wtb").exists());
    let out = wthor_in(root.path(), &["install", "--into", "db"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A target directory that does not exist yet is made, as `import --into`
/// makes its own; a dry run writes nothing, not even the directory.
#[test]
fn install_makes_a_missing_directory_as_import_does() {
    let root = setup();
    let args = ["install", "--into", "fresh/db", "new/WTH_2010.wtb"];
    let out = wthor_in(
        root.path(),
        &[
            "install",
            "--dry-run",
            "--into",
            "fresh/db",
            "new/WTH_2010.wtb",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!root.path().join("fresh").exists());
    let out = wthor_in(root.path(), &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(root.path().join("fresh/db/WTH_2010.wtb").is_file());
}

/// A game file whose players go past the players file the directory would
/// read it with is refused (exit 1, nothing written), unless given with a
/// players file that has them; `--force` installs it with a warning. On
/// the real archive: WTH_2025.wtb into a folder holding the 2022
/// WTHOR.JOU and WTHOR.TRN (issue 36, item 3).
#[test]
fn install_refuses_games_past_the_names_file() {
    let root = setup();
    let dir = root.path();
    write(&dir.join("new/WTH_2011.wtb"), |out| {
        let header = Header {
            year: 2011,
            p1: 8,
            p3: 24,
            ..Header::default()
        };
        let n = u16::try_from(installed_players()).unwrap();
        let game = Game::from_squares(0, n, 1, 33, 33, &["f5", "f6"], BoardSize::Eight).unwrap();
        write_game_file(&header, BoardSize::Eight, &[game], out).unwrap();
    });
    let needs = installed_players() + 1;
    let out = wthor_in(dir, &["install", "--into", "db", "new/WTH_2011.wtb"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "refused WTH_2011.wtb: needs a players file with at least {needs} names \
             (WTHOR.JOU has {}); --force to install anyway\n\
             0 added, 0 replaced, 1 refused\n",
            installed_players()
        )
    );
    assert!(!dir.join("db/WTH_2011.wtb").exists());
    // With the newer players file (one name more): both installed.
    let args = ["install", "--dry-run", "--into", "db"];
    let out = wthor_in(
        dir,
        &[&args[..], &["new/WTH_2011.wtb", "new/WTHOR.JOU"]].concat(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert_eq!(stderr(&out), "");
    let out = wthor_in(
        dir,
        &["install", "--force", "--into", "db", "new/WTH_2011.wtb"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: warning: WTH_2011.wtb: needs a players file with at least {needs} names \
             (WTHOR.JOU has {}): games will show numbers for the players it lacks\n",
            installed_players()
        )
    );
    assert!(dir.join("db/WTH_2011.wtb").exists());

    let Some(data) = crate::wthor_data() else {
        return;
    };
    let real = tempfile::tempdir().unwrap();
    for f in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(data.join("wthor").join(f), real.path().join(f)).unwrap();
    }
    let wtb = data.join("wthor/WTH_2025.wtb");
    let into = real.path().to_str().unwrap();
    let out = crate::wthor(&["install", wtb.to_str().unwrap(), "--into", into]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "refused WTH_2025.wtb: needs a players file with at least 4448 names (WTHOR.JOU has \
         3884); needs a tournaments file with at least 492 names (WTHOR.TRN has 439); --force \
         to install anyway\n0 added, 0 replaced, 1 refused\n"
    );
    assert!(!real.path().join("WTH_2025.wtb").exists());
}
