//! The midgame search against exact values on the archive's latest games.
//!
//! ```text
//! WTHOR_DATA=/work/shared/data cargo bench -p othello-core --bench midgame
//! POSITIONS=500 BEST=200 TIME_MS=10 cargo bench -p othello-core --bench midgame
//! cargo bench -p othello-core --bench midgame -- calibrate   # probcut's model
//! ```
//!
//! The test set is every game of `WTH_2024.wtb` and `WTH_2025.wtb` at the
//! file's depth (24 empties), the game's theoretical score its exact value
//! (the truth); those years never enter training or calibration. For each
//! position, one thread, the figures of
//! - `old`: `eval::search` at `OLD_DEPTH` plies (4: today's analysis),
//! - `new`: `midgame::Engine::analyze` within `TIME_MS` milliseconds (10),
//!
//! the mean absolute error in discs, the CPU time and nodes per position,
//! the depth reached, and on the first `BEST` positions (100) the share
//! where the best move found is an exact best move (its exact score equals
//! the position's: one null-window test of the exact solver).
//! `POSITIONS` (all; `SAMPLE` with `cargo xtask bench --quick`) spreads a
//! sample evenly over the set; `SELECTIVITY` (tenths of a deviation, `off`)
//! sets probcut's (by default the engine's: `Selectivity::TIMED` for the
//! searches limited by time, `DEFAULT` for fixed depths).
//!
//! `-- deep EMPTIES` compares, on `POSITIONS` (20) positions of the same
//! games at `EMPTIES` empties (40), the value at `TIME_MS` (100) with that
//! of a `DEEP_MS` (10,000) search, and prints the mean absolute
//! difference.
//!
//! `-- sample28` reads `benches/data/midgame28.txt` (100 positions at 28 to
//! 30 empties of the test games, solved exactly once by `-- make28`) and
//! prints the mean absolute error at `TIME_MS` (100).
//!
//! The tuning sets, for choosing the search's settings without the test
//! years: `-- tune24` (`POSITIONS`, 400, of the 2020–2023 games at their
//! file's depth, exact by their theoretical score; `TIME_MS` 10) and
//! `-- tune28` (`benches/data/tune28.txt`: 100 positions at 28 to 30
//! empties of the 2020–2023 games, valued once by 3-second searches with
//! `-- make-tune28`; `TIME_MS` 100) print the mean absolute error and
//! how the answers were reached (exact, selective endgame `endT` at T
//! tenths of a deviation, midgame `midD` at depth D).
//!
//! `-- calibrate` fits probcut's error model (`src/midgame/probcut.rs`) on
//! positions of the games of 2000-2023 (one a game in `EVERY`, 40, at a
//! seeded random depth from 18 to 50 empties), searched without
//! selectivity at every depth up to `MAX_DEPTH` (9).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use othello_core::midgame::{Analysis, Engine, EngineOptions, Limits, Query, Selectivity};
use othello_core::replay::{Reach, replay_to_empties};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Color, eval};
use wthor_format::ReadOptions;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// An engine on the embedded weights, or on the weight file `WEIGHTS`, on
/// `THREADS` threads (1).
fn engine(options: EngineOptions) -> Result<Engine, String> {
    let engine = Engine::new(options)
        .and_then(|e| e.with_threads(env_or("THREADS", 1)))
        .map_err(|e| e.to_string())?;
    match std::env::var_os("WEIGHTS") {
        None => Ok(engine),
        Some(path) => {
            let w = eval::Weights::read(Path::new(&path)).map_err(|e| e.to_string())?;
            eprintln!("weights {path:?} ({:016x})", w.checksum());
            Ok(engine.with_weights(std::sync::Arc::new(w)))
        }
    }
}

/// This thread's CPU time.
fn cpu_time() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid pointer to a timespec.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
    }
    #[cfg(not(target_os = "linux"))]
    {
        static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
        START.get_or_init(Instant::now).elapsed()
    }
}

/// One archive game: its move bytes, theoretical score (Black's discs),
/// the file's depth and year.
struct Game {
    moves: Vec<u8>,
    theory: u8,
    depth: u32,
    year: u16,
}

/// The games of the `.wtb` files of `dir` whose year `keep` accepts.
fn read_games(dir: &Path, keep: impl Fn(u16) -> bool) -> Result<Vec<Game>, String> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    names.sort();
    let mut games = Vec::new();
    for path in names {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = wthor_format::parse_game_file(&bytes, &ReadOptions::default())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let header = file.header();
        if !keep(header.year) {
            continue;
        }
        for g in file.games() {
            games.push(Game {
                moves: g.moves_raw().to_vec(),
                theory: g.theoretical_score(),
                depth: u32::from(header.depth()),
                year: header.year,
            });
        }
    }
    Ok(games)
}

/// The position of `g` at `empties`: side to move's discs, opponent's,
/// and whether Black is to move.
fn position(g: &Game, empties: u32) -> Option<(u64, u64, bool)> {
    match replay_to_empties::<Board8>(&g.moves, empties) {
        Reach::At { board, .. } => Some((
            board.player(),
            board.opponent(),
            board.side_to_move() == Color::Black,
        )),
        _ => None,
    }
}

/// The test positions: each 2024–2025 game at its file's depth, with its
/// exact value for the side to move.
fn test_set(dir: &Path) -> Result<Vec<(u64, u64, i32)>, String> {
    scored_set(dir, |y| y == 2024 || y == 2025)
}

/// The games of the years `keep` accepts at their file's depth, each with
/// its exact value for the side to move.
fn scored_set(dir: &Path, keep: impl Fn(u16) -> bool) -> Result<Vec<(u64, u64, i32)>, String> {
    let games = read_games(dir, keep)?;
    Ok(games
        .iter()
        .filter(|g| g.theory <= 64)
        .filter_map(|g| {
            let (p, o, black) = position(g, g.depth)?;
            let t = 2 * i32::from(g.theory) - 64;
            Some((p, o, if black { t } else { -t }))
        })
        .collect())
}

/// `count` elements spread evenly over `all` (all of them when `count` is
/// at least its length).
fn spread<T: Copy>(all: &[T], count: usize) -> Vec<T> {
    if count >= all.len() {
        return all.to_vec();
    }
    (0..count).map(|i| all[i * all.len() / count]).collect()
}

/// `SELECTIVITY` (tenths of a deviation, or `off`), else `default`.
fn selectivity(default: Selectivity) -> Selectivity {
    match std::env::var("SELECTIVITY").as_deref() {
        Ok("off") => Selectivity::OFF,
        Ok(s) => s.parse().map_or(default, Selectivity::sigmas),
        Err(_) => default,
    }
}

/// Whether `mv` is an exact best move of `(p, o)` whose exact score is
/// `value`: the child's score is at most `-value`.
fn is_best(solver: &mut Solver, p: u64, o: u64, mv: Option<u8>, value: i32) -> bool {
    let Some(x) = mv else { return true };
    let f = othello_core::bitboard8::flips(p, o, usize::from(x));
    if f == 0 {
        return false;
    }
    let (np, no) = (o ^ f, p | f | (1 << x));
    // child <= -value  <=>  not (child > -value)
    solver.solve_window(np, no, -value, -value + 1) <= -value
}

fn measure(dir: &Path) -> Result<(), String> {
    let all = test_set(dir)?;
    let quick = std::env::var_os("WTHOR_BENCH_QUICK").is_some();
    let count = env_or(
        "POSITIONS",
        if quick {
            env_or("SAMPLE", 20)
        } else {
            usize::MAX
        },
    );
    let best_count = env_or("BEST", if quick { 5 } else { 100 });
    let time_ms = env_or("TIME_MS", 10u64);
    let old_depth = env_or("OLD_DEPTH", 4u32);
    let set = spread(&all, count);
    let sel = selectivity(Selectivity::TIMED);
    eprintln!(
        "{} positions at 24 empties ({} in 2024-2025), {} checked for the best move; new search: {time_ms} ms, selectivity {:?}",
        set.len(),
        all.len(),
        best_count.min(set.len()),
        sel.tenths()
    );
    let mut engine = engine(EngineOptions::default())?;
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 22,
    });
    let (mut old_err, mut new_err) = (0.0f64, 0.0f64);
    let (mut old_cpu, mut new_cpu) = (Duration::ZERO, Duration::ZERO);
    let (mut new_nodes, mut new_depth) = (0u64, 0u64);
    let (mut old_best, mut new_best, mut checked) = (0, 0, 0);
    let mut exact = 0;
    for (i, &(p, o, truth)) in set.iter().enumerate() {
        let t = cpu_time();
        let old = eval::search(p, o, old_depth);
        old_cpu += cpu_time() - t;
        let t = cpu_time();
        let query = Query::from(Limits::time_ms(time_ms)).selectivity(sel);
        let new = engine.analyze(p, o, query).map_err(|e| e.to_string())?;
        new_cpu += cpu_time() - t;
        old_err += f64::from((old.score - truth).abs());
        new_err += f64::from((new.value - truth as f32).abs());
        new_nodes += new.nodes;
        new_depth += u64::from(new.depth);
        exact += usize::from(new.exact);
        if i < best_count {
            checked += 1;
            solver.clear();
            old_best += usize::from(is_best(&mut solver, p, o, old.best_move, truth));
            new_best += usize::from(is_best(&mut solver, p, o, new.best_move, truth));
        }
        if (i + 1) % 500 == 0 {
            eprintln!(
                "  {} positions: MAE old {:.3}, new {:.3}",
                i + 1,
                old_err / (i + 1) as f64,
                new_err / (i + 1) as f64
            );
        }
    }
    let n = set.len().max(1) as f64;
    println!("bench: midgame24.positions = {} positions", set.len());
    println!(
        "bench: midgame24.old.mae = {:.3} discs  (eval::search depth {old_depth})",
        old_err / n
    );
    println!(
        "bench: midgame24.old.cpu = {:.3} ms/position",
        old_cpu.as_secs_f64() * 1e3 / n
    );
    println!(
        "bench: midgame24.new.mae = {:.3} discs  ({time_ms} ms)",
        new_err / n
    );
    println!(
        "bench: midgame24.new.cpu = {:.3} ms/position",
        new_cpu.as_secs_f64() * 1e3 / n
    );
    println!(
        "bench: midgame24.new.nodes = {:.0} nodes/position",
        new_nodes as f64 / n
    );
    println!(
        "bench: midgame24.new.depth = {:.2} plies (mean)",
        new_depth as f64 / n
    );
    println!("bench: midgame24.new.exact = {exact} positions");
    if checked > 0 {
        println!(
            "bench: midgame24.old.best = {:.1} %  ({old_best}/{checked})",
            100.0 * old_best as f64 / checked as f64
        );
        println!(
            "bench: midgame24.new.best = {:.1} %  ({new_best}/{checked})",
            100.0 * new_best as f64 / checked as f64
        );
    }
    Ok(())
}

/// MAE, CPU time and nodes at each fixed depth of `DEPTHS` (`2,4,6,8`) on
/// `POSITIONS` (200) test positions.
fn depths(dir: &Path) -> Result<(), String> {
    let all = test_set(dir)?;
    let set = spread(&all, env_or("POSITIONS", 200));
    let sel = selectivity(Selectivity::DEFAULT);
    let list = std::env::var("DEPTHS").unwrap_or_else(|_| "2,4,6,8".to_owned());
    let mut engine = engine(EngineOptions::default())?;
    for d in list.split(',').filter_map(|d| d.trim().parse::<u32>().ok()) {
        let (mut err, mut cpu, mut nodes, mut signed) = (0.0f64, Duration::ZERO, 0u64, 0.0f64);
        for &(p, o, truth) in &set {
            let t = cpu_time();
            let a = engine
                .analyze(p, o, Query::from(Limits::depth(d)).selectivity(sel))
                .map_err(|e| e.to_string())?;
            cpu += cpu_time() - t;
            err += f64::from((a.value - truth as f32).abs());
            signed += f64::from(a.value - truth as f32);
            nodes += a.nodes;
        }
        let n = set.len().max(1) as f64;
        println!(
            "bench: midgame24.depth{d}.mae = {:.3} discs  (mean error {:+.3}, {:.3} ms/position, {:.0} nodes, selectivity {:?})",
            err / n,
            signed / n,
            cpu.as_secs_f64() * 1e3 / n,
            nodes as f64 / n,
            sel.tenths()
        );
    }
    Ok(())
}

/// Least squares of `y` on the rows `x` (normal equations, 3 unknowns).
#[allow(clippy::needless_range_loop)]
fn fit3(x: &[[f64; 3]], y: &[f64]) -> [f64; 3] {
    let mut a = [[0.0f64; 4]; 3];
    for (r, &v) in x.iter().zip(y) {
        for i in 0..3 {
            for j in 0..3 {
                a[i][j] += r[i] * r[j];
            }
            a[i][3] += r[i] * v;
        }
    }
    // Gauss-Jordan elimination with partial pivoting.
    for c in 0..3 {
        let piv = (c..3)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, piv);
        let d = a[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        for k in c..4 {
            a[c][k] /= d;
        }
        for i in 0..3 {
            if i != c {
                let f = a[i][c];
                for k in c..4 {
                    a[i][k] -= f * a[c][k];
                }
            }
        }
    }
    [a[0][3], a[1][3], a[2][3]]
}

/// Fits probcut's error model: see the module documentation.
fn calibrate(dir: &Path) -> Result<(), String> {
    let every = env_or("EVERY", 40usize).max(1);
    let max_depth = env_or("MAX_DEPTH", 9u32);
    let games = read_games(dir, |y| (2000..=2023).contains(&y))?;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut positions = Vec::new();
    for g in games.iter().step_by(every) {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let n = 18 + (seed % 33) as u32;
        if let Some((p, o, _)) = position(g, n)
            && othello_core::bitboard8::legal_moves(p, o) != 0
        {
            positions.push((p, o, n, g.year));
        }
    }
    eprintln!(
        "{} positions (one game in {every} of 2000-2023, 18-50 empties), depths 1-{max_depth}",
        positions.len()
    );
    let mut engine = engine(EngineOptions {
        tt_bits: 18,
        solver_tt_bits: 16,
    })?;
    let start = std::time::Instant::now();
    // (depth, empties, deep - shallow) in discs.
    let mut samples: Vec<(u32, u32, f64)> = Vec::new();
    for (i, &(p, o, n, _)) in positions.iter().enumerate() {
        engine.clear();
        let mut v = vec![0.0f64; max_depth as usize + 1];
        for d in 1..=max_depth {
            let q = Query::from(Limits::depth(d)).selectivity(Selectivity::OFF);
            v[d as usize] = f64::from(engine.analyze(p, o, q).map_err(|e| e.to_string())?.value);
        }
        v[0] = f64::from(eval::evaluate(p, o)) / f64::from(eval::SCALE);
        for depth in 3..=max_depth {
            let shallow = if depth / 4 == 0 {
                depth - 2
            } else {
                2 * (depth / 4)
            };
            samples.push((depth, n, v[depth as usize] - v[shallow as usize]));
        }
        if (i + 1) % 200 == 0 {
            eprintln!(
                "  {} positions, {:.0} s",
                i + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    // Per depth: the mean error, and its standard deviation as a line in
    // the empties (fitted on sqrt(pi / 2) times the absolute deviations:
    // the standard deviation of a normal error).
    println!("depth  shallow  samples   mean    sd  (fitted sd at 20 / 40 empties)");
    let mut rows = Vec::new();
    for depth in 3..=max_depth {
        let e: Vec<(f64, f64)> = samples
            .iter()
            .filter(|s| s.0 == depth)
            .map(|s| (f64::from(s.1), s.2))
            .collect();
        let k = e.len().max(1) as f64;
        let m = e.iter().map(|x| x.1).sum::<f64>() / k;
        let sd = (e.iter().map(|x| (x.1 - m) * (x.1 - m)).sum::<f64>() / k).sqrt();
        let x: Vec<[f64; 3]> = e.iter().map(|x| [1.0, x.0, 0.0]).collect();
        let y: Vec<f64> = e
            .iter()
            .map(|x| (x.1 - m).abs() * (std::f64::consts::PI / 2.0).sqrt())
            .collect();
        let [a, b, _] = fit3(&x, &y);
        println!(
            "{depth:>5}  {:>7}  {:>7}  {m:>5.2}  {sd:>5.2}  ({:.2} / {:.2})",
            if depth / 4 == 0 {
                depth - 2
            } else {
                2 * (depth / 4)
            },
            e.len(),
            a + 20.0 * b,
            a + 40.0 * b
        );
        rows.push(format!("    ({depth}, {m:.3}, {a:.3}, {b:.4}),"));
    }
    println!(
        "pub(crate) const MODEL: [(u32, f64, f64, f64); {}] = [",
        rows.len()
    );
    for r in rows {
        println!("{r}");
    }
    println!("];");
    eprintln!("{:.0} s", start.elapsed().as_secs_f64());
    Ok(())
}

/// Where `-- make28` writes and `-- sample28` reads the 28–30-empty set.
fn file28() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/midgame28.txt")
}

/// A position as an OBF board (`X` the side to move) and its score.
fn obf(p: u64, o: u64) -> String {
    (0..64)
        .map(|i| match (p >> i & 1, o >> i & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect()
}

fn parse_obf(board: &str) -> Option<(u64, u64)> {
    let (mut p, mut o) = (0, 0);
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'X' => p |= 1u64 << i,
            b'O' => o |= 1u64 << i,
            b'-' => {}
            _ => return None,
        }
    }
    Some((p, o))
}

/// The 100 positions of the 28–30-empty set: test games drawn with a
/// seeded generator, each at 28, 29 or 30 empties, the side to move with a
/// move.
fn positions28(dir: &Path) -> Result<Vec<(String, u64, u64)>, String> {
    positions_28_30(dir, |y| y == 2024 || y == 2025, 0x2024_2025_2830_0001)
}

/// 100 positions at 28, 29 or 30 empties of the games of the years
/// `keep` accepts, drawn with a generator seeded by `seed`.
fn positions_28_30(
    dir: &Path,
    keep: impl Fn(u16) -> bool,
    mut seed: u64,
) -> Result<Vec<(String, u64, u64)>, String> {
    let games = read_games(dir, keep)?;
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < 100 && tries < 100_000 {
        tries += 1;
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let i = (seed % games.len() as u64) as usize;
        let n = 28 + ((seed >> 32) % 3) as u32;
        if let Some((p, o, _)) = position(&games[i], n)
            && othello_core::bitboard8::legal_moves(p, o) != 0
        {
            let id = format!("{}:{i}@{n}", games[i].year);
            if !out.iter().any(|(x, _, _): &(String, u64, u64)| *x == id) {
                out.push((id, p, o));
            }
        }
    }
    Ok(out)
}

/// Solves the 28–30-empty set exactly, appending to [`file28`] (a rerun
/// resumes).
fn make28(dir: &Path) -> Result<(), String> {
    use std::io::Write;
    let path = file28();
    let done = std::fs::read_to_string(&path).unwrap_or_default();
    let threads = env_or("THREADS", 1usize);
    let mut solver = Solver::new(SolverOptions {
        threads,
        tt_bits: 22,
    });
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    for (id, p, o) in positions28(dir)? {
        if done.lines().any(|l| l.starts_with(&format!("{id} "))) {
            continue;
        }
        let start = std::time::Instant::now();
        solver.clear();
        let s = solver.solve(p, o);
        writeln!(file, "{id} {} {:+}", obf(p, o), s.score).map_err(|e| e.to_string())?;
        eprintln!(
            "{id}: {:+} ({:.1} s, {} nodes)",
            s.score,
            start.elapsed().as_secs_f64(),
            s.nodes
        );
    }
    Ok(())
}

/// How an answer was reached: `exact`, `endT` (the selective endgame
/// search at T tenths of a deviation) or `midD` (the midgame at depth D).
fn kind(a: &Analysis, p: u64, o: u64) -> String {
    if a.exact {
        "exact".to_owned()
    } else if a.depth == (!(p | o)).count_ones() {
        format!("end{}", a.selectivity.tenths().unwrap_or(0))
    } else {
        format!("mid{}", a.depth)
    }
}

/// The count and the summed error of the answers of each [`kind`].
#[derive(Default)]
struct Kinds(std::collections::BTreeMap<String, (usize, f64)>);

impl Kinds {
    fn add(&mut self, kind: String, error: f64) {
        let k = self.0.entry(kind).or_default();
        k.0 += 1;
        k.1 += error;
    }

    fn print(&self) {
        for (kind, (n, e)) in &self.0 {
            println!("  {kind}: {n} positions, MAE {:.2}", e / *n as f64);
        }
    }
}

/// Where `-- make-tune28` writes and `-- tune28` reads the tuning set.
fn file_tune28() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/tune28.txt")
}

/// The tuning set beside the 28–30-empty test set: 100 positions at 28
/// to 30 empties of training games (2020–2023, never the test years),
/// each valued once by a `LABEL_MS` (3,000) search on one thread, the
/// selective endgame searches or the exact solver reached by then (the
/// kind of value is written beside it). Exact solves there take from
/// seconds to minutes each: these values stand in for them, for choosing
/// the search's settings without looking at the test set (appending; a
/// rerun resumes).
fn make_tune28(dir: &Path) -> Result<(), String> {
    use std::io::Write;
    let path = file_tune28();
    let done = std::fs::read_to_string(&path).unwrap_or_default();
    let label_ms = env_or("LABEL_MS", 3_000u64);
    let mut engine = engine(EngineOptions::default())?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let set = positions_28_30(dir, |y| (2020..=2023).contains(&y), 0x2020_2023_2830_0001)?;
    for (id, p, o) in set {
        if done.lines().any(|l| l.starts_with(&format!("{id} "))) {
            continue;
        }
        engine.clear();
        let a = engine
            .analyze(p, o, Limits::time_ms(label_ms))
            .map_err(|e| e.to_string())?;
        let kind = kind(&a, p, o);
        writeln!(file, "{id} {} {:+.2} {kind}", obf(p, o), a.value).map_err(|e| e.to_string())?;
        eprintln!("{id}: {:+.2} {kind}", a.value);
    }
    Ok(())
}

/// The tuning set's mean absolute error at `TIME_MS` (100), with the
/// share of answers by kind (exact, selective endgame, midgame depth).
fn tune28() -> Result<(), String> {
    let set: Vec<(u64, u64, f32)> = scored_file(&file_tune28())?;
    tune("tune28", &set, env_or("TIME_MS", 100u64))
}

/// The mean absolute error at `TIME_MS` (10) on `POSITIONS` (400)
/// training positions at 24 empties (the games of 2020–2023 at their
/// file's depth, exact by their theoretical score): the tuning set of
/// the 24-empty figure, never the test years.
fn tune24(dir: &Path) -> Result<(), String> {
    let set: Vec<(u64, u64, f32)> = spread(
        &scored_set(dir, |y| (2020..=2023).contains(&y))?,
        env_or("POSITIONS", 400),
    )
    .into_iter()
    .map(|(p, o, truth)| (p, o, truth as f32))
    .collect();
    tune("tune24", &set, env_or("TIME_MS", 10u64))
}

/// The mean absolute error of `time_ms` searches on `set` (positions and
/// their values), printed as `bench: NAME.mae`, and by [`kind`].
fn tune(name: &str, set: &[(u64, u64, f32)], time_ms: u64) -> Result<(), String> {
    let sel = selectivity(Selectivity::TIMED);
    let mut engine = engine(EngineOptions::default())?;
    let mut kinds = Kinds::default();
    let mut err = 0.0f64;
    for &(p, o, truth) in set {
        let a = engine
            .analyze(p, o, Query::from(Limits::time_ms(time_ms)).selectivity(sel))
            .map_err(|e| e.to_string())?;
        let e = f64::from((a.value - truth).abs());
        kinds.add(kind(&a, p, o), e);
        err += e;
    }
    println!(
        "bench: {name}.mae = {:.3} discs  ({time_ms} ms, {} positions)",
        err / set.len().max(1) as f64,
        set.len()
    );
    kinds.print();
    Ok(())
}

/// The positions and values of a file of lines `ID BOARD VALUE …` (the
/// board in OBF, `X` to move; shorter lines skipped): [`file28`] (exact
/// scores, `i32`) and [`file_tune28`] (`f32`).
fn scored_file<T: std::str::FromStr>(path: &Path) -> Result<Vec<(u64, u64, T)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for line in text.lines() {
        let mut f = line.split_whitespace();
        let (Some(_), Some(board), Some(value)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        let (Some((p, o)), Ok(value)) = (parse_obf(board), value.parse::<T>()) else {
            return Err(format!("{}: bad line {line:?}", path.display()));
        };
        out.push((p, o, value));
    }
    Ok(out)
}

/// The mean absolute error at `TIME_MS` (100) on the 28–30-empty set.
fn sample28() -> Result<(), String> {
    let set: Vec<(u64, u64, i32)> = scored_file(&file28())?;
    let time_ms = env_or("TIME_MS", 100u64);
    let sel = selectivity(Selectivity::TIMED);
    let mut engine = engine(EngineOptions::default())?;
    let (mut err, mut old_err, mut cpu, mut nodes, mut depth, mut count) =
        (0.0f64, 0.0f64, Duration::ZERO, 0u64, 0u64, 0usize);
    for (p, o, truth) in set {
        let t = cpu_time();
        let a = engine
            .analyze(p, o, Query::from(Limits::time_ms(time_ms)).selectivity(sel))
            .map_err(|e| e.to_string())?;
        cpu += cpu_time() - t;
        err += f64::from((a.value - truth as f32).abs());
        old_err += f64::from((eval::search(p, o, 4).score - truth).abs());
        nodes += a.nodes;
        depth += u64::from(a.depth);
        count += 1;
    }
    let n = count.max(1) as f64;
    println!("bench: midgame28.positions = {count} positions");
    println!(
        "bench: midgame28.old.mae = {:.3} discs  (eval::search depth 4)",
        old_err / n
    );
    println!(
        "bench: midgame28.new.mae = {:.3} discs  ({time_ms} ms)",
        err / n
    );
    println!(
        "bench: midgame28.new.cpu = {:.3} ms/position",
        cpu.as_secs_f64() * 1e3 / n
    );
    println!(
        "bench: midgame28.new.nodes = {:.0} nodes/position",
        nodes as f64 / n
    );
    println!(
        "bench: midgame28.new.depth = {:.2} plies (mean)",
        depth as f64 / n
    );
    Ok(())
}

/// The value at `TIME_MS` (100) against the value at `DEEP_MS` (10,000)
/// at `empties` empties of `POSITIONS` (20) test games.
fn deep(dir: &Path, empties: u32) -> Result<(), String> {
    let games = read_games(dir, |y| y == 2024 || y == 2025)?;
    let all: Vec<(u64, u64)> = games
        .iter()
        .filter_map(|g| position(g, empties))
        .filter(|&(p, o, _)| othello_core::bitboard8::legal_moves(p, o) != 0)
        .map(|(p, o, _)| (p, o))
        .collect();
    let set = spread(&all, env_or("POSITIONS", 20));
    let (short, long) = (env_or("TIME_MS", 100u64), env_or("DEEP_MS", 10_000u64));
    let sel = selectivity(Selectivity::TIMED);
    let mut engine = engine(EngineOptions::default())?;
    let (mut diff, mut old_diff, mut d_short, mut d_long) = (0.0f64, 0.0f64, 0u64, 0u64);
    for &(p, o) in &set {
        engine.clear();
        let a = engine
            .analyze(p, o, Query::from(Limits::time_ms(short)).selectivity(sel))
            .map_err(|e| e.to_string())?;
        engine.clear();
        let b = engine
            .analyze(p, o, Query::from(Limits::time_ms(long)).selectivity(sel))
            .map_err(|e| e.to_string())?;
        diff += f64::from((a.value - b.value).abs());
        old_diff += f64::from((eval::search(p, o, 4).score as f32 - b.value).abs());
        d_short += u64::from(a.depth);
        d_long += u64::from(b.depth);
        eprintln!(
            "  {:+.2} at {short} ms (depth {}), {:+.2} at {long} ms (depth {})",
            a.value, a.depth, b.value, b.depth
        );
    }
    let n = set.len().max(1) as f64;
    println!(
        "bench: midgame{empties}.positions = {} positions",
        set.len()
    );
    println!(
        "bench: midgame{empties}.new.diff = {:.3} discs  (mean |{short} ms - {long} ms|; depths {:.1} and {:.1})",
        diff / n,
        d_short as f64 / n,
        d_long as f64 / n
    );
    println!(
        "bench: midgame{empties}.old.diff = {:.3} discs  (mean |eval::search depth 4 - {long} ms|)",
        old_diff / n
    );
    Ok(())
}

/// The evaluation's mean error by empties against the games' theoretical
/// scores, on positions of 2000–2023 (one game in `EVERY`, 10).
fn parity(dir: &Path) -> Result<(), String> {
    let every = env_or("EVERY", 10usize).max(1);
    let games = read_games(dir, |y| (2000..=2023).contains(&y))?;
    let mut sum = [(0.0f64, 0usize); 61];
    for g in games.iter().step_by(every).filter(|g| g.theory <= 64) {
        for n in 1..=59u32 {
            let Some((p, o, black)) = position(g, n) else {
                continue;
            };
            if othello_core::bitboard8::legal_moves(p, o) == 0 {
                continue;
            }
            let t = 2 * i32::from(g.theory) - 64;
            let truth = if black { t } else { -t };
            let e = f64::from(eval::evaluate(p, o)) / f64::from(eval::SCALE);
            sum[n as usize].0 += f64::from(truth) - e;
            sum[n as usize].1 += 1;
        }
    }
    for (n, (s, k)) in sum.iter().enumerate().skip(1) {
        if *k > 0 {
            println!("{n:>2} {:+.3} ({k})", s / *k as f64);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return ExitCode::SUCCESS;
    };
    let dir = Path::new(&data).join("wthor");
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let r = match args.first().map(String::as_str) {
        None => measure(&dir),
        Some("depths") => depths(&dir),
        Some("calibrate") => calibrate(&dir),
        Some("make28") => make28(&dir),
        Some("parity") => parity(&dir),
        Some("sample28") => sample28(),
        Some("make-tune28") => make_tune28(&dir),
        Some("tune28") => tune28(),
        Some("tune24") => tune24(&dir),
        Some("deep") => deep(&dir, args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40)),
        Some(other) => Err(format!("unknown mode {other:?}")),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("midgame: {e}");
            ExitCode::FAILURE
        }
    }
}
