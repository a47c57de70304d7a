//! The one error type of the API, answered as a status and `{"error":
//! "…"}`: malformed input is a 4xx naming the parameter and what was
//! expected, a query past its time cap 503 (busy, with `Retry-After`,
//! when it waited for its turn all along), and an internal fault (the
//! database, the system, a query that panicked) 500 with a message,
//! logged ([`crate::AppState::on_fault`]). The library's errors convert
//! with `From`, each to its status.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use wthor_db::analysis::AnalysisError;
use wthor_db::id::GameIdError;

use crate::AppState;

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ApiError {
    /// 400: a parameter that cannot be read, named by its key.
    #[error("{key}: {message}")]
    Parameter {
        /// The key (a query string's, or a path parameter's name).
        key: String,
        /// What is wrong with it.
        message: String,
    },
    /// 400: an illegal move of the explorer's `play=`, with the moves
    /// before it (a transcript), where a page shows the board.
    #[error("play: {message}")]
    IllegalPlay {
        /// The error of the move.
        message: String,
        /// The moves before it.
        legal_play: String,
    },
    /// 400: a request that cannot be read otherwise (a query string that
    /// is none, an unknown parameter).
    #[error("{0}")]
    BadRequest(String),
    /// 404: no such game, player, endpoint or page.
    #[error("{0}")]
    NotFound(String),
    /// 405: another method than GET or HEAD.
    #[error("{0}: the server only answers GET (it is read-only)")]
    MethodNotAllowed(String),
    /// 414: a request target past [`crate::MAX_URI_BYTES`].
    #[error("the request is {0} bytes long: at most {max} are read", max = crate::MAX_URI_BYTES)]
    UriTooLong(usize),
    /// 503: the time cap passed while the query ran, or the server is
    /// stopping.
    #[error("{0}")]
    Unavailable(String),
    /// 503: the request waited for a turn the whole time cap (every turn
    /// taken): answered with `Retry-After`.
    #[error("{message}")]
    Busy {
        /// What happened.
        message: String,
        /// The seconds to wait before asking again.
        retry_after: u64,
    },
    /// 500: a fault of the server, not of the request (logged).
    #[error("internal error: {0}")]
    Internal(String),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_play: Option<&'a str>,
}

impl ApiError {
    /// 400 for the parameter `key`.
    pub fn parameter(key: &str, message: impl Into<String>) -> ApiError {
        ApiError::Parameter {
            key: key.to_owned(),
            message: message.into(),
        }
    }

    /// 400: a request that cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::BadRequest(message.into())
    }

    /// 404: nothing there.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::NotFound(message.into())
    }

    /// 503: the time cap passed, or the server is stopping.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::Unavailable(message.into())
    }

    /// 500: a fault of the server.
    pub fn internal(message: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(message.to_string())
    }

    /// The status answered.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Parameter { .. } | ApiError::IllegalPlay { .. } | ApiError::BadRequest(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::UriTooLong(_) => StatusCode::URI_TOO_LONG,
            ApiError::Unavailable(_) | ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// A game id that is no id (400) or names no game of the database (404).
impl From<GameIdError> for ApiError {
    fn from(e: GameIdError) -> ApiError {
        match e {
            GameIdError::Syntax(_) | GameIdError::Ambiguous(..) => {
                ApiError::parameter("game", e.to_string())
            }
            GameIdError::NoFile(_) | GameIdError::NoGame { .. } => {
                ApiError::not_found(format!("game: {e}"))
            }
            _ => ApiError::parameter("game", e.to_string()),
        }
    }
}

/// A range or sort key of a query: malformed input.
impl From<wthor_db::QueryError> for ApiError {
    fn from(e: wthor_db::QueryError) -> ApiError {
        ApiError::bad_request(e.to_string())
    }
}

/// The database or one of its files failing: a fault of the server.
impl From<wthor_db::Error> for ApiError {
    fn from(e: wthor_db::Error) -> ApiError {
        ApiError::internal(wthor_db::error_chain(&e))
    }
}

/// A game that cannot be analysed (10x10, an illegal move) is the
/// request's; the searches' own options or tables failing, the server's.
impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> ApiError {
        match e {
            AnalysisError::TenByTen | AnalysisError::Illegal(_) => {
                ApiError::parameter("analysis", e.to_string())
            }
            _ => ApiError::internal(format!("analysis: {}", wthor_db::error_chain(&e))),
        }
    }
}

/// The midgame search's tables that cannot be had.
impl From<othello_core::midgame::MidgameError> for ApiError {
    fn from(e: othello_core::midgame::MidgameError) -> ApiError {
        ApiError::internal(format!("the search: {e}"))
    }
}

/// A picture that cannot be drawn.
impl From<wthor_draw::Error> for ApiError {
    fn from(e: wthor_draw::Error) -> ApiError {
        ApiError::internal(format!("the picture: {e}"))
    }
}

/// An answer that cannot be serialised, a download that cannot be
/// written.
impl From<serde_json::Error> for ApiError {
    fn from(e: serde_json::Error) -> ApiError {
        ApiError::internal(format!("the answer: {e}"))
    }
}

impl From<std::io::Error> for ApiError {
    fn from(e: std::io::Error) -> ApiError {
        ApiError::internal(e)
    }
}

/// An internal fault's message, on its response for [`log_faults`].
#[derive(Clone, Debug)]
pub(crate) struct Fault(pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let message = self.to_string();
        let legal_play = match &self {
            ApiError::IllegalPlay { legal_play, .. } => Some(legal_play.as_str()),
            _ => None,
        };
        let mut response = (
            self.status(),
            Json(Body {
                error: &message,
                legal_play,
            }),
        )
            .into_response();
        match self {
            ApiError::Internal(_) => {
                response.extensions_mut().insert(Fault(message));
            }
            ApiError::Busy { retry_after, .. } => {
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(retry_after));
            }
            _ => {}
        }
        response
    }
}

/// Refuses a request target longer than [`crate::MAX_URI_BYTES`] (414),
/// and any method but GET and HEAD (405): the site is read-only.
pub(crate) async fn limit_uri(request: Request, next: Next) -> Response {
    let target = request
        .uri()
        .path_and_query()
        .map_or(0, |p| p.as_str().len());
    if target > crate::MAX_URI_BYTES {
        return ApiError::UriTooLong(target).into_response();
    }
    let method = request.method();
    if method != axum::http::Method::GET && method != axum::http::Method::HEAD {
        return ApiError::MethodNotAllowed(method.to_string()).into_response();
    }
    next.run(request).await
}

/// Logs the internal faults answered (500), with the request.
pub(crate) async fn log_faults(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    let what = format!("{} {}", request.method(), request.uri());
    let response = next.run(request).await;
    if let Some(Fault(message)) = response.extensions().get::<Fault>() {
        state.fault(&format!("{what}: {message}"));
    }
    response
}
