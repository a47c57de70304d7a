//! The ratings over the top-level WTHOR database (`$WTHOR_DATA/wthor`):
//! `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA`.
//!
//! The whole history fitted (best of 7 runs, 3 with `WTHOR_BENCH_QUICK`),
//! then the validation over 2021–2025 (one run: its four log-losses, the
//! share of games with a player never seen, the disc margin's effect, the
//! time). With `RATINGS_TUNE=1`, the parameters fitted on 2010–2020 first
//! ([`wthor_db::ratings::tune`], a few minutes).

use std::time::Instant;

use wthor_db::Query;
use wthor_db::ratings::{EvaluateOptions, Params, tune};

mod common;
use common::best;

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let dir = std::path::Path::new(&data).join("wthor");
    let db = wthor_db::DatabaseBuilder::new()
        .source(&dir)
        .open()
        .expect("readable database");
    let query = Query::new();
    if std::env::var_os("RATINGS_TUNE").is_some() {
        let t = Instant::now();
        let tuned = tune(&db, &query, 2010, 2020, &Params::FITTED).expect("tuning");
        println!(
            "bench: ratings.tune = {:.1} s ({} walks over {} games)",
            t.elapsed().as_secs_f64(),
            tuned.walks,
            tuned.games
        );
        println!("tuned: {tuned:?}");
    }
    let (ms, ratings) = best(|| db.ratings(&query, &Params::FITTED).expect("ratings"));
    println!("bench: ratings.fit = {ms:.0} ms");
    println!(
        "bench: ratings.fit_newton_steps = {} steps ({} games, {} players)",
        ratings.newton_steps(),
        ratings.games(),
        ratings.players().len()
    );
    println!(
        "bench: ratings.black_advantage = {:.1} Elo",
        ratings.black_advantage()
    );
    let t = Instant::now();
    let e = db
        .evaluate_ratings(&query, &EvaluateOptions::years(2021, 2025))
        .expect("evaluation");
    let secs = t.elapsed().as_secs_f64();
    println!(
        "bench: ratings.evaluate = {secs:.1} s ({} games, {} tournaments)",
        e.games, e.tournaments
    );
    println!("bench: ratings.whr = {:.4} log-loss", e.whr);
    println!(
        "bench: ratings.whr_other_margin = {:.4} log-loss (margin {})",
        e.whr_other_margin, e.other_margin
    );
    println!("bench: ratings.elo = {:.4} log-loss", e.elo);
    println!("bench: ratings.glicko2 = {:.4} log-loss", e.glicko2);
    println!("bench: ratings.constant = {:.4} log-loss", e.constant);
    println!(
        "bench: ratings.never_seen = {:.1} % ({} games)",
        100.0 * e.never_seen as f64 / e.games as f64,
        e.never_seen
    );
}
