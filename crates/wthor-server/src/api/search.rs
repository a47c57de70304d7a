//! `/api/v1/search`: a page of the games of the filters.

use axum::Json;
use axum::extract::State;
use wthor_db::GameId;

use super::error::ApiError;
use super::query::{Params, SearchQuery, to_query};
use super::response::SearchPage;
use super::{St, opening_suggestions, query, records, search_ids};
use crate::state::{AppState, run_filtered};

pub(super) async fn search(
    State(st): St,
    Params(query): Params<SearchQuery>,
) -> Result<Json<SearchPage>, ApiError> {
    run_filtered(&st, move |s| find(s, query)).await.map(Json)
}

fn find(st: &AppState, query: SearchQuery) -> Result<SearchPage, ApiError> {
    let SearchQuery {
        limit: query::Count(limit),
        offset: query::Count(offset),
        filters,
    } = query;
    let query = to_query(&filters, "position_after")?;
    let ids = search_ids(st, &query)?;
    let page: Vec<GameId> = ids.iter().skip(offset).take(limit).copied().collect();
    Ok(SearchPage {
        total: ids.len(),
        offset,
        limit,
        games: records(st, &page),
        suggestions: opening_suggestions(&filters),
        note: filters.opening_name_note(),
    })
}
