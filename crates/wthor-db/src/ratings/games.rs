//! The games as the rating models see them: players keyed by name, each
//! game with its year, its tournament and black's discs.

use std::collections::HashMap;

use wthor_format::BoardSize;

use crate::names::is_program;
use crate::{Database, GameId};

/// Whether a player name stands for no known person, and is not rated:
/// an empty name, a name of question marks only (`???`, WTHOR's player
/// number 0), or a name ending in `?` (`Ishizaki Y ?`, `Bulgakov ?`: the
/// federation's own doubt about who played, 17 names of the real
/// `WTHOR.JOU`). A game number beyond its players file has no name and is
/// not rated either.
///
/// ```
/// use wthor_db::ratings::is_unknown_player;
///
/// assert!(is_unknown_player("???"));
/// assert!(is_unknown_player("Tanabe K ?"));
/// assert!(is_unknown_player("  "));
/// assert!(!is_unknown_player("Tamenori Hideshi"));
/// assert!(!is_unknown_player("Edax (delorme)"));
/// ```
#[must_use]
pub fn is_unknown_player(name: &str) -> bool {
    let name = name.trim();
    name.is_empty() || name.ends_with('?')
}

/// A rated player: a name as the players files write it (trimmed), and
/// whether it is a program's ([`is_program`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) program: bool,
}

/// One game between two rated players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    /// The year of its file.
    pub(crate) year: u16,
    /// Its tournament, an index into [`Games::tournaments`].
    pub(crate) tournament: u32,
    /// Black and white, indices into [`Games::players`].
    pub(crate) black: u32,
    /// White.
    pub(crate) white: u32,
    /// Black's discs at the end (WTHOR's real score: 32 a draw).
    pub(crate) discs: u8,
}

impl Played {
    /// Black's points: 1, ½ or 0.
    pub(crate) fn points(self) -> f64 {
        match self.discs.cmp(&32) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }
}

/// A tournament: a game file and a tournament number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Tournament {
    pub(crate) file: usize,
    pub(crate) number: u16,
    pub(crate) year: u16,
}

/// Why games were left out of the ratings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LeftOut {
    /// Games with an unknown player ([`is_unknown_player`], or a number
    /// beyond the players file).
    pub unknown_player: usize,
    /// Games whose two players have the same name.
    pub same_player: usize,
    /// Games on a 10x10 board.
    pub ten_by_ten: usize,
}

/// The games of a database as the models see them, in walking order:
/// by year, then tournament by tournament (a tournament placed where its
/// first game is in the file), each tournament's games in file order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Games {
    pub(crate) players: Vec<Player>,
    pub(crate) tournaments: Vec<Tournament>,
    pub(crate) games: Vec<Played>,
    pub(crate) left_out: LeftOut,
}

impl Games {
    /// The games `ids` of `db` (in any order).
    pub(crate) fn collect(db: &Database, ids: &[GameId]) -> Games {
        let mut out = Games::default();
        let mut players: HashMap<String, u32> = HashMap::new();
        let mut tournaments: HashMap<(usize, u16), u32> = HashMap::new();
        // (year, file, first index of its tournament, index) to sort by.
        let mut keyed: Vec<((u16, usize, usize, usize), Played)> = Vec::with_capacity(ids.len());
        let mut first_index: Vec<usize> = Vec::new();
        for &id in ids {
            let Some(g) = db.game_ref(id) else { continue };
            if g.file.board_size() != Some(BoardSize::Eight) {
                out.left_out.ten_by_ten += 1;
                continue;
            }
            let (black, white) = (db.black(id), db.white(id));
            let (Some(b), Some(w)) = (black.name, white.name) else {
                out.left_out.unknown_player += 1;
                continue;
            };
            let (b, w) = (b.trim(), w.trim());
            if is_unknown_player(b) || is_unknown_player(w) {
                out.left_out.unknown_player += 1;
                continue;
            }
            if b == w {
                out.left_out.same_player += 1;
                continue;
            }
            let mut player = |name: &str| {
                *players.entry(name.to_owned()).or_insert_with(|| {
                    out.players.push(Player {
                        name: name.to_owned(),
                        program: is_program(name),
                    });
                    u32::try_from(out.players.len() - 1).expect("fewer than 2^32 players")
                })
            };
            let (black, white) = (player(b), player(w));
            let year = g.file.year();
            let tournament = *tournaments
                .entry((id.file(), g.game.tournament()))
                .or_insert_with(|| {
                    out.tournaments.push(Tournament {
                        file: id.file(),
                        number: g.game.tournament(),
                        year,
                    });
                    first_index.push(id.index());
                    u32::try_from(out.tournaments.len() - 1).expect("fewer than 2^32 tournaments")
                });
            let t = tournament as usize;
            first_index[t] = first_index[t].min(id.index());
            keyed.push((
                (year, id.file(), 0, id.index()),
                Played {
                    year,
                    tournament,
                    black,
                    white,
                    discs: g.game.real_score(),
                },
            ));
        }
        for (key, game) in &mut keyed {
            key.2 = first_index[game.tournament as usize];
        }
        keyed.sort_unstable_by_key(|&(key, _)| key);
        out.games = keyed.into_iter().map(|(_, g)| g).collect();
        out
    }

    /// The ranges of [`games`](Self::games) of each tournament, in walking
    /// order.
    pub(crate) fn tournament_runs(&self) -> Vec<std::ops::Range<usize>> {
        let mut runs = Vec::new();
        let mut start = 0;
        for i in 1..=self.games.len() {
            if i == self.games.len() || self.games[i].tournament != self.games[start].tournament {
                runs.push(start..i);
                start = i;
            }
        }
        runs
    }
}
