//! `/api/v1/players` and `/api/v1/players/{name}`: names and a player's page.

use axum::Json;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use othello_core::Color;
use wthor_db::names::NamePattern;
use wthor_db::query::Filters;
use wthor_db::stats::{RecordRow, StatsOptions, StatsReport};

use super::error::ApiError;
use super::query::{Params, PlayerQuery, PlayersQuery, clip, to_query};
use super::response::{Opponent, PlayerName, PlayerOpening, PlayerPage, YearRecord};
use super::{St, path_param, query, stats};
use crate::state::{AppState, run_blocking};

pub(super) async fn players(
    State(st): St,
    Params(query): Params<PlayersQuery>,
) -> Result<Json<Vec<PlayerName>>, ApiError> {
    let PlayersQuery {
        prefix,
        limit: query::Count(top),
    } = query;
    if prefix.chars().count() > 100 {
        return Err(ApiError::parameter("prefix", "at most 100 characters"));
    }
    let q = wthor_db::names::fold(prefix.trim());
    let mut found: Vec<PlayerName> = st
        .players
        .iter()
        .filter(|p| {
            p.folded.starts_with(&q)
                || p.folded
                    .split(|c: char| !c.is_alphanumeric())
                    .any(|w| w.starts_with(&q))
        })
        .map(|p| PlayerName {
            name: p.name.clone(),
            games: p.games,
        })
        .collect();
    found.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
    found.truncate(top);
    Ok(Json(found))
}

pub(super) async fn player(
    State(st): St,
    name: Result<Path<String>, PathRejection>,
    Params(PlayerQuery {}): Params<PlayerQuery>,
) -> Result<Json<PlayerPage>, ApiError> {
    let name = path_param(name, "player")?;
    run_blocking(&st, move |s| player_page(s, &name))
        .await
        .map(Json)
}

/// The openings of this many moves on a player's page.
const PLAYER_OPENING_MOVES: usize = 4;

fn player_page(st: &AppState, name: &str) -> Result<PlayerPage, ApiError> {
    let base = Filters {
        exact: true,
        ..Filters::default()
    };
    let all = Filters {
        players: vec![name.to_owned()],
        ..base.clone()
    };
    let (records, _) = stats(
        st,
        &to_query(&all, "player")?,
        &StatsOptions {
            players: true,
            by_year: true,
            ..StatsOptions::default()
        },
    )?;
    let pattern = NamePattern::exact(name);
    let Some(me) = records
        .players
        .iter()
        .find(|p| p.known && pattern.matches(&p.name))
    else {
        return Err(ApiError::not_found(format!(
            "player {:?}: no games in this database",
            clip(name)
        )));
    };
    let openings = |filters: Filters, color: Color| -> Result<Vec<PlayerOpening>, ApiError> {
        let (s, _) = stats(
            st,
            &to_query(&filters, "player")?,
            &StatsOptions {
                openings: PLAYER_OPENING_MOVES,
                ..StatsOptions::default()
            },
        )?;
        Ok(StatsReport::new(&s, &[], false, Some(10))
            .openings
            .into_iter()
            .map(|row| PlayerOpening::new(row, color))
            .collect())
    };
    let as_black = openings(
        Filters {
            black: Some(me.name.clone()),
            ..base.clone()
        },
        Color::Black,
    )?;
    let as_white = openings(
        Filters {
            white: Some(me.name.clone()),
            ..base
        },
        Color::White,
    )?;
    let mut opponents: Vec<Opponent> = records
        .players
        .iter()
        .filter(|p| p.name != me.name)
        .map(|p| Opponent {
            name: p.name.clone(),
            games: p.record.games,
            wins: p.record.losses,
            draws: p.record.draws,
            losses: p.record.wins,
        })
        .collect();
    opponents.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
    opponents.truncate(20);
    Ok(PlayerPage {
        name: me.name.clone(),
        record: RecordRow::from(&me.record).into(),
        by_year: me
            .by_year
            .iter()
            .map(|(year, r)| YearRecord {
                year: *year,
                record: RecordRow::from(r).into(),
            })
            .collect(),
        as_black,
        as_white,
        opponents,
    })
}
