//! Benchmark (no harness): parse and decode the 49 yearly game files and the
//! four names files of `$WTHOR_DATA/wthor` (137,548 games, about 9.5 MB) on
//! one core, compared with a plain read of the same files.
//!
//! Prints `bench: <name> = <value> <unit>` lines. Each figure is the best
//! wall-clock time of several rounds; on a busy shared machine they remain
//! noisy.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use wthor_format::{FileKind, GameFile, NamesFile, ReadOptions, WthorFile, parse_any};

const ROUNDS: usize = 40;

/// Best wall-clock time of `f` over [`ROUNDS`] rounds.
fn best<T>(mut f: impl FnMut() -> T) -> Duration {
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn report(name: &str, time: Duration) -> Duration {
    println!("bench: format.{name} = {:.2} ms", time.as_secs_f64() * 1e3);
    time
}

fn parse_all(files: &[(PathBuf, Vec<u8>)]) -> Vec<WthorFile<'_>> {
    let options = ReadOptions::default();
    files
        .iter()
        .map(|(path, bytes)| {
            parse_any(bytes, FileKind::from_path(path), &options).expect("a valid file")
        })
        .collect()
}

/// Every game: its fields, and every move decoded to a square.
fn visit_games(file: &GameFile<'_>) -> u64 {
    let size = file.board_size();
    let mut sum = 0u64;
    for game in file.games() {
        sum += u64::from(game.tournament())
            + u64::from(game.black())
            + u64::from(game.white())
            + u64::from(game.real_score())
            + u64::from(game.theoretical_score());
        for square in game.moves().flatten() {
            sum += square.index(size) as u64;
        }
    }
    sum
}

/// Every name decoded to text.
fn visit_names(file: &NamesFile<'_>) -> u64 {
    file.names()
        .map(|name| name.decode(file.encoding()).len() as u64)
        .sum()
}

fn decode_all(parsed: &[WthorFile<'_>]) -> u64 {
    parsed
        .iter()
        .map(|file| match file {
            WthorFile::Games(g) => visit_games(g),
            WthorFile::Names(n) => visit_names(n),
            _ => 0,
        })
        .sum()
}

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("bench: skipped (WTHOR_DATA not set)");
        return;
    };
    let root = PathBuf::from(data).join("wthor");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("$WTHOR_DATA/wthor is readable")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file() && FileKind::from_path(p).is_some())
        .collect();
    paths.sort();
    let read_all = || -> Vec<(PathBuf, Vec<u8>)> {
        paths
            .iter()
            .map(|p| (p.clone(), std::fs::read(p).expect("a readable file")))
            .collect()
    };
    let files = read_all();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let games: usize = parse_all(&files)
        .iter()
        .map(|f| match f {
            WthorFile::Games(g) => g.len(),
            _ => 0,
        })
        .sum();
    println!("bench: format.files = {} files", files.len());
    println!("bench: format.games = {games} games");
    println!("bench: format.bytes = {:.2} MB", bytes as f64 / 1e6);

    let read = report("read_all_files", best(read_all));
    report(
        "sum_all_bytes",
        best(|| {
            // A floor: every byte of the same files looked at once.
            files
                .iter()
                .map(|(_, b)| b.iter().fold(0u64, |a, &x| a.wrapping_add(u64::from(x))))
                .sum::<u64>()
        }),
    );
    report("parse_only", best(|| parse_all(&files).len()));
    let parsed = parse_all(&files);
    report("decode_only", best(|| decode_all(&parsed)));
    let parse = report("parse_all_games", best(|| decode_all(&parse_all(&files))));
    report(
        "read_and_parse_all_games",
        best(|| {
            let files = read_all();
            decode_all(&parse_all(&files))
        }),
    );
    println!(
        "bench: format.parse_to_read_ratio = {:.2} x",
        parse.as_secs_f64() / read.as_secs_f64()
    );
}
