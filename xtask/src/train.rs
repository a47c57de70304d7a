//! `cargo xtask train`: fits the pattern evaluation of `othello_core::eval`
//! on the games of a WTHOR directory and writes its weight file.
//!
//! Every position of every finished 8x8 game where the side to move has a
//! move is a sample; its target is the final disc difference for the side
//! to move under perfect play, as well as it is known: solved exactly in
//! the last 14 empties, the theoretical score (exact at the file's depth)
//! above, a blend of both in between (`Game::samples`). The latest years
//! (`--test-years`, 2 by default) are held out: never trained on, only
//! measured.
//!
//! Each stage is an independent ridge regression (least squares plus
//! `lambda` times the squared weights) over the sparse pattern features,
//! solved by conjugate gradients on the normal equations with a Jacobi
//! preconditioner, from zero, for a fixed number of iterations. Weights of
//! mirrored configurations are one unknown (`eval::mirror_index`), which
//! is what training on the eight symmetric images of every position would
//! give, at an eighth of the cost. Deterministic: the sums are split into
//! a fixed number of chunks whatever the number of cores.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use othello_core::bitboard8::{flips, legal_moves};
use othello_core::eval::train::{self as eval, INSTANCES, STAGE_LEN, STAGES};
use othello_core::solver::{Solver, SolverOptions};
use wthor_format::ReadOptions;

/// Options of the task.
pub(crate) struct Options {
    /// The WTHOR directory (`$WTHOR_DATA/wthor` by default).
    pub(crate) data: Option<PathBuf>,
    /// Keep one position in `sample` of the training years.
    pub(crate) sample: usize,
    /// How many of the latest years are held out.
    pub(crate) test_years: usize,
    /// Conjugate-gradient iterations per stage.
    pub(crate) iterations: usize,
    /// Ridge penalty per weight (in squared discs).
    pub(crate) lambda: f64,
    /// Where to write the weights (the library's `eval.bin` by default).
    pub(crate) out: Option<PathBuf>,
}

/// One training position: mover's and opponent's discs, target (mover's
/// final disc difference) and the year of the game.
struct Sample {
    p: u64,
    o: u64,
    target: i8,
    year: u16,
}

/// Fixed number of chunks of every sum (determinism).
const CHUNKS: usize = 2;

pub(crate) fn run(options: &Options) -> Result<()> {
    let dir = match &options.data {
        Some(d) => d.clone(),
        None => {
            let data = std::env::var_os("WTHOR_DATA")
                .context("WTHOR_DATA is not set (or give --data DIR)")?;
            Path::new(&data).join("wthor")
        }
    };
    let start = std::time::Instant::now();
    let (samples, games, skipped) = cached_samples(&dir)?;
    let mut years: Vec<u16> = samples.iter().map(|s| s.year).collect();
    years.sort_unstable();
    years.dedup();
    if years.len() <= options.test_years {
        bail!("{}: too few years ({})", dir.display(), years.len());
    }
    let test: Vec<u16> = years[years.len() - options.test_years..].to_vec();
    eprintln!(
        "{} games read ({skipped} skipped: unfinished, illegal or inconsistent), {} positions, years {}-{}, held out {:?} ({:.1} s)",
        games,
        samples.len(),
        years[0],
        years[years.len() - 1],
        test,
        start.elapsed().as_secs_f64()
    );
    let canon: Vec<u32> = (0..STAGE_LEN as u32)
        .map(|i| i.min(eval::mirror_index(i)))
        .collect();
    let mut weights = vec![0i16; STAGES * STAGE_LEN];
    println!(
        "stage  empties   train  test positions   MAE train  MAE test  (discs; zero: MAE of predicting 0)"
    );
    let mut total = (0.0, 0.0, 0usize);
    for stage in 0..STAGES {
        let in_stage = |s: &&Sample| eval::stage((!(s.p | s.o)).count_ones()) == stage;
        // One training position in `sample`, in archive order.
        let train: Vec<&Sample> = samples
            .iter()
            .filter(in_stage)
            .filter(|s| !test.contains(&s.year))
            .enumerate()
            .filter(|(i, _)| i % options.sample == 0)
            .map(|(_, s)| s)
            .collect();
        let held: Vec<&Sample> = samples
            .iter()
            .filter(in_stage)
            .filter(|s| test.contains(&s.year))
            .collect();
        let w = fit(&train, &canon, options.iterations, options.lambda);
        let out = &mut weights[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
        for (i, slot) in out.iter_mut().enumerate() {
            let v = (w[canon[i] as usize] * f64::from(eval::SCALE)).round();
            *slot = v.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        }
        let mae = |set: &[&Sample]| -> (f64, f64) {
            if set.is_empty() {
                return (0.0, 0.0);
            }
            let (mut e, mut z) = (0.0, 0.0);
            for s in set {
                let f = eval::feature_indices(s.p, s.o);
                let mut v = i32::from(out[eval::BIAS as usize]);
                for &i in &f {
                    v += i32::from(out[i as usize]);
                }
                e += (f64::from(v) / f64::from(eval::SCALE) - f64::from(s.target)).abs();
                z += f64::from(s.target).abs();
            }
            (e / set.len() as f64, z / set.len() as f64)
        };
        let (tr, _) = mae(&train);
        let (te, zero) = mae(&held);
        total.0 += te * held.len() as f64;
        total.1 += zero * held.len() as f64;
        total.2 += held.len();
        let lo = stage as u32 * eval::STAGE_WIDTH;
        println!(
            "{stage:>5}  {lo:>2}-{:<2}   {:>8} {:>8}        {tr:>6.2}    {te:>6.2}  ({zero:.2})",
            if stage == STAGES - 1 {
                60
            } else {
                lo + eval::STAGE_WIDTH - 1
            },
            train.len(),
            held.len(),
        );
    }
    println!(
        "held-out MAE over all stages: {:.2} discs (predicting 0: {:.2}), {} positions",
        total.0 / total.2.max(1) as f64,
        total.1 / total.2.max(1) as f64,
        total.2
    );
    let path = options
        .out
        .clone()
        .unwrap_or_else(|| crate::util::project_root().join("crates/othello-core/src/eval.bin"));
    let mut bytes = eval::file_header(&weights).to_vec();
    bytes.extend(weights.iter().flat_map(|w| w.to_le_bytes()));
    let tmp = path.with_extension("bin.tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("renaming to {}", path.display()))?;
    eprintln!(
        "wrote {} ({} bytes, checksum {:016x}) in {:.1} s",
        path.display(),
        bytes.len(),
        eval::checksum(&bytes[eval::HEADER_LEN..]),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// [`read_samples`], kept in `target/train/` under a key of the files'
/// names, sizes and times and of [`EXACT_MAX`], so that a fit with other
/// options does not solve again (the solving is most of the time).
fn cached_samples(dir: &Path) -> Result<(Vec<Sample>, usize, usize)> {
    const RECORD: usize = 19;
    let mut key = format!("samples v1, exact {EXACT_MAX}\n");
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok())
        .collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for e in entries {
        let m = e.metadata()?;
        key.push_str(&format!(
            "{:?} {} {:?}\n",
            e.file_name(),
            m.len(),
            m.modified().ok()
        ));
    }
    let cache_dir = crate::util::project_root().join("target/train");
    let path = cache_dir.join(format!(
        "samples-{:016x}.bin",
        eval::checksum(key.as_bytes())
    ));
    if let Ok(bytes) = std::fs::read(&path)
        && bytes.len() >= 16
        && (bytes.len() - 16) % RECORD == 0
    {
        let count = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let samples = bytes[16..]
            .chunks_exact(RECORD)
            .map(|c| Sample {
                p: u64::from_le_bytes(c[..8].try_into().expect("8 bytes")),
                o: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
                target: c[16] as i8,
                year: u16::from_le_bytes([c[17], c[18]]),
            })
            .collect();
        eprintln!("samples read from {}", path.display());
        return Ok((samples, count(0) as usize, count(8) as usize));
    }
    let (samples, games, skipped) = read_samples(dir)?;
    let mut bytes = Vec::with_capacity(16 + RECORD * samples.len());
    bytes.extend((games as u64).to_le_bytes());
    bytes.extend((skipped as u64).to_le_bytes());
    for s in &samples {
        bytes.extend(s.p.to_le_bytes());
        bytes.extend(s.o.to_le_bytes());
        bytes.push(s.target as u8);
        bytes.extend(s.year.to_le_bytes());
    }
    std::fs::create_dir_all(&cache_dir)
        .with_context(|| format!("creating {}", cache_dir.display()))?;
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &path).with_context(|| format!("renaming to {}", path.display()))?;
    Ok((samples, games, skipped))
}

/// The samples of every `.wtb` file of `dir` (sorted by name), the number
/// of games used and skipped.
fn read_samples(dir: &Path) -> Result<(Vec<Sample>, usize, usize)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    names.sort();
    let mut games = Vec::new();
    let mut skipped = 0;
    for path in names {
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        let file = wthor_format::parse_game_file(&bytes, &ReadOptions::default())
            .with_context(|| format!("parsing {}", path.display()))?;
        let header = file.header();
        let depth = u32::from(header.depth());
        for game in file.games() {
            match replay(
                game.moves_raw(),
                game.real_score(),
                game.theoretical_score(),
                depth,
                header.year,
            ) {
                Some(g) => games.push(g),
                None => skipped += 1,
            }
        }
    }
    // Solving the last positions takes most of the time: split the games
    // into one contiguous part per core and join the parts in order, so
    // that the samples do not depend on the number of cores.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let part = games.len().div_ceil(cores).max(1);
    let samples = std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .chunks(part)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut solver = Solver::new(SolverOptions {
                        threads: 1,
                        tt_bits: 18,
                    });
                    let mut out = Vec::new();
                    for g in chunk {
                        g.samples(&mut solver, &mut out);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    Ok((samples, games.len(), skipped))
}

/// Positions with at most this many empty squares are labelled with their
/// exact score, solved (about 80 s on 2 cores; to 16 empties: 7 minutes
/// for 1.5% fewer nodes on FFO #40–#49). The theoretical score is exact at
/// the file's depth only: an evaluation trained on it for the later
/// positions too erred by 13 discs at 12 empties against exact scores (9
/// when trained on them), because players' mistakes after the depth change
/// the score.
const EXACT_MAX: u32 = 14;

/// The positions of one replayed game (mover, opponent, whether Black is
/// to move) and what is known of its scores, for Black.
struct Game {
    positions: Vec<(u64, u64, bool)>,
    /// The theoretical score: exact at `depth` empties.
    theory: i32,
    depth: u32,
    year: u16,
}

/// Replays one game; `None` when it has an illegal move, is unfinished, or
/// its stored result is not its final position's.
fn replay(moves: &[u8], real: u8, theory: u8, depth: u32, year: u16) -> Option<Game> {
    if real > 64 || theory > 64 {
        return None;
    }
    let (mut p, mut o) = othello_core::bitboard8::START;
    let mut black_to_move = true;
    let mut positions = Vec::with_capacity(60);
    for &b in moves.iter().take_while(|&&b| b != 0) {
        let (r, c) = (b / 10, b % 10);
        if !(1..=8).contains(&r) || !(1..=8).contains(&c) {
            return None;
        }
        let sq = usize::from((r - 1) * 8 + c - 1);
        if legal_moves(p, o) == 0 {
            (p, o) = (o, p);
            black_to_move = !black_to_move;
        }
        let f = flips(p, o, sq);
        if f == 0 || (p | o) >> sq & 1 != 0 {
            return None;
        }
        positions.push((p, o, black_to_move));
        (p, o) = (o ^ f, p | f | (1 << sq));
        black_to_move = !black_to_move;
    }
    if legal_moves(p, o) != 0 || legal_moves(o, p) != 0 {
        return None;
    }
    let black = if black_to_move { p } else { o };
    let white = if black_to_move { o } else { p };
    let final_black = othello_core::solver::game_over_score(black, white);
    if final_black != 2 * i32::from(real) - 64 {
        return None;
    }
    Some(Game {
        positions,
        theory: 2 * i32::from(theory) - 64,
        depth,
        year,
    })
}

impl Game {
    /// Appends the samples of the game. Targets: the exact score up to
    /// [`EXACT_MAX`] empties; between it and the file's depth, the exact
    /// scores at both ends weighted by nearness (the mistakes in between
    /// are spread over those moves); the theoretical score above the depth
    /// (the game's result adds the mistakes of the endgame). Measured on
    /// FFO #40–#49 (before the selective searches): the old targets, 1.561G
    /// nodes; exact to 12 empties and the result above the depth, 1.490G;
    /// these, 1.449G.
    fn samples(&self, solver: &mut Solver, out: &mut Vec<Sample>) {
        let empties = |p: u64, o: u64| (!(p | o)).count_ones();
        let mut exact = Vec::with_capacity(EXACT_MAX as usize);
        for &(p, o, black) in self.positions.iter().rev() {
            if empties(p, o) > EXACT_MAX {
                break;
            }
            let s = solver.solve(p, o).score;
            exact.push((empties(p, o), if black { s } else { -s }));
        }
        // The exact score at the most empties solved, for Black.
        let anchor = exact.last().copied();
        for &(p, o, black) in &self.positions {
            let n = empties(p, o);
            let black_score = if let Some(&(_, s)) = exact.iter().find(|e| e.0 == n) {
                s
            } else if n > self.depth {
                self.theory
            } else if let Some((k, s)) = anchor.filter(|a| a.0 < n && self.depth > a.0) {
                let w = f64::from(n - k) / f64::from(self.depth - k);
                (w * f64::from(self.theory) + (1.0 - w) * f64::from(s)).round() as i32
            } else {
                self.theory
            };
            out.push(Sample {
                p,
                o,
                target: (if black { black_score } else { -black_score }) as i8,
                year: self.year,
            });
        }
    }
}

/// Ridge regression of one stage: the weight of every tied index.
fn fit(train: &[&Sample], canon: &[u32], iterations: usize, lambda: f64) -> Vec<f64> {
    let rows = train.len();
    let cols = STAGE_LEN;
    const K: usize = INSTANCES + 1;
    let mut feats = vec![0u32; rows * K];
    let mut y = vec![0f64; rows];
    for (r, s) in train.iter().enumerate() {
        let f = eval::feature_indices(s.p, s.o);
        for (j, &i) in f.iter().enumerate() {
            feats[r * K + j] = canon[i as usize];
        }
        feats[r * K + INSTANCES] = eval::BIAS;
        y[r] = f64::from(s.target);
    }
    let chunk = rows.div_ceil(CHUNKS).max(1);
    // Normal equations: (AᵀA + λI) w = Aᵀy; the bias is not penalised.
    let penalty = |i: usize| if i as u32 == eval::BIAS { 1e-6 } else { lambda };
    let at = |v: &[f64]| -> Vec<f64> {
        let parts: Vec<Vec<f64>> = std::thread::scope(|scope| {
            let handles: Vec<_> = feats
                .chunks(chunk * K)
                .zip(v.chunks(chunk))
                .map(|(f, v)| {
                    scope.spawn(move || {
                        let mut g = vec![0f64; cols];
                        for (row, &x) in f.chunks_exact(K).zip(v) {
                            for &i in row {
                                g[i as usize] += x;
                            }
                        }
                        g
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("no panic"))
                .collect()
        });
        let mut g = vec![0f64; cols];
        for part in parts {
            for (a, b) in g.iter_mut().zip(part) {
                *a += b;
            }
        }
        g
    };
    let a = |w: &[f64]| -> Vec<f64> {
        feats
            .chunks_exact(K)
            .map(|row| row.iter().map(|&i| w[i as usize]).sum())
            .collect()
    };
    // Jacobi preconditioner: the diagonal of AᵀA + λI.
    let mut diag = vec![0f64; cols];
    for &i in &feats {
        diag[i as usize] += 1.0;
    }
    for (i, d) in diag.iter_mut().enumerate() {
        *d += penalty(i);
    }
    let apply = |d: &[f64]| -> Vec<f64> {
        let mut q = at(&a(d));
        for (i, (q, d)) in q.iter_mut().zip(d).enumerate() {
            *q += penalty(i) * d;
        }
        q
    };
    let dot = |x: &[f64], y: &[f64]| -> f64 { x.iter().zip(y).map(|(a, b)| a * b).sum() };
    let mut w = vec![0f64; cols];
    let mut r = at(&y);
    let mut z: Vec<f64> = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
    let mut d = z.clone();
    let mut rz = dot(&r, &z);
    for _ in 0..iterations {
        if rz <= 0.0 {
            break;
        }
        let q = apply(&d);
        let alpha = rz / dot(&d, &q);
        for i in 0..cols {
            w[i] += alpha * d[i];
            r[i] -= alpha * q[i];
        }
        z = r.iter().zip(&diag).map(|(r, d)| r / d).collect();
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for i in 0..cols {
            d[i] = z[i] + beta * d[i];
        }
    }
    w
}
