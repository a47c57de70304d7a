//! FFO endgame suite benchmark of the exact solver.
//!
//! ```text
//! WTHOR_DATA=/work/shared/data cargo bench -p othello-core --bench ffo
//! FFO=40-44 THREADS=2 TT_BITS=24 cargo bench -p othello-core --bench ffo
//! ```
//!
//! The solver picks its x86-64-v3 code at run time when the processor has
//! it; `RUSTFLAGS="-C target-cpu=native" cargo bench --target-dir
//! target/native …` also compiles the rest (the evaluation, the table) for
//! the machine.
//!
//! `FFO` picks the positions (`40-49` by default, the headline figure;
//! `n` or `a-b`; `none` to skip), `THREADS` the search threads (1),
//! `TT_BITS` the table size (2^22 entries). Each position is solved with an
//! empty table; each figure is printed as `bench: <name> = <value> <unit>`.
//! A wrong score or best move exits with an error.
//!
//! `GAMES24=n` also solves the positions at 24 empties of `n` games spread
//! evenly over `$WTHOR_DATA/transcripts/logistello_logbook_first5000.gam`
//! (Logistello's book games, real tournament-strength play) and prints
//! the median and 90th percentile time.

use othello_core::solver::{Solver, SolverOptions};
use std::process::ExitCode;
use std::time::Instant;

/// One FFO line: discs of the side to move and of the opponent, and the
/// published scores `(square, score)`, best first.
type Ffo = (u64, u64, Vec<(u8, i32)>);

/// Reads one FFO line.
fn parse_obf(line: &str) -> Option<Ffo> {
    let (board, rest) = line.split_at_checked(64)?;
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'X' => black |= 1 << i,
            b'O' => white |= 1 << i,
            b'-' => {}
            _ => return None,
        }
    }
    let mut items = rest.trim().split(';');
    let (p, o) = match items.next()?.trim() {
        "X" => (black, white),
        "O" => (white, black),
        _ => return None,
    };
    let mut scores = Vec::new();
    for item in items.map(str::trim).filter(|s| !s.is_empty()) {
        let (mv, score) = item.split_once(':')?;
        let b = mv.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let sq = (b[0].to_ascii_lowercase().checked_sub(b'a')?) + 8 * (b[1].checked_sub(b'1')?);
        scores.push((sq, score.parse().ok()?));
    }
    Some((p, o, scores))
}

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> ExitCode {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return ExitCode::SUCCESS;
    };
    let range = std::env::var("FFO").unwrap_or_else(|_| "40-49".to_owned());
    let (first, last) = match range.split_once('-') {
        _ if range == "none" => (1, 0),
        Some((a, b)) => (a.parse().unwrap_or(40), b.parse().unwrap_or(49)),
        None => {
            let n = range.parse().unwrap_or(40);
            (n, n)
        }
    };
    let threads = env_or("THREADS", 1usize);
    let tt_bits = env_or("TT_BITS", 22u32);
    let dir = std::path::Path::new(&data).join("ffo");
    let mut positions = Vec::new();
    for (name, start) in [
        ("fforum-1-19.obf", 1),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 40),
    ] {
        let text = match std::fs::read_to_string(dir.join(name)) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", dir.join(name).display());
                return ExitCode::FAILURE;
            }
        };
        for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
            let id = start + i;
            if (first..=last).contains(&id) {
                match parse_obf(line) {
                    Some(pos) => positions.push((id, pos)),
                    None => {
                        eprintln!("{name}: bad line {}", i + 1);
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
    }
    let mut solver = Solver::new(SolverOptions { threads, tt_bits });
    let mut total_time = 0.0;
    let mut total_nodes = 0u64;
    let mut ok = true;
    for (id, (p, o, scores)) in &positions {
        solver.clear();
        let start = Instant::now();
        let sol = solver.solve(*p, *o);
        let secs = start.elapsed().as_secs_f64();
        total_time += secs;
        total_nodes += sol.nodes;
        let best = scores[0].1;
        let good_move = sol
            .best_move
            .is_some_and(|m| scores.iter().any(|&(x, s)| x == m && s == best));
        let empties = (!(p | o)).count_ones();
        println!(
            "bench: solver.ffo{id} = {secs:.3} s  ({empties} empties, score {:+}, move {}, {} nodes, {:.1} Mn/s){}",
            sol.score,
            sol.best_move.map_or("--".to_owned(), |m| format!(
                "{}{}",
                (b'a' + m % 8) as char,
                m / 8 + 1
            )),
            sol.nodes,
            sol.nodes as f64 / secs / 1e6,
            if sol.score == best && good_move {
                ""
            } else {
                "  WRONG"
            }
        );
        ok &= sol.score == best && good_move;
    }
    let games = env_or("GAMES24", 0usize);
    if games > 0 {
        ok &= games24(&mut solver, &data, games);
    }
    if positions.is_empty() {
        return if ok {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        };
    }
    println!("bench: solver.ffo{first}_{last} = {total_time:.3} s");
    println!("bench: solver.ffo{first}_{last}.nodes = {total_nodes} nodes");
    println!(
        "bench: solver.ffo{first}_{last}.speed = {:.2} Mnodes/s",
        total_nodes as f64 / total_time / 1e6
    );
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The position after the moves of a transcript (`+d3-c3…` or `d3c3…`)
/// when `empties` squares are left: `(p, o)` side to move first, or `None`
/// when the text has an illegal move or the game ends earlier.
fn position_at(line: &str, empties: u32) -> Option<(u64, u64)> {
    let (mut p, mut o) = othello_core::bitboard8::START;
    let squares: Vec<u8> = line.bytes().filter(|c| c.is_ascii_alphanumeric()).collect();
    for mv in squares.chunks(2) {
        if (!(p | o)).count_ones() == empties {
            break;
        }
        let [c, r] = mv else { return None };
        let sq = usize::from(c.to_ascii_lowercase().checked_sub(b'a')?)
            + 8 * usize::from(r.checked_sub(b'1')?);
        if sq >= 64 {
            return None;
        }
        if othello_core::bitboard8::legal_moves(p, o) == 0 {
            (p, o) = (o, p);
        }
        let f = othello_core::bitboard8::flips(p, o, sq);
        if f == 0 || (p | o) >> sq & 1 == 1 {
            return None;
        }
        (p, o) = (o ^ f, p | f | (1 << sq));
    }
    ((!(p | o)).count_ones() == empties).then_some((p, o))
}

/// Solves the 24-empty positions of `games` Logistello games.
fn games24(solver: &mut Solver, data: &std::ffi::OsStr, games: usize) -> bool {
    let path = std::path::Path::new(data).join("transcripts/logistello_logbook_first5000.gam");
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{}: {e}", path.display());
            return false;
        }
    };
    let mut times = Vec::new();
    let mut nodes = 0u64;
    for (i, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(games)
        .enumerate()
    {
        let Some((p, o)) = position_at(line, 24) else {
            continue;
        };
        solver.clear();
        let start = Instant::now();
        let sol = solver.solve(p, o);
        let secs = start.elapsed().as_secs_f64();
        nodes += sol.nodes;
        println!(
            "bench: solver.game24_{i} = {secs:.3} s  (score {:+}, {} nodes)",
            sol.score, sol.nodes
        );
        times.push(secs);
    }
    if times.is_empty() {
        return true;
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    let total: f64 = times.iter().sum();
    println!("bench: solver.game24.positions = {} positions", times.len());
    println!("bench: solver.game24.median = {:.3} s", at(0.5));
    println!("bench: solver.game24.p90 = {:.3} s", at(0.9));
    println!(
        "bench: solver.game24.speed = {:.2} Mnodes/s",
        nodes as f64 / total / 1e6
    );
    true
}
