//! The analysis of whole games (`wthor_db::analysis`), one thread:
//! `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA` (the folder
//! holding `wthor/`).
//!
//! First the estimates: `ANALYZE_GAMES` games (default 200; 10 with
//! `WTHOR_BENCH_QUICK`) of 2024–2025 drawn at random (fixed seed), each
//! analysed up to its first position of 20 empties or fewer, every move
//! estimated (at `ANALYZE_DEPTH` plies, default the library's): the median,
//! mean and 90th percentile of the seconds a game's estimates take, on the
//! CPU (Linux: `/proc/thread-self/schedstat`; the machine may be shared)
//! and on the wall clock, what the default depth is chosen by; and the
//! jump of the value line where the exact part begins: the mean of
//! |last estimate − first exact value| (black's view), beside its floor,
//! the same with the last estimated position solved (the discs the move
//! played there lost: what a perfect estimate would give).
//!
//! Then the exact part: `ANALYZE_GAMES` games of the whole top-level
//! database analysed from 20 empties, then from 24 (`ANALYZE_EMPTIES`, a
//! comma-separated list, changes the depths), each game with a fresh
//! analyzer (a 2^21-entry solver table) whose table its own positions
//! share; the median and 90th percentile of the wall-clock seconds a
//! game takes (its estimates included), and the estimate of the whole
//! archive in core-hours (the mean times the 8x8 games).

use std::time::{Duration, Instant};

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Color, Move};
use wthor_db::analysis::{AnalysisOptions, Analyzer, analyze_game, analyze_moves};
use wthor_db::index::IndexChoice;
use wthor_db::verify::median_p90;
use wthor_db::{Database, GameId};

/// The CPU time of this thread, where Linux tells it.
fn cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace()
        .next()?
        .parse()
        .ok()
        .map(Duration::from_nanos)
}

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
    let estimate_depth: u32 = std::env::var("ANALYZE_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(AnalysisOptions::default().estimate_depth);
    let db = Database::open(std::path::Path::new(&data).join("wthor")).expect("readable database");
    let eight = |id: &GameId| {
        db.game(*id)
            .is_some_and(|g| g.board_size() == wthor_format::BoardSize::Eight)
    };
    let scan = db.searcher(IndexChoice::Never);
    let all: Vec<GameId> = scan
        .search(&wthor_db::Query::new())
        .expect("every game")
        .value
        .into_iter()
        .filter(eight)
        .collect();
    let recent: Vec<GameId> = scan
        .search(&wthor_db::Query::new().years(Some(2024), Some(2025)))
        .expect("the games of 2024-2025")
        .value
        .into_iter()
        .filter(eight)
        .collect();
    estimates(
        &db,
        &wthor_db::verify::sample_of(&recent, count, 0x5754_484f_5232_0037),
        estimate_depth,
    );
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
            let mut analyzer = Analyzer::new(SolverOptions {
                threads: 1,
                tt_bits: 21,
            })
            .expect("the tables");
            let t = Instant::now();
            // An illegal record is skipped (the archive has none).
            if let Ok(a) = analyze_game(&g, depth, &options, &mut analyzer) {
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

/// The estimates of the games `sample` at `depth` plies: their time per
/// game and the jump of the value line where the exact part begins (from
/// 20 empties).
fn estimates(db: &Database, sample: &[GameId], depth: u32) {
    const EMPTIES: u32 = 20;
    let options = AnalysisOptions {
        empties: 0,
        estimate_depth: depth,
        estimate_time: None,
    };
    let mut analyzer = Analyzer::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    })
    .expect("the tables");
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 21,
    });
    let (mut cpu, mut wall) = (Vec::new(), Vec::new());
    let (mut jump, mut floor, mut games) = (0.0, 0.0, 0);
    for &id in sample {
        let g = db.game(id).expect("a sampled game");
        let mut before = Board8::start();
        let mut moves = Vec::new();
        let mut positions = Vec::new();
        replay_with::<Board8, _, _>(wthor_tokens::<Board8>(g.moves_raw()), |step| {
            if matches!(step.mv, Move::Play(_)) {
                positions.push(before);
            }
            if before.empty_count() > EMPTIES {
                moves.push(step.mv);
            }
            before = step.board;
        });
        // The moves before 20 empties, each estimated (the position
        // reached, the first exact one, too: one more search).
        let (c, t) = (cpu_time(), Instant::now());
        let Ok(a) = analyze_moves(&moves, &options, &mut analyzer) else {
            continue;
        };
        wall.push(t.elapsed().as_secs_f64());
        if let Some(c) = c.zip(cpu_time()).map(|(a, b)| b - a) {
            cpu.push(c.as_secs_f64());
        }
        let (Some(last), Some(first), Some(estimate)) = (
            positions.iter().rfind(|b| b.empty_count() > EMPTIES),
            positions.iter().find(|b| b.empty_count() <= EMPTIES),
            a.moves.last().map(|m| m.black_value()),
        ) else {
            continue;
        };
        let black = |b: &Board8, v: i32| {
            if b.side_to_move() == Color::Black {
                v
            } else {
                -v
            }
        };
        let exact = black(first, solver.solve(first.player(), first.opponent()).score);
        let solved = black(last, solver.solve(last.player(), last.opponent()).score);
        jump += f64::from((estimate - exact).abs());
        floor += f64::from((solved - exact).abs());
        games += 1;
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    println!("bench: analyze.estimates.games = {} games", wall.len());
    println!("bench: analyze.estimates.depth = {depth} plies");
    for (name, mut v) in [("cpu", cpu), ("wall", wall)] {
        let m = mean(&v);
        let (median, p90) = median_p90(&mut v).unwrap_or((0.0, 0.0));
        println!("bench: analyze.estimates.{name}_median = {median:.3} s a game");
        println!("bench: analyze.estimates.{name}_mean = {m:.3} s a game");
        println!("bench: analyze.estimates.{name}_p90 = {p90:.3} s a game");
    }
    let games = f64::from(games).max(1.0);
    println!(
        "bench: analyze.estimates.jump = {:.2} discs (|last estimate - first exact value|, mean)",
        jump / games
    );
    println!(
        "bench: analyze.estimates.jump_floor = {:.2} discs (the same, the last estimated position solved)",
        floor / games
    );
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
