//! The analysis of one game as every front end gives it: the line of
//! `wthor analyze GAME --format jsonl`, the `analysis` of the server's
//! `GET /api/v1/games/{id}?analysis=1` and the scalars of Python's
//! `Game.analyze`, one type with camelCase keys (the one JSON key style).
//!
//! The results log of a batch (`wthor analyze --results`) is another
//! thing, [`GameAnalysis`](super::GameAnalysis): one line per game, the
//! exact moves only, snake_case as the old logs it reads back.

use serde::Serialize;

use super::{Analysis, AnalysisOptions, Ending, Estimator, Judged, Search};
use crate::verify::{TheoryCheck, TheoryStatus};

/// The analysis of one game, with the game's name and where its exact part
/// starts, serialised with camelCase keys:
///
/// ```json
/// {"game": "2001:5", "exactFrom": 20, "blackLine": [0, 4, 2, "…"],
///  "moves": [{"index": 0, "color": "black", "square": "f5", "empties": 60,
///             "exact": false, "depth": 16, "value": 0, "played": 0,
///             "loss": 0, "best": ["f5"]}, "…"],
///  "ending": "finished", "finalBlack": -4, "finalDepth": null,
///  "estimate": {"search": "midgame", "depth": 16}, "theoretical": null}
/// ```
///
/// ```
/// use othello_core::notation::parse_transcript;
/// use othello_core::Size;
/// use wthor_db::analysis::{AnalysisOptions, Analyzer, Report, analyze_moves};
///
/// let moves = parse_transcript("f5d6c3d3c4", Size::Eight).unwrap();
/// let options = AnalysisOptions { estimate_depth: 4, ..AnalysisOptions::default() };
/// let mut analyzer = Analyzer::for_one_game(&options, Some(1)).unwrap();
/// let a = analyze_moves(&moves, &options, &mut analyzer).unwrap();
/// let report = Report::new("tiger", &options, a);
/// let json = serde_json::to_value(&report).unwrap();
/// assert_eq!(json["exactFrom"], 20);
/// assert_eq!(json["blackLine"].as_array().unwrap().len(), 6);
/// assert_eq!(json["estimate"], serde_json::json!({"search": "midgame", "depth": 4}));
/// assert_eq!(json["ending"], "unfinished");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The game, named as the database names it (`2001:5`).
    pub game: String,
    /// The empty squares from which the values are exact (solved); the
    /// moves before are estimates (each move's `exact` says which).
    pub exact_from: u8,
    /// The value before each move then at the end, from black's side
    /// ([`Analysis::black_line`]).
    pub black_line: Vec<i32>,
    /// Each move judged (its keys are single words).
    pub moves: Vec<Judged>,
    /// How the record ends: `finished` or `unfinished`.
    pub ending: Ending,
    /// The value of the final position for black.
    pub final_black: i32,
    /// The plies of the estimate of the final position; `null` when
    /// exact.
    pub final_depth: Option<u32>,
    /// The search that made the estimates.
    pub estimate: EstimateInfo,
    /// The check of the stored theoretical score, when the analysis
    /// solved that deep (`null` otherwise).
    pub theoretical: Option<TheoryInfo>,
}

impl Report {
    /// The report of `analysis` of the game `game`, made with `options`.
    #[must_use]
    pub fn new(game: impl Into<String>, options: &AnalysisOptions, analysis: Analysis) -> Report {
        Report {
            game: game.into(),
            exact_from: options.empties,
            black_line: analysis.black_line(),
            moves: analysis.moves,
            ending: analysis.ending,
            final_black: analysis.final_black,
            final_depth: analysis.final_depth,
            estimate: analysis.estimate.into(),
            theoretical: analysis.theoretical.map(TheoryInfo::from),
        }
    }
}

/// The search of an analysis's estimates ([`Estimator`], camelCase):
/// `{"search": "midgame", "depth": 16}` (or `timeMs` for a timed one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EstimateInfo {
    /// The search.
    pub search: Search,
    /// Its plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    /// Its time per search, in milliseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
}

impl From<Estimator> for EstimateInfo {
    fn from(e: Estimator) -> EstimateInfo {
        EstimateInfo {
            search: e.search,
            depth: e.depth,
            time_ms: e.time_ms,
        }
    }
}

/// The check of a game's stored theoretical score ([`TheoryCheck`],
/// camelCase; `validate --solve`'s logs keep its snake_case).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TheoryInfo {
    /// The verdict: `ok`, `mismatch`, `impossible`, `short`, `illegal`,
    /// `unavailable`.
    pub status: TheoryStatus,
    /// The depth (empty squares) of the check.
    pub depth: u8,
    /// The stored theoretical score (black's discs).
    pub stored: u8,
    /// Black's discs after perfect play from the depth, when solved.
    pub solved: Option<u8>,
    /// The side to move at the depth, when reached.
    pub side: Option<String>,
    /// The exact score for that side, when solved.
    pub score: Option<i32>,
    /// A best move there, when the solver gave one.
    pub best_move: Option<String>,
    /// The position at the depth as OBF, when reached.
    pub obf: Option<String>,
    /// Discs played before the depth (or in the whole record when short).
    pub moves: usize,
    /// For short records: black's discs at the end.
    pub final_score: Option<u32>,
    /// For short records: whether the game is over at its end.
    pub finished: Option<bool>,
    /// For illegal records: the index of the illegal move.
    pub illegal_move: Option<usize>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the score came from a cache.
    pub cached: bool,
    /// Seconds spent solving.
    pub seconds: f64,
}

impl From<TheoryCheck> for TheoryInfo {
    fn from(t: TheoryCheck) -> TheoryInfo {
        TheoryInfo {
            status: t.status,
            depth: t.depth,
            stored: t.stored,
            solved: t.solved,
            side: t.side,
            score: t.score,
            best_move: t.best_move,
            obf: t.obf,
            moves: t.moves,
            final_score: t.final_score,
            finished: t.finished,
            illegal_move: t.illegal_move,
            nodes: t.nodes,
            cached: t.cached,
            seconds: t.seconds,
        }
    }
}
