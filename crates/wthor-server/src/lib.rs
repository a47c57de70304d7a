//! The HTTP server of `wthor serve`: the archive in the browser.
//!
//! A thin layer over [`wthor_db`], in the manner of lichess-org's
//! opening explorer: [`api::query`] reads a query string into the
//! library's [`Filters`](wthor_db::query::Filters), [`api::response`]
//! holds the serde types of the JSON answers, [`api::error`] the one error
//! type (a status and `{"error": "…"}`; never a 500 for bad input), and
//! the data work stays in `wthor-db` (statistics, searches, game records,
//! the text formats of the export, openings, analysis). Queries, exports
//! (part by part) and searches run on rayon's pool, behind a semaphore,
//! each under a time cap (503 past it), on the async thread of
//! [`runtime`] only the routing and the writing; the answers of the
//! costly ones (explorer answers, analyses) come from a small cache keyed
//! by the query read. The
//! explorer values every legal move with the midgame search ([`values`]:
//! exact near the end, estimated before, within the request's time,
//! cached by position, a few searches at a time).
//!
//! The front end (`assets/`: HTML, one stylesheet, plain JavaScript
//! modules, no build step) is compiled into the binary and served with
//! ETags; every answer is gzip-compressed when the client accepts it.
//! Nothing a request does writes anywhere.
//!
//! ```no_run
//! # async fn f() -> std::io::Result<()> {
//! use std::sync::Arc;
//! use wthor_server::wthor_db::index::IndexChoice;
//! use wthor_server::{AppState, Config};
//!
//! let db = wthor_server::wthor_db::Database::open("testdata").unwrap();
//! let (state, _note) = AppState::new(db, &IndexChoice::Default, Config::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! wthor_server::serve(listener, Arc::new(state), std::future::pending()).await
//! # }
//! ```

// Only the `wthor` binary prints: the libraries return values and errors.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// The README's example is compiled as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

pub mod api;
mod assets;
mod state;
pub mod values;

use std::future::{Future, IntoFuture as _};
use std::sync::Arc;

use axum::Router;
use axum::http::{HeaderValue, header};
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use state::{AppState, Config};

/// The database crate, whose types this API shows (`AppState::new` takes
/// a [`wthor_db::Database`] and an [`IndexChoice`](wthor_db::index::IndexChoice)):
/// `wthor_server::wthor_db` needs no dependency of your own, nor a
/// version to keep in step with this crate's.
pub use wthor_db;

/// The longest request target (path and query string) answered; longer
/// ones get 414.
pub const MAX_URI_BYTES: usize = 4096;

/// The largest request body read (the API takes none: GET only).
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The router of the whole site: the API under `/api/v1/` (and, deprecated,
/// `/api/`), the embedded
/// front end elsewhere.
pub fn router(state: Arc<AppState>) -> Router {
    api::routes()
        .merge(assets::routes())
        .with_state(Arc::clone(&state))
        .layer(axum::middleware::from_fn_with_state(
            state,
            api::error::log_faults,
        ))
        .layer(axum::middleware::from_fn(api::error::limit_uri))
        .layer(RequestBodyLimitLayer::new(MAX_BODY_BYTES))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(CompressionLayer::new())
}

/// The runtime the server is meant to run on: one async thread, which
/// accepts, routes and writes, while the work (queries, exports, the
/// values' searches, analyses) runs on rayon's pool, one thread per core:
/// the server's running threads never exceed the cores plus one.
///
/// # Errors
/// When the runtime cannot start (the system's limits).
pub fn runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
}

/// How long the requests under way get to finish once the shutdown
/// signal came; past it the server stops anyway (a client that never
/// reads must not keep it alive).
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// Serves [`router`] on `listener` until `shutdown` completes, then lets
/// the requests under way finish (for [`SHUTDOWN_GRACE`] at most).
///
/// # Errors
/// When accepting connections fails.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stopping, mut stopped) = tokio::sync::watch::channel(false);
    let signal = async move {
        shutdown.await;
        let _ = stopping.send(true);
    };
    let server = axum::serve(listener, router(state)).with_graceful_shutdown(signal);
    let grace = async move {
        // The sender is dropped only once the signal was sent.
        let _ = stopped.changed().await;
        tokio::time::sleep(SHUTDOWN_GRACE).await;
    };
    tokio::select! {
        done = server.into_future() => done,
        () = grace => Ok(()),
    }
}
