//! `/api/v1/ratings?year=&top=`: the rating list of a year, from the
//! whole-history fit of the database (made once, at the server's start).

use axum::Json;
use axum::extract::State;

use super::St;
use super::error::ApiError;
use super::query::{Count, Params, RatingsQuery};
use super::response::{RatedPlayer, RatingYear, RatingsPage};
use crate::state::run_blocking;

pub(super) async fn ratings(
    State(st): St,
    Params(query): Params<RatingsQuery>,
) -> Result<Json<RatingsPage>, ApiError> {
    let RatingsQuery {
        year,
        top: Count(top),
    } = query;
    run_blocking(&st, move |s| {
        let ratings = s.database().filter_ratings();
        let years = ratings.years();
        let (Some(&first), Some(&last)) = (years.first(), years.last()) else {
            return Err(ApiError::not_found("no rated games in this database"));
        };
        let year = year.unwrap_or(last);
        let list = ratings.year(year);
        if list.is_empty() {
            return Err(ApiError::not_found(format!(
                "no rated games in {year}: the rated years are {first}–{last}"
            )));
        }
        Ok(Json(RatingsPage {
            year,
            rated: list.len(),
            provisional_sd: ratings.params().provisional_sd,
            players: list
                .iter()
                .take(top)
                .map(|r| RatedPlayer {
                    name: r.player.name.clone(),
                    program: r.player.program,
                    at: RatingYear::from(r.at),
                })
                .collect(),
            years,
        }))
    })
    .await
}
