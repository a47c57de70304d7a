//! The statistics as the front ends answer them: the rows shown (player
//! records of the names asked for, tables cut to the top rows) and one
//! serialisable report, whose keys are those of `wthor stats --format
//! jsonl`, of the dicts of the Python `Database.stats`, and of the server's
//! JSON.
//!
//! ```
//! use wthor_db::{Database, Query};
//! use wthor_db::index::IndexChoice;
//! use wthor_db::stats::{StatsOptions, StatsReport};
//!
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = Database::open(&testdata)?;
//! let options = StatsOptions { players: true, ..StatsOptions::default() };
//! let stats = db.searcher(IndexChoice::Default).stats(&Query::new(), &options)?.value;
//! let report = StatsReport::new(&stats, &[], false, Some(3));
//! assert_eq!(report.players.len(), 3);
//! let json = serde_json::to_value(&report)?;
//! assert_eq!(json["totals"]["games"], stats.totals.results.games);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;

use super::{
    NextMoves, OpeningStats, PlayerRecord, Record, Results, SOLVE_MAX_EMPTIES, Solved, Stats,
    StatsOptions,
};
use crate::{NamePattern, Query};

/// Whether a front end asks for the next-move table ([`StatsOptions::with_next_moves`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum NextMovesAsked {
    /// When the query gives a position (the default): a position is
    /// almost always asked for its next moves.
    #[default]
    WithPosition,
    /// Always (`--next`, `next_moves=True`).
    Yes,
    /// Never, unless solved (`--no-next`, `next_moves=False`).
    No,
}

impl StatsOptions {
    /// The next-move table as asked for `query` (see [`NextMovesAsked`]);
    /// always with [`with_solve`](StatsOptions::with_solve), which scores
    /// them.
    ///
    /// ```
    /// use wthor_db::Query;
    /// use wthor_db::stats::{NextMovesAsked, StatsOptions};
    ///
    /// let options = StatsOptions::default()
    ///     .with_by_year(true)
    ///     .with_next_moves(NextMovesAsked::WithPosition, &Query::new());
    /// assert!(options.players && options.by_year && !options.next_moves);
    /// ```
    #[must_use]
    pub fn with_next_moves(mut self, asked: NextMovesAsked, query: &Query) -> StatsOptions {
        self.next_moves = self.solve
            || match asked {
                NextMovesAsked::Yes => true,
                NextMovesAsked::No => false,
                NextMovesAsked::WithPosition => query.position_filter().is_some(),
            };
        self
    }

    /// Exact scores of the next moves (which asks for them).
    #[must_use]
    pub fn with_solve(mut self, solve: bool) -> StatsOptions {
        self.solve = solve;
        self.next_moves |= solve;
        self
    }

    /// The record of every player.
    #[must_use]
    pub fn with_players(mut self, players: bool) -> StatsOptions {
        self.players |= players;
        self
    }

    /// Player records split by year (which asks for the records).
    #[must_use]
    pub fn with_by_year(mut self, by_year: bool) -> StatsOptions {
        self.by_year = by_year;
        self.players |= by_year;
        self
    }

    /// The openings of this many moves (0: none).
    #[must_use]
    pub fn with_openings(mut self, moves: usize) -> StatsOptions {
        self.openings = moves;
        self
    }
}

impl Solved {
    /// Why the next moves were not solved, as a sentence; `None` when
    /// solved or not asked.
    #[must_use]
    pub fn note(self) -> Option<String> {
        match self {
            Solved::NotAsked | Solved::Yes => None,
            Solved::TooManyEmpties(n) => Some(format!(
                "not solved: {n} empty squares (the exact solver takes at most {SOLVE_MAX_EMPTIES})"
            )),
            Solved::TenByTen => Some("not solved: the exact solver is 8x8 only".to_owned()),
            Solved::NoMove => Some("not solved: the side to move must pass".to_owned()),
        }
    }
}

impl Stats {
    /// The player records to show: those of the names `patterns` match
    /// (known names only) when there are any, else all; most games first.
    #[must_use]
    pub fn players_shown(&self, patterns: &[NamePattern]) -> Vec<&PlayerRecord> {
        self.players
            .iter()
            .filter(|p| {
                patterns.is_empty() || p.known && patterns.iter().any(|q| q.matches(&p.name))
            })
            .collect()
    }
}

/// At most `top` of `rows` (all without a `top`).
fn cut<T>(rows: &[T], top: Option<usize>) -> &[T] {
    &rows[..top.map_or(rows.len(), |t| rows.len().min(t))]
}

/// Games and black's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultsRow {
    /// Games.
    pub games: u64,
    /// Games black won.
    pub black_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games black lost.
    pub black_losses: u64,
    /// The mean of black's stored discs (`None` without games).
    pub mean_black_discs: Option<f64>,
    /// The mean of black's stored theoretical scores (`None` without
    /// games).
    pub mean_black_theoretical: Option<f64>,
}

impl From<&Results> for ResultsRow {
    fn from(r: &Results) -> ResultsRow {
        ResultsRow {
            games: r.games,
            black_wins: r.black_wins,
            draws: r.draws,
            black_losses: r.black_losses,
            mean_black_discs: r.mean_black_discs(),
            mean_black_theoretical: r.mean_black_theoretical(),
        }
    }
}

/// The totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TotalsRow {
    /// Their results.
    #[serde(flatten)]
    pub results: ResultsRow,
    /// The median of black's stored discs.
    pub median_black_discs: Option<f64>,
}

/// Whether the next moves were solved: `null` (not asked), `true`, or the
/// sentence saying why not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum SolvedField {
    /// Solved.
    Yes(bool),
    /// Why not.
    No(String),
}

/// One next move.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextRow {
    /// The move (`f5`), in the orientation of the position as given.
    #[serde(rename = "move")]
    pub square: String,
    /// Its games' results.
    #[serde(flatten)]
    pub results: ResultsRow,
    /// Its share of the games that went on.
    pub share: f64,
    /// Its exact score (disc difference for the side to move), when solved.
    pub exact: Option<i32>,
    /// The named opening it reaches, if any.
    pub name: Option<String>,
}

/// The next-move table of a position.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextMovesReport {
    /// The position as OBF text.
    pub position: String,
    /// Games that reach it.
    pub reached: u64,
    /// Games that stop there.
    pub ended: u64,
    /// Solved, or why not (`None`: not asked).
    pub solved: Option<SolvedField>,
    /// The moves, most played first.
    pub moves: Vec<NextRow>,
}

impl From<&NextMoves> for NextMovesReport {
    fn from(next: &NextMoves) -> NextMovesReport {
        let size = next.position.size();
        NextMovesReport {
            position: next.position.to_obf(),
            reached: next.reached,
            ended: next.ended,
            solved: match next.solved {
                Solved::NotAsked => None,
                Solved::Yes => Some(SolvedField::Yes(true)),
                other => other.note().map(SolvedField::No),
            },
            moves: next
                .moves
                .iter()
                .map(|m| NextRow {
                    square: m.square.name(size).to_string(),
                    results: (&m.results).into(),
                    share: m.share,
                    exact: m.exact,
                    name: m.name.clone(),
                })
                .collect(),
        }
    }
}

/// A player's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RecordRow {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// (wins + draws / 2) / games, in percent.
    pub score_percent: f64,
    /// The mean disc difference.
    pub mean_disc_difference: Option<f64>,
    /// The first year played.
    pub first_year: u16,
    /// The last year played.
    pub last_year: u16,
}

impl From<&Record> for RecordRow {
    fn from(r: &Record) -> RecordRow {
        RecordRow {
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            score_percent: r.score_percent(),
            mean_disc_difference: r.mean_disc_difference(),
            first_year: r.first_year,
            last_year: r.last_year,
        }
    }
}

/// A player's results in one year.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YearRow {
    /// The year.
    pub year: u16,
    /// The results.
    #[serde(flatten)]
    pub record: RecordRow,
}

/// A player's record.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerRow {
    /// The name (a placeholder when unknown).
    pub player: String,
    /// Whether the name is in the names file.
    pub known: bool,
    /// All games.
    #[serde(flatten)]
    pub record: RecordRow,
    /// By year, when asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_year: Option<Vec<YearRow>>,
}

/// An opening's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpeningRow {
    /// Its moves (`f5d6c3`), in canonical orientation.
    pub opening: String,
    /// Its games' results.
    #[serde(flatten)]
    pub results: ResultsRow,
    /// Its share of the games of that length.
    pub share: f64,
    /// Its named opening (the deepest named position of its moves), if
    /// any.
    pub name: Option<String>,
}

impl From<&OpeningStats> for OpeningRow {
    fn from(o: &OpeningStats) -> OpeningRow {
        OpeningRow {
            opening: o
                .moves
                .iter()
                .map(|sq| sq.name(o.size).to_string())
                .collect(),
            results: (&o.results).into(),
            share: o.share,
            name: o.name.clone(),
        }
    }
}

/// The statistics as shown: totals, the next moves (when asked), the
/// player records shown ([`Stats::players_shown`]) and the openings, both
/// cut to `top` rows.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatsReport {
    /// The totals.
    pub totals: TotalsRow,
    /// The next moves, when asked.
    pub next_moves: Option<NextMovesReport>,
    /// Player records.
    pub players: Vec<PlayerRow>,
    /// Openings.
    pub openings: Vec<OpeningRow>,
    /// Games shorter than the opening depth.
    pub openings_shorter: u64,
}

impl StatsReport {
    /// The report of `stats`: the records of the players `patterns` name
    /// (all without patterns), by year with `by_year`, the tables cut to
    /// `top` rows.
    #[must_use]
    pub fn new(
        stats: &Stats,
        patterns: &[NamePattern],
        by_year: bool,
        top: Option<usize>,
    ) -> StatsReport {
        let players = stats.players_shown(patterns);
        StatsReport {
            totals: TotalsRow {
                results: (&stats.totals.results).into(),
                median_black_discs: stats.totals.median_black_discs,
            },
            next_moves: stats.next_moves.as_ref().map(NextMovesReport::from),
            players: cut(&players, top)
                .iter()
                .map(|p| PlayerRow {
                    player: p.name.clone(),
                    known: p.known,
                    record: (&p.record).into(),
                    by_year: by_year.then(|| {
                        p.by_year
                            .iter()
                            .map(|(year, r)| YearRow {
                                year: *year,
                                record: r.into(),
                            })
                            .collect()
                    }),
                })
                .collect(),
            openings: cut(&stats.openings, top)
                .iter()
                .map(OpeningRow::from)
                .collect(),
            openings_shorter: stats.openings_shorter,
        }
    }
}
