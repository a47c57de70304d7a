//! The ratings on the pages (issue 39): the player page's rating history,
//! opponents' ratings and endgame accuracy from analysis logs, the ratings
//! list of a year, the preparation report; each against the library.

use std::sync::Arc;

use axum::http::StatusCode;
use othello_core::Color;
use serde_json::{Value, json};
use wthor_db::index::IndexChoice;
use wthor_db::report::ReportOptions;
use wthor_db::verify::RecordKey;
use wthor_db::{GameId, Query};
use wthor_server::{AppState, Config};

use crate::{get, ok_json, send, state, testdata};

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// A rating or deviation as the API gives it: to a hundredth (as the docs
/// show them, `1632.53`).
fn hundredth(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[tokio::test]
async fn the_player_page_has_the_rating_history_and_the_opponents_ratings() {
    let st = state();
    let ratings = st.database().filter_ratings();
    let uri = "/api/v1/players/Takuji%20Nakamura";
    let v = ok_json(get(uri).await, uri);
    let r = &v["ratings"];
    let want = ratings.named("Takuji Nakamura").unwrap();
    let years = r["years"].as_array().unwrap();
    assert_eq!(years.len(), want.years.len());
    for (got, w) in years.iter().zip(&want.years) {
        assert_eq!(got["year"], w.year);
        assert_eq!(f(&got["rating"]), hundredth(w.rating));
        assert_eq!(f(&got["sd"]), hundredth(w.sd));
        assert_eq!(got["games"], w.games);
        assert_eq!(got["rank"], json!(w.rank));
    }
    // The fixture's declining player: his rating falls year after year,
    // his peak is his first year.
    let first = f(&years[0]["rating"]);
    let last = f(&years[years.len() - 1]["rating"]);
    assert!(last < first - 80.0, "{first} → {last}");
    assert_eq!(r["peak"]["year"], 2003);
    assert_eq!(r["program"], false);
    // Each opponent's rating is theirs in the last year the two met.
    for o in v["opponents"].as_array().unwrap() {
        let name = o["name"].as_str().unwrap();
        let met = o["lastMet"].as_u64().unwrap() as u16;
        let rating = ratings.named(name).and_then(|p| p.rating_in(met));
        match rating {
            Some(want) => assert!((f(&o["rating"]) - want).abs() <= 0.05, "{name}"),
            None => assert!(o["rating"].is_null(), "{name}"),
        }
    }
    // Without analysis logs: no accuracy (null, not an empty list).
    assert!(v["accuracy"].is_null());
    // A program is flagged.
    let uri = "/api/v1/players/Zebra%20(andersson)";
    let v = ok_json(get(uri).await, uri);
    assert_eq!(v["ratings"]["program"], true);
}

#[tokio::test]
async fn the_ratings_list_of_a_year() {
    let st = state();
    let ratings = st.database().filter_ratings();
    // Without a year: the last; top cuts the list, rated counts it all.
    let uri = "/api/v1/ratings?top=5";
    let v = ok_json(get(uri).await, uri);
    assert_eq!(v["year"], 2008);
    assert_eq!(
        v["years"],
        json!([2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008])
    );
    let want = ratings.year(2008);
    assert_eq!(v["rated"].as_u64().unwrap() as usize, want.len());
    let players = v["players"].as_array().unwrap();
    assert_eq!(players.len(), 5);
    for (i, (p, w)) in players.iter().zip(&want).enumerate() {
        assert_eq!(p["name"], w.player.name.as_str());
        assert_eq!(p["rank"], json!(i + 1));
        assert_eq!(f(&p["rating"]), hundredth(w.at.rating));
        assert_eq!(f(&p["sd"]), hundredth(w.at.sd));
        assert_eq!(p["program"], w.player.program);
    }
    // Ranked in rating order.
    let r: Vec<f64> = players.iter().map(|p| f(&p["rating"])).collect();
    assert!(r.windows(2).all(|w| w[0] >= w[1]), "{r:?}");
    // The newcomer of 2006 is in 2006's list and not in 2005's; the
    // retiree of 2005 the other way round.
    let names = |v: &Value| -> Vec<String> {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let y2005 = ok_json(get("/api/v1/ratings?year=2005&top=100").await, "2005");
    let y2006 = ok_json(get("/api/v1/ratings?year=2006&top=100").await, "2006");
    assert!(!names(&y2005).contains(&"Léa Fontaine".to_owned()));
    assert!(names(&y2006).contains(&"Léa Fontaine".to_owned()));
    assert!(names(&y2005).contains(&"Élodie Marchand".to_owned()));
    assert!(!names(&y2006).contains(&"Élodie Marchand".to_owned()));
    // Bad input: a year without rated games, not a year, too many.
    let a = get("/api/v1/ratings?year=1999").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(
        a.text()
            .contains("no rated games in 1999: the rated years are 2001–2008"),
        "{}",
        a.text()
    );
    let a = get("/api/v1/ratings?year=next").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.text().contains("year"), "{}", a.text());
    let a = get("/api/v1/ratings?top=5000").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.text().contains("top: at most 1000"), "{}", a.text());
}

#[tokio::test]
async fn the_report_is_the_library_s_with_the_player_found_by_part_of_the_name() {
    let st = state();
    let db = st.database();
    let uri = "/api/v1/report/player/nakamura?as=white&since=2005";
    let v = ok_json(get(uri).await, uri);
    let mut options = ReportOptions::new(Color::White);
    options.since = Some(2005);
    let want = db
        .player_report("Takuji Nakamura", &options, Some(db.filter_ratings()))
        .unwrap();
    let want = serde_json::to_value(&want).unwrap();
    // The report's keys are the library's, with the rating and no
    // mistakes (no logs).
    let mut got = v.clone();
    let obj = got.as_object_mut().unwrap();
    assert_eq!(obj.remove("program"), Some(json!(false)));
    assert_eq!(obj.remove("mistakes"), Some(Value::Null));
    let rating = obj.remove("rating").unwrap();
    assert_eq!(rating["year"], 2008);
    let last = db
        .filter_ratings()
        .named("Takuji Nakamura")
        .and_then(|p| p.years.last())
        .unwrap();
    assert_eq!(f(&rating["rating"]), hundredth(last.rating));
    assert_eq!(got, want);
    // Its games: those of wthor search with the same filters (8x8 only).
    let games = db
        .searcher(IndexChoice::Never)
        .search(
            &Query::new()
                .white("Takuji Nakamura")
                .exact(true)
                .years(Some(2005), None),
        )
        .unwrap()
        .value
        .len();
    assert_eq!(
        v["tree"]["player"]["games"].as_u64().unwrap() as usize,
        games
    );
    // Bad input: a name nobody has (the closest named), a colour, a year,
    // no game in those years.
    let a = get("/api/v1/report/player/Takuji%20Nakamurx").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(
        a.text().contains("the closest names: Takuji Nakamura"),
        "{}",
        a.text()
    );
    let a = get("/api/v1/report/player/nakamura?as=red").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.text().contains("as:"), "{}", a.text());
    let a = get("/api/v1/report/player/nakamura?since=soon").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    let a = get("/api/v1/report/player/nakamura?since=2100").await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert!(
        a.text().contains("has no 8x8 game with black since 2100"),
        "{}",
        a.text()
    );
}

/// A results log line: the game's record key, names and year, and the
/// moves judged (number, side, square, loss).
fn log_line(id: GameId, moves: &[(usize, &str, &str, i32)], key: Option<RecordKey>) -> String {
    let st = state();
    let db = st.database();
    let key = key.unwrap_or_else(|| RecordKey::of_game(db, id).unwrap());
    let line = json!({
        "file": key.file, "created": key.created, "index": key.index, "hash": key.hash,
        "game": db.game_name(id).to_string(),
        "year": db.file_of(id).unwrap().year(),
        "black": db.black(id).name.unwrap(),
        "white": db.white(id).name.unwrap(),
        "empties": 12,
        "moves": moves.iter().map(|&(number, side, square, loss)| json!({
            "number": number, "side": side, "square": square, "empties": 60 - number + 1, "loss": loss,
        })).collect::<Vec<_>>(),
    });
    format!("{line}\n")
}

#[tokio::test]
async fn analysis_logs_give_accuracy_by_year_and_the_report_s_mistakes() {
    let st = state();
    let db = st.database();
    // Two games of Nakamura's in 2004, one in 2005 (as black or white).
    let games: Vec<GameId> = db
        .searcher(IndexChoice::Never)
        .search(
            &Query::new()
                .player("Takuji Nakamura")
                .exact(true)
                .years(Some(2004), Some(2005)),
        )
        .unwrap()
        .value;
    let year = |id: GameId| db.file_of(id).unwrap().year();
    let side = |id: GameId| {
        if db.black(id).name == Some("Takuji Nakamura") {
            "black"
        } else {
            "white"
        }
    };
    let other = |s: &str| if s == "black" { "white" } else { "black" };
    let a = *games.iter().find(|&&g| year(g) == 2004).unwrap();
    let b = *games.iter().rfind(|&&g| year(g) == 2004).unwrap();
    let c = *games.iter().find(|&&g| year(g) == 2005).unwrap();
    assert_ne!(a, b);
    let log = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pages-results.jsonl");
    let mut text = String::new();
    // 2004: losses 0, 4 (game a) and 2 (game b), the opponent's 10 aside.
    text += &log_line(
        a,
        &[
            (49, side(a), "a1", 0),
            (51, side(a), "b2", 4),
            (50, other(side(a)), "c3", 10),
        ],
        None,
    );
    text += &log_line(b, &[(53, side(b), "h8", 2)], None);
    // 2005: one perfect move.
    text += &log_line(c, &[(55, side(c), "g7", 0)], None);
    // A game of another database: its bytes differ (another hash).
    let mut key = RecordKey::of_game(db, c).unwrap();
    key.hash = "0123456789abcdef".into();
    text += &log_line(c, &[(57, side(c), "a8", 30)], Some(key));
    text += "not a line of an analysis\n";
    std::fs::write(&log, text).unwrap();
    let fresh = wthor_db::Database::open(testdata())
        .unwrap()
        .with_ratings_file(std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ratings.json"));
    let (st, _) = AppState::new(fresh, &IndexChoice::Never, Config::default());
    let (st, notes) = st.with_analysis_logs(std::slice::from_ref(&log)).unwrap();
    assert_eq!(st.analyses().len(), 3);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("line 5: not an analysed game")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|n| n.contains("1 of its 4 analysed games are not games of this database")),
        "{notes:?}"
    );
    let app = wthor_server::router(Arc::new(st));
    let uri = "/api/v1/players/Takuji%20Nakamura";
    let v = ok_json(send(app.clone(), "GET", uri, &[]).await, uri);
    let acc = v["accuracy"].as_array().unwrap();
    assert_eq!(acc.len(), 2, "{acc:?}");
    assert_eq!(acc[0]["year"], 2004);
    assert_eq!(acc[0]["games"], 2);
    assert_eq!(acc[0]["moves"], 3);
    assert!((f(&acc[0]["meanLoss"]) - 2.0).abs() < 1e-9);
    assert!((f(&acc[0]["perfectShare"]) - 1.0 / 3.0).abs() < 1e-9);
    assert_eq!(acc[0]["worst"][0]["loss"], 4);
    assert_eq!(acc[0]["worst"][0]["game"], db.game_name(a).to_string());
    assert_eq!(acc[1]["year"], 2005);
    assert_eq!(acc[1]["perfectShare"], 1.0);
    // The report as the colour of game a: its mistakes, the largest first.
    let uri = format!("/api/v1/report/player/Takuji%20Nakamura?as={}", side(a));
    let v = ok_json(send(app, "GET", &uri, &[]).await, &uri);
    let m = v["mistakes"].as_array().unwrap();
    assert!(!m.is_empty());
    assert_eq!(m[0]["loss"], 4);
    assert_eq!(m[0]["number"], 51);
    assert!(
        m.iter()
            .all(|x| x["loss"].as_i64().unwrap() > 0 && x["loss"] != 30)
    );
}

#[tokio::test]
async fn the_pages_are_served() {
    for uri in [
        "/ratings",
        "/ratings?year=2005",
        "/report/player/Takuji%20Nakamura?as=white",
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        assert!(a.text().contains("/assets/app.js"), "{uri}");
    }
    for asset in ["ratings.js", "report.js"] {
        let a = get(&format!("/assets/{asset}")).await;
        assert_eq!(a.status, StatusCode::OK, "{asset}");
        assert!(
            a.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/javascript")
        );
    }
    // The favicon is the icon, not a script.
    let a = get("/favicon.ico").await;
    assert_eq!(a.headers["content-type"], "image/svg+xml");
}
