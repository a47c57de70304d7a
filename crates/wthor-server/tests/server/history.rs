//! `/api/v1/history` and the game's novelty (issue 40): the history's
//! rows add up to the explorer's counts for the same position and
//! filters; a position no game reaches, a 10x10 position and year ranges
//! outside the database or empty; `novelty=1` is the library's.

use std::path::PathBuf;
use std::sync::Arc;

use axum::http::StatusCode;
use serde_json::Value;
use wthor_db::index::IndexChoice;
use wthor_db::novelty::Departure;
use wthor_server::AppState;

use super::{config, copy_of_testdata, get, ok_json, send, testdata};

/// The history of `query` and the explorer's answer for the same query.
async fn both(query: &str) -> (Value, Value) {
    let h = ok_json(
        get(&format!("/api/v1/history?{query}")).await,
        &format!("history?{query}"),
    );
    let e = ok_json(
        get(&format!("/api/v1/explorer?{query}&games=0")).await,
        &format!("explorer?{query}"),
    );
    (h, e)
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The history's years add up to the explorer's totals and rows, its
/// moves are the explorer's played rows, and its first and latest games
/// are the years' first and last with games.
#[track_caller]
fn check_sums(query: &str, h: &Value, e: &Value) {
    let years = h["years"].as_array().unwrap();
    let sum = |key: &str| years.iter().map(|y| n(&y[key])).sum::<u64>();
    assert_eq!(n(&h["reached"]), n(&e["reached"]), "{query}");
    assert_eq!(sum("games"), n(&e["reached"]), "{query}");
    for key in ["games", "blackWins", "draws", "blackLosses"] {
        assert_eq!(sum(key), n(&e["totals"][key]), "{query}: {key}");
    }
    // Each year: in order, its moves at most its games.
    for pair in years.windows(2) {
        assert_eq!(n(&pair[1]["year"]), n(&pair[0]["year"]) + 1, "{query}");
    }
    for y in years {
        let went: u64 = y["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| n(&m["games"]))
            .sum();
        assert!(went <= n(&y["games"]), "{query}: {y}");
    }
    let played: Vec<&Value> = e["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| n(&r["games"]) > 0)
        .collect();
    let moves = h["moves"].as_array().unwrap();
    assert_eq!(moves.len(), played.len(), "{query}");
    for row in played {
        let name = row["move"].as_str().unwrap();
        let by_year: u64 = years
            .iter()
            .flat_map(|y| y["moves"].as_array().unwrap())
            .filter(|m| m["move"] == name)
            .map(|m| n(&m["games"]))
            .sum();
        assert_eq!(by_year, n(&row["games"]), "{query}: {name} by year");
        for key in ["blackWins", "draws", "blackLosses"] {
            let sum: u64 = years
                .iter()
                .flat_map(|y| y["moves"].as_array().unwrap())
                .filter(|m| m["move"] == name)
                .map(|m| n(&m[key]))
                .sum();
            assert_eq!(sum, n(&row[key]), "{query}: {name} {key}");
        }
        let m = moves.iter().find(|m| m["move"] == name).unwrap();
        assert_eq!(n(&m["games"]), n(&row["games"]), "{query}: {name}");
        // Its first game is of the first year that played it, its latest
        // of the last.
        let years_played: Vec<u64> = years
            .iter()
            .filter(|y| {
                y["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|m| m["move"] == name)
            })
            .map(|y| n(&y["year"]))
            .collect();
        assert_eq!(n(&m["first"]["year"]), years_played[0], "{query}: {name}");
        assert_eq!(
            n(&m["latest"]["year"]),
            *years_played.last().unwrap(),
            "{query}: {name}"
        );
    }
    let with_games: Vec<u64> = years
        .iter()
        .filter(|y| n(&y["games"]) > 0)
        .map(|y| n(&y["year"]))
        .collect();
    match with_games.first() {
        Some(&first) => {
            assert_eq!(n(&h["first"]["year"]), first, "{query}");
            assert_eq!(
                n(&h["latest"]["year"]),
                *with_games.last().unwrap(),
                "{query}"
            );
        }
        None => {
            assert!(h["first"].is_null() && h["latest"].is_null(), "{query}");
        }
    }
    assert!(
        h["firstMeans"].as_str().unwrap().contains("no dates"),
        "{query}"
    );
}

#[tokio::test]
async fn history_rows_sum_to_the_explorer_s_counts() {
    for query in [
        "",
        "play=f5d6",
        "play=f5d6c3",
        "play=f5d6c3&year=2003..2005",
        "play=f5f6&player=nakamura",
        "play=f5d6c3d3c4&result=black",
        "play=f5d6c3d3c4f4f6f3e6e7d7g6",
        "play=e6f4&human=true",
        "position=---------------------------OX------XO---------------------------%20X&play=f5d6",
    ] {
        let (h, e) = both(query).await;
        check_sums(query, &h, &e);
    }
}

#[tokio::test]
async fn the_first_game_of_a_position_is_the_earliest_by_year_and_file_order() {
    let h = ok_json(get("/api/v1/history?play=f5d6").await, "f5d6");
    // The games reaching it, oldest first: the library's search, read in
    // database order (year, then file order).
    let s = ok_json(
        get("/api/v1/search?position_after=f5d6&sort=year&limit=500").await,
        "search",
    );
    let first = &s["games"][0];
    assert_eq!(h["first"]["game"], first["game"], "{first}");
}

#[tokio::test]
async fn a_position_no_game_reaches_answers_plainly() {
    // f5d6c3d3c4f4c5 ... : a legal line no fixture game plays.
    let query = "play=f5f6e6f4g6c5f3g5d3e3";
    let (h, e) = both(query).await;
    assert_eq!(n(&e["reached"]), 0, "the fixtures do not play {query}");
    check_sums(query, &h, &e);
    assert!(h["moves"].as_array().unwrap().is_empty());
    assert!(!h["years"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn ten_by_ten_histories_work() {
    for query in ["size=10", "size=10&play=d5", "size=10&play=d5d4&year=2002"] {
        let (h, e) = both(query).await;
        assert!(h["obf"].as_str().unwrap().len() > 100, "{query}: {h}");
        check_sums(query, &h, &e);
    }
    let (h, _) = both("size=10").await;
    // The 10x10 files' years only, and their games.
    assert_eq!(n(&h["years"][0]["year"]), 2001);
    assert_eq!(n(&h["reached"]), 22);
}

#[tokio::test]
async fn year_ranges_outside_or_empty() {
    // Outside the database's years: every year 0, no game.
    let (h, e) = both("play=f5d6&year=1990..1995").await;
    check_sums("1990..1995", &h, &e);
    assert_eq!(n(&h["reached"]), 0);
    // An empty range: the filter's 400, naming the key.
    let a = get("/api/v1/history?play=f5d6&year=2005..2001").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let msg = a.json()["error"].as_str().unwrap().to_owned();
    assert!(msg.starts_with("year: empty range"), "{msg}");
    // What the history does not take is named.
    for (uri, key) in [
        ("/api/v1/history?limit=3", "limit"),
        ("/api/v1/history?games=3", "games"),
        ("/api/v1/history?play=f5f5", "play"),
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        let msg = a.json()["error"].as_str().unwrap().to_owned();
        assert!(msg.contains(key), "{uri}: {msg}");
    }
}

/// A server over a copy of the fixtures (in a folder of its own under the
/// tests' build folder) with a game in known play, which the database of
/// the fixtures does not hold: `testdata/known-play/WTH_2009.wtb` (see
/// `testdata/README.md`) beside them.
fn fixtures_and_a_game_in_known_play() -> (Arc<AppState>, PathBuf) {
    let dir = copy_of_testdata(&format!("known-play-{}", std::process::id()));
    std::fs::copy(
        testdata().join("known-play/WTH_2009.wtb"),
        dir.join("WTH_2009.wtb"),
    )
    .unwrap();
    let db = wthor_db::Database::open(&dir)
        .unwrap()
        .with_ratings_file(dir.join("ratings.json"));
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config()).0);
    (state, dir)
}

#[tokio::test]
async fn a_game_s_novelty_is_the_library_s() {
    let (db, dir) = fixtures_and_a_game_in_known_play();
    let all = db.database().novelties(&wthor_db::Query::new()).unwrap();
    // A novelty, a copy, a game in known play (2009:0) and one of the
    // first year.
    let mut kinds = std::collections::HashSet::new();
    for row in &all {
        if !kinds.insert(std::mem::discriminant(&row.departure)) {
            continue;
        }
        let id = db.database().game_name(row.game).to_string();
        let uri = format!("/api/v1/games/{id}?novelty=1");
        let v = ok_json(
            send(wthor_server::router(Arc::clone(&db)), "GET", &uri, &[]).await,
            &uri,
        );
        let nv = &v["novelty"];
        let kind = match row.departure {
            Departure::Novelty {
                ply,
                before,
                same_year,
            } => {
                assert_eq!(n(&nv["move"]), ply as u64, "{uri}");
                assert_eq!(nv["square"], v["moves"][ply - 1], "{uri}");
                assert_eq!(n(&nv["before"]), before, "{uri}");
                assert_eq!(nv["sameYear"], same_year, "{uri}");
                // The move's value: the library's search, repeated.
                let value = db.database().novelty_value(row).unwrap().unwrap();
                assert_eq!(nv["value"].as_i64(), value.value.map(i64::from), "{uri}");
                assert_eq!(nv["loss"].as_i64(), Some(i64::from(value.loss)), "{uri}");
                assert_eq!(nv["exact"], value.exact, "{uri}");
                assert_eq!(nv["valueDepth"].as_u64(), value.depth.map(u64::from));
                "novelty"
            }
            _ => {
                for key in ["value", "loss", "exact", "valueDepth"] {
                    assert!(nv[key].is_null(), "{uri}: {key}");
                }
                match row.departure {
                    Departure::InKnownPlay => "known",
                    Departure::Copy => "copy",
                    _ => "firstYear",
                }
            }
        };
        assert_eq!(nv["kind"], kind, "{uri}");
        assert_eq!(n(&nv["followed"]), row.followed, "{uri}");
        assert_eq!(
            nv["uniqueFrom"].as_u64(),
            row.unique_from.map(|u| u as u64),
            "{uri}"
        );
    }
    assert_eq!(kinds.len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
    // Opt-in; none for a 10x10 game.
    let plain = ok_json(get("/api/v1/games/2005:3").await, "plain");
    assert!(plain.get("novelty").is_none());
    let ten = ok_json(get("/api/v1/games/WTH_2001.wtd:0?novelty=1").await, "10x10");
    assert_eq!(ten["boardSize"], 10);
    assert!(ten.get("novelty").is_none());
}

/// With the analysis asked too, the novelty move's value and loss are the
/// analysis's judgement of that move (one value for the move on the game
/// page, not two searches of other depths).
#[tokio::test]
async fn with_the_analysis_the_novelty_s_value_is_the_analysis_s() {
    let uri = "/api/v1/games/2005:3?novelty=1&analysis=1";
    let v = ok_json(get(uri).await, uri);
    let nv = &v["novelty"];
    assert_eq!(nv["kind"], "novelty", "{uri}");
    let ply = n(&nv["move"]);
    let moves = v["analysis"]["moves"].as_array().unwrap();
    let judged = moves
        .iter()
        .find(|m| n(&m["index"]) + 1 == ply)
        .unwrap_or_else(|| panic!("{uri}: move {ply} not judged"));
    assert_eq!(nv["value"], judged["played"], "{uri}");
    assert_eq!(nv["loss"], judged["loss"], "{uri}");
    assert_eq!(nv["exact"], judged["exact"], "{uri}");
    assert_eq!(nv["valueDepth"], judged["depth"], "{uri}");
}

/// The explorer's games are the latest first, the history's order
/// reversed: the newest year first, within a year the last in file order
/// first; the first of them is the history's `latest`.
#[tokio::test]
async fn the_explorer_s_games_are_the_latest_first() {
    let start = "position=---------------------------OX------XO---------------------------%20X";
    for (query, search) in [
        ("", start),
        ("play=f5d6c3", "position_after=f5d6c3"),
        (
            "play=f5d6c3&year=2003..2005",
            "position_after=f5d6c3&year=2003..2005",
        ),
        (
            "play=f5d6c3d3c4&player=nakamura",
            "position_after=f5d6c3d3c4&player=nakamura",
        ),
    ] {
        let h = ok_json(get(&format!("/api/v1/history?{query}")).await, query);
        let e = ok_json(
            get(&format!("/api/v1/explorer?{query}&games=100")).await,
            query,
        );
        let listed = names(&e["games"]);
        assert!(!listed.is_empty(), "{query}");
        assert_eq!(listed[0], h["latest"]["game"].as_str().unwrap(), "{query}");
        // The games reaching the position, oldest first (the library's
        // sort by year keeps file order within a year): its last page,
        // newest last.
        let total = n(&ok_json(
            get(&format!("/api/v1/search?{search}&limit=1")).await,
            search,
        )["total"]);
        let from = total.saturating_sub(500);
        let tail = ok_json(
            get(&format!(
                "/api/v1/search?{search}&sort=year&limit=500&offset={from}"
            ))
            .await,
            search,
        );
        let latest: Vec<String> = names(&tail["games"])
            .into_iter()
            .rev()
            .take(listed.len())
            .collect();
        assert_eq!(listed, latest, "{query}");
    }
}

fn names(games: &Value) -> Vec<String> {
    games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_str().unwrap().to_owned())
        .collect()
}
