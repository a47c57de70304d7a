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

/// After a forced pass the next disc is the other side's: game 2001:22's
/// white must pass after its 57th move and black (who won) plays e8. The
/// row credits black, before the pass given as after it, and the answer's
/// OBF has black to move, as `position.toMove`.
#[tokio::test]
async fn a_move_after_a_pass_is_credited_to_the_side_that_plays_it() {
    let game = ok_json(get("/api/v1/games/2001:22").await, "2001:22");
    let moves: Vec<&str> = game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(moves[57], "e8");
    // White to move after 57 discs, with no move: black plays next.
    let before = &game["positions"][57];
    assert_eq!(before["toMove"], "black", "{before}");
    assert!(game["blackScore"].as_u64().unwrap() > 32);
    let (black, white) = (
        game["blackRating"].as_f64().unwrap(),
        game["whiteRating"].as_f64().unwrap(),
    );
    let play = moves[..57].concat();
    let squares = before["squares"].as_str().unwrap();
    for uri in [
        format!("/api/v1/explorer?play={play}&games=0"),
        format!("/api/v1/explorer?position={squares}%20O&games=0"),
        format!("/api/v1/explorer?position={squares}%20X&games=0"),
    ] {
        let v = ok_json(get(&uri).await, &uri);
        assert_eq!(v["position"]["toMove"], "black", "{uri}");
        assert_eq!(v["obf"], format!("{squares} X"), "{uri}");
        let row = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["move"] == "e8")
            .unwrap_or_else(|| panic!("{uri}: no row e8"));
        assert_eq!(row["games"], 1, "{uri}");
        // The records' ratings and the rows' are both to a tenth.
        assert_eq!(row["moverRating"].as_f64(), Some(black), "{uri}");
        assert_eq!(row["opponentRating"].as_f64(), Some(white), "{uri}");
        // A win: a performance above the opponent's rating.
        assert!(row["performance"].as_f64().unwrap() > white, "{uri}: {row}");
    }
    let uri = format!("/api/v1/history?play={play}");
    let h = ok_json(get(&uri).await, &uri);
    assert_eq!(h["obf"], format!("{squares} X"));
}
