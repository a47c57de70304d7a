//! `wthor-db`: opening directories, game views, the parallel check equal to
//! the sequential one.

use std::path::PathBuf;

#[path = "db/index.rs"]
mod index;
#[path = "db/query.rs"]
mod query;
#[path = "db/real.rs"]
mod real;
#[path = "db/stats.rs"]
mod stats;
#[path = "db/text.rs"]
mod text;

use wthor_db::{Database, OpenOptions};
use wthor_format::{BoardSize, Game, Header, write_game_file};

fn wthor_data() -> Option<PathBuf> {
    match std::env::var_os("WTHOR_DATA") {
        None => {
            eprintln!("skipped: WTHOR_DATA not set");
            None
        }
        Some(dir) => Some(PathBuf::from(dir)),
    }
}

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
fn real_database_parallel_check_equals_sequential() {
    let Some(data) = wthor_data() else {
        return;
    };
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
