//! `/api/v1/history`: a position through the years (the library's
//! [`Searcher::history`](wthor_db::Searcher::history)), read as the
//! explorer reads it (`play=`, `position=`, the same filters); kept in
//! the cache of answers as the explorer's are.

use axum::extract::State;
use wthor_db::GameId;
use wthor_db::stats::ResultsRow;
use wthor_db::text::GameRecord;

use super::St;
use super::error::ApiError;
use super::explorer::{Read, next_obf, read_position};
use super::query::{HistoryQuery, Params};
use super::response::{HistoryAnswer, HistoryYear, MoveHistoryRow, Serialized, YearMove};
use crate::state::{AppState, CacheKey, Kept, run_filtered};

/// What "first" means, in every answer (the archive has no dates).
const FIRST_MEANS: &str = "first: the earliest year, then file order (the archive has no \
                               dates; file order is not known to be chronological within a year)";

pub(super) async fn history(
    State(st): St,
    Params(query): Params<HistoryQuery>,
) -> Result<Serialized<HistoryAnswer>, ApiError> {
    let key = CacheKey::History(Box::new(query.clone()));
    let make = async {
        let answer = run_filtered(&st, move |s| history_of(s, query)).await?;
        Ok(Kept {
            json: Serialized::new(&answer)?.json().clone(),
            values: "none",
        })
    };
    let (kept, _) = st.answer(key, make).await?;
    Ok(Serialized::from_json(kept.json))
}

/// The history of the query's position.
fn history_of(st: &AppState, query: HistoryQuery) -> Result<HistoryAnswer, ApiError> {
    let HistoryQuery {
        play,
        position,
        filters,
    } = query;
    let Read {
        query, position, ..
    } = read_position(play.as_deref(), position, filters)?;
    let history = st.searcher.history(&query)?;
    let size = position.size();
    let name = |sq: othello_core::Square| sq.name(size).to_string();
    let record = |id: GameId| {
        GameRecord::new(st.database(), id)
            .ok_or_else(|| ApiError::internal(format!("game {id:?} of the history is not there")))
    };
    let moves = history
        .moves
        .iter()
        .map(|m| {
            Ok(MoveHistoryRow {
                square: name(m.square),
                games: m.games,
                first: record(m.first)?,
                latest: record(m.latest)?,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(HistoryAnswer {
        obf: next_obf(&position),
        reached: history.reached(),
        first_means: FIRST_MEANS,
        years: history
            .years
            .iter()
            .map(|y| HistoryYear {
                year: y.year,
                results: ResultsRow::from(&y.reached).into(),
                moves: y
                    .moves
                    .iter()
                    .map(|(sq, r)| YearMove {
                        square: name(*sq),
                        results: ResultsRow::from(r).into(),
                    })
                    .collect(),
            })
            .collect(),
        first: history.first.map(record).transpose()?,
        latest: history.latest.map(record).transpose()?,
        moves,
    })
}
