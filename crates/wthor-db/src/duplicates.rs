//! Duplicate games under the 8 symmetries (issue 26).
//!
//! Two games are copies when their move sequences are equal up to one of
//! the 8 symmetries of the board ([`othello_core::symmetry::Symmetry`]):
//! each game's move bytes are turned by every symmetry and the smallest
//! image is its key ([`canonical_moves`]; the first symmetry of
//! [`Symmetry::ALL`] on ties). Games are compared within their board size
//! only, and a game without any move is no copy of anything.
//!
//! A [`Group`] holds the first copy (the smallest [`GameId`]: database
//! order) and the later ones, each of a [`Kind`]: a
//! [`DoubleEntry`](Kind::DoubleEntry) when an earlier copy of the group
//! has the same black and white names and the same year (the game entered
//! twice), else [`OtherPlayers`](Kind::OtherPlayers) (a common line played
//! as far by other players, or in another year).
//!
//! [`Database::duplicates`] keys the games in parallel on the scan
//! ([`Database::par_fold_ids`]), sorts the hashes of the keys and compares
//! the keys themselves only inside a run of equal hashes (a collision never
//! joins two games); `Database::duplicates_sequential` (with the
//! `test-support` feature) is the plain version it is tested against. [`Database::dedupe`] drops the later
//! copies from a list of games (`wthor export --dedupe`, Python's
//! `positions(dedupe=True)`).
//!
//! ```
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = wthor_db::Database::open(&testdata)?;
//! let every = db.searcher(wthor_db::index::IndexChoice::Never);
//! let ids = every.search(&wthor_db::Query::new())?.value;
//! let dups = db.duplicates(&ids);
//! assert_eq!(db.dedupe(&ids).len(), ids.len() - dups.later_count());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::LazyLock;

use othello_core::Size;
use othello_core::Square;
use othello_core::symmetry::Symmetry;
use rayon::prelude::*;

use crate::{Database, GameId, rules_size};

/// What a later copy is to the earlier ones of its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Same moves, same black and white names, same year: one game entered
    /// twice.
    DoubleEntry,
    /// Same moves, other players or another year: a common line.
    OtherPlayers,
}

impl Kind {
    /// Both kinds, in the order reports list them.
    pub const ALL: [Kind; 2] = [Kind::DoubleEntry, Kind::OtherPlayers];

    /// A short name: `double-entry`, `other-players`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::DoubleEntry => "double-entry",
            Kind::OtherPlayers => "other-players",
        }
    }
}

/// A later copy in a [`Group`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Later {
    /// The game.
    pub id: GameId,
    /// Its kind.
    pub kind: Kind,
    /// The symmetry that turns the first copy's moves into this game's
    /// ([`Symmetry::IDENTITY`] when they are played on the same squares).
    pub symmetry: Symmetry,
}

/// Games with the same moves up to symmetry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The first copy (in database order).
    pub first: GameId,
    /// The later copies, in database order (never empty).
    pub later: Vec<Later>,
}

/// The duplicate games of a set of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Duplicates {
    /// The games compared (those with at least one move).
    pub games: usize,
    /// The groups of two games or more, by their first copy.
    pub groups: Vec<Group>,
}

impl Duplicates {
    /// The later copies of `kind`.
    #[must_use]
    pub fn count(&self, kind: Kind) -> usize {
        self.groups
            .iter()
            .flat_map(|g| &g.later)
            .filter(|l| l.kind == kind)
            .count()
    }

    /// The groups that hold a later copy of `kind`.
    #[must_use]
    pub fn groups_with(&self, kind: Kind) -> usize {
        self.groups
            .iter()
            .filter(|g| g.later.iter().any(|l| l.kind == kind))
            .count()
    }

    /// Every later copy, of both kinds.
    #[must_use]
    pub fn later_count(&self) -> usize {
        self.groups.iter().map(|g| g.later.len()).sum()
    }
}

/// For each board size and symmetry, the image of every WTHOR move byte
/// (a byte that is no square maps to itself), made from
/// [`Symmetry::square`].
static BYTE_MAPS: LazyLock<[[[u8; 256]; 8]; 2]> = LazyLock::new(|| {
    let mut maps = [[[0u8; 256]; 8]; 2];
    for (m, size) in [Size::Eight, Size::Ten].into_iter().enumerate() {
        for (s, sym) in Symmetry::ALL.into_iter().enumerate() {
            for (b, out) in maps[m][s].iter_mut().enumerate() {
                let byte = b as u8;
                *out = Square::from_wthor(byte, size)
                    .map_or(byte, |sq| sym.square(sq, size).to_wthor(size));
            }
        }
    }
    maps
});

fn maps(size: Size) -> &'static [[u8; 256]; 8] {
    &BYTE_MAPS[usize::from(size == Size::Ten)]
}

/// The index in [`Symmetry::ALL`] of the symmetry giving the smallest
/// image of `moves` (the first one on ties).
fn best(moves: &[u8], maps: &[[u8; 256]; 8]) -> usize {
    let mut best = 0;
    for s in 1..8 {
        for &b in moves {
            let (x, y) = (maps[s][usize::from(b)], maps[best][usize::from(b)]);
            if x != y {
                if x < y {
                    best = s;
                }
                break;
            }
        }
    }
    best
}

/// The smallest image of a game's move bytes (WTHOR bytes, as stored,
/// trailing zeros included) under the 8 symmetries, and the symmetry that
/// gives it (the first of [`Symmetry::ALL`] on ties): two games are copies
/// when their images are equal.
///
/// ```
/// use othello_core::{Size, symmetry::Symmetry};
/// use wthor_db::duplicates::canonical_moves;
///
/// // f5 d6 and its half turn, c4 e3, have the same image.
/// let f5d6 = [56, 64, 0];
/// let c4e3 = [43, 35, 0];
/// let (key, s) = canonical_moves(&f5d6, Size::Eight);
/// let (other, t) = canonical_moves(&c4e3, Size::Eight);
/// assert_eq!(key, other);
/// assert_eq!(t.inverse().after(s), Symmetry::ROTATE_180);
/// ```
#[must_use]
pub fn canonical_moves(moves: &[u8], size: Size) -> (Vec<u8>, Symmetry) {
    let maps = maps(size);
    let s = best(moves, maps);
    (
        moves.iter().map(|&b| maps[s][usize::from(b)]).collect(),
        Symmetry::ALL[s],
    )
}

/// The hash of a game's key (its board size and [`canonical_moves`]),
/// `None` for a game without moves.
fn key_hash(moves: &[u8], size: Size) -> Option<u64> {
    if moves.first().is_none_or(|&b| b == 0) {
        return None;
    }
    let maps = maps(size);
    let s = best(moves, maps);
    let mut buf = [0u8; 128];
    let n = moves.len().min(buf.len() - 1);
    buf[0] = u8::from(size == Size::Ten);
    for (o, &b) in buf[1..=n].iter_mut().zip(moves) {
        *o = maps[s][usize::from(b)];
    }
    Some(xxhash_rust::xxh3::xxh3_64(&buf[..=n]))
}

/// A game's board size and [`canonical_moves`].
type Key = (Size, Vec<u8>);

/// The games of a key, each with the symmetry giving it.
type Members = Vec<(GameId, Symmetry)>;

/// What makes a copy a double entry: black's and white's names and the
/// year.
fn identity(db: &Database, id: GameId) -> (String, String, u16) {
    (
        db.black(id).to_string(),
        db.white(id).to_string(),
        db.file_of(id).map_or(0, crate::DbFile::year),
    )
}

/// The group of `members` (same key, in database order, two or more), each
/// with the symmetry giving its key.
fn group(db: &Database, members: &[(GameId, Symmetry)]) -> Group {
    let ids: Vec<(String, String, u16)> = members.iter().map(|&(id, _)| identity(db, id)).collect();
    let (first, first_sym) = members[0];
    let later = members
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, &(id, sym))| Later {
            id,
            kind: if ids[..i].contains(&ids[i]) {
                Kind::DoubleEntry
            } else {
                Kind::OtherPlayers
            },
            symmetry: sym.inverse().after(first_sym),
        })
        .collect();
    Group { first, later }
}

impl Database {
    /// The board size and move bytes of game `id`, `None` when it is no
    /// game or has no move.
    fn moves_of(&self, id: GameId) -> Option<(Size, &[u8])> {
        let game = self.game(id)?;
        let moves = game.moves_raw();
        if moves.first().is_none_or(|&b| b == 0) {
            return None;
        }
        Some((rules_size(game.board_size()), moves))
    }

    /// The duplicate games among `ids` (any order; each counted once), in
    /// parallel (see the module docs). Equal to
    /// `Database::duplicates_sequential` (built with the `test-support`
    /// feature, for the tests).
    #[must_use]
    pub fn duplicates(&self, ids: &[GameId]) -> Duplicates {
        let mut keyed: Vec<(u64, GameId)> = self
            .par_chunks_ids(ids, Vec::new, |acc: &mut Vec<(u64, GameId)>, g| {
                let size = rules_size(g.game.board_size());
                if let Some(h) = key_hash(g.game.moves_raw(), size) {
                    acc.push((h, g.id));
                }
            })
            .concat();
        keyed.par_sort_unstable();
        keyed.dedup();
        let runs: Vec<&[(u64, GameId)]> = keyed
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|r| r.len() > 1)
            .collect();
        let mut groups: Vec<Group> = runs
            .par_iter()
            .flat_map_iter(|run| {
                // Within a run of equal hashes, the keys themselves.
                let mut by_key: Vec<(Key, Members)> = Vec::new();
                for &(_, id) in *run {
                    let Some((size, moves)) = self.moves_of(id) else {
                        continue;
                    };
                    let (key, sym) = canonical_moves(moves, size);
                    let key = (size, key);
                    match by_key.iter_mut().find(|(k, _)| *k == key) {
                        Some((_, members)) => members.push((id, sym)),
                        None => by_key.push((key, vec![(id, sym)])),
                    }
                }
                by_key
                    .into_iter()
                    .filter(|(_, m)| m.len() > 1)
                    .map(|(_, m)| group(self, &m))
                    .collect::<Vec<_>>()
            })
            .collect();
        groups.sort_unstable_by_key(|g| g.first);
        Duplicates {
            games: keyed.len(),
            groups,
        }
    }

    /// [`duplicates`](Database::duplicates) the plain way: each game's 8
    /// images written out, the smallest one the key of a hash map, one
    /// game after the other.
    /// Test support: built with the `test-support` feature only.
    #[cfg(feature = "test-support")]
    #[must_use]
    pub fn duplicates_sequential(&self, ids: &[GameId]) -> Duplicates {
        let mut ids = ids.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let mut order: Vec<(Size, Vec<u8>)> = Vec::new();
        let mut members: std::collections::HashMap<Key, Members> = std::collections::HashMap::new();
        let mut games = 0;
        for id in ids {
            let Some((size, moves)) = self.moves_of(id) else {
                continue;
            };
            games += 1;
            let image = |s: Symmetry| -> Vec<u8> {
                moves
                    .iter()
                    .map(|&b| {
                        Square::from_wthor(b, size)
                            .map_or(b, |sq| s.square(sq, size).to_wthor(size))
                    })
                    .collect()
            };
            let (key, sym) = Symmetry::ALL
                .into_iter()
                .map(|s| (image(s), s))
                .min()
                .expect("8 images");
            let key = (size, key);
            let list = members.entry(key.clone()).or_default();
            if list.is_empty() {
                order.push(key);
            }
            list.push((id, sym));
        }
        let groups = order
            .iter()
            .map(|k| &members[k])
            .filter(|m| m.len() > 1)
            .map(|m| group(self, m))
            .collect();
        Duplicates { games, groups }
    }

    /// `ids` without the later copies of every duplicate game among them
    /// (both kinds; the first copy, in database order, is kept), in the
    /// order given.
    #[must_use]
    pub fn dedupe(&self, ids: &[GameId]) -> Vec<GameId> {
        let dups = self.duplicates(ids);
        let later: std::collections::HashSet<GameId> = dups
            .groups
            .iter()
            .flat_map(|g| g.later.iter().map(|l| l.id))
            .collect();
        ids.iter()
            .copied()
            .filter(|id| !later.contains(id))
            .collect()
    }
}
