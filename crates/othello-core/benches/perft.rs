//! Perft timings, one thread: `bench: <name> = <value> <unit>` lines.
//!
//! Run with `cargo bench -p othello-core --bench perft`; pass depths as
//! arguments to restrict (`-- 8:11 10:9`), default 8x8 d11, d12 and 10x10 d9,
//! d10. Figures are wall-clock seconds of one run on a shared machine: noisy.

use std::time::Instant;

use othello_core::perft::perft;
use othello_core::{Board, Board8, Board10};

fn run<B: Board>(name: &str, depth: u32) {
    let start = Instant::now();
    let n = perft(&B::start(), depth);
    let secs = start.elapsed().as_secs_f64();
    println!("bench: {name}.d{depth} = {secs:.3} s");
    println!("bench: {name}.d{depth}.count = {n} leaves");
    println!(
        "bench: {name}.d{depth}.rate = {:.1} Mleaves/s",
        n as f64 / secs / 1e6
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
