//! Export and import through the `wthor` binary on the real archive
//! (`$WTHOR_DATA/wthor`, 137,548 games): `bench: <name> = <value> <unit>`
//! lines.
//!
//! * `export_<format>`: `wthor export --db … --format F` to a null output,
//!   best wall-clock time of `RUNS` runs (process start, opening the
//!   database, names decoded, every game written), and the CPU time of that
//!   run (user + system, of the child: a loaded machine inflates the wall
//!   clock, not this); for CSV, JSON Lines, transcripts and GGF. Then
//!   `export_csv_file`: the same to a file (`-o`, temporary file synced
//!   and renamed).
//! * `import_year_*`: `wthor import WTH_2006.wtb` (2,942 games) into an
//!   empty directory. `import_year_dry_run`: read, replay, turn to f5 and
//!   plan, no solving, no write; `import_year_depth8`: the whole import
//!   with theoretical scores at 8 empties, where solving costs nearly
//!   nothing (the import without its slow part); `import_depth24`: the
//!   first `SAMPLE` games (default 20) with scores at 24 empties on 2
//!   threads, and the time the year would take at that rate.
//!
//! `cargo bench -p wthor-cli --bench export_import`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

const RUNS: usize = 3;

/// The CPU seconds (user + system) of the waited-for children of this
/// process so far, from `/proc/self/stat` (Linux); `None` elsewhere.
fn children_cpu() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name in parentheses; cutime, cstime are
    // fields 16 and 17 (1-based), i.e. 13 and 14 after the name.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = fields.get(13)?.parse::<f64>().ok()? + fields.get(14)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// Runs `wthor args`, stdout discarded; (wall seconds, CPU seconds).
fn run(args: &[&str]) -> (f64, Option<f64>) {
    let cpu0 = children_cpu();
    let t = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the wthor binary runs");
    let wall = t.elapsed().as_secs_f64();
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "wthor {args:?}: {status}"
    );
    (wall, cpu0.zip(children_cpu()).map(|(a, b)| b - a))
}

/// The best of `RUNS` runs (by wall clock).
fn best(args: &[&str]) -> (f64, Option<f64>) {
    (0..RUNS)
        .map(|_| run(args))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .expect("at least one run")
}

fn print_cpu(name: &str, cpu: Option<f64>) {
    if let Some(c) = cpu {
        println!("bench: {name}_cpu = {c:.2} s");
    }
}

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("bench: export_import skipped: WTHOR_DATA not set");
        return;
    };
    let dir = Path::new(&data).join("wthor");
    let db = dir.to_str().expect("a UTF-8 path");
    for format in ["csv", "jsonl", "transcript", "ggf"] {
        let (wall, cpu) = best(&["export", "--db", db, "--format", format]);
        println!("bench: export_{format} = {wall:.3} s");
        print_cpu(&format!("export_{format}"), cpu);
    }
    let work = tempfile::tempdir().expect("a temporary directory");
    let out = work.path().join("all.csv");
    let (wall, cpu) = best(&["export", "--db", db, "-o", out.to_str().unwrap()]);
    println!("bench: export_csv_file = {wall:.3} s");
    print_cpu("export_csv_file", cpu);

    let year = dir.join("WTH_2006.wtb");
    let year = year.to_str().unwrap();
    let games = (std::fs::metadata(year).expect("WTH_2006.wtb").len() - 16) / 68;
    let into = |name: &str| work.path().join(name).to_str().unwrap().to_owned();
    let (wall, _) = best(&["import", year, "--into", &into("dry"), "--dry-run"]);
    println!(
        "bench: import_year_dry_run = {:.0} games/s",
        games as f64 / wall
    );
    let (wall, cpu) = run(&[
        "import",
        year,
        "--into",
        &into("d8"),
        "--depth",
        "8",
        "--threads",
        "2",
    ]);
    println!(
        "bench: import_year_depth8 = {:.0} games/s",
        games as f64 / wall
    );
    print_cpu("import_year_depth8", cpu);
    let sample: usize = std::env::var("SAMPLE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    let n = sample.to_string();
    let (wall, cpu) = run(&[
        "import",
        year,
        "--into",
        &into("d24"),
        "--depth",
        "24",
        "--threads",
        "2",
        "--limit",
        &n,
    ]);
    println!(
        "bench: import_depth24 = {:.2} games/s",
        sample as f64 / wall
    );
    print_cpu("import_depth24", cpu);
    println!(
        "bench: import_year_depth24_extrapolated = {:.0} s",
        wall / sample as f64 * games as f64
    );
}
