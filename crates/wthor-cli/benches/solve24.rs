//! Exact solving of real game positions at 24 empties (the WTHOR depth),
//! one thread: a deterministic random sample of the games of
//! `$WTHOR_DATA/wthor/WTH_2025.wtb` (`SAMPLE` games, default 200, seed 1),
//! each replayed to 24 empties and solved by a fresh single-threaded solver.
//! Prints `bench: <name> = <value> <unit>` lines: median and 90th
//! percentile seconds per game and nodes per second, by the wall clock and
//! (Linux) by the thread's on-CPU time, which a shared machine does not
//! inflate; and how many stored theoretical scores agreed.
//!
//! `cargo bench -p wthor-cli --bench solve24` (`SAMPLE=20` for a quick run).

use std::path::PathBuf;
use std::time::Instant;

use othello_core::replay::{Reach, replay_to_empties};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8};
use wthor_db::verify::{black_discs, median_p90, select};
use wthor_format::{ReadOptions, parse_game_file};

#[path = "../src/cpu_time.rs"]
mod cpu_time;
use cpu_time::thread_cpu_seconds;

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("bench: solve24 skipped: WTHOR_DATA not set");
        return;
    };
    let path = PathBuf::from(data).join("wthor/WTH_2025.wtb");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let file = parse_game_file(&bytes, &ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let sample: usize = std::env::var("SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let depth = file.header().depth();
    let picked = select(&[file.len()], Some((sample, 1)), None);
    let mut times = Vec::new();
    let mut cpu_times = Vec::new();
    let (mut nodes, mut agree) = (0u64, 0usize);
    let (mut total, mut total_cpu) = (0.0, 0.0);
    for &(_, i) in &picked {
        let game = file.get(i).expect("index below the count");
        let Reach::At { board, .. } = replay_to_empties::<Board8>(game.moves_raw(), depth.into())
        else {
            continue;
        };
        let mut solver = Solver::new(SolverOptions {
            threads: 1,
            tt_bits: 22,
        });
        let t = Instant::now();
        let c = thread_cpu_seconds();
        let s = solver.solve(board.player(), board.opponent());
        let secs = t.elapsed().as_secs_f64();
        if let Some(cpu) = c.zip(thread_cpu_seconds()).map(|(a, b)| b - a) {
            cpu_times.push(cpu);
            total_cpu += cpu;
        }
        total += secs;
        nodes += s.nodes;
        times.push(secs);
        agree +=
            usize::from(black_discs(s.score, board.side_to_move()) == game.theoretical_score());
        eprintln!("game {i}: {:+} in {secs:.2} s, {} nodes", s.score, s.nodes);
    }
    let solved = times.len();
    let Some((median, p90)) = median_p90(&mut times) else {
        println!("bench: solve24 skipped: no game reaches {depth} empties");
        return;
    };
    println!("bench: solve24_games = {solved} games");
    println!("bench: solve24_median = {median:.3} s");
    println!("bench: solve24_p90 = {p90:.3} s");
    println!(
        "bench: solve24_nodes_per_second = {:.0} nodes/s",
        nodes as f64 / total
    );
    if let Some((median, p90)) = median_p90(&mut cpu_times) {
        println!("bench: solve24_cpu_median = {median:.3} s");
        println!("bench: solve24_cpu_p90 = {p90:.3} s");
        println!(
            "bench: solve24_cpu_nodes_per_second = {:.0} nodes/s",
            nodes as f64 / total_cpu
        );
    }
    println!("bench: solve24_stored_agree = {agree} games");
}
