//! `wthor convert IN -o OUT`: byte-identical rewrite of every real file
//! (except the two whose count disagrees), clear errors, and never a partial
//! or damaged output file.

use std::path::Path;

use crate::info::{mkfifo, stderr, stdout, write_fixtures, wthor_in};
use crate::wthor_data;

/// The names of the files in `dir` (sorted), to check that nothing was left.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn convert_rewrites_fixtures_identically() {
    let dir = tempfile::tempdir().unwrap();
    write_fixtures(dir.path());
    for file in [
        "WTH_2025.wtb",
        "WTH_2030.wtd",
        "WTHOR.JOU",
        "wth.trn",
        "Solitaires_1.pzz",
    ] {
        let ext = file.rsplit('.').next().unwrap();
        let target = format!("out.{ext}");
        let out = wthor_in(dir.path(), &["convert", file, "-o", &target]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        let before = std::fs::read(dir.path().join(file)).unwrap();
        let after = std::fs::read(dir.path().join(&target)).unwrap();
        assert_eq!(before, after, "{file}");
    }
    let out = wthor_in(dir.path(), &["convert", "WTH_2025.wtb", "-o", "copy.WTB"]);
    assert_eq!(stdout(&out), "copy.WTB: 2 records of 8x8 games written\n");
    // The players file has P1 = 124 and garbage after a NUL: warnings on
    // stderr, kept in the output; strict refuses and writes nothing.
    let out = wthor_in(
        dir.path(),
        &["convert", "WTHOR.JOU", "-o", "strict.jou", "--strict"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!dir.path().join("strict.jou").exists());
    let out = wthor_in(dir.path(), &["convert", "WTHOR.JOU", "-o", "lenient.jou"]);
    assert!(out.status.success());
    assert_eq!(
        stderr(&out),
        "wthor: WTHOR.JOU: warning: byte 12: header P1 is 124, expected 0 in name files\n\
         wthor: WTHOR.JOU: warning: byte 40 (record 1): 7 non-zero bytes after the NUL that ends the name, expected zeros\n"
    );
}

#[test]
fn convert_in_place_goes_through_a_rename() {
    let dir = tempfile::tempdir().unwrap();
    write_fixtures(dir.path());
    let before = std::fs::read(dir.path().join("WTH_2025.wtb")).unwrap();
    let out = wthor_in(
        dir.path(),
        &["convert", "WTH_2025.wtb", "-o", "WTH_2025.wtb"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        std::fs::read(dir.path().join("WTH_2025.wtb")).unwrap(),
        before
    );
    assert!(!listing(dir.path()).iter().any(|n| n.starts_with(".wthor")));
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn convert_every_real_file() {
    let data = wthor_data();
    let root = data.join("wthor");
    let mut dirs = vec![root.clone(), root.join("other"), root.join("solitaires")];
    for entry in std::fs::read_dir(root.join("variants")).unwrap() {
        dirs.push(entry.unwrap().path());
    }
    let out_dir = tempfile::tempdir().unwrap();
    let (mut identical, mut changed) = (0, Vec::new());
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if wthor_format::FileKind::from_path(&path).is_none() {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let target = out_dir.path().join(&name);
            let out = crate::wthor(&[
                "convert",
                path.to_str().unwrap(),
                "-o",
                target.to_str().unwrap(),
            ]);
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            if std::fs::read(&path).unwrap() == std::fs::read(&target).unwrap() {
                assert!(!stderr(&out).contains("whole records"), "{name}");
                identical += 1;
            } else {
                assert!(stderr(&out).contains("whole records"), "{name}");
                changed.push(name);
            }
        }
    }
    changed.sort();
    assert_eq!(identical, 161);
    assert_eq!(changed, ["QUEST.JOU", "Solitaires_13.pzz"]);
}

#[test]
fn convert_bad_input_leaves_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_fixtures(d);
    std::fs::write(d.join("empty.wtb"), b"").unwrap();
    let good = std::fs::read(d.join("WTH_2025.wtb")).unwrap();
    std::fs::write(d.join("cut.wtb"), &good[..16 + 68 + 20]).unwrap();
    let mut huge = good[..16].to_vec();
    huge[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    huge.extend_from_slice(&[0; 3]);
    std::fs::write(d.join("huge.wtb"), &huge).unwrap();
    std::fs::write(d.join("random.wtb"), [0xA5u8; 777]).unwrap();
    std::fs::create_dir(d.join("folder.wtb")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("nowhere.wtb", d.join("dangling.wtb")).unwrap();
    let fifo = mkfifo(&d.join("pipe.wtb"));
    let mut cases = vec![
        (
            "empty.wtb",
            "wthor: empty.wtb: byte 0: empty file, expected at least a 16-byte header",
        ),
        (
            "cut.wtb",
            "wthor: cut.wtb: byte 84 (record 1): truncated record: expected 68 bytes, found 20",
        ),
        (
            "huge.wtb",
            "wthor: huge.wtb: byte 16 (record 0): truncated record: expected 68 bytes, found 3",
        ),
        (
            "random.wtb",
            "wthor: random.wtb: byte 0: not a WTHOR file: no kind fits a 777-byte file",
        ),
        (
            "folder.wtb",
            "wthor: folder.wtb: is a directory, expected a WTHOR file",
        ),
        (
            "dangling.wtb",
            "wthor: dangling.wtb: cannot read: No such file or directory",
        ),
        (
            "missing.wtb",
            "wthor: missing.wtb: cannot read: No such file or directory",
        ),
    ];
    if fifo {
        cases.push(("pipe.wtb", "wthor: pipe.wtb: not a regular file"));
    } else {
        eprintln!("skipped the FIFO case: no mkfifo on this system");
    }
    let before = listing(d);
    for (file, expected) in cases {
        // A new output is not created...
        let out = wthor_in(d, &["convert", file, "-o", "new.wtb"]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(err.starts_with(expected), "{file}: {err}");
        assert_eq!(listing(d), before, "{file}: a file was left behind");
        // ...and an existing one is left intact.
        let out = wthor_in(d, &["convert", file, "-o", "WTH_2025.wtb"]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        assert_eq!(std::fs::read(d.join("WTH_2025.wtb")).unwrap(), good);
        assert_eq!(listing(d), before);
    }
}

#[test]
fn convert_refuses_other_kinds_and_unknown_extensions() {
    let dir = tempfile::tempdir().unwrap();
    write_fixtures(dir.path());
    let out = wthor_in(dir.path(), &["convert", "WTH_2025.wtb", "-o", "x.jou"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: WTH_2025.wtb: converting 8x8 games to players is not supported (only the same WTHOR kind for now)\n"
    );
    let out = wthor_in(dir.path(), &["convert", "WTH_2025.wtb", "-o", "x.xls"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: x.xls: cannot tell the output format from the extension (expected .wtb, .wtd, .jou, .trn, .pzz, or for games .csv, .jsonl, .ggf, .txt, .obf, .parquet, for names .csv, .jsonl)\n"
    );
    // Names files convert to CSV and JSON Lines only; puzzles to none.
    let out = wthor_in(dir.path(), &["convert", "WTHOR.JOU", "-o", "x.ggf"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: WTHOR.JOU: players convert to .csv or .jsonl, not to x.ggf\n"
    );
    let out = wthor_in(dir.path(), &["convert", "Solitaires_1.pzz", "-o", "x.csv"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "wthor: Solitaires_1.pzz: only game files (.wtb, .wtd) and names files (.jou, .trn) convert to x.csv\n"
    );
    let out = wthor_in(
        dir.path(),
        &["convert", "WTH_2025.wtb", "-o", "no-such-dir/x.wtb"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no-such-dir/x.wtb: cannot write: folder no-such-dir does not exist\n"
    );
    for name in ["x.jou", "x.xls", "x.csv", "x.ggf"] {
        assert!(!dir.path().join(name).exists());
    }
}

/// Players and tournaments files to CSV and JSON Lines (issue 29, item 8):
/// one row per name, its number (the one game records use) and the name
/// decoded as everywhere else.
#[test]
fn convert_names_files_to_csv_and_jsonl() {
    let dir = tempfile::tempdir().unwrap();
    let testdata = crate::workspace_root().join("testdata");
    for f in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(testdata.join(f), dir.path().join(f)).unwrap();
    }
    let out = wthor_in(dir.path(), &["convert", "WTHOR.JOU", "-o", "players.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "players.csv: 37 players written\n");
    let csv = std::fs::read_to_string(dir.path().join("players.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 38);
    assert_eq!(
        lines[..3],
        ["number,name", "0,Hélène Dupré", "1,José Núñez"]
    );
    let out = wthor_in(
        dir.path(),
        &["convert", "WTHOR.TRN", "-o", "tournaments.jsonl"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "tournaments.jsonl: 6 tournaments written\n");
    // One name is one player: the header's count (N2, offset 8) set to 1
    // and the first record kept.
    let mut one = std::fs::read(testdata.join("WTHOR.JOU")).unwrap();
    one.truncate(16 + 20);
    one[8..10].copy_from_slice(&1u16.to_le_bytes());
    std::fs::write(dir.path().join("ONE.JOU"), one).unwrap();
    let out = wthor_in(dir.path(), &["convert", "ONE.JOU", "-o", "one.csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "one.csv: 1 player written\n");
    let jsonl = std::fs::read_to_string(dir.path().join("tournaments.jsonl")).unwrap();
    let rows: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[1],
        serde_json::json!({"number": 1, "name": "Open de Suède"})
    );
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row["number"], i);
    }
}
