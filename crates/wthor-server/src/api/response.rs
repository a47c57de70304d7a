//! The JSON answers of the API, one type per answer, built from the
//! library's values (the statistics' report rows, [`GameRecord`], the
//! positions of [`PositionLine`], the analysis). **One key style:
//! camelCase**, the style of the game record that the CSV and JSON Lines
//! exports share: the statistics' rows, whose keys are snake_case in
//! `wthor stats --format jsonl` and in Python's dicts, are written here
//! with the same values under camelCase keys (`blackWins`,
//! `meanBlackDiscs`), by the types below.

use othello_core::Color;
use serde::Serialize;
use wthor_db::analysis::Report;
use wthor_db::novelty::{MoveValue, Novelty};
use wthor_db::position_line::PositionLine;
use wthor_db::stats::{
    MoveRatings, NextRow, OpeningRow, RecordRow, ResultsRow, SolvedField, TotalsRow,
};
use wthor_db::text::GameRecord;

/// Games and black's results (a row of the statistics).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Results {
    /// Games.
    pub games: u64,
    /// Games black won.
    pub black_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games black lost.
    pub black_losses: u64,
    /// The mean of black's stored discs (`null` without games).
    pub mean_black_discs: Option<f64>,
    /// The mean of black's stored theoretical scores (`null` without
    /// games).
    pub mean_black_theoretical: Option<f64>,
}

impl From<ResultsRow> for Results {
    fn from(r: ResultsRow) -> Results {
        Results {
            games: r.games,
            black_wins: r.black_wins,
            draws: r.draws,
            black_losses: r.black_losses,
            mean_black_discs: r.mean_black_discs,
            mean_black_theoretical: r.mean_black_theoretical,
        }
    }
}

/// The totals of the games a query selects.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    /// Their results.
    #[serde(flatten)]
    pub results: Results,
    /// The median of black's stored discs.
    pub median_black_discs: Option<f64>,
}

impl From<TotalsRow> for Totals {
    fn from(t: TotalsRow) -> Totals {
        Totals {
            results: t.results.into(),
            median_black_discs: t.median_black_discs,
        }
    }
}

/// A player's results.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
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

impl From<RecordRow> for Record {
    fn from(r: RecordRow) -> Record {
        Record {
            games: r.games,
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
            score_percent: r.score_percent,
            mean_disc_difference: r.mean_disc_difference,
            first_year: r.first_year,
            last_year: r.last_year,
        }
    }
}

/// A player's results in one year.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct YearRecord {
    /// The year.
    pub year: u16,
    /// The results.
    #[serde(flatten)]
    pub record: Record,
}

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

/// `GET /api/v1/explorer`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Explorer {
    /// The position explored.
    pub position: PositionInfo,
    /// Its OBF text, the side that plays next to move (the other side
    /// when the side to move must pass: as [`PositionInfo::to_move`]).
    pub obf: String,
    /// The named opening at this position, in any orientation.
    pub opening: Option<OpeningName>,
    /// The games matching the filters (that reach the position).
    pub totals: Totals,
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
    /// The latest games reaching the position, newest first (the newest
    /// year first, the last in file order first within a year), or the
    /// top rated with `top=1`.
    pub games: Vec<GameRecord>,
    /// Whether the position index answered.
    pub indexed: bool,
    /// When `opening_name` names no opening: the closest names, as the
    /// search's; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestions: Option<Vec<String>>,
    /// When `opening_name` names no opening: the CLI's sentence, as the
    /// search's; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// One next move of the explorer: the row of `wthor stats --next`
/// (camelCase keys), its transpositions and its value.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExplorerRow {
    /// The move (`f5`), in the orientation of the position as given.
    #[serde(rename = "move")]
    pub square: String,
    /// Its games' results.
    #[serde(flatten)]
    pub results: Results,
    /// Its share of the games that went on.
    pub share: f64,
    /// Its exact score (disc difference for the side that plays), when
    /// known.
    pub exact: Option<i32>,
    /// The named opening it reaches, if any.
    pub name: Option<String>,
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
    /// The mean rating of the players who made the move (the side to move
    /// here, in each game's year: `wthor_db::stats::MoveRatings`), to a
    /// tenth; `null` without a rated mover (10x10, unknown players).
    pub mover_rating: Option<f64>,
    /// The movers' performance rating against their opponents (the rating
    /// at which their score is the expected one, the fitted first-move
    /// edge included; within 800 of the mean opponent), to a tenth; `null`
    /// without a game where both are rated.
    pub performance: Option<f64>,
    /// The games where both are rated (the performance's).
    pub rated_games: u64,
    /// Their opponents' mean rating, to a tenth.
    pub opponent_rating: Option<f64>,
}

impl ExplorerRow {
    /// The row of the statistics, with its transpositions and its
    /// ratings, before values.
    pub(crate) fn new(
        row: NextRow,
        transpositions: u64,
        ratings: Option<&MoveRatings>,
    ) -> ExplorerRow {
        let tenth = |x: f64| (x * 10.0).round() / 10.0;
        ExplorerRow {
            square: row.square,
            results: row.results.into(),
            share: row.share,
            exact: row.exact,
            name: row.name,
            transpositions,
            value: None,
            depth: None,
            best: false,
            mover_rating: ratings.and_then(|r| r.mover_rating).map(tenth),
            performance: ratings.and_then(|r| r.performance).map(tenth),
            rated_games: ratings.map_or(0, |r| r.rated_games),
            opponent_rating: ratings.and_then(|r| r.opponent_rating).map(tenth),
        }
    }
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

/// `GET /api/v1/search`.
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

/// `GET /api/v1/games/{id}`.
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
    /// The analysis, when asked (`analysis=1`): `wthor analyze GAME
    /// --format jsonl`'s line; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Report>,
    /// Where the game left known play, when asked (`novelty=1`, 8x8
    /// games); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub novelty: Option<NoveltyInfo>,
}

/// A game's novelty (`wthor_db::novelty`; the `novelty` object of `wthor
/// search --format jsonl --novelty`, with the move named): the first move
/// after which no game of an earlier year had reached the game's position
/// (8 symmetries, any move order).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoveltyInfo {
    /// `novelty`; `known` (every position was reached in an earlier
    /// year); `copy` (the positions of a game before it); `firstYear` (a
    /// game of the database's first year: nothing earlier).
    pub kind: &'static str,
    /// The novelty's move number (from 1), for a novelty.
    #[serde(rename = "move")]
    pub ply: Option<usize>,
    /// The novelty's square (`c4`), for a novelty.
    pub square: Option<String>,
    /// The games of earlier years that had reached the position before the
    /// novelty, for a novelty.
    pub before: Option<u64>,
    /// Whether other games of its year reached the new position, for a
    /// novelty.
    pub same_year: Option<bool>,
    /// The games of later years that reached the new position (0 without a
    /// novelty).
    pub followed: u64,
    /// The first move after which no other game reaches its position;
    /// `null`: never.
    pub unique_from: Option<usize>,
    /// The novelty move's value for the side that played it, in discs
    /// (a multi-PV search of the position before it:
    /// `wthor_db::novelty::move_value`; the analysis's judgement of the
    /// move when `analysis=1` is asked too); `null` without a novelty.
    pub value: Option<i32>,
    /// The best value of the position before the move minus the move's
    /// (0: a best move); `null` without a novelty.
    pub loss: Option<i32>,
    /// Whether `value` and `loss` are exact scores; `null` without them.
    pub exact: Option<bool>,
    /// The plies of the search for an estimate; `null` when exact.
    pub value_depth: Option<u32>,
    /// What it means, in a sentence.
    pub note: String,
}

impl NoveltyInfo {
    /// The novelty move's value and loss as the game's analysis `report`
    /// judged it, when the analysis was asked too: the page then shows
    /// one value for the move, not the multi-PV search's of another depth
    /// beside the analysis's (a2 of 2005:3 read "losing 15 discs" at 14
    /// plies in the novelty line and -7 at 18 in the move list).
    pub(crate) fn judged_by(&mut self, report: &wthor_db::analysis::Report) {
        // A record holds no pass: move `ply` (from 1) is record index
        // `ply - 1`.
        let Some(m) = self
            .ply
            .and_then(|ply| report.moves.iter().find(|m| m.index + 1 == ply))
        else {
            return;
        };
        self.value = Some(m.played);
        self.loss = Some(m.loss);
        self.exact = Some(m.exact);
        self.value_depth = m.depth;
    }

    /// The answer for a game's novelty, `moves` its moves named, `value`
    /// its move's value.
    pub(crate) fn new(n: &Novelty, moves: &[String], value: Option<MoveValue>) -> NoveltyInfo {
        let novelty = n.departure.novelty();
        let ply = novelty.map(|(ply, _, _)| ply);
        let note = n.departure.why_none().unwrap_or(
            "the first move after which no game of an earlier year \
             had reached this position (8 symmetries, any move order)",
        );
        NoveltyInfo {
            kind: n.departure.kind(),
            ply,
            square: ply.and_then(|p| moves.get(p - 1).cloned()),
            before: novelty.map(|(_, before, _)| before),
            same_year: novelty.map(|(_, _, same)| same),
            followed: n.followed,
            unique_from: n.unique_from,
            value: value.and_then(|v| v.value),
            loss: value.map(|v| v.loss),
            exact: value.map(|v| v.exact),
            value_depth: value.and_then(|v| v.depth),
            note: note.to_owned(),
        }
    }
}

/// `GET /api/v1/history`: a position through the years. The archive has
/// no dates: **first** is the earliest year, then file order (not known
/// to be chronological within a year); `firstMeans` says so.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryAnswer {
    /// The position's OBF text, the side that plays next to move (as the
    /// explorer's).
    pub obf: String,
    /// Games reaching it (with the filters), over all years.
    pub reached: u64,
    /// What "first" means, in a sentence.
    pub first_means: &'static str,
    /// Every year of the database's range (for the position's board
    /// size), years without a game included.
    pub years: Vec<HistoryYear>,
    /// The first game reaching the position.
    pub first: Option<GameRecord>,
    /// The latest game reaching it.
    pub latest: Option<GameRecord>,
    /// Every next move ever played, most played first.
    pub moves: Vec<MoveHistoryRow>,
}

/// One year of a history.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HistoryYear {
    /// The year.
    pub year: u16,
    /// Its games reaching the position, black's results.
    #[serde(flatten)]
    pub results: Results,
    /// The moves played from it that year, most played first.
    pub moves: Vec<YearMove>,
}

/// A next move in one year.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct YearMove {
    /// The move, named as the explorer's rows name it.
    #[serde(rename = "move")]
    pub square: String,
    /// Its games that year, black's results.
    #[serde(flatten)]
    pub results: Results,
}

/// The first and latest game that played a move.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveHistoryRow {
    /// The move, named as the explorer's rows name it.
    #[serde(rename = "move")]
    pub square: String,
    /// Its games over all years.
    pub games: u64,
    /// The first game that played it.
    pub first: GameRecord,
    /// The latest.
    pub latest: GameRecord,
}

/// One name of `GET /api/v1/players?prefix=`.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerName {
    /// The name.
    pub name: String,
    /// Their games in the archive.
    pub games: u64,
}

/// `GET /api/v1/players/{name}`.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerPage {
    /// The name.
    pub name: String,
    /// The whole record.
    pub record: Record,
    /// The record year by year.
    pub by_year: Vec<YearRecord>,
    /// The most frequent openings as black (canonical orientation, named),
    /// results from black's side and the player's.
    pub as_black: Vec<PlayerOpening>,
    /// The most frequent openings as white, results from black's side and
    /// the player's.
    pub as_white: Vec<PlayerOpening>,
    /// The most frequent opponents.
    pub opponents: Vec<Opponent>,
    /// The player's ratings by the whole-history fit (`null` when unrated:
    /// `???`, 10x10 games only).
    pub ratings: Option<PlayerRatingsInfo>,
    /// Endgame accuracy by year, from the analysis logs the server was
    /// given (`null` without logs; empty when none of their games is the
    /// player's).
    pub accuracy: Option<Vec<AccuracyYear>>,
}

/// A rating of one year (the whole-history fit's).
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RatingYear {
    /// The year.
    pub year: u16,
    /// The rating (Elo points, the mean rated human at 1500), to a
    /// hundredth.
    pub rating: f64,
    /// Its standard deviation, to a hundredth.
    pub sd: f64,
    /// Rated games that year.
    pub games: u32,
    /// Points scored in them (a draw half a point).
    pub points: f64,
    /// Whether the rating is provisional (its deviation above the bound).
    pub provisional: bool,
    /// The rank among the non-provisional ratings of the year, from 1.
    pub rank: Option<u32>,
}

impl From<&wthor_db::ratings::YearRating> for RatingYear {
    fn from(y: &wthor_db::ratings::YearRating) -> RatingYear {
        let hundredth = |x: f64| (x * 100.0).round() / 100.0;
        RatingYear {
            year: y.year,
            rating: hundredth(y.rating),
            sd: hundredth(y.sd),
            games: y.games,
            points: y.points,
            provisional: y.provisional,
            rank: y.rank,
        }
    }
}

/// A player's ratings on their page.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerRatingsInfo {
    /// A program's.
    pub program: bool,
    /// The highest rating of any year.
    pub peak: Option<RatingYear>,
    /// The years in which the player played rated games, in order.
    pub years: Vec<RatingYear>,
    /// The deviation above which a rating is provisional.
    pub provisional_sd: f64,
}

/// A player's endgame accuracy in one year (`wthor stats --accuracy
/// --by-year`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccuracyYear {
    /// The year.
    pub year: u16,
    /// Games with some of the player's moves judged.
    pub games: usize,
    /// Moves judged.
    pub moves: usize,
    /// Mean loss per move, in discs.
    pub mean_loss: f64,
    /// Share of moves that lost nothing, 0 to 1.
    pub perfect_share: f64,
    /// The largest losses, largest first.
    pub worst: Vec<Mistake>,
}

/// One costly endgame move.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mistake {
    /// The game (`2003:5`).
    pub game: String,
    /// The move's number, from 1.
    pub number: usize,
    /// Its square.
    pub square: String,
    /// The discs it lost.
    pub loss: i32,
}

impl From<wthor_db::analysis::Blunder> for Mistake {
    fn from(b: wthor_db::analysis::Blunder) -> Mistake {
        Mistake {
            game: b.game,
            number: b.number,
            square: b.square,
            loss: b.loss,
        }
    }
}

/// `GET /api/v1/ratings?year=&top=`: the list of a year.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RatingsPage {
    /// The year listed.
    pub year: u16,
    /// Every year with rated games, in order (the year chooser).
    pub years: Vec<u16>,
    /// Players rated that year (all of them, the list cut at `top`).
    pub rated: usize,
    /// The deviation above which a rating is provisional.
    pub provisional_sd: f64,
    /// The players: the ranked first, then the provisional, highest first.
    pub players: Vec<RatedPlayer>,
}

/// `GET /api/v1/report/player/{name}`: the report of `wthor report
/// player --format json` (its keys), the player's rating of their last
/// rated year, and their worst endgame mistakes as that colour.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReportPage {
    /// The report.
    #[serde(flatten)]
    pub report: wthor_db::report::PlayerReport,
    /// A program's.
    pub program: bool,
    /// The rating of the player's last rated year.
    pub rating: Option<RatingYear>,
    /// The costliest endgame moves of the player with that colour (in
    /// those years), from the analysis logs the server was given; `null`
    /// without logs.
    pub mistakes: Option<Vec<Mistake>>,
}

/// One player of a year's list.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RatedPlayer {
    /// The name.
    pub name: String,
    /// A program's.
    pub program: bool,
    /// The rating of that year and its rank, games, points.
    #[serde(flatten)]
    pub at: RatingYear,
}

/// An opening of a player: the row of `wthor stats --openings` (black's
/// results, its name; camelCase keys) and the player's own results with
/// it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerOpening {
    /// Its moves (`f5d6c3`), in canonical orientation.
    pub opening: String,
    /// Its games' results, black's.
    #[serde(flatten)]
    pub results: Results,
    /// Its share of the games of that length.
    pub share: f64,
    /// Its named opening, if any.
    pub name: Option<String>,
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
        PlayerOpening {
            opening: row.opening,
            results: row.results.into(),
            share: row.share,
            name: row.name,
            wins,
            losses,
        }
    }
}

/// An opponent and the score against them.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
    /// The opponent's rating in the last year the two met
    /// ([`last_met`](Self::last_met); the fitted curve's value when they
    /// played no rated game that year); `null` when unrated.
    pub rating: Option<f64>,
    /// The last year the two met.
    pub last_met: Option<u16>,
}

/// An answer of type `T` as JSON, serialised once: what the cache of
/// answers keeps, and a handler answers (`Json<T>` serialised ahead).
#[derive(Clone, Debug)]
pub struct Serialized<T> {
    json: bytes::Bytes,
    of: std::marker::PhantomData<fn() -> T>,
}

impl<T: Serialize> Serialized<T> {
    /// `answer` as JSON.
    ///
    /// # Errors
    /// An answer serde cannot write (none can: a 500 if it happened).
    pub fn new(answer: &T) -> Result<Serialized<T>, crate::api::error::ApiError> {
        Ok(Serialized::from_json(serde_json::to_vec(answer)?.into()))
    }
}

impl<T> Serialized<T> {
    /// The JSON of a `T` (kept by the cache).
    pub(crate) fn from_json(json: bytes::Bytes) -> Serialized<T> {
        Serialized {
            json,
            of: std::marker::PhantomData,
        }
    }

    /// Its JSON.
    #[must_use]
    pub fn json(&self) -> &bytes::Bytes {
        &self.json
    }
}

impl<T> axum::response::IntoResponse for Serialized<T> {
    fn into_response(self) -> axum::response::Response {
        (
            [(
                axum::http::header::CONTENT_TYPE,
                axum::http::HeaderValue::from_static("application/json"),
            )],
            self.json,
        )
            .into_response()
    }
}
