//! A query compiled for one database: names matched once per names table,
//! opening images as WTHOR byte strings, position images with the cheap
//! test on move squares (see the module docs of [`super`]).

use othello_core::position::forced_pass;
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Bitboard, Board, Board8, Board10, Size, Square};
use wthor_format::BoardSize;

use crate::Database;
use crate::names::{NamePattern, NameSet};
use crate::scan::GameRef;

use super::{Outcome, PlayerKind, Position, Query, QueryError};

/// The name sets of one players file for a query.
#[derive(Debug, Default)]
struct PlayerSets {
    players: Vec<NameSet>,
    black: Option<NameSet>,
    white: Option<NameSet>,
    programs: Option<NameSet>,
}

/// What the query needs of one file.
#[derive(Debug, Clone, Copy)]
struct FilePlan {
    /// No game of the file can match.
    skip: bool,
    /// Index in `Matcher::player_sets`.
    players: Option<usize>,
    /// Index in `Matcher::tournament_sets`.
    tournaments: Option<usize>,
    /// Index in `Matcher::rated_sets` (with a rating filter).
    rated: Option<usize>,
}

/// A query compiled for one database: [`Matcher::matches`] tests a game.
#[derive(Debug)]
pub struct Matcher {
    files: Vec<FilePlan>,
    player_sets: Vec<PlayerSets>,
    tournament_sets: Vec<NameSet>,
    /// Per (players file, year): the players rated at least the filter's
    /// bound that year.
    rated_sets: Vec<NameSet>,
    min_rating: bool,
    names_needed: bool,
    needs_tournament: bool,
    kind: Option<PlayerKind>,
    result: Option<Outcome>,
    black_discs: Option<(u8, u8)>,
    theoretical: Option<(u8, u8)>,
    openings: Vec<Vec<u8>>,
    position: Option<PositionTarget>,
    /// The named opening's position: `Some(None)` for a name the table
    /// does not know (no game matches).
    named: Option<Option<Target<Board8>>>,
}

#[derive(Debug)]
pub(super) enum PositionTarget {
    Eight(Target<Board8>),
    Ten(Target<Board10>),
}

/// A position's images and the cheap test on move squares.
#[derive(Debug)]
pub(super) struct Target<B: Board> {
    /// Discs played to reach it.
    ply: usize,
    /// Its distinct images under the 8 symmetries, each with a symmetry
    /// that maps the position to it.
    images: Vec<(B, Symmetry)>,
    /// For each WTHOR move byte, the images whose occupied squares hold
    /// it (bit `i` for `images[i]`).
    mask_of: Box<[u8; 256]>,
}

/// Where a game reaches the position of a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The number of moves (discs) played before the position: the game's
    /// next move is its move of index `ply`.
    pub ply: usize,
    /// A symmetry that maps the position as given to the game's
    /// orientation (its inverse maps the game's moves back).
    pub symmetry: Symmetry,
    /// Whether the side to move of the position is reached after a pass
    /// (the other side had no move after move `ply`).
    pub after_pass: bool,
}

impl PositionTarget {
    pub(super) fn of(position: &Position) -> PositionTarget {
        match position {
            Position::Eight(b) => PositionTarget::Eight(Target::new(b)),
            Position::Ten(b) => PositionTarget::Ten(Target::new(b)),
        }
    }

    /// Where the game reaches the position, if it does.
    pub(super) fn reach(&self, g: &GameRef<'_>) -> Option<Reach> {
        match (self, g.game.board_size()) {
            (PositionTarget::Eight(t), BoardSize::Eight) => t.reach(g.game.moves_raw()),
            (PositionTarget::Ten(t), BoardSize::Ten) => t.reach(g.game.moves_raw()),
            _ => None,
        }
    }
}

impl<B: Board> Target<B> {
    fn new(board: &B) -> Target<B> {
        let mut images: Vec<(B, Symmetry)> = Symmetry::ALL
            .into_iter()
            .map(|s| (s.board(board), s))
            .collect();
        images.sort_by_key(|(b, s)| (b.player(), b.opponent(), *s));
        images.dedup_by_key(|(b, _)| *b);
        let mut mask_of = Box::new([0u8; 256]);
        for (byte, mask) in mask_of.iter_mut().enumerate() {
            let Some(sq) = u8::try_from(byte)
                .ok()
                .and_then(|b| Square::from_wthor(b, B::SIZE))
            else {
                continue;
            };
            for (i, (img, _)) in images.iter().enumerate() {
                if (img.player() | img.opponent()).has(sq) {
                    *mask |= 1 << i;
                }
            }
        }
        let discs = (board.player() | board.opponent()).count() as usize;
        Target {
            ply: discs.saturating_sub(4),
            images,
            mask_of,
        }
    }

    /// Where a game with these move bytes reaches one of the images.
    #[inline]
    fn reach(&self, moves: &[u8]) -> Option<Reach> {
        let prefix = moves.get(..self.ply)?;
        let mut cand = u8::MAX >> (8 - self.images.len());
        for &b in prefix {
            cand &= self.mask_of[usize::from(b)];
            if cand == 0 {
                return None;
            }
        }
        let r = replay_with::<B, _, _>(wthor_tokens::<B>(prefix), |_| {});
        if r.moves != self.ply || r.illegal.is_some() {
            return None;
        }
        let find = |board: &B, after_pass| {
            let &(_, symmetry) = self.images.iter().find(|(img, _)| img == board)?;
            Some(Reach {
                ply: self.ply,
                symmetry,
                after_pass,
            })
        };
        find(&r.board, false).or_else(|| find(&forced_pass(&r.board)?, true))
    }
}

fn pattern(text: &str, exact: bool) -> NamePattern {
    if exact {
        NamePattern::exact(text)
    } else {
        NamePattern::substring(text)
    }
}

impl Matcher {
    /// Whether a game matches every filter (sort and limit aside).
    #[must_use]
    pub fn matches(&self, g: &GameRef<'_>) -> bool {
        let plan = self.files[g.id.file()];
        if plan.skip {
            return false;
        }
        let game = &g.game;
        if let Some(outcome) = self.result
            && Outcome::of_score(game.real_score(), game.board_size()) != outcome
        {
            return false;
        }
        if let Some((low, high)) = self.black_discs
            && !(low..=high).contains(&game.real_score())
        {
            return false;
        }
        if let Some((low, high)) = self.theoretical
            && !(low..=high).contains(&game.theoretical_score())
        {
            return false;
        }
        if self.names_needed {
            let Some(sets) = plan.players.map(|i| &self.player_sets[i]) else {
                return false;
            };
            let (b, w) = (game.black(), game.white());
            let ok = match sets.players.as_slice() {
                [] => true,
                [p] => p.contains(b) || p.contains(w),
                [p, q] => p.contains(b) && q.contains(w) || q.contains(b) && p.contains(w),
                _ => false,
            };
            if !ok
                || sets.black.as_ref().is_some_and(|s| !s.contains(b))
                || sets.white.as_ref().is_some_and(|s| !s.contains(w))
            {
                return false;
            }
            if let Some(programs) = &sets.programs {
                let any = programs.contains(b) || programs.contains(w);
                if any != (self.kind == Some(PlayerKind::Program)) {
                    return false;
                }
            }
        }
        if self.min_rating {
            let Some(set) = plan.rated.map(|i| &self.rated_sets[i]) else {
                return false;
            };
            if !(set.contains(game.black()) && set.contains(game.white())) {
                return false;
            }
        }
        if self.needs_tournament {
            let Some(set) = plan.tournaments.map(|i| &self.tournament_sets[i]) else {
                return false;
            };
            if !set.contains(game.tournament()) {
                return false;
            }
        }
        if !self.openings.is_empty() {
            let raw = game.moves_raw();
            let first = raw.first().copied().unwrap_or(0);
            if !self
                .openings
                .iter()
                .any(|o| o[0] == first && raw.get(..o.len()) == Some(o.as_slice()))
            {
                return false;
            }
        }
        if let Some(named) = &self.named {
            match named {
                Some(t) if game.board_size() == BoardSize::Eight => {
                    if t.reach(game.moves_raw()).is_none() {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        self.position.is_none() || self.reach(g).is_some()
    }

    /// Where the game reaches the query's position (`None` without a
    /// position filter, or when it does not); only the position is tested,
    /// not the other filters.
    #[must_use]
    pub fn reach(&self, g: &GameRef<'_>) -> Option<Reach> {
        self.position.as_ref().and_then(|t| t.reach(g))
    }
}

fn board_size(size: Size) -> BoardSize {
    match size {
        Size::Eight => BoardSize::Eight,
        Size::Ten => BoardSize::Ten,
    }
}

impl Database {
    /// Compiles a query for this database: names matched once per names
    /// file, opening and position images made once.
    ///
    /// # Errors
    /// [`QueryError`] for an empty range or more than two players.
    pub fn matcher(&self, query: &Query) -> Result<Matcher, QueryError> {
        query.check()?;
        let names_needed = !query.players.is_empty()
            || query.black.is_some()
            || query.white.is_some()
            || query.kind.is_some();
        let needs_tournament = query.tournament.is_some();
        let mut player_files: Vec<usize> = Vec::new();
        let mut tournament_files: Vec<usize> = Vec::new();
        let mut rated_keys: Vec<(usize, u16)> = Vec::new();
        let mut files = Vec::with_capacity(self.files().len());
        let opening_size = query.opening.as_ref().map(|o| board_size(o.size));
        let position_size = query.position.as_ref().map(|p| board_size(p.size()));
        let named = query.opening_name.as_ref().map(|name| {
            crate::openings::table()
                .by_name(name)
                .map(|o| Target::new(&o.board()))
        });
        for (f, file) in self.files().iter().enumerate() {
            let join = self.join(f);
            let year = file.year();
            let skip = file.board_size().is_none()
                || (query.min_rating.is_some() && file.board_size() != Some(BoardSize::Eight))
                || query.years.0.is_some_and(|y| year < y)
                || query.years.1.is_some_and(|y| year > y)
                || opening_size.is_some_and(|s| Some(s) != file.board_size())
                || position_size.is_some_and(|s| Some(s) != file.board_size())
                || named
                    .as_ref()
                    .is_some_and(|n| n.is_none() || file.board_size() != Some(BoardSize::Eight));
            let slot = |list: &mut Vec<usize>, names: Option<usize>| {
                let n = names?;
                Some(list.iter().position(|&x| x == n).unwrap_or_else(|| {
                    list.push(n);
                    list.len() - 1
                }))
            };
            files.push(FilePlan {
                skip,
                players: if names_needed && !skip {
                    slot(&mut player_files, join.players)
                } else {
                    None
                },
                tournaments: if needs_tournament && !skip {
                    slot(&mut tournament_files, join.tournaments)
                } else {
                    None
                },
                rated: match join.players {
                    Some(n) if query.min_rating.is_some() && !skip => Some(
                        rated_keys
                            .iter()
                            .position(|&k| k == (n, year))
                            .unwrap_or_else(|| {
                                rated_keys.push((n, year));
                                rated_keys.len() - 1
                            }),
                    ),
                    _ => None,
                },
            });
        }
        let rated_sets = match query.min_rating {
            None => Vec::new(),
            Some(bound) => {
                let ratings = self.filter_ratings();
                rated_keys
                    .iter()
                    .map(|&(n, year)| {
                        let table = self.names(n).expect("a players file");
                        let mut set = NameSet::with_len(table.len());
                        for i in 0..table.len() {
                            let rating = u16::try_from(i)
                                .ok()
                                .and_then(|number| table.get(number))
                                .and_then(|name| ratings.named(name))
                                .and_then(|p| p.rating_in(year));
                            if rating.is_some_and(|r| r >= f64::from(bound)) {
                                set.insert(i);
                            }
                        }
                        set
                    })
                    .collect()
            }
        };
        let exact = query.exact;
        let player_sets = player_files
            .iter()
            .map(|&n| {
                let table = self.names(n).expect("a players file");
                PlayerSets {
                    players: query
                        .players
                        .iter()
                        .map(|p| table.matching(&pattern(p, exact)))
                        .collect(),
                    black: query
                        .black
                        .as_ref()
                        .map(|p| table.matching(&pattern(p, exact))),
                    white: query
                        .white
                        .as_ref()
                        .map(|p| table.matching(&pattern(p, exact))),
                    programs: query.kind.map(|_| table.programs()),
                }
            })
            .collect();
        let tournament_sets = tournament_files
            .iter()
            .map(|&n| {
                let table = self.names(n).expect("a tournaments file");
                table.matching(&pattern(query.tournament.as_deref().unwrap_or(""), exact))
            })
            .collect();
        let openings = match &query.opening {
            None => Vec::new(),
            Some(o) => {
                let syms: &[Symmetry] = if query.as_played {
                    &[Symmetry::IDENTITY]
                } else {
                    &Symmetry::ALL
                };
                let mut seqs: Vec<Vec<u8>> = syms
                    .iter()
                    .map(|s| {
                        o.squares
                            .iter()
                            .map(|&sq| s.square(sq, o.size).to_wthor(o.size))
                            .collect()
                    })
                    .collect();
                seqs.sort();
                seqs.dedup();
                seqs.retain(|o| !o.is_empty());
                seqs
            }
        };
        let position = query.position.as_ref().map(PositionTarget::of);
        Ok(Matcher {
            files,
            player_sets,
            tournament_sets,
            rated_sets,
            min_rating: query.min_rating.is_some(),
            names_needed,
            needs_tournament,
            kind: query.kind,
            result: query.result,
            black_discs: query.black_discs,
            theoretical: query.theoretical,
            openings,
            position,
            named,
        })
    }
}
