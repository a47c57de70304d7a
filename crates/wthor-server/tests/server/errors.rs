//! Every bad input of issue 25: a 4xx with a message, never a 500, a
//! panic, or a file outside the embedded assets; a query past its time
//! cap: 503.

use std::sync::Arc;
use std::time::Duration;

use axum::http::StatusCode;
use wthor_db::index::IndexChoice;
use wthor_server::{AppState, Config};

use crate::{app, get, send, testdata};

#[tokio::test]
async fn bad_inputs_are_4xx_with_a_message() {
    let long = "f5".repeat(5000);
    let long_uri = format!("/api/explorer?play={long}");
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "malformed range",
            "/api/search?year=%zz".into(),
            400,
            "year: \"%zz\" is not a number",
        ),
        (
            "malformed flag",
            "/api/search?exact=perhaps".into(),
            400,
            "exact:",
        ),
        (
            "malformed size",
            "/api/explorer?size=9".into(),
            400,
            "size:",
        ),
        (
            "unknown filter",
            "/api/search?colour=black".into(),
            400,
            "unknown field `colour`",
        ),
        (
            "unknown explorer filter",
            "/api/explorer?foo=1".into(),
            400,
            "unknown field `foo`",
        ),
        (
            "bad range",
            "/api/search?year=2005..2001".into(),
            400,
            "empty range",
        ),
        ("bad result", "/api/search?result=win".into(), 400, "win"),
        (
            "three players",
            "/api/search?player=a&player=b&player=c".into(),
            400,
            "at most twice",
        ),
        ("a 10 kB transcript", long_uri, 414, "at most 4096"),
        (
            "an illegal move",
            "/api/explorer?play=f5f5".into(),
            400,
            "play: move 2 (f5)",
        ),
        (
            "not a transcript",
            "/api/explorer?play=hello".into(),
            400,
            "play:",
        ),
        (
            "a bad OBF",
            "/api/explorer?position=XXO".into(),
            400,
            "position:",
        ),
        (
            "a move illegal from the position given",
            format!("/api/explorer?play=f5&position={}+X", "-".repeat(64)),
            400,
            "play: move 1 (f5)",
        ),
        (
            "explorer limit",
            "/api/explorer?limit=5".into(),
            400,
            "limit: not a parameter",
        ),
        (
            "bad solve flag",
            "/api/explorer?solve=maybe".into(),
            400,
            "solve: expected 1 or 0",
        ),
        (
            "unknown game",
            "/api/games/2001:99999".into(),
            404,
            "2001:99999",
        ),
        ("unknown game file", "/api/games/1066:1".into(), 404, "1066"),
        ("not a game id", "/api/games/hello".into(), 404, "hello"),
        (
            "game with a stray parameter",
            "/api/games/2001:5?x=1".into(),
            400,
            "unknown parameter",
        ),
        (
            "limit=10^9",
            "/api/search?limit=1000000000".into(),
            400,
            "limit: at most 500",
        ),
        (
            "limit=10^9 as text",
            "/api/search?limit=10^9".into(),
            400,
            "limit: expected a number",
        ),
        (
            "huge offset",
            "/api/search?offset=99999999999999999999999".into(),
            400,
            "offset",
        ),
        (
            "unknown player",
            "/api/players/Nobody%20At%20All".into(),
            404,
            "no games",
        ),
        (
            "bad export format",
            "/api/export?format=xlsx".into(),
            400,
            "format: expected csv",
        ),
        (
            "export unknown filter",
            "/api/export?format=csv&nope=1".into(),
            400,
            "unknown field `nope`",
        ),
        (
            "unknown endpoint",
            "/api/nothing".into(),
            404,
            "no such endpoint",
        ),
        ("unknown page", "/nothing/here".into(), 404, "no such page"),
        ("traversal", "/../../etc/passwd".into(), 404, "no such page"),
        (
            "encoded traversal",
            "/%2e%2e/%2e%2e/etc/passwd".into(),
            404,
            "no such page",
        ),
        (
            "asset traversal",
            "/assets/..%2f..%2fCargo.toml".into(),
            404,
            "embedded assets",
        ),
        (
            "asset traversal, double encoded",
            "/assets/%252e%252e%252fetc%252fpasswd".into(),
            404,
            "embedded assets",
        ),
        (
            "asset not embedded",
            "/assets/lib.rs".into(),
            404,
            "embedded assets",
        ),
        (
            "bad UTF-8 in a path",
            "/api/players/%ff%fe".into(),
            400,
            "player",
        ),
    ];
    for (what, uri, status, words) in cases {
        let a = get(&uri).await;
        assert_eq!(a.status.as_u16(), status, "{what}: {uri}: {}", a.text());
        let message = a.json()["error"].as_str().unwrap_or_default().to_owned();
        assert!(
            message.contains(words),
            "{what}: {message:?} lacks {words:?}"
        );
    }
}

#[tokio::test]
async fn only_get_is_answered() {
    for method in ["POST", "PUT", "DELETE"] {
        let a = send(app(), method, "/api/search", &[]).await;
        assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert!(a.json()["error"].as_str().unwrap().contains("read-only"));
    }
}

#[tokio::test]
async fn a_query_past_its_time_cap_is_503() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    // 1 ms: an analysis takes longer.
    let config = Config {
        time_cap: Duration::from_millis(1),
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let a = send(
        wthor_server::router(state),
        "GET",
        "/api/games/2001:5?analysis=1",
        &[],
    )
    .await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(
        a.json()["error"].as_str().unwrap().contains("time cap"),
        "{}",
        a.text()
    );
}
