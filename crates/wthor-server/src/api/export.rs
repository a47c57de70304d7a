//! `/api/v1/export`: the games of the filters, streamed.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use wthor_db::GameId;
use wthor_db::text::ExportOptions;

use super::error::ApiError;
use super::query::{ExportFormat, ExportQuery, Params, to_query};
use super::{St, search_ids};
use crate::state::{Advice, AppState, run_until};

/// The parts an export holds ready beyond the one its client is taking.
const EXPORT_AHEAD: usize = 2;

/// `GET /api/v1/export`: the games of the filters, `wthor export`'s
/// bytes, streamed part by part, each part written on the pool under a
/// turn of the queries, the whole under the time cap from the request on;
/// a client that takes no part for the write timeout ends it. An export
/// that ends early cuts its connection (the download is seen to fail,
/// never taken as whole).
pub(super) async fn export(
    State(st): St,
    Params(query): Params<ExportQuery>,
) -> Result<Response, ApiError> {
    let deadline = std::time::Instant::now() + st.config.time_cap;
    let format = query.format;
    let filters = to_query(&query.filters, "position_after")?;
    let ids = Arc::new(
        run_until(&st, deadline, Advice::NarrowFilters, move |s| {
            search_ids(s, &filters)
        })
        .await?,
    );
    let (tx, rx) = tokio::sync::mpsc::channel::<bytes::Bytes>(EXPORT_AHEAD);
    let whole = Arc::new(std::sync::atomic::AtomicBool::new(false));
    tokio::spawn(stream_export(
        Arc::clone(&st),
        ids,
        format,
        deadline,
        tx,
        Arc::clone(&whole),
    ));
    // Fused: the compression layer may poll the body once more after
    // its end, which a bare `unfold` answers with a panic.
    let stream = futures_util::StreamExt::fuse(futures_util::stream::unfold(
        (rx, whole, false),
        |(mut rx, whole, done)| async move {
            if done {
                return None;
            }
            match rx.recv().await {
                Some(bytes) => Some((Ok(bytes), (rx, whole, false))),
                None if whole.load(std::sync::atomic::Ordering::Acquire) => None,
                None => Some((
                    Err(std::io::Error::other("the export stopped before its end")),
                    (rx, whole, true),
                )),
            }
        },
    ));
    let response = axum::body::Body::from_stream(stream).into_response();
    Ok(download(
        response,
        format.format().media_type(),
        &format!("wthor.{}", format.format().extension()),
    ))
}

/// Writes the export's parts into `tx`, and says when it wrote them all
/// (`whole`); stops at the time cap, at the write timeout, or when the
/// client is gone.
async fn stream_export(
    st: Arc<AppState>,
    ids: Arc<Vec<GameId>>,
    format: ExportFormat,
    deadline: std::time::Instant,
    tx: tokio::sync::mpsc::Sender<bytes::Bytes>,
    whole: Arc<std::sync::atomic::AtomicBool>,
) {
    let mut header = Vec::new();
    if wthor_db::text::write_header(format.format(), &mut header).is_err() {
        return;
    }
    let mut next = Some(header);
    let mut start = 0;
    while let Some(part) = next.take() {
        if !part.is_empty() {
            let wait = st
                .config
                .write_timeout
                .min(deadline.saturating_duration_since(std::time::Instant::now()));
            match tokio::time::timeout(wait, tx.send(bytes::Bytes::from(part))).await {
                Ok(Ok(())) => {}
                // The client is gone, or takes nothing: the export ends.
                Ok(Err(_)) | Err(_) => return,
            }
        }
        if start >= ids.len() {
            break;
        }
        let end = (start + st.config.export_part.max(1)).min(ids.len());
        let part_ids = Arc::clone(&ids);
        let options = ExportOptions {
            format: format.format(),
            empties: None,
        };
        match run_until(&st, deadline, Advice::NarrowFilters, move |s| {
            let mut out = Vec::new();
            wthor_db::text::export_rows(s.database(), &part_ids[start..end], &options, &mut out)?;
            Ok(out)
        })
        .await
        {
            Ok(bytes) => next = Some(bytes),
            Err(e) => {
                if let ApiError::Internal(_) = e {
                    st.fault(&format!("export: {e}"));
                }
                return;
            }
        }
        start = end;
    }
    whole.store(true, std::sync::atomic::Ordering::Release);
}

/// A download: the body, its media type and file name.
pub(super) fn attachment(body: Vec<u8>, mime: &'static str, file: &str) -> Response {
    download(body.into_response(), mime, file)
}

/// `response` as a download of the media type and file name.
fn download(mut response: Response, mime: &'static str, file: &str) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    let file: String = file
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{file}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    response
}
