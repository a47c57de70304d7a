//! The analysis of whole games (`wthor_db::analysis`), one thread:
//! `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA` (the folder
//! holding `wthor/`).
//!
//! `ANALYZE_GAMES` games (default 200; 10 with `WTHOR_BENCH_QUICK`) drawn
//! at random (fixed seed) from the 8x8 games of the top-level database
//! are analysed from 20 empties, then from 24 (`ANALYZE_EMPTIES`, a
//! comma-separated list, changes the depths), each game with a fresh
//! solver (a 2^21-entry table) whose table its own positions share; the
//! median and 90th percentile of the wall-clock seconds a game takes, and
//! the estimate of the whole archive in core-hours (the mean times the
//! 8x8 games).

use std::time::Instant;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Move};
use wthor_db::analysis::{AnalysisOptions, analyze_game};
use wthor_db::verify::median_p90;
use wthor_db::{Database, GameId};

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let quick = std::env::var_os("WTHOR_BENCH_QUICK").is_some();
    let count: usize = std::env::var("ANALYZE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 10 } else { 200 });
    let depths: Vec<u8> = std::env::var("ANALYZE_EMPTIES")
        .ok()
        .map(|v| v.split(',').filter_map(|d| d.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![20, 24]);
    let db = Database::open(std::path::Path::new(&data).join("wthor")).expect("readable database");
    let all: Vec<GameId> = db
        .search(&wthor_db::Query::new())
        .expect("every game")
        .into_iter()
        .filter(|&id| {
            db.game(id)
                .is_some_and(|g| g.board_size() == wthor_format::BoardSize::Eight)
        })
        .collect();
    // A fixed sample of the game list.
    let sample: Vec<GameId> = wthor_db::verify::sample_of(&all, count, 0x5754_484f_5232_0002);
    println!("bench: analyze.games = {} games", sample.len());
    for empties in depths {
        let options = AnalysisOptions {
            empties,
            ..AnalysisOptions::default()
        };
        let mut seconds = Vec::with_capacity(sample.len());
        let mut single = Vec::with_capacity(sample.len());
        let mut moves = 0;
        for &id in &sample {
            let g = db.game(id).expect("a sampled game");
            let depth = db.file_of(id).expect("its file").header().depth();
            let mut solver = Solver::new(SolverOptions {
                threads: 1,
                tt_bits: 21,
            });
            let t = Instant::now();
            // An illegal record is skipped (the archive has none).
            if let Ok(a) = analyze_game(&g, depth, &options, &mut solver) {
                seconds.push(t.elapsed().as_secs_f64());
                moves += a.moves.iter().filter(|m| m.exact).count();
                // The reference: one solve of the game's first exact
                // position with a fresh solver.
                if let Some(first) = a.moves.iter().find(|m| m.exact) {
                    let board = position_before(&g, first.index);
                    let mut fresh = Solver::new(SolverOptions {
                        threads: 1,
                        tt_bits: 21,
                    });
                    let t = Instant::now();
                    fresh.solve(board.player(), board.opponent());
                    single.push(t.elapsed().as_secs_f64());
                }
            }
        }
        let mean = seconds.iter().sum::<f64>() / seconds.len().max(1) as f64;
        let (median, p90) = median_p90(&mut seconds).unwrap_or((0.0, 0.0));
        println!("bench: analyze.from_{empties}.median = {median:.3} s");
        println!("bench: analyze.from_{empties}.p90 = {p90:.3} s");
        println!("bench: analyze.from_{empties}.exact_moves = {moves} moves");
        let (one, _) = median_p90(&mut single).unwrap_or((0.0, 0.0));
        println!(
            "bench: analyze.from_{empties}.one_solve_median = {one:.3} s (the first exact position alone, fresh solver; the analysis {:.1}x that)",
            median / one.max(1e-9)
        );
        println!(
            "bench: analyze.from_{empties}.archive = {:.1} core-hours ({} games x mean {mean:.3} s)",
            mean * all.len() as f64 / 3600.0,
            all.len()
        );
    }
}

/// The position of `game` before the disc of record index `index` is
/// played.
fn position_before(game: &wthor_format::GameView<'_>, index: usize) -> Board8 {
    let mut before = Board8::start();
    let mut found = None;
    replay_with::<Board8, _, _>(wthor_tokens::<Board8>(game.moves_raw()), |step| {
        if found.is_none() && step.index == index && matches!(step.mv, Move::Play(_)) {
            found = Some(before);
        }
        before = step.board;
    });
    found.expect("the move is in the record")
}
