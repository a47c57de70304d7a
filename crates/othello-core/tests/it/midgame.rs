//! The midgame search against a plain search of the same depth (negamax
//! on the evaluation, full window, no table, no selectivity) and against
//! the exact solver; multi-PV against separate searches; bad input.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use othello_core::bitboard8::{self, flips, legal_moves};
use othello_core::eval::{SCALE, evaluate};
use othello_core::midgame::{
    self, Analysis, Engine, EngineOptions, Limits, MidgameError, Query, Selectivity,
};
use othello_core::solver::{Solver, SolverOptions, game_over_score};
use othello_core::{Board, Board8, Move};

/// The position after `plies` plies of the seeded random game `seed`
/// (side to move's discs first), or `None` when the game ends earlier.
fn random_position(seed: u64, plies: usize) -> Option<(u64, u64)> {
    let game = othello_core::random::game::<Board8>(seed, plies);
    if game.len() < plies {
        return None;
    }
    let mut b = Board8::start();
    for (_, mv) in game {
        b = match mv {
            Move::Play(sq) => b.play_unchecked(sq),
            Move::Pass => b.pass(),
        };
    }
    Some((b.player(), b.opponent()))
}

fn empties(p: u64, o: u64) -> u32 {
    (!(p | o)).count_ones()
}

/// A fresh engine with small tables.
fn engine() -> Engine {
    Engine::new(EngineOptions {
        tt_bits: 16,
        solver_tt_bits: 16,
    })
    .unwrap()
}

fn exact_score(p: u64, o: u64) -> i32 {
    Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 12,
    })
    .solve(p, o)
    .score
}

/// The value the midgame search defines, by plain negamax in 1/SCALE
/// disc: a node whose depth reaches its empties is worth its exact score,
/// and so is a leaf (depth 0) of at most `EXACT_LEAF_EMPTIES` empties;
/// at another leaf, the evaluation clamped below a win by every disc; a
/// pass does not count a ply.
fn negamax(p: u64, o: u64, depth: u32) -> i32 {
    let n = empties(p, o);
    if depth >= n || (depth == 0 && n <= midgame::EXACT_LEAF_EMPTIES) {
        return SCALE * exact_score(p, o);
    }
    if depth == 0 {
        return evaluate(p, o).clamp(-64 * SCALE + 1, 64 * SCALE - 1);
    }
    let mut moves = legal_moves(p, o);
    if moves == 0 {
        if legal_moves(o, p) == 0 {
            return SCALE * game_over_score(p, o);
        }
        return -negamax(o, p, depth);
    }
    let mut best = i32::MIN;
    while moves != 0 {
        let x = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(p, o, x);
        best = best.max(-negamax(o ^ f, p | f | (1 << x), depth - 1));
    }
    best
}

fn discs(v: i32) -> f32 {
    v as f32 / SCALE as f32
}

/// `(p, o)` after the move `x`, opponent to move.
fn child(p: u64, o: u64, x: u8) -> (u64, u64) {
    let f = flips(p, o, usize::from(x));
    (o ^ f, p | f | (1 << x))
}

fn exact_query(limits: Limits) -> Query {
    Query::from(limits).selectivity(Selectivity::OFF)
}

#[test]
fn without_selectivity_the_search_equals_plain_negamax_at_its_depth() {
    let mut checked = 0;
    for seed in 1..=40u64 {
        // 20 to 50 empties.
        let Some((p, o)) = random_position(seed, 10 + (seed as usize * 7) % 31) else {
            continue;
        };
        if legal_moves(p, o) == 0 {
            continue;
        }
        let depth = 1 + (seed as u32 % 4);
        let a = engine()
            .analyze(p, o, exact_query(Limits::depth(depth)))
            .unwrap();
        let want = negamax(p, o, depth);
        assert_eq!(a.value, discs(want), "seed {seed} depth {depth}");
        assert_eq!(a.depth, depth);
        assert!(!a.exact);
        // The best move reaches the value, and starts the line.
        let best = a.best_move.unwrap();
        let (cp, co) = child(p, o, best);
        assert_eq!(-negamax(cp, co, depth - 1), want, "seed {seed}");
        assert_eq!(
            a.pv[0],
            Move::Play(othello_core::Square::new_unchecked(best))
        );
        checked += 1;
    }
    assert!(checked >= 30, "{checked}");
}

#[test]
fn near_the_end_leaves_are_solved_and_the_search_still_equals_negamax() {
    // 11 to 14 empties, 1 to 4 plies: the leaves of some searches are
    // solved, those of others evaluated (a search's leaves all have the
    // empties less the depth: a pass does not count a ply).
    let (mut solved, mut evaluated) = (0, 0);
    for seed in 500..540u64 {
        let Some((p, o)) = random_position(seed, 46 + (seed as usize % 4)) else {
            continue;
        };
        let n = empties(p, o);
        if legal_moves(p, o) == 0 || n <= midgame::EXACT_LEAF_EMPTIES {
            continue;
        }
        let depth = 1 + (seed as u32 / 4) % 4;
        let a = engine()
            .analyze(p, o, exact_query(Limits::depth(depth)))
            .unwrap();
        assert_eq!(
            a.value,
            discs(negamax(p, o, depth)),
            "seed {seed} depth {depth}"
        );
        assert!(!a.exact);
        if n - depth <= midgame::EXACT_LEAF_EMPTIES {
            solved += 1;
        } else {
            evaluated += 1;
        }
    }
    assert!(solved >= 5 && evaluated >= 5, "{solved} {evaluated}");
}

#[test]
fn the_same_engine_searching_again_deeper_still_equals_negamax() {
    // Entries of shallower searches only order the moves.
    let mut e = engine();
    let (p, o) = random_position(77, 24).unwrap();
    for depth in 1..=5 {
        let a = e.analyze(p, o, exact_query(Limits::depth(depth))).unwrap();
        assert_eq!(a.value, discs(negamax(p, o, depth)), "depth {depth}");
    }
}

#[test]
fn a_depth_reaching_the_end_gives_the_exact_score() {
    let mut checked = 0;
    for seed in 100..130u64 {
        let Some((p, o)) = random_position(seed, 46 + (seed as usize % 5)) else {
            continue;
        };
        let n = empties(p, o);
        let mut solver = Solver::new(SolverOptions {
            threads: 1,
            tt_bits: 16,
        });
        let (score, best_moves) = solver.best_moves(p, o);
        for query in [
            Query::from(Limits::depth(n)),
            Query::from(Limits::depth(60)),
            Query::from(Limits::time_ms(60_000)),
        ] {
            let a = engine().analyze(p, o, query).unwrap();
            assert!(a.exact, "seed {seed}");
            assert_eq!(a.value, score as f32, "seed {seed}");
            assert_eq!(a.depth, n);
            assert_eq!(a.selectivity, Selectivity::OFF);
            if legal_moves(p, o) != 0 {
                assert!(best_moves.contains(&a.best_move.unwrap()), "seed {seed}");
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn each_move_value_of_multi_pv_equals_a_search_of_that_move() {
    for seed in 200..215u64 {
        let Some((p, o)) = random_position(seed, 14 + (seed as usize % 20)) else {
            continue;
        };
        let moves = legal_moves(p, o);
        if moves == 0 {
            continue;
        }
        let depth = 2 + (seed as u32 % 3);
        let a = engine()
            .analyze(p, o, exact_query(Limits::depth(depth)).all_moves())
            .unwrap();
        assert_eq!(a.moves.len() as u32, moves.count_ones());
        assert_eq!(a.moves[0].square, a.best_move.unwrap());
        assert_eq!(a.moves[0].value, a.value);
        for w in a.moves.windows(2) {
            assert!(w[0].value >= w[1].value);
        }
        for mv in &a.moves {
            let (cp, co) = child(p, o, mv.square);
            let alone = engine()
                .analyze(cp, co, exact_query(Limits::depth(depth - 1)))
                .unwrap();
            assert_eq!(mv.value, -alone.value, "seed {seed} move {}", mv.square);
            assert_eq!(mv.value, discs(-negamax(cp, co, depth - 1)));
            assert!(!mv.exact);
        }
    }
}

#[test]
fn multi_pv_near_the_end_gives_every_exact_score() {
    let (p, o) = random_position(5, 50).unwrap();
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    let mut want = solver.move_scores(p, o);
    want.sort_by_key(|&(x, s)| (-s, x));
    let a = midgame::analyze(p, o, Query::from(Limits::time_ms(60_000)).all_moves()).unwrap();
    assert!(a.exact);
    let got: Vec<(u8, i32)> = a
        .moves
        .iter()
        .map(|m| {
            assert!(m.exact);
            (m.square, m.value as i32)
        })
        .collect();
    assert_eq!(got, want);
}

#[test]
fn selective_searches_stay_close_to_exact_ones() {
    // Not equal (probcut cuts), but a cut never changes a value by more
    // than a few discs on these positions.
    for seed in 300..310u64 {
        let Some((p, o)) = random_position(seed, 24) else {
            continue;
        };
        let exact = engine()
            .analyze(p, o, exact_query(Limits::depth(7)))
            .unwrap();
        let selective = engine()
            .analyze(p, o, Query::from(Limits::depth(7)))
            .unwrap();
        assert_eq!(selective.selectivity, Selectivity::DEFAULT);
        assert!((exact.value - selective.value).abs() < 16.0, "seed {seed}");
    }
}

#[test]
fn a_depth_limit_searches_at_the_default_selectivity_time_and_nodes_at_the_timed_one() {
    assert_eq!(
        Query::from(Limits::depth(6)).selectivity,
        Selectivity::DEFAULT
    );
    let both = Limits {
        depth: Some(6),
        ..Limits::time_ms(50)
    };
    assert_eq!(Query::from(both).selectivity, Selectivity::DEFAULT);
    assert_eq!(
        Query::from(Limits::time_ms(50)).selectivity,
        Selectivity::TIMED
    );
    assert_eq!(
        Query::from(Limits::nodes(10_000)).selectivity,
        Selectivity::TIMED
    );
    assert_ne!(Selectivity::TIMED, Selectivity::DEFAULT);
    // The answer says which it used.
    let (p, o) = random_position(301, 30).expect("a position");
    let a = engine().analyze(p, o, Limits::nodes(3_000)).unwrap();
    assert!(!a.exact && a.depth < empties(p, o));
    assert_eq!(a.selectivity, Selectivity::TIMED);
}

#[test]
fn finished_games_and_passes() {
    // The opponent owns every square but h8, the side to move none:
    // neither can move.
    let (p, o) = (0u64, !(1u64 << 63));
    assert_eq!(legal_moves(p, o) | legal_moves(o, p), 0);
    let a = midgame::analyze(p, o, Limits::depth(5)).unwrap();
    assert!(a.exact);
    assert_eq!(a.value, game_over_score(p, o) as f32);
    assert_eq!((a.depth, a.best_move, a.pv.len(), a.nodes), (0, None, 0, 0));
    // A side that must pass: its value is minus the opponent's.
    let mut found = 0;
    for seed in 400..2000u64 {
        let Some((p, o)) = random_position(seed, 40 + (seed as usize % 18)) else {
            continue;
        };
        if legal_moves(p, o) != 0 || legal_moves(o, p) == 0 {
            continue;
        }
        let a = engine()
            .analyze(p, o, exact_query(Limits::depth(3)))
            .unwrap();
        let b = engine()
            .analyze(o, p, exact_query(Limits::depth(3)))
            .unwrap();
        assert_eq!(a.value, -b.value);
        assert_eq!(a.best_move, None);
        assert_eq!(a.pv[0], Move::Pass);
        assert_eq!(a.pv[1..], b.pv[..]);
        assert_eq!(a.value, discs(negamax(p, o, 3)));
        found += 1;
        if found == 3 {
            break;
        }
    }
    assert_eq!(found, 3);
}

#[test]
fn limits_out_of_range_are_errors() {
    let (p, o) = bitboard8::START;
    let mut e = engine();
    let mut check = |limits: Limits, want: MidgameError| {
        assert_eq!(e.analyze(p, o, limits).unwrap_err(), want);
    };
    check(Limits::default(), MidgameError::NoLimit);
    check(Limits::depth(0), MidgameError::Depth(0));
    check(Limits::depth(61), MidgameError::Depth(61));
    check(Limits::nodes(0), MidgameError::Nodes);
    check(Limits::time(Duration::ZERO), MidgameError::Time);
    assert!(matches!(
        Engine::new(EngineOptions {
            tt_bits: 40,
            solver_tt_bits: 16
        }),
        Err(MidgameError::Table(_))
    ));
}

/// Checks an answer that some limit cut short.
#[track_caller]
fn check_answer(a: &Analysis) {
    assert!(a.depth >= 1);
    assert!(a.best_move.is_some());
    assert!(!a.pv.is_empty());
    assert!(a.value.abs() <= 64.0);
}

#[test]
fn tiny_limits_and_a_raised_stop_flag_still_answer() {
    let (p, o) = random_position(9, 16).unwrap();
    let mut e = engine();
    check_answer(&e.analyze(p, o, Limits::nodes(1)).unwrap());
    check_answer(
        &e.analyze(p, o, Limits::time(Duration::from_nanos(1)))
            .unwrap(),
    );
    // An absurd time with a depth: the depth stops it.
    let a = e
        .analyze(
            p,
            o,
            Limits {
                depth: Some(3),
                time: Some(Duration::MAX),
                nodes: Some(u64::MAX),
            },
        )
        .unwrap();
    assert_eq!(a.depth, 3);
    // A stop flag raised before the call: the first iteration only.
    let stop = Arc::new(AtomicBool::new(true));
    let a = e
        .analyze(p, o, Query::from(Limits::depth(20)).stop(stop))
        .unwrap();
    check_answer(&a);
    assert_eq!(a.depth, 1);
    // A node limit stops a search that would take long (44 empties).
    let a = e.analyze(p, o, Limits::nodes(20_000)).unwrap();
    check_answer(&a);
    assert!(a.nodes < 200_000, "{}", a.nodes);
}

/// A node limit bounds the nodes searched, every thread's and the exact
/// solver's included: near the end (where the leaves of 10 empties are
/// solved, by solves too small to poll) and earlier, on one thread and
/// with a helper. (The leaves' solves once went uncounted: 921,009 nodes
/// for a limit of 10,000 at 16 empties; a helper's nodes too: twice the
/// limit on two threads.)
#[test]
fn a_node_limit_counts_every_node() {
    let mut checked = 0;
    for (seed, plies) in [(500u64, 44usize), (501, 44), (502, 36), (503, 24)] {
        let Some((p, o)) = random_position(seed, plies) else {
            continue;
        };
        if legal_moves(p, o) == 0 {
            continue;
        }
        for threads in [1, 2] {
            for (limit, slack) in [(10_000u64, 20_000u64), (200_000, 50_000)] {
                let mut e = engine().with_threads(threads).unwrap();
                let a = e.analyze(p, o, Limits::nodes(limit)).unwrap();
                check_answer(&a);
                if a.exact && a.nodes < limit {
                    continue;
                }
                assert!(
                    a.nodes <= limit + slack,
                    "seed {seed}, {} empties, {threads} threads: {} nodes for a limit of {limit}",
                    empties(p, o),
                    a.nodes
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "{checked}");
}

#[test]
fn a_stop_flag_interrupts_an_exact_solve() {
    // 26 empties: far too long to solve in a test; the flag is raised
    // from another thread while the search runs.
    let (p, o) = random_position(11, 34).unwrap();
    assert_eq!(empties(p, o), 26);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let a = engine()
        .analyze(p, o, Query::from(Limits::depth(60)).stop(stop))
        .unwrap();
    raiser.join().unwrap();
    check_answer(&a);
    assert!(!a.exact);
}

/// Without a depth limit, the search near the end hands over to the
/// solver's selective endgame searches, then the exact one: an answer that
/// reaches the end of the game is either exact (the solver's score) or a
/// selective one (probcut at 0.2, 0.5, 1 or 2 deviations, a whole number
/// of discs);
/// one that does not is the midgame search's, at the selectivity of
/// searches without a depth limit ([`Selectivity::TIMED`]).
/// Node limits make it repeatable; some answers stop at each stage.
#[test]
fn near_the_end_the_answers_are_selective_then_exact() {
    let (mut selective, mut exact, mut midgame) = (0, 0, 0);
    for seed in 300..306u64 {
        let Some((p, o)) = random_position(seed, if seed % 2 == 0 { 30 } else { 42 }) else {
            continue;
        };
        if legal_moves(p, o) == 0 {
            continue;
        }
        let n = empties(p, o);
        for nodes in [2_000, 30_000, 400_000, 1_500_000] {
            let a = engine().analyze(p, o, Limits::nodes(nodes)).unwrap();
            if a.exact {
                assert_eq!(
                    (a.value, a.depth),
                    (exact_score(p, o) as f32, n),
                    "seed {seed}"
                );
                assert_eq!(a.selectivity, Selectivity::OFF);
                exact += 1;
            } else if a.depth == n {
                assert!(
                    [Some(2), Some(5), Some(10), Some(20)].contains(&a.selectivity.tenths()),
                    "seed {seed}: {:?}",
                    a.selectivity
                );
                assert_eq!(a.value.fract(), 0.0, "seed {seed}");
                assert!(a.value.abs() <= 64.0);
                selective += 1;
            } else {
                assert!(a.depth < n);
                assert_eq!(a.selectivity, Selectivity::TIMED);
                midgame += 1;
            }
        }
    }
    assert!(
        selective > 0 && exact > 0 && midgame > 0,
        "selective {selective}, exact {exact}, midgame {midgame}"
    );
}

/// Several threads search the same depth on the shared table: without
/// selectivity their value is the one thread's (a plain negamax's at small
/// depths, checked too); with it, and with a time limit, an answer of the
/// same kind comes back.
#[test]
fn several_threads_give_the_one_threads_value() {
    let mut checked = 0;
    for seed in 400..411u64 {
        let Some((p, o)) = random_position(seed, 14 + (seed as usize * 5) % 24) else {
            continue;
        };
        if legal_moves(p, o) == 0 {
            continue;
        }
        let depth = 5 + (seed as u32 % 4);
        let one = engine()
            .analyze(p, o, exact_query(Limits::depth(depth)))
            .unwrap();
        for threads in [2, 3] {
            let mut e = engine().with_threads(threads).unwrap();
            let many = e.analyze(p, o, exact_query(Limits::depth(depth))).unwrap();
            assert_eq!(
                many.value, one.value,
                "seed {seed} depth {depth} threads {threads}"
            );
            assert_eq!(many.depth, depth);
            // The best move found reaches the value.
            let (cp, co) = child(p, o, many.best_move.unwrap());
            let after = engine()
                .analyze(cp, co, exact_query(Limits::depth(depth - 1)))
                .unwrap();
            assert_eq!(-after.value, one.value, "seed {seed} threads {threads}");
            let timed = e.analyze(p, o, Limits::time_ms(20)).unwrap();
            assert!(timed.best_move.is_some() && timed.depth >= 1);
        }
        if depth <= 6 {
            assert_eq!(one.value, discs(negamax(p, o, depth)), "seed {seed}");
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}
