//! The rating filter through the API: the same games as the library's
//! query (and so as the CLI's `--min-rating` and Python's `min_rating=`).

use wthor_db::Query;
use wthor_db::index::IndexChoice;

use crate::{get, ok_json, state};

#[tokio::test]
async fn min_rating_selects_the_library_s_games() {
    let st = state();
    let db = st.database();
    for bound in [1500u16, 1600] {
        let want = db
            .searcher(IndexChoice::Never)
            .search(&Query::new().min_rating(bound))
            .unwrap()
            .value;
        let uri = format!("/api/v1/search?min_rating={bound}&limit=100");
        let got = ok_json(get(&uri).await, &uri);
        assert_eq!(got["total"].as_u64().unwrap() as usize, want.len(), "{uri}");
        let ids: Vec<&str> = got["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["game"].as_str().unwrap())
            .collect();
        let names: Vec<String> = want
            .iter()
            .take(100)
            .map(|&id| db.game_name(id).to_string())
            .collect();
        assert_eq!(ids, names, "{uri}");
    }
    let bad = get("/api/v1/search?min_rating=5000").await;
    assert_eq!(
        bad.status,
        axum::http::StatusCode::BAD_REQUEST,
        "{}",
        bad.text()
    );
    assert!(bad.text().contains("out of range"), "{}", bad.text());
}
