//! `wthor-db`: opening directories, game views, the parallel check equal to
//! the sequential one.

use std::path::PathBuf;

#[path = "db/analysis.rs"]
mod analysis;
#[path = "db/atomic.rs"]
mod atomic;
#[path = "db/cache.rs"]
mod cache;
#[path = "db/datasets.rs"]
mod datasets;
#[path = "db/duplicates.rs"]
mod duplicates;
#[path = "db/handmade.rs"]
mod handmade;
#[path = "db/history.rs"]
mod history;
#[path = "db/import.rs"]
mod import;
#[path = "db/index.rs"]
mod index;
#[path = "db/install.rs"]
mod install;
#[path = "db/move_ratings.rs"]
mod move_ratings;
#[path = "db/novelty.rs"]
mod novelty;
#[path = "db/openings.rs"]
mod openings;
#[path = "db/position_line.rs"]
mod position_line;
#[path = "db/query.rs"]
mod query;
#[path = "db/ratings.rs"]
mod ratings;
#[path = "db/real.rs"]
mod real;
#[path = "db/report.rs"]
mod report;
#[path = "db/stats.rs"]
mod stats;
#[path = "db/text.rs"]
mod text;
#[path = "db/verify.rs"]
mod verify;

use wthor_db::{Database, OpenOptions};
use wthor_format::{BoardSize, Game, Header, write_game_file};

use wthor_test_data::wthor_data;

/// A small generated directory: one 8x8 file (a finished game, an
/// unfinished one, an illegal one, a wrong score) and one 10x10 file.
fn generated_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let wipeout = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];
    let games = [
        Game::from_squares(0, 0, 1, 64, 64, &wipeout, BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 33, 33, &["f5", "d6"], BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 33, 33, &["f5", "f5"], BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 13, 13, &wipeout, BoardSize::Eight).unwrap(),
    ];
    let mut bytes = Vec::new();
    let header = Header {
        year: 2001,
        p1: 8,
        ..Header::default()
    };
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2001.wtb"), &bytes).unwrap();
    let ten = [Game::from_squares(0, 0, 1, 0, 0, &["g6", "g7"], BoardSize::Ten).unwrap()];
    let header = Header {
        year: 2001,
        p1: 10,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Ten, &ten, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2001.wtd"), &bytes).unwrap();
    std::fs::write(dir.path().join("README.md"), b"not a WTHOR file").unwrap();
    dir
}

#[test]
fn generated_directory_is_checked() {
    let dir = generated_dir();
    for mmap in [true, false] {
        let mut options = OpenOptions::default();
        options.mmap = mmap;
        let db = Database::open_with(dir.path(), &options).unwrap();
        assert_eq!(db.files().len(), 2);
        assert_eq!(db.game_count(), 5);
        let s = db.check_games();
        assert_eq!(s, db.par_check_games());
        let t = s.totals;
        assert_eq!((t.games, t.legal, t.illegal), (5, 4, 1));
        assert_eq!((t.finished, t.unfinished, t.mismatches), (2, 3, 1));
        let findings: Vec<(usize, usize)> = s
            .per_file
            .iter()
            .flat_map(|f| f.findings.iter().map(|x| (x.file, x.game)))
            .collect();
        // `.wtb` sorts before `.wtd`: the 8x8 file is file 0.
        assert_eq!(findings, [(0, 2), (0, 3)]);
        let g = db.files()[0].game(0).unwrap();
        assert_eq!(g.real_score(), 64);
        assert!(db.files()[0].game(4).is_none());
        assert_eq!(db.files()[1].games().count(), 1);
    }
}

#[test]
fn unreadable_files_are_errors_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("WTH_1999.wtb"), [1u8, 2, 3]).unwrap();
    let err = Database::open(dir.path()).unwrap_err();
    assert!(err.path().ends_with("WTH_1999.wtb"));
    assert!(Database::open(dir.path().join("missing")).is_err());
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_database_parallel_check_equals_sequential() {
    let data = wthor_data();
    let db = Database::open(data.join("wthor")).unwrap();
    assert_eq!(db.game_count(), 137_548);
    let par = db.par_check_games();
    assert_eq!(par, db.check_games());
    assert_eq!(par.totals.legal, 137_548);
    assert_eq!(par.totals.unfinished, 413);
    assert_eq!(par.totals.mismatches, 0);
    assert_eq!(db.games().count(), 137_548);
    let mut options = OpenOptions::default();
    options.recursive = true;
    let other = Database::open_with(data.join("wthor/other"), &options).unwrap();
    let s = other.par_check_games();
    assert_eq!(s, other.check_games());
    assert_eq!(s.totals.illegal, 0);
    assert_eq!(s.totals.mismatches, 16);
}

#[test]
fn a_file_without_games_has_none() {
    let dir = tempfile::tempdir().unwrap();
    let header = Header {
        year: 2002,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &[], &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2002.wtb"), &bytes).unwrap();
    let db = Database::open(dir.path()).unwrap();
    assert_eq!(db.game_count(), 0);
    assert!(db.files()[0].game(0).is_none());
    assert_eq!(db.check_games().totals.games, 0);
}

#[test]
fn parallel_check_splits_large_files_and_equals_sequential() {
    // `par_check_games` splits a file's games only from 256 games: 1,000
    // games (findings scattered over every chunk) in a pool of 4 threads
    // take the split-and-merge path without the real files.
    let wipeout = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];
    let games: Vec<Game> = (0..1000u32)
        .map(|i| match i % 7 {
            0 => Game::from_squares(0, 0, 1, 64, 64, &wipeout, BoardSize::Eight),
            1 if i % 3 == 0 => Game::from_squares(0, 0, 1, 33, 33, &["f5", "f5"], BoardSize::Eight),
            2 if i % 5 == 0 => Game::from_squares(0, 0, 1, 13, 13, &wipeout, BoardSize::Eight),
            _ => Game::from_squares(0, 0, 1, 33, 33, &["f5", "d6"], BoardSize::Eight),
        })
        .collect::<Result<_, _>>()
        .unwrap();
    let header = Header {
        year: 2003,
        p1: 8,
        ..Header::default()
    };
    let dir = tempfile::tempdir().unwrap();
    for name in ["WTH_2003.wtb", "WTH_2004.wtb"] {
        let mut bytes = Vec::new();
        write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
        std::fs::write(dir.path().join(name), &bytes).unwrap();
    }
    let db = Database::open(dir.path()).unwrap();
    let seq = db.check_games();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let par = pool.install(|| db.par_check_games());
    assert_eq!(par, seq);
    let illegal = (0..1000).filter(|i| i % 7 == 1 && i % 3 == 0).count();
    let wrong = (0..1000).filter(|i| i % 7 == 2 && i % 5 == 0).count();
    let t = seq.totals;
    assert_eq!(
        (t.games, t.illegal, t.mismatches),
        (2000, 2 * illegal, 2 * wrong)
    );
    // The findings in file order, as the sequential scan lists them.
    let findings: Vec<(usize, usize)> = par
        .per_file
        .iter()
        .flat_map(|f| f.findings.iter().map(|x| (x.file, x.game)))
        .collect();
    let expected: Vec<(usize, usize)> = (0..2)
        .flat_map(|f| {
            (0..1000)
                .filter(|i| (i % 7 == 1 && i % 3 == 0) || (i % 7 == 2 && i % 5 == 0))
                .map(move |i| (f, i))
        })
        .collect();
    assert_eq!(findings, expected);
}

/// A year file cut inside a record, or whose header announces more records
/// than it holds, is read by a database up to its last whole record, with
/// a warning of the file (issue 29, item 12); strict reading refuses the
/// cut one.
#[test]
fn a_cut_game_file_is_read_to_its_last_whole_record() {
    use wthor_format::WarningKind;
    let testdata = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let full = std::fs::read(testdata.join("WTH_2001.wtb")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("WTH_2001.wtb"), &full[..16 + 68 * 10 + 30]).unwrap();
    let mut high = std::fs::read(testdata.join("WTH_2002.wtb")).unwrap();
    high[4..8].copy_from_slice(&25u32.to_le_bytes());
    std::fs::write(dir.path().join("WTH_2002.wtb"), &high).unwrap();
    std::fs::copy(testdata.join("WTHOR.JOU"), dir.path().join("WTHOR.JOU")).unwrap();

    let db = wthor_db::DatabaseBuilder::new()
        .source(dir.path())
        .require_games(true)
        .open()
        .unwrap();
    assert!(db.skipped().is_empty());
    let mut files: Vec<_> = db.files().iter().collect();
    assert_eq!(files.len(), 3);
    // `WTHOR.JOU` sorts first.
    assert_eq!(files.remove(0).file_name(), "WTHOR.JOU");
    assert_eq!(files[0].game_count(), 10);
    assert!(matches!(
        files[0].warnings(),
        [w] if matches!(w.kind, WarningKind::CutRecord { header: 24, whole: 10, len: 30, .. })
    ));
    assert_eq!(
        files[0].warnings()[0].to_string(),
        "byte 696 (record 10): the file ends inside this record (30 of its 68 bytes; header N1 \
         says 24 records): 10 whole records read, 30 bytes ignored"
    );
    for (i, game) in files[0].games().enumerate() {
        assert_eq!(game.as_bytes(), &full[16 + 68 * i..16 + 68 * (i + 1)]);
    }
    assert_eq!(files[1].game_count(), 20);
    assert!(matches!(
        files[1].warnings(),
        [w] if matches!(w.kind, WarningKind::CountMismatch { header: 25, actual: 20, .. })
    ));
    assert!(files.iter().all(|f| f.incomplete().is_some()));
    assert_eq!(db.game_count(), 30);
    assert_eq!(db.par_check_games().totals.games, 30);

    // Strict: an error naming the file and where it is cut.
    let mut options = OpenOptions::default();
    options.read.strict = true;
    let err = wthor_db::DatabaseBuilder::new()
        .source(dir.path())
        .options(options)
        .open()
        .unwrap_err();
    assert_eq!(
        wthor_db::error_chain(&err),
        format!(
            "{}: byte 696 (record 10): truncated record: expected 68 bytes, found 30",
            dir.path().join("WTH_2001.wtb").display()
        )
    );
}
