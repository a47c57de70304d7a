//! Every real file under `$WTHOR_DATA/wthor` parses and writes back identical
//! bytes, except the two whose header count disagrees with their length.

use std::path::{Path, PathBuf};

use wthor_format::{FileKind, HeaderField, ReadOptions, WarningKind, WthorFile, parse_any};

/// Every regular file of `wthor/` (top level, `variants/*/`, `other/`,
/// `solitaires/`) with a WTHOR extension.
fn real_files(data: &Path) -> Vec<PathBuf> {
    let root = data.join("wthor");
    let mut dirs = vec![root.clone(), root.join("other"), root.join("solitaires")];
    let mut variants: Vec<PathBuf> = std::fs::read_dir(root.join("variants"))
        .expect("variants/ is readable")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    variants.sort();
    dirs.extend(variants);
    let mut files = Vec::new();
    for dir in dirs {
        let mut here: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{} is readable: {e}", dir.display()))
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.is_file() && FileKind::from_path(p).is_some())
            .collect();
        here.sort();
        files.extend(here);
    }
    files
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn every_real_file_round_trips() {
    let data = crate::wthor_data();
    let files = real_files(&data);
    assert_eq!(files.len(), 163, "the data set has 163 WTHOR files");
    let mut identical = 0;
    let mut mismatched = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let file = parse_any(&bytes, FileKind::from_path(path), &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{}", e.with_file(path)));
        let back = file.to_bytes().unwrap();
        let has_count_warning = file
            .warnings()
            .iter()
            .any(|w| matches!(w.kind, WarningKind::CountMismatch { .. }));
        if back == bytes {
            assert!(!has_count_warning, "{}", path.display());
            identical += 1;
        } else {
            assert!(
                has_count_warning,
                "{} differs without a warning",
                path.display()
            );
            mismatched.push(name(path));
        }
    }
    mismatched.sort();
    assert_eq!(mismatched, ["QUEST.JOU", "Solitaires_13.pzz"]);
    assert_eq!(identical, 161);
}

/// Byte positions where `a` and `b` differ (same length).
fn diff(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn quest_jou_count_is_rewritten_to_the_records_present() {
    let data = crate::wthor_data();
    let path = data.join("wthor/other/QUEST.JOU");
    let bytes = std::fs::read(&path).unwrap();
    let file = parse_any(&bytes, FileKind::from_path(&path), &ReadOptions::default()).unwrap();
    assert_eq!(file.kind(), FileKind::Players);
    assert_eq!(file.header().n2, 9426);
    assert_eq!(file.len(), 9427, "one record more than N2: all are read");
    let count = file.warnings().iter().find_map(|w| match w.kind {
        WarningKind::CountMismatch {
            field,
            header,
            actual,
        } => Some((w.offset, field, header, actual)),
        _ => None,
    });
    assert_eq!(count, Some((8, HeaderField::N2, 9426, 9427)));
    let back = file.to_bytes().unwrap();
    // Only N2 (bytes 8–9) changes: 9426 = 0x24D2 → 9427 = 0x24D3.
    assert_eq!(diff(&bytes, &back), [8]);
    assert_eq!(&back[8..10], &9427u16.to_le_bytes());
    // Strict reading refuses the file (its first quirk: a year in a names header).
    let err = parse_any(&bytes, FileKind::from_path(&path), &ReadOptions::strict()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "byte 10: header year is 2022, expected 0 in name files (strict mode)"
    );
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn solitaires_13_count_is_rewritten_to_the_records_present() {
    let data = crate::wthor_data();
    let path = data.join("wthor/solitaires/Solitaires_13.pzz");
    let bytes = std::fs::read(&path).unwrap();
    let file = parse_any(&bytes, FileKind::from_path(&path), &ReadOptions::default()).unwrap();
    let WthorFile::Solitaires(puzzles) = &file else {
        panic!("not a solitaire file");
    };
    assert_eq!((file.header().n1, file.header().n2), (3507, 13));
    assert_eq!(puzzles.len(), 3506, "one record fewer than N1");
    assert_eq!(puzzles.presence_table()[12], 3507);
    let back = file.to_bytes().unwrap();
    // N1 (byte 4) and presence-table entry 12 (byte 16 + 4 × 12 = 64) go from
    // 3507 = 0x0DB3 to 3506 = 0x0DB2: only their low bytes change.
    assert_eq!(diff(&bytes, &back), [4, 64]);
    assert_eq!(&back[4..8], &3506u32.to_le_bytes());
    assert_eq!(&back[64..68], &3506u32.to_le_bytes());
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_files_have_the_documented_shapes() {
    let data = crate::wthor_data();
    let mut games = 0usize;
    let mut puzzles = 0usize;
    for path in real_files(&data) {
        let bytes = std::fs::read(&path).unwrap();
        let file = parse_any(&bytes, None, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{} without hint: {e}", path.display()));
        assert_eq!(
            Some(file.kind()),
            FileKind::from_path(&path),
            "{}",
            path.display()
        );
        match &file {
            WthorFile::Games(g) => {
                games += g.len();
                for game in g.games() {
                    assert!(game.moves().all(|m| m.is_ok()), "{}", path.display());
                }
            }
            WthorFile::Solitaires(s) => {
                puzzles += s.len();
                for p in s.puzzles() {
                    assert_eq!(wthor_format::count_empty(p.position_raw()), p.empties());
                    assert_eq!(u16::from(p.empties()), file.header().n2);
                }
            }
            WthorFile::Names(n) => {
                for name in n.names() {
                    assert!(!name.decode(n.encoding()).contains('\u{FFFD}'));
                }
            }
            _ => unreachable!(),
        }
    }
    assert!(games > 137_548);
    assert_eq!(puzzles, 53_187);
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn tournament_names_decode_as_windows_1252() {
    let data = crate::wthor_data();
    let bytes = std::fs::read(data.join("wthor/WTH.TRN")).unwrap();
    let file = parse_any(&bytes, Some(FileKind::Tournaments), &ReadOptions::default()).unwrap();
    let WthorFile::Names(names) = file else {
        panic!("not names")
    };
    let all: Vec<String> = (0..names.len())
        .map(|i| names.name(i).unwrap().into_owned())
        .collect();
    assert!(all.iter().any(|n| n.contains('è') || n.contains('é')));
}
