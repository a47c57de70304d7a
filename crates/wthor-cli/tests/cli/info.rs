//! `wthor info`: snapshots on real files (through `WTHOR_DATA`) and on small
//! fixtures built here with the writer; bad input gives one line per file on
//! stderr and exit code 1.

use std::path::Path;
use std::process::{Command, Output};

use wthor_format::{
    BoardSize, CreationDate, Game, Header, Name, NameKind, Puzzle, WINDOWS_1252,
    expected_presence_table, write_game_file, write_names_file, write_solitaire_file,
};

use crate::wthor_data;

/// Runs `wthor` in `dir`, so that paths (and the snapshots) stay relative.
pub(crate) fn wthor_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(args)
        .current_dir(dir)
        .env("XDG_CACHE_HOME", crate::test_cache())
        .output()
        .expect("the wthor binary runs")
}

pub(crate) fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

fn created() -> CreationDate {
    CreationDate {
        century: 20,
        year: 25,
        month: 1,
        day: 2,
    }
}

/// Small WTHOR files of every kind, some with quirks, written with the
/// library's writers into `dir`.
pub(crate) fn write_fixtures(dir: &Path) {
    let games = [
        Game::from_squares(0, 0, 1, 40, 38, &["f5", "d6", "c3"], BoardSize::Eight).unwrap(),
        Game::from_squares(0, 1, 0, 32, 32, &["f5", "f6"], BoardSize::Eight).unwrap(),
    ];
    let header = Header {
        created: created(),
        year: 2025,
        p1: 8,
        p3: 24,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.join("WTH_2025.wtb"), &bytes).unwrap();

    let big = [Game::from_squares(0, 0, 1, 50, 50, &["g6", "j10"], BoardSize::Ten).unwrap()];
    let header10 = Header {
        created: created(),
        year: 2030,
        p1: 10,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header10, BoardSize::Ten, &big, &mut bytes).unwrap();
    std::fs::write(dir.join("WTH_2030.wtd"), &bytes).unwrap();

    // A players file from a converter that writes P1 = 124, with garbage
    // after a NUL.
    let names = [
        Name::from_text("Edax (delorme)", NameKind::Players, WINDOWS_1252).unwrap(),
        Name {
            raw: b"Anna\0GARBAGE\0\0\0\0\0\0\0\0".to_vec(),
        },
    ];
    let jou = Header {
        created: created(),
        p1: 124,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_names_file(&jou, NameKind::Players, &names, &mut bytes).unwrap();
    std::fs::write(dir.join("WTHOR.JOU"), &bytes).unwrap();

    let trn =
        [Name::from_text("Championnat de Suède", NameKind::Tournaments, WINDOWS_1252).unwrap()];
    let mut bytes = Vec::new();
    let trn_header = Header {
        created: created(),
        ..Header::default()
    };
    write_names_file(&trn_header, NameKind::Tournaments, &trn, &mut bytes).unwrap();
    std::fs::write(dir.join("wth.trn"), &bytes).unwrap();

    // Every square black but h8 (the two low bits of the last byte).
    let mut position = [0xFF; 16];
    position[15] = 0xFC;
    let puzzle = Puzzle {
        year: 1999,
        position,
        empties: 1,
        side_to_move: 2,
        first_move: 88,
        real_score: 64,
        ..Puzzle::default()
    };
    let pzz = Header {
        created: created(),
        n2: 1,
        p1: 8,
        p2: 1,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_solitaire_file(&pzz, &expected_presence_table(0, 1), &[puzzle], &mut bytes).unwrap();
    std::fs::write(dir.join("Solitaires_1.pzz"), &bytes).unwrap();

    // Not a WTHOR extension: ignored when listing the directory.
    std::fs::write(dir.join("README.txt"), "not a WTHOR file").unwrap();
}

#[test]
fn info_on_fixtures() {
    let dir = tempfile::tempdir().unwrap();
    write_fixtures(dir.path());
    let out = wthor_in(dir.path(), &["info", "."]);
    assert_eq!(stderr(&out), "");
    assert!(out.status.success());
    insta::assert_snapshot!("info_fixtures", stdout(&out));

    let out = wthor_in(dir.path(), &["info", "--json", "."]);
    assert!(out.status.success());
    let text = stdout(&out);
    for line in text.lines() {
        let value: serde_json::Value =
            serde_json::from_str(line).expect("one JSON object per line");
        assert!(value.is_object());
    }
    insta::assert_snapshot!("info_fixtures_json", text);
}

#[test]
fn info_strict_fails_on_warnings_and_keeps_going() {
    let dir = tempfile::tempdir().unwrap();
    write_fixtures(dir.path());
    let out = wthor_in(
        dir.path(),
        &["info", "--strict", "WTHOR.JOU", "WTH_2025.wtb"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "wthor: WTHOR.JOU: byte 12: header P1 is 124, expected 0 in name files (strict mode)\n"
    );
    assert!(stdout(&out).starts_with("WTH_2025.wtb\n"));
}

#[test]
fn info_rejects_an_unknown_encoding() {
    let out = crate::wthor(&["info", "--encoding", "klingon", "."]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "wthor: unknown text encoding \"klingon\"\n");
}

/// Runs `wthor` in `$WTHOR_DATA/wthor`: the snapshots hold relative paths only.
fn real(data: &Path, args: &[&str]) -> Output {
    wthor_in(&data.join("wthor"), args)
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn info_on_real_files() {
    let data = wthor_data();
    let out = real(
        &data,
        &[
            "info",
            "WTH_1977.wtb",
            "WTH.JOU",
            "WTH.TRN",
            "other/QUEST.JOU",
            "other/PLAYOK_2023.wtb",
            "solitaires/Solitaires_13.pzz",
        ],
    );
    assert_eq!(stderr(&out), "");
    assert!(out.status.success());
    insta::assert_snapshot!("info_real_files", stdout(&out));

    let out = real(
        &data,
        &["info", "--json", "WTH_2025.wtb", "other/QUEST.JOU"],
    );
    assert!(out.status.success());
    insta::assert_snapshot!("info_real_files_json", stdout(&out));
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn info_on_the_real_directory_lists_its_wthor_files() {
    let data = wthor_data();
    let out = real(&data, &["info", "--json", "."]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // 49 yearly files and the four names files; subdirectories not entered.
    assert_eq!(lines.len(), 53);
    let games: u64 = lines
        .iter()
        .filter(|v| v["kind"] == "games-8x8")
        .map(|v| v["records"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 137_548);
    assert!(
        lines
            .iter()
            .all(|v| v["warnings"].as_array().unwrap().is_empty())
    );
}

fn bad_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("empty.wtb"), b"").unwrap();
    std::fs::write(d.join("short.wtb"), [20, 25, 1, 2, 9]).unwrap();
    let mut header = vec![
        20, 25, 1, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0xE9, 7, 8, 0, 24, 0,
    ];
    std::fs::write(d.join("huge.wtb"), &header).unwrap();
    header.extend_from_slice(&[56; 10]);
    std::fs::write(d.join("huge-cut.wtb"), &header).unwrap();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let random: Vec<u8> = (0..1001)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect();
    std::fs::write(d.join("random.bin"), random).unwrap();
    std::fs::create_dir(d.join("folder")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("no-such-target.wtb", d.join("dangling.wtb")).unwrap();
    dir
}

/// Creates a FIFO with the system's `mkfifo`; `false` when there is none.
pub(crate) fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn info_reports_each_bad_file_on_one_line() {
    let dir = bad_dir();
    let cases: [(&str, &str); 6] = [
        (
            "empty.wtb",
            "empty.wtb: byte 0: empty file, expected at least a 16-byte header",
        ),
        (
            "short.wtb",
            "short.wtb: byte 0: truncated header: expected 16 bytes, found 5",
        ),
        (
            "huge-cut.wtb",
            "huge-cut.wtb: byte 16 (record 0): truncated record: expected 68 bytes, found 10",
        ),
        (
            "random.bin",
            "random.bin: byte 0: not a WTHOR file: no kind fits a 1001-byte file with header N1 = ",
        ),
        (
            "dangling.wtb",
            "dangling.wtb: cannot read: No such file or directory",
        ),
        (
            "missing.wtb",
            "missing.wtb: cannot read: No such file or directory",
        ),
    ];
    for (file, expected) in cases {
        let out = wthor_in(dir.path(), &["info", file]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert_eq!(stdout(&out), "", "{file}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(
            err.starts_with(&format!("wthor: {expected}")),
            "{file}: {err}"
        );
    }
}

#[test]
fn info_reads_a_huge_count_leniently_and_refuses_it_when_strict() {
    let dir = bad_dir();
    let out = wthor_in(dir.path(), &["info", "huge.wtb"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("  N1:       4294967295 (games)\n"), "{text}");
    assert!(text.contains("  records:  0\n"), "{text}");
    assert!(
        text.contains("byte 4: header N1 says 4294967295 records, the file holds 0 whole records")
    );
    let out = wthor_in(dir.path(), &["info", "--strict", "huge.wtb"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr(&out),
        "wthor: huge.wtb: byte 4: header N1 says 4294967295 records, the file holds 0 whole records (strict mode)\n"
    );
}

#[test]
fn info_refuses_a_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.wtb");
    if !mkfifo(&fifo) {
        eprintln!("skipped: no mkfifo on this system");
        return;
    }
    let out = wthor_in(dir.path(), &["info", "pipe.wtb"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stderr(&out), "wthor: pipe.wtb: not a regular file\n");
}

#[test]
fn info_keeps_going_after_a_bad_file() {
    let dir = bad_dir();
    write_fixtures(dir.path());
    let out = wthor_in(
        dir.path(),
        &["info", "--json", "WTH_2025.wtb", "empty.wtb", "wth.trn"],
    );
    assert_eq!(out.status.code(), Some(2));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 2);
    assert!(text.contains("\"path\":\"WTH_2025.wtb\""));
    assert!(text.contains("\"path\":\"wth.trn\""));
    assert_eq!(stderr(&out).lines().count(), 1);
}

/// The depth of theoretical scores is a field of game files only: a names
/// or puzzle file's P3 means nothing, and its JSON has no `depth`.
#[test]
fn json_gives_a_depth_to_game_files_only() {
    for (file, depth) in [
        ("testdata/WTH_2001.wtb", true),
        ("testdata/WTH_2001.wtd", true),
        ("testdata/WTHOR.JOU", false),
        ("testdata/WTHOR.TRN", false),
        ("testdata/Solitaires_12.pzz", false),
    ] {
        let out = crate::wthor(&["info", "--json", file]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(v.get("depth").is_some(), depth, "{file}: {v}");
    }
}

/// 128 pseudo-random bytes named `.wtb` (issue 29, item 10): every command
/// that reads it says once that it is no WTHOR file, naming the file and
/// what a `.wtb` file was expected to hold.
#[test]
fn a_random_wtb_is_refused_once_naming_the_file_and_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let random: Vec<u8> = (0..128)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect();
    std::fs::write(d.join("random.wtb"), random).unwrap();
    std::fs::create_dir(d.join("db")).unwrap();
    for args in [
        &["info", "random.wtb"][..],
        &["validate", "random.wtb"],
        &["install", "--into", "db", "random.wtb"],
        &["search", "--db", "random.wtb", "--count"],
    ] {
        let out = wthor_in(d, args);
        let text = format!("{}{}", stdout(&out), stderr(&out));
        let line = text
            .lines()
            .find(|l| l.contains("not a WTHOR file"))
            .unwrap_or_else(|| panic!("{args:?}: {text}"));
        assert_eq!(
            line.matches("not a WTHOR file").count(),
            1,
            "{args:?}: {line}"
        );
        assert!(line.contains("random.wtb"), "{args:?}: {line}");
        assert!(
            line.contains("expected for 8x8 games (.wtb): P1 = 0 or 8, P2 = 0, N2 = 0"),
            "{args:?}: {line}"
        );
        assert_eq!(
            out.status.code(),
            Some(if args[0] == "install" { 1 } else { 2 }),
            "{args:?}: {text}"
        );
    }
}
