//! `wthor solve` and `wthor validate --solve`: positions with few empties,
//! synthetic game files with a small depth (P3 = 12), and FFO #1–#19 when
//! `WTHOR_DATA` is set.

use std::path::Path;

use othello_core::solver::{GenericSolver, Solver, SolverOptions};
use othello_core::{Board, Board8, Board10, Color, Move, Size};
use wthor_format::{BoardSize, Game, Header, write_game_file};

use crate::{wthor, wthor_data};

/// FFO #1: black to move, 14 empties, G8 wins by 18.
const FFO1: &str =
    "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn an_obf_argument_gives_the_score_and_a_best_move() {
    let out = wthor(&["solve", "--threads", "1", FFO1]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "black to move: +18 (g8), 14 empties\n");
    let out = wthor(&["solve", "--threads", "1", "--wld", FFO1]);
    let text = stdout(&out);
    let named = text
        .strip_prefix("black to move: win (")
        .and_then(|t| t.strip_suffix("), 14 empties\n"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(["g8", "h1"].contains(&named), "a winning move: {text}");
    let out = wthor(&["solve", "--threads", "1", "--json", FFO1]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["score"], 18);
    assert_eq!(v["best_move"], "g8");
    assert_eq!(v["side"], "black");
    assert_eq!(v["empties"], 14);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["seconds"].is_number());
    assert!(v["obf"].as_str().unwrap().ends_with(" X"));
}

#[test]
fn a_position_with_too_many_empties_gets_an_estimate_that_says_so() {
    // The midgame search at its default depth: the library's answer.
    let board = Board8::start();
    let limits = othello_core::midgame::Limits::depth(othello_core::midgame::DEFAULT_DEPTH);
    let e = othello_core::midgame::analyze(board.player(), board.opponent(), limits).unwrap();
    let mv = othello_core::Square::new_unchecked(e.best_move.unwrap())
        .name(Size::Eight)
        .to_string();
    let out = wthor(&["solve", "--threads", "1", &board.to_obf()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "black to move: ~{:+.1} ({mv}), an estimate at 60 empties, depth {}\n",
            e.value, e.depth
        )
    );
    let out = wthor(&["solve", "--threads", "1", "--json", &board.to_obf()]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["estimate"], true);
    assert_eq!(v["score"], e.value.round() as i64);
    assert_eq!(v["value"].as_f64().unwrap(), f64::from(e.value));
    assert_eq!(v["search_depth"], e.depth);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["best_move"], mv.as_str());
    // An exact solve says nothing of an estimate.
    let out = wthor(&["solve", "--threads", "1", "--json", FFO1]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v.get("estimate").is_none() && v.get("value").is_none());
}

#[test]
fn the_search_limits_and_every_moves_value() {
    // A depth reaching the empties: the exact score, given as exact.
    let out = wthor(&["solve", "--threads", "1", "--json", "--depth", "20", FFO1]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(v.get("estimate").is_none());
    assert_eq!(
        (v["score"].as_i64(), v["search_depth"].as_u64()),
        (Some(18), Some(14))
    );
    // Every move's value: each the exact score of the position after it.
    let board = Board8::from_obf(FFO1).unwrap();
    let out = wthor(&["solve", "--threads", "1", "--json", "--all-moves", FFO1]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u32, board.legal_moves().count_ones());
    assert_eq!(moves[0]["value"], 18.0);
    for m in moves {
        assert_eq!(m["exact"], true);
        let sq = othello_core::Square::parse(m["move"].as_str().unwrap(), Size::Eight).unwrap();
        let after = board.play(othello_core::Move::Play(sq)).unwrap();
        let mut solver = othello_core::solver::Solver::new(othello_core::solver::SolverOptions {
            threads: 1,
            tt_bits: 16,
        });
        let score = -solver.solve(after.player(), after.opponent()).score;
        assert_eq!(m["value"].as_f64().unwrap() as i32, score, "{m}");
    }
    // Estimated moves are marked; the four first moves are one by symmetry.
    let out = wthor(&[
        "solve",
        "--threads",
        "1",
        "--all-moves",
        "--depth",
        "4",
        &Board8::start().to_obf(),
    ]);
    let text = stdout(&out);
    let line = text.lines().nth(1).unwrap();
    assert!(
        line.starts_with("  moves: ") && line.matches('~').count() == 4,
        "{text}"
    );
    // Limits out of range and conflicts: usage errors.
    for bad in [
        &["--depth", "0"][..],
        &["--depth", "61"],
        &["--nodes", "0"],
        &["--time", "0"],
        &["--depth", "8", "--wld"],
        &["--depth", "8", "--exact"],
        &["--all-moves", "--wld"],
    ] {
        let mut args = vec!["solve", "--threads", "1"];
        args.extend_from_slice(bad);
        args.push(FFO1);
        let out = wthor(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}: {}", stdout(&out));
    }
}

#[test]
fn a_file_gives_one_line_per_position_and_bad_lines_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    // FFO #1 with the colours and side swapped: the same score for white.
    let swapped: String = FFO1[..64]
        .chars()
        .map(|c| match c {
            'X' => 'O',
            'O' => 'X',
            c => c,
        })
        .collect();
    std::fs::write(&file, format!("{FFO1}\n\n{swapped} O\n")).unwrap();
    let out = wthor(&["solve", "--threads", "1", "--file", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "black to move: +18 (g8), 14 empties\nwhite to move: +18 (g8), 14 empties\n"
    );

    std::fs::write(&file, format!("{FFO1}\nXXO Z\n")).unwrap();
    let out = wthor(&["solve", "--threads", "1", "--file", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("line 2") && err.contains("bad OBF"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(stdout(&out), "", "nothing solved before the error");

    let out = wthor(&["solve", "not a position"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad OBF"), "{}", stderr(&out));
}

/// A deterministic pseudo-random game played to the end, as WTHOR bytes.
fn random_game(seed: u64) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut board = Board8::start();
    let mut bytes = Vec::new();
    loop {
        let moves: Vec<Move> = board.moves().collect();
        if moves.is_empty() {
            if board.is_game_over() {
                return bytes;
            }
            board = board.pass();
            continue;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = moves[(state % moves.len() as u64) as usize];
        let Move::Play(sq) = mv else {
            board = board.pass();
            continue;
        };
        bytes.push(sq.to_wthor(Size::Eight));
        board = board.play(mv).unwrap();
    }
}

/// Black's discs after perfect play from the first position with `depth`
/// empties, by the library solver (the truth the command must agree with).
fn theoretical(moves: &[u8], depth: u32) -> u8 {
    let othello_core::replay::Reach::At { board, .. } =
        othello_core::replay::replay_to_empties::<Board8>(moves, depth)
    else {
        panic!("game too short")
    };
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    let s = solver.solve(board.player(), board.opponent()).score;
    let diff = if board.side_to_move() == Color::Black {
        s
    } else {
        -s
    };
    ((64 + diff) / 2) as u8
}

/// A WTH_2001.wtb with P3 = 12: 8 random games with their right
/// theoretical score except game 3 (off by 2) and game 5 (70, impossible),
/// then the 9-move wipe-out (short). Returns the right scores.
pub(crate) fn write_games(dir: &Path) -> Vec<u8> {
    let mut games = Vec::new();
    let mut right = Vec::new();
    for seed in 1..=8 {
        let moves = random_game(seed);
        let t = theoretical(&moves, 12);
        right.push(t);
        let stored = match seed {
            4 => {
                if t >= 2 {
                    t - 2
                } else {
                    t + 2
                }
            }
            6 => 70,
            _ => t,
        };
        let mut padded = moves.clone();
        padded.resize(60, 0);
        games.push(Game {
            tournament: 0,
            black: 0,
            white: 1,
            real_score: 32,
            theoretical_score: stored,
            moves: padded,
        });
    }
    games.push(
        Game::from_squares(
            0,
            1,
            0,
            64,
            64,
            &["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"],
            BoardSize::Eight,
        )
        .unwrap(),
    );
    let header = Header {
        year: 2001,
        p1: 8,
        p3: 12,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.join("WTH_2001.wtb"), bytes).unwrap();
    right
}

fn validate_solve(dir: &Path, extra: &[&str]) -> std::process::Output {
    validate_solve_file(&dir.join("WTH_2001.wtb"), extra)
}

fn validate_solve_file(file: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "validate",
        "--solve",
        "--threads",
        "1",
        "--tt-bits",
        "16",
        file.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    wthor(&args)
}

#[test]
fn wrong_and_impossible_theoretical_scores_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let right = write_games(dir.path());
    let out = validate_solve(dir.path(), &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let t = stdout(&out);
    assert!(
        t.contains(&format!(
            "record 3 (2001): #0 vs #1: mismatch: stored {}, solved {}",
            if right[3] >= 2 {
                right[3] - 2
            } else {
                right[3] + 2
            },
            right[3]
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "record 5 (2001): #0 vs #1: impossible stored value 70 (> 64), solved {}",
            right[5]
        )),
        "{t}"
    );
    assert!(
        t.contains("record 8 (2001): #1 vs #0: the game ends after 9 moves, before 12 empties; stored 64, final score 64"),
        "{t}"
    );
    assert!(
        t.contains(
            "9 games checked: 6 ok, 1 mismatch, 1 impossible, 1 short, 0 illegal, 0 unavailable"
        ),
        "{t}"
    );
    // --json: one object per game, then the summary.
    let out = validate_solve(dir.path(), &["--json"]);
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[3]["status"], "mismatch");
    assert_eq!(lines[3]["solved"], right[3]);
    assert_eq!(lines[9]["summary"]["mismatches"], 1);
    // Findings fail the run only with --strict.
    let strict = validate_solve(dir.path(), &["--strict"]);
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn a_second_run_resumes_from_the_results_file() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let results = dir.path().join("r.jsonl");
    let r = results.to_str().unwrap();
    let first = validate_solve(dir.path(), &["--results", r]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        stdout(&first).contains("9 games checked"),
        "{}",
        stdout(&first)
    );
    let lines = std::fs::read_to_string(&results).unwrap();
    assert_eq!(lines.lines().count(), 9);
    let rec: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
    for field in [
        "file", "created", "index", "hash", "year", "black", "white", "stored", "solved", "status",
        "seconds",
    ] {
        assert!(rec.get(field).is_some(), "{field} missing in {rec}");
    }
    assert_eq!(rec["file"], "WTH_2001.wtb");

    let second = validate_solve(dir.path(), &["--results", r]);
    assert!(second.status.success());
    let t = stdout(&second);
    // The report counts the games of the log too, and says none was
    // checked now.
    assert!(
        t.contains("theoretical scores: 9 games checked: ")
            && t.contains("; 0 checked now, 9 already in the results file\n"),
        "{t}"
    );
    assert_eq!(
        t.lines().filter(|l| l.contains(": record ")).count(),
        stdout(&first)
            .lines()
            .filter(|l| l.contains(": record "))
            .count(),
        "the same findings as the first run:\n{t}"
    );

    // An interrupted run leaves a truncated line: dropped with a warning,
    // and only that game is checked again.
    let kept: Vec<&str> = lines.lines().take(7).collect();
    std::fs::write(
        &results,
        format!(
            "{}\n{}",
            kept.join("\n"),
            &lines.lines().nth(7).unwrap()[..20]
        ),
    )
    .unwrap();
    let third = validate_solve(dir.path(), &["--results", r]);
    assert!(third.status.success(), "{}", stderr(&third));
    assert!(
        stderr(&third).contains("truncated last line"),
        "{}",
        stderr(&third)
    );
    assert!(
        stdout(&third).contains("9 games checked")
            && stdout(&third).contains("; 2 checked now, 7 already in the results file\n"),
        "{}",
        stdout(&third)
    );
    assert_eq!(
        std::fs::read_to_string(&results).unwrap().lines().count(),
        9
    );
}

/// `--results` naming a file that is no results log (here the games file
/// itself, by mistake) is refused before any work, and the file is left
/// byte for byte as it was (it used to be cut at its last newline byte and
/// appended to).
#[test]
fn a_games_file_given_as_the_results_file_is_refused_and_left_intact() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let games = dir.path().join("WTH_2001.wtb");
    let before = std::fs::read(&games).unwrap();
    let out = validate_solve(dir.path(), &["--results", games.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("not a results log"),
        "{}",
        stderr(&out)
    );
    assert_eq!(std::fs::read(&games).unwrap(), before);
}

#[test]
fn shards_cover_every_game_exactly_once() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let mut seen = Vec::new();
    for k in 1..=3 {
        let results = dir.path().join(format!("r{k}.jsonl"));
        let shard = format!("{k}/3");
        let out = validate_solve(
            dir.path(),
            &["--shard", &shard, "--results", results.to_str().unwrap()],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        for line in std::fs::read_to_string(&results).unwrap().lines() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            seen.push(v["index"].as_u64().unwrap());
        }
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..9).collect::<Vec<_>>());
    let bad = validate_solve(dir.path(), &["--shard", "4/3"]);
    assert_eq!(bad.status.code(), Some(2), "a usage error");
}

#[test]
fn a_cached_position_is_not_solved_again_and_a_bad_cache_is_never_lost() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let cache = dir.path().join("cache.bin");
    let c = cache.to_str().unwrap();
    let first = validate_solve(dir.path(), &["--cache", c]);
    assert!(
        stdout(&first).contains("cache: 0 hits, 8 misses, 8 added, 8 positions"),
        "{}",
        stdout(&first)
    );
    let second = validate_solve(dir.path(), &["--cache", c, "--sample", "4", "--seed", "7"]);
    let t = stdout(&second);
    assert!(t.contains("mismatch") || t.contains("ok"), "{t}");
    let misses: Vec<&str> = t.lines().filter(|l| l.starts_with("cache:")).collect();
    assert_eq!(misses.len(), 1, "{t}");
    assert!(misses[0].contains(" 0 misses, 0 added, 8 positions"), "{t}");
    assert!(
        !t.contains("solve time per game"),
        "no game was solved:\n{t}"
    );

    // A cache that cannot be written fails at once.
    let nowhere = dir.path().join("no/such/dir/cache.bin");
    let out = validate_solve(dir.path(), &["--cache", nowhere.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cache.bin"), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "nothing solved");

    // A file that is not a cache (a results log given by mistake) is
    // refused and left as it was.
    let results = dir.path().join("r.jsonl");
    let r = results.to_str().unwrap();
    let out = validate_solve(dir.path(), &["--results", r]);
    assert!(out.status.success(), "{}", stderr(&out));
    let log = std::fs::read(&results).unwrap();
    let out = validate_solve(dir.path(), &["--cache", r]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!("wthor: {r}: not a solve cache (it does not start with \"WTHSOLV1\")\n")
    );
    assert_eq!(stdout(&out), "", "nothing solved");
    assert_eq!(
        std::fs::read(&results).unwrap(),
        log,
        "the log is untouched"
    );

    // A damaged cache of ours is moved aside, never lost.
    let mut damaged = std::fs::read(&cache).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    std::fs::write(&cache, &damaged).unwrap();
    let third = validate_solve(dir.path(), &["--cache", c]);
    assert!(third.status.success(), "{}", stderr(&third));
    assert_eq!(
        stderr(&third),
        format!(
            "wthor: warning: {c}: damaged solve cache (checksum mismatch); moved to {c}.damaged, starting with an empty cache\n"
        )
    );
    assert!(stdout(&third).contains("8 added"), "{}", stdout(&third));
    assert_eq!(std::fs::read(format!("{c}.damaged")).unwrap(), damaged);
}

#[test]
fn the_same_sample_is_drawn_every_time() {
    let dir = tempfile::tempdir().unwrap();
    write_games(dir.path());
    let indices = |seed: &str| {
        let results = dir.path().join(format!("s{seed}-{}.jsonl", rand_suffix()));
        let out = validate_solve(
            dir.path(),
            &[
                "--sample",
                "3",
                "--seed",
                seed,
                "--results",
                results.to_str().unwrap(),
            ],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let mut v: Vec<u64> = std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .map(|l| {
                serde_json::from_str::<serde_json::Value>(l).unwrap()["index"]
                    .as_u64()
                    .unwrap()
            })
            .collect();
        v.sort_unstable();
        v
    };
    let a = indices("5");
    assert_eq!(a.len(), 3);
    assert_eq!(a, indices("5"));
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// Writes `games` as `dir/WTH_2001.wtd` and returns its path.
fn write_wtd(dir: &Path, header: &Header, games: &[Game]) -> std::path::PathBuf {
    let mut bytes = Vec::new();
    write_game_file(header, BoardSize::Ten, games, &mut bytes).unwrap();
    let file = dir.join("WTH_2001.wtd");
    std::fs::write(&file, bytes).unwrap();
    file
}

#[test]
fn ten_by_ten_games_are_reported_unavailable() {
    let dir = tempfile::tempdir().unwrap();
    let game = Game::from_squares(0, 0, 1, 50, 50, &["g6"], BoardSize::Ten).unwrap();
    let header = Header {
        year: 2001,
        p1: 10,
        ..Header::default()
    };
    let out = validate_solve_file(&write_wtd(dir.path(), &header, &[game]), &[]);
    assert!(out.status.success());
    let t = stdout(&out);
    assert!(t.contains("10x10 solving unavailable"), "{t}");
    assert!(t.contains("1 unavailable"), "{t}");
}

#[test]
fn ten_by_ten_games_are_solved_at_a_small_depth() {
    // A pseudo-random 10x10 game, its theoretical score at 10 empties by
    // the generic solver; stored right in game 0, wrong in game 1.
    let mut state: u64 = 0x1234_5678_9abc_def1;
    let mut board = Board10::start();
    let mut bytes = Vec::new();
    while !board.is_game_over() {
        let moves: Vec<Move> = board.moves().collect();
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = moves[(state % moves.len() as u64) as usize];
        if let Move::Play(sq) = mv {
            bytes.push(sq.to_wthor(Size::Ten));
        }
        board = board.play(mv).unwrap();
    }
    let othello_core::replay::Reach::At { board: at, .. } =
        othello_core::replay::replay_to_empties::<Board10>(&bytes, 10)
    else {
        panic!("game too short")
    };
    let s = GenericSolver::new().solve(&at).score;
    let diff = if at.side_to_move() == Color::Black {
        s
    } else {
        -s
    };
    let right = ((100 + diff) / 2) as u8;
    bytes.resize(96, 0);
    let game = |stored| Game {
        tournament: 0,
        black: 0,
        white: 1,
        real_score: 50,
        theoretical_score: stored,
        moves: bytes.clone(),
    };
    let header = Header {
        year: 2001,
        p1: 10,
        p3: 10,
        ..Header::default()
    };
    let wrong = if right >= 2 { right - 2 } else { right + 2 };
    let dir = tempfile::tempdir().unwrap();
    // 101 discs is impossible on a 10x10 board (100 squares).
    let path = write_wtd(dir.path(), &header, &[game(right), game(wrong), game(101)]);
    let out = validate_solve_file(&path, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let t = stdout(&out);
    assert!(
        t.contains(&format!(
            "record 1 (2001): #0 vs #1: mismatch: stored {wrong}, solved {right}"
        )),
        "{t}"
    );
    assert!(
        t.contains(&format!(
            "record 2 (2001): #0 vs #1: impossible stored value 101 (> 100), solved {right}"
        )),
        "{t}"
    );
    assert!(
        t.contains("3 games checked: 1 ok, 1 mismatch, 1 impossible"),
        "{t}"
    );
}

#[test]
fn a_game_is_solved_at_a_number_of_empties_or_moves() {
    let dir = tempfile::tempdir().unwrap();
    let right = write_games(dir.path());
    let file = dir.path().join("WTH_2001.wtb");
    let f = file.to_str().unwrap();
    let out = wthor(&[
        "solve",
        "--threads",
        "1",
        "--json",
        "--game",
        f,
        "0",
        "--empties",
        "12",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["empties"], 12);
    let diff = v["score"].as_i64().unwrap() * if v["side"] == "black" { 1 } else { -1 };
    assert_eq!((64 + diff) / 2, i64::from(right[0]));
    // After 48 recorded moves (48 discs): the same position.
    let out = wthor(&[
        "solve",
        "--threads",
        "1",
        "--json",
        "--game",
        f,
        "0",
        "--move",
        "48",
    ]);
    let w: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(w["obf"], v["obf"]);
    let out = wthor(&["solve", "--game", f, "8", "--empties", "12"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("game 8: the game ends after 9 moves"),
        "{}",
        stderr(&out)
    );
    let out = wthor(&["solve", "--game", f, "99", "--empties", "12"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no game 99"), "{}", stderr(&out));
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_1_to_19_match_their_annotations() {
    let data = wthor_data();
    let file = data.join("ffo/fforum-1-19.obf");
    let out = wthor(&["solve", "--threads", "1", "--file", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    let want: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            // "…; G8:+18; …": the first annotation is a best move.
            let best = l.split(';').nth(1).unwrap().trim();
            best.split(':').nth(1).unwrap().to_owned()
        })
        .collect();
    // "black to move: +18 (g8), 14 empties": the score.
    let got: Vec<String> = stdout(&out)
        .lines()
        .map(|l| l.split(' ').nth(3).unwrap().to_owned())
        .collect();
    assert_eq!(got, want);
}

/// A 10x10 position or game given to `wthor solve`, with or without a
/// search limit: one clear line (no 10x10 evaluation), exit 2.
#[test]
fn a_ten_by_ten_position_is_refused_plainly() {
    let start10 = format!(
        "{}OX{}XO{} X",
        "-".repeat(44),
        "-".repeat(8),
        "-".repeat(44)
    );
    let fixture = crate::workspace_root().join("testdata/WTH_2001.wtd");
    let fixture = fixture.to_str().unwrap();
    for args in [
        vec!["solve", start10.as_str()],
        vec!["solve", start10.as_str(), "--depth", "4"],
        vec!["solve", "--game", fixture, "0", "--empties", "20"],
        vec![
            "solve",
            "--game",
            fixture,
            "0",
            "--empties",
            "20",
            "--time",
            "10",
        ],
    ] {
        let out = crate::wthor(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains("a 10x10 position: wthor solve judges 8x8 positions only")
                && err.contains("no 10x10 evaluation")
                && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
}

/// The winning (or drawing, `bound` 0) moves of `board` by the library
/// solver, as names.
fn moves_at_least(board: &Board8, bound: i32) -> Vec<String> {
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    solver
        .moves_at_least(board.player(), board.opponent(), bound)
        .into_iter()
        .map(|x| {
            othello_core::Square::new_unchecked(x)
                .name(Size::Eight)
                .to_string()
        })
        .collect()
}

/// `--wld` answers only exactly: past 30 empties it is a usage error (it
/// used to print a disc estimate), with `--exact` allowed. Its JSON has
/// the nodes searched (it said 0) and a move reaching the result (it had
/// none); a loss names none, every move losing.
#[test]
fn wld_is_exact_with_its_nodes_and_a_move() {
    let fixture = crate::workspace_root().join("testdata/WTH_2001.wtb");
    let fixture = fixture.to_str().unwrap();
    let out = wthor(&[
        "solve",
        "--threads",
        "1",
        "--game",
        fixture,
        "3",
        "--empties",
        "32",
        "--wld",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {fixture} game 3: --wld needs an exact solve: the position has 32 empty \
             squares, more than the 30 solved exactly (give --exact too to solve it all the \
             same, which can take hours)\n"
        )
    );
    // A file: refused before any position is solved, its line named.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    std::fs::write(&file, format!("{FFO1}\n{}\n", Board8::start().to_obf())).unwrap();
    let out = wthor(&["solve", "--wld", "--file", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "", "nothing solved");
    assert!(
        stderr(&out).contains("p.obf: line 2: --wld needs an exact solve"),
        "{}",
        stderr(&out)
    );

    for empties in ["14", "22"] {
        let out = wthor(&[
            "solve",
            "--threads",
            "1",
            "--json",
            "--wld",
            "--game",
            fixture,
            "3",
            "--empties",
            empties,
        ]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        let board = Board8::from_obf(v["obf"].as_str().unwrap()).unwrap();
        let score = Solver::new(SolverOptions {
            threads: 1,
            tt_bits: 16,
        })
        .solve(board.player(), board.opponent())
        .score;
        let wld = match score.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(v["wld"], wld, "{v}");
        assert!(v["nodes"].as_u64().unwrap() > 0, "{v}");
        if score >= 0 {
            let reaching = moves_at_least(&board, score.signum());
            let best = v["best_move"].as_str().unwrap_or_else(|| panic!("{v}"));
            assert!(reaching.iter().any(|m| m == best), "{best} of {reaching:?}");
        }
    }

    // A loss: no move reaches better, none is named.
    let mut squares = vec!['X'; 40];
    squares.extend(['O'; 10]);
    squares.extend(['-'; 14]);
    squares[0] = '-';
    squares[1] = 'O';
    let lost: String = squares.into_iter().collect::<String>() + " O";
    let board = Board8::from_obf(&lost).unwrap();
    assert!(moves_at_least(&board, 0).is_empty(), "a lost position");
    let out = wthor(&["solve", "--threads", "1", "--wld", &lost]);
    assert_eq!(
        stdout(&out),
        "white to move: loss (every move loses), 15 empties\n"
    );
    let out = wthor(&["solve", "--threads", "1", "--wld", "--json", &lost]);
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(
        (v["wld"].as_str(), v["best_move"].is_null()),
        (Some("loss"), true)
    );
    assert!(v.get("pass").is_none(), "{v}");
}

/// A side that must pass and a finished game: JSON says which
/// (`"pass": true`, `"game_over": true`; both were only `"best_move":
/// null`), and `--all-moves` says why no move is listed (it printed an
/// empty `  moves: ` line).
#[test]
fn a_pass_and_a_finished_game_are_told_apart() {
    // Black (to move) cannot flank white's corner disc; white plays c1.
    let pass = format!("OX-{} X", "X".repeat(61));
    // White has no disc left.
    let over = format!("{}-- O", "X".repeat(62));
    let json = |obf: &str| -> serde_json::Value {
        let out = wthor(&["solve", "--threads", "1", "--json", "--all-moves", obf]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        serde_json::from_str(stdout(&out).trim()).unwrap()
    };
    let v = json(&pass);
    assert_eq!(
        (v["pass"].as_bool(), v.get("game_over")),
        (Some(true), None),
        "{v}"
    );
    assert!(
        v["best_move"].is_null() && v["moves"] == serde_json::json!([]),
        "{v}"
    );
    let v = json(&over);
    assert_eq!(
        (v.get("pass"), v["game_over"].as_bool()),
        (None, Some(true)),
        "{v}"
    );
    // A position with moves says neither.
    let v = json(FFO1);
    assert!(
        v.get("pass").is_none() && v.get("game_over").is_none(),
        "{v}"
    );

    let text = |obf: &str| stdout(&wthor(&["solve", "--threads", "1", "--all-moves", obf]));
    assert_eq!(
        text(&pass),
        "black to move: +58 (pass), 1 empty\n  moves: none (pass)\n"
    );
    assert_eq!(
        text(&over),
        "white to move: -64 (game over), 2 empties\n  moves: none (game over)\n"
    );
}

/// Text after the side to move is refused unless it is OBF's `;`
/// annotations or a `%` comment (it was silently ignored); `%` lines of a
/// file are comments.
#[test]
fn trailing_text_after_a_position_is_refused() {
    let bare = &FFO1[..66];
    let out = wthor(&["solve", "--threads", "1", &format!("{bare} extra")]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: the position argument: trailing text after the side to move: \"extra\" (an OBF \
         line may end with `; annotations` or a `% comment`, nothing else)\n"
    );
    for fine in [bare.to_owned(), FFO1.to_owned(), format!("{bare} % FFO #1")] {
        let out = wthor(&["solve", "--threads", "1", &fine]);
        assert_eq!(
            stdout(&out),
            "black to move: +18 (g8), 14 empties\n",
            "{fine}: {}",
            stderr(&out)
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.obf");
    std::fs::write(&file, format!("% FFO #1\n{FFO1}\n{bare} X\n")).unwrap();
    let out = wthor(&["solve", "--threads", "1", "--file", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("p.obf: line 3: trailing text after the side to move: \"X\""),
        "{}",
        stderr(&out)
    );
}

/// `--move` past the record's moves says how many it has (it said "the
/// record does not hold 61 moves legal"); a game identity without a
/// database says it needs one (it said "2001: cannot read").
#[test]
fn a_move_past_the_record_and_an_identity_without_a_database() {
    let fixture = crate::workspace_root().join("testdata/WTH_2001.wtb");
    let fixture = fixture.to_str().unwrap();
    let out = wthor(&["solve", "--game", fixture, "3", "--move", "61"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {fixture} game 3: the game has 60 moves: no position after move 61 (--move \
             takes 0 to 60)\n"
        )
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["solve", "--game", "2001:3", "--empties", "14"])
        .current_dir(crate::workspace_root())
        .env_remove("WTHOR_DIR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: --game \"2001:3\": a game identity needs a database to look it up in (give --db \
         DIR or set WTHOR_DIR), and it is not PATH:INDEX of a file\n"
    );
    // PATH:INDEX still names a file's game without a database.
    let out = wthor(&[
        "solve",
        "--threads",
        "1",
        "--game",
        &format!("{fixture}:3"),
        "--empties",
        "14",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}
