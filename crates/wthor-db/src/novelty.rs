//! Where each game left known play (its novelty) and where it became
//! unique (issue 40).
//!
//! Positions are compared up to the 8 symmetries and by any order of moves
//! (a [`PositionKey`] after each disc played), over the 8x8 games of the
//! whole database. The archive has no dates: a game's **novelty** is the
//! first move after which its position had never been reached in an
//! earlier year; `same_year` says whether other games of its year reached
//! that position too. A game that never leaves the positions of earlier
//! years ends **inside known play**. A game whose whole sequence of
//! positions is that of a game before it (by year, then file order) is a
//! **copy** and has no novelty of its own; the games of the database's
//! first year have none either (no earlier year). A game becomes **unique** at the
//! first move after which no other game of the database reaches its
//! position; a game that never does (its final position reached by
//! another game too, a copy among them) is never unique.
//!
//! Three passes over the games, in parallel: the positions of every game
//! (kept as 64-bit hashes), the earliest year and the number of games of
//! each position, then the counts by year of the positions each novelty
//! needs.

use std::collections::HashMap;

use othello_core::midgame::{
    self, Engine, EngineOptions, Limits, MAX_DEPTH, MidgameError, Selectivity,
};
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::PositionKey;
use othello_core::{Board, Board8, Move};
use rayon::prelude::*;
use wthor_format::BoardSize;

use crate::analysis::GameAnalysis;
use crate::query::QueryError;
use crate::{Database, GameId, Query};

/// Where a game left known play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Departure {
    /// After move `ply` (from 1) the position had never been reached in an
    /// earlier year.
    Novelty {
        /// The move number.
        ply: usize,
        /// The games of earlier years that had reached the position before
        /// that move (0 for a novelty at move 1: none can).
        before: u64,
        /// Whether other games of the same year reached the new position.
        same_year: bool,
    },
    /// Every position of the game had been reached in an earlier year.
    InKnownPlay,
    /// The same positions as a game before it (by year, then file order).
    Copy,
    /// A game of the database's first year: no earlier year to compare
    /// with.
    FirstYear,
}

impl Departure {
    /// The kind, as the JSON of the CLI and the server names it:
    /// `novelty`, `known`, `copy`, `firstYear`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            Departure::Novelty { .. } => "novelty",
            Departure::InKnownPlay => "known",
            Departure::Copy => "copy",
            Departure::FirstYear => "firstYear",
        }
    }

    /// A novelty's move (from 1), the games of earlier years that had
    /// reached the position before it, and whether other games of its year
    /// reached the new one; `None` without a novelty.
    #[must_use]
    pub fn novelty(&self) -> Option<(usize, u64, bool)> {
        match *self {
            Departure::Novelty {
                ply,
                before,
                same_year,
            } => Some((ply, before, same_year)),
            _ => None,
        }
    }

    /// Why a game has no novelty, in words; `None` for a novelty.
    #[must_use]
    pub fn why_none(&self) -> Option<&'static str> {
        match self {
            Departure::Novelty { .. } => None,
            Departure::InKnownPlay => {
                Some("no novelty: every position was reached in an earlier year")
            }
            Departure::Copy => Some("no novelty: the positions of a game before it (a copy)"),
            Departure::FirstYear => {
                Some("no novelty: a game of the database's first year (nothing earlier)")
            }
        }
    }
}

/// A game's novelty and the move at which it became unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Novelty {
    /// The game.
    pub game: GameId,
    /// Its year.
    pub year: u16,
    /// Where it left known play.
    pub departure: Departure,
    /// The first move after which no other game reaches its position, if
    /// there is one.
    pub unique_from: Option<usize>,
    /// The games of later years that reached the position after its
    /// novelty (how often the novelty was followed); 0 without one.
    pub followed: u64,
}

/// The 64-bit keys of the positions after each disc of raw 8x8 moves.
fn position_hashes(raw: &[u8]) -> Vec<u64> {
    let mut out = Vec::with_capacity(60);
    replay_with::<Board8, _, _>(wthor_tokens::<Board8>(raw), |s| {
        if matches!(s.mv, Move::Play(_)) {
            out.push(PositionKey::of(&s.board).hash64());
        }
    });
    out
}

/// Per position: the earliest year, the games reaching it, and the games
/// of each year (kept only where asked).
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    first_year: u16,
    games: u32,
}

impl Database {
    /// The novelty of every 8x8 game `query` selects (its sort and limit
    /// aside), in database order; earlier years always count in full.
    ///
    /// # Errors
    /// [`QueryError`] for a query that cannot run.
    pub fn novelties(&self, query: &Query) -> Result<Vec<Novelty>, QueryError> {
        let matcher = self.matcher(query)?;
        // Every 8x8 game: (year, id, selected, position hashes), in year
        // order then database order.
        let mut games: Vec<(u16, GameId, bool, Vec<u64>)> = self.par_fold(
            Vec::new,
            |acc: &mut Vec<(u16, GameId, bool, Vec<u64>)>, g| {
                if g.file.board_size() == Some(BoardSize::Eight) {
                    let hashes = position_hashes(g.game.moves_raw());
                    acc.push((g.file.year(), g.id, matcher.matches(&g), hashes));
                }
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        );
        games.sort_by_key(|g| (g.0, g.1));
        let first_year = games.first().map_or(0, |g| g.0);
        // The earliest year and the games of each position (a game counted
        // once per position, a transposition within it aside).
        let mut seen: HashMap<u64, Seen> = HashMap::new();
        for (year, _, _, hashes) in &games {
            let mut own: Vec<u64> = hashes.clone();
            own.sort_unstable();
            own.dedup();
            for h in own {
                let e = seen.entry(h).or_insert(Seen {
                    first_year: *year,
                    games: 0,
                });
                e.games += 1;
            }
        }
        // Copies: a game whose sequence of positions a game before it had.
        let mut sequences: HashMap<u64, usize> = HashMap::new();
        let copy: Vec<bool> = games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let key = xxhash_rust::xxh3::xxh3_64(
                    &g.3.iter()
                        .flat_map(|h| h.to_le_bytes())
                        .collect::<Vec<u8>>(),
                );
                *sequences.entry(key).or_insert(i) != i
            })
            .collect();
        // The novelty move of each selected game, and the positions whose
        // counts by year it needs: the one before it and its own.
        let firsts: Vec<Option<usize>> = games
            .par_iter()
            .map(|(year, _, selected, hashes)| {
                if !selected {
                    return None;
                }
                hashes.iter().position(|h| seen[h].first_year == *year)
            })
            .collect();
        let mut by_year: HashMap<u64, Vec<(u16, u32)>> = HashMap::new();
        for (g, first) in games.iter().zip(&firsts) {
            if let Some(k) = *first {
                by_year.entry(g.3[k]).or_default();
                if k > 0 {
                    by_year.entry(g.3[k - 1]).or_default();
                }
            }
        }
        for (year, _, _, hashes) in &games {
            let mut own: Vec<u64> = hashes
                .iter()
                .copied()
                .filter(|h| by_year.contains_key(h))
                .collect();
            own.sort_unstable();
            own.dedup();
            for h in own {
                let counts = by_year.get_mut(&h).expect("asked for");
                match counts.last_mut() {
                    Some((y, n)) if y == year => *n += 1,
                    _ => counts.push((*year, 1)),
                }
            }
        }
        let count = |h: u64, keep: &dyn Fn(u16) -> bool| -> u64 {
            by_year[&h]
                .iter()
                .filter(|(y, _)| keep(*y))
                .map(|(_, n)| u64::from(*n))
                .sum()
        };
        let mut out: Vec<Novelty> = games
            .iter()
            .zip(&firsts)
            .zip(&copy)
            .filter(|((g, _), _)| g.2)
            .map(|(((year, id, _, hashes), first), &is_copy)| {
                let year = *year;
                let unique_from = hashes
                    .iter()
                    .position(|h| seen[h].games == 1)
                    .map(|k| k + 1);
                let (departure, followed) = if is_copy {
                    (Departure::Copy, 0)
                } else if year == first_year {
                    (Departure::FirstYear, 0)
                } else {
                    departure(hashes, *first, year, &count)
                };
                Novelty {
                    game: *id,
                    year,
                    departure,
                    unique_from,
                    followed,
                }
            })
            .collect();
        out.sort_by_key(|n| n.game);
        Ok(out)
    }
}

/// What one pass over the archive gathers for one game's novelty: for each
/// of its positions, the games reaching it by year; and whether a game
/// before it has its whole sequence of positions.
#[derive(Debug, Default)]
struct OneGame {
    /// (position hash, year) → games of that year reaching the position
    /// (each game once per position).
    by_year: HashMap<(u64, u16), u32>,
    /// A game before it (by year, then database order) with its
    /// sequence of positions.
    copy: bool,
    /// The first year of the database's 8x8 games.
    first_year: Option<u16>,
}

impl OneGame {
    fn merge(mut self, other: OneGame) -> OneGame {
        for (k, n) in other.by_year {
            *self.by_year.entry(k).or_default() += n;
        }
        self.copy |= other.copy;
        self.first_year = match (self.first_year, other.first_year) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

impl Database {
    /// The novelty of one game (`None` for a game that is not there or
    /// not 8x8): the row [`Database::novelties`] gives it, found by one
    /// parallel pass that keeps only the counts of the game's own
    /// positions (cheaper than every game's novelty when one is asked).
    #[must_use]
    pub fn novelty_of(&self, id: GameId) -> Option<Novelty> {
        let (year, hashes) = match (self.game(id), self.file_of(id)) {
            (Some(g), Some(f)) if f.board_size() == Some(BoardSize::Eight) => {
                (f.year(), position_hashes(g.moves_raw()))
            }
            _ => return None,
        };
        let mut own: Vec<u64> = hashes.clone();
        own.sort_unstable();
        own.dedup();
        let found = self.par_fold(
            OneGame::default,
            |acc: &mut OneGame, g| {
                if g.file.board_size() != Some(BoardSize::Eight) {
                    return;
                }
                let y = g.file.year();
                acc.first_year = Some(acc.first_year.map_or(y, |f| f.min(y)));
                let theirs = position_hashes(g.game.moves_raw());
                if (y, g.id) < (year, id) && theirs == hashes {
                    acc.copy = true;
                }
                let mut seen: Vec<u64> = theirs
                    .into_iter()
                    .filter(|h| own.binary_search(h).is_ok())
                    .collect();
                seen.sort_unstable();
                seen.dedup();
                for h in seen {
                    *acc.by_year.entry((h, y)).or_default() += 1;
                }
            },
            OneGame::merge,
        );
        let count = |h: u64, keep: &dyn Fn(u16) -> bool| -> u64 {
            found
                .by_year
                .iter()
                .filter(|((p, y), _)| *p == h && keep(*y))
                .map(|(_, n)| u64::from(*n))
                .sum()
        };
        let unique_from = hashes
            .iter()
            .position(|&h| count(h, &|_| true) == 1)
            .map(|k| k + 1);
        let (departure, followed) = if found.copy {
            (Departure::Copy, 0)
        } else if found.first_year == Some(year) {
            (Departure::FirstYear, 0)
        } else {
            let first = hashes.iter().position(|&h| count(h, &|y| y < year) == 0);
            departure(&hashes, first, year, &count)
        };
        Some(Novelty {
            game: id,
            year,
            departure,
            unique_from,
            followed,
        })
    }
}

/// Counts the games reaching a position (by hash) in the years a test keeps.
type Count<'a> = dyn Fn(u64, &dyn Fn(u16) -> bool) -> u64 + 'a;

/// A game of `year` whose positions hash to `hashes` (after each move),
/// the first of them no earlier year reached at `first` (`None`: every
/// one was reached): its departure and the games of later years that
/// followed it; `count(h, keep)` counts the games reaching `h` in the
/// years `keep` takes.
fn departure(
    hashes: &[u64],
    first: Option<usize>,
    year: u16,
    count: &Count<'_>,
) -> (Departure, u64) {
    let Some(k) = first else {
        return (Departure::InKnownPlay, 0);
    };
    let new = hashes[k];
    let before = if k == 0 {
        0
    } else {
        count(hashes[k - 1], &|y| y < year)
    };
    (
        Departure::Novelty {
            ply: k + 1,
            before,
            same_year: count(new, &|y| y == year) > 1,
        },
        count(new, &|y| y > year),
    )
}

/// The plies of the search that estimates a novelty move's value (the
/// explorer's estimates', an even depth).
pub const VALUE_DEPTH: u32 = 14;

/// A novelty move's value is exact at this many empty squares or fewer
/// (before the move): the analysis' exact limit by default.
pub const VALUE_EXACT_EMPTIES: u32 = 20;

/// The value of a novelty move for the side that played it, in discs
/// (empty squares to the winner when exact), and its loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue {
    /// The move's value; `None` when only its loss is known (a results
    /// log of `wthor analyze` keeps the losses of its exact moves, not
    /// their values).
    pub value: Option<i32>,
    /// The best value of the position before the move minus the move's:
    /// 0 for a best move.
    pub loss: i32,
    /// Whether the values are exact scores.
    pub exact: bool,
    /// The plies of the search, for an estimate.
    pub depth: Option<u32>,
}

/// The value and loss of move `ply` (from 1, passes not counted) of the
/// 8x8 game of raw WTHOR moves `raw`: one multi-PV search of the position
/// before it by a new [`Engine`] of default
/// tables, every legal move valued, exact at [`VALUE_EXACT_EMPTIES`]
/// empties or fewer, else [`VALUE_DEPTH`] plies; values rounded to whole
/// discs. The same game and move always get the same values. `None` when
/// the game has no such move (the replay stops at an illegal move).
///
/// # Errors
/// The engine's tables cannot be had.
pub fn move_value(raw: &[u8], ply: usize) -> Result<Option<MoveValue>, MidgameError> {
    let mut position = None;
    let mut before = Board8::start();
    let mut played = 0;
    replay_with::<Board8, _, _>(wthor_tokens::<Board8>(raw), |s| {
        if let Move::Play(sq) = s.mv {
            played += 1;
            if played == ply {
                position = Some((before, sq));
            }
        }
        before = s.board;
    });
    let Some((board, square)) = position else {
        return Ok(None);
    };
    let exact = board.empty_count() <= VALUE_EXACT_EMPTIES;
    let depth = if exact { MAX_DEPTH } else { VALUE_DEPTH };
    let mut engine = Engine::new(EngineOptions::default())?;
    let query = midgame::Query::from(Limits::depth(depth))
        .all_moves()
        .selectivity(Selectivity::DEFAULT);
    let a = engine.analyze(board.player(), board.opponent(), query)?;
    // |value| <= 64 (the search's values are within the discs).
    let discs = |v: f32| (v.round() as i32).clamp(-64, 64);
    let best = a.moves.iter().map(|m| discs(m.value)).max();
    let mine = a
        .moves
        .iter()
        .find(|m| usize::from(m.square) == square.index())
        .map(|m| discs(m.value));
    Ok(best.zip(mine).map(|(best, value)| MoveValue {
        value: Some(value),
        loss: best - value,
        exact: a.exact,
        depth: (!a.exact).then_some(a.depth),
    }))
}

impl Database {
    /// The value and loss of the novelty move of `n` ([`move_value`]),
    /// `None` without a novelty.
    ///
    /// # Errors
    /// The engine's tables cannot be had.
    pub fn novelty_value(&self, n: &Novelty) -> Result<Option<MoveValue>, MidgameError> {
        match (n.departure, self.game(n.game)) {
            (Departure::Novelty { ply, .. }, Some(g)) => move_value(g.moves_raw(), ply),
            _ => Ok(None),
        }
    }
}

/// The loss of move `ply` of an analysed game, when its results log judged
/// it (exactly: the logs keep the exact moves only, without their values).
#[must_use]
pub fn logged_loss(game: &GameAnalysis, ply: usize) -> Option<MoveValue> {
    game.moves
        .iter()
        .find(|m| m.number == ply)
        .map(|m| MoveValue {
            value: None,
            loss: m.loss,
            exact: true,
            depth: None,
        })
}
