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
    let long_uri = format!("/api/v1/explorer?play={long}");
    let cases: Vec<(&str, String, u16, &str)> = vec![
        (
            "malformed range",
            "/api/v1/search?year=%zz".into(),
            400,
            "year: \"%zz\" is not a number",
        ),
        (
            "malformed flag",
            "/api/v1/search?exact=perhaps".into(),
            400,
            "exact: expected true or false (or 1, 0, yes, no), got \"perhaps\"",
        ),
        (
            "malformed size",
            "/api/v1/explorer?size=9".into(),
            400,
            "size:",
        ),
        (
            "unknown filter",
            "/api/v1/search?colour=black".into(),
            400,
            "unknown parameter `colour`",
        ),
        (
            "unknown explorer filter",
            "/api/v1/explorer?foo=1".into(),
            400,
            "unknown parameter `foo`",
        ),
        (
            "bad range",
            "/api/v1/search?year=2005..2001".into(),
            400,
            "empty range",
        ),
        ("bad result", "/api/v1/search?result=win".into(), 400, "win"),
        (
            "three players",
            "/api/v1/search?player=a&player=b&player=c".into(),
            400,
            "player: at most two players",
        ),
        ("a 10 kB transcript", long_uri, 414, "at most 4096"),
        (
            "an illegal move",
            "/api/v1/explorer?play=f5f5".into(),
            400,
            "play: move 2 (f5)",
        ),
        (
            "not a transcript",
            "/api/v1/explorer?play=hello".into(),
            400,
            "play:",
        ),
        (
            "a bad OBF",
            "/api/v1/explorer?position=XXO".into(),
            400,
            "position:",
        ),
        (
            "a move illegal from the position given",
            format!("/api/v1/explorer?play=f5&position={}+X", "-".repeat(64)),
            400,
            "play: move 1 (f5)",
        ),
        (
            "explorer limit",
            "/api/v1/explorer?limit=5".into(),
            400,
            "limit: not a parameter of the explorer: the number of games listed is games=",
        ),
        (
            "explorer sort",
            "/api/v1/explorer?sort=score".into(),
            400,
            "sort: not a parameter of the explorer: its games are the latest, newest first, or with top=1",
        ),
        (
            "explorer position_after",
            "/api/v1/explorer?position_after=f5".into(),
            400,
            "position_after: not a parameter of the explorer (give the moves with play=",
        ),
        (
            "history limit",
            "/api/v1/history?limit=5".into(),
            400,
            "limit: not a parameter of the history: it counts every game",
        ),
        (
            "bad solve flag",
            "/api/v1/explorer?solve=maybe".into(),
            400,
            "solve: expected true or false (or 1, 0, yes, no), got \"maybe\"",
        ),
        (
            "unknown game",
            "/api/v1/games/2001:99999".into(),
            404,
            "game: 2001 has 24 games (indices from 0), no game 99999",
        ),
        (
            "unknown game file",
            "/api/v1/games/1066:1".into(),
            404,
            "1066",
        ),
        (
            "not a game id",
            "/api/v1/games/hello".into(),
            400,
            "game: expected YEAR:INDEX",
        ),
        (
            "not a game id, in a picture's path",
            "/api/v1/games/hello/png".into(),
            400,
            "game: expected YEAR:INDEX",
        ),
        (
            "a parameter given twice",
            "/api/v1/search?limit=1&limit=2".into(),
            400,
            "limit: given 2 times",
        ),
        (
            "a filter given twice",
            "/api/v1/search?year=2001&year=2002".into(),
            400,
            "year: given 2 times",
        ),
        (
            "malformed query string",
            "/api/v1/search?%zz=1".into(),
            400,
            "",
        ),
        (
            "game with a stray parameter",
            "/api/v1/games/2001:5?x=1".into(),
            400,
            "unknown parameter",
        ),
        (
            "limit=10^9",
            "/api/v1/search?limit=1000000000".into(),
            400,
            "limit: at most 500",
        ),
        (
            "limit=10^9 as text",
            "/api/v1/search?limit=10^9".into(),
            400,
            "limit: expected a number",
        ),
        (
            "huge offset",
            "/api/v1/search?offset=99999999999999999999999".into(),
            400,
            "offset",
        ),
        (
            "unknown player",
            "/api/v1/players/Nobody%20At%20All".into(),
            404,
            "no games",
        ),
        (
            "bad export format",
            "/api/v1/export?format=xlsx".into(),
            400,
            "format: expected csv",
        ),
        (
            "export unknown filter",
            "/api/v1/export?format=csv&nope=1".into(),
            400,
            "unknown parameter `nope`",
        ),
        (
            "unknown endpoint",
            "/api/v1/nothing".into(),
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
            "an unknown key of the explorer (docs/http-api.md's copy)",
            "/api/v1/explorer?foo=bar".into(),
            400,
            "unknown parameter `foo`: this endpoint takes play, position, solve, games, top, \
             and the filters player, black, white, exact, program, human, tournament, year, \
             result, black_discs, theoretical, opening, as_played, opening_name, min_rating, size",
        ),
        (
            "bad UTF-8 in a path",
            "/api/v1/players/%ff%fe".into(),
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
        let a = send(app(), method, "/api/v1/search", &[]).await;
        assert_eq!(a.status, StatusCode::METHOD_NOT_ALLOWED, "{method}");
        assert!(a.json()["error"].as_str().unwrap().contains("read-only"));
    }
}

/// Every thread of rayon's pool (the server's work) held until dropped:
/// a query given a turn meanwhile waits for a thread, past any cap, and
/// holds its turn.
struct PoolHeld(#[allow(dead_code)] Vec<std::sync::mpsc::Sender<()>>);

fn hold_the_pool() -> PoolHeld {
    let threads = rayon::current_num_threads();
    let started = Arc::new(std::sync::Barrier::new(threads + 1));
    let mut releases = Vec::new();
    for _ in 0..threads {
        let (release, held) = std::sync::mpsc::channel::<()>();
        let started = Arc::clone(&started);
        rayon::spawn(move || {
            started.wait();
            // Until the sender is dropped.
            let _ = held.recv();
        });
        releases.push(release);
    }
    started.wait();
    PoolHeld(releases)
}

/// A query past its time cap while it had its turn is a 503 saying so
/// (to narrow the filters only when it takes filters); a request that
/// waited for a turn all along is told the server is busy, with
/// `Retry-After`. An analysis that ends after its request's cap is kept:
/// asked again, the game is answered from the cache.
#[tokio::test]
async fn a_query_past_its_time_cap_is_503() {
    let db = wthor_db::Database::open(testdata()).unwrap();
    // 1 ns; two turns; an analysis of little search (quick once it runs).
    let config = Config {
        time_cap: Duration::from_nanos(1),
        concurrent: 2,
        analysis: wthor_db::analysis::AnalysisOptions {
            empties: 8,
            estimate_depth: 2,
            ..Default::default()
        },
        ..crate::config()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let app = || wthor_server::router(Arc::clone(&state));
    let message = |a: &crate::Answer| a.json()["error"].as_str().unwrap().to_owned();
    let held = hold_the_pool();
    // An analysis: its turn, no thread.
    let uri = "/api/v1/games/2001:5?analysis=1";
    let a = send(app(), "GET", uri, &[]).await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE);
    let m = message(&a);
    assert!(
        m.contains("longer than its time cap of 0.000000001 s"),
        "{m}"
    );
    assert!(!m.contains("filters"), "{m}");
    assert!(a.headers.get("retry-after").is_none());
    // The explorer's query: the other turn, no thread; told to narrow
    // its filters.
    let b = send(app(), "GET", "/api/v1/explorer?play=f5d6", &[]).await;
    assert_eq!(b.status, StatusCode::SERVICE_UNAVAILABLE);
    let m = message(&b);
    assert!(
        m.contains("longer than its time cap") && m.ends_with(": narrow it with filters"),
        "{m}"
    );
    // Both turns held by the works waiting for a thread: busy.
    for other in [
        "/api/v1/search?limit=1",
        "/api/v1/players/Takuji%20Nakamura",
    ] {
        let c = send(app(), "GET", other, &[]).await;
        assert_eq!(c.status, StatusCode::SERVICE_UNAVAILABLE);
        let m = message(&c);
        assert!(
            m.starts_with("the server is busy: all 2 of its query turns")
                && m.ends_with("retry later"),
            "{m}"
        );
        assert_eq!(c.headers["retry-after"], "1");
    }
    // The works run once the pool is free; the analysis, once ended, is
    // kept: the game comes from the cache, with it (nothing else could
    // end within 1 ns).
    drop(held);
    let mut kept = None;
    for _ in 0..1200 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let d = send(app(), "GET", uri, &[]).await;
        if d.status == StatusCode::OK {
            kept = Some(d);
            break;
        }
    }
    let kept = kept.expect("the analysis was never kept");
    assert!(
        kept.json()["analysis"]["moves"].is_array(),
        "{}",
        kept.text()
    );
}

/// Each endpoint's error for a key it does not take lists its own
/// parameters: the explorer's own and the filters it takes (not
/// `position_after`, `limit`, `sort`, `reverse`, which it refuses), the
/// search's `limit` and `offset`, a game's `analysis`…
#[tokio::test]
async fn an_unknown_parameter_lists_the_endpoints_own() {
    let cases: [(&str, &[&str], &[&str]); 8] = [
        (
            "/api/v1/explorer?foo=bar",
            &["play", "position", "solve", "games", "player", "year"],
            &["position_after", "limit", "sort", "reverse", "offset"],
        ),
        (
            "/api/v1/search?foo=bar",
            &[
                "limit",
                "offset",
                "player",
                "position_after",
                "sort",
                "reverse",
            ],
            &["play", "solve", "games", "format"],
        ),
        (
            "/api/v1/export?format=csv&foo=bar",
            &["format", "player", "position_after", "limit", "sort"],
            &["play", "offset", "games"],
        ),
        (
            "/api/v1/games/2001:5?foo=bar",
            &["analysis"],
            &["player", "ply"],
        ),
        (
            "/api/v1/games/2001:5/png?foo=bar",
            &["ply"],
            &["analysis", "player"],
        ),
        (
            "/api/v1/games/2001:5/export?foo=bar",
            &["format"],
            &["analysis", "player"],
        ),
        ("/api/v1/players?foo=bar", &["prefix", "limit"], &["player"]),
        (
            "/api/v1/players/Takuji%20Nakamura?foo=bar",
            &[],
            &["player", "limit"],
        ),
    ];
    for (uri, takes, not) in cases {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}: {}", a.text());
        let message = a.json()["error"].as_str().unwrap().to_owned();
        assert!(message.contains("`foo`"), "{uri}: {message}");
        // The words of the list: the keys, without the punctuation.
        let listed: Vec<&str> = message
            .split_once("takes")
            .map_or("", |(_, list)| list)
            .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        for key in takes {
            assert!(listed.contains(key), "{uri}: {key} missing from {message}");
        }
        for key in not {
            assert!(!listed.contains(key), "{uri}: {key} listed in {message}");
        }
        if takes.is_empty() {
            assert!(message.contains("takes no parameter"), "{uri}: {message}");
        }
    }
}

/// The keys the messages list as filters are the fields of `Filters` (as
/// serde names them: its own unknown-field error lists them).
#[test]
fn the_filter_keys_are_the_fields_of_filters() {
    let error = serde_html_form::from_str::<wthor_db::query::Filters>("zzz=1").unwrap_err();
    let text = error.to_string();
    let (_, list) = text.split_once("expected one of").unwrap();
    let mut fields: Vec<&str> = list
        .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    fields.sort_unstable();
    let mut keys = wthor_db::query::Filters::keys().to_vec();
    keys.sort_unstable();
    assert_eq!(keys, fields);
}

/// A position past the end of the game is refused as one before the
/// start is, naming the game's plies.
#[tokio::test]
async fn a_png_past_the_end_is_400_naming_the_plies() {
    let game = crate::ok_json(get("/api/v1/games/2001:5").await, "2001:5");
    let plies = game["moves"].as_array().unwrap().len();
    for ply in ["999", &(plies + 1).to_string(), "-1"] {
        let uri = format!("/api/v1/games/2001:5/png?ply={ply}");
        let a = get(&uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        let message = a.json()["error"].as_str().unwrap().to_owned();
        assert!(message.starts_with("ply: "), "{uri}: {message}");
        if ply != "-1" {
            assert!(
                message.contains(&format!("0 to {plies}")),
                "{uri}: {message}"
            );
        }
    }
    // The last position is there, and the default.
    let last = get(&format!("/api/v1/games/2001:5/png?ply={plies}")).await;
    assert_eq!(last.status, StatusCode::OK);
    assert_eq!(last.headers["content-type"], "image/png");
    assert_eq!(get("/api/v1/games/2001:5/png").await.body, last.body);
}

/// An illegal move of `play=`: a 400 with the error, and the moves before
/// it, so that a page can show the board there.
#[tokio::test]
async fn an_illegal_play_gives_the_moves_before_it() {
    for (uri, legal) in [
        ("/api/v1/explorer?play=f5d6c3f5", "f5d6c3"),
        ("/api/v1/explorer?play=a1", ""),
        ("/api/v1/explorer?play=F5D6C3D3C4F4a8", "f5d6c3d3c4f4"),
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}");
        let v = a.json();
        assert!(
            v["error"].as_str().unwrap().starts_with("play: move "),
            "{v}"
        );
        assert_eq!(v["legalPlay"], legal, "{uri}");
        // The moves before it are the explorer's own answer.
        let ok = format!("/api/v1/explorer?play={legal}&games=0");
        crate::ok_json(get(&ok).await, &ok);
    }
    // From a position given: the moves played from it.
    let base = crate::ok_json(get("/api/v1/explorer?play=f5d6&games=0").await, "f5d6");
    let obf = base["obf"].as_str().unwrap().replace(' ', "+");
    let a = get(&format!("/api/v1/explorer?position={obf}&play=c3c3")).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.json()["legalPlay"], "c3");
    // Any other error has no such key.
    let a = get("/api/v1/explorer?play=hello").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert!(a.json().get("legalPlay").is_none(), "{}", a.text());
}

/// Past 64 kB the request target is refused by the HTTP layer itself (a
/// bare 414, before the router); up to there our own limit answers
/// (4,096 bytes: a 414 with the JSON error). Through a real socket: the
/// router alone never sees the first.
#[tokio::test]
async fn a_request_target_over_64_kb_is_a_bare_414() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(wthor_server::serve(listener, crate::state(), async {
        let _ = stopped.await;
    }));
    // A plain blocking client, off the runtime's threads.
    let ask = |target: String| {
        tokio::task::spawn_blocking(move || {
            use std::io::{Read as _, Write as _};
            let mut stream = std::net::TcpStream::connect(addr).unwrap();
            let request =
                format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            // The server may answer and close before the whole request is
            // written: what it answered is read all the same.
            let _ = stream.write_all(request.as_bytes());
            let mut answer = Vec::new();
            let _ = stream.read_to_end(&mut answer);
            String::from_utf8_lossy(&answer).into_owned()
        })
    };
    let json = ask(format!("/api/v1/explorer?play={}", "f5".repeat(2100)))
        .await
        .unwrap();
    assert!(json.starts_with("HTTP/1.1 414"), "{json}");
    assert!(json.contains("at most 4096"), "{json}");
    let bare = ask(format!("/api/v1/explorer?play={}", "f5".repeat(33_000)))
        .await
        .unwrap();
    assert!(bare.starts_with("HTTP/1.1 414"), "{bare}");
    assert!(!bare.contains("error"), "{bare}");
    let _ = stop.send(());
    server.await.unwrap().unwrap();
}

/// An export is under the time cap from its request on: past it, a 503
/// before any byte (its search), or a cut connection once it streams.
#[tokio::test]
async fn an_export_past_its_time_cap_is_503() {
    use http_body_util::BodyExt as _;
    use tower::ServiceExt as _;
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        time_cap: Duration::from_nanos(1),
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let request = axum::http::Request::get("/api/v1/export?format=jsonl")
        .body(axum::body::Body::empty())
        .unwrap();
    let response = wthor_server::router(state).oneshot(request).await.unwrap();
    let status = response.status();
    let body = response.into_body().collect().await;
    if status == StatusCode::OK {
        // The search made it within the cap, the parts cannot.
        assert!(body.is_err(), "an export past its cap ended as if whole");
    } else {
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
        let v: serde_json::Value = serde_json::from_slice(&body.unwrap().to_bytes()).unwrap();
        assert!(v["error"].as_str().unwrap().contains("time cap"), "{v}");
    }
}

/// A client that takes no part of an export for the write timeout ends
/// it: the parts sent, then an error (the connection cut, never a
/// download that looks whole), and the turns are free for the others. A
/// client that reads gets every byte, part after part.
#[tokio::test]
async fn an_export_whose_client_stops_reading_is_cut() {
    use http_body_util::BodyExt as _;
    use tower::ServiceExt as _;
    let db = wthor_db::Database::open(testdata()).unwrap();
    let config = Config {
        write_timeout: Duration::from_millis(200),
        export_part: 50,
        concurrent: 1,
        ..Config::default()
    };
    let state = Arc::new(AppState::new(db, &IndexChoice::Never, config).0);
    let uri = "/api/v1/export?format=jsonl";
    // Read at once: whole, the bytes of the library's export.
    let whole = send(wthor_server::router(Arc::clone(&state)), "GET", uri, &[]).await;
    assert_eq!(whole.status, StatusCode::OK);
    // In parts of 50 games, the bytes of the library's export.
    let ids = state
        .database()
        .searcher(IndexChoice::Never)
        .search(&wthor_db::Query::new())
        .unwrap()
        .value;
    assert!(ids.len() > 500);
    let mut want = Vec::new();
    wthor_db::text::export(
        state.database(),
        &ids,
        &wthor_db::text::ExportOptions {
            format: wthor_db::text::Format::Jsonl,
            empties: None,
        },
        &mut want,
    )
    .unwrap();
    assert!(whole.body == want, "the parts are not the export's bytes");
    // Read one part, then nothing for longer than the write timeout.
    let request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .unwrap();
    let response = wthor_server::router(Arc::clone(&state))
        .oneshot(request)
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let first = body.frame().await.unwrap().unwrap();
    assert!(first.is_data());
    tokio::time::sleep(Duration::from_millis(600)).await;
    // Meanwhile the one turn is free: a query answers.
    let other = send(
        wthor_server::router(Arc::clone(&state)),
        "GET",
        "/api/v1/search?limit=1",
        &[],
    )
    .await;
    assert_eq!(other.status, StatusCode::OK);
    let mut read = first.into_data().unwrap().len();
    let mut failed = false;
    while let Some(frame) = body.frame().await {
        match frame {
            Ok(f) => read += f.into_data().map_or(0, |d| d.len()),
            Err(_) => {
                failed = true;
                break;
            }
        }
    }
    assert!(failed, "the cut export ended as if whole ({read} bytes)");
    assert!(read < whole.body.len(), "{read} of {}", whole.body.len());
}

/// A board without a disc is read as `wthor solve` reads it: a finished
/// game (no legal move), never "too many empties" for a solve.
#[tokio::test]
async fn an_empty_board_is_a_finished_game() {
    let obf = "-".repeat(64);
    for solve in ["", "&solve=1"] {
        let uri = format!("/api/v1/explorer?position={obf}%20X{solve}&games=0");
        let a = get(&uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}: {}", a.text());
        let v = a.json();
        assert!(v["position"]["toMove"].is_null(), "{uri}: {v}");
        assert!(v["moves"].as_array().unwrap().is_empty(), "{uri}");
        assert!(v["values"].is_null(), "{uri}");
        if solve.is_empty() {
            assert!(v["solved"].is_null(), "{uri}");
        } else {
            assert_eq!(
                v["solved"], "not solved: the game is over (no legal move)",
                "{uri}"
            );
        }
    }
}

/// A path that is no page: for a browser the site's page (its header and
/// navigation; the page says "no such page"), 404; for a client of the
/// API, JSON; the API's own paths JSON whatever they accept. A page's
/// path with a trailing slash redirects to the page.
#[tokio::test]
async fn unknown_pages_are_the_site_s_page_for_a_browser() {
    let html = [("accept", "text/html,application/xhtml+xml,*/*;q=0.8")];
    for path in [
        "/nosuchpage",
        "/game/",
        "/player/",
        "/explorer/x",
        "/game/2001:5/x",
    ] {
        let a = send(app(), "GET", path, &html).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(
            a.headers["content-type"], "text/html; charset=utf-8",
            "{path}"
        );
        let text = a.text();
        assert!(
            text.contains("<nav>") && text.contains("/assets/app.js"),
            "{path}"
        );
        let json = send(app(), "GET", path, &[]).await;
        assert_eq!(json.status, StatusCode::NOT_FOUND, "{path}");
        assert!(
            json.json()["error"]
                .as_str()
                .unwrap()
                .ends_with("no such page")
        );
    }
    for path in ["/api/v1/nothing", "/api/nothing", "/assets/nothing.js"] {
        let a = send(app(), "GET", path, &html).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}");
        assert!(a.json()["error"].is_string(), "{path}");
    }
    for (path, to) in [
        ("/explorer/", "/explorer"),
        ("/explorer/?play=f5d6", "/explorer?play=f5d6"),
        ("/search/", "/search"),
        ("/ratings/?year=2003", "/ratings?year=2003"),
        ("/game/2001:5/", "/game/2001:5"),
        ("/player/Takuji%20Nakamura/", "/player/Takuji%20Nakamura"),
    ] {
        let a = send(app(), "GET", path, &html).await;
        assert_eq!(a.status, StatusCode::PERMANENT_REDIRECT, "{path}");
        assert_eq!(a.headers["location"], to, "{path}");
    }
}
