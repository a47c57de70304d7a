//! `/api/v1/report/player/{name}?as=black|white&since=Y`: the preparation
//! report of `wthor report player` ([`wthor_db::report`]) with the
//! player's worst endgame mistakes as that colour when the server has
//! analysis logs.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use othello_core::Color;
use wthor_db::analysis::{Side, worst_moves};
use wthor_db::ratings::{FindError, PlayerRatings, Ratings};
use wthor_db::report::{ReportError, ReportOptions};

use super::error::ApiError;
use super::query::{Params, ReportQuery, ReportSide, clip};
use super::response::{Mistake, RatingYear, ReportPage};
use super::{St, path_param};
use crate::state::{AppState, run_blocking};

/// The worst mistakes a report lists.
const MISTAKES: usize = 10;

pub(super) async fn player_report(
    State(st): St,
    name: Result<Path<String>, PathRejection>,
    Params(query): Params<ReportQuery>,
) -> Result<Json<ReportPage>, ApiError> {
    let name = path_param(name, "player")?;
    run_blocking(&st, move |s| report(s, &name, &query))
        .await
        .map(Json)
}

fn report(st: &AppState, name: &str, query: &ReportQuery) -> Result<ReportPage, ApiError> {
    if name.chars().count() > 100 {
        return Err(ApiError::parameter("player", "at most 100 characters"));
    }
    let ratings = st.database().filter_ratings();
    let player = find_player(ratings, name)?;
    let color = match query.side {
        ReportSide::Black => Color::Black,
        ReportSide::White => Color::White,
    };
    let mut options = ReportOptions::new(color);
    options.since = query.since;
    let report = st
        .database()
        .player_report(&player.name, &options, Some(ratings))
        .map_err(|e| match e {
            ReportError::NoGames { .. } | ReportError::OneGame { .. } => {
                ApiError::not_found(e.to_string())
            }
            other => ApiError::bad_request(other.to_string()),
        })?;
    let mistakes = (!st.analyses.is_empty()).then(|| {
        worst_moves(
            &st.analyses,
            &player.name,
            Some(Side::from(color)),
            query.since,
            MISTAKES,
        )
        .into_iter()
        .map(Mistake::from)
        .collect()
    });
    Ok(ReportPage {
        program: player.program,
        rating: player.years.last().map(RatingYear::from),
        mistakes,
        report,
    })
}

/// The rated player `name` names ([`Ratings::find`]): a 404 naming the
/// closest names, a 400 naming the players a part names (the text
/// clipped in the message).
fn find_player<'a>(ratings: &'a Ratings, name: &str) -> Result<&'a PlayerRatings, ApiError> {
    ratings.find(name).map_err(|e| match e {
        FindError::NoPlayer { rated, closest, .. } => ApiError::not_found(
            FindError::NoPlayer {
                name: clip(name),
                rated,
                closest,
            }
            .to_string(),
        ),
        FindError::Several { count, some, .. } => ApiError::bad_request(
            FindError::Several {
                name: clip(name),
                count,
                some,
            }
            .to_string(),
        ),
    })
}
