//! Internal faults (issue 38): a fault of the server is a 500 with a
//! message, logged, and the server goes on serving; files removed under
//! a running server do not stop it.

use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use wthor_db::index::IndexChoice;
use wthor_server::{AppState, Config};

use crate::{copy_of_testdata, send, testdata};

const ENDPOINTS: [&str; 8] = [
    "/api/v1/explorer?play=f5d6&games=2",
    "/api/v1/search?player=nakamura&limit=3",
    "/api/v1/games/2001:5",
    "/api/v1/games/2001:5/png?ply=10",
    "/api/v1/games/2001:5/export?format=ggf",
    "/api/v1/players?prefix=na",
    "/api/v1/players/Takuji%20Nakamura",
    "/api/v1/export?format=csv&year=2003",
];

/// The database's files removed under the server: it keeps answering
/// every endpoint (its files are mapped: the mappings keep what was
/// removed), the same answers as before.
#[tokio::test]
async fn files_removed_under_the_server_do_not_stop_it() {
    let dir = copy_of_testdata("faults-removed");
    let db = wthor_db::Database::open(&dir).unwrap();
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, Config::default()).0);
    let mut before = Vec::new();
    for uri in ENDPOINTS {
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        before.push(a.body);
    }
    std::fs::remove_dir_all(&dir).unwrap();
    for (uri, before) in ENDPOINTS.iter().zip(before) {
        // Asked again and not from the cache (another query of each).
        let again = format!("{uri}{}x=1", if uri.contains('?') { '&' } else { '?' });
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", &again, &[]).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{again}");
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        assert!(a.body == before, "{uri}: another answer");
    }
}

/// An internal fault injected (the analysis configured beyond what the
/// library takes: exact from 31 empties): a 500 that says what failed,
/// logged with its request; the other endpoints go on answering, and the
/// fault is not kept (asked again, the same 500).
#[tokio::test]
async fn an_internal_fault_is_a_500_logged_and_the_server_goes_on() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        analysis: wthor_db::analysis::AnalysisOptions {
            empties: 31,
            ..Default::default()
        },
        ..Config::default()
    };
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let logged = Arc::clone(&log);
    let state = Arc::new(
        AppState::new(db, &IndexChoice::Never, config)
            .0
            .on_fault(move |what| logged.lock().unwrap().push(what.to_owned())),
    );
    let uri = "/api/v1/games/2001:5?analysis=1";
    for round in 1..=2 {
        let a = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
        assert_eq!(a.status, StatusCode::INTERNAL_SERVER_ERROR, "{}", a.text());
        let message = a.json()["error"].as_str().unwrap().to_owned();
        assert!(
            message.starts_with("internal error: analysis: exact from 31 empties"),
            "{message}"
        );
        let lines = log.lock().unwrap().clone();
        assert_eq!(lines.len(), round, "{lines:?}");
        assert_eq!(lines[round - 1], format!("GET {uri}: {message}"));
        for uri in ENDPOINTS {
            let a = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
            assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        }
    }
    // Bad input is never logged as a fault.
    let a = send(
        wthor_server::router(Arc::clone(&state)),
        "GET",
        "/api/v1/games/hello",
        &[],
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(log.lock().unwrap().len(), 2);
}
