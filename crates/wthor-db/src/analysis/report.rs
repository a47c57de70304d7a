//! The analysis of one game as every front end gives it: the line of
//! `wthor analyze GAME --format jsonl`, the `analysis` of the server's
//! `GET /api/v1/games/{id}?analysis=1` and the scalars of Python's
//! `Game.analyze`, one type with camelCase keys (the one JSON key style).
//!
//! The results log of a batch (`wthor analyze --results`) is another
//! thing, [`GameAnalysis`](super::GameAnalysis): one line per game, the
//! exact moves only, snake_case as the old logs it reads back.

use serde::Serialize;

use super::{Analysis, AnalysisOptions, Ending, Estimator, Judged};
use crate::verify::TheoryCheck;

/// The analysis of one game, with the game's name and where its exact part
/// starts, serialised with camelCase keys (those of its estimator and of
/// its theoretical check too):
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
///
/// let timed = AnalysisOptions { estimate_time: Some(std::time::Duration::from_millis(5)), ..options };
/// let a = analyze_moves(&moves, &timed, &mut analyzer).unwrap();
/// let json = serde_json::to_value(Report::new("tiger", &timed, a)).unwrap();
/// assert_eq!(json["estimate"], serde_json::json!({"search": "midgame", "timeMs": 5}));
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
    /// The search that made the estimates: `{"search": "midgame",
    /// "depth": 16}`, or `timeMs` for a timed one.
    #[serde(serialize_with = "camel_case")]
    pub estimate: Estimator,
    /// The check of the stored theoretical score, when the analysis
    /// solved that deep (`null` otherwise): `status` (`ok`, `mismatch`,
    /// `impossible`…), `depth`, `stored`, `solved`, `bestMove`, `obf`…
    #[serde(serialize_with = "camel_case")]
    pub theoretical: Option<TheoryCheck>,
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
            estimate: analysis.estimate,
            theoretical: analysis.theoretical,
        }
    }
}

/// `value` serialised with the keys of its objects in camelCase, at every
/// level: the library's snake_case types ([`Estimator`], [`TheoryCheck`])
/// keep their own spelling for the logs that read them back, and are
/// written here without a second copy of their fields.
fn camel_case<T: Serialize, S: serde::Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    let value = serde_json::to_value(value).map_err(serde::ser::Error::custom)?;
    camel_keys(value).serialize(s)
}

/// `value` with its keys in camelCase: `best_move` is `bestMove`.
fn camel_keys(value: serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| {
                    let mut parts = k.split('_');
                    let mut key: String = parts.next().unwrap_or_default().to_owned();
                    for part in parts {
                        let mut chars = part.chars();
                        key.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                        key.push_str(chars.as_str());
                    }
                    (key, camel_keys(v))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(camel_keys).collect()),
        other => other,
    }
}
