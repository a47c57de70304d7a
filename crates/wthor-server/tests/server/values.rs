//! The explorer's values (issue 37): a row for every legal move, each
//! valued as othello-core's solver (20 empties or fewer, or `solve=1` up to
//! the cap) or a midgame engine of the server's options searching it
//! afresh at the server's depth (above) values it, the best rows marked,
//! a second request from the cache, a search stopped by the time said,
//! positions without a move answered.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use othello_core::midgame::{Engine, Limits, Query};
use othello_core::position::{AnyBoard, forced_pass};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Size, Square};
use serde_json::Value;
use wthor_db::index::IndexChoice;
use wthor_server::api::VALUES_HEADER;
use wthor_server::values::{ENGINE_OPTIONS, ESTIMATE_DEPTH, EXACT_EMPTIES, SELECTIVITY};
use wthor_server::{AppState, Config};

use crate::{Answer, get, ok_json, send, testdata};

/// The board of the side that plays next in an explorer answer (its
/// `obf`, the pass played when forced).
fn next_board(v: &Value) -> Board8 {
    let obf = v["obf"].as_str().unwrap();
    let b = *AnyBoard::from_obf(obf).unwrap().as_eight().unwrap();
    forced_pass(&b).unwrap_or(b)
}

fn name(x: u8) -> String {
    Square::new_unchecked(x).name(Size::Eight).to_string()
}

/// The rows by move: value, depth, best, exact, games.
fn rows(v: &Value) -> BTreeMap<String, &Value> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["move"].as_str().unwrap().to_owned(), r))
        .collect()
}

/// Every legal move's value by the exact solver.
fn solved(b: &Board8) -> BTreeMap<String, f64> {
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 20,
    });
    solver
        .move_scores(b.player(), b.opponent())
        .into_iter()
        .map(|(x, score)| (name(x), f64::from(score)))
        .collect()
}

/// Every legal move's value by a new engine of the server's options at
/// `depth` plies, as the server searches.
fn estimated(b: &Board8, depth: u32) -> BTreeMap<String, f64> {
    let mut engine = Engine::new(ENGINE_OPTIONS).unwrap();
    let query = Query::from(Limits::depth(depth))
        .all_moves()
        .selectivity(SELECTIVITY);
    let a = engine.analyze(b.player(), b.opponent(), query).unwrap();
    assert!(!a.exact && a.depth == depth, "{a:?}");
    a.moves
        .iter()
        .map(|m| (name(m.square), f64::from(m.value)))
        .collect()
}

/// The legal moves of `b`, named, in name order.
fn legal(b: &Board8) -> Vec<String> {
    let moves = b.legal_moves();
    let mut names: Vec<String> = (0..64u8)
        .filter(|&x| moves >> x & 1 == 1)
        .map(name)
        .collect();
    names.sort();
    names
}

/// Each row's value is `want`'s; the rows are the legal moves (a position
/// without symmetry); the rows of the best value, and they alone, marked.
#[track_caller]
fn check_values(v: &Value, want: &BTreeMap<String, f64>, uri: &str) {
    let rows = rows(v);
    assert_eq!(
        rows.keys().collect::<Vec<_>>(),
        want.keys().collect::<Vec<_>>(),
        "{uri}: the rows are the legal moves"
    );
    let best = want.values().copied().fold(f64::NEG_INFINITY, f64::max);
    for (m, row) in &rows {
        assert_eq!(row["value"].as_f64(), Some(want[m]), "{uri}: {m}");
        assert_eq!(row["best"], want[m] == best, "{uri}: {m} best");
    }
    assert!(rows.values().any(|r| r["best"] == true), "{uri}");
}

/// The moves of a fixture game, as the API gives them.
async fn game_moves(id: &str) -> Vec<String> {
    let game = ok_json(get(&format!("/api/v1/games/{id}")).await, id);
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect()
}

/// A position no fixture game reaches: a seeded random game of
/// othello-core's after `plies`, as OBF (for `position=`).
fn unplayed_position(seed: u64, plies: usize) -> String {
    let mut b = Board8::start();
    for (_, m) in othello_core::random::game::<Board8>(seed, plies) {
        b = b.play(m).unwrap();
    }
    AnyBoard::Eight(b).to_obf().replace(' ', "+")
}

#[tokio::test]
async fn above_20_empties_every_legal_move_is_estimated_as_a_search_of_the_same_depth() {
    let cases = [
        // Played moves only.
        "/api/v1/explorer?play=f5d6c3d3c4&games=0".to_owned(),
        // Played moves and moves nobody played with these filters.
        "/api/v1/explorer?play=f5d6c3d3c4f4&player=nakamura&games=0".to_owned(),
        // No game reaches it: every row without games.
        format!(
            "/api/v1/explorer?position={}&games=0",
            unplayed_position(7, 30)
        ),
    ];
    let mut unplayed = 0;
    for uri in &cases {
        let v = ok_json(get(uri).await, uri);
        let b = next_board(&v);
        assert!(b.empty_count() > EXACT_EMPTIES, "{uri}");
        assert_eq!(
            othello_core::symmetry::stabilizer(&b).len(),
            1,
            "{uri}: a position without symmetry"
        );
        let want = estimated(&b, ESTIMATE_DEPTH);
        assert_eq!(want.keys().cloned().collect::<Vec<_>>(), legal(&b), "{uri}");
        check_values(&v, &want, uri);
        for row in rows(&v).values() {
            assert_eq!(row["depth"], ESTIMATE_DEPTH, "{uri}");
            assert!(row["exact"].is_null(), "{uri}");
            if row["games"] == 0 {
                unplayed += 1;
                assert_eq!(row["share"], 0.0, "{uri}");
            }
        }
        assert_eq!(
            v["values"],
            serde_json::json!({"exact": false, "depth": ESTIMATE_DEPTH, "complete": true, "note": null}),
            "{uri}"
        );
        assert!(v["solved"].is_null(), "{uri}");
    }
    assert!(unplayed > 0, "rows without games");
    let v = ok_json(get(&cases[2]).await, &cases[2]);
    assert_eq!(v["reached"], 0);
}

#[tokio::test]
async fn at_20_empties_or_fewer_the_values_are_the_solvers() {
    // A game of the 2003 file whose positions solve quickly (random games'
    // take seconds at 20 empties; 12: the estimate's depth reaches the end).
    let moves = game_moves("2003:18").await;
    for empties in [20, 12, 21] {
        let play = moves[..60 - empties].concat();
        for solve in ["", "&solve=1"] {
            let uri = format!("/api/v1/explorer?play={play}{solve}&games=0");
            let v = ok_json(get(&uri).await, &uri);
            let b = next_board(&v);
            assert_eq!(b.empty_count() as usize, empties, "{uri}");
            let exact = empties <= EXACT_EMPTIES as usize || !solve.is_empty();
            if exact {
                let want = solved(&b);
                check_values(&v, &want, &uri);
                for (m, row) in rows(&v) {
                    assert_eq!(row["exact"].as_f64(), Some(want[&m]), "{uri}: {m}");
                    assert!(row["depth"].is_null(), "{uri}: {m}");
                }
                assert_eq!(v["solved"], true, "{uri}");
                assert_eq!(v["values"]["exact"], true, "{uri}");
                assert_eq!(v["values"]["depth"], empties, "{uri}");
            } else {
                // Past 20 without solve=1: estimates.
                check_values(&v, &estimated(&b, ESTIMATE_DEPTH), &uri);
                assert!(v["solved"].is_null(), "{uri}");
                assert_eq!(v["values"]["exact"], false, "{uri}");
            }
        }
    }
}

#[tokio::test]
async fn a_second_request_is_served_from_the_cache() {
    let obf = unplayed_position(11, 28);
    let uri = format!("/api/v1/explorer?position={obf}&games=0");
    let first = send(crate::app(), "GET", &uri, &[]).await;
    let header = |a: &Answer| a.headers[VALUES_HEADER].to_str().unwrap().to_owned();
    assert_eq!(header(&first), "searched");
    let first = ok_json(first, &uri);
    // The same query: the answers' cache.
    let again = send(crate::app(), "GET", &uri, &[]).await;
    assert_eq!(header(&again), "cached");
    assert_eq!(ok_json(again, &uri), first);
    // Another query of the same position: the values' cache.
    let other = format!("{uri}&year=2001");
    let answer = send(crate::app(), "GET", &other, &[]).await;
    assert_eq!(header(&answer), "cached");
    let answer = ok_json(answer, &other);
    assert_eq!(answer["moves"], first["moves"]);
    assert_eq!(answer["values"], first["values"]);
}

#[tokio::test]
async fn concurrent_requests_for_a_position_search_it_once() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, Config::default()).0);
    let position = unplayed_position(13, 26);
    // Two queries of the same position (not the same answer).
    let uris = ["0", "1"].map(|n| format!("/api/v1/explorer?position={position}&games={n}"));
    let (a, b) = tokio::join!(
        send(
            wthor_server::router(Arc::clone(&state)),
            "GET",
            &uris[0],
            &[]
        ),
        send(
            wthor_server::router(Arc::clone(&state)),
            "GET",
            &uris[1],
            &[]
        ),
    );
    let mut sources = [&a, &b].map(|a| a.headers[VALUES_HEADER].to_str().unwrap().to_owned());
    sources.sort();
    assert_eq!(sources, ["cached", "searched"]);
    assert_eq!(a.json()["moves"], b.json()["moves"]);
}

#[tokio::test]
async fn a_search_stopped_by_the_time_is_its_deepest_iteration_said_and_not_kept() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        value_time: Duration::from_millis(1),
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let uri = format!(
        "/api/v1/explorer?position={}&games=0",
        unplayed_position(5, 20)
    );
    for _ in 0..2 {
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", &uri, &[]).await;
        // Not kept: searched each time.
        assert_eq!(a.headers[VALUES_HEADER], "searched");
        let v = ok_json(a, &uri);
        let values = &v["values"];
        let depth = values["depth"].as_u64().unwrap() as u32;
        assert!((1..ESTIMATE_DEPTH).contains(&depth), "{v}");
        assert_eq!(values["complete"], false);
        assert_eq!(values["exact"], false);
        let note = values["note"].as_str().unwrap();
        assert!(
            note.contains(&format!("at depth {depth} of {ESTIMATE_DEPTH}")),
            "{note}"
        );
        // The values of a search of that depth.
        check_values(&v, &estimated(&next_board(&v), depth), &uri);
        assert!(rows(&v).values().all(|r| r["depth"] == depth));
    }
}

/// An engine that cannot be had (its table configured past what the
/// library takes): the explorer still answers, its games and rows without
/// values, and the note says why; nothing is kept.
#[tokio::test]
async fn an_engine_that_cannot_be_had_leaves_the_rows_without_values() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        engine: othello_core::midgame::EngineOptions {
            tt_bits: 40,
            ..ENGINE_OPTIONS
        },
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let uri = "/api/v1/explorer?play=f5d6";
    for _ in 0..2 {
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
        let v = ok_json(a, uri);
        let values = &v["values"];
        assert_eq!(values["complete"], false, "{v}");
        let note = values["note"].as_str().unwrap();
        assert!(note.starts_with("no values: "), "{note}");
        assert!(note.contains("40"), "{note}");
        let rows = rows(&v);
        assert!(rows.len() >= 3, "{v}");
        assert!(rows.values().all(|r| r["value"].is_null()), "{v}");
        assert!(rows.values().any(|r| r["games"].as_u64() > Some(0)), "{v}");
    }
}

#[tokio::test]
async fn positions_without_a_move_answer() {
    // A pass in 2001:22: the rows and values are the other side's.
    let moves = game_moves("2001:22").await;
    let ply = (0..moves.len())
        .find(|&n| {
            let b = AnyBoard::after_transcript(&moves[..n].concat(), Size::Eight).unwrap();
            b.as_eight().unwrap().must_pass()
        })
        .expect("2001:22 has a pass");
    let play = moves[..ply].concat();
    for solve in ["", "&solve=1"] {
        let uri = format!("/api/v1/explorer?play={play}{solve}&games=0");
        let v = ok_json(get(&uri).await, &uri);
        let b = next_board(&v);
        let mut shown: Vec<String> =
            serde_json::from_value(v["position"]["legalMoves"].clone()).unwrap();
        shown.sort();
        assert_eq!(shown, legal(&b), "{uri}");
        if v["values"]["exact"] == true {
            check_values(&v, &solved(&b), &uri);
        } else {
            check_values(&v, &estimated(&b, ESTIMATE_DEPTH), &uri);
        }
        assert_eq!(v["values"]["complete"], true, "{uri}");
    }
    // The end of 2001:2, empty squares left: no row, no value.
    let moves = game_moves("2001:2").await;
    for (solve, solved) in [
        ("", Value::Null),
        (
            "&solve=1",
            "not solved: the game is over (no legal move)".into(),
        ),
    ] {
        let uri = format!("/api/v1/explorer?play={}{solve}&games=0", moves.concat());
        let a = get(&uri).await;
        assert_eq!(a.headers[VALUES_HEADER], "none");
        let v = ok_json(a, &uri);
        assert!(v["position"]["toMove"].is_null(), "{v}");
        assert!(v["position"]["empties"].as_u64().unwrap() > 0);
        assert_eq!(v["moves"], serde_json::json!([]));
        assert!(v["values"].is_null());
        assert_eq!(v["solved"], solved, "{uri}");
    }
    // 10x10: no evaluation, rows without values; solve=1 near the end
    // says why not.
    let mut b = othello_core::Board10::start();
    for (_, m) in othello_core::random::game::<othello_core::Board10>(3, 76) {
        b = b.play(m).unwrap();
    }
    assert!(b.empty_count() <= 22 && !b.is_game_over());
    let obf = AnyBoard::Ten(b).to_obf().replace(' ', "+");
    for (solve, solved) in [
        ("", Value::Null),
        (
            "&solve=1",
            "not solved: the exact solver is 8x8 only".into(),
        ),
    ] {
        let uri = format!("/api/v1/explorer?size=10&position={obf}{solve}&games=0");
        let a = get(&uri).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text());
        assert_eq!(a.headers[VALUES_HEADER], "none");
        let v = a.json();
        assert!(v["values"].is_null());
        assert_eq!(v["solved"], solved);
        let rows = v["moves"].as_array().unwrap();
        assert!(!rows.is_empty());
        assert!(
            rows.iter()
                .all(|r| r["value"].is_null() && r["best"] == false && r["games"] == 0)
        );
    }
}

/// Concurrent requests of one query: one computes the answer, the others
/// wait for it and get it (the answers' cache, single flight).
#[tokio::test]
async fn concurrent_requests_of_a_query_compute_it_once() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, Config::default()).0);
    let uri = format!(
        "/api/v1/explorer?position={}&games=2",
        unplayed_position(17, 24)
    );
    let ask = || send(wthor_server::router(Arc::clone(&state)), "GET", &uri, &[]);
    let (a, b, c) = tokio::join!(ask(), ask(), ask());
    let mut sources = [&a, &b, &c].map(|a| a.headers[VALUES_HEADER].to_str().unwrap().to_owned());
    sources.sort();
    assert_eq!(sources, ["cached", "cached", "searched"]);
    assert_eq!(a.body, b.body);
    assert_eq!(a.body, c.body);
}

/// An explicit solve's values get the whole time cap, not the values'
/// time: with no time for the values (1 ns) but a time cap, a position
/// of 22 empties (past the default exact part) is solved, every move's
/// value the solver's; without `solve=1`, the same position gets the
/// values' time, and only the first iteration of the estimate.
#[tokio::test]
async fn an_explicit_solve_gets_the_whole_time_cap() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        value_time: Duration::from_nanos(1),
        time_cap: Duration::from_secs(600),
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    // A fixture position of 22 empties quick to solve (a few thousand
    // nodes); no pass before it.
    let moves = game_moves("2004:7").await;
    let play = moves[..38].concat();
    // Without it, the values' time: the estimate's first iteration (not
    // kept).
    let uri = format!("/api/v1/explorer?play={play}&games=0");
    let a = send(wthor_server::router(Arc::clone(&state)), "GET", &uri, &[]).await;
    let v = ok_json(a, &uri);
    assert_eq!(v["position"]["empties"], 22, "{uri}");
    assert_eq!(v["values"]["complete"], false, "{v}");
    assert!(v["solved"].is_null(), "{v}");
    let uri = format!("/api/v1/explorer?play={play}&solve=1&games=0");
    let a = send(wthor_server::router(Arc::clone(&state)), "GET", &uri, &[]).await;
    let v = ok_json(a, &uri);
    assert_eq!(v["solved"], true, "{v}");
    assert_eq!(v["values"]["exact"], true, "{v}");
    check_values(&v, &solved(&next_board(&v)), &uri);
}
