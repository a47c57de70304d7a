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
//! `--deviations N` (0 by default) adds exactly labelled positions off
//! the games' lines: for each training game, `N` seeded lines that leave
//! it at [`DEVIATION_EMPTIES`] empties by a random legal move other than
//! the game's and go on mostly by exact best moves, every position down
//! to [`DEVIATION_LAST`] empties solved ([`Game::deviation`]); they join
//! the samples of their stage with the year of their game (each line kept
//! in `target/train/` like the game samples). One line a game: 774,000
//! positions (stages 10-14 and 15-19) in about 12 core-minutes; the
//! midgame search's error at 24 empties at 10 ms stayed within the
//! benchmark's scatter (two lines: no better) and the solver's nodes on
//! FFO #40-#49 rose by 4%, so the default stays off (`docs/benchmarks.md`,
//! "Midgame search").
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

use crate::fixtures::rng::Rng;

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
    /// Deviation lines per training game ([`Game::deviation`]).
    pub(crate) deviations: usize,
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
    let (mut samples, games, skipped) = cached_samples(&dir)?;
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
    if options.deviations > 0 {
        let extra = cached_deviations(&dir, options.deviations, &test)?;
        eprintln!(
            "{} positions off the games' lines ({} a game), every stage: {:?}",
            extra.len(),
            options.deviations,
            (0..STAGES)
                .map(|stage| {
                    extra
                        .iter()
                        .filter(|s| eval::stage((!(s.p | s.o)).count_ones()) == stage)
                        .count()
                })
                .collect::<Vec<_>>()
        );
        samples.extend(extra);
    }
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
    let key = format!("samples v1, exact {EXACT_MAX}\n{}", files_key(dir)?);
    let (samples, counts) = cached(&key, "samples", || {
        let (samples, games, skipped) = read_samples(dir)?;
        Ok((samples, [games as u64, skipped as u64]))
    })?;
    Ok((samples, counts[0] as usize, counts[1] as usize))
}

/// The names, sizes and times of the files of `dir`, one a line.
fn files_key(dir: &Path) -> Result<String> {
    let mut key = String::new();
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
    Ok(key)
}

/// The samples of [`Game::deviation`] for `lines` lines a game of the
/// years not in `test`, each line kept in `target/train/` like
/// [`cached_samples`] (so that more lines solve only the new ones).
fn cached_deviations(dir: &Path, lines: usize, test: &[u16]) -> Result<Vec<Sample>> {
    let files = files_key(dir)?;
    let mut all = Vec::new();
    for line in 0..lines {
        let key = format!(
            "deviations v2, line {line}, seed {DEVIATION_SEED:x}, at {DEVIATION_EMPTIES:?}, best {DEVIATION_BEST:?}, to {DEVIATION_LAST}, held out {test:?}\n{files}"
        );
        let (samples, _) = cached(&key, "deviations", || {
            let start = std::time::Instant::now();
            let (games, _) = read_games(dir)?;
            let games: Vec<(usize, &Game)> = games
                .iter()
                .enumerate()
                .filter(|(_, g)| !test.contains(&g.year))
                .collect();
            let (samples, busy) = in_parts(&games, |chunk, solver, out| {
                for &(index, g) in chunk {
                    g.deviation(index, line, solver, out);
                }
            });
            eprintln!(
                "line {line}: {} positions off the lines of {} games solved in {:.1} s ({:.1} s of the threads' time)",
                samples.len(),
                games.len(),
                start.elapsed().as_secs_f64(),
                busy.as_secs_f64()
            );
            Ok((samples, [games.len() as u64, 0]))
        })?;
        all.extend(samples);
    }
    Ok(all)
}

/// The samples made by `make` (with two counts), or those it made before
/// under the same `key`: kept in `target/train/NAME-HASH.bin`.
fn cached(
    key: &str,
    name: &str,
    make: impl FnOnce() -> Result<(Vec<Sample>, [u64; 2])>,
) -> Result<(Vec<Sample>, [u64; 2])> {
    const RECORD: usize = 19;
    let cache_dir = crate::util::project_root().join("target/train");
    let path = cache_dir.join(format!(
        "{name}-{:016x}.bin",
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
        eprintln!("{name} read from {}", path.display());
        return Ok((samples, [count(0), count(8)]));
    }
    eprintln!("{name} not kept yet: making {}", path.display());
    let (samples, counts) = make()?;
    let mut bytes = Vec::with_capacity(16 + RECORD * samples.len());
    bytes.extend(counts[0].to_le_bytes());
    bytes.extend(counts[1].to_le_bytes());
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
    Ok((samples, counts))
}

/// The samples of every `.wtb` file of `dir` (sorted by name), the number
/// of games used and skipped.
fn read_samples(dir: &Path) -> Result<(Vec<Sample>, usize, usize)> {
    let (games, skipped) = read_games(dir)?;
    let (samples, _) = in_parts(&games, |chunk, solver, out| {
        for g in chunk {
            g.samples(solver, out);
        }
    });
    Ok((samples, games.len(), skipped))
}

/// The replayed games of every `.wtb` file of `dir` (sorted by name), and
/// the number skipped.
fn read_games(dir: &Path) -> Result<(Vec<Game>, usize)> {
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
    Ok((games, skipped))
}

/// Runs `work` on one contiguous part of `items` per core, each with a
/// solver of its own, and joins what the parts push in order, so that
/// the samples do not depend on the number of cores (solving takes most
/// of the time); with the threads' busy time added up.
fn in_parts<T: Sync>(
    items: &[T],
    work: impl Fn(&[T], &mut Solver, &mut Vec<Sample>) + Sync,
) -> (Vec<Sample>, std::time::Duration) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let part = items.len().div_ceil(cores).max(1);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(part)
            .map(|chunk| {
                scope.spawn(move || {
                    let start = std::time::Instant::now();
                    let mut solver = Solver::new(SolverOptions {
                        threads: 1,
                        tt_bits: 18,
                    });
                    let mut out = Vec::new();
                    work(chunk, &mut solver, &mut out);
                    (out, start.elapsed())
                })
            })
            .collect();
        let mut busy = std::time::Duration::ZERO;
        let mut samples = Vec::new();
        for h in handles {
            let (out, t) = h.join().expect("no panic");
            samples.extend(out);
            busy += t;
        }
        (samples, busy)
    })
}

/// Positions with at most this many empty squares are labelled with their
/// exact score, solved (about 80 s on 2 cores; to 16 empties: 7 minutes
/// for 1.5% fewer nodes on FFO #40–#49). The theoretical score is exact at
/// the file's depth only: an evaluation trained on it for the later
/// positions too erred by 13 discs at 12 empties against exact scores (9
/// when trained on them), because players' mistakes after the depth change
/// the score.
const EXACT_MAX: u32 = 14;

/// Where deviation lines leave a game (empty squares before the move off
/// the line; [`Game::deviation`]).
const DEVIATION_EMPTIES: std::ops::RangeInclusive<u32> = 14..=18;

/// The fewest empty squares of the positions solved on a deviation line.
const DEVIATION_LAST: u32 = 10;

/// How often a deviation line goes on by the exact best move (`.0` times
/// in `.1`; a random legal move otherwise): lines of random moves alone
/// made positions unlike the searched ones (see [`Game::deviation`]).
const DEVIATION_BEST: (u64, u64) = (3, 4);

/// The seed of the deviation lines.
const DEVIATION_SEED: u64 = 0x6465_7669_6174_6531;

/// The moves of a deviation line, picked by the fixtures' SplitMix64.
struct Picker(Rng);

impl Picker {
    /// One of `0..n` (`n > 0`), by multiply-shift.
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.0.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// One of the set bits of `bits` (not 0).
    fn bit(&mut self, mut bits: u64) -> usize {
        for _ in 0..self.below(u64::from(bits.count_ones())) {
            bits &= bits - 1;
        }
        bits.trailing_zeros() as usize
    }
}

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

impl Game {
    /// Appends the samples of line number `line` off the game (seeded by
    /// the line and the game's `index` in the archive): it leaves the game
    /// at a random number of empties of [`DEVIATION_EMPTIES`] by a random
    /// legal move other than the game's (none when the mover has no
    /// other: no line), then goes on by the exact best move or a random
    /// legal move ([`DEVIATION_BEST`]), passing when it must; every
    /// position of the line from the one after the deviation down to
    /// [`DEVIATION_LAST`] empties where the mover has a move is solved
    /// exactly. Lines of random moves alone (tried first) gave the
    /// evaluation a bias (mean error +0.8 disc at depth 10 on the 24-empty
    /// test set against +0.04) and a larger error (3.55 discs against
    /// 3.44); with the best moves, 3.40. The lines of a game may leave it
    /// at the same point.
    fn deviation(&self, index: usize, line: usize, solver: &mut Solver, out: &mut Vec<Sample>) {
        let empties = |p: u64, o: u64| (!(p | o)).count_ones();
        let mut rng = Picker(Rng::new(
            DEVIATION_SEED ^ ((index as u64) << 16 | line as u64),
        ));
        let lo = *DEVIATION_EMPTIES.start();
        let at = lo + rng.below(u64::from(DEVIATION_EMPTIES.end() - lo + 1)) as u32;
        let Some(i) = self
            .positions
            .iter()
            .position(|&(p, o, _)| empties(p, o) == at)
        else {
            return;
        };
        let (p, o, _) = self.positions[i];
        // The game's move: the square filled by the next position.
        let played = self
            .positions
            .get(i + 1)
            .map_or(0, |&(q, r, _)| (q | r) & !(p | o));
        let others = legal_moves(p, o) & !played;
        if others == 0 {
            return;
        }
        let sq = rng.bit(others);
        let f = flips(p, o, sq);
        let (mut p, mut o) = (o ^ f, p | f | (1 << sq));
        while empties(p, o) >= DEVIATION_LAST {
            let mut moves = legal_moves(p, o);
            if moves == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                moves = legal_moves(p, o);
            }
            let solution = solver.solve(p, o);
            out.push(Sample {
                p,
                o,
                target: solution.score as i8,
                year: self.year,
            });
            let sq = match solution.best_move {
                Some(best) if rng.below(DEVIATION_BEST.1) < DEVIATION_BEST.0 => usize::from(best),
                _ => rng.bit(moves),
            };
            let f = flips(p, o, sq);
            (p, o) = (o ^ f, p | f | (1 << sq));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole game of the first legal move at every turn.
    fn first_moves_game() -> Game {
        let (mut p, mut o) = othello_core::bitboard8::START;
        let mut black = true;
        let mut positions = Vec::new();
        loop {
            if legal_moves(p, o) == 0 {
                if legal_moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                black = !black;
            }
            positions.push((p, o, black));
            let sq = legal_moves(p, o).trailing_zeros() as usize;
            let f = flips(p, o, sq);
            (p, o) = (o ^ f, p | f | (1 << sq));
            black = !black;
        }
        Game {
            positions,
            theory: 0,
            depth: 24,
            year: 2000,
        }
    }

    fn solver() -> Solver {
        Solver::new(SolverOptions {
            threads: 1,
            tt_bits: 16,
        })
    }

    #[test]
    fn deviation_lines_are_seeded_solved_and_off_the_game() {
        let game = first_moves_game();
        let mut lines = Vec::new();
        let mut shared = solver();
        for line in 0..4 {
            let mut out = Vec::new();
            game.deviation(7, line, &mut shared, &mut out);
            lines.push(out);
        }
        let key = |v: &[Sample]| -> Vec<(u64, u64, i8, u16)> {
            v.iter().map(|s| (s.p, s.o, s.target, s.year)).collect()
        };
        // The same line again, with another solver (another table).
        let mut again = Vec::new();
        game.deviation(7, 2, &mut solver(), &mut again);
        assert_eq!(key(&again), key(&lines[2]));
        let distinct: std::collections::HashSet<_> = lines.iter().map(|l| key(l)).collect();
        assert!(distinct.len() > 1, "the lines differ");
        let mut check = solver();
        for s in lines.iter().flatten() {
            let n = (!(s.p | s.o)).count_ones();
            assert!(
                (DEVIATION_LAST..*DEVIATION_EMPTIES.end()).contains(&n),
                "{n} empties"
            );
            assert!(legal_moves(s.p, s.o) != 0);
            assert!(!game.positions.iter().any(|&(p, o, _)| (p, o) == (s.p, s.o)));
            assert_eq!(i32::from(s.target), check.solve(s.p, s.o).score);
            assert_eq!(s.year, 2000);
        }
    }
}
