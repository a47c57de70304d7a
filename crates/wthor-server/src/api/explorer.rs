//! `/api/v1/explorer`: the explorer table of a position, with its values.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderName, HeaderValue};
use othello_core::notation::{parse_transcript, push_transcript};
use othello_core::position::forced_pass;
use othello_core::{Board, Move, Size, Square};
use wthor_db::position_line::PositionLine;
use wthor_db::query::{AnyBoardError, Position, SortKey};
use wthor_db::stats::{
    MoveRatings, SOLVE_MAX_EMPTIES, Solved, SolvedField, StatsOptions, StatsReport,
};
use wthor_db::{GameId, openings};

use super::error::ApiError;
use super::query::{ExplorerQuery, Params, to_query};
use super::response::{Explorer, ExplorerRow, OpeningName, PositionInfo, Serialized, ValuesInfo};
use super::{St, opening_suggestions, query, records, search_ids, stats};
use crate::state::{AppState, CacheKey, Config, Kept, NotKept, run_filtered};
use crate::values::{EXACT_EMPTIES, Values};

/// The header that says where an explorer answer's values come from:
/// `searched` (this request searched), `cached` (the cache, or a search
/// another request ran), `none` (no values: a 10x10 position, a finished
/// game).
pub const VALUES_HEADER: &str = "x-wthor-values";

pub(super) async fn explorer(
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
    let (mut answer, ask) = run_filtered(st, move |s| explore(s, query)).await?;
    let values = match ask.board {
        Some((p, o)) => {
            let (budget, cap) = values_time(&st.config, ask.solve);
            Some(st.values.values(p, o, ask.exact, budget, cap).await)
        }
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

/// The time of a request's values, and the longest it waits for them
/// (its wait for a search's turn included): the values' time by default,
/// the whole time cap for an explicit solve (the exact search of 21 to 24
/// empties takes seconds of a core, minutes on some positions); the wait
/// as long again beyond it as by default (at least 1 s), so that the
/// search's own end comes first.
fn values_time(config: &Config, solve: bool) -> (Duration, Duration) {
    let budget = if solve {
        config.time_cap.max(config.value_time)
    } else {
        config.value_time
    };
    let slack = config
        .time_cap
        .saturating_sub(config.value_time)
        .max(Duration::from_secs(1));
    (budget, budget + slack)
}

/// What the explorer's values need besides its answer.
struct ValuesAsk {
    /// The discs of the side that plays next and of the other side, when
    /// there are values to search (8x8, a legal move).
    board: Option<(u64, u64)>,
    /// Whether exact scores are due (20 empties or fewer, or `solve=1` up
    /// to the cap).
    exact: bool,
    /// Whether they were asked for (`solve=1`, within the cap): the
    /// values then get the whole time cap.
    solve: bool,
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
        top: by_rating,
        filters,
    } = query;
    let Read {
        query,
        filters,
        position,
        last,
    } = read_position(play.as_deref(), obf, filters)?;
    let line = position_line(&position, last);
    let info = PositionInfo::of(&line);
    // The side that plays next (the other one when the side to move must
    // pass): its moves are the rows, their values its.
    let board = position
        .as_eight()
        .map(|b| forced_pass(b).unwrap_or(*b))
        .filter(|b| b.legal_moves() != 0);
    // The library's one cap, and its words.
    // A 10x10 position is never solved; a finished one (an empty board
    // too, as `wthor solve` reads it: game over) has nothing to solve,
    // whatever its empties.
    let too_deep = solve && info.empties > SOLVE_MAX_EMPTIES as usize;
    let solved = if solve && position.as_eight().is_none() {
        Solved::TenByTen.note().map(SolvedField::No)
    } else if solve && board.is_none() {
        Some(SolvedField::No(
            "not solved: the game is over (no legal move)".to_owned(),
        ))
    } else if too_deep {
        Solved::TooManyEmpties(info.empties as u32)
            .note()
            .map(SolvedField::No)
    } else {
        // Said once the values are there.
        None
    };
    // The movers' ratings: the fit rates 8x8 games only.
    let options = StatsOptions {
        next_moves: true,
        ratings: position.as_eight().is_some(),
        ..StatsOptions::default()
    };
    let (mut stats, indexed) = stats(st, &query, &options)?;
    let Some(moves) = stats.next_moves.as_mut() else {
        return Err(ApiError::internal("no next-move table for this query"));
    };
    moves.add_legal_moves();
    let squares: Vec<Square> = moves.moves.iter().map(|m| m.square).collect();
    let ratings: Vec<Option<MoveRatings>> = moves.moves.iter().map(|m| m.ratings).collect();
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
        .zip(&ratings)
        .map(|((row, n), r)| ExplorerRow::new(row, n as u64, r.as_ref()))
        .collect();
    // An opening name that names nothing: said, as the search says it.
    let (suggestions, note) = (opening_suggestions(&filters), filters.opening_name_note());
    let games = if top == 0 {
        Vec::new()
    } else {
        records(st, &listed_games(st, filters, top, by_rating)?)
    };
    let exact = info.empties <= EXACT_EMPTIES as usize || (solve && !too_deep);
    let answer = Explorer {
        obf: next_obf(&position),
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
        suggestions,
        note,
    };
    let ask = ValuesAsk {
        board: board.map(|b| (b.player(), b.opponent())),
        exact,
        solve: solve && !too_deep,
        squares,
    };
    Ok((answer, ask))
}

/// The games of the explorer's list: the `top` latest (the newest year
/// first, within a year the last of the database's order first: the
/// history's `latest` is the first of them), or with `by_rating` the `top`
/// highest rated (the mean of both players' ratings).
fn listed_games(
    st: &AppState,
    mut filters: wthor_db::query::Filters,
    top: usize,
    by_rating: bool,
) -> Result<Vec<GameId>, ApiError> {
    if by_rating {
        filters.sort = Some(SortKey::Rating);
        filters.descending = true;
        filters.limit = Some(top);
        return search_ids(st, &to_query(&filters, "play")?);
    }
    // The library's sort by year keeps a year's games in database order
    // (descending too): the latest are that order reversed.
    filters.sort = None;
    filters.limit = None;
    let mut ids = search_ids(st, &to_query(&filters, "play")?)?;
    let files = st.database().files();
    ids.sort_unstable_by_key(|&id| std::cmp::Reverse((files[id.file()].year(), id)));
    ids.truncate(top);
    Ok(ids)
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
fn play_error(play: &str, size: Size, e: &AnyBoardError) -> ApiError {
    match (e, parse_transcript(play, size)) {
        (AnyBoardError::Illegal { number, .. }, Ok(moves)) => {
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

/// A position read from `play=` and `position=` as the explorer reads
/// them, with the filters.
pub(super) struct Read {
    /// The library's query: the filters and the position.
    pub(super) query: wthor_db::Query,
    /// The filters, the position among them.
    pub(super) filters: wthor_db::query::Filters,
    /// The position (the start of its size without one).
    pub(super) position: Position,
    /// The last disc of `play`, if any.
    pub(super) last: Option<Square>,
}

/// The position of `play` (moves from the start, or from `obf`) and the
/// filters, as the explorer and the history read them.
///
/// # Errors
/// An OBF or moves that cannot be read or played (an illegal move with
/// the moves before it), filters that exclude each other.
pub(super) fn read_position(
    play: Option<&str>,
    obf: Option<String>,
    mut filters: wthor_db::query::Filters,
) -> Result<Read, ApiError> {
    match (&obf, play) {
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
            if let Some(play) = play
                && let Err(e @ AnyBoardError::Illegal { .. }) =
                    Position::after_transcript(play, filters.size)
            {
                return Err(play_error(play, filters.size, &e));
            }
            filters.position_after = play.map(str::to_owned);
            filters.position = obf;
            // The start of the size, said: without a position the query
            // would take every game of both sizes (the totals of the 8x8
            // start counted the 10x10 games; the 10x10 start's rows were
            // the 8x8 games', and the history's the 8x8 start).
            if filters.position.is_none() && play.is_none() {
                filters.position = Some(Position::start(filters.size).to_obf());
            }
        }
    }
    let query = to_query(&filters, "play")?;
    let position = query
        .position_filter()
        .copied()
        .unwrap_or(Position::start(filters.size));
    let last = play
        .and_then(|t| parse_transcript(t, filters.size).ok())
        .and_then(|moves| {
            moves.into_iter().rev().find_map(|m| match m {
                Move::Play(sq) => Some(sq),
                Move::Pass => None,
            })
        });
    Ok(Read {
        query,
        filters,
        position,
        last,
    })
}

/// The OBF text of a position with the side that plays next to move:
/// the other side when the side to move must pass (as `toMove` of its
/// `position` says, and the rows' movers are).
pub(super) fn next_obf(position: &Position) -> String {
    position.forced_pass().unwrap_or(*position).to_obf()
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

pub(super) fn opening_name(o: &openings::Opening) -> OpeningName {
    OpeningName {
        name: o.name().to_owned(),
        transcript: o.transcript(),
    }
}
