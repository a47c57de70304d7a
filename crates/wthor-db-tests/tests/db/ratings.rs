//! Ratings (`wthor_db::ratings`): values computed by hand on hand-made
//! games, the fit equal to a brute-force maximisation of the same
//! posterior, the walk forward's predictions, names, bad input.

use std::path::Path;

use wthor_db::ratings::{
    ELO_PER_NATURAL, EvaluateOptions, FindError, Params, Ratings, RatingsError, Similar,
    is_unknown_player,
};
use wthor_db::{Database, DatabaseBuilder, Query};

/// A game of tournament `t`: black and white (numbers in the players
/// file) and black's discs.
type Played = (u16, u16, u16, u8);

fn write_names(path: &Path, names: &[&str]) {
    crate::handmade::write_names(path, names);
}

fn write_games(path: &Path, year: u16, games: &[Played]) {
    let games: Vec<crate::handmade::Played<'_>> = games
        .iter()
        .map(|&(t, b, w, discs)| (t, b, w, discs, &["f5", "d6"][..]))
        .collect();
    crate::handmade::write_games(path, year, &games);
}

/// A database of `names` (WTHOR.JOU) and the games of each year.
fn database(names: &[&str], years: &[(u16, Vec<Played>)]) -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().unwrap();
    write_names(&dir.path().join("WTHOR.JOU"), names);
    for (year, games) in years {
        write_games(&dir.path().join(format!("WTH_{year}.wtb")), *year, games);
    }
    let db = Database::open(dir.path()).unwrap();
    (dir, db)
}

const PARAMS: Params = Params {
    wiener_sd: 80.0,
    prior_sd: 200.0,
    margin: 0.0,
    provisional_sd: 100.0,
};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The root of an increasing function by bisection.
fn bisect(mut low: f64, mut high: f64, f: impl Fn(f64) -> f64) -> f64 {
    for _ in 0..200 {
        let mid = (low + high) / 2.0;
        if f(mid) < 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    (low + high) / 2.0
}

#[track_caller]
fn close(a: f64, b: f64, tolerance: f64) {
    assert!(
        (a - b).abs() <= tolerance,
        "{a} and {b} differ by more than {tolerance}"
    );
}

fn rating(r: &Ratings, name: &str, year: u16) -> wthor_db::ratings::YearRating {
    *r.player(name).unwrap().year(year).unwrap()
}

/// A beats B `n` times as black and `n` times as white, in 2001. By the
/// symmetry of colours the first-move effect is 0 and the ratings are
/// ±x (natural units), the maximum of `2n·ln σ(2x) − x²/σ₀²`:
/// `2n·(1 − σ(2x)) = x/σ₀²`. Each player's variance is the inverse of
/// their curvature, `2n·p(1 − p) + 1/σ₀²` with `p = σ(2x)`.
#[test]
fn two_players_by_hand() {
    let s0 = PARAMS.prior_sd / ELO_PER_NATURAL;
    let mut previous_sd = f64::INFINITY;
    for n in [1u16, 5, 20] {
        let games: Vec<Played> = (0..n)
            .flat_map(|_| [(0, 1, 2, 40), (0, 2, 1, 20)])
            .collect();
        let (_dir, db) = database(&["???", "Alpha Anna", "Beta Bob"], &[(2001, games)]);
        let r = db.ratings(&Query::new(), &PARAMS).unwrap();
        let nf = f64::from(n);
        let x = bisect(0.0, 10.0, |x| {
            x / (s0 * s0) - 2.0 * nf * (1.0 - sigmoid(2.0 * x))
        });
        let (a, b) = (rating(&r, "Alpha Anna", 2001), rating(&r, "Beta Bob", 2001));
        close(a.rating, 1500.0 + x * ELO_PER_NATURAL, 1e-3);
        close(b.rating, 1500.0 - x * ELO_PER_NATURAL, 1e-3);
        close(r.black_advantage(), 0.0, 1e-3);
        let p = sigmoid(2.0 * x);
        let sd = (1.0 / (2.0 * nf * p * (1.0 - p) + 1.0 / (s0 * s0))).sqrt() * ELO_PER_NATURAL;
        close(a.sd, sd, 1e-3);
        close(b.sd, sd, 1e-3);
        // More games: a smaller uncertainty.
        assert!(a.sd < previous_sd);
        previous_sd = a.sd;
        assert_eq!(
            (a.games, a.points, b.games, b.points),
            (2 * u32::from(n), 2.0 * nf, 2 * u32::from(n), 0.0)
        );
        // Ranked unless provisional (above ±100).
        assert_eq!(a.provisional, a.sd > 100.0);
        let ranks = if a.provisional {
            (None, None)
        } else {
            (Some(1), Some(2))
        };
        assert_eq!((a.rank, b.rank), ranks);
        assert_eq!(r.games(), 2 * usize::from(n));
    }
}

#[test]
fn a_player_who_wins_every_game_rises() {
    // Even in 2001, then Alpha wins every game of 2002 and 2003.
    let even = vec![(0, 1, 2, 40), (0, 2, 1, 40), (0, 1, 2, 24), (0, 2, 1, 24)];
    let wins = vec![(0, 1, 2, 40), (0, 2, 1, 24), (0, 1, 2, 50), (0, 2, 1, 10)];
    let (_dir, db) = database(
        &["???", "Alpha Anna", "Beta Bob"],
        &[(2001, even), (2002, wins.clone()), (2003, wins)],
    );
    let r = db.ratings(&Query::new(), &PARAMS).unwrap();
    let a: Vec<f64> = [2001, 2002, 2003]
        .map(|y| rating(&r, "Alpha Anna", y).rating)
        .to_vec();
    let b: Vec<f64> = [2001, 2002, 2003]
        .map(|y| rating(&r, "Beta Bob", y).rating)
        .to_vec();
    assert!(a[0] < a[1] && a[1] < a[2], "{a:?}");
    assert!(b[0] > b[1] && b[1] > b[2], "{b:?}");
    // The whole history: the wins of later years raise the 2001 rating too.
    assert!(a[0] > 1500.0);
    // Every year the two humans average 1500.
    for y in 0..3 {
        close((a[y] + b[y]) / 2.0, 1500.0, 1e-6);
    }
    // Between and around the years played, the fitted curve.
    let alpha = r.player("alpha anna").unwrap();
    assert_eq!(alpha.rating_in(2002), Some(a[1]));
    assert_eq!(alpha.rating_in(1990), Some(a[0]));
    assert_eq!(alpha.rating_in(2030), Some(a[2]));
    assert_eq!(alpha.peak().unwrap().year, 2003);
}

#[test]
fn programs_are_flagged_and_unknown_players_not_rated() {
    let games = vec![
        (0, 1, 2, 40),
        (0, 2, 1, 30),
        (0, 3, 1, 40), // ??? against Alpha: not rated
        (0, 4, 2, 40), // "Doe J ?": not rated
        (0, 1, 1, 32), // Alpha against Alpha: not rated
        (0, 9, 1, 40), // a number beyond the players file
    ];
    let (_dir, db) = database(
        &["x", "Alpha Anna", "Edax (delorme)", "???", "Doe J ?"],
        &[(2001, games)],
    );
    let r = db.ratings(&Query::new(), &PARAMS).unwrap();
    let names: Vec<&str> = r.players().iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["Alpha Anna", "Edax (delorme)"]);
    assert!(!r.player("Alpha Anna").unwrap().program);
    assert!(r.player("Edax (delorme)").unwrap().program);
    assert_eq!(r.games(), 2);
    let left = r.left_out();
    assert_eq!((left.unknown_player, left.same_player), (3, 1));
    // The only human is the mean: 1500.
    close(rating(&r, "Alpha Anna", 2001).rating, 1500.0, 1e-9);
    for name in ["???", "Doe J ?", "?", "", " Eva ? "] {
        assert!(is_unknown_player(name), "{name:?}");
    }
    for name in ["Eva", "Q?bert Jones", "Edax (delorme)"] {
        assert!(!is_unknown_player(name), "{name:?}");
    }
}

#[test]
fn one_name_is_one_player_across_names_files_and_similar_names_are_reported() {
    // Two directories whose players files number the same people
    // differently: one name, one player.
    let first = tempfile::tempdir().unwrap();
    write_names(
        &first.path().join("WTHOR.JOU"),
        &["???", "Alpha Anna", "Beta Bob", "Müller Jan", "Conte Marco"],
    );
    write_games(
        &first.path().join("WTH_2001.wtb"),
        2001,
        &[(0, 1, 2, 40), (0, 3, 4, 40), (0, 2, 3, 30)],
    );
    let second = tempfile::tempdir().unwrap();
    write_names(
        &second.path().join("WTHOR.JOU"),
        &["Beta Bob", "Alpha Anna", "Muller Jan", "Conti Marco"],
    );
    write_games(
        &second.path().join("WTH_2002.wtb"),
        2002,
        &[(0, 1, 0, 40), (0, 2, 3, 40), (0, 0, 2, 40)],
    );
    let db = DatabaseBuilder::new()
        .source(first.path())
        .source(second.path())
        .open()
        .unwrap();
    let r = db.ratings(&Query::new(), &PARAMS).unwrap();
    let alpha = r.player("Alpha Anna").unwrap();
    let years: Vec<u16> = alpha.years.iter().map(|y| y.year).collect();
    assert_eq!(years, [2001, 2002]);
    assert_eq!(r.players().len(), 6);
    let similar: Vec<(&str, &str, Similar)> = r
        .similar_names()
        .iter()
        .map(|s| (s.names[0].as_str(), s.names[1].as_str(), s.how))
        .collect();
    assert_eq!(
        similar,
        [
            ("Conte Marco", "Conti Marco", Similar::OneEdit),
            ("Muller Jan", "Müller Jan", Similar::SameFolded),
        ]
    );
    // Reported, never merged: both are rated.
    assert!(r.player("Müller Jan").is_some() && r.player("Muller Jan").is_some());
    assert_eq!(r.similar_to("Conti Marco").len(), 1);
    // Looked up by folded name only when one player has it.
    assert!(r.player("MULLER JAN").is_none());
    assert_eq!(r.player("beta bob").unwrap().name, "Beta Bob");
    assert_eq!(r.closest("Alfa Ana", 1), ["Alpha Anna"]);
    assert_eq!(r.matching("marco").len(), 2);
}

/// A seeded generator for the random games (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting.
fn solve_dense(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))
            .unwrap();
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (top, below) = a.split_at_mut(col + 1);
        let pivot_row = &top[col];
        for (i, row) in below.iter_mut().enumerate() {
            let f = row[col] / pivot_row[col];
            for (x, p) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                *x -= f * p;
            }
            b[col + 1 + i] -= f * b[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    x
}

/// The inverse of a small symmetric matrix, column by column.
fn inverse(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let columns: Vec<Vec<f64>> = (0..n)
        .map(|j| {
            let e: Vec<f64> = (0..n).map(|i| f64::from(u8::from(i == j))).collect();
            solve_dense(a.to_vec(), e)
        })
        .collect();
    (0..n)
        .map(|i| (0..n).map(|j| columns[j][i]).collect())
        .collect()
}

/// The posterior written out: nodes (player, year), every game a term,
/// the Wiener prior between a player's years, the first year's prior, the
/// first-move effect's N(0, 1); maximised by Newton's method on the full
/// dense Hessian.
#[test]
fn whr_equals_a_direct_maximisation_of_the_posterior() {
    let names = [
        "???",
        "Ann",
        "Bob",
        "Cid",
        "Dan",
        "Eve",
        "Zebra (andersson)",
    ];
    for (seed, margin) in [(7u64, 0.0), (99, 0.3)] {
        let params = Params { margin, ..PARAMS };
        let mut rng = Rng(seed);
        let years = [2001u16, 2002, 2005];
        let mut all: Vec<(u16, Vec<Played>)> = Vec::new();
        for &year in &years {
            let games: Vec<Played> = (0..14)
                .map(|i| {
                    let b = 1 + rng.next(6) as u16;
                    let w = 1 + (u64::from(b) + rng.next(5)) % 6;
                    let discs = [0u8, 20, 31, 32, 32, 33, 40, 64][rng.next(8) as usize];
                    (i / 7, b, w as u16, discs)
                })
                .collect();
            all.push((year, games));
        }
        let (_dir, db) = database(&names, &all);
        let r = db.ratings(&Query::new(), &params).unwrap();

        // The test's own reading: nodes and games.
        let mut nodes: Vec<(u16, u16)> = Vec::new(); // (player number, year)
        let mut games: Vec<(usize, usize, f64)> = Vec::new();
        let node = |p: u16, y: u16, nodes: &mut Vec<(u16, u16)>| {
            nodes.iter().position(|&n| n == (p, y)).unwrap_or_else(|| {
                nodes.push((p, y));
                nodes.len() - 1
            })
        };
        for (year, list) in &all {
            for &(_, b, w, discs) in list {
                let points = match discs.cmp(&32) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                let t = (1.0 - margin) * points + margin * f64::from(discs) / 64.0;
                let (nb, nw) = (node(b, *year, &mut nodes), node(w, *year, &mut nodes));
                games.push((nb, nw, t));
            }
        }
        let n = nodes.len();
        let s0 = (params.prior_sd / ELO_PER_NATURAL).powi(2);
        let w2 = (params.wiener_sd / ELO_PER_NATURAL).powi(2);
        // The prior's pairs: (node, next node of the player, Δt).
        let mut chain: Vec<(usize, usize, f64)> = Vec::new();
        let mut firsts: Vec<usize> = Vec::new();
        for p in 1..names.len() as u16 {
            let mut mine: Vec<usize> = (0..n).filter(|&i| nodes[i].0 == p).collect();
            mine.sort_by_key(|&i| nodes[i].1);
            if let Some(&f) = mine.first() {
                firsts.push(f);
            }
            for pair in mine.windows(2) {
                let dt = f64::from(nodes[pair[1]].1 - nodes[pair[0]].1);
                chain.push((pair[0], pair[1], dt));
            }
        }
        // Gradient and negative Hessian of the log-posterior at x (h last).
        let system = |x: &[f64]| {
            let mut g = vec![0.0; n + 1];
            let mut a = vec![vec![0.0; n + 1]; n + 1];
            for &(b, w, t) in &games {
                let p = sigmoid(x[b] - x[w] + x[n]);
                let c = p * (1.0 - p);
                let idx = [(b, 1.0), (w, -1.0), (n, 1.0)];
                for &(i, si) in &idx {
                    g[i] += si * (t - p);
                    for &(j, sj) in &idx {
                        a[i][j] += si * sj * c;
                    }
                }
            }
            for &f in &firsts {
                g[f] -= x[f] / s0;
                a[f][f] += 1.0 / s0;
            }
            for &(i, j, dt) in &chain {
                let k = 1.0 / (w2 * dt);
                g[i] += k * (x[j] - x[i]);
                g[j] -= k * (x[j] - x[i]);
                a[i][i] += k;
                a[j][j] += k;
                a[i][j] -= k;
                a[j][i] -= k;
            }
            g[n] -= x[n];
            a[n][n] += 1.0;
            (g, a)
        };
        let mut x = vec![0.0; n + 1];
        for _ in 0..50 {
            let (g, a) = system(&x);
            let step = solve_dense(a, g);
            for (xi, s) in x.iter_mut().zip(&step) {
                *xi += s;
            }
        }
        let (g, a) = system(&x);
        assert!(g.iter().all(|v| v.abs() < 1e-10), "{g:?}");
        // The scale: the mean human node at 1500.
        let humans: Vec<usize> = (0..n).filter(|&i| nodes[i].0 != 6).collect();
        let mean = humans.iter().map(|&i| x[i]).sum::<f64>() / humans.len() as f64;
        close(r.black_advantage(), x[n] * ELO_PER_NATURAL, 1e-3);
        for (i, &(p, year)) in nodes.iter().enumerate() {
            let at = rating(&r, names[usize::from(p)], year);
            close(at.rating, 1500.0 + (x[i] - mean) * ELO_PER_NATURAL, 1e-3);
            // The uncertainty: the player's own block of the negative
            // Hessian, inverted.
            let mine: Vec<usize> = (0..n).filter(|&j| nodes[j].0 == p).collect();
            let block: Vec<Vec<f64>> = mine
                .iter()
                .map(|&j| mine.iter().map(|&k| a[j][k]).collect())
                .collect();
            let k = mine.iter().position(|&j| j == i).unwrap();
            let sd = inverse(&block)[k][k].sqrt() * ELO_PER_NATURAL;
            close(at.sd, sd, 1e-4);
        }
        assert_eq!(r.players().iter().map(|p| p.years.len()).sum::<usize>(), n);
        assert!(r.player("Zebra (andersson)").unwrap().program);
    }
}

/// The walk forward predicts a game of 2003 from the fit of every game
/// before its tournament: here, the games of 2001 and of the first
/// tournament of 2003; the second tournament's own games never count.
#[test]
fn the_walk_forward_predicts_from_the_games_before_the_tournament() {
    let y2001 = vec![(0, 1, 2, 40), (0, 2, 1, 20), (0, 1, 3, 40), (0, 3, 2, 33)];
    // 2003: tournament 0 (Bob beats Cid), then tournament 1: one game,
    // Ann against Dan (never seen before).
    let y2003 = vec![(0, 2, 3, 50), (0, 3, 2, 10), (1, 1, 4, 40)];
    let names = ["???", "Ann", "Bob", "Cid", "Dan"];
    let (_dir, db) = database(&names, &[(2001, y2001.clone()), (2003, y2003.clone())]);
    let options = EvaluateOptions {
        first: 2003,
        last: 2003,
        params: PARAMS,
        baselines: wthor_db::ratings::Baselines::FITTED,
    };
    let e = db.evaluate_ratings(&Query::new(), &options).unwrap();
    assert_eq!((e.games, e.tournaments, e.never_seen), (3, 2, 1));
    // The constant: black's mean score of the games before each
    // tournament.
    let before_first = (1.0 + 0.0 + 1.0 + 1.0) / 4.0;
    let before_second = (3.0 + 1.0 + 0.0) / 6.0;
    let loss = |s: f64, p: f64| -(s * p.ln() + (1.0 - s) * (1.0 - p).ln());
    let constant =
        (loss(1.0, before_first) + loss(0.0, before_first) + loss(1.0, before_second)) / 3.0;
    close(e.constant, constant, 1e-12);
    // WHR's prediction of the last game: the fit of the games before it
    // (the same model, through `ratings`, on a database without it):
    // Ann's 2003 rating is her 2001 one with two years of Wiener variance
    // added, Dan's (never seen) the newcomers' prior; the uncertainty
    // widens the logistic (probit approximation).
    let natural = |elo: f64| elo / ELO_PER_NATURAL;
    let spread = |var: f64| (1.0 + std::f64::consts::PI * var / 8.0).sqrt();
    let mut before = y2003.clone();
    before.pop();
    let (_dir2, db2) = database(&names, &[(2001, y2001.clone()), (2003, before)]);
    let fit = db2.ratings(&Query::new(), &PARAMS).unwrap();
    let ann = rating(&fit, "Ann", 2001);
    let var = natural(ann.sd).powi(2)
        + 2.0 * natural(PARAMS.wiener_sd).powi(2)
        + natural(PARAMS.prior_sd).powi(2);
    let d = natural(ann.rating - fit.newcomer_rating() + fit.black_advantage());
    let last = loss(1.0, sigmoid(d / spread(var)));
    // The first two games' losses: from the fit on 2001 alone, Bob and
    // Cid two years on.
    let (_dir3, db3) = database(&names, &[(2001, y2001)]);
    let fit = db3.ratings(&Query::new(), &PARAMS).unwrap();
    let (bob, cid) = (rating(&fit, "Bob", 2001), rating(&fit, "Cid", 2001));
    let var =
        natural(bob.sd).powi(2) + natural(cid.sd).powi(2) + 4.0 * natural(PARAMS.wiener_sd).powi(2);
    let edge = natural(fit.black_advantage());
    let diff = natural(bob.rating - cid.rating);
    let first = loss(1.0, sigmoid((diff + edge) / spread(var)));
    let second = loss(0.0, sigmoid((-diff + edge) / spread(var)));
    close(e.whr, (first + second + last) / 3.0, 1e-6);
    assert!(e.elo.is_finite() && e.glicko2.is_finite() && e.whr_other_margin.is_finite());
}

#[test]
fn bad_input_is_an_error_never_a_panic() {
    let (_dir, db) = database(&["???", "Ann", "Bob"], &[(2001, vec![(0, 1, 2, 40)])]);
    for (params, what) in [
        (
            Params {
                wiener_sd: 0.0,
                ..PARAMS
            },
            "wiener_sd",
        ),
        (
            Params {
                prior_sd: f64::NAN,
                ..PARAMS
            },
            "prior_sd",
        ),
        (
            Params {
                provisional_sd: -1.0,
                ..PARAMS
            },
            "provisional_sd",
        ),
        (
            Params {
                margin: 1.5,
                ..PARAMS
            },
            "margin",
        ),
    ] {
        match db.ratings(&Query::new(), &params) {
            Err(RatingsError::Params { what: w, .. }) => assert_eq!(w, what),
            other => panic!("{other:?}"),
        }
    }
    let options = |first, last| EvaluateOptions {
        first,
        last,
        params: PARAMS,
        baselines: wthor_db::ratings::Baselines::FITTED,
    };
    assert_eq!(
        db.evaluate_ratings(&Query::new(), &options(2005, 2001))
            .unwrap_err(),
        RatingsError::EmptyYears {
            first: 2005,
            last: 2001
        }
    );
    let err = db
        .evaluate_ratings(&Query::new(), &options(2010, 2012))
        .unwrap_err();
    assert_eq!(
        err,
        RatingsError::NothingToPredict {
            first: 2010,
            last: 2012
        }
    );
    assert_eq!(err.to_string(), "no rated game in 2010..2012 to predict");
    // A selection without any rated game: no player, no year.
    let r = db
        .ratings(&Query::new().years(Some(1990), Some(1991)), &PARAMS)
        .unwrap();
    assert!(r.players().is_empty() && r.years().is_empty() && r.year(2001).is_empty());
    assert!(r.player("Ann").is_none() && r.closest("Ann", 3).is_empty());
    // A year without games: an empty list; a name nobody has: the closest.
    let r = db.ratings(&Query::new(), &PARAMS).unwrap();
    assert!(r.year(1999).is_empty());
    assert_eq!(r.years(), [2001]);
    assert!(r.player("Zed").is_none());
    assert_eq!(r.closest("Anne", 1), ["Ann"]);
    // Only close names: nothing is close to a text like no name.
    assert!(r.closest("Zed", 3).is_empty(), "{:?}", r.closest("Zed", 3));
    assert!(r.closest("xyzzyq", 3).is_empty());
}

/// The whole real archive: every game rated but those of unknown players
/// (counted here by reading the names), the mean human player-year at
/// 1500, programs flagged, a list for every year.
#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_archive_ratings() {
    let data = crate::wthor_data();
    let db = Database::open(data.join("wthor")).unwrap();
    let r = db.ratings(&Query::new(), &Params::FITTED).unwrap();
    let (mut unknown, mut same) = (0, 0);
    for (file, index, _) in db.games() {
        let id = wthor_db::GameId::new(file, index);
        let names = [db.black(id), db.white(id)].map(|n| n.name.map(str::trim));
        match names {
            [Some(b), Some(w)] if [b, w].iter().any(|n| n.is_empty() || n.ends_with('?')) => {
                unknown += 1;
            }
            [Some(_), Some(_)] if names[0] == names[1] => same += 1,
            [Some(_), Some(_)] => {}
            _ => unknown += 1,
        }
    }
    let left = r.left_out();
    assert_eq!(
        (left.unknown_player, left.same_player, left.ten_by_ten),
        (unknown, same, 0)
    );
    assert_eq!(r.games() + unknown + same, 137_548);
    assert!(r.players().iter().all(|p| !p.name.ends_with('?')));
    let humans: Vec<f64> = r
        .players()
        .iter()
        .filter(|p| !p.program)
        .flat_map(|p| p.years.iter().map(|y| y.rating))
        .collect();
    close(
        humans.iter().sum::<f64>() / humans.len() as f64,
        1500.0,
        1e-6,
    );
    assert!(r.player("Logistello (buro)").unwrap().program);
    assert_eq!(r.years(), (1977..=2025).collect::<Vec<u16>>());
    // White scores more: black's edge is negative.
    assert!(r.black_advantage() < 0.0);
    for y in r.years() {
        let list = r.year(y);
        // The established players by rank, then the provisional ones.
        let ranked = list.iter().take_while(|x| x.rank.is_some()).count();
        let ranks: Vec<Option<u32>> = list.iter().map(|x| x.rank).collect();
        let expected: Vec<Option<u32>> = (1..=ranked as u32)
            .map(Some)
            .chain(std::iter::repeat_n(None, list.len() - ranked))
            .collect();
        assert_eq!(ranks, expected);
        assert!(list.iter().all(|x| x.rank.is_some() != x.at.provisional));
        assert!(
            list[..ranked]
                .windows(2)
                .all(|w| w[0].at.rating >= w[1].at.rating)
        );
        assert!(
            list[ranked..]
                .windows(2)
                .all(|w| w[0].at.rating >= w[1].at.rating)
        );
    }
}

/// The whole database's ratings kept in a file: fitted and written the
/// first time, read back the same afterwards; a changed database, other
/// parameters or a damaged file give a new fit that replaces the file; a
/// file that cannot be written is a note, never an error.
#[test]
fn kept_ratings_are_read_back_until_the_database_changes() {
    let (dir, db) = database(
        &["Ann", "Bob", "Cid"],
        &[(2001, vec![(0, 0, 1, 40), (0, 1, 2, 30), (0, 2, 0, 33)])],
    );
    let file = dir.path().join("cache").join("kept.json");
    let first = db.cached_ratings(&Params::FITTED, &file).unwrap();
    assert!(!first.read && first.note.is_none());
    let again = db.cached_ratings(&Params::FITTED, &file).unwrap();
    assert!(again.read && again.note.is_none());
    assert_eq!(again.ratings.players(), first.ratings.players());
    assert_eq!(again.ratings.similar_names(), first.ratings.similar_names());
    assert_eq!(again.ratings.games(), first.ratings.games());
    assert_eq!(again.ratings.params(), first.ratings.params());
    assert_eq!(
        again.ratings.black_advantage(),
        first.ratings.black_advantage()
    );
    // The look-up by name works on ratings read back.
    assert!(again.ratings.player("bob").is_some());
    // Other parameters: fitted again, the file replaced.
    let other = Params {
        margin: 0.0,
        ..Params::FITTED
    };
    let refit = db.cached_ratings(&other, &file).unwrap();
    assert!(!refit.read);
    assert!(refit.note.unwrap().contains("of other parameters"));
    assert!(db.cached_ratings(&other, &file).unwrap().read);
    // Another database (one more game): another key, fitted again.
    let (_dir2, db2) = database(
        &["Ann", "Bob", "Cid"],
        &[(
            2001,
            vec![(0, 0, 1, 40), (0, 1, 2, 30), (0, 2, 0, 33), (0, 0, 2, 50)],
        )],
    );
    assert_ne!(db2.content_key(), db.content_key());
    let changed = db2.cached_ratings(&other, &file).unwrap();
    assert!(!changed.read);
    assert!(changed.note.unwrap().contains("another database"));
    assert_eq!(changed.ratings.games(), 4);
    // Damaged.
    std::fs::write(&file, b"{\"format\":").unwrap();
    let damaged = db2.cached_ratings(&other, &file).unwrap();
    assert!(!damaged.read && damaged.note.unwrap().contains("damaged"));
    // A file under a file cannot be written: a note, the ratings fitted.
    let blocked = file.join("under.json");
    let unwritable = db.cached_ratings(&Params::FITTED, &blocked).unwrap();
    assert!(unwritable.note.unwrap().contains("could not be kept"));
    assert_eq!(unwritable.ratings.players(), first.ratings.players());
    // The default file is named by the database's key.
    if let Some(path) = wthor_db::ratings::default_cache_path(&db) {
        assert!(path.ends_with(format!("wthor/ratings-{}.json", db.content_key())));
    }
}

/// `Ratings::find`, the one lookup of a player by what a user types: the
/// whole name in any case, a part of one name, the closest names for a
/// name nobody has, the players a part names when it names several.
#[test]
fn find_takes_a_whole_name_or_a_part_and_says_why_not() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let ratings = Database::open(root)
        .unwrap()
        .ratings(&Query::new(), &Params::FITTED)
        .unwrap();
    assert_eq!(
        ratings.find("TAKUJI NAKAMURA").unwrap().name,
        "Takuji Nakamura"
    );
    assert_eq!(ratings.find("nakamu").unwrap().name, "Takuji Nakamura");
    match ratings.find("Takuji Nakamora").unwrap_err() {
        e @ FindError::NoPlayer { .. } => {
            let FindError::NoPlayer { rated, closest, .. } = &e else {
                unreachable!()
            };
            assert!(rated);
            assert_eq!(closest.first().map(String::as_str), Some("Takuji Nakamura"));
            assert!(
                e.to_string().contains("the closest names: Takuji Nakamura"),
                "{e}"
            );
        }
        e => panic!("{e:?}"),
    }
    match ratings.find("an").unwrap_err() {
        e @ FindError::Several { .. } => {
            let FindError::Several { count, some, .. } = &e else {
                unreachable!()
            };
            assert!(*count > 1 && some.len() == (*count).min(10), "{e:?}");
            assert!(
                some.iter().all(|n| n.to_lowercase().contains("an")),
                "{some:?}"
            );
            assert!(e.to_string().contains("give the whole name"), "{e}");
        }
        e => panic!("{e:?}"),
    }
}
