//! The API on the fixture database, through the router itself (tower's
//! `oneshot`, no socket): each endpoint's JSON pinned by insta, every bad
//! input of issue 25 answered by a 4xx with a message, the time cap by a
//! 503, the assets with ETags and compression, the explorer's values
//! against othello-core's solver and engine.

mod api;
mod errors;
mod explorer_ratings;
mod faults;
mod history;
mod indexed;
mod pages;
mod ratings;
mod values;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt as _;
use tower::ServiceExt as _;
use wthor_db::index::IndexChoice;
use wthor_server::{AppState, Config};

/// The fixture database.
pub(crate) fn testdata() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// A copy of the fixture database (its game and name files) in a folder
/// of its own, `name`, under the build's temporary folder.
pub(crate) fn copy_of_testdata(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(testdata()).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_lowercase();
        if [".wtb", ".wtd", ".jou", ".trn"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            std::fs::copy(&path, dir.join(path.file_name().unwrap())).unwrap();
        }
    }
    dir
}

/// The empties from which the fixture server's analyses are exact: quick
/// in a debug build.
pub(crate) const ANALYSIS_EMPTIES: u8 = 14;

/// The state over the fixtures (built once: the player list is a scan).
pub(crate) fn state() -> Arc<AppState> {
    static STATE: OnceLock<Arc<AppState>> = OnceLock::new();
    Arc::clone(STATE.get_or_init(|| {
        // The ratings of the rating filter kept under the tests' build
        // folder, not in the user's cache directory.
        let db = wthor_db::Database::open(testdata())
            .unwrap()
            .with_ratings_file(
                std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("ratings.json"),
            );
        Arc::new(AppState::new(db, &IndexChoice::Never, config()).0)
    }))
}

/// The fixture server's settings: the explorer's values get all the time
/// they need (the tests run side by side on few cores, one search at a
/// time, and check the values; the time limits have tests of their own).
pub(crate) fn config() -> Config {
    Config {
        analysis: wthor_db::analysis::AnalysisOptions {
            empties: ANALYSIS_EMPTIES,
            ..Default::default()
        },
        time_cap: Duration::from_secs(60),
        value_time: Duration::from_secs(60),
        ..Config::default()
    }
}

pub(crate) fn app() -> Router {
    wthor_server::router(state())
}

/// An answer: status, headers, body.
pub(crate) struct Answer {
    pub(crate) status: StatusCode,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    pub(crate) fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.body.clone()).unwrap()
    }
}

/// `method uri` with `headers` through `router`.
pub(crate) async fn send(
    router: Router,
    method: &str,
    uri: &str,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = Request::builder().method(method).uri(uri);
    for (k, v) in headers {
        request = request.header(*k, *v);
    }
    let response = router
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

/// `GET uri` on the fixture server.
pub(crate) async fn get(uri: &str) -> Answer {
    send(app(), "GET", uri, &[]).await
}

/// `GET uri`, which must answer 200 with JSON.
#[track_caller]
pub(crate) fn ok_json(answer: Answer, uri: &str) -> serde_json::Value {
    assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.text());
    answer.json()
}
