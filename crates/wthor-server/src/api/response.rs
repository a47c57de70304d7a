//! The JSON answers of the API, one type per answer, built from the
//! library's values (the statistics' report rows, [`GameRecord`], the
//! positions of [`PositionLine`], the analysis).

use othello_core::Color;
use serde::Serialize;
use wthor_db::analysis::Analysis;
use wthor_db::position_line::PositionLine;
use wthor_db::stats::{NextRow, OpeningRow, RecordRow, SolvedField, TotalsRow, YearRow};
use wthor_db::text::GameRecord;

/// A position: its squares, who plays, the legal moves.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionInfo {
    /// 8 or 10.
    pub size: u8,
    /// One character a square in bit order (`a1`, `b1`, …, row by row):
    /// `X` black, `O` white, `-` empty.
    pub squares: String,
    /// `black`, `white`, or `null` when neither side can move.
    pub to_move: Option<&'static str>,
    /// The legal moves of the side to move, named.
    pub legal_moves: Vec<String>,
    /// The last disc played, if known.
    pub last_move: Option<String>,
    /// Empty squares.
    pub empties: usize,
}

impl PositionInfo {
    /// The answer for a position of the library.
    pub(crate) fn of(line: &PositionLine) -> PositionInfo {
        let size = line.size();
        PositionInfo {
            size: size.side(),
            squares: line
                .squares()
                .iter()
                .map(|c| match c {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '-',
                })
                .collect(),
            to_move: line.to_move().map(color_name),
            legal_moves: line
                .legal_moves()
                .into_iter()
                .map(|sq| sq.name(size).to_string())
                .collect(),
            last_move: line.last_move().map(|sq| sq.name(size).to_string()),
            empties: line.squares().iter().filter(|c| c.is_none()).count(),
        }
    }
}

/// `black` or `white`.
pub(crate) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A named opening.
#[derive(Clone, Debug, Serialize)]
pub struct OpeningName {
    /// Its name.
    pub name: String,
    /// Its moves from the start.
    pub transcript: String,
}

/// `GET /api/explorer`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explorer {
    /// The position explored.
    pub position: PositionInfo,
    /// Its OBF text (side to move as the query sees it).
    pub obf: String,
    /// The named opening at this position, in any orientation.
    pub opening: Option<OpeningName>,
    /// The games matching the filters (that reach the position).
    pub totals: TotalsRow,
    /// Games reaching the position, in any orientation and move order.
    pub reached: u64,
    /// Of them, games ending there.
    pub ended: u64,
    /// Solved (`true`: every row's `exact` is there, with `solve=1` or
    /// by default at 20 empties or fewer), why not (a sentence, when exact
    /// scores were asked for or due), or `null` (not asked).
    pub solved: Option<SolvedField>,
    /// How the rows' values were found; `null` without values (a 10x10
    /// position, a finished game).
    pub values: Option<ValuesInfo>,
    /// A row per legal move (the moves equal by a symmetry of the
    /// position are one), the moves played first, most played first:
    /// `wthor stats --next`'s rows, then the legal moves nobody played
    /// (no games).
    pub moves: Vec<ExplorerRow>,
    /// The latest games reaching the position.
    pub games: Vec<GameRecord>,
    /// Whether the position index answered.
    pub indexed: bool,
}

/// One next move of the explorer.
#[derive(Clone, Debug, Serialize)]
pub struct ExplorerRow {
    /// The row of `wthor stats --next` (keys as its JSON Lines).
    #[serde(flatten)]
    pub row: NextRow,
    /// Games (with the filters) that reach the position after this move by
    /// any move order: what the explorer shows once the move is played.
    pub transpositions: u64,
    /// The move's value for the side that plays (the final disc
    /// difference it expects): its exact score (also in `exact`) or an
    /// estimate; `null` without values.
    pub value: Option<f64>,
    /// The plies of the search that estimated `value`; `null` when exact.
    pub depth: Option<u32>,
    /// Whether the move has the position's best value (every move of that
    /// value, ties included).
    pub best: bool,
}

/// How the explorer's values were found.
#[derive(Clone, Debug, Serialize)]
pub struct ValuesInfo {
    /// Exact scores (perfect play), else estimates.
    pub exact: bool,
    /// The plies searched: the estimates' depth, the empty squares when
    /// exact.
    pub depth: u32,
    /// Whether they are what was asked: exact scores when due (20 empties
    /// or fewer, or `solve=1`), else the estimates' whole depth; `false`
    /// when the time ran out first (`note` says so: then `depth` is the
    /// deepest search completed, or the values are estimates instead of
    /// exact scores).
    pub complete: bool,
    /// Why the values are not what was asked, `null` when they are.
    pub note: Option<String>,
}

/// `GET /api/search`.
#[derive(Clone, Debug, Serialize)]
pub struct SearchPage {
    /// Games matching.
    pub total: usize,
    /// The first game of this page.
    pub offset: usize,
    /// The most games a page holds.
    pub limit: usize,
    /// The games of this page.
    pub games: Vec<GameRecord>,
    /// When `opening_name` names no opening: the closest names (within
    /// the library's cut-off: none for a text like no name); absent
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<String>>,
    /// When `opening_name` names no opening: the sentence of the CLI (no
    /// such name, the closest ones or that none is close).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `GET /api/games/{id}`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameDetail {
    /// The game's record (names, scores, moves), as `wthor export`'s JSON
    /// Lines.
    #[serde(flatten)]
    pub record: GameRecord,
    /// Its opening: the deepest named position it passes through.
    pub opening: Option<OpeningName>,
    /// The position before the first move, then after each disc played.
    pub positions: Vec<PositionInfo>,
    /// Where the replay stopped on a bad move, if it did.
    pub illegal: Option<String>,
    /// The analysis, when asked (`analysis=1`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<AnalysisReport>,
}

/// A game's analysis: `wthor analyze`'s values.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnalysisReport {
    /// The empty squares from which the values are exact (solved); the
    /// moves before are estimates (each move's `exact` says which).
    pub exact_from: u8,
    /// The value before each move then at the end, from black's side.
    pub black_line: Vec<i32>,
    /// Each move judged.
    #[serde(flatten)]
    pub analysis: Analysis,
}

/// One name of `GET /api/players?prefix=`.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerName {
    /// The name.
    pub name: String,
    /// Their games in the archive.
    pub games: u64,
}

/// `GET /api/players/{name}`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerPage {
    /// The name.
    pub name: String,
    /// The whole record.
    pub record: RecordRow,
    /// The record year by year.
    pub by_year: Vec<YearRow>,
    /// The most frequent openings as black (canonical orientation, named),
    /// results from black's side and the player's.
    pub as_black: Vec<PlayerOpening>,
    /// The most frequent openings as white, results from black's side and
    /// the player's.
    pub as_white: Vec<PlayerOpening>,
    /// The most frequent opponents.
    pub opponents: Vec<Opponent>,
}

/// An opening of a player: the row of `wthor stats --openings` (black's
/// results, its name) and the player's own results with it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerOpening {
    /// The row of the statistics (keys as its JSON Lines).
    #[serde(flatten)]
    pub row: OpeningRow,
    /// The player's wins (black's wins as black, black's losses as white).
    pub wins: u64,
    /// The player's losses.
    pub losses: u64,
}

impl PlayerOpening {
    /// The row of a player who had `color`.
    pub(crate) fn new(row: OpeningRow, color: Color) -> PlayerOpening {
        let (wins, losses) = match color {
            Color::Black => (row.results.black_wins, row.results.black_losses),
            Color::White => (row.results.black_losses, row.results.black_wins),
        };
        PlayerOpening { row, wins, losses }
    }
}

/// An opponent and the score against them.
#[derive(Clone, Debug, Serialize)]
pub struct Opponent {
    /// The opponent's name.
    pub name: String,
    /// Games between the two.
    pub games: u64,
    /// The player's wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// The player's losses.
    pub losses: u64,
}
