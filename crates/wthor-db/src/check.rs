//! The replay check: every game replayed from the start, counts of
//! legal, illegal, finished and unfinished games, and the games worth
//! reporting (an illegal move, a stored score that is not the WTHOR-rule
//! score). Written on the scan: [`Database::check_games`] is the
//! sequential fold, [`Database::par_check_games`] the parallel one, and
//! they give the same answer.

use othello_core::replay::{GameStatus, IllegalMove, replay_with, wthor_tokens};
use othello_core::{Board, Board8, Board10};
use wthor_format::{BoardSize, GameView};

use crate::scan::GameRef;
use crate::{Database, GameId};

impl Database {
    /// Replays and checks every game, one after the other.
    #[must_use]
    pub fn check_games(&self) -> CheckSummary {
        let mut acc = PerFile::default();
        let _ = self.scan(|g| {
            acc.add(g);
            std::ops::ControlFlow::<()>::Continue(())
        });
        CheckSummary::new(acc.finish(self.files().len()))
    }

    /// Replays and checks every game, in parallel (rayon's current pool).
    /// Equal to [`check_games`](Database::check_games).
    #[must_use]
    pub fn par_check_games(&self) -> CheckSummary {
        let acc = self.par_fold(PerFile::default, PerFile::add, PerFile::merge);
        CheckSummary::new(acc.finish(self.files().len()))
    }
}

/// The per-file checks met so far, in file order (files without games
/// left out until [`PerFile::finish`]).
#[derive(Default)]
struct PerFile(Vec<(usize, FileCheck)>);

impl PerFile {
    fn add(&mut self, g: GameRef<'_>) {
        let check = FileCheck::of_game(g.id, &g.game);
        match self.0.last_mut() {
            Some((f, acc)) if *f == g.id.file() => acc.merge_from(check),
            _ => self.0.push((g.id.file(), check)),
        }
    }

    fn merge(mut self, other: PerFile) -> PerFile {
        for (g, check) in other.0 {
            match self.0.last_mut() {
                Some((f, acc)) if *f == g => acc.merge_from(check),
                _ => self.0.push((g, check)),
            }
        }
        self
    }

    fn finish(self, files: usize) -> Vec<FileCheck> {
        let mut out = vec![FileCheck::default(); files];
        for (f, check) in self.0 {
            out[f] = check;
        }
        out
    }
}

/// The replay of one game checked against its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameCheck {
    /// Discs played.
    pub moves: usize,
    /// Passes inserted.
    pub passes: usize,
    /// The first illegal move, if any.
    pub illegal: Option<IllegalMove>,
    /// Whether the game reached its end.
    pub status: GameStatus,
    /// Black's and white's discs at the end.
    pub discs: (u32, u32),
    /// Black's score under the WTHOR rule (empties to the winner, a draw
    /// splits them).
    pub score: u32,
    /// Black's score as stored in the record.
    pub stored: u8,
}

impl GameCheck {
    /// Replays a game record.
    #[must_use]
    pub fn of(game: &GameView<'_>) -> GameCheck {
        match game.board_size() {
            BoardSize::Eight => check::<Board8>(game),
            BoardSize::Ten => check::<Board10>(game),
        }
    }

    /// Whether a finished game's computed score differs from the stored one
    /// (unfinished games store the recorded result: never a mismatch).
    #[must_use]
    pub fn is_mismatch(&self) -> bool {
        self.status == GameStatus::Finished && self.score != u32::from(self.stored)
    }
}

fn check<B: Board>(game: &GameView<'_>) -> GameCheck {
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(game.moves_raw()), |_| {});
    GameCheck {
        moves: r.moves,
        passes: r.passes,
        illegal: r.illegal,
        status: r.status,
        discs: r.discs(),
        score: r.score().0,
        stored: game.real_score(),
    }
}

/// Game counts of a check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read.
    pub games: usize,
    /// Games whose every move is legal.
    pub legal: usize,
    /// Games with an illegal move.
    pub illegal: usize,
    /// Games that reached the end (neither side can move).
    pub finished: usize,
    /// Games that stop while a side can still move.
    pub unfinished: usize,
    /// Finished games whose stored real score is not the WTHOR-rule score.
    pub mismatches: usize,
    /// Passes inserted, over all games.
    pub passes: usize,
    /// Discs played, over all games.
    pub moves: usize,
}

impl Counts {
    fn add(&mut self, o: &Counts) {
        self.games += o.games;
        self.legal += o.legal;
        self.illegal += o.illegal;
        self.finished += o.finished;
        self.unfinished += o.unfinished;
        self.mismatches += o.mismatches;
        self.passes += o.passes;
        self.moves += o.moves;
    }
}

/// A game worth reporting: an illegal move or a score mismatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Index of the file in [`Database::files`](crate::Database::files).
    pub file: usize,
    /// Index of the game in its file, from 0.
    pub game: usize,
    /// What the replay found.
    pub check: GameCheck,
}

impl Finding {
    /// The game found.
    #[must_use]
    pub fn id(&self) -> GameId {
        GameId::new(self.file, self.game)
    }
}

/// The counts and findings of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCheck {
    /// Game counts.
    pub counts: Counts,
    /// Illegal games and mismatches, in game order.
    pub findings: Vec<Finding>,
}

impl FileCheck {
    fn of_game(id: GameId, view: &GameView<'_>) -> FileCheck {
        let (file, game) = (id.file(), id.index());
        let check = GameCheck::of(view);
        let legal = check.illegal.is_none();
        let finished = check.status == GameStatus::Finished;
        let counts = Counts {
            games: 1,
            legal: usize::from(legal),
            illegal: usize::from(!legal),
            finished: usize::from(finished),
            unfinished: usize::from(!finished),
            mismatches: usize::from(check.is_mismatch()),
            passes: check.passes,
            moves: check.moves,
        };
        let findings = if !legal || check.is_mismatch() {
            vec![Finding { file, game, check }]
        } else {
            Vec::new()
        };
        FileCheck { counts, findings }
    }

    fn merge_from(&mut self, other: FileCheck) {
        self.counts.add(&other.counts);
        self.findings.extend(other.findings);
    }
}

/// The result of checking every game of a database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckSummary {
    /// Counts over all files.
    pub totals: Counts,
    /// Counts and findings per file, in
    /// [`Database::files`](crate::Database::files) order.
    pub per_file: Vec<FileCheck>,
}

impl CheckSummary {
    fn new(per_file: Vec<FileCheck>) -> CheckSummary {
        let mut totals = Counts::default();
        for f in &per_file {
            totals.add(&f.counts);
        }
        CheckSummary { totals, per_file }
    }
}
