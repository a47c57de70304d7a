//! Ratings: every player's strength, year by year, since 1977.
//!
//! **The model** is Whole-History Rating (Coulom, 2008; [`whr`] has the
//! mathematics and the fit) with the year as its time step: the archive
//! has no dates, so the games of a year are taken as simultaneous, and a
//! player has one rating per year in which they played. Black's expected
//! score is `σ(r_black − r_white + h)`, `h` the first-move effect, fitted
//! with the ratings (black's edge is negative in Othello: white moves
//! second and scores a little more). Draws count half a point. The prior
//! is a Wiener process over the years (variance [`Params::wiener_sd`]²
//! per year) from a first rating `N(0, `[`Params::prior_sd`]`²)`, and the
//! training target may be softened by the disc margin
//! ([`Params::margin`]).
//!
//! **The scale** is Elo's (400 points for a factor of 10 in the odds),
//! shifted so that the mean rated human is at 1500: the mean, over every
//! human player and every year in which they played, of their rating that
//! year. A rating is **provisional** while its standard deviation is above
//! [`Params::provisional_sd`].
//!
//! **Players** are names: games under the same name are one player's, in
//! every names file of the database; two names that are probably the same
//! person (the same once [folded](crate::names::fold), or one edit apart
//! when folded) are listed by [`Ratings::similar_names`], never merged.
//! Programs ([`is_program`](crate::names::is_program)) are rated on the
//! same scale and flagged; unknown players ([`is_unknown_player`]) are not
//! rated, nor are the games they played. Only 8x8 games are rated.
//!
//! **Tournaments** are (game file, tournament number) pairs, their games
//! taken in file order. The validation walks forward tournament by
//! tournament in file order ([`Database::evaluate_ratings`]); nothing says
//! the files list tournaments in the order they were played, so within a
//! year that order is the best one available, not a known chronology.
//!
//! **Parameters** were fitted on 2010–2020 by predictive log-loss
//! ([`tune`]: the same walk forward, each game of those years predicted
//! from the games before its tournament); their values and the figures are
//! on [`Params::FITTED`], and every [`Ratings`] keeps the ones it was
//! computed with.
//!
//! **Figures** (whole archive, 2 cores; `cargo bench -p wthor-db --bench
//! ratings`): 136,412 games rated (1,136 left out: unknown players, or
//! a player against themselves), 4,206 players, fitted in 0.12–0.15 s
//! (six Newton steps), black's edge −10.7 points. The validation over
//! 2021–2025 (10,341 games of 318 tournaments, 15.1% of them with a player
//! never seen before), in 9–18 s:
//!
//! | model | log-loss |
//! |---|---|
//! | WHR, [`Params::FITTED`] | 0.5595 |
//! | WHR, the result alone (margin 0) | 0.5633 |
//! | Elo, K 34 | 0.5781 |
//! | Glicko-2, τ 0.84 | 0.5934 |
//! | constant (black's mean score) | 0.6927 |
//!
//! ```
//! use wthor_db::{Database, Query};
//! use wthor_db::ratings::Params;
//!
//! # let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
//! let db = Database::open(&testdata)?; // the fixture database
//! let ratings = db.ratings(&Query::new(), &Params::FITTED)?;
//! // The list of 2003: the established players by rank.
//! let list = ratings.year(2003);
//! assert_eq!(list[0].rank, Some(1));
//! for ranked in list.iter().take(3) {
//!     let at = ranked.at;
//!     println!("{} {:.0} ±{:.0} ({} games)", ranked.player.name, at.rating, at.sd, at.games);
//! }
//! // One player's history, looked up case- and accent-insensitively.
//! // He plays every year from 2003 to 2008: a rating for each.
//! let nakamura = ratings.player("takuji nakamura").expect("a rated player");
//! assert_eq!(nakamura.years.len(), 6);
//! // Names nobody has: the closest ones.
//! assert_eq!(ratings.closest("Takuji Nakamur", 1), ["Takuji Nakamura"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod cache;
mod evaluate;
mod games;
mod list;
mod performance;
mod similar;
mod tune;
pub mod whr;

pub use cache::{CachedRatings, default_cache_path};
pub use evaluate::{Baselines, EvaluateOptions, Evaluation, MARGIN_TRIED};
pub use games::{LeftOut, is_unknown_player};
pub use list::{FindError, PlayerRatings, Ranked, Ratings, YearRating};
pub use performance::{PERFORMANCE_CAP, performance, performance_weighted};
pub use similar::{Similar, SimilarNames};
pub use tune::{Tuned, tune};

use crate::query::QueryError;
use crate::{Database, Query};

/// Elo points per natural unit (log-odds): `400 / ln 10`.
pub const ELO_PER_NATURAL: f64 = 400.0 / std::f64::consts::LN_10;

/// The mean rated human's rating.
pub const MEAN_RATING: f64 = 1500.0;

/// The parameters of the model, in Elo points.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Params {
    /// The standard deviation of a player's change of rating over one year
    /// (the square root of the Wiener variance `w²`): over `n` years it is
    /// `wiener_sd·√n`.
    pub wiener_sd: f64,
    /// The standard deviation of the prior of a player's first rating,
    /// centred on the newcomers' mean.
    pub prior_sd: f64,
    /// How much the disc margin softens the training target, from 0 (the
    /// result alone: 1, ½ or 0) to 1 (black's share of the 64 discs): the
    /// target is `(1 − margin)·points + margin·discs/64`. Predictions are
    /// always scored against the results.
    pub margin: f64,
    /// A rating is provisional while its standard deviation is above this.
    pub provisional_sd: f64,
}

impl Params {
    /// The parameters fitted on 2010–2020 by [`tune`] on the whole archive
    /// (each of the 22,175 games of those years predicted from the games
    /// before its tournament; 101 walks, 24 minutes): Wiener deviation
    /// 27.6, prior deviation 553, margin weight 0.108, log-loss 0.5438;
    /// rounded here (0.5439 at these values; 0.5451 with the result
    /// alone, margin 0). A player's strength drifts slowly from year to
    /// year (28 points a year, 88 over ten) while newcomers differ widely.
    /// The provisional bound, 100 points, is chosen apart: the median
    /// uncertainty of a player with 5–9 games in a year (92 in 2025).
    pub const FITTED: Params = Params {
        wiener_sd: 28.0,
        prior_sd: 550.0,
        margin: 0.1,
        provisional_sd: 100.0,
    };

    /// Checks that every parameter is finite and in range.
    ///
    /// # Errors
    /// [`RatingsError::Params`] naming the first parameter out of range.
    pub fn check(&self) -> Result<(), RatingsError> {
        let positive = |what: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(RatingsError::Params {
                    what,
                    value: v,
                    expected: "a positive number of Elo points",
                })
            }
        };
        positive("wiener_sd", self.wiener_sd)?;
        positive("prior_sd", self.prior_sd)?;
        positive("provisional_sd", self.provisional_sd)?;
        if !(0.0..=1.0).contains(&self.margin) {
            return Err(RatingsError::Params {
                what: "margin",
                value: self.margin,
                expected: "a weight from 0 to 1",
            });
        }
        Ok(())
    }

    /// The model's prior in natural units.
    pub(crate) fn prior(&self) -> whr::Prior {
        whr::Prior {
            wiener: (self.wiener_sd / ELO_PER_NATURAL).powi(2),
            first: (self.prior_sd / ELO_PER_NATURAL).powi(2),
        }
    }

    /// The training target of a game with black's `points` and `discs`.
    pub(crate) fn target(&self, points: f64, discs: u8) -> f64 {
        let share = (f64::from(discs) / 64.0).clamp(0.0, 1.0);
        (1.0 - self.margin) * points + self.margin * share
    }
}

impl Default for Params {
    fn default() -> Params {
        Params::FITTED
    }
}

/// Why ratings could not be computed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum RatingsError {
    /// The query selecting the games cannot run.
    #[error("the games to rate")]
    Query(#[from] QueryError),
    /// A parameter out of range.
    #[error("ratings parameter {what} is {value}, expected {expected}")]
    Params {
        /// The parameter's name.
        what: &'static str,
        /// Its value.
        value: f64,
        /// What it should be.
        expected: &'static str,
    },
    /// An evaluation's test years without any game to predict.
    #[error("no rated game in {first}..{last} to predict")]
    NothingToPredict {
        /// The first test year.
        first: u16,
        /// The last test year.
        last: u16,
    },
    /// An empty range of years (its first above its last).
    #[error("empty range of years {first}..{last}")]
    EmptyYears {
        /// The first year.
        first: u16,
        /// The last year.
        last: u16,
    },
}

impl Database {
    /// The ratings of every player of the 8x8 games that `query` selects
    /// (its sort and limit ignored), fitted with `params`.
    ///
    /// # Errors
    /// [`RatingsError::Params`] for a parameter out of range,
    /// [`RatingsError::Query`] for a query that cannot run.
    pub fn ratings(&self, query: &Query, params: &Params) -> Result<Ratings, RatingsError> {
        params.check()?;
        let games = self.rated_games(query)?;
        Ok(Ratings::fit(games, params))
    }

    /// The games a query selects, as the models see them.
    fn rated_games(&self, query: &Query) -> Result<games::Games, RatingsError> {
        let m = self.matcher(query)?;
        let ids = self.par_fold(
            Vec::new,
            |acc: &mut Vec<crate::GameId>, g| {
                if m.matches(&g) {
                    acc.push(g.id);
                }
            },
            |mut a, b| {
                a.extend(b);
                a
            },
        );
        Ok(games::Games::collect(self, &ids))
    }
}
