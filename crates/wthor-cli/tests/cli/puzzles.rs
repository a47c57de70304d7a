//! `wthor puzzles`: listing and `--verify` on synthetic solitaire files
//! (positions found with the library solver) and on the real small
//! solitaires (at most 12 empties) when `WTHOR_DATA` is set.

use std::path::{Path, PathBuf};

use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Color, Move, Size, Square};
use wthor_format::{
    Cell, Header, Puzzle, encode_position, expected_presence_table, write_solitaire_file,
};

use crate::{wthor, wthor_data};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A position with 10 empties from a pseudo-random game where the side to
/// move has exactly one winning move: `(board, score, move)`.
fn unique_win() -> (Board8, i32, Square) {
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    for seed in 1u64.. {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut board = Board8::start();
        while board.empty_count() > 10 && !board.is_game_over() {
            let moves: Vec<Move> = board.moves().collect();
            if moves.is_empty() {
                board = board.pass();
                continue;
            }
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            board = board
                .play(moves[(state % moves.len() as u64) as usize])
                .unwrap();
        }
        if board.empty_count() != 10 || board.must_pass() {
            continue;
        }
        let (p, o) = (board.player(), board.opponent());
        let s = solver.solve(p, o).score;
        let wins = solver.moves_at_least(p, o, 1);
        if s > 0 && wins.len() == 1 {
            return (board, s, Square::new_unchecked(wins[0]));
        }
    }
    unreachable!()
}

fn puzzle(board: &Board8, score: i8, first: Square, empties: u8) -> Puzzle {
    let mut cells = [Cell::Empty; 64];
    for (i, cell) in cells.iter_mut().enumerate() {
        if board.discs(Color::Black) >> i & 1 == 1 {
            *cell = Cell::Black;
        } else if board.discs(Color::White) >> i & 1 == 1 {
            *cell = Cell::White;
        }
    }
    Puzzle {
        year: 2001,
        tournament: 0,
        black: 0,
        white: 1,
        position: encode_position(&cells),
        empties,
        side_to_move: if board.side_to_move() == Color::Black {
            1
        } else {
            2
        },
        score,
        first_move: first.to_wthor(Size::Eight),
        real_score: 40,
        move25: 0,
        reserved: [0; 2],
    }
}

/// Solitaires_10.pzz: puzzle 0 right, 1 with a wrong first move, 2 with a
/// wrong score, 3 with a wrong empties count, 4 not unique (FFO #1 has 5
/// winning moves; 14 empties).
fn write_puzzles(dir: &Path) -> PathBuf {
    let (board, score, mv) = unique_win();
    let other = board
        .moves()
        .find_map(|m| m.square().filter(|&s| s != mv))
        .unwrap_or(Square::new_unchecked(0));
    let ffo1 =
        Board8::from_obf("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
            .unwrap();
    let g8 = Square::parse("g8", Size::Eight).unwrap();
    let s = score as i8;
    let puzzles = [
        puzzle(&board, s, mv, 10),
        puzzle(&board, s, other, 10),
        puzzle(&board, s + 2, mv, 10),
        puzzle(&board, s, mv, 11),
        puzzle(&ffo1, 18, g8, 14),
    ];
    let header = Header {
        p1: 8,
        p2: 1,
        n2: 10,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_solitaire_file(
        &header,
        &expected_presence_table(puzzles.len() as u32, 10),
        &puzzles,
        &mut bytes,
    )
    .unwrap();
    let path = dir.join("Solitaires_10.pzz");
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn puzzles_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_puzzles(dir.path());
    let out = wthor(&["puzzles", path.to_str().unwrap()]);
    assert!(out.status.success());
    let t = stdout(&out);
    assert_eq!(t.lines().count(), 5, "{t}");
    assert!(
        t.lines()
            .nth(4)
            .unwrap()
            .ends_with("2001 #0 vs #1: 14 empties, black to move, g8 +18"),
        "{t}"
    );
    let out = wthor(&[
        "puzzles",
        "--max-empties",
        "10",
        "--json",
        path.to_str().unwrap(),
    ]);
    let t = stdout(&out);
    assert_eq!(t.lines().count(), 3, "{t}");
    let v: serde_json::Value = serde_json::from_str(t.lines().next().unwrap()).unwrap();
    assert_eq!(v["index"], 0);
    assert_eq!(v["empties"], 10);
}

#[test]
fn every_kind_of_wrong_puzzle_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_puzzles(dir.path());
    let p = path.to_str().unwrap();
    let results = dir.path().join("r.jsonl");
    let r = results.to_str().unwrap();
    let out = wthor(&["puzzles", "--verify", "--threads", "1", "--results", r, p]);
    assert!(out.status.success());
    let t = stdout(&out);
    let line = |i: usize| {
        t.lines()
            .find(|l| l.contains(&format!("puzzle {i} ")))
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(line(0), "", "{t}");
    assert!(line(1).contains("is not a winning move"), "{t}");
    assert!(line(2).contains("but the solver finds"), "{t}");
    assert!(
        line(3).contains("stored empties 11 but the board has 10"),
        "{t}"
    );
    assert!(
        line(4).contains("5 winning moves (h1 a2 a3 h7 g8), expected exactly one"),
        "{t}"
    );
    assert!(
        t.contains("puzzles: 5 verified: 1 ok, 4 with problems"),
        "{t}"
    );
    let strict = wthor(&["puzzles", "--verify", "--strict", "--threads", "1", p]);
    assert_eq!(strict.status.code(), Some(1));
    // Resume: nothing left to do.
    let again = wthor(&["puzzles", "--verify", "--threads", "1", "--results", r, p]);
    let t = stdout(&again);
    assert!(
        t.contains("0 verified") && t.contains("5 already in the results file"),
        "{t}"
    );
}

/// A stored first move byte that names no square is said to be one (it
/// was "byte 99 is not a winning move").
#[test]
fn a_first_move_byte_naming_no_square_is_said_so() {
    let out = wthor(&[
        "puzzles",
        "--verify",
        "--threads",
        "1",
        "testdata/malformed/bad_move_byte.pzz",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let t = stdout(&out);
    let line = t
        .lines()
        .find(|l| l.contains("puzzle 0 "))
        .unwrap_or_else(|| panic!("{t}"));
    assert!(
        line.ends_with(": stored first move is byte 99, which names no square"),
        "{t}"
    );
    assert!(!t.contains("is not a winning move"), "{t}");
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_small_solitaires_verify() {
    let data = wthor_data();
    let dir = data.join("wthor/solitaires");
    for n in [6, 8, 10, 12] {
        let file = dir.join(format!("Solitaires_{n}.pzz"));
        let out = wthor(&[
            "puzzles",
            "--verify",
            "--threads",
            "1",
            file.to_str().unwrap(),
        ]);
        assert!(out.status.success());
        let t = stdout(&out);
        let summary = t
            .lines()
            .find(|l| l.starts_with("puzzles: "))
            .unwrap_or_else(|| panic!("no summary in\n{t}"));
        // Every problem found is a stored score that leaves the empties
        // out (Cassio's convention); no wrong move, no second solution.
        let nums: Vec<usize> = summary
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let (verified, ok, problems, uncounted) = (nums[0], nums[1], nums[2], nums[3]);
        assert!(verified > 1000, "{summary}");
        assert_eq!(ok + problems, verified, "{summary}");
        assert_eq!(problems, uncounted, "{n} empties:\n{t}");
        // The first record of the real file reads as names from Solitaires.jou.
        let list = wthor(&["puzzles", file.to_str().unwrap()]);
        assert!(
            !stdout(&list).lines().next().unwrap().contains(" #"),
            "{}",
            stdout(&list)
        );
    }
}

#[test]
fn a_file_of_another_kind_is_an_error_naming_its_kind() {
    // The kind `puzzles` asks the parser for is a hint: a game file (even
    // renamed `.pzz`) parses as games and is refused, the others still
    // listed.
    let dir = tempfile::tempdir().unwrap();
    let good = write_puzzles(dir.path());
    let games = crate::workspace_root().join("testdata/WTH_2001.wtb");
    let renamed = dir.path().join("games.pzz");
    std::fs::copy(&games, &renamed).unwrap();
    for (file, kind) in [
        (games.clone(), "an 8x8 games file"),
        (renamed, "an 8x8 games file"),
        (
            crate::workspace_root().join("testdata/WTH_2001.wtd"),
            "a 10x10 games file",
        ),
        (
            crate::workspace_root().join("testdata/WTHOR.JOU"),
            "a players file",
        ),
    ] {
        for verify in [false, true] {
            let mut args = vec!["puzzles", "--threads", "1"];
            if !verify {
                args.pop();
                args.pop();
            } else {
                args.insert(1, "--verify");
            }
            args.push(file.to_str().unwrap());
            args.push(good.to_str().unwrap());
            let out = wthor(&args);
            assert_eq!(out.status.code(), Some(2), "{args:?}");
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                format!("wthor: {}: {kind}, not solitaires\n", file.display()),
                "{args:?}"
            );
            let t = stdout(&out);
            if verify {
                assert!(t.contains("puzzles: 5 verified"), "{t}");
            } else {
                assert_eq!(t.lines().count(), 5, "{t}");
            }
        }
    }
}
