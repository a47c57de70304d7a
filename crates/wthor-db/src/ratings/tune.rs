//! The parameters fitted by predictive log-loss.

use super::evaluate::{Baselines, elo_score, glicko2_score, whr_score};
use super::games::Games;
use super::{Params, RatingsError};
use crate::{Database, Query};

/// What [`tune`] found: the parameters and their log-loss over the
/// training years (walked forward as the validation walks).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Tuned {
    /// The first training year.
    pub first: u16,
    /// The last training year.
    pub last: u16,
    /// The games predicted.
    pub games: usize,
    /// WHR's parameters (the provisional bound as given).
    pub params: Params,
    /// Their log-loss.
    pub whr: f64,
    /// The baselines' parameters.
    pub baselines: Baselines,
    /// Elo's log-loss at its K.
    pub elo: f64,
    /// Glicko-2's log-loss at its τ.
    pub glicko2: f64,
    /// The walks made.
    pub walks: usize,
}

/// The minimum of `f` over `[low, high]` by golden-section search,
/// `steps` narrowings: the point and its value.
fn golden(mut low: f64, mut high: f64, steps: usize, f: &mut dyn FnMut(f64) -> f64) -> (f64, f64) {
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let mut a = high - ratio * (high - low);
    let mut b = low + ratio * (high - low);
    let (mut fa, mut fb) = (f(a), f(b));
    for _ in 0..steps {
        if fa <= fb {
            high = b;
            b = a;
            fb = fa;
            a = high - ratio * (high - low);
            fa = f(a);
        } else {
            low = a;
            a = b;
            fa = fb;
            b = low + ratio * (high - low);
            fb = f(b);
        }
    }
    if fa <= fb { (a, fa) } else { (b, fb) }
}

/// Fits WHR's Wiener deviation, prior deviation and margin weight, Elo's
/// K and Glicko-2's τ on the games of `first..=last` that `query`
/// selects: each game predicted from every game before its tournament,
/// as [`Database::evaluate_ratings`] does for the test years; the mean
/// log-loss minimised by golden-section searches, one parameter at a time
/// (WHR's three in turn, twice; Wiener and prior deviations on a log
/// scale). `start` gives the provisional bound and the starting point.
/// A minute or two on the whole archive over 2010–2020.
///
/// # Errors
/// As [`Database::evaluate_ratings`].
pub fn tune(
    db: &Database,
    query: &Query,
    first: u16,
    last: u16,
    start: &Params,
) -> Result<Tuned, RatingsError> {
    if first > last {
        return Err(RatingsError::EmptyYears { first, last });
    }
    start.check()?;
    let games = db.rated_games(query)?;
    tune_games(&games, first, last, start)
}

fn tune_games(games: &Games, first: u16, last: u16, start: &Params) -> Result<Tuned, RatingsError> {
    let mut walks = 0;
    let mut params = *start;
    let whr = |p: &Params, walks: &mut usize| {
        *walks += 1;
        whr_score(games, first, last, p)
    };
    let base = whr(&params, &mut walks);
    if base.games == 0 {
        return Err(RatingsError::NothingToPredict { first, last });
    }
    let mut best = base.mean();
    for _ in 0..2 {
        let (w, loss) = golden(3.0, 6.0, 10, &mut |x| {
            whr(
                &Params {
                    wiener_sd: x.exp(),
                    ..params
                },
                &mut walks,
            )
            .mean()
        });
        if loss < best {
            params.wiener_sd = w.exp();
            best = loss;
        }
        let (s, loss) = golden(4.0, 7.0, 10, &mut |x| {
            whr(
                &Params {
                    prior_sd: x.exp(),
                    ..params
                },
                &mut walks,
            )
            .mean()
        });
        if loss < best {
            params.prior_sd = s.exp();
            best = loss;
        }
        let (m, loss) = golden(0.0, 1.0, 10, &mut |x| {
            whr(
                &Params {
                    margin: x,
                    ..params
                },
                &mut walks,
            )
            .mean()
        });
        if loss < best {
            params.margin = m;
            best = loss;
        }
    }
    let (k, elo) = golden(4.0, 80.0, 14, &mut |k| {
        walks += 1;
        elo_score(games, first, last, k).mean()
    });
    let (tau, glicko2) = golden(0.1, 1.5, 10, &mut |t| {
        walks += 1;
        glicko2_score(games, first, last, t).mean()
    });
    Ok(Tuned {
        first,
        last,
        games: base.games,
        params,
        whr: best,
        baselines: Baselines {
            elo_k: k,
            glicko2_tau: tau,
        },
        elo,
        glicko2,
        walks,
    })
}
