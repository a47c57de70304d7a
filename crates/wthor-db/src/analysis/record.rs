//! One analysed game as a line of a results log (`wthor analyze --db …
//! --results F.jsonl`): what the batch writes and the accuracy tables
//! read. Only the exactly judged moves are kept (the estimates say nothing
//! certain about a player), with the names joined when the game was
//! analysed, and the search that estimated the moves before them
//! ([`GameAnalysis::estimate`]: none in the lines written before the
//! midgame search, whose estimates were the old evaluation search's; the
//! moves logged, exact, are the same whichever search it was).

use othello_core::Color;
use serde::{Deserialize, Serialize};

use super::{Analysis, AnalysisError, AnalysisOptions, Estimator};
use crate::verify::TheoryStatus;
use crate::{Database, GameId};

/// The side of a judged move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

/// One exactly judged move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveLoss {
    /// The move's number in the game, from 1 (passes not counted).
    pub number: usize,
    /// Who played it.
    pub side: Side,
    /// The square (`e6`).
    pub square: String,
    /// Empty squares before it.
    pub empties: u8,
    /// The discs it threw away (0: a perfect move).
    pub loss: i32,
}

/// What the lines of logs written before the midgame search (issue 37)
/// estimated with: the 2-to-8-ply evaluation search.
pub const OLD_ESTIMATES: &str = "old evaluation search";

/// One analysed game, as logged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// Its identity (`2001:3`).
    pub game: String,
    /// Its file's year.
    pub year: u16,
    /// Black's name (`<player N>` when the names file lacks it).
    pub black: String,
    /// White's name.
    pub white: String,
    /// The analysis solved exactly from this many empty squares.
    pub empties: u8,
    /// The search that estimated the moves before (not logged); `None` in
    /// the lines of logs written before the midgame search (issue 37),
    /// whose estimates were the old evaluation search's: see
    /// [`GameAnalysis::estimated_by`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimate: Option<Estimator>,
    /// The moves judged exactly, in order.
    pub moves: Vec<MoveLoss>,
    /// The stored theoretical score checked at the file's depth
    /// (`ok`, `mismatch`…), when the analysis reached it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical: Option<TheoryStatus>,
    /// Why the game could not be analysed (an illegal move).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl GameAnalysis {
    /// The line of game `id` of `db`, analysed with `options` (or not:
    /// `analysis` is the error).
    #[must_use]
    pub fn new(
        db: &Database,
        id: GameId,
        options: &AnalysisOptions,
        analysis: &Result<Analysis, AnalysisError>,
    ) -> GameAnalysis {
        let (moves, theoretical, error) = match analysis {
            Ok(a) => (
                a.moves
                    .iter()
                    .filter(|m| m.exact)
                    .map(|m| MoveLoss {
                        number: m.index + 1,
                        side: m.color.into(),
                        square: m.square.name(othello_core::Size::Eight).to_string(),
                        empties: m.empties,
                        loss: m.loss,
                    })
                    .collect(),
                a.theoretical.as_ref().map(|t| t.status),
                None,
            ),
            Err(e) => (Vec::new(), None, Some(e.to_string())),
        };
        GameAnalysis {
            game: db.game_name(id).to_string(),
            year: db.file_of(id).map_or(0, |f| f.year()),
            black: db.black(id).to_string(),
            white: db.white(id).to_string(),
            empties: options.empties,
            estimate: Some(options.estimator()),
            moves,
            theoretical,
            error,
        }
    }

    /// The search that estimated the moves before the exact part, in
    /// words: `midgame search, depth 16`, or for a line of an old log
    /// `old evaluation search`.
    #[must_use]
    pub fn estimated_by(&self) -> String {
        self.estimate
            .map_or_else(|| OLD_ESTIMATES.to_owned(), |e| e.to_string())
    }

    /// Whether the game is a finding of the batch: a wrong stored
    /// theoretical score, or a game that could not be analysed.
    #[must_use]
    pub fn is_finding(&self) -> bool {
        self.error.is_some()
            || matches!(
                self.theoretical,
                Some(TheoryStatus::Mismatch | TheoryStatus::Impossible)
            )
    }

    /// The name of the player of `side`.
    #[must_use]
    pub fn player(&self, side: Side) -> &str {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }
}
