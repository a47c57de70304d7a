//! The server with a position index (issue 38): the index answers the
//! position queries (`indexed`), with the answers of the scan.

use std::sync::Arc;

use axum::http::StatusCode;
use wthor_db::index::{IndexChoice, PositionIndex};
use wthor_server::{AppState, Config};

use crate::{send, testdata};

#[tokio::test]
async fn with_an_index_the_answers_are_the_scans() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("server-fixtures.idx");
    PositionIndex::build(&db, &path).unwrap();
    let (indexed, note) = AppState::new(db, &IndexChoice::At(path), Config::default());
    assert!(note.is_none(), "{note:?}");
    assert!(indexed.has_index());
    let indexed = Arc::new(indexed);
    let scan = crate::state();
    assert!(!scan.has_index());
    for uri in [
        "/api/v1/explorer?play=f5d6&games=5",
        "/api/v1/explorer?play=f5d6c3d3c4&player=nakamura&games=5",
        "/api/v1/explorer?play=f5f6e6f4&year=2002..&games=5",
        "/api/v1/search?position_after=f5d6c3&limit=20",
        "/api/v1/search?position_after=f5f6e6&year=2003&sort=score&limit=5",
        "/api/v1/export?format=jsonl&position_after=f5d6c3d3",
    ] {
        let a = send(wthor_server::router(Arc::clone(&indexed)), "GET", uri, &[]).await;
        let b = send(wthor_server::router(Arc::clone(&scan)), "GET", uri, &[]).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        assert_eq!(b.status, StatusCode::OK, "{uri}: {}", b.text());
        if uri.contains("explorer") {
            let (a, b) = (a.json(), b.json());
            assert_eq!(a["indexed"], true, "{uri}");
            assert_eq!(b["indexed"], false, "{uri}");
            for key in ["moves", "totals", "reached", "ended", "games", "obf"] {
                assert_eq!(a[key], b[key], "{uri}: {key}");
            }
        } else {
            assert!(
                a.body == b.body,
                "{uri}: the index's answer is not the scan's"
            );
        }
    }
}
