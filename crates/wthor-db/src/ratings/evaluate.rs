//! The validation: a walk forward, tournament by tournament, each game of
//! the test years predicted from the games before its tournament, scored
//! by log-loss for WHR and for three baselines (Elo and Glicko-2 through
//! the `skillratings` crate, and a constant).

use skillratings::Outcomes;
use skillratings::elo::{EloConfig, EloRating};
use skillratings::glicko2::{Glicko2Config, Glicko2Rating};

use super::games::{Games, Played};
use super::whr::{Model, sigmoid};
use super::{ELO_PER_NATURAL, Params, RatingsError};
use crate::{Database, Query};

/// The baselines' parameters.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Baselines {
    /// Elo's K (points moved per point of surprise), applied game by game.
    pub elo_k: f64,
    /// Glicko-2's τ (how fast a player's volatility may change), each
    /// tournament a rating period.
    pub glicko2_tau: f64,
}

impl Baselines {
    /// Tuned on 2010–2020 by [`tune`](super::tune), as [`Params::FITTED`]:
    /// K 33.7 (log-loss 0.5661; rounded here) and τ 0.84 (0.5667).
    pub const FITTED: Baselines = Baselines {
        elo_k: 34.0,
        glicko2_tau: 0.84,
    };
}

impl Default for Baselines {
    fn default() -> Baselines {
        Baselines::FITTED
    }
}

/// What [`Database::evaluate_ratings`] walks through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EvaluateOptions {
    /// The first test year.
    pub first: u16,
    /// The last test year.
    pub last: u16,
    /// WHR's parameters.
    pub params: Params,
    /// The baselines' parameters.
    pub baselines: Baselines,
}

impl EvaluateOptions {
    /// The test years `first..=last` with the fitted parameters.
    #[must_use]
    pub fn years(first: u16, last: u16) -> EvaluateOptions {
        EvaluateOptions {
            first,
            last,
            params: Params::FITTED,
            baselines: Baselines::FITTED,
        }
    }
}

/// The validation's figures: the mean log-loss (natural logarithm, draws
/// as half points: `−s·ln p − (1 − s)·ln(1 − p)`) of each model over the
/// test games.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Evaluation {
    /// The first test year.
    pub first: u16,
    /// The last test year.
    pub last: u16,
    /// The games predicted.
    pub games: usize,
    /// The tournaments they belong to (each a refit of WHR).
    pub tournaments: usize,
    /// The games with a player who played no game before the tournament.
    pub never_seen: usize,
    /// Whole-History Rating with the options' parameters. A game is
    /// predicted from both players' beliefs (mean and variance: their
    /// latest year's, the Wiener variance added for the years since; the
    /// prior for a player never seen), the uncertainty integrated out by
    /// the probit approximation, `p = σ(d / √(1 + π·(v_black + v_white)/8))`.
    /// With the means alone the log-loss over 2010–2020 was 0.5648 (the
    /// result alone) or 0.5501 (margin 0.3), against 0.5439.
    pub whr: f64,
    /// Whole-History Rating with the same parameters but the other use of
    /// the disc margin: the result alone when the parameters soften it by
    /// the margin, else softened by the margin weight [`MARGIN_TRIED`].
    pub whr_other_margin: f64,
    /// The margin weight of [`whr_other_margin`](Self::whr_other_margin).
    pub other_margin: f64,
    /// Elo with the options' K; black's edge the Elo difference that makes
    /// black's mean score of the games before the tournament expected.
    pub elo: f64,
    /// Glicko-2 (each tournament a rating period), black's edge as Elo's.
    pub glicko2: f64,
    /// A constant: black's mean score of the games before the tournament.
    pub constant: f64,
}

/// The margin weight that [`Evaluation::whr_other_margin`] tries when the
/// parameters use the result alone.
pub const MARGIN_TRIED: f64 = 0.5;

/// A sum of log-losses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Score {
    pub(crate) loss: f64,
    pub(crate) games: usize,
}

impl Score {
    fn add(&mut self, points: f64, p: f64) {
        let p = p.clamp(1e-12, 1.0 - 1e-12);
        self.loss -= points * p.ln() + (1.0 - points) * (1.0 - p).ln();
        self.games += 1;
    }

    pub(crate) fn mean(self) -> f64 {
        if self.games == 0 {
            f64::NAN
        } else {
            self.loss / self.games as f64
        }
    }
}

/// The tournaments of `games` (ranges of its games) and whether each is
/// a test one.
fn walk(games: &Games, first: u16, last: u16) -> Vec<(std::ops::Range<usize>, bool)> {
    games
        .tournament_runs()
        .into_iter()
        .map(|run| {
            let year = games.games[run.start].year;
            (run, (first..=last).contains(&year))
        })
        .take_while(|(run, _)| games.games[run.start].year <= last)
        .collect()
}

/// WHR walked forward: the model refitted (from the previous fit) before
/// each test tournament.
pub(crate) fn whr_score(games: &Games, first: u16, last: u16, params: &Params) -> Score {
    let prior = params.prior();
    let mut model = Model::default();
    let mut score = Score::default();
    for (run, test) in walk(games, first, last) {
        if test {
            model.fit(&prior, super::whr::WALK_TOLERANCE);
            let variance = model.variances(&prior);
            for g in &games.games[run.clone()] {
                let (mb, vb) = whr_belief(&model, &variance, &prior, g.black, g.year);
                let (mw, vw) = whr_belief(&model, &variance, &prior, g.white, g.year);
                let spread = (1.0 + std::f64::consts::PI * (vb + vw) / 8.0).sqrt();
                score.add(g.points(), sigmoid((mb - mw + model.h) / spread));
            }
        }
        for g in &games.games[run] {
            model.add_game(g.black, g.white, g.year, params.target(g.points(), g.discs));
        }
    }
    score
}

/// A player's rating in `year` as the model believes it: mean and
/// variance (the latest node's, the Wiener variance added for the years
/// since; the prior for a player never seen).
fn whr_belief(
    model: &Model,
    variance: &[f64],
    prior: &super::whr::Prior,
    player: u32,
    year: u16,
) -> (f64, f64) {
    match model.latest_node(player, year) {
        None => (0.0, prior.first),
        Some(n) => {
            let n = n as usize;
            let gap = f64::from(year - model.node_year[n]);
            (model.r[n], variance[n] + prior.wiener * gap)
        }
    }
}

/// Black's edge in Elo points from black's `points` in `games`: the
/// difference that makes that mean score expected.
fn elo_edge(points: f64, games: usize) -> f64 {
    if games == 0 {
        return 0.0;
    }
    let m = (points / games as f64).clamp(0.01, 0.99);
    (m / (1.0 - m)).ln() * ELO_PER_NATURAL
}

fn outcome(g: &Played) -> Outcomes {
    match g.discs.cmp(&32) {
        std::cmp::Ordering::Greater => Outcomes::WIN,
        std::cmp::Ordering::Equal => Outcomes::DRAW,
        std::cmp::Ordering::Less => Outcomes::LOSS,
    }
}

/// Elo walked forward: ratings before the tournament predict its games,
/// then move game by game in file order.
pub(crate) fn elo_score(games: &Games, first: u16, last: u16, k: f64) -> Score {
    let config = EloConfig { k };
    let mut ratings: Vec<EloRating> = vec![EloRating { rating: 1500.0 }; games.players.len()];
    let (mut points, mut played) = (0.0, 0usize);
    let mut score = Score::default();
    for (run, test) in walk(games, first, last) {
        let edge = elo_edge(points, played);
        if test {
            for g in &games.games[run.clone()] {
                let black = EloRating {
                    rating: ratings[g.black as usize].rating + edge,
                };
                let (p, _) = skillratings::elo::expected_score(&black, &ratings[g.white as usize]);
                score.add(g.points(), p);
            }
        }
        for g in &games.games[run] {
            let (b, w) = (g.black as usize, g.white as usize);
            let black = EloRating {
                rating: ratings[b].rating + edge,
            };
            let (nb, nw) = skillratings::elo::elo(&black, &ratings[w], &outcome(g), &config);
            ratings[b].rating = nb.rating - edge;
            ratings[w] = nw;
            points += g.points();
            played += 1;
        }
    }
    score
}

/// Glicko-2 walked forward: each tournament a rating period (every player
/// of it rated against the others' ratings before it), a player's
/// deviation grown once per year without games.
pub(crate) fn glicko2_score(games: &Games, first: u16, last: u16, tau: f64) -> Score {
    let config = Glicko2Config {
        tau,
        ..Glicko2Config::new()
    };
    let n = games.players.len();
    let mut ratings = vec![Glicko2Rating::new(); n];
    let mut last_year: Vec<Option<u16>> = vec![None; n];
    let (mut points, mut played) = (0.0, 0usize);
    let mut score = Score::default();
    let mut results: Vec<Vec<(Glicko2Rating, Outcomes)>> = vec![Vec::new(); n];
    let mut in_period: Vec<u32> = Vec::new();
    for (run, test) in walk(games, first, last) {
        let edge = elo_edge(points, played);
        let year = games.games[run.start].year;
        // Deviations grown for the years a player missed.
        for g in &games.games[run.clone()] {
            for p in [g.black as usize, g.white as usize] {
                if let Some(y) = last_year[p]
                    && y < year
                {
                    for _ in 1..(year - y).min(20) {
                        ratings[p] = skillratings::glicko2::decay_deviation(&ratings[p]);
                    }
                }
                last_year[p] = Some(year);
            }
        }
        let shifted = |r: Glicko2Rating, by: f64| Glicko2Rating {
            rating: r.rating + by,
            ..r
        };
        if test {
            for g in &games.games[run.clone()] {
                let black = shifted(ratings[g.black as usize], edge);
                let (p, _) =
                    skillratings::glicko2::expected_score(&black, &ratings[g.white as usize]);
                score.add(g.points(), p);
            }
        }
        for g in &games.games[run] {
            let (b, w) = (g.black as usize, g.white as usize);
            let o = outcome(g);
            let reverse = match o {
                Outcomes::WIN => Outcomes::LOSS,
                Outcomes::LOSS => Outcomes::WIN,
                Outcomes::DRAW => Outcomes::DRAW,
            };
            if results[b].is_empty() {
                in_period.push(g.black);
            }
            if results[w].is_empty() {
                in_period.push(g.white);
            }
            results[b].push((shifted(ratings[w], -edge), o));
            results[w].push((shifted(ratings[b], edge), reverse));
            points += g.points();
            played += 1;
        }
        let updated: Vec<(u32, Glicko2Rating)> = in_period
            .iter()
            .map(|&p| {
                let p_ = p as usize;
                (
                    p,
                    skillratings::glicko2::glicko2_rating_period(
                        &ratings[p_],
                        &results[p_],
                        &config,
                    ),
                )
            })
            .collect();
        for (p, r) in updated {
            ratings[p as usize] = r;
            results[p as usize].clear();
        }
        in_period.clear();
    }
    score
}

/// The constant: black's mean score of the games before the tournament.
pub(crate) fn constant_score(games: &Games, first: u16, last: u16) -> Score {
    let (mut points, mut played) = (0.0, 0usize);
    let mut score = Score::default();
    for (run, test) in walk(games, first, last) {
        if test {
            let p = if played == 0 {
                0.5
            } else {
                points / played as f64
            };
            for g in &games.games[run.clone()] {
                score.add(g.points(), p);
            }
        }
        for g in &games.games[run] {
            points += g.points();
            played += 1;
        }
    }
    score
}

/// The test games with a player who played none before the tournament,
/// and the test tournaments.
fn never_seen(games: &Games, first: u16, last: u16) -> (usize, usize) {
    let mut seen = vec![false; games.players.len()];
    let (mut count, mut tournaments) = (0, 0);
    for (run, test) in walk(games, first, last) {
        if test {
            tournaments += 1;
            count += games.games[run.clone()]
                .iter()
                .filter(|g| !seen[g.black as usize] || !seen[g.white as usize])
                .count();
        }
        for g in &games.games[run] {
            seen[g.black as usize] = true;
            seen[g.white as usize] = true;
        }
    }
    (count, tournaments)
}

impl Database {
    /// The validation of the ratings on the 8x8 games that `query`
    /// selects: walking forward tournament by tournament, each game of the
    /// years `options.first..=options.last` predicted from every game
    /// before its tournament (the earlier years, and the earlier
    /// tournaments of its year in file order; never a game of its own
    /// tournament), by WHR (refitted before each tournament, from the
    /// previous fit), Elo, Glicko-2 and a constant; see [`Evaluation`].
    ///
    /// # Errors
    /// [`RatingsError::EmptyYears`] when `first > last`,
    /// [`RatingsError::Params`] for a parameter out of range,
    /// [`RatingsError::Query`] for a query that cannot run,
    /// [`RatingsError::NothingToPredict`] when no rated game falls in the
    /// test years.
    pub fn evaluate_ratings(
        &self,
        query: &Query,
        options: &EvaluateOptions,
    ) -> Result<Evaluation, RatingsError> {
        let (first, last) = (options.first, options.last);
        if first > last {
            return Err(RatingsError::EmptyYears { first, last });
        }
        options.params.check()?;
        let games = self.rated_games(query)?;
        evaluate(&games, options)
    }
}

/// The validation on collected games.
pub(crate) fn evaluate(
    games: &Games,
    options: &EvaluateOptions,
) -> Result<Evaluation, RatingsError> {
    let (first, last) = (options.first, options.last);
    let (never, tournaments) = never_seen(games, first, last);
    let other_margin = if options.params.margin > 0.0 {
        0.0
    } else {
        MARGIN_TRIED
    };
    let other = Params {
        margin: other_margin,
        ..options.params
    };
    let ((whr, whr_other), ((elo, glicko2), constant)) = rayon::join(
        || {
            rayon::join(
                || whr_score(games, first, last, &options.params),
                || whr_score(games, first, last, &other),
            )
        },
        || {
            (
                rayon::join(
                    || elo_score(games, first, last, options.baselines.elo_k),
                    || glicko2_score(games, first, last, options.baselines.glicko2_tau),
                ),
                constant_score(games, first, last),
            )
        },
    );
    if whr.games == 0 {
        return Err(RatingsError::NothingToPredict { first, last });
    }
    Ok(Evaluation {
        first,
        last,
        games: whr.games,
        tournaments,
        never_seen: never,
        whr: whr.mean(),
        whr_other_margin: whr_other.mean(),
        other_margin,
        elo: elo.mean(),
        glicko2: glicko2.mean(),
        constant: constant.mean(),
    })
}
