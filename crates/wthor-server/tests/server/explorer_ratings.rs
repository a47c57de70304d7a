//! The explorer's ratings (issue 39): each row's mover rating and
//! performance are the library's (`StatsOptions::ratings`), to a tenth;
//! `top=1` lists the games by the mean of both players' ratings.

use othello_core::Size;
use wthor_db::index::IndexChoice;
use wthor_db::query::Position;
use wthor_db::stats::StatsOptions;

use super::{get, ok_json, state};

#[tokio::test]
async fn the_rows_ratings_are_the_library_s() {
    let st = state();
    let db = st.database();
    for (play, year) in [
        ("f5d6", None),
        ("f5d6c3d3", Some((2004, 2008))),
        ("f5f6e6f4", None),
    ] {
        let mut q =
            wthor_db::Query::new().position(Position::after_transcript(play, Size::Eight).unwrap());
        let mut uri = format!("/api/v1/explorer?play={play}&games=0");
        if let Some((a, b)) = year {
            q = q.years(Some(a), Some(b));
            uri.push_str(&format!("&year={a}..{b}"));
        }
        let options = StatsOptions {
            next_moves: true,
            ratings: true,
            ..StatsOptions::default()
        };
        let stats = db
            .searcher(IndexChoice::Never)
            .stats(&q, &options)
            .unwrap()
            .value;
        let v = ok_json(get(&uri).await, &uri);
        let tenth = |x: Option<f64>| x.map(|x| (x * 10.0).round() / 10.0);
        let mut played = 0;
        for m in stats.next_moves.unwrap().moves {
            let name = m.square.name(Size::Eight).to_string();
            let row = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["move"] == name.as_str())
                .unwrap_or_else(|| panic!("{uri}: no row {name}"));
            let r = m.ratings.unwrap();
            assert_eq!(
                row["moverRating"].as_f64(),
                tenth(r.mover_rating),
                "{uri} {name}"
            );
            assert_eq!(
                row["performance"].as_f64(),
                tenth(r.performance),
                "{uri} {name}"
            );
            assert_eq!(
                row["ratedGames"].as_u64(),
                Some(r.rated_games),
                "{uri} {name}"
            );
            assert_eq!(
                row["opponentRating"].as_f64(),
                tenth(r.opponent_rating),
                "{uri} {name}"
            );
            played += 1;
        }
        assert!(played > 0, "{uri}");
        // The legal moves nobody played have no ratings.
        for row in v["moves"].as_array().unwrap() {
            if row["games"] == 0 {
                assert!(row["moverRating"].is_null() && row["performance"].is_null());
                assert_eq!(row["ratedGames"], 0);
            }
        }
    }
    // 10x10: no ratings.
    let v = ok_json(get("/api/v1/explorer?size=10&games=0").await, "10x10");
    assert!(
        v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["moverRating"].is_null())
    );
}

#[tokio::test]
async fn top_games_are_the_highest_mean_ratings() {
    let uri = "/api/v1/explorer?play=f5d6c3&games=20&top=1";
    let top = ok_json(get(uri).await, uri);
    let latest = ok_json(get("/api/v1/explorer?play=f5d6c3&games=20").await, "latest");
    let mean = |g: &serde_json::Value| {
        (g["blackRating"].as_f64().unwrap() + g["whiteRating"].as_f64().unwrap()) / 2.0
    };
    let games = top["games"].as_array().unwrap();
    assert_eq!(games.len(), 20);
    for pair in games.windows(2) {
        // The records' ratings are rounded to a tenth.
        assert!(mean(&pair[0]) >= mean(&pair[1]) - 0.1, "{pair:?}");
    }
    // Every game reaching the position is at most the last one listed.
    let all = ok_json(
        get("/api/v1/search?position_after=f5d6c3&limit=500&sort=rating&reverse=true").await,
        "search",
    );
    let best = all["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(mean)
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(
        (mean(&games[0]) - best).abs() < 0.1,
        "{} {best}",
        mean(&games[0])
    );
    assert_ne!(top["games"], latest["games"]);
    // top= is a flag.
    let bad = get("/api/v1/explorer?play=f5d6&top=maybe").await;
    assert_eq!(bad.status, axum::http::StatusCode::BAD_REQUEST);
    assert!(bad.json()["error"].as_str().unwrap().starts_with("top:"));
}
