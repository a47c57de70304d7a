//! The fitted ratings: each player's rating per year, the lists of a year,
//! the look-up of a player.

use std::collections::HashMap;

use super::games::{Games, LeftOut};
use super::similar::{self, SimilarNames};
use super::whr::Model;
use super::{ELO_PER_NATURAL, MEAN_RATING, Params};
use crate::names::fold;
use crate::openings::close_to;

/// A player's rating in one year in which they played.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct YearRating {
    /// The year.
    pub year: u16,
    /// The rating, in Elo points (the mean rated human at 1500).
    pub rating: f64,
    /// Its standard deviation, in Elo points.
    pub sd: f64,
    /// The rated games played that year.
    pub games: u32,
    /// The points scored in them (a draw half a point).
    pub points: f64,
    /// Whether the rating is provisional: its standard deviation is above
    /// [`Params::provisional_sd`].
    pub provisional: bool,
    /// The rank among the players rated that year whose rating is not
    /// provisional (programs included), from 1; `None` for a provisional
    /// rating.
    pub rank: Option<u32>,
}

/// One player's ratings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PlayerRatings {
    /// The name, as the players files write it.
    pub name: String,
    /// Whether it is a program's ([`is_program`](crate::names::is_program)).
    pub program: bool,
    /// The years in which the player played, in order.
    pub years: Vec<YearRating>,
}

impl PlayerRatings {
    /// The rating of the year `year`, played or not: the year's own when
    /// the player played then, else the fitted curve's value (the mean of
    /// the Wiener process between the two nearest years, a straight line;
    /// the first year's before it, the last year's after it). `None` for a
    /// player without any year.
    #[must_use]
    pub fn rating_in(&self, year: u16) -> Option<f64> {
        let at = self.years.partition_point(|y| y.year < year);
        match (
            at.checked_sub(1).map(|i| &self.years[i]),
            self.years.get(at),
        ) {
            (_, Some(next)) if next.year == year => Some(next.rating),
            (Some(before), Some(after)) => {
                let span = f64::from(after.year - before.year);
                let part = f64::from(year - before.year) / span;
                Some(before.rating + part * (after.rating - before.rating))
            }
            (Some(only), None) | (None, Some(only)) => Some(only.rating),
            (None, None) => None,
        }
    }

    /// The player's rating of `year`, when they played that year.
    #[must_use]
    pub fn year(&self, year: u16) -> Option<&YearRating> {
        self.years
            .binary_search_by_key(&year, |y| y.year)
            .ok()
            .map(|i| &self.years[i])
    }

    /// The highest rating of any year.
    #[must_use]
    pub fn peak(&self) -> Option<&YearRating> {
        self.years
            .iter()
            .max_by(|a, b| a.rating.total_cmp(&b.rating))
    }
}

/// A player in the list of a year.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked<'a> {
    /// The rank, from 1 (`None` for a provisional rating).
    pub rank: Option<u32>,
    /// The player.
    pub player: &'a PlayerRatings,
    /// Their rating that year.
    pub at: &'a YearRating,
}

/// The ratings of every rated player of a set of games, with the
/// parameters they were fitted with.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Ratings {
    params: Params,
    black_advantage: f64,
    newcomer: f64,
    players: Vec<PlayerRatings>,
    /// Each name's player, made again when read back ([`Ratings::reindex`]).
    #[serde(skip)]
    by_name: HashMap<String, usize>,
    similar: Vec<SimilarNames>,
    games: usize,
    left_out: LeftOut,
    newton_steps: usize,
}

impl Ratings {
    /// Fits the model to `games`.
    pub(crate) fn fit(games: Games, params: &Params) -> Ratings {
        let prior = params.prior();
        let mut model = Model::default();
        for g in &games.games {
            model.add_game(g.black, g.white, g.year, params.target(g.points(), g.discs));
        }
        let newton_steps = model.fit(&prior, super::whr::TOLERANCE);
        let variance = model.variances(&prior);
        // Games and points per node.
        let mut played = vec![(0u32, 0.0f64); model.nodes()];
        for (i, g) in games.games.iter().enumerate() {
            let (b, w) = model.game_nodes(i);
            played[b as usize].0 += 1;
            played[b as usize].1 += g.points();
            played[w as usize].0 += 1;
            played[w as usize].1 += 1.0 - g.points();
        }
        // The shift putting the mean human player-year at 1500.
        let (mut sum, mut count) = (0.0, 0usize);
        for (p, nodes) in model.player_nodes.iter().enumerate() {
            if !games.players[p].program {
                sum += nodes.iter().map(|&n| model.r[n as usize]).sum::<f64>();
                count += nodes.len();
            }
        }
        let mean = if count == 0 { 0.0 } else { sum / count as f64 };
        let mut players: Vec<PlayerRatings> = games
            .players
            .iter()
            .enumerate()
            .map(|(p, player)| PlayerRatings {
                name: player.name.clone(),
                program: player.program,
                years: model
                    .player_nodes
                    .get(p)
                    .into_iter()
                    .flatten()
                    .map(|&n| {
                        let n = n as usize;
                        let sd = variance[n].sqrt() * ELO_PER_NATURAL;
                        YearRating {
                            year: model.node_year[n],
                            rating: MEAN_RATING + (model.r[n] - mean) * ELO_PER_NATURAL,
                            sd,
                            games: played[n].0,
                            points: played[n].1,
                            provisional: sd > params.provisional_sd,
                            rank: None,
                        }
                    })
                    .collect(),
            })
            .collect();
        // Ranks per year, of the ratings that are not provisional.
        let mut by_year: HashMap<u16, Vec<(f64, usize, usize)>> = HashMap::new();
        for (p, player) in players.iter().enumerate() {
            for (i, y) in player.years.iter().enumerate() {
                if !y.provisional {
                    by_year.entry(y.year).or_default().push((y.rating, p, i));
                }
            }
        }
        for list in by_year.values_mut() {
            list.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for (rank, &(_, p, i)) in list.iter().enumerate() {
                players[p].years[i].rank = Some(u32::try_from(rank + 1).unwrap_or(u32::MAX));
            }
        }
        let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
        let similar = similar::similar_names(&names);
        let mut ratings = Ratings {
            params: *params,
            black_advantage: model.h * ELO_PER_NATURAL,
            newcomer: MEAN_RATING - mean * ELO_PER_NATURAL,
            players,
            by_name: HashMap::new(),
            similar,
            games: games.games.len(),
            left_out: games.left_out,
            newton_steps,
        };
        ratings.reindex();
        ratings
    }

    /// Makes the look-up of players by name (after a fit, or when read
    /// back from a file, which does not hold it).
    pub(super) fn reindex(&mut self) {
        self.by_name = self
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
    }

    /// The parameters the ratings were fitted with.
    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Black's first-move effect as fitted, in Elo points: black's expected
    /// score against an equal opponent is `1 / (1 + 10^(−advantage/400))`
    /// (negative when white scores more).
    #[must_use]
    pub fn black_advantage(&self) -> f64 {
        self.black_advantage
    }

    /// The rating a newcomer is expected to have before their first game:
    /// the centre of the prior of a player's first rating.
    #[must_use]
    pub fn newcomer_rating(&self) -> f64 {
        self.newcomer
    }

    /// Every rated player, in the order they first appear in the games.
    #[must_use]
    pub fn players(&self) -> &[PlayerRatings] {
        &self.players
    }

    /// The number of games rated.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games
    }

    /// The games selected but not rated, and why.
    #[must_use]
    pub fn left_out(&self) -> LeftOut {
        self.left_out
    }

    /// The Newton steps the fit took.
    #[must_use]
    pub fn newton_steps(&self) -> usize {
        self.newton_steps
    }

    /// The years in which some rated game was played, in order.
    #[must_use]
    pub fn years(&self) -> Vec<u16> {
        let mut years: Vec<u16> = self
            .players
            .iter()
            .flat_map(|p| p.years.iter().map(|y| y.year))
            .collect();
        years.sort_unstable();
        years.dedup();
        years
    }

    /// The players rated in `year`: those whose rating is not provisional
    /// in rank order, then the provisional ones, highest rating first
    /// (ties by first appearance); empty for a year without rated games.
    #[must_use]
    pub fn year(&self, year: u16) -> Vec<Ranked<'_>> {
        let mut list: Vec<Ranked<'_>> = self
            .players
            .iter()
            .filter_map(|player| {
                player.year(year).map(|at| Ranked {
                    rank: at.rank,
                    player,
                    at,
                })
            })
            .collect();
        list.sort_by(|a, b| match (a.rank, b.rank) {
            (Some(x), Some(y)) => x.cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => b.at.rating.total_cmp(&a.at.rating),
        });
        list
    }

    /// The player of exactly this name, as the players files write it
    /// (no folding: a lookup per name of a players file).
    #[must_use]
    pub fn named(&self, name: &str) -> Option<&PlayerRatings> {
        self.by_name.get(name.trim()).map(|&i| &self.players[i])
    }

    /// The player of this name: the name as written, else the one player
    /// whose [folded](fold) name equals the folded `name` (`None` when no
    /// player, or several, have it).
    #[must_use]
    pub fn player(&self, name: &str) -> Option<&PlayerRatings> {
        if let Some(&i) = self.by_name.get(name.trim()) {
            return Some(&self.players[i]);
        }
        let folded = fold(name);
        let mut found = self.players.iter().filter(|p| fold(&p.name) == folded);
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// The player a user means by `name` (what `wthor ratings --player`,
    /// `wthor report` and the server's pages look up): the whole name
    /// ([`player`](Self::player)), else the one player whose name contains
    /// it ([`matching`](Self::matching)).
    ///
    /// # Errors
    /// [`FindError::NoPlayer`] with the closest names (at most 5) when no
    /// name contains it, [`FindError::Several`] with the players it names
    /// (at most 10 of them) when it names more than one.
    pub fn find(&self, name: &str) -> Result<&PlayerRatings, FindError> {
        if let Some(p) = self.player(name) {
            return Ok(p);
        }
        match self.matching(name).as_slice() {
            [one] => Ok(one),
            [] => Err(FindError::NoPlayer {
                name: name.to_owned(),
                rated: !self.players.is_empty(),
                closest: self
                    .closest(name, 5)
                    .into_iter()
                    .map(str::to_owned)
                    .collect(),
            }),
            several => Err(FindError::Several {
                name: name.to_owned(),
                count: several.len(),
                some: several.iter().take(10).map(|p| p.name.clone()).collect(),
            }),
        }
    }

    /// The players whose folded name contains the folded `text`, in the
    /// order of [`players`](Self::players).
    #[must_use]
    pub fn matching(&self, text: &str) -> Vec<&PlayerRatings> {
        let folded = fold(text);
        self.players
            .iter()
            .filter(|p| fold(&p.name).contains(&folded))
            .collect()
    }

    /// The names close to `name` by [`close_to`] (the rule of the opening
    /// names), on folded names: the whole name, or a word of the text and
    /// a word of the name (a surname with a typo finds its player); at most `n`, nearest first (ties by name), none when nothing
    /// is close: what a front end suggests for a name no player has.
    #[must_use]
    pub fn closest(&self, name: &str, n: usize) -> Vec<&str> {
        let text = fold(name);
        let words: Vec<Vec<char>> = std::iter::once(text.as_str())
            .chain(text.split_whitespace().filter(|w| w.chars().count() >= 3))
            .map(|w| w.chars().collect())
            .collect();
        let close = |a: &[char], b: &str| close_to(a, &b.chars().collect::<Vec<_>>());
        let mut scored: Vec<(usize, &str)> = self
            .players
            .iter()
            .filter_map(|p| {
                let folded = fold(&p.name);
                let whole = close(&words[0], &folded);
                let word = words[1..]
                    .iter()
                    .flat_map(|w| folded.split_whitespace().filter_map(|f| close(w, f)))
                    .min();
                let d = whole.into_iter().chain(word).min()?;
                Some((d, p.name.as_str()))
            })
            .collect();
        scored.sort_unstable();
        scored.into_iter().take(n).map(|(_, name)| name).collect()
    }

    /// The pairs of rated names that are probably the same person, never
    /// merged: see [`SimilarNames`].
    #[must_use]
    pub fn similar_names(&self) -> &[SimilarNames] {
        &self.similar
    }

    /// The names that [`similar_names`](Self::similar_names) pairs with
    /// `name`.
    #[must_use]
    pub fn similar_to(&self, name: &str) -> Vec<&SimilarNames> {
        self.similar
            .iter()
            .filter(|s| s.names[0] == name || s.names[1] == name)
            .collect()
    }
}

/// Why [`Ratings::find`] found no one player.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FindError {
    /// No rated player's name contains the text.
    #[error("{}", no_player(name, *rated, closest))]
    NoPlayer {
        /// The text looked up.
        name: String,
        /// Whether any player is rated at all.
        rated: bool,
        /// The closest names, nearest first (none when nothing is close).
        closest: Vec<String>,
    },
    /// The text names several players.
    #[error("{}", several(name, *count, some))]
    Several {
        /// The text looked up.
        name: String,
        /// How many players it names.
        count: usize,
        /// The first of them (at most 10).
        some: Vec<String>,
    },
}

fn no_player(name: &str, rated: bool, closest: &[String]) -> String {
    if !rated {
        format!("no rated player named {name:?} (no player is rated)")
    } else if closest.is_empty() {
        format!("no rated player named {name:?}, and no name is close to it")
    } else {
        format!(
            "no rated player named {name:?}; the closest names: {}",
            closest.join(", ")
        )
    }
}

fn several(name: &str, count: usize, some: &[String]) -> String {
    let more = count - some.len().min(count);
    format!(
        "{name:?} names {count} players: {}{}; give the whole name",
        some.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}
