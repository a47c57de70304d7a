//! The API, version 1: `/api/v1/explorer`, `/api/v1/search`,
//! `/api/v1/games/{id}` (and its `/export`, `/png`), `/api/v1/players`,
//! `/api/v1/players/{name}`, `/api/v1/export` (see `docs/http-api.md`);
//! the same endpoints at `/api/…`, deprecated. Each handler reads its parameters
//! ([`query`]), runs the library's query off the async threads
//! (rayon's pool, under a turn and a time cap) and answers one type of
//! [`response`], or an [`error::ApiError`].

pub mod error;
pub mod query;
pub mod response;

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use othello_core::notation::{parse_transcript, push_transcript};
use othello_core::position::forced_pass;
use othello_core::replay::wthor_tokens;
use othello_core::{Board, Board8, Board10, Color, Move, Size, Square};
use wthor_db::analysis::{AnalysisOptions, Analyzer, analyze_game};
use wthor_db::names::NamePattern;
use wthor_db::position_line::{PositionLine, game_positions};
use wthor_db::query::{Filters, Position, PositionError, SortKey};
use wthor_db::stats::{
    RecordRow, SOLVE_MAX_EMPTIES, Solved, SolvedField, Stats, StatsOptions, StatsReport,
};
use wthor_db::text::{ExportOptions, GameRecord};
use wthor_db::{GameId, Query, openings};

use tower_http::set_header::SetResponseHeaderLayer;

use crate::state::{AppState, CacheKey, Kept, NotKept, run_blocking, run_until};
use crate::values::{EXACT_EMPTIES, Values};
use error::ApiError;
use query::{
    ExplorerQuery, ExportFormat, ExportQuery, GameExportQuery, GamePngQuery, GameQuery, Params,
    PlayerQuery, PlayersQuery, SearchQuery, clip, to_query,
};
use response::{
    AnalysisReport, Explorer, ExplorerRow, GameDetail, OpeningName, Opponent, PlayerName,
    PlayerOpening, PlayerPage, PositionInfo, SearchPage, Serialized, ValuesInfo, YearRecord,
};

/// The closest opening names suggested for a name that names nothing (as
/// many as the CLI's note gives).
const OPENING_SUGGESTIONS: usize = 3;

type St = State<Arc<AppState>>;

/// The version of the API in its paths: `/api/v1/…`.
pub const VERSION: &str = "v1";

/// The header of the answers of the unversioned paths (`/api/…`, the
/// paths before `/api/v1/…`, which keep answering): `Deprecation: true`.
pub const DEPRECATION_HEADER: &str = "deprecation";

/// The endpoints, at `prefix`.
fn endpoints(prefix: &str) -> Router<Arc<AppState>> {
    Router::new()
        .route(&format!("{prefix}/explorer"), get(explorer))
        .route(&format!("{prefix}/search"), get(search))
        .route(&format!("{prefix}/games/{{id}}"), get(game))
        .route(&format!("{prefix}/games/{{id}}/export"), get(game_export))
        .route(&format!("{prefix}/games/{{id}}/png"), get(game_png))
        .route(&format!("{prefix}/players"), get(players))
        .route(&format!("{prefix}/players/{{name}}"), get(player))
        .route(&format!("{prefix}/export"), get(export))
}

/// The routes of the API: the endpoints at `/api/v1/`, and at `/api/`
/// (deprecated: the same answers, marked by [`DEPRECATION_HEADER`]).
pub(crate) fn routes() -> Router<Arc<AppState>> {
    let deprecated = endpoints("/api").layer(SetResponseHeaderLayer::overriding(
        HeaderName::from_static(DEPRECATION_HEADER),
        HeaderValue::from_static("true"),
    ));
    Router::new()
        .merge(endpoints(&format!("/api/{VERSION}")))
        .merge(deprecated)
        .route("/api", get(unknown))
        .route("/api/", get(unknown))
        .route("/api/{*rest}", get(unknown))
}

async fn unknown(uri: Uri) -> ApiError {
    ApiError::not_found(format!(
        "{}: no such endpoint (the API is at /api/v1/: see docs/http-api.md)",
        clip(uri.path())
    ))
}

/// A path parameter, or a 400 naming it.
fn path_param(p: Result<Path<String>, PathRejection>, what: &str) -> Result<String, ApiError> {
    p.map(|Path(s)| s)
        .map_err(|e| ApiError::parameter(what, e.body_text()))
}

// ---------------------------------------------------------------- explorer

/// The header that says where an explorer answer's values come from:
/// `searched` (this request searched), `cached` (the cache, or a search
/// another request ran), `none` (no values: a 10x10 position, a finished
/// game).
pub const VALUES_HEADER: &str = "x-wthor-values";

async fn explorer(
    State(st): St,
    Params(query): Params<ExplorerQuery>,
) -> Result<([(HeaderName, HeaderValue); 1], Serialized<Explorer>), ApiError> {
    let key = CacheKey::Explorer(Box::new(query.clone()));
    let (kept, fresh) = st.answer(key, explore_and_value(&st, query)).await?;
    // From the cache, its values came from the cache too.
    let source = if fresh || kept.values == "none" {
        kept.values
    } else {
        "cached"
    };
    Ok((
        [(
            HeaderName::from_static(VALUES_HEADER),
            HeaderValue::from_static(source),
        )],
        Serialized::from_json(kept.json),
    ))
}

/// The explorer's answer with its values, serialised; not kept when the
/// values are not what was asked (stopped by the time).
async fn explore_and_value(st: &Arc<AppState>, query: ExplorerQuery) -> Result<Kept, NotKept> {
    let (mut answer, ask) = run_blocking(st, move |s| explore(s, query)).await?;
    let values = match ask.board {
        Some((p, o)) => Some(st.values.values(p, o, ask.exact, st.config.time_cap).await),
        None => None,
    };
    let source = match &values {
        None => "none",
        Some(v) if v.searched => "searched",
        Some(_) => "cached",
    };
    let complete = values.as_ref().is_none_or(|v| v.complete);
    if let Some(values) = &values {
        add_values(&mut answer, &ask, values);
    }
    let kept = Kept {
        json: Serialized::new(&answer)?.json().clone(),
        values: source,
    };
    if complete {
        Ok(kept)
    } else {
        Err(NotKept::Incomplete(kept))
    }
}

/// What the explorer's values need besides its answer.
struct ValuesAsk {
    /// The discs of the side that plays next and of the other side, when
    /// there are values to search (8x8, a legal move).
    board: Option<(u64, u64)>,
    /// Whether exact scores are due (20 empties or fewer, or `solve=1` up
    /// to the cap).
    exact: bool,
    /// The move of each row of the answer.
    squares: Vec<Square>,
}

/// The explorer's answer for `params`, without the moves' values, and
/// what they need.
fn explore(st: &AppState, query: ExplorerQuery) -> Result<(Explorer, ValuesAsk), ApiError> {
    let ExplorerQuery {
        play,
        position: obf,
        solve,
        games: query::Count(top),
        mut filters,
    } = query;
    match (&obf, &play) {
        // The moves played from the position given.
        (Some(obf), Some(play)) => {
            let base = Position::from_obf(obf)
                .map_err(|e| ApiError::parameter("position", e.to_string()))?;
            let now = base
                .then_play(play)
                .map_err(|e| play_error(play, base.size(), &e))?;
            filters.position = Some(now.to_obf());
        }
        _ => {
            // An illegal move is said here, with the moves before it; any
            // other error of the text by the filters (naming the place).
            if let Some(play) = &play
                && let Err(e @ PositionError::Illegal { .. }) =
                    Position::after_transcript(play, filters.size)
            {
                return Err(play_error(play, filters.size, &e));
            }
            filters.position_after.clone_from(&play);
            filters.position = obf;
        }
    }
    let query = to_query(&filters, "play")?;
    let position = query
        .position_filter()
        .copied()
        .unwrap_or(Position::start(filters.size));
    let last = play
        .as_deref()
        .and_then(|t| parse_transcript(t, filters.size).ok())
        .and_then(|moves| {
            moves.into_iter().rev().find_map(|m| match m {
                Move::Play(sq) => Some(sq),
                Move::Pass => None,
            })
        });
    let line = position_line(&position, last);
    let info = PositionInfo::of(&line);
    // The side that plays next (the other one when the side to move must
    // pass): its moves are the rows, their values its.
    let board = position
        .as_eight()
        .map(|b| forced_pass(b).unwrap_or(*b))
        .filter(|b| b.legal_moves() != 0);
    // The library's one cap, and its words.
    let too_deep = solve && info.empties > SOLVE_MAX_EMPTIES as usize;
    let solved = if too_deep {
        Solved::TooManyEmpties(info.empties as u32)
            .note()
            .map(SolvedField::No)
    } else if solve && position.as_eight().is_none() {
        Solved::TenByTen.note().map(SolvedField::No)
    } else if solve && board.is_none() {
        Some(SolvedField::No(
            "not solved: the game is over (no legal move)".to_owned(),
        ))
    } else {
        // Said once the values are there.
        None
    };
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let (mut stats, indexed) = stats(st, &query, &options)?;
    let Some(moves) = stats.next_moves.as_mut() else {
        return Err(ApiError::internal("no next-move table for this query"));
    };
    moves.add_legal_moves();
    let squares: Vec<Square> = moves.moves.iter().map(|m| m.square).collect();
    // The next moves come from games that reach the position, or are
    // legal moves: legal for the side that plays next.
    let children = squares
        .iter()
        .map(|&sq| position.play(sq))
        .collect::<Result<Vec<Position>, _>>()
        .map_err(|e| ApiError::internal(format!("a next move is illegal: {e}")))?;
    let report = StatsReport::new(&stats, &[], false, None);
    let Some(next) = report.next_moves else {
        return Err(ApiError::internal("no next-move table for this query"));
    };
    let transpositions = st.searcher.count_reaching(&query, &children)?.value;
    let rows = next
        .moves
        .into_iter()
        .zip(transpositions)
        .map(|(row, n)| ExplorerRow::new(row, n as u64))
        .collect();
    let mut f = filters;
    f.sort = Some(SortKey::Year);
    f.descending = true;
    f.limit = Some(top);
    let games = if top == 0 {
        Vec::new()
    } else {
        records(st, &search_ids(st, &to_query(&f, "play")?)?)
    };
    let exact = info.empties <= EXACT_EMPTIES as usize || (solve && !too_deep);
    let answer = Explorer {
        obf: position.to_obf(),
        opening: opening_at(&position).map(opening_name),
        position: info,
        totals: report.totals.into(),
        reached: next.reached,
        ended: next.ended,
        solved,
        values: None,
        moves: rows,
        games,
        indexed,
    };
    let ask = ValuesAsk {
        board: board.map(|b| (b.player(), b.opponent())),
        exact,
        squares,
    };
    Ok((answer, ask))
}

/// The moves' values into the answer: each row's value (the square it
/// names), the best rows marked, exact scores in `exact`, `solved` when
/// exact scores were due.
fn add_values(answer: &mut Explorer, ask: &ValuesAsk, values: &Values) {
    let Some(found) = &values.found else {
        answer.values = Some(ValuesInfo {
            exact: false,
            depth: 0,
            complete: false,
            note: values.note.clone(),
        });
        return;
    };
    for (row, sq) in answer.moves.iter_mut().zip(&ask.squares) {
        let Some(m) = found
            .moves
            .iter()
            .find(|m| usize::from(m.square) == sq.index())
        else {
            continue;
        };
        row.value = Some(f64::from(m.value));
        if m.exact {
            row.exact = Some(m.value as i32);
        } else {
            row.depth = Some(found.depth);
        }
    }
    // The best of the rows (moves equal by symmetry are one row, named by
    // one of them: their estimates may differ by the order of the search).
    let best = answer
        .moves
        .iter()
        .filter_map(|r| r.value)
        .fold(f64::NEG_INFINITY, f64::max);
    for row in &mut answer.moves {
        row.best = row.value == Some(best);
    }
    answer.values = Some(ValuesInfo {
        exact: found.exact,
        depth: found.depth,
        complete: values.complete,
        note: values.note.clone(),
    });
    if ask.exact && answer.solved.is_none() {
        answer.solved = Some(if found.exact {
            SolvedField::Yes(true)
        } else {
            SolvedField::No(format!(
                "not solved: {}",
                values.note.as_deref().unwrap_or("estimates")
            ))
        });
    }
}

/// The error of `play=` (moves of `size`): an illegal move comes with the
/// moves before it.
fn play_error(play: &str, size: Size, e: &PositionError) -> ApiError {
    match (e, parse_transcript(play, size)) {
        (PositionError::Illegal { number, .. }, Ok(moves)) => {
            let mut before = Vec::new();
            push_transcript(
                &mut before,
                moves.into_iter().take(number.saturating_sub(1)),
                size,
            );
            ApiError::IllegalPlay {
                message: e.to_string(),
                legal_play: String::from_utf8_lossy(&before).into_owned(),
            }
        }
        _ => ApiError::parameter("play", e.to_string()),
    }
}

/// The line of a position, its move number from its discs.
fn position_line(position: &Position, last: Option<Square>) -> PositionLine {
    fn line<B: Board>(b: &B, last: Option<Square>) -> PositionLine {
        let discs = b.count(othello_core::Color::Black) + b.count(othello_core::Color::White);
        // The squares come from a board: always a valid line.
        PositionLine::from_board(b, discs.saturating_sub(3).max(1), last).unwrap_or_else(|_| {
            PositionLine::from_board(&B::start(), 1, None).unwrap_or_else(|_| unreachable!())
        })
    }
    match position {
        Position::Eight(b) => line(b, last),
        Position::Ten(b) => line(b, last),
    }
}

/// The opening named at a position (8x8 only).
fn opening_at(position: &Position) -> Option<&'static openings::Opening> {
    openings::table().name_of_position(position.as_eight()?)
}

fn opening_name(o: &openings::Opening) -> OpeningName {
    OpeningName {
        name: o.name().to_owned(),
        transcript: o.transcript(),
    }
}

/// The statistics of a query, through the index when there is one; and
/// whether it answered.
fn stats(st: &AppState, query: &Query, options: &StatsOptions) -> Result<(Stats, bool), ApiError> {
    let answer = st.searcher.stats(query, options)?;
    Ok((answer.value, answer.indexed))
}

/// The games of a query, through the index when there is one.
fn search_ids(st: &AppState, query: &Query) -> Result<Vec<GameId>, ApiError> {
    Ok(st.searcher.search(query)?.value)
}

fn records(st: &AppState, ids: &[GameId]) -> Vec<GameRecord> {
    ids.iter()
        .filter_map(|&id| GameRecord::new(st.database(), id))
        .collect()
}

// ------------------------------------------------------------------ search

async fn search(
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

// ------------------------------------------------------------------- games

async fn game(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(query): Params<GameQuery>,
) -> Result<Serialized<GameDetail>, ApiError> {
    let id = path_param(id, "game")?;
    if !query.analysis {
        let detail = run_blocking(&st, move |s| game_detail(s, &id)).await?;
        return Serialized::new(&detail);
    }
    // The analysis, kept with its game's answer.
    let gid = lookup(&st, &id)?;
    let make = async {
        let mut detail = run_blocking(&st, move |s| game_detail(s, &id)).await?;
        let name = detail.record.game.clone();
        detail.analysis = Some(run_blocking(&st, move |s| analyse(s, &name)).await?);
        Ok(Kept {
            json: Serialized::new(&detail)?.json().clone(),
            values: "none",
        })
    };
    let (kept, _) = st.answer(CacheKey::Analysis(gid), make).await?;
    Ok(Serialized::from_json(kept.json))
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
    })
}

/// `wthor analyze`'s analysis of a game.
fn analyse(st: &AppState, id: &str) -> Result<AnalysisReport, ApiError> {
    let gid = lookup(st, id)?;
    let db = st.database();
    let (Some(view), Some(file)) = (db.game(gid), db.file_of(gid)) else {
        return Err(ApiError::not_found(format!(
            "game {:?}: no such game",
            clip(id)
        )));
    };
    let mut analyzer = Analyzer::new(st.config.analysis_solver)?;
    let analysis = analyze_game(
        &view,
        file.header().depth(),
        &AnalysisOptions {
            empties: st.config.analysis_empties,
            ..AnalysisOptions::default()
        },
        &mut analyzer,
    )?;
    Ok(AnalysisReport::new(analysis, st.config.analysis_empties))
}

// ----------------------------------------------------------------- players

async fn players(
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

async fn player(
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

// ------------------------------------------------------------------ export

/// The parts an export holds ready beyond the one its client is taking.
const EXPORT_AHEAD: usize = 2;

/// `GET /api/v1/export`: the games of the filters, `wthor export`'s
/// bytes, streamed part by part, each part written on the pool under a
/// turn of the queries, the whole under the time cap from the request on;
/// a client that takes no part for the write timeout ends it. An export
/// that ends early cuts its connection (the download is seen to fail,
/// never taken as whole).
async fn export(State(st): St, Params(query): Params<ExportQuery>) -> Result<Response, ApiError> {
    let deadline = std::time::Instant::now() + st.config.time_cap;
    let format = query.format;
    let filters = to_query(&query.filters, "position_after")?;
    let ids = Arc::new(run_until(&st, deadline, move |s| search_ids(s, &filters)).await?);
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
        format.media_type(),
        &format!("wthor.{}", format.extension()),
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
        match run_until(&st, deadline, move |s| {
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
fn attachment(body: Vec<u8>, mime: &'static str, file: &str) -> Response {
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

/// `GET /api/v1/games/{id}/export?format=`: one game as `wthor export` writes it.
async fn game_export(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(GameExportQuery { format }): Params<GameExportQuery>,
) -> Result<Response, ApiError> {
    let id = path_param(id, "game")?;
    let name = format!("{id}.{}", format.extension());
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
    Ok(attachment(body, format.media_type(), &name))
}

/// `GET /api/v1/games/{id}/png?ply=N`: the position after N discs played
/// (default: the end), drawn as `wthor show --png` draws it.
async fn game_png(
    State(st): St,
    id: Result<Path<String>, PathRejection>,
    Params(GamePngQuery { ply }): Params<GamePngQuery>,
) -> Result<Response, ApiError> {
    let id = path_param(id, "game")?;
    let ply = ply.map(|query::Count(n)| n);
    let name = format!("{id}.png");
    let body = run_blocking(&st, move |s| {
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
        let line = match ply {
            None => lines.last(),
            Some(n) => lines.get(n),
        }
        .ok_or_else(|| {
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
        Ok(wthor_draw::png(&svg, 1.0)?)
    })
    .await?;
    Ok(attachment(body, "image/png", &name))
}

/// `n` and its noun, singular for 1 (`1 move`, `58 moves`).
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}
