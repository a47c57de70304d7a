//! The one error type of the API: a status and a message, answered as
//! `{"error": "…"}`. Bad input is a 4xx naming the parameter and what was
//! expected; a query past its time cap is 503; nothing is a 500.

use axum::Json;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// An error answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The status (4xx, or 503).
    pub status: StatusCode,
    /// What went wrong, as a sentence.
    pub message: String,
    /// For an illegal move of the explorer's `play=`: the moves before it
    /// (a transcript), where a page shows the board.
    pub legal_play: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Body<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_play: Option<&'a str>,
}

impl ApiError {
    /// An error of `status`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            legal_play: None,
        }
    }

    /// 400: a parameter that cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404: nothing there.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 503: the time cap passed, or the server is stopping.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The error with the moves of `play=` before its illegal one.
    #[must_use]
    pub fn with_legal_play(self, moves: String) -> ApiError {
        ApiError {
            legal_play: Some(moves),
            ..self
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(Body {
                error: &self.message,
                legal_play: self.legal_play.as_deref(),
            }),
        )
            .into_response()
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
        return ApiError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the request is {target} bytes long: at most {} are read",
                crate::MAX_URI_BYTES
            ),
        )
        .into_response();
    }
    let method = request.method();
    if method != axum::http::Method::GET && method != axum::http::Method::HEAD {
        return ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{method}: the server only answers GET (it is read-only)"),
        )
        .into_response();
    }
    next.run(request).await
}
