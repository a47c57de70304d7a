//! Replay and check every game of the top-level WTHOR database with rayon:
//! `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA` (the folder
//! holding `wthor/`). Wall-clock on a shared machine: noisy.

use std::time::Instant;

use wthor_db::Database;

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let dir = std::path::Path::new(&data).join("wthor");
    let threads = rayon::current_num_threads();
    let mut best_total = f64::MAX;
    let mut best_check = f64::MAX;
    let mut best_seq = f64::MAX;
    let mut games = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        let db = Database::open(&dir).expect("readable database");
        let t1 = Instant::now();
        let s = db.par_check_games();
        let t2 = Instant::now();
        let q = db.check_games();
        let t3 = Instant::now();
        assert_eq!(s, q);
        games = s.totals.games;
        best_total = best_total.min((t2 - t0).as_secs_f64());
        best_check = best_check.min((t2 - t1).as_secs_f64());
        best_seq = best_seq.min((t3 - t2).as_secs_f64());
    }
    println!("bench: replay_all.games = {games} games");
    println!("bench: replay_all.threads = {threads} threads");
    println!("bench: replay_all.parallel = {:.1} ms", best_check * 1e3);
    println!(
        "bench: replay_all.parallel_with_open = {:.1} ms",
        best_total * 1e3
    );
    println!("bench: replay_all.sequential = {:.1} ms", best_seq * 1e3);
}
