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
use super::response::{
    AccuracyYear, Mistake, Opponent, PlayerName, PlayerOpening, PlayerPage, PlayerRatingsInfo,
    RatingYear, YearRecord,
};
use super::{St, path_param, query, stats};
use crate::state::{AppState, run_blocking};
use wthor_db::analysis::{AccuracyOptions, accuracy};

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
    // The whole database's ratings, made once (at the server's start).
    let ratings = st.database().filter_ratings();
    let mut opponents: Vec<Opponent> = records
        .players
        .iter()
        .filter(|p| p.name != me.name)
        .map(|p| {
            // The opponent's record among the player's games: its last
            // year is the last year the two met.
            let last_met = (p.record.games > 0).then_some(p.record.last_year);
            Opponent {
                name: p.name.clone(),
                games: p.record.games,
                wins: p.record.losses,
                draws: p.record.draws,
                losses: p.record.wins,
                rating: last_met.and_then(|year| {
                    ratings
                        .named(&p.name)
                        .and_then(|r| r.rating_in(year))
                        .map(|r| (r * 10.0).round() / 10.0)
                }),
                last_met,
            }
        })
        .collect();
    opponents.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.name.cmp(&b.name)));
    opponents.truncate(20);
    let rated = ratings.named(&me.name).map(|r| PlayerRatingsInfo {
        program: r.program,
        peak: r.peak().map(RatingYear::from),
        years: r.years.iter().map(RatingYear::from).collect(),
        provisional_sd: ratings.params().provisional_sd,
    });
    let accuracy = (!st.analyses.is_empty()).then(|| accuracy_by_year(st, &me.name));
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
        ratings: rated,
        accuracy,
    })
}

/// The endgame accuracy of the player named exactly `name`, year by year,
/// from the analysis logs the server was given.
fn accuracy_by_year(st: &AppState, name: &str) -> Vec<AccuracyYear> {
    // Only the player's games: the table of every player is not made.
    let mut rows = accuracy(
        st.analyses
            .iter()
            .filter(|g| g.black == name || g.white == name),
        &AccuracyOptions {
            players: vec![NamePattern::exact(name)],
            by_year: true,
            min_moves: 1,
            worst: 3,
        },
    );
    rows.sort_by_key(|r| r.year);
    rows.into_iter()
        .filter(|r| r.player == name)
        .map(|r| AccuracyYear {
            year: r.year.unwrap_or_default(),
            games: r.games,
            moves: r.moves,
            mean_loss: r.mean_loss,
            perfect_share: r.perfect_share,
            worst: r.worst.into_iter().map(Mistake::from).collect(),
        })
        .collect()
}
