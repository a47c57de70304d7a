//! Replay and check every game of the top-level WTHOR database with rayon:
//! `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA` (the folder
//! holding `wthor/`).
//!
//! Figures are the best of 5 runs: wall-clock milliseconds of the parallel
//! check (files already open, and including opening: mmap and parsing), the
//! on-CPU milliseconds of all threads (Linux `/proc/self/task/*/schedstat`),
//! and the sequential check for comparison. On a shared machine the wall
//! clock includes waiting for a core; CPU time / threads is what two free
//! cores would take.

use std::time::Instant;

use wthor_db::Database;

/// Nanoseconds all threads of the process have spent on a CPU.
fn cpu_ns() -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let s = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += s.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let dir = std::path::Path::new(&data).join("wthor");
    let threads = rayon::current_num_threads();
    let (mut total, mut check, mut cpu, mut seq) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let mut games = 0;
    let mut moves = 0;
    for _ in 0..5 {
        let t0 = Instant::now();
        let db = Database::open(&dir).expect("readable database");
        let t1 = Instant::now();
        let c1 = cpu_ns();
        let s = db.par_check_games();
        let c2 = cpu_ns();
        let t2 = Instant::now();
        let q = db.check_games();
        let t3 = Instant::now();
        assert_eq!(s, q);
        games = s.totals.games;
        moves = s.totals.moves;
        total = total.min((t2 - t0).as_secs_f64());
        check = check.min((t2 - t1).as_secs_f64());
        seq = seq.min((t3 - t2).as_secs_f64());
        if let (Some(a), Some(b)) = (c1, c2) {
            cpu = cpu.min((b - a) as f64 / 1e9);
        }
    }
    println!("bench: replay_all.games = {games} games");
    println!("bench: replay_all.moves = {moves} moves");
    println!("bench: replay_all.threads = {threads} threads");
    println!("bench: replay_all.parallel = {:.1} ms", check * 1e3);
    println!(
        "bench: replay_all.parallel_with_open = {:.1} ms",
        total * 1e3
    );
    if cpu < f64::MAX {
        println!("bench: replay_all.parallel_cpu = {:.1} ms", cpu * 1e3);
    }
    println!("bench: replay_all.sequential = {:.1} ms", seq * 1e3);
}
