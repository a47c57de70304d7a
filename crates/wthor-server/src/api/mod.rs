//! The API, version 1: `/api/v1/explorer`, `/api/v1/history`, `/api/v1/search`,
//! `/api/v1/games/{id}` (and its `/export`, `/png`), `/api/v1/players`,
//! `/api/v1/players/{name}`, `/api/v1/export`, `/api/v1/ratings`,
//! `/api/v1/report/player/{name}` (see `docs/http-api.md`);
//! the same endpoints at `/api/…`, deprecated. Each handler reads its parameters
//! ([`query`]), runs the library's query off the async threads
//! (rayon's pool, under a turn and a time cap) and answers one type of
//! [`response`], or an [`error::ApiError`].

pub mod error;
mod explorer;
mod export;
mod games;
mod history;
mod players;
pub mod query;
mod ratings;
mod report;
pub mod response;
mod search;

pub use explorer::VALUES_HEADER;

use std::sync::Arc;

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, Uri};
use axum::routing::get;
use wthor_db::stats::{Stats, StatsOptions};
use wthor_db::text::GameRecord;
use wthor_db::{GameId, Query};

use tower_http::set_header::SetResponseHeaderLayer;

use crate::state::AppState;
use error::ApiError;
use query::clip;

/// The closest opening names suggested for a name that names nothing (as
/// many as the CLI's note gives).
const OPENING_SUGGESTIONS: usize = 3;

type St = State<Arc<AppState>>;

/// The version of the API in its paths: `/api/v1/…`.
pub const VERSION: &str = "v1";

/// The header of the answers of the unversioned paths (`/api/…`, the
/// paths before `/api/v1/…`, which keep answering): `Deprecation: true`.
pub const DEPRECATION_HEADER: &str = "deprecation";

/// The endpoints, at `prefix`.
fn endpoints(prefix: &str) -> Router<Arc<AppState>> {
    use {
        explorer::explorer,
        export::export,
        games::{game, game_export, game_png},
        history::history,
        players::{player, players},
        ratings::ratings,
        report::player_report,
        search::search,
    };
    Router::new()
        .route(&format!("{prefix}/explorer"), get(explorer))
        .route(&format!("{prefix}/history"), get(history))
        .route(&format!("{prefix}/search"), get(search))
        .route(&format!("{prefix}/games/{{id}}"), get(game))
        .route(&format!("{prefix}/games/{{id}}/export"), get(game_export))
        .route(&format!("{prefix}/games/{{id}}/png"), get(game_png))
        .route(&format!("{prefix}/players"), get(players))
        .route(&format!("{prefix}/players/{{name}}"), get(player))
        .route(&format!("{prefix}/export"), get(export))
        .route(&format!("{prefix}/ratings"), get(ratings))
        .route(
            &format!("{prefix}/report/player/{{name}}"),
            get(player_report),
        )
}

/// The routes of the API: the endpoints at `/api/v1/`, and at `/api/`
/// (deprecated: the same answers, marked by [`DEPRECATION_HEADER`]).
pub(crate) fn routes() -> Router<Arc<AppState>> {
    let deprecated = endpoints("/api").layer(SetResponseHeaderLayer::overriding(
        HeaderName::from_static(DEPRECATION_HEADER),
        HeaderValue::from_static("true"),
    ));
    Router::new()
        .merge(endpoints(&format!("/api/{VERSION}")))
        .merge(deprecated)
        .route("/api", get(unknown))
        .route("/api/", get(unknown))
        .route("/api/{*rest}", get(unknown))
}

async fn unknown(uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "{}: no such endpoint (the API is at /api/v1/: see docs/http-api.md)",
        clip(uri.path())
    ))
}

/// A path parameter, or a 400 naming it.
fn path_param(p: Result<Path<String>, PathRejection>, what: &str) -> Result<String, ApiError> {
    p.map(|Path(s)| s)
        .map_err(|e| ApiError::parameter(what, e.body_text()))
}

/// The statistics of a query, through the index when there is one; and
/// whether it answered.
fn stats(st: &AppState, query: &Query, options: &StatsOptions) -> Result<(Stats, bool), ApiError> {
    let answer = st.searcher.stats(query, options)?;
    Ok((answer.value, answer.indexed))
}

/// The games of a query, through the index when there is one.
fn search_ids(st: &AppState, query: &Query) -> Result<Vec<GameId>, ApiError> {
    Ok(st.searcher.search(query)?.value)
}

fn records(st: &AppState, ids: &[GameId]) -> Vec<GameRecord> {
    ids.iter()
        .filter_map(|&id| GameRecord::new(st.database(), id))
        .collect()
}

/// When `opening_name` names no opening: the closest names (as the CLI
/// suggests them), none for a text like no name.
fn opening_suggestions(filters: &wthor_db::query::Filters) -> Option<Vec<String>> {
    let name = filters
        .opening_name
        .as_deref()
        .filter(|name| wthor_db::openings::table().by_name(name).is_none())?;
    Some(
        wthor_db::openings::table()
            .closest(name, OPENING_SUGGESTIONS)
            .iter()
            .map(|o| o.name().to_owned())
            .collect(),
    )
}

/// `n` and its noun, singular for 1 (`1 move`, `58 moves`).
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
