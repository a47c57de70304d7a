//! Import, step by step: reading, planning into a directory, solving with
//! the cache and a stop flag.

use othello_core::Size;
use othello_core::notation::parse_transcript;
use othello_core::solver::Solver;
use std::sync::atomic::{AtomicBool, Ordering};
use wthor_db::cache::SolveCache;
use wthor_db::import::*;
use wthor_db::verify::Workers;
use wthor_format::ReadOptions;

fn incoming(moves: &str, score: Option<u8>) -> Incoming {
    Incoming {
        source: Source {
            file: "t.txt".into(),
            line: 3,
            record: false,
        },
        moves: parse_transcript(moves, Size::Eight).unwrap(),
        black: "Black".into(),
        white: "White".into(),
        tournament: None,
        year: Some(2020),
        score,
        winner: None,
        theoretical: None,
    }
}

#[test]
fn prepare_rotates_rejects_and_scores() {
    // c4 e3 is the image of f5 d6 under a symmetry.
    let p = prepare(incoming("c4e3", None)).unwrap();
    let names: Vec<String> = p
        .squares
        .iter()
        .map(|s| s.name(Size::Eight).to_string())
        .collect();
    assert_eq!(names[0], "f5");
    assert!(!p.finished);
    let bad = prepare(incoming("f5f5", None)).unwrap_err();
    assert_eq!(bad.to_string(), "move 2 (f5) is illegal: square occupied");
    // The 9-move wipe-out, turned: 64-0 by the rule; a wrong record noted.
    let p = prepare(incoming("d3c3b3d2e1d6d7e3f4", Some(40))).unwrap();
    assert_eq!((p.real_score, p.finished), (64, true));
    assert!(p.note.unwrap().contains("recorded score 40-24"));
    // An unfinished game keeps its recorded score.
    assert_eq!(prepare(incoming("f5d6", Some(33))).unwrap().real_score, 33);
    assert_eq!(prepare(incoming("", None)).unwrap_err(), Rejection::Empty);
    let mut g = incoming("d3c3b3d2e1d6d7e3f4", None);
    g.winner = Some(-1);
    assert!(
        prepare(g)
            .unwrap()
            .note
            .unwrap()
            .contains("recorded winner -1")
    );
    assert!(
        prepare(incoming("f5d6", None))
            .unwrap()
            .note
            .unwrap()
            .starts_with("unfinished")
    );
}

#[test]
fn a_guess_is_proved_or_replaced_by_the_solver() {
    use othello_core::solver::SolverOptions;
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/WTH_2002.wtb");
    let bytes = std::fs::read(path).unwrap();
    let file = wthor_format::parse_game_file(&bytes, &ReadOptions::default()).unwrap();
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    let cache = SolveCache::new();
    for game in file.games().take(6) {
        let (moves, real) = (game.moves_raw(), game.real_score());
        let plain = theoretical(moves, 16, real, None, &mut solver, None);
        // The fixtures' stored scores are the solver's, at 16 empties.
        assert_eq!(plain, game.theoretical_score());
        for guess in [plain, plain.saturating_sub(2), 64, 0] {
            let t = theoretical(moves, 16, real, Some(guess), &mut solver, None);
            assert_eq!(t, plain, "guess {guess}");
        }
        // Through the cache: solved once, then found.
        let t = theoretical(moves, 16, real, Some(0), &mut solver, Some(&cache));
        assert_eq!(t, plain);
        assert_eq!(
            theoretical(moves, 16, real, None, &mut solver, Some(&cache)),
            plain
        );
    }
}

#[test]
fn a_stopped_solve_keeps_its_work_in_the_cache_and_resumes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/WTH_2002.wtb");
    let bytes = std::fs::read(path).unwrap();
    let file = wthor_format::parse_game_file(&bytes, &ReadOptions::default()).unwrap();
    let games: Vec<Prepared> = file
        .games()
        .map(|g| {
            let text: String = g
                .moves_raw()
                .iter()
                .take_while(|&&b| b != 0)
                .map(|&b| format!("{}{}", char::from(b'a' + b % 10 - 1), b / 10))
                .collect();
            prepare(incoming(&text, Some(g.real_score()))).unwrap()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let options = ImportOptions {
        year: None,
        tournament: None,
        default_tournament: "Import".into(),
        depth: 16,
        created: date_of_unix(0),
        encoding: wthor_format::WINDOWS_1252,
        keep_duplicates: true,
    };
    let workers = Workers {
        workers: 1,
        solver_threads: 1,
        tt_bits: 16,
    };
    let fresh = || plan(dir.path(), &games, &options).unwrap();
    let scores =
        |p: &Plan| -> Vec<u8> { p.games.iter().map(|g| g.game.theoretical_score).collect() };
    let mut whole = fresh();
    solve_theoretical(&mut whole, workers, None, &AtomicBool::new(false), || {}).unwrap();

    // Stopped after the 5th game: the plan untouched, the 5 cached.
    let cache = SolveCache::new();
    let stop = AtomicBool::new(false);
    let count = std::sync::atomic::AtomicUsize::new(0);
    let mut first = fresh();
    let stopped = solve_theoretical(&mut first, workers, Some(&cache), &stop, || {
        if count.fetch_add(1, Ordering::SeqCst) + 1 == 5 {
            stop.store(true, Ordering::SeqCst);
        }
    })
    .unwrap_err();
    assert_eq!((stopped.solved, stopped.total), (5, games.len()));
    assert_eq!(cache.stats(), (0, 5, 5));
    assert_eq!(scores(&first), scores(&fresh()));
    assert_ne!(scores(&first), scores(&whole));
    // A stop asked before the start solves nothing.
    let mut none = fresh();
    let stopped = solve_theoretical(&mut none, workers, Some(&cache), &stop, || {});
    assert_eq!(stopped.unwrap_err().solved, 0);

    // The same run again: the 5 come from the cache, the result is that
    // of a run never stopped.
    let mut again = fresh();
    solve_theoretical(
        &mut again,
        workers,
        Some(&cache),
        &AtomicBool::new(false),
        || {},
    )
    .unwrap();
    assert_eq!(cache.stats().0, 5, "cache hits");
    assert_eq!(scores(&again), scores(&whole));
    assert!(
        scores(&whole)
            .iter()
            .zip(file.games())
            .all(|(&s, g)| s == g.theoretical_score())
    );
}

#[test]
fn a_directory_still_to_create_is_planned_as_empty() {
    let games = [prepare(incoming("f5d6", None)).unwrap()];
    let options = ImportOptions::new(date_of_unix(0));
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("new/db");
    let p = plan(&dir, &games, &options).unwrap();
    assert_eq!(p.players.path, dir.join("WTHOR.JOU"));
    assert_eq!(p.files[0].path, dir.join("WTH_2020.wtb"));
    assert!(!p.players.existed && !p.files[0].existed);
    assert_eq!(p.players.added, ["Black", "White"]);
    // The same game twice: the second left out, said as the CLI says it.
    let twice = [games[0].clone(), games[0].clone()];
    let p = plan(&dir, &twice, &options).unwrap();
    assert_eq!(
        p.duplicates[0].to_string(),
        "t.txt:3: the same game as t.txt:3"
    );
    assert!(!dir.exists(), "planning writes nothing");
}

#[test]
fn dates_and_fitting() {
    assert_eq!(date_of_unix(0).to_string(), "1970-01-01");
    assert_eq!(date_of_unix(951_782_400).to_string(), "2000-02-29");
    let w = wthor_format::WINDOWS_1252;
    assert_eq!(fit("  a\u{0}b  ", 19, w), "a b");
    assert_eq!(fit("漢字", 19, w), "??");
}
