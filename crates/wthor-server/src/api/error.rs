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
}

#[derive(Serialize)]
struct Body<'a> {
    error: &'a str,
}

impl ApiError {
    /// 400: a parameter that cannot be read.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 404: nothing there.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 503: the time cap passed, or the server is stopping.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: message.into(),
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
        return ApiError {
            status: StatusCode::URI_TOO_LONG,
            message: format!(
                "the request is {target} bytes long: at most {} are read",
                crate::MAX_URI_BYTES
            ),
        }
        .into_response();
    }
    let method = request.method();
    if method != axum::http::Method::GET && method != axum::http::Method::HEAD {
        return ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("{method}: the server only answers GET (it is read-only)"),
        }
        .into_response();
    }
    next.run(request).await
}
