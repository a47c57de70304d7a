//! `/api/v1/games/{id}`: one game, its analysis, its export and its picture.

use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::response::Response;
use othello_core::replay::wthor_tokens;
use othello_core::{Board8, Board10, Size};
use wthor_db::analysis::{Analyzer, Report, analyze_game};
use wthor_db::position_line::game_positions;
use wthor_db::text::{ExportOptions, GameRecord};
use wthor_db::{GameId, openings};

use super::error::ApiError;
use super::query::{GameExportQuery, GamePngQuery, GameQuery, Params, clip};
use super::response::{GameDetail, NoveltyInfo, PositionInfo, Serialized};
use super::{St, count, path_param, query};
use crate::state::{AppState, CacheKey, Kept, run_blocking};

use super::explorer::opening_name;
use super::export::attachment;

pub(super) async fn game(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(query): Params<GameQuery>,
) -> Result<Serialized<GameDetail>, ApiError> {
    let id = path_param(id, "game")?;
    if !query.analysis && !query.novelty {
        let detail = run_blocking(&st, move |s| game_detail(s, &id)).await?;
        return Serialized::new(&detail);
    }
    // The analysis and the novelty (each a search or a pass over the
    // archive), kept with their game's answer.
    let gid = lookup(&st, &id)?;
    let key = CacheKey::Game(gid, query.clone());
    let late_key = key.clone();
    let make = async {
        let mut detail = run_blocking(&st, move |s| game_detail(s, &id)).await?;
        let name = detail.record.game.clone();
        if query.novelty {
            let moves = detail.record.moves.clone();
            // The novelty move's value: one multi-PV search of a fixed
            // depth from fresh tables (the same every time).
            detail.novelty = run_blocking(&st, move |s| {
                let db = s.database();
                let Some(n) = db.novelty_of(gid) else {
                    return Ok(None);
                };
                let value = db
                    .novelty_value(&n)
                    .map_err(|e| ApiError::internal(format!("the novelty's value: {e}")))?;
                Ok(Some(NoveltyInfo::new(&n, &moves, value)))
            })
            .await?;
        }
        if query.analysis {
            // The answer is kept once the analysis ends even when this
            // request's cap passed meanwhile (the work goes on, its turn
            // held): asked again, the game is answered from the cache.
            let runtime = tokio::runtime::Handle::current();
            let (key, mut whole) = (late_key, detail.clone());
            detail.analysis = Some(
                run_blocking(&st, move |s| {
                    let report = analyse(s, &name)?;
                    if let Some(n) = whole.novelty.as_mut() {
                        n.judged_by(&report);
                    }
                    whole.analysis = Some(report.clone());
                    s.keep(&runtime, key, kept(&whole)?);
                    Ok(report)
                })
                .await?,
            );
            if let (Some(n), Some(report)) = (detail.novelty.as_mut(), detail.analysis.as_ref()) {
                n.judged_by(report);
            }
        }
        Ok(kept(&detail)?)
    };
    let (answer, _) = st.answer(key, make).await?;
    Ok(Serialized::from_json(answer.json))
}

/// A game's answer as the cache keeps it.
fn kept(detail: &GameDetail) -> Result<Kept, ApiError> {
    Ok(Kept {
        json: Serialized::new(detail)?.json().clone(),
        values: "none",
    })
}

fn lookup(st: &AppState, id: &str) -> Result<GameId, ApiError> {
    Ok(st.database().parse_game_id(id)?)
}

fn game_detail(st: &AppState, id: &str) -> Result<GameDetail, ApiError> {
    let gid = lookup(st, id)?;
    let db = st.database();
    let (Some(record), Some(view)) = (GameRecord::new(db, gid), db.game(gid)) else {
        return Err(ApiError::not_found(format!(
            "game {:?}: no such game",
            clip(id)
        )));
    };
    let size = wthor_db::rules_size(view.board_size());
    let tokens: Vec<_> = match size {
        Size::Eight => wthor_tokens::<Board8>(view.moves_raw()).collect(),
        Size::Ten => wthor_tokens::<Board10>(view.moves_raw()).collect(),
    };
    let replay = game_positions(size, &tokens);
    let opening = match size {
        Size::Eight => openings::table().opening_of_wthor(view.moves_raw()),
        Size::Ten => None,
    };
    Ok(GameDetail {
        record,
        opening: opening.map(opening_name),
        positions: replay.lines.iter().map(PositionInfo::of).collect(),
        illegal: replay
            .illegal
            .map(|i| format!("{}: {}", i.describe(size), i.reason)),
        analysis: None,
        novelty: None,
    })
}

/// `wthor analyze`'s analysis of a game, with the server's options.
fn analyse(st: &AppState, id: &str) -> Result<Report, ApiError> {
    let gid = lookup(st, id)?;
    let db = st.database();
    let (Some(view), Some(file)) = (db.game(gid), db.file_of(gid)) else {
        return Err(ApiError::not_found(format!(
            "game {:?}: no such game",
            clip(id)
        )));
    };
    let options = &st.config.analysis;
    let mut analyzer = Analyzer::for_one_game(options, Some(st.config.analysis_threads))?;
    let analysis = analyze_game(&view, file.header().depth(), options, &mut analyzer)?;
    Ok(Report::new(
        db.game_name(gid).to_string(),
        options,
        analysis,
    ))
}

/// `GET /api/v1/games/{id}/export?format=`: one game as `wthor export` writes it.
pub(super) async fn game_export(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(GameExportQuery { format }): Params<GameExportQuery>,
) -> Result<Response, ApiError> {
    let id = path_param(id, "game")?;
    let name = format!("{id}.{}", format.format().extension());
    let body = run_blocking(&st, move |s| {
        let gid = lookup(s, &id)?;
        let mut out = Vec::new();
        let options = ExportOptions {
            format: format.format(),
            empties: None,
        };
        wthor_db::text::export(s.database(), &[gid], &options, &mut out)?;
        Ok(out)
    })
    .await?;
    Ok(attachment(body, format.format().media_type(), &name))
}

/// `GET /api/v1/games/{id}/png?ply=N`: the position after N discs played
/// (default: the end), drawn as `wthor show --png` draws it, named by the
/// game and N.
pub(super) async fn game_png(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(GamePngQuery { ply }): Params<GamePngQuery>,
) -> Result<Response, ApiError> {
    let id = path_param(id, "game")?;
    let ply = ply.map(|query::Count(n)| n);
    let game = id.clone();
    let (body, drawn) = run_blocking(&st, move |s| {
        let gid = lookup(s, &id)?;
        let view = s
            .database()
            .game(gid)
            .ok_or_else(|| ApiError::not_found("no such game"))?;
        let size = wthor_db::rules_size(view.board_size());
        let tokens: Vec<_> = match size {
            Size::Eight => wthor_tokens::<Board8>(view.moves_raw()).collect(),
            Size::Ten => wthor_tokens::<Board10>(view.moves_raw()).collect(),
        };
        let lines = game_positions(size, &tokens).lines;
        // The position before the first move is always there.
        let plies = lines.len().saturating_sub(1);
        let drawn = ply.unwrap_or(plies);
        let line = lines.get(drawn).ok_or_else(|| {
            ApiError::parameter(
                "ply",
                format!(
                    "the game has {}: give 0 to {plies}, got {}",
                    count(plies, "move", "moves"),
                    ply.unwrap_or_default()
                ),
            )
        })?;
        let picture = wthor_draw::Position::new(size, line.squares().to_vec(), line.to_move())
            .and_then(|p| p.with_last_move(line.last_move()))?;
        let svg = wthor_draw::svg(&picture, &wthor_draw::Options::default());
        Ok((wthor_draw::png(&svg, 1.0)?, drawn))
    })
    .await?;
    // The position's name: the game and the discs played (`2001_5-ply30.png`).
    Ok(attachment(
        body,
        "image/png",
        &format!("{game}-ply{drawn}.png"),
    ))
}
