//! The front end, compiled into the binary: one HTML page for every
//! route of the site (the page reads its state from the URL), its script
//! and stylesheet. Each file is answered with an ETag (a hash of its
//! bytes) and `304 Not Modified` when the browser already has it; a name
//! not in the list is a 404, never a file of the disk. A path that is no
//! page is a 404 too: for a browser the page itself (its header and
//! navigation, and "no such page"), else JSON; a page's path with a
//! trailing slash redirects to the page.

use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::api::error::ApiError;
use crate::api::query::clip;
use crate::state::AppState;

/// One embedded file.
struct Asset {
    name: &'static str,
    mime: &'static str,
    bytes: &'static [u8],
}

const ASSETS: &[Asset] = &[
    Asset {
        name: "index.html",
        mime: "text/html; charset=utf-8",
        bytes: include_bytes!("../assets/index.html"),
    },
    Asset {
        name: "app.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/app.js"),
    },
    Asset {
        name: "common.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/common.js"),
    },
    Asset {
        name: "explorer.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/explorer.js"),
    },
    Asset {
        name: "search.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/search.js"),
    },
    Asset {
        name: "game.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/game.js"),
    },
    Asset {
        name: "player.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/player.js"),
    },
    Asset {
        name: "ratings.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/ratings.js"),
    },
    Asset {
        name: "report.js",
        mime: "text/javascript; charset=utf-8",
        bytes: include_bytes!("../assets/report.js"),
    },
    Asset {
        name: "style.css",
        mime: "text/css; charset=utf-8",
        bytes: include_bytes!("../assets/style.css"),
    },
    Asset {
        name: "favicon.svg",
        mime: "image/svg+xml",
        bytes: include_bytes!("../assets/favicon.svg"),
    },
];

/// The ETag of each asset, computed once.
fn etags() -> &'static [String] {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    TAGS.get_or_init(|| {
        ASSETS
            .iter()
            .map(|a| format!("\"{:016x}\"", xxhash_rust::xxh3::xxh3_64(a.bytes)))
            .collect()
    })
}

pub(crate) fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(page))
        .route("/explorer", get(page))
        .route("/search", get(page))
        .route("/game/{id}", get(page))
        .route("/player/{name}", get(page))
        .route("/ratings", get(page))
        .route("/report/player/{name}", get(page))
        .route("/assets/{name}", get(asset))
        .route("/favicon.ico", get(favicon))
        .fallback(not_found)
}

/// A path that is no page nor file: a page's path with a trailing slash
/// is redirected to the page (`/explorer/` to `/explorer`, its query
/// kept); else 404, for a browser (`Accept: text/html`) the site's page,
/// which says "no such page" under its header and navigation, for a
/// client of the API the JSON error (the API's own paths answer JSON
/// whatever they accept: `/api/…`).
async fn not_found(uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if let Some(page) = path.strip_suffix('/').filter(|p| is_page(p)) {
        let target = match uri.query() {
            Some(q) => format!("{page}?{q}"),
            None => page.to_owned(),
        };
        return Redirect::permanent(&target).into_response();
    }
    let html = headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.contains("text/html"));
    if html {
        let page = &ASSETS[0];
        return (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(page.mime)),
                (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            ],
            page.bytes,
        )
            .into_response();
    }
    ApiError::not_found(format!("{}: no such page", clip(path))).into_response()
}

/// Whether `path` is one of the site's pages (as [`routes`] routes them).
fn is_page(path: &str) -> bool {
    let one_segment = |prefix: &str| {
        path.strip_prefix(prefix)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains('/'))
    };
    matches!(path, "/explorer" | "/search" | "/ratings")
        || one_segment("/game/")
        || one_segment("/player/")
        || one_segment("/report/player/")
}

async fn page(headers: HeaderMap) -> Response {
    serve(0, &headers)
}

async fn favicon(headers: HeaderMap) -> Response {
    let i = ASSETS
        .iter()
        .position(|a| a.name == "favicon.svg")
        .expect("the favicon is an asset");
    serve(i, &headers)
}

async fn asset(
    name: Result<Path<String>, axum::extract::rejection::PathRejection>,
    headers: HeaderMap,
) -> Response {
    let found = name
        .ok()
        .and_then(|Path(n)| ASSETS.iter().position(|a| a.name == n));
    match found {
        Some(i) => serve(i, &headers),
        None => ApiError::not_found("no such file among the embedded assets").into_response(),
    }
}

fn serve(i: usize, headers: &HeaderMap) -> Response {
    let asset = &ASSETS[i];
    let tag = &etags()[i];
    let cache = HeaderValue::from_static("no-cache");
    let etag = HeaderValue::from_str(tag).unwrap_or(HeaderValue::from_static("\"0\""));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    if fresh {
        return (
            StatusCode::NOT_MODIFIED,
            [(header::ETAG, etag), (header::CACHE_CONTROL, cache)],
        )
            .into_response();
    }
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(asset.mime)),
            (header::ETAG, etag),
            (header::CACHE_CONTROL, cache),
        ],
        asset.bytes,
    )
        .into_response()
}
