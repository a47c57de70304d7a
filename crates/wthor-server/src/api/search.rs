//! `/api/v1/search`: a page of the games of the filters.

use axum::Json;
use axum::extract::State;
use wthor_db::{GameId, openings};

use super::error::ApiError;
use super::query::{Params, SearchQuery, to_query};
use super::response::SearchPage;
use super::{OPENING_SUGGESTIONS, St, query, records, search_ids};
use crate::state::{AppState, run_blocking};

pub(super) async fn search(
    State(st): St,
    Params(query): Params<SearchQuery>,
) -> Result<Json<SearchPage>, ApiError> {
    run_blocking(&st, move |s| find(s, query)).await.map(Json)
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
    // An opening name that names nothing: the close names (as the CLI
    // suggests them), none for a text like no name.
    let unknown = filters
        .opening_name
        .as_deref()
        .filter(|name| openings::table().by_name(name).is_none());
    Ok(SearchPage {
        total: ids.len(),
        offset,
        limit,
        games: records(st, &page),
        suggestions: unknown.map(|name| {
            openings::table()
                .closest(name, OPENING_SUGGESTIONS)
                .iter()
                .map(|o| o.name().to_owned())
                .collect()
        }),
        note: filters.opening_name_note(),
    })
}
