//! Statistics over a query: totals, the next moves from a position, player
//! records, the most frequent openings.
//!
//! [`Searcher::stats`](crate::Searcher::stats) folds the games matching a
//! [`Query`] (in parallel, on [`Database::par_fold`]; a
//! [`sequential`](crate::Searcher::sequential) searcher's, on
//! [`Database::scan`], gives the same answer; through a position index,
//! the games it names) into a [`Stats`]: typed numbers, nothing printed. A query with a sort or a limit is first run as
//! a search, and the statistics are those of the games it returns.
//!
//! **Next moves.** The position is the query's position filter (or the 8x8
//! start). A game reaches it in one of its 8 orientations; the game's next
//! move is mapped back through that symmetry, so that moves are named in
//! the orientation the position was given in. Moves that a symmetry of the
//! position itself makes equivalent (from the start: `f5`, `d3`, `c4`,
//! `e6`) are one row, named by the first of them by column from the right,
//! then row (`f5` from the start, as openings are written). With [`StatsOptions::solve`] and at most
//! [`SOLVE_MAX_EMPTIES`] empty squares (8x8), every legal move also gets its
//! exact score from [`othello_core::solver::Solver`].
//!
//! **Openings** are the first `depth` moves in canonical orientation: the
//! image, under the symmetries that keep the start position, whose move
//! squares compare first by (column from the right, row), so that 8x8
//! openings start with `f5` and 10x10 ones with `g6`.
//!
//! ```
//! use wthor_db::{Database, Query};
//! use wthor_db::index::IndexChoice;
//! use wthor_db::query::Position;
//! use wthor_db::stats::StatsOptions;
//! use othello_core::Size;
//!
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = Database::open(&testdata)?;
//! let options = StatsOptions { next_moves: true, ..StatsOptions::default() };
//! let start = Query::new().position(Position::after_transcript("", Size::Eight)?);
//! let stats = db.searcher(IndexChoice::Never).stats(&start, &options)?.value;
//! let sequential = db.searcher(IndexChoice::Never).sequential();
//! assert_eq!(stats, sequential.stats(&start, &options)?.value);
//! let next = stats.next_moves.unwrap();
//! // From the start, the four first moves are one.
//! assert_eq!(next.moves.len(), 1);
//! assert_eq!(next.moves[0].results.games, stats.totals.results.games);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{BTreeMap, HashMap};

mod report;

pub use report::{
    NextMovesAsked, NextMovesReport, NextRow, OpeningRow, PlayerRow, RecordRow, ResultsRow,
    SolvedField, StatsReport, TotalsRow, YearRow,
};

use othello_core::position::forced_pass;
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::symmetry::Symmetry;
use othello_core::{Bitboard, Board, Board8, Board10, Color, Move, Size, Square};
use wthor_format::BoardSize;

use crate::query::{Matcher, Outcome, Position};
use crate::scan::GameRef;
use crate::{Database, GameId, Query, QueryError};

/// The most empty squares [`StatsOptions::solve`] solves.
pub const SOLVE_MAX_EMPTIES: u32 = 24;

/// What to compute beside the totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatsOptions {
    /// The next-move table from the query's position (or the start).
    pub next_moves: bool,
    /// Exact scores of the next moves (8x8, at most
    /// [`SOLVE_MAX_EMPTIES`] empties).
    pub solve: bool,
    /// The record of every player of the games.
    pub players: bool,
    /// Player records split by year too.
    pub by_year: bool,
    /// The openings of this many moves (0: none).
    pub openings: usize,
    /// With the next moves, each move's ratings ([`MoveRatings`]: the
    /// movers' mean rating and their performance) by the whole database's
    /// kept ratings ([`Database::filter_ratings`]); 8x8 games only.
    pub ratings: bool,
}

/// Results of a set of games, from black's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Results {
    /// Games.
    pub games: u64,
    /// Games black won.
    pub black_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Games black lost.
    pub black_losses: u64,
    /// The sum of black's stored discs.
    pub black_discs_sum: u64,
    /// The sum of black's stored theoretical scores (discs after perfect
    /// play from the file's depth of empties).
    pub black_theoretical_sum: u64,
}

impl Results {
    /// Counts a game: black's real and theoretical discs as stored.
    pub(crate) fn add_game(&mut self, game: &wthor_format::GameView<'_>) {
        let black_discs = game.real_score();
        self.games += 1;
        match Outcome::of_score(black_discs, game.board_size()) {
            Outcome::BlackWin => self.black_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::WhiteWin => self.black_losses += 1,
        }
        self.black_discs_sum += u64::from(black_discs);
        self.black_theoretical_sum += u64::from(game.theoretical_score());
    }

    pub(crate) fn merge(&mut self, other: &Results) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.black_losses += other.black_losses;
        self.black_discs_sum += other.black_discs_sum;
        self.black_theoretical_sum += other.black_theoretical_sum;
    }

    fn rate(&self, n: u64) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            n as f64 / self.games as f64
        }
    }

    /// Black's wins over games (0 without games).
    #[must_use]
    pub fn black_win_rate(&self) -> f64 {
        self.rate(self.black_wins)
    }

    /// Draws over games.
    #[must_use]
    pub fn draw_rate(&self) -> f64 {
        self.rate(self.draws)
    }

    /// Black's losses over games.
    #[must_use]
    pub fn black_loss_rate(&self) -> f64 {
        self.rate(self.black_losses)
    }

    /// Black's mean stored discs, `None` without games.
    #[must_use]
    pub fn mean_black_discs(&self) -> Option<f64> {
        (self.games > 0).then(|| self.black_discs_sum as f64 / self.games as f64)
    }

    /// Black's mean theoretical score (discs after perfect play from the
    /// depth of each game's file, as stored), `None` without games.
    #[must_use]
    pub fn mean_black_theoretical(&self) -> Option<f64> {
        (self.games > 0).then(|| self.black_theoretical_sum as f64 / self.games as f64)
    }
}

/// The totals of the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Totals {
    /// Their results.
    pub results: Results,
    /// The median of black's stored discs (the mean of the two middle
    /// values for an even count), `None` without games.
    pub median_black_discs: Option<f64>,
}

/// One next move from the position.
#[derive(Clone, Debug, PartialEq)]
pub struct NextMove {
    /// The move, in the orientation of the position as given.
    pub square: Square,
    /// The games that played it (or an equivalent move) there.
    pub results: Results,
    /// Its games over the games that went on from the position.
    pub share: f64,
    /// The exact score after this move for the side to move in the position
    /// (disc difference, perfect play, empties to the winner), when solved.
    pub exact: Option<i32>,
    /// The named opening whose position this move reaches (in any
    /// orientation, [`crate::openings`]), if it reaches one; 8x8 only.
    pub name: Option<String>,
    /// The ratings of the players who made the move, with
    /// [`StatsOptions::ratings`].
    pub ratings: Option<MoveRatings>,
}

/// The ratings of the players who made a move (issue 39, Lichess's
/// explorer's columns): each game's mover (the side that played the move)
/// and opponent rated in the game's year by the whole database's kept
/// ratings ([`Database::filter_ratings`]: a player without games that
/// year has the fitted curve's value; unknown players and 10x10 games are
/// not rated).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveRatings {
    /// Games whose mover is rated.
    pub movers_rated: u64,
    /// The movers' mean rating, over those games (`None` without one).
    pub mover_rating: Option<f64>,
    /// Games where both players are rated: the performance's.
    pub rated_games: u64,
    /// The movers' points in them (a draw half a point).
    pub points: f64,
    /// Their opponents' mean rating (`None` without a game).
    pub opponent_rating: Option<f64>,
    /// The movers' performance in them ([`crate::ratings::performance`]:
    /// the rating at which their points are the expected score against
    /// those opponents, the fitted first-move edge included; within 800
    /// points of the mean opponent).
    pub performance: Option<f64>,
}

/// The ratings gathered for a move: the movers' ratings, and of the games
/// with both rated the opponents' ratings (less the mover's first-move
/// edge, to a hundredth of a point: the games of one rating counted
/// together) and the movers' points.
#[derive(Clone, Debug, Default)]
struct RatingAcc {
    mover_sum: f64,
    movers: u64,
    /// Each opponent's rating, in hundredths of a point (grouped when
    /// finished: pushing is cheaper than hashing, per game).
    opponents: Vec<i32>,
    rated: u64,
    opponent_sum: f64,
    points: f64,
}

impl RatingAcc {
    fn merge(&mut self, other: RatingAcc) {
        self.mover_sum += other.mover_sum;
        self.movers += other.movers;
        self.opponents.extend(other.opponents);
        self.rated += other.rated;
        self.opponent_sum += other.opponent_sum;
        self.points += other.points;
    }

    fn finish(&self) -> MoveRatings {
        let mut sorted = self.opponents.clone();
        sorted.sort_unstable();
        let opponents: Vec<(f64, f64)> = sorted
            .chunk_by(|a, b| a == b)
            .map(|same| (f64::from(same[0]) / 100.0, same.len() as f64))
            .collect();
        MoveRatings {
            movers_rated: self.movers,
            mover_rating: (self.movers > 0).then(|| self.mover_sum / self.movers as f64),
            rated_games: self.rated,
            points: self.points,
            opponent_rating: (self.rated > 0).then(|| self.opponent_sum / self.rated as f64),
            performance: crate::ratings::performance_weighted(&opponents, self.points),
        }
    }
}

/// Whether the next moves were solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solved {
    /// Not asked.
    NotAsked,
    /// Every legal move got its exact score.
    Yes,
    /// Too many empty squares (more than [`SOLVE_MAX_EMPTIES`]).
    TooManyEmpties(u32),
    /// A 10x10 position (the exact solver is 8x8).
    TenByTen,
    /// The side to move has no legal move.
    NoMove,
}

/// The next-move table of a position (WZebra's database window).
#[derive(Clone, Debug, PartialEq)]
pub struct NextMoves {
    /// The position, as given.
    pub position: Position,
    /// Games that reach it (in any orientation).
    pub reached: u64,
    /// Games that reach it and stop there (no next move recorded).
    pub ended: u64,
    /// The moves played, most played first (ties in square order); with
    /// [`StatsOptions::solve`] or after [`NextMoves::add_legal_moves`],
    /// legal moves never played too (0 games).
    pub moves: Vec<NextMove>,
    /// Whether exact scores were computed, or why not.
    pub solved: Solved,
}

impl NextMoves {
    /// Adds a row with no game for every legal move that no game played:
    /// the table then covers every legal move of the side that plays next
    /// (the other side's when the side to move must pass; none when the
    /// game is over), a row per class of moves equivalent by the
    /// position's symmetries, named as the played ones (the rows that
    /// [`StatsOptions::solve`] adds, without their scores), in the
    /// table's order.
    ///
    /// ```
    /// use othello_core::{Board, Size};
    /// use wthor_db::query::Position;
    /// use wthor_db::index::IndexChoice;
    /// use wthor_db::stats::StatsOptions;
    /// use wthor_db::{Database, Query};
    ///
    /// # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    /// let db = Database::open(&testdata)?;
    /// let options = StatsOptions { next_moves: true, ..StatsOptions::default() };
    /// let position = Position::after_transcript("f5d6c3d3c4", Size::Eight)?;
    /// let query = Query::new().position(position);
    /// let stats = db.searcher(IndexChoice::Default).stats(&query, &options)?.value;
    /// let mut next = stats.next_moves.unwrap();
    /// let played = next.moves.len();
    /// next.add_legal_moves();
    /// // A position without symmetry: a row per legal move.
    /// let legal = position.as_eight().unwrap().legal_moves().count_ones() as usize;
    /// assert_eq!(next.moves.len(), legal);
    /// assert!(next.moves[played..].iter().all(|m| m.results.games == 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add_legal_moves(&mut self) {
        fn legal<B: Board>(board: &B) -> Vec<Square> {
            let board = forced_pass(board).unwrap_or(*board);
            let target = NextTarget::new(&board);
            board
                .legal_moves()
                .squares()
                .map(|sq| target.representative(sq))
                .collect()
        }
        let squares = match &self.position {
            Position::Eight(b) => legal(b),
            Position::Ten(b) => legal(b),
        };
        let mut added: Vec<NextMove> = Vec::new();
        for square in squares {
            if !self.moves.iter().chain(&added).any(|m| m.square == square) {
                added.push(NextMove {
                    square,
                    results: Results::default(),
                    share: 0.0,
                    exact: None,
                    name: None,
                    ratings: None,
                });
            }
        }
        name_moves(&self.position, &mut added);
        self.moves.append(&mut added);
        sort_next_moves(&mut self.moves);
    }
}

/// A player's results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// Games.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// The sum of the player's disc difference (own stored discs minus the
    /// opponent's).
    pub disc_difference_sum: i64,
    /// The first year played (0 without games).
    pub first_year: u16,
    /// The last year played.
    pub last_year: u16,
}

impl Record {
    fn add(&mut self, own: u8, total: u8, year: u16) {
        let (own, total) = (i64::from(own), i64::from(total));
        let diff = 2 * own - total;
        self.games += 1;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => self.wins += 1,
            std::cmp::Ordering::Equal => self.draws += 1,
            std::cmp::Ordering::Less => self.losses += 1,
        }
        self.disc_difference_sum += diff;
        self.first_year = if self.games == 1 {
            year
        } else {
            self.first_year.min(year)
        };
        self.last_year = self.last_year.max(year);
    }

    fn merge(&mut self, other: &Record) {
        if other.games == 0 {
            return;
        }
        self.first_year = if self.games == 0 {
            other.first_year
        } else {
            self.first_year.min(other.first_year)
        };
        self.last_year = self.last_year.max(other.last_year);
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.disc_difference_sum += other.disc_difference_sum;
    }

    /// (wins + draws / 2) / games, in percent (0 without games).
    #[must_use]
    pub fn score_percent(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            100.0 * (self.wins as f64 + self.draws as f64 / 2.0) / self.games as f64
        }
    }

    /// The mean disc difference, `None` without games.
    #[must_use]
    pub fn mean_disc_difference(&self) -> Option<f64> {
        (self.games > 0).then(|| self.disc_difference_sum as f64 / self.games as f64)
    }
}

/// A player's record over the games.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRecord {
    /// The name as displayed (a placeholder `<player N>` when the number
    /// is beyond the names file).
    pub name: String,
    /// Whether the name is known.
    pub known: bool,
    /// All games.
    pub record: Record,
    /// By year, in year order (empty unless [`StatsOptions::by_year`]).
    pub by_year: Vec<(u16, Record)>,
}

/// One opening and its results.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningStats {
    /// The board size.
    pub size: Size,
    /// The moves, in canonical orientation.
    pub moves: Vec<Square>,
    /// Its games.
    pub results: Results,
    /// Its games over the games of its board size with at least that many
    /// moves.
    pub share: f64,
    /// The named opening of these moves: the deepest named position they
    /// pass through ([`OpeningTable::opening_of_game`](crate::openings::OpeningTable::opening_of_game),
    /// as a game's), if any; 8x8 only.
    pub name: Option<String>,
}

/// What [`Searcher::stats`](crate::Searcher::stats) finds.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// The totals.
    pub totals: Totals,
    /// The next moves, when asked.
    pub next_moves: Option<NextMoves>,
    /// Player records, most games first (ties by name), when asked.
    pub players: Vec<PlayerRecord>,
    /// Openings, most games first (ties in move order), when asked.
    pub openings: Vec<OpeningStats>,
    /// Games shorter than the opening depth (not in `openings`).
    pub openings_shorter: u64,
}

impl Stats {
    /// The records of the players whose name matches `pattern` (for a
    /// head-to-head, run the query with both players and take each).
    #[must_use]
    pub fn records_of(&self, pattern: &crate::NamePattern) -> Vec<&PlayerRecord> {
        self.players
            .iter()
            .filter(|p| p.known && pattern.matches(&p.name))
            .collect()
    }
}

/// The position whose next moves are counted, compiled.
struct NextTarget<B: Board> {
    ply: usize,
    /// `images[i]` is the position under `Symmetry::ALL[i]`.
    images: [B; 8],
    /// The symmetries that keep the position.
    stabilizer: Vec<Symmetry>,
}

impl<B: Board> NextTarget<B> {
    fn new(board: &B) -> NextTarget<B> {
        let images = Symmetry::ALL.map(|s| s.board(board));
        let stabilizer = othello_core::symmetry::stabilizer(board);
        NextTarget {
            ply: (board.player() | board.opponent())
                .count()
                .saturating_sub(4) as usize,
            images,
            stabilizer,
        }
    }

    /// The representative of `sq`'s class under the position's symmetries
    /// (the first by [`square_order`]).
    fn representative(&self, sq: Square) -> Square {
        self.stabilizer
            .iter()
            .map(|t| t.square(sq, B::SIZE))
            .min_by_key(|&s| square_order(s, B::SIZE))
            .unwrap_or(sq)
    }

    /// `None` when the game does not reach the position; `Some(None)` when
    /// it reaches it and stops; else the next move in the position's
    /// orientation (its class representative). With it, the colour of
    /// the side that plays next there (the mover).
    fn next(&self, raw: &[u8]) -> Option<(Option<Square>, Color)> {
        let prefix = raw.get(..self.ply)?;
        let r = replay_with::<B, _, _>(wthor_tokens::<B>(prefix), |_| {});
        if r.moves != self.ply || r.illegal.is_some() {
            return None;
        }
        let find = |board: &B| self.images.iter().position(|img| img == board);
        // The side to move after the prefix (its discs and passes).
        let to_move = if (r.moves + r.passes) % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        // The mover is the side that plays the next disc: the other one
        // when the side to move must pass, whether the position was given
        // before the pass (the board found as it is) or after it (found
        // once passed).
        let passed = forced_pass(&r.board);
        let mover = if passed.is_some() {
            to_move.other()
        } else {
            to_move
        };
        let sym = match find(&r.board) {
            Some(sym) => sym,
            None => find(&passed?)?,
        };
        let s = Symmetry::ALL[sym];
        let next = raw
            .get(self.ply)
            .and_then(|&b| Square::from_wthor(b, B::SIZE));
        Some((
            next.map(|sq| self.representative(s.inverse().square(sq, B::SIZE))),
            mover,
        ))
    }
}

enum NextPlan {
    Eight(NextTarget<Board8>),
    Ten(NextTarget<Board10>),
}

/// The per-chunk accumulator of the fold.
#[derive(Clone, Debug, Default)]
struct Acc {
    results: Results,
    histogram: Vec<u64>,
    reached: u64,
    ended: u64,
    next: HashMap<Square, Results>,
    ratings: HashMap<Square, RatingAcc>,
    players: HashMap<(Option<usize>, u16), PlayerAcc>,
    openings: HashMap<(Size, Vec<u8>), Results>,
    openings_shorter: u64,
}

#[derive(Clone, Debug, Default)]
struct PlayerAcc {
    record: Record,
    by_year: BTreeMap<u16, Record>,
}

impl PlayerAcc {
    fn merge(&mut self, other: &PlayerAcc) {
        self.record.merge(&other.record);
        for (y, r) in &other.by_year {
            self.by_year.entry(*y).or_default().merge(r);
        }
    }
}

impl Acc {
    fn merge(mut self, other: Acc) -> Acc {
        self.results.merge(&other.results);
        if self.histogram.len() < other.histogram.len() {
            self.histogram.resize(other.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.reached += other.reached;
        self.ended += other.ended;
        for (k, v) in other.next {
            self.next.entry(k).or_default().merge(&v);
        }
        for (k, v) in other.ratings {
            self.ratings.entry(k).or_default().merge(v);
        }
        for (k, v) in other.players {
            self.players.entry(k).or_default().merge(&v);
        }
        for (k, v) in other.openings {
            self.openings.entry(k).or_default().merge(&v);
        }
        self.openings_shorter += other.openings_shorter;
        self
    }
}

/// The fixed part of a fold: what to compute and how.
struct Plan<'q> {
    options: StatsOptions,
    matcher: Option<&'q Matcher>,
    next: Option<NextPlan>,
    /// The kept ratings, when the next moves' ratings are asked.
    ratings: Option<RatingsPlan<'q>>,
    /// The symmetries keeping the start, per size (for openings).
    start8: Vec<Symmetry>,
    start10: Vec<Symmetry>,
}

fn start_stabilizer<B: Board>() -> Vec<Symmetry> {
    othello_core::symmetry::stabilizer(&B::start())
}

impl Plan<'_> {
    fn visit(&self, db: &Database, acc: &mut Acc, g: GameRef<'_>) {
        if self.matcher.is_some_and(|m| !m.matches(&g)) {
            return;
        }
        let game = &g.game;
        let size = game.board_size();
        let score = game.real_score();
        acc.results.add_game(game);
        let slot = usize::from(score);
        if acc.histogram.len() <= slot {
            acc.histogram.resize(slot + 1, 0);
        }
        acc.histogram[slot] += 1;
        if let Some(next) = &self.next {
            let found = match (next, size) {
                (NextPlan::Eight(t), BoardSize::Eight) => t.next(game.moves_raw()),
                (NextPlan::Ten(t), BoardSize::Ten) => t.next(game.moves_raw()),
                _ => None,
            };
            if let Some((mv, mover)) = found {
                acc.reached += 1;
                match mv {
                    Some(sq) => {
                        acc.next.entry(sq).or_default().add_game(game);
                        if let Some(ratings) = &self.ratings {
                            ratings.add(db, acc.ratings.entry(sq).or_default(), &g, mover);
                        }
                    }
                    None => acc.ended += 1,
                }
            }
        }
        if self.options.players {
            let total = total_discs(size);
            let year = g.file.year();
            let players = db.join(g.id.file()).players;
            for (number, own) in [
                (game.black(), score),
                (game.white(), total - score.min(total)),
            ] {
                let p = acc.players.entry((players, number)).or_default();
                p.record.add(own, total, year);
                if self.options.by_year {
                    p.by_year.entry(year).or_default().add(own, total, year);
                }
            }
        }
        if self.options.openings > 0 {
            let (s, stab) = match size {
                BoardSize::Eight => (Size::Eight, &self.start8),
                BoardSize::Ten => (Size::Ten, &self.start10),
            };
            match canonical_opening(game.moves_raw(), self.options.openings, s, stab) {
                Some(key) => acc.openings.entry((s, key)).or_default().add_game(game),
                None => acc.openings_shorter += 1,
            }
        }
    }
}

/// The kept ratings as the fold reads them: each game's players by their
/// numbers in their file's table ([`Database::file_ratings`], made once
/// per database) rather than by name per game.
struct RatingsPlan<'a> {
    ratings: &'a crate::ratings::Ratings,
}

impl<'a> RatingsPlan<'a> {
    fn new(db: &'a Database) -> RatingsPlan<'a> {
        RatingsPlan {
            ratings: db.filter_ratings(),
        }
    }

    /// A game's mover and opponent rated in its year (8x8 games only: the
    /// fit rates no other), into the ratings of its move.
    fn add(&self, db: &Database, acc: &mut RatingAcc, g: &GameRef<'_>, mover: Color) {
        let table = db.file_ratings(g.id.file());
        let rating = |number: u16| -> Option<f64> {
            table
                .get(usize::from(number))
                .copied()
                .filter(|r| !r.is_nan())
        };
        let (black, white) = (rating(g.game.black()), rating(g.game.white()));
        let h = self.ratings.black_advantage();
        let (own, other, edge) = match mover {
            Color::Black => (black, white, h),
            Color::White => (white, black, -h),
        };
        let Some(own) = own else {
            return;
        };
        acc.mover_sum += own;
        acc.movers += 1;
        if let Some(other) = other {
            let black_points = match Outcome::of_score(g.game.real_score(), g.game.board_size()) {
                Outcome::BlackWin => 1.0,
                Outcome::Draw => 0.5,
                Outcome::WhiteWin => 0.0,
            };
            acc.points += match mover {
                Color::Black => black_points,
                Color::White => 1.0 - black_points,
            };
            acc.opponents.push(((other - edge) * 100.0).round() as i32);
            acc.rated += 1;
            acc.opponent_sum += other;
        }
    }
}

/// The order in which equivalent squares are preferred: columns from the
/// right, then rows from the top (`f5` before `e6`, `d3`, `c4`; `g6` on
/// 10x10).
fn square_order(sq: Square, size: Size) -> (u8, u8) {
    (size.side() - 1 - sq.col(size), sq.row(size))
}

fn total_discs(size: BoardSize) -> u8 {
    size.squares()
}

/// The first `depth` moves of a game in canonical orientation (square
/// indices), `None` when the game has fewer moves or an off-board byte.
fn canonical_opening(raw: &[u8], depth: usize, size: Size, stab: &[Symmetry]) -> Option<Vec<u8>> {
    let squares: Vec<Square> = raw
        .get(..depth)?
        .iter()
        .map(|&b| Square::from_wthor(b, size))
        .collect::<Option<_>>()?;
    stab.iter()
        .map(|s| {
            let img: Vec<Square> = squares.iter().map(|&sq| s.square(sq, size)).collect();
            let key: Vec<(u8, u8)> = img.iter().map(|&sq| square_order(sq, size)).collect();
            (key, img)
        })
        .min()
        .map(|(_, img)| img.iter().map(|sq| sq.index() as u8).collect())
}

/// Where the games of a fold come from.
#[derive(Clone, Copy)]
enum Scope<'a> {
    /// Every game, filtered by the matcher.
    All,
    /// These games, filtered by the matcher.
    Among(&'a [GameId]),
    /// These games, already matched.
    Exactly(&'a [GameId]),
}

impl Database {
    /// Statistics of the games among `candidates` (in database order, from
    /// a [`PositionIndex`](crate::index::PositionIndex) lookup: every game
    /// matching the query, and perhaps a few more) that match `query`, or
    /// of every game that does when there are no candidates; folded in
    /// parallel or one game after the other (the same answer): what
    /// [`Searcher::stats`](crate::Searcher::stats) runs.
    pub(crate) fn stats_in(
        &self,
        query: &Query,
        options: &StatsOptions,
        candidates: Option<&[GameId]>,
        parallel: bool,
    ) -> Result<Stats, QueryError> {
        let matcher = self.matcher(query)?;
        let ids;
        let scope = if query.sort_key().is_some() || query.limit_value().is_some() {
            ids = match candidates {
                Some(c) => self.search_among(query, &matcher, c),
                None => self.scan_search(query, parallel)?,
            };
            Scope::Exactly(&ids)
        } else {
            match candidates {
                Some(c) => Scope::Among(c),
                None => Scope::All,
            }
        };
        let position = query
            .position_filter()
            .copied()
            .unwrap_or(Position::Eight(Board8::start()));
        let plan = Plan {
            options: *options,
            matcher: match scope {
                Scope::Exactly(_) => None,
                _ => Some(&matcher),
            },
            next: options.next_moves.then(|| match &position {
                Position::Eight(b) => NextPlan::Eight(NextTarget::new(b)),
                Position::Ten(b) => NextPlan::Ten(NextTarget::new(b)),
            }),
            ratings: (options.next_moves && options.ratings).then(|| RatingsPlan::new(self)),
            start8: start_stabilizer::<Board8>(),
            start10: start_stabilizer::<Board10>(),
        };
        let visit = |acc: &mut Acc, g: GameRef<'_>| plan.visit(self, acc, g);
        let games = match scope {
            Scope::All => None,
            Scope::Among(ids) | Scope::Exactly(ids) => Some(ids),
        };
        let acc = self.fold(parallel, games, Acc::default, visit, Acc::merge);
        Ok(self.finish_stats(acc, options, position))
    }

    /// The games among `candidates` that `matcher` (compiled from `query`)
    /// accepts, sorted and limited as `query` asks.
    pub(crate) fn search_among(
        &self,
        query: &Query,
        matcher: &Matcher,
        candidates: &[GameId],
    ) -> Vec<GameId> {
        let mut ids: Vec<GameId> = candidates
            .iter()
            .filter(|&&id| self.game_ref(id).is_some_and(|g| matcher.matches(&g)))
            .copied()
            .collect();
        if let Some(key) = query.sort_key() {
            self.sort_games(&mut ids, key, query.is_descending());
        }
        if let Some(n) = query.limit_value() {
            ids.truncate(n);
        }
        ids
    }

    fn finish_stats(&self, acc: Acc, options: &StatsOptions, position: Position) -> Stats {
        let totals = Totals {
            results: acc.results,
            median_black_discs: median(&acc.histogram),
        };
        let next_moves = options.next_moves.then(|| {
            let went_on: u64 = acc.next.values().map(|r| r.games).sum();
            let mut moves: Vec<NextMove> = acc
                .next
                .iter()
                .map(|(&square, &results)| NextMove {
                    square,
                    results,
                    share: share(results.games, went_on),
                    exact: None,
                    name: None,
                    ratings: options.ratings.then(|| {
                        acc.ratings
                            .get(&square)
                            .map(RatingAcc::finish)
                            .unwrap_or_default()
                    }),
                })
                .collect();
            let solved = if options.solve {
                solve_moves(&position, &mut moves)
            } else {
                Solved::NotAsked
            };
            name_moves(&position, &mut moves);
            sort_next_moves(&mut moves);
            NextMoves {
                position,
                reached: acc.reached,
                ended: acc.ended,
                moves,
                solved,
            }
        });
        let mut players: Vec<PlayerRecord> = Vec::new();
        if options.players {
            let mut by_name: BTreeMap<(String, bool), PlayerAcc> = BTreeMap::new();
            for ((names, number), p) in &acc.players {
                let name = names
                    .and_then(|n| self.names(n))
                    .and_then(|t| t.get(*number));
                let key = match name {
                    Some(n) => (n.to_owned(), true),
                    None => (format!("<player {number}>"), false),
                };
                by_name.entry(key).or_default().merge(p);
            }
            players = by_name
                .into_iter()
                .map(|((name, known), p)| PlayerRecord {
                    name,
                    known,
                    record: p.record,
                    by_year: p.by_year.into_iter().collect(),
                })
                .collect();
            players.sort_by_key(|p| std::cmp::Reverse(p.record.games));
        }
        // Shares within a board size: 10x10 games never dilute 8x8 openings.
        let long_enough = |s: Size| -> u64 {
            acc.openings
                .iter()
                .filter(|((size, _), _)| *size == s)
                .map(|(_, r)| r.games)
                .sum()
        };
        let (eight, ten) = (long_enough(Size::Eight), long_enough(Size::Ten));
        let mut openings: Vec<OpeningStats> = acc
            .openings
            .into_iter()
            .map(|((size, key), results)| OpeningStats {
                size,
                moves: key.iter().map(|&x| Square::new_unchecked(x)).collect(),
                results,
                share: share(results.games, if size == Size::Ten { ten } else { eight }),
                name: opening_name(size, &key),
            })
            .collect();
        openings.sort_by(|a, b| {
            b.results
                .games
                .cmp(&a.results.games)
                .then((a.size == Size::Ten).cmp(&(b.size == Size::Ten)))
                .then_with(|| a.moves.cmp(&b.moves))
        });
        Stats {
            totals,
            next_moves,
            players,
            openings,
            openings_shorter: acc.openings_shorter,
        }
    }
}

fn share(n: u64, of: u64) -> f64 {
    if of == 0 { 0.0 } else { n as f64 / of as f64 }
}

/// The median of the values counted by `histogram` (`histogram[v]` times
/// the value `v`).
fn median(histogram: &[u64]) -> Option<f64> {
    let n: u64 = histogram.iter().sum();
    if n == 0 {
        return None;
    }
    // The values of rank (n - 1) / 2 and n / 2, from 0.
    let nth = |rank: u64| {
        let mut seen = 0;
        for (v, &c) in histogram.iter().enumerate() {
            seen += c;
            if seen > rank {
                return v as f64;
            }
        }
        unreachable!("rank below the count")
    };
    Some((nth((n - 1) / 2) + nth(n / 2)) / 2.0)
}

/// Names the moves of an 8x8 position that reach a named opening.
fn name_moves(position: &Position, moves: &mut [NextMove]) {
    let Position::Eight(board) = position else {
        return;
    };
    let table = crate::openings::table();
    for m in moves {
        m.name = board
            .play(Move::Play(m.square))
            .ok()
            .and_then(|next| table.name_of_position(&next))
            .map(|o| o.name().to_owned());
    }
}

/// The next-move table's order: most played first, ties in square order.
fn sort_next_moves(moves: &mut [NextMove]) {
    moves.sort_by(|a, b| {
        b.results
            .games
            .cmp(&a.results.games)
            .then(a.square.cmp(&b.square))
    });
}

/// The named opening of an opening's squares (8x8).
fn opening_name(size: Size, squares: &[u8]) -> Option<String> {
    if size != Size::Eight {
        return None;
    }
    let moves: Vec<Move> = squares
        .iter()
        .map(|&x| Move::Play(Square::new_unchecked(x)))
        .collect();
    crate::openings::table()
        .opening_of_game(&moves)
        .map(|o| o.name().to_owned())
}

/// Adds the exact score of every legal move of `position` to `moves` (a
/// row with no game for a legal move never played).
fn solve_moves(position: &Position, moves: &mut Vec<NextMove>) -> Solved {
    let board = match position {
        Position::Ten(_) => return Solved::TenByTen,
        Position::Eight(b) => *b,
    };
    let empties = board.empty_count();
    if empties > SOLVE_MAX_EMPTIES {
        return Solved::TooManyEmpties(empties);
    }
    if board.legal_moves() == 0 {
        return Solved::NoMove;
    }
    let target = NextTarget::new(&board);
    let mut solver = Solver::new(SolverOptions::default());
    for (x, score) in solver.move_scores(board.player(), board.opponent()) {
        let sq = target.representative(Square::new_unchecked(x));
        match moves.iter_mut().find(|m| m.square == sq) {
            Some(m) => m.exact = Some(score),
            None => moves.push(NextMove {
                square: sq,
                results: Results::default(),
                share: 0.0,
                exact: Some(score),
                name: None,
                ratings: None,
            }),
        }
    }
    Solved::Yes
}
