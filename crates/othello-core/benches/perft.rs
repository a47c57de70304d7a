//! Perft timings, one thread: `bench: <name> = <value> <unit>` lines.
//!
//! `cargo bench -p othello-core --bench perft` runs 8x8 depths 11 and 12 and
//! 10x10 depths 9 and 10; arguments `SIZE:DEPTH` choose others
//! (`-- 8:11 10:11`). Each figure is the best of a few runs, as wall-clock
//! seconds and as on-CPU seconds of the thread (from
//! `/proc/thread-self/schedstat`, Linux): on a shared machine the wall clock
//! also counts the time spent waiting for a core, the CPU time does not.

use std::time::Instant;

use othello_core::perft::perft;
use othello_core::{Board, Board8, Board10};

/// Nanoseconds this thread has spent on a CPU, if the kernel says.
fn cpu_ns() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn run<B: Board>(name: &str, depth: u32) {
    let runs = if depth >= 12 { 1 } else { 3 };
    let (mut wall, mut cpu) = (f64::MAX, f64::MAX);
    let mut n = 0;
    for _ in 0..runs {
        let c0 = cpu_ns();
        let start = Instant::now();
        n = perft(&B::start(), depth);
        wall = wall.min(start.elapsed().as_secs_f64());
        if let (Some(a), Some(b)) = (c0, cpu_ns()) {
            cpu = cpu.min((b - a) as f64 / 1e9);
        }
    }
    println!("bench: {name}.d{depth} = {wall:.3} s");
    if cpu < f64::MAX {
        println!("bench: {name}.d{depth}.cpu = {cpu:.3} s");
    }
    println!("bench: {name}.d{depth}.count = {n} leaves");
    println!(
        "bench: {name}.d{depth}.rate = {:.1} Mleaves/s",
        n as f64 / cpu.min(wall) / 1e6
    );
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let jobs: Vec<(u32, u32)> = if args.is_empty() {
        vec![(8, 11), (8, 12), (10, 9), (10, 10)]
    } else {
        args.iter()
            .filter_map(|a| {
                let (s, d) = a.split_once(':')?;
                Some((s.parse().ok()?, d.parse().ok()?))
            })
            .collect()
    };
    for (size, depth) in jobs {
        match size {
            8 => run::<Board8>("perft8", depth),
            10 => run::<Board10>("perft10", depth),
            _ => eprintln!("unknown size {size}"),
        }
    }
}
