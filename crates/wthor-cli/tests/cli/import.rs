//! `wthor import`: export → import → export gives the same games for every
//! format; illegal games are reported with their line and move; names and
//! files of the directory are appended to, never renumbered; `--dry-run`
//! writes nothing; the transcripts and the PlayOK file of the shared data
//! import (with `WTHOR_DATA`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use othello_core::symmetry::Symmetry;
use othello_core::{Size, Square};

use crate::info::stdout;
use crate::{check, workspace_root, wthor, wthor_data};

/// A directory holding the 8x8 fixture files and their names files.
fn eight_by_eight() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for f in ["WTH_2001.wtb", "WTH_2002.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            workspace_root().join("testdata").join(f),
            dir.path().join(f),
        )
        .unwrap();
    }
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A game of a CSV export, without the numbers of names (which an import
/// into another directory renumbers), its moves turned to start with f5.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    game: String,
    tournament: String,
    black: String,
    white: String,
    score: String,
    theoretical: String,
    depth: String,
    moves: String,
}

fn to_f5(moves: &str) -> String {
    let sq: Vec<Square> = (0..moves.len() / 2)
        .map(|i| Square::parse(&moves[2 * i..2 * i + 2], Size::Eight).unwrap())
        .collect();
    let f5 = Square::parse("f5", Size::Eight).unwrap();
    let Some(&first) = sq.first() else {
        return String::new();
    };
    let sym = Symmetry::ALL
        .into_iter()
        .find(|s| s.square(first, Size::Eight) == f5)
        .unwrap();
    sq.iter()
        .map(|&q| sym.square(q, Size::Eight).name(Size::Eight).to_string())
        .collect()
}

fn rows(csv_text: &str) -> Vec<Row> {
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            Row {
                game: r[0].to_owned(),
                tournament: r[4].to_owned(),
                black: r[6].to_owned(),
                white: r[8].to_owned(),
                score: r[9].to_owned(),
                theoretical: r[10].to_owned(),
                depth: r[11].to_owned(),
                moves: to_f5(&r[12]),
            }
        })
        .collect()
}

fn export_csv(db: &Path) -> String {
    check(&["export", "--db", s(db), "--format", "csv"], 0)
}

#[test]
fn export_import_export_keeps_the_games_in_every_format() {
    let src = eight_by_eight();
    let before = rows(&export_csv(src.path()));
    assert_eq!(before.len(), 44);
    let work = tempfile::tempdir().unwrap();
    for ext in ["csv", "jsonl", "ggf", "txt", "wtb"] {
        let input: PathBuf = if ext == "wtb" {
            src.path().join("WTH_2001.wtb")
        } else {
            let p = work.path().join(format!("all.{ext}"));
            check(&["export", "--db", s(src.path()), "-o", s(&p)], 0);
            p
        };
        let into = work.path().join(format!("db-{ext}"));
        let mut args = vec!["import", s(&input), "--into", s(&into), "--depth", "16"];
        args.extend(["--date", "2025-06-01", "--threads", "2"]);
        if ext == "txt" {
            args.extend(["--year", "2001"]);
        }
        let report = check(&args, 0);
        assert!(report.contains("0 rejected"), "{report}");
        let after = rows(&export_csv(&into));
        match ext {
            "txt" => {
                // Transcripts carry the moves only: same moves, and the
                // scores the moves imply (for finished games: all but the
                // two unfinished ones, 2001:0 and 2002:1).
                assert_eq!(after.len(), before.len());
                for (a, b) in after.iter().zip(&before) {
                    assert_eq!(a.moves, b.moves);
                    if b.game != "2001:0" && b.game != "2002:1" {
                        assert_eq!((&a.score, &a.theoretical), (&b.score, &b.theoretical));
                    }
                }
            }
            "wtb" => assert_eq!(after, before[..24]),
            _ => assert_eq!(after, before, "{ext}"),
        }
    }
}

/// Two GGF games, one of known players, and an illegal line.
const GGF: &str = "(;GM[Othello]PC[Open de Suède]DT[2001.05.02_10:00:00.CET]PB[Edax (delorme)]PW[Nouveau Joueur]TY[8]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3];)
(;GM[Othello]PC[Nouveau Tournoi]DT[2001]PB[X]PW[Y]TY[8]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[f5];)
";

#[test]
fn illegal_games_stop_the_import_unless_skipped() {
    let db = eight_by_eight();
    let input = db.path().join("../games.ggf");
    std::fs::write(&input, GGF).unwrap();
    let before = std::fs::read(db.path().join("WTH_2001.wtb")).unwrap();
    let out = wthor(&["import", s(&input), "--into", s(db.path()), "--depth", "16"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(
        text.contains("games.ggf:2: move 2 (f5) is illegal: square occupied"),
        "{text}"
    );
    assert!(text.contains("nothing written"));
    assert_eq!(
        std::fs::read(db.path().join("WTH_2001.wtb")).unwrap(),
        before
    );

    // Dry run: the plan, nothing written.
    let jou = std::fs::read(db.path().join("WTHOR.JOU")).unwrap();
    let args = [
        "import",
        s(&input),
        "--into",
        s(db.path()),
        "--depth",
        "16",
        "--skip-illegal",
        "--date",
        "2026-01-02",
    ];
    let mut dry = args.to_vec();
    dry.push("--dry-run");
    let plan = check(&dry, 1);
    let dir = format!("{}/", db.path().display());
    insta::assert_snapshot!(
        "import_dry_run",
        plan.replace(&dir, "DIR/")
            .replace(&format!("{}", input.display()), "games.ggf")
    );
    assert_eq!(std::fs::read(db.path().join("WTHOR.JOU")).unwrap(), jou);

    // With --skip-illegal: the legal game appended, names reused or added.
    check(&args, 1);
    let after = std::fs::read(db.path().join("WTH_2001.wtb")).unwrap();
    assert_eq!(after.len(), before.len() + 68);
    assert_eq!(after[16..before.len()], before[16..], "old records kept");
    assert_eq!(&after[..4], &[20, 26, 1, 2], "new creation date");
    assert_eq!(u32::from_le_bytes(after[4..8].try_into().unwrap()), 25);
    let jou_after = std::fs::read(db.path().join("WTHOR.JOU")).unwrap();
    assert_eq!(jou_after[16..jou.len()], jou[16..], "old names kept");
    assert_eq!(jou_after.len(), jou.len() + 20, "one player added");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = |f: &str| {
            let m = std::fs::metadata(db.path().join(f))
                .unwrap()
                .permissions()
                .mode();
            m & 0o777
        };
        assert_eq!(mode("WTHOR.JOU"), mode("WTH_2002.wtb"), "permissions kept");
        let leftovers: Vec<_> = std::fs::read_dir(db.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().starts_with(".wthor"))
            .collect();
        assert!(leftovers.is_empty());
    }
    let game = &after[before.len()..];
    let black = u16::from_le_bytes([game[2], game[3]]);
    let white = u16::from_le_bytes([game[4], game[5]]);
    let names = wthor_db::Database::open(db.path()).unwrap();
    let id = names.parse_game_id("2001:24").unwrap();
    assert_eq!(names.black(id).to_string(), "Edax (delorme)");
    assert_eq!(names.white(id).to_string(), "Nouveau Joueur");
    assert_eq!(names.tournament(id).to_string(), "Open de Suède");
    // The new name takes the next number; the known one keeps its own.
    let players = names
        .files()
        .iter()
        .find(|f| f.kind() == wthor_format::FileKind::Players);
    let known = u16::try_from(players.expect("the players file").len() - 1).unwrap();
    assert!(black < known && white == known);

    // The same import again: the game is already there, nothing changes.
    let again = check(&args, 1);
    assert!(
        again.contains(&format!(
            "games.ggf:1: already in {} (game 24)",
            db.path().join("WTH_2001.wtb").display()
        )),
        "{again}"
    );
    assert!(
        again.contains("1 game left out as already there"),
        "{again}"
    );
    assert!(again.contains("nothing to write"), "{again}");
    assert_eq!(
        std::fs::read(db.path().join("WTH_2001.wtb")).unwrap(),
        after
    );
    // Unless asked for.
    let mut keep = args.to_vec();
    keep.push("--keep-duplicates");
    check(&keep, 1);
    let kept = std::fs::read(db.path().join("WTH_2001.wtb")).unwrap();
    assert_eq!(kept.len(), after.len() + 68);
    assert_eq!(kept[after.len()..], after[before.len()..]);
}

#[test]
fn a_file_imported_twice_adds_nothing() {
    // The fixture's own games, into a copy of the fixture: every one is
    // there; given twice in one import, the second copy is left out too.
    let db = eight_by_eight();
    let input = workspace_root().join("testdata/WTH_2002.wtb");
    let before = std::fs::read(db.path().join("WTH_2002.wtb")).unwrap();
    let twice = |into: &Path| {
        let args = ["import", s(&input), s(&input), "--into", s(into)];
        check(&[&args[..], &["--depth", "16"]].concat(), 0)
    };
    let out = twice(db.path());
    assert!(out.contains("40 games left out as already there"), "{out}");
    assert!(
        out.contains("(game 0)") && out.contains("(game 19)"),
        "{out}"
    );
    assert!(out.contains("nothing to write"), "{out}");
    assert_eq!(
        std::fs::read(db.path().join("WTH_2002.wtb")).unwrap(),
        before
    );

    // Into an empty directory: the first copy imported, the second left
    // out as the same game as the first.
    let empty = tempfile::tempdir().unwrap();
    let out = twice(empty.path());
    assert!(out.contains("20 games left out as already there"), "{out}");
    assert!(
        out.contains(&format!(
            "duplicate: {}: game 0: the same game as {}: game 0",
            input.display(),
            input.display()
        )),
        "{out}"
    );
    assert_eq!(rows(&export_csv(empty.path())).len(), 20);
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn the_shared_transcripts_and_playok_import() {
    let data = wthor_data();
    let t = data.join("transcripts");
    let inputs = [
        t.join("egaroucid_early_selfplay_0000002.txt"),
        t.join("eothello_kaggle_first5000.csv"),
        t.join("logistello_logbook_first5000.gam"),
        data.join("wthor/other/PLAYOK_2023.wtb"),
    ];
    let work = tempfile::tempdir().unwrap();
    let into = work.path().join("db");
    // Every record read and checked (a dry run: no solving).
    let mut args: Vec<&str> = vec!["import"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["--into", s(&into), "--dry-run", "--skip-illegal"]);
    let report = check(&args, 1);
    let count = |what: &str| report.lines().filter(|l| l.contains(what)).count();
    // Every record read; PlayOK's games without a move rejected, nothing
    // else (all the transcripts replay, SOURCES.md says).
    let playok = std::fs::read(&inputs[3]).unwrap();
    let playok = wthor_format::parse_game_file(&playok, &Default::default()).unwrap();
    let empty = playok.games().filter(|g| g.move_count() == 0).count();
    let summary = report.lines().find(|l| l.contains("games read")).unwrap();
    let read = 11_000 + playok.len();
    assert!(
        summary.starts_with(&format!(
            "{read} games read: {} to import, {empty} rejected",
            read - empty
        )),
        "{summary}"
    );
    assert_eq!(count("rejected: "), empty);
    assert_eq!(count("the game has no move"), empty);
    // The odd records SOURCES.md lists: Egaroucid's 2 duplicate lines
    // (left out: the same game twice), eOthello's game that stops after 21
    // moves; Logistello has none.
    assert!(report.contains("egaroucid_early_selfplay_0000002.txt:825: the same game as"));
    assert!(report.contains("egaroucid_early_selfplay_0000002.txt:889: the same game as"));
    assert_eq!(count("egaroucid_early_selfplay_0000002.txt:"), 2);
    assert_eq!(count("duplicate: "), 2, "{report}");
    assert!(report.contains("2 games left out as already there"));
    let eothello: Vec<&str> = report
        .lines()
        .filter(|l| l.contains("eothello_kaggle_first5000.csv:"))
        .collect();
    assert_eq!(eothello.len(), 1, "{eothello:?}");
    assert!(eothello[0].contains("unfinished: stops after 21 moves"));
    assert_eq!(count("logistello_logbook_first5000.gam:"), 0);
    // A real import of the first games of each, scores solved at 12 empties.
    let mut args: Vec<&str> = vec!["import"];
    args.extend(inputs.iter().map(|p| s(p)));
    args.extend(["--into", s(&into), "--limit", "50", "--depth", "12"]);
    args.extend(["--year", "2023", "--threads", "2"]);
    check(&args, 0);
    let db = wthor_db::Database::open(&into).unwrap();
    assert_eq!(db.game_count(), 200);
    assert_eq!(db.check_games().totals.illegal, 0);
    let csv_text = export_csv(&into);
    let imported = rows(&csv_text);
    assert!(imported.iter().all(|r| r.moves.starts_with("f5")));
    let mut tournaments: HashMap<&str, usize> = HashMap::new();
    for r in &imported {
        *tournaments.entry(r.tournament.as_str()).or_default() += 1;
    }
    // The transcripts' games are named after their file; PlayOK's keep
    // their own tournaments (from PLAYOK.TRN beside the file).
    for file in [
        "egaroucid_early_selfplay_",
        "eothello_kaggle_first5000",
        "logistello_logbook_first5",
    ] {
        assert_eq!(tournaments.get(file), Some(&50), "{tournaments:?}");
    }
    let playok: usize = tournaments
        .iter()
        .filter(|(t, _)| t.starts_with("PlayOK "))
        .map(|(_, n)| n)
        .sum();
    assert_eq!(playok, 50, "{tournaments:?}");
}

/// A damaged WTHOR input (cut inside a record, a header count above its
/// records) is imported up to its last whole record with the warning
/// `info` and `search` give (it said nothing), refused with `--strict`;
/// numbers without a name in its names files are imported as `?` with a
/// warning that says whether there is a names file at all (it added `?`
/// silently).
#[test]
fn damaged_and_unnamed_wthor_inputs_are_warned_of() {
    let into = tempfile::tempdir().unwrap();
    let into = into.path().join("db");
    let malformed = workspace_root().join("testdata/malformed");
    let import = |input: &Path, extra: &[&str]| {
        let mut args = vec![
            "import",
            s(input),
            "--into",
            s(&into),
            "--depth",
            "10",
            "--dry-run",
        ];
        args.extend(extra);
        wthor(&args)
    };
    let cut = malformed.join("truncated_record.wtb");
    let out = import(&cut, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", crate::info::stderr(&out));
    assert_eq!(
        crate::info::stderr(&out),
        format!(
            "wthor: warning: {0}: byte 84 (record 1): the file ends inside this record (48 of its \
             68 bytes; header N1 says 2 records): 1 whole record read, 48 bytes ignored\n\
             wthor: warning: {0}: player numbers 0, 9 (1 game) without a name: no players file \
             read with it names them; imported as \"?\" (--players FILE names them)\n",
            cut.display()
        )
    );
    let high = malformed.join("count_too_high.wtb");
    let out = import(&high, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        crate::info::stderr(&out).starts_with(&format!(
            "wthor: warning: {}: byte 4: header N1 says 3 records, the file holds 2 whole records\n",
            high.display()
        )),
        "{}",
        crate::info::stderr(&out)
    );
    // --strict: refused, nothing written (not even the directory).
    for input in [&cut, &high] {
        let out = wthor(&[
            "import",
            s(input),
            "--into",
            s(&into),
            "--depth",
            "10",
            "--strict",
        ]);
        assert_eq!(out.status.code(), Some(1));
        assert!(
            stdout(&out).ends_with(
                "nothing written: damaged WTHOR input (--strict refuses it; without it, its \
                 whole records are imported)\n"
            ),
            "{}",
            stdout(&out)
        );
        assert!(!into.exists());
    }
    // A sound file alone in its folder: no names file at all.
    let alone = tempfile::tempdir().unwrap();
    let file = alone.path().join("WTH_2001.wtb");
    std::fs::copy(workspace_root().join("testdata/WTH_2001.wtb"), &file).unwrap();
    let out = import(&file, &["--limit", "3"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        crate::info::stderr(&out),
        format!(
            "wthor: warning: {0}: player numbers 0, 4, 5, 8, 9 (3 games) without a name: there \
             is no players file beside it; imported as \"?\" (--players FILE names them)\n\
             wthor: warning: {0}: tournament number 0 (3 games) without a name: there is no \
             tournaments file beside it; imported as \"?\" (--tournaments FILE names them)\n",
            file.display()
        )
    );
    // With its names: nothing to say.
    let out = import(&workspace_root().join("testdata/WTH_2001.wtb"), &[]);
    assert_eq!(crate::info::stderr(&out), "");
}
