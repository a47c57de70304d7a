//! The results-log lines of the two checks of input files, a game's
//! theoretical score ([`TheoryLine`]) and a puzzle's solution
//! ([`PuzzleLine`]): each a [`RecordLine`], the record's key, its year and
//! players, then the check's fields, one JSON object per line. `wthor
//! validate --solve` and `wthor puzzles --verify` write them (and print
//! them for `--json`); [`read_results`](super::read_results) reads them
//! back.

use serde::Serialize;
use wthor_format::{GameFile, GameView, PuzzleView, SolitaireFile};

use super::{Job, Loaded, PuzzleCheck, RecordKey, TheoryCheck};

/// One line of a results log: a record of an input file and its check.
#[derive(Debug, Serialize)]
pub struct RecordLine<'a, C> {
    /// The record's key.
    #[serde(flatten)]
    pub key: &'a RecordKey,
    /// The year of its game.
    pub year: u16,
    /// Its black player (`#n` when unnamed, see
    /// [`PlayerNames`](super::PlayerNames)).
    pub black: String,
    /// Its white player.
    pub white: String,
    /// The check.
    #[serde(flatten)]
    pub check: &'a C,
}

/// One line of the results log of theoretical scores.
pub type TheoryLine<'a> = RecordLine<'a, TheoryCheck>;

/// One line of the results log of puzzles.
pub type PuzzleLine<'a> = RecordLine<'a, PuzzleCheck>;

impl<'a> RecordLine<'a, TheoryCheck> {
    /// The line of `job`, a game of `loaded`, checked as `check`.
    #[must_use]
    pub fn new(
        loaded: &Loaded<'_, GameFile<'_>>,
        job: &'a Job<GameView<'_>>,
        check: &'a TheoryCheck,
    ) -> TheoryLine<'a> {
        let g = job.record;
        RecordLine {
            key: &job.key,
            year: loaded.file.header().year,
            black: loaded.names.get(g.black().into()),
            white: loaded.names.get(g.white().into()),
            check,
        }
    }
}

impl<'a> RecordLine<'a, PuzzleCheck> {
    /// The line of `job`, a puzzle of `loaded`, checked as `check`.
    #[must_use]
    pub fn new(
        loaded: &Loaded<'_, SolitaireFile<'_>>,
        job: &'a Job<PuzzleView<'_>>,
        check: &'a PuzzleCheck,
    ) -> PuzzleLine<'a> {
        let p = job.record;
        RecordLine {
            key: &job.key,
            year: p.year(),
            black: loaded.names.get(p.black() as usize),
            white: loaded.names.get(p.white() as usize),
            check,
        }
    }
}
