//! A preparation report on one player (issue 39): the lines they chose as
//! one colour, as a tree, with their score and the archive's in each line;
//! where they leave the archive's most played continuation; their results
//! against stronger and weaker opponents.
//!
//! **Lines** are move sequences of 8x8 games turned so that the first move
//! is f5 (each game by the one symmetry that takes its first move there),
//! without transpositions: a line is a path of the tree, as a coach reads
//! it. A line is in the tree when the player's games through it are at
//! least [`ReportOptions::min_share`] of their games as that colour, and it
//! is followed further while at least [`ReportOptions::min_games`] of them
//! remain. The archive's figures of a line count every 8x8 game of the
//! database through it (the player's included).
//!
//! **Scores** are points (a draw half a point) of the side the player
//! plays, so that the player's score and the archive's compare.
//!
//! **Stronger and weaker** opponents are those rated above or below the
//! player in the game's year, by the whole-history ratings given (the
//! fitted curve's value in a year without games).
//!
//! One pass over the player's games and one over the archive's, both in
//! parallel.

use std::collections::HashMap;

use othello_core::notation::write_transcript;
use othello_core::replay::replay_wthor;
use othello_core::{Board, Board8, Color, Move, Size, Square};
use wthor_format::BoardSize;

use crate::query::QueryError;
use crate::ratings::Ratings;
use crate::{Database, Query};

/// What a report covers.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportOptions {
    /// The colour the player had.
    pub color: Color,
    /// Games of this year and later only (`None`: every year).
    pub since: Option<u16>,
    /// A line is shown when at least this share of the player's games
    /// follow it (default 0.05).
    pub min_share: f64,
    /// A line is followed while at least this many of the player's games
    /// remain in it (default 5).
    pub min_games: u32,
}

impl ReportOptions {
    /// The report of the games with `color`, every year, 5% and 5 games.
    #[must_use]
    pub fn new(color: Color) -> ReportOptions {
        ReportOptions {
            color,
            since: None,
            min_share: 0.05,
            min_games: 5,
        }
    }
}

/// Games and the points scored in them.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Record {
    /// The games.
    pub games: u32,
    /// The points (a win 1, a draw ½).
    pub points: f64,
}

impl Record {
    fn add(&mut self, points: f64) {
        self.games += 1;
        self.points += points;
    }

    fn add_record(&mut self, other: &Record) {
        self.games += other.games;
        self.points += other.points;
    }

    /// The points per game, if any game.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        (self.games > 0).then(|| self.points / f64::from(self.games))
    }
}

/// A line of the tree.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    /// Its moves from the start, f5 first (`"f5d6c3"`; empty at the root).
    pub moves: String,
    /// Who moves next.
    #[serde(serialize_with = "color_name")]
    pub to_move: Color,
    /// The player's games through it and their points.
    pub player: Record,
    /// Every game of the archive through it, with the points of the
    /// player's colour.
    pub archive: Record,
    /// The player's most played next move here, if they went on.
    pub player_next: Option<String>,
    /// The archive's most played next move here, if games went on.
    pub archive_next: Option<String>,
    /// The lines one move longer that are in the tree, most played first.
    pub lines: Vec<Line>,
}

fn color_name<S: serde::Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(match c {
        Color::Black => "black",
        Color::White => "white",
    })
}

/// A line where the player, to move, most often chose another move than
/// the archive's most played one.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Departure {
    /// The line before the move.
    pub moves: String,
    /// The player's most played move there, with their record after it.
    pub played: String,
    /// Their games and points after it.
    pub record: Record,
    /// The archive's most played move there.
    pub archive_next: String,
    /// The archive's games and points (of the player's colour) after it.
    pub archive_record: Record,
}

/// The report.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlayerReport {
    /// The player's name, as the players files write it.
    pub player: String,
    /// The colour of the games.
    #[serde(serialize_with = "color_name")]
    pub color: Color,
    /// The first year, if the games were limited.
    pub since: Option<u16>,
    /// The shares and counts that bound the tree.
    pub min_share: f64,
    /// See [`ReportOptions::min_games`].
    pub min_games: u32,
    /// The tree, from the start position; its `player` record is every
    /// game of the report.
    pub tree: Line,
    /// The lines where the player leaves the archive's most played move,
    /// by the player's games there, most first.
    pub departures: Vec<Departure>,
    /// Results against opponents rated above the player that year.
    pub against_stronger: Record,
    /// Against opponents rated at or below the player.
    pub against_weaker: Record,
    /// Against unrated opponents, or when the player is not rated.
    pub against_unrated: Record,
}

/// One game of the player: its f5 moves, the player's points, year and
/// opponent.
struct Played {
    id: crate::GameId,
    moves: Vec<u8>,
    points: f64,
    year: u16,
    opponent: String,
}

/// The moves of raw 8x8 move bytes turned so that the first is f5 (as
/// an import turns them), up to the first 0.
fn f5_squares(raw: &[u8]) -> Vec<u8> {
    let mut moves = crate::import::turned_to_f5(raw);
    let end = moves.iter().position(|&b| b == 0).unwrap_or(moves.len());
    moves.truncate(end);
    moves
}

/// The transcript of WTHOR move bytes.
fn transcript(moves: &[u8]) -> String {
    let moves: Vec<Move> = moves
        .iter()
        .filter_map(|&b| Square::from_wthor(b, Size::Eight))
        .map(Move::Play)
        .collect();
    write_transcript(&moves, Size::Eight)
}

/// The points of `color` in an 8x8 game whose black has `black_discs`.
fn points_of(color: Color, black_discs: u8) -> f64 {
    let black = match crate::query::Outcome::of_score(black_discs, BoardSize::Eight) {
        crate::query::Outcome::BlackWin => 1.0,
        crate::query::Outcome::Draw => 0.5,
        crate::query::Outcome::WhiteWin => 0.0,
    };
    match color {
        Color::Black => black,
        Color::White => 1.0 - black,
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The query choosing the player's games cannot run.
    #[error("the player's games")]
    Query(#[from] QueryError),
    /// No game of the player with that colour (in those years).
    #[error("{player} has no 8x8 game with {color}{since}")]
    NoGames {
        /// The name.
        player: String,
        /// `black` or `white`.
        color: &'static str,
        /// `" since YEAR"` or nothing.
        since: String,
    },
    /// One game only: too few for a tree of lines or a score.
    #[error("{player} has only one 8x8 game with {color}{since} ({game}): too few for a report")]
    OneGame {
        /// The name.
        player: String,
        /// `black` or `white`.
        color: &'static str,
        /// `" since YEAR"` or nothing.
        since: String,
        /// The game (`2003:5`).
        game: String,
    },
}

impl Database {
    /// The preparation report on the player named exactly `player` (as the
    /// players files write it; case and accents aside) as `options.color`,
    /// with `ratings` (of the whole database) for the results against
    /// stronger and weaker opponents.
    ///
    /// # Errors
    /// [`ReportError::NoGames`] when the player has no such game,
    /// [`ReportError::OneGame`] when they have one;
    /// [`ReportError::Query`] when the name cannot be looked up.
    pub fn player_report(
        &self,
        player: &str,
        options: &ReportOptions,
        ratings: Option<&Ratings>,
    ) -> Result<PlayerReport, ReportError> {
        let color = options.color;
        let query = match color {
            Color::Black => Query::new().black(player),
            Color::White => Query::new().white(player),
        }
        .exact(true)
        .years(options.since, None);
        let m = self.matcher(&query)?;
        let mut games: Vec<Played> = self.par_fold(
            Vec::new,
            |acc: &mut Vec<Played>, g| {
                if g.file.board_size() != Some(BoardSize::Eight) || !m.matches(&g) {
                    return;
                }
                let opponent = match color {
                    Color::Black => self.white(g.id),
                    Color::White => self.black(g.id),
                };
                acc.push(Played {
                    id: g.id,
                    moves: f5_squares(g.game.moves_raw()),
                    points: points_of(color, g.game.real_score()),
                    year: g.file.year(),
                    opponent: opponent.name.unwrap_or_default().to_owned(),
                });
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        );
        let color_name = match color {
            Color::Black => "black",
            Color::White => "white",
        };
        let since = options
            .since
            .map(|y| format!(" since {y}"))
            .unwrap_or_default();
        match games.as_slice() {
            [] => {
                return Err(ReportError::NoGames {
                    player: player.to_owned(),
                    color: color_name,
                    since,
                });
            }
            [one] => {
                return Err(ReportError::OneGame {
                    player: player.to_owned(),
                    color: color_name,
                    since,
                    game: self.game_name(one.id).to_string(),
                });
            }
            _ => {}
        }
        games.sort_by(|a, b| a.moves.cmp(&b.moves));
        let total = games.len() as u32;
        let keep = (options.min_share * f64::from(total)).ceil().max(1.0) as u32;
        // The tree's lines (prefixes), each with the player's record.
        let mut lines: HashMap<Vec<u8>, Record> = HashMap::new();
        grow(&games, 0, keep, options.min_games, &mut lines);
        // The archive through each line, and the moves it played next.
        let depth = lines.keys().map(Vec::len).max().unwrap_or(0);
        let archive: Archive = self.par_fold(
            Archive::new,
            |acc, g| {
                if g.file.board_size() != Some(BoardSize::Eight) {
                    return;
                }
                let moves = f5_squares(g.game.moves_raw());
                let points = points_of(color, g.game.real_score());
                for k in 0..=depth.min(moves.len()) {
                    if !lines.contains_key(&moves[..k]) {
                        break;
                    }
                    let (record, next) = acc.entry(moves[..k].to_vec()).or_default();
                    record.add(points);
                    if let Some(&m) = moves.get(k) {
                        next.entry(m)
                            .or_default()
                            .add_record(&Record { games: 1, points });
                    }
                }
            },
            |mut a, b| {
                for (k, (r, next)) in b {
                    let (ra, na) = a.entry(k).or_default();
                    ra.add_record(&r);
                    for (m, n) in next {
                        na.entry(m).or_default().add_record(&n);
                    }
                }
                a
            },
        );
        // The player's moves after each line, with their records.
        let player_after = |prefix: &[u8]| -> HashMap<u8, Record> {
            let lo = games.partition_point(|g| g.moves.as_slice() < prefix);
            let mut after: HashMap<u8, Record> = HashMap::new();
            for g in games[lo..]
                .iter()
                .take_while(|g| g.moves.starts_with(prefix))
            {
                if let Some(&m) = g.moves.get(prefix.len()) {
                    after.entry(m).or_default().add(g.points);
                }
            }
            after
        };
        let mut departures = Vec::new();
        let tree = line(&[], color, &lines, &archive, &player_after, &mut departures);
        departures.sort_by(|a, b| {
            b.record
                .games
                .cmp(&a.record.games)
                .then(a.moves.cmp(&b.moves))
        });
        let (mut stronger, mut weaker, mut unrated) =
            (Record::default(), Record::default(), Record::default());
        let me = ratings.and_then(|r| r.player(player));
        for g in &games {
            let mine = me.and_then(|p| p.rating_in(g.year));
            let theirs = ratings
                .and_then(|r| r.named(&g.opponent))
                .and_then(|p| p.rating_in(g.year));
            match (mine, theirs) {
                (Some(a), Some(b)) if b > a => stronger.add(g.points),
                (Some(_), Some(_)) => weaker.add(g.points),
                _ => unrated.add(g.points),
            }
        }
        Ok(PlayerReport {
            player: me.map_or_else(|| player.to_owned(), |p| p.name.clone()),
            color,
            since: options.since,
            min_share: options.min_share,
            min_games: options.min_games,
            tree,
            departures,
            against_stronger: stronger,
            against_weaker: weaker,
            against_unrated: unrated,
        })
    }
}

/// Adds to `lines` the prefixes of `games` (sorted, all sharing their
/// first `at` moves) followed by at least `keep` games, going deeper while
/// at least `min_games` remain.
fn grow(
    games: &[Played],
    at: usize,
    keep: u32,
    min_games: u32,
    lines: &mut HashMap<Vec<u8>, Record>,
) {
    let mut record = Record::default();
    for g in games {
        record.add(g.points);
    }
    lines.insert(games[0].moves[..at].to_vec(), record);
    if (games.len() as u32) < min_games {
        return;
    }
    let mut rest = games;
    while let Some(first) = rest.first() {
        let Some(&m) = first.moves.get(at) else {
            rest = &rest[1..];
            continue;
        };
        let n = rest
            .iter()
            .take_while(|g| g.moves.get(at) == Some(&m))
            .count();
        if n as u32 >= keep {
            grow(&rest[..n], at + 1, keep, min_games, lines);
        }
        rest = &rest[n..];
    }
}

/// The most played move of `after` (the lowest square on a tie).
fn most(after: &HashMap<u8, Record>) -> Option<u8> {
    after
        .iter()
        .max_by(|a, b| a.1.games.cmp(&b.1.games).then(b.0.cmp(a.0)))
        .map(|(&m, _)| m)
}

/// The archive's record through each line of the tree and after each
/// move from it.
type Archive = HashMap<Vec<u8>, (Record, HashMap<u8, Record>)>;

/// The line `prefix` with the lines of the tree below it; adds to `out`
/// the departures found on the way.
fn line(
    prefix: &[u8],
    color: Color,
    lines: &HashMap<Vec<u8>, Record>,
    archive: &Archive,
    player_after: &dyn Fn(&[u8]) -> HashMap<u8, Record>,
    out: &mut Vec<Departure>,
) -> Line {
    let (archive_record, next) = archive.get(prefix).cloned().unwrap_or_default();
    let after = player_after(prefix);
    let (played, main) = (most(&after), most(&next));
    let to_move = replay_wthor::<Board8>(prefix).board.side_to_move();
    if let (Some(p), Some(m)) = (played, main)
        && to_move == color
        && p != m
    {
        out.push(Departure {
            moves: transcript(prefix),
            played: transcript(&[p]),
            record: after[&p],
            archive_next: transcript(&[m]),
            archive_record: next[&m],
        });
    }
    let mut children: Vec<Line> = lines
        .keys()
        .filter(|k| k.len() == prefix.len() + 1 && k.starts_with(prefix))
        .map(|k| line(k, color, lines, archive, player_after, out))
        .collect();
    children.sort_by(|a, b| {
        b.player
            .games
            .cmp(&a.player.games)
            .then(a.moves.cmp(&b.moves))
    });
    Line {
        moves: transcript(prefix),
        to_move,
        player: lines[prefix],
        archive: archive_record,
        player_next: played.map(|m| transcript(&[m])),
        archive_next: main.map(|m| transcript(&[m])),
        lines: children,
    }
}
