//! The analysis of real games (`$WTHOR_DATA/wthor`): on 50 games drawn at
//! random (fixed seed), every exact value and the value of every move
//! played equal fresh solves with cold tables (the table the analysis of a
//! game shares changes the time, never the values) and the losses add up.
//! (The stored theoretical scores are audited by `validate --solve`.)

use othello_core::notation::parse_transcript;
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Move, Size, Square};
use rayon::prelude::*;
use wthor_db::analysis::*;
use wthor_db::index::IndexChoice;
use wthor_db::{Database, GameId, Query};
use wthor_format::BoardSize;

/// Exact from this many empties: shallow enough for a test (the files'
/// depths, 22 or 24, are not reached: no theoretical check is claimed).
const EMPTIES: u8 = 18;

fn cold() -> Solver {
    Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    })
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn fifty_real_games_have_the_values_of_cold_solves() {
    let data = crate::wthor_data();
    let db = Database::open(data.join("wthor")).expect("the real database");
    let all: Vec<GameId> = db
        .searcher(IndexChoice::Never)
        .search(&Query::new())
        .unwrap()
        .value
        .into_iter()
        .filter(|&id| db.game(id).unwrap().board_size() == BoardSize::Eight)
        .collect();
    assert!(all.len() > 100_000, "{} 8x8 games", all.len());
    let sample: Vec<GameId> = wthor_db::verify::sample_of(&all, 50, 0x5754_484f_5232_3032);
    let options = AnalysisOptions {
        empties: EMPTIES,
        estimate_depth: 2,
        estimate_time: None,
    };
    let judged: usize = sample
        .par_iter()
        .map(|&id| {
            let view = db.game(id).unwrap();
            let name = db.game_name(id).to_string();
            let depth = db.file_of(id).unwrap().header().depth();
            let mut shared = Analyzer::new(SolverOptions {
                threads: 1,
                tt_bits: 20,
            })
            .unwrap();
            let a = analyze_game(&view, depth, &options, &mut shared).unwrap();
            // The positions where a disc is played, replayed here.
            let mut before = Board8::start();
            let mut plays = Vec::new();
            let replay =
                replay_with::<Board8, _, _>(wthor_tokens::<Board8>(view.moves_raw()), |s| {
                    if let Move::Play(sq) = s.mv {
                        plays.push((before, sq, s.board));
                    }
                    before = s.board;
                });
            assert!(replay.illegal.is_none(), "{name}");
            assert_eq!(a.moves.len(), plays.len(), "{name}");
            let mut exact = 0;
            for (j, (board, sq, child)) in a.moves.iter().zip(&plays) {
                assert_eq!(j.square, *sq, "{name}");
                assert_eq!(j.loss, j.value - j.played, "{name} {j:?}");
                assert!(j.loss >= 0, "{name} {j:?}");
                assert_eq!(j.exact, u32::from(j.empties) <= u32::from(EMPTIES));
                if !j.exact {
                    continue;
                }
                exact += 1;
                let value = cold().solve(board.player(), board.opponent()).score;
                assert_eq!(j.value, value, "{name} {j:?}");
                // The position after the move, solved for the opponent
                // (who passes inside the solve when it must).
                let after = cold().solve(child.player(), child.opponent()).score;
                assert_eq!(j.played, -after, "{name} {j:?}");
                // A move that lost discs: the best move given reaches the value.
                if j.loss > 0 {
                    let [best] = j.best[..] else {
                        panic!("{name} {j:?}: one best move")
                    };
                    let reached = board.play_unchecked(best);
                    let score = -cold().solve(reached.player(), reached.opponent()).score;
                    assert_eq!(score, j.value, "{name} {j:?}");
                } else {
                    assert!(j.best.is_empty(), "{name} {j:?}");
                }
            }
            // Not deep enough for the stored score: no check claimed.
            assert!(depth > EMPTIES && a.theoretical.is_none(), "{name}");
            exact
        })
        .sum();
    assert!(judged > 50 * 10, "{judged} moves judged exactly");
}

fn solver() -> Solver {
    Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 18,
    })
}

fn analyzer() -> Analyzer {
    Analyzer::new(SolverOptions {
        threads: 1,
        tt_bits: 18,
    })
    .unwrap()
}

fn moves(t: &str) -> Vec<Move> {
    parse_transcript(t, Size::Eight).unwrap()
}

/// A random game and its analysis from 14 empties.
fn analysed(seed: u64) -> (Vec<Move>, Analysis) {
    let game: Vec<Move> = othello_core::random::game::<Board8>(seed, 200)
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    let options = AnalysisOptions {
        empties: 14,
        estimate_depth: 3,
        estimate_time: None,
    };
    let a = analyze_moves(&game, &options, &mut analyzer()).unwrap();
    (game, a)
}

#[test]
fn every_exact_value_is_a_cold_solve_and_losses_add_up() {
    for seed in 1..=6 {
        let (game, a) = analysed(seed);
        let played: Vec<Move> = game.iter().copied().filter(|m| *m != Move::Pass).collect();
        assert_eq!(a.moves.len(), played.len());
        let mut board = Board8::start();
        let mut judged = a.moves.iter();
        for mv in &game {
            if let Move::Play(sq) = mv {
                let j = judged.next().unwrap();
                assert_eq!(j.square, *sq);
                assert_eq!(j.color, board.side_to_move());
                assert_eq!(j.empties as u32, board.empty_count());
                assert_eq!(j.loss, j.value - j.played);
                assert!(j.loss >= 0, "{j:?}");
                if j.exact {
                    // A cold solver: the table changes the time, never the value.
                    let mut cold = solver();
                    let (value, best) = cold.best_moves(board.player(), board.opponent());
                    assert_eq!(j.value, value, "seed {seed} {j:?}");
                    let best: Vec<Square> = best.into_iter().map(Square::new_unchecked).collect();
                    if j.loss > 0 {
                        assert_eq!(j.best.len(), 1, "{j:?}");
                        assert!(best.contains(&j.best[0]), "{j:?}");
                    } else {
                        assert!(j.best.is_empty(), "{j:?}");
                    }
                    assert_eq!(j.loss == 0, best.contains(sq), "{j:?}");
                    let child = board.play_unchecked(*sq);
                    assert_eq!(
                        j.played,
                        -cold.solve(child.player(), child.opponent()).score
                    );
                } else {
                    assert!(j.empties > 14);
                    assert_eq!(j.depth, Some(3), "{j:?}");
                    // The search's own move loses nothing.
                    if j.best == [*sq] {
                        assert_eq!(j.loss, 0, "{j:?}");
                    }
                }
            }
            board = board.play(*mv).unwrap();
        }
        assert!(a.moves.iter().any(|m| m.exact) && a.moves.iter().any(|m| !m.exact));
    }
}

#[test]
fn a_perfect_line_loses_nothing() {
    // Play the first best move from 12 empties of a random game: every
    // move of that line is perfect.
    let (game, _) = analysed(3);
    let mut board = Board8::start();
    let mut line = Vec::new();
    for mv in game {
        if board.empty_count() <= 12 {
            break;
        }
        line.push(mv);
        board = board.play(mv).unwrap();
    }
    let mut s = solver();
    while !board.is_game_over() {
        let mv = match s.solve(board.player(), board.opponent()).best_move {
            Some(x) => Move::Play(Square::new_unchecked(x)),
            None => Move::Pass,
        };
        line.push(mv);
        board = board.play(mv).unwrap();
    }
    let options = AnalysisOptions {
        empties: 12,
        estimate_depth: 2,
        estimate_time: None,
    };
    let a = analyze_moves(&line, &options, &mut analyzer()).unwrap();
    let exact: Vec<&Judged> = a.moves.iter().filter(|m| m.exact).collect();
    assert!(exact.len() >= 10);
    assert!(exact.iter().all(|m| m.loss == 0), "{exact:?}");
    assert_eq!(a.ending, Ending::Finished);
    // The value holds along a perfect line, and ends as the final score.
    let line = a.black_line();
    let from = a.moves.len() - exact.len();
    assert!(line[from..].windows(2).all(|w| w[0] == w[1]), "{line:?}");
    let (b, w) = board.wthor_score();
    assert_eq!(a.final_black, b as i32 - w as i32);
}

#[test]
fn mistakes_come_largest_first() {
    let (_, a) = analysed(5);
    let m = a.mistakes();
    assert!(m.windows(2).all(|w| w[0].loss >= w[1].loss));
    assert_eq!(m.len(), a.moves.iter().filter(|j| j.loss > 0).count());
}

#[test]
fn illegal_moves_and_bad_options_are_errors() {
    let err = analyze_moves(&moves("f5f5"), &AnalysisOptions::default(), &mut analyzer());
    assert!(matches!(err, Err(AnalysisError::Illegal(_))), "{err:?}");
    let ms = std::time::Duration::from_millis;
    for (empties, estimate_depth, estimate_time, message) in [
        (
            20,
            1,
            None,
            "the estimate depth is 1: it must be from 2 to 20",
        ),
        (
            20,
            21,
            None,
            "the estimate depth is 21: it must be from 2 to 20",
        ),
        (20, 8, Some(ms(0)), "an estimate time of 0: at least 1 ms"),
        (31, 4, None, "exact from 31 empties: at most 30"),
    ] {
        let bad = AnalysisOptions {
            empties,
            estimate_depth,
            estimate_time,
        };
        assert!(bad.check().is_err());
        let err = analyze_moves(&moves("f5"), &bad, &mut analyzer()).unwrap_err();
        assert!(err.to_string().starts_with(message), "{err}");
    }
    assert_eq!(AnalysisOptions::default().check(), Ok(()));
}

#[test]
fn an_unfinished_game_is_analysed_to_its_last_move() {
    let options = AnalysisOptions {
        estimate_depth: 6,
        ..AnalysisOptions::default()
    };
    let a = analyze_moves(&moves("f5d6c3d3c4"), &options, &mut analyzer()).unwrap();
    assert_eq!(a.ending, Ending::Unfinished);
    assert_eq!(a.moves.len(), 5);
    assert!(a.moves.iter().all(|m| !m.exact && m.depth == Some(6)));
    assert_eq!(a.black_line().len(), 6);
    assert_eq!(a.moves[0].best.len(), 1);
    // The last position, 55 empties from the end, estimated too.
    assert_eq!(a.final_depth, Some(6));
    assert_eq!(
        serde_json::to_value(a.estimate).unwrap(),
        serde_json::json!({"search": "midgame", "depth": 6})
    );
}

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

#[test]
fn fixture_games_agree_with_their_theoretical_scores_and_a_wrong_one_is_reported() {
    use wthor_db::verify::{TheoryStatus, black_discs};
    use wthor_db::{DatabaseBuilder, GameId};
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(fixtures().join("WTH_2001.wtb")).unwrap();
    // Game #3's theoretical score (byte 7 of its record) made wrong.
    let at = 16 + 68 * 3 + 7;
    let right = bytes[at];
    bytes[at] = if right >= 2 { right - 2 } else { right + 2 };
    std::fs::write(dir.path().join("WTH_2001.wtb"), &bytes).unwrap();
    let options = AnalysisOptions {
        empties: 16,
        estimate_depth: 2,
        estimate_time: None,
    };
    let mut s = analyzer();
    for (path, wrong) in [(fixtures(), None), (dir.path().to_path_buf(), Some(3))] {
        let db = DatabaseBuilder::new()
            .source(path.join("WTH_2001.wtb"))
            .open()
            .unwrap();
        let depth = db.files()[0].header().depth();
        assert_eq!(depth, 16);
        let mut checked = 0;
        for i in 0..db.files()[0].game_count() {
            let g = db.game(GameId::new(0, i)).unwrap();
            let a = analyze_game(&g, depth, &options, &mut s).unwrap();
            let t = a.theoretical.as_ref().unwrap();
            if t.status == TheoryStatus::Short {
                continue;
            }
            checked += 1;
            let expected = if wrong == Some(i) {
                TheoryStatus::Mismatch
            } else {
                TheoryStatus::Ok
            };
            assert_eq!(t.status, expected, "game {i}: {t:?}");
            // The analysis's own value at the depth is the solved score.
            let at_depth = a.moves.iter().find(|m| m.empties <= depth).unwrap();
            if at_depth.empties == depth {
                assert_eq!(
                    black_discs(at_depth.value, at_depth.color),
                    t.solved.unwrap()
                );
            }
        }
        assert!(checked >= 20);
    }
    let ten = DatabaseBuilder::new()
        .source(fixtures().join("WTH_2001.wtd"))
        .open()
        .unwrap();
    let g = ten.game(GameId::new(0, 0)).unwrap();
    let err = analyze_game(&g, 10, &options, &mut s).unwrap_err();
    assert_eq!(err, AnalysisError::TenByTen);
}

#[test]
fn games_analysed_in_parallel_equal_one_by_one() {
    use wthor_db::{DatabaseBuilder, GameId};
    let db = DatabaseBuilder::new()
        .source(fixtures().join("WTH_2001.wtb"))
        .source(fixtures().join("WTH_2001.wtd"))
        .open()
        .unwrap();
    let options = AnalysisOptions {
        empties: 12,
        estimate_depth: 2,
        estimate_time: None,
    };
    let mut ids: Vec<GameId> = (0..db.files()[0].game_count())
        .map(|i| GameId::new(0, i))
        .collect();
    // (The names files beside the game files come with them.)
    let ten = db
        .files()
        .iter()
        .position(|f| f.file_name() == "WTH_2001.wtd")
        .unwrap();
    ids.push(GameId::new(ten, 0));
    ids.push(GameId::new(db.files().len(), 0));
    let parallel = analyze_games(&db, &ids, &options, 16);
    // The game of no file is left out, the 10x10 one refused.
    assert_eq!(parallel.len(), ids.len() - 1);
    for (i, (id, got)) in parallel.iter().enumerate() {
        assert_eq!(*id, ids[i]);
        let g = db.game(*id).unwrap();
        let depth = db.file_of(*id).unwrap().header().depth();
        let alone = analyze_game(&g, depth, &options, &mut analyzer());
        assert_eq!(*got, alone, "{id:?}");
    }
    assert_eq!(parallel.last().unwrap().1, Err(AnalysisError::TenByTen));
}

mod accuracy {

    use wthor_db::NamePattern;
    use wthor_db::analysis::*;
    use wthor_db::verify::RecordKey;

    fn mv(number: usize, side: Side, loss: i32) -> MoveLoss {
        MoveLoss {
            number,
            side,
            square: format!("a{}", number % 8 + 1),
            empties: (61 - number) as u8,
            loss,
        }
    }

    fn game(id: &str, year: u16, black: &str, white: &str, moves: Vec<MoveLoss>) -> GameAnalysis {
        GameAnalysis {
            game: id.to_owned(),
            year,
            black: black.to_owned(),
            white: white.to_owned(),
            empties: 4,
            estimate: None,
            moves,
            theoretical: None,
            error: None,
        }
    }

    /// Three games by hand; the expected numbers are worked out below.
    fn three() -> Vec<GameAnalysis> {
        use Side::{Black as B, White as W};
        vec![
            // Ann (black) 0, 2; Bob (white) 0, 0.
            game(
                "2001:1",
                2001,
                "Ann",
                "Bob",
                vec![mv(57, B, 0), mv(58, W, 0), mv(59, B, 2), mv(60, W, 0)],
            ),
            // Bob (black) 4, 0; Cy (white) 0, 6.
            game(
                "2001:2",
                2001,
                "Bob",
                "Cy",
                vec![mv(57, B, 4), mv(58, W, 0), mv(59, B, 0), mv(60, W, 6)],
            ),
            // Cy (black) 0, 0; Ann (white) 0, 0.
            game(
                "2002:1",
                2002,
                "Cy",
                "Ann",
                vec![mv(57, B, 0), mv(58, W, 0), mv(59, B, 0), mv(60, W, 0)],
            ),
        ]
    }

    #[test]
    fn three_games_by_hand() {
        let games = three();
        let rows = accuracy(&games, &AccuracyOptions::default());
        let got: Vec<(&str, usize, usize, i64, usize)> = rows
            .iter()
            .map(|r| (r.player.as_str(), r.games, r.moves, r.total_loss, r.perfect))
            .collect();
        // Ann: 4 moves, loss 2, 3 perfect: 0.5 a move. Bob: 4 moves, loss
        // 4, 3 perfect: 1.0. Cy: 4 moves, loss 6, 3 perfect: 1.5.
        assert_eq!(
            got,
            [("Ann", 2, 4, 2, 3), ("Bob", 2, 4, 4, 3), ("Cy", 2, 4, 6, 3)]
        );
        assert_eq!(rows[0].mean_loss, 0.5);
        assert_eq!(rows[1].mean_loss, 1.0);
        assert_eq!(rows[2].perfect_share, 0.75);
        assert_eq!(
            rows[1].worst,
            [Blunder {
                game: "2001:2".into(),
                number: 57,
                square: "a2".into(),
                loss: 4
            }]
        );
        // By year: Ann has a 2001 row (2 moves, loss 2) and a 2002 row.
        let by_year = accuracy(
            &games,
            &AccuracyOptions {
                by_year: true,
                ..AccuracyOptions::default()
            },
        );
        let ann: Vec<(Option<u16>, usize, i64)> = by_year
            .iter()
            .filter(|r| r.player == "Ann")
            .map(|r| (r.year, r.moves, r.total_loss))
            .collect();
        assert_eq!(ann, [(Some(2002), 2, 0), (Some(2001), 2, 2)]);
        // A minimum of moves leaves rows out; a game given twice counts once.
        let mut twice = games.clone();
        twice.push(games[1].clone());
        let rows = accuracy(
            &twice,
            &AccuracyOptions {
                min_moves: 5,
                ..AccuracyOptions::default()
            },
        );
        assert!(rows.is_empty());
        assert_eq!(accuracy(&twice, &AccuracyOptions::default())[1].moves, 4);
        // Only the players asked for.
        let only = accuracy(
            &games,
            &AccuracyOptions {
                players: vec![NamePattern::substring("bo")],
                ..AccuracyOptions::default()
            },
        );
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].player, "Bob");
    }

    #[test]
    fn a_damaged_line_is_reported_and_the_rest_kept() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.jsonl");
        let games = three();
        let mut text = String::new();
        let key = |i| RecordKey {
            file: "WTH_2001.wtb".into(),
            created: "2025-01-01".into(),
            index: i,
            hash: "00".into(),
        };
        for (i, g) in games.iter().enumerate() {
            let mut line = serde_json::to_value(key(i)).unwrap();
            line.as_object_mut().unwrap().extend(
                serde_json::to_value(g)
                    .unwrap()
                    .as_object()
                    .unwrap()
                    .clone(),
            );
            text.push_str(&line.to_string());
            text.push('\n');
            if i == 0 {
                text.push_str("{\"game\": \"2001:9\", \"year\": 20\n");
            }
        }
        std::fs::write(&path, text).unwrap();
        let AnalysisLog {
            games: read,
            warnings,
        } = read_analyses(&path).unwrap();
        let keys: Vec<usize> = read.iter().map(|(k, _)| k.index).collect();
        assert_eq!(keys, [0, 1, 2]);
        let read: Vec<GameAnalysis> = read.into_iter().map(|(_, g)| g).collect();
        assert_eq!(read, games);
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].contains("line 2"), "{warnings:?}");
    }

    /// A log of `validate --solve` is the wrong log, not a damaged one:
    /// refused at its first line, not read as lines left out (issue 36,
    /// item 5).
    #[test]
    fn a_log_of_another_command_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v.jsonl");
        let theory = r#"{"file":"WTH_2001.wtb","created":"2025-01-01","index":0,"hash":"00","status":"ok","depth":24,"stored":40,"solved":40,"moves":36,"nodes":9,"cached":false,"seconds":1.0}"#;
        std::fs::write(&path, format!("\n{theory}\n{theory}\n")).unwrap();
        let e = read_analyses(&path).unwrap_err();
        assert!(
            matches!(
                &e,
                LogReadError::OtherKind {
                    line: 2,
                    kind: wthor_db::verify::LogKind::Theory,
                    ..
                }
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            format!(
                "{}:2: a result of wthor validate --solve: the accuracy tables read the \
                 results of wthor analyze",
                path.display()
            )
        );
        assert!(read_selected(&[path], None).is_err());
    }
}

/// The estimates repeat: a game analysed twice with the same analyzer, by
/// a fresh one, after the same positions were searched deeper (a warm
/// table holding deeper bounds), and move by move in reverse order (every
/// third prefix of the game, the longest first) gives the same estimated
/// moves;
/// and each estimate is the midgame search's value at the depth, from
/// fresh tables, rounded to whole discs (no move gains, the search's own
/// move loses nothing).
#[test]
fn estimates_do_not_depend_on_what_was_searched_before() {
    use othello_core::midgame::{Engine, EngineOptions, Limits};
    let depth = 6;
    let options = AnalysisOptions {
        empties: 12,
        estimate_depth: depth,
        estimate_time: None,
    };
    let deeper = AnalysisOptions {
        estimate_depth: 10,
        ..options
    };
    let estimated =
        |a: &Analysis| -> Vec<Judged> { a.moves.iter().filter(|m| !m.exact).cloned().collect() };
    for seed in [7, 8] {
        let (game, _) = analysed(seed);
        let game = &game[..game.len().min(40)];
        let fresh = analyze_moves(game, &options, &mut analyzer()).unwrap();
        let mut warm = analyzer();
        assert_eq!(analyze_moves(game, &options, &mut warm).unwrap(), fresh);
        assert_eq!(analyze_moves(game, &options, &mut warm).unwrap(), fresh);
        analyze_moves(game, &deeper, &mut warm).unwrap();
        assert_eq!(analyze_moves(game, &options, &mut warm).unwrap(), fresh);
        let all = estimated(&fresh);
        assert!(all.len() > 20, "seed {seed}");
        // Every third prefix, the longest first: the table each leaves is
        // the next one's.
        for k in (1..game.len()).rev().step_by(3) {
            let prefix = analyze_moves(&game[..k], &options, &mut warm).unwrap();
            let some = estimated(&prefix);
            assert_eq!(some[..], all[..some.len()], "seed {seed}, {k} moves");
        }
        // Each estimate: the midgame search from fresh tables.
        let mut engine = Engine::new(EngineOptions {
            tt_bits: 16,
            solver_tt_bits: 16,
        })
        .unwrap();
        let mut board = Board8::start();
        let mut judged = fresh.moves.iter();
        for &mv in game {
            if let Move::Play(sq) = mv {
                let j = judged.next().unwrap();
                if !j.exact {
                    engine.clear();
                    let e = engine
                        .analyze(board.player(), board.opponent(), Limits::depth(depth))
                        .unwrap();
                    assert_eq!(j.value, e.value.round() as i32, "seed {seed} {j:?}");
                    assert_eq!(j.best, [Square::new_unchecked(e.best_move.unwrap())]);
                    assert!(j.loss >= 0 && j.played <= j.value, "{j:?}");
                    if j.best == [sq] {
                        assert_eq!(j.loss, 0, "{j:?}");
                    }
                }
            }
            board = board.play(mv).unwrap();
        }
    }
}
