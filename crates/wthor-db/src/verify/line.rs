//! The results-log lines of the two checks of input files: a game's
//! theoretical score ([`TheoryLine`]) and a puzzle's solution
//! ([`PuzzleLine`]), each the record's key, its year and players, then the
//! check's fields, one JSON object per line. `wthor validate --solve` and
//! `wthor puzzles --verify` write them (and print them for `--json`);
//! [`read_results`](super::read_results) reads them back.

use serde::Serialize;
use wthor_format::{GameFile, GameView, PuzzleView, SolitaireFile};

use super::{Job, Loaded, PuzzleCheck, RecordKey, TheoryCheck};

/// One line of the results log of theoretical scores.
#[derive(Debug, Serialize)]
pub struct TheoryLine<'a> {
    /// The game's key.
    #[serde(flatten)]
    pub key: &'a RecordKey,
    /// The year of its file.
    pub year: u16,
    /// Its black player (`#n` when unnamed, see [`PlayerNames`](super::PlayerNames)).
    pub black: String,
    /// Its white player.
    pub white: String,
    /// The check.
    #[serde(flatten)]
    pub check: &'a TheoryCheck,
}

impl<'a> TheoryLine<'a> {
    /// The line of `job`, a game of `loaded`, checked as `check`.
    #[must_use]
    pub fn new(
        loaded: &Loaded<'_, GameFile<'_>>,
        job: &'a Job<GameView<'_>>,
        check: &'a TheoryCheck,
    ) -> TheoryLine<'a> {
        TheoryLine {
            key: &job.key,
            year: loaded.file.header().year,
            black: loaded.names.get(job.record.black().into()),
            white: loaded.names.get(job.record.white().into()),
            check,
        }
    }
}

/// One line of the results log of puzzles.
#[derive(Debug, Serialize)]
pub struct PuzzleLine<'a> {
    /// The puzzle's key.
    #[serde(flatten)]
    pub key: &'a RecordKey,
    /// The year of its game.
    pub year: u16,
    /// Its game's black player (`#n` when unnamed).
    pub black: String,
    /// Its game's white player.
    pub white: String,
    /// The check.
    #[serde(flatten)]
    pub check: &'a PuzzleCheck,
}

impl<'a> PuzzleLine<'a> {
    /// The line of `job`, a puzzle of `loaded`, checked as `check`.
    #[must_use]
    pub fn new(
        loaded: &Loaded<'_, SolitaireFile<'_>>,
        job: &'a Job<PuzzleView<'_>>,
        check: &'a PuzzleCheck,
    ) -> PuzzleLine<'a> {
        let p = job.record;
        PuzzleLine {
            key: &job.key,
            year: p.year(),
            black: loaded.names.get(p.black() as usize),
            white: loaded.names.get(p.white() as usize),
            check,
        }
    }
}
