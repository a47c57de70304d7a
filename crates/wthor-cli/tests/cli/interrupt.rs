//! SIGINT and SIGTERM during long runs: the work done is saved, the run
//! says so and exits 130, and the same command goes on from there.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::info::{stderr, stdout};

/// A copy of the 1,500-game fixture file with its theoretical scores
/// declared at 18 empties: each solve takes a while, the whole file far
/// longer than any test waits.
fn slow_file(dir: &Path) -> std::path::PathBuf {
    let mut bytes = std::fs::read(crate::workspace_root().join("testdata/WTH_2003.wtb")).unwrap();
    bytes[14] = 18;
    let path = dir.join("WTH_2003.wtb");
    std::fs::write(&path, bytes).unwrap();
    path
}

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |t| t.lines().count())
}

/// Waits (at most a minute: a bound, not a time asserted) until `ready`.
fn wait_for(mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "still waiting after a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The number of positions in a solve cache, as `wthor cache merge` counts them.
fn cache_positions(cache: &Path, dir: &Path) -> usize {
    let merged = dir.join("merged.bin");
    let out = crate::wthor(&[
        "cache",
        "merge",
        cache.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let n = text.split(": ").nth(1).unwrap().split(' ').next().unwrap();
    n.parse().unwrap()
}

/// The number N of "interrupted: N … solved and saved (FILES); run the same
/// command to resume".
fn solved_and_saved(out: &Output, files: &str) -> usize {
    let err = stderr(out);
    let line = err
        .lines()
        .find(|l| l.starts_with("wthor: interrupted: "))
        .unwrap_or_else(|| panic!("no interrupted line in:\n{err}"));
    assert!(
        line.ends_with(&format!(
            " solved and saved ({files}); run the same command to resume"
        )),
        "{line}"
    );
    line["wthor: interrupted: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn validate_solve_saves_its_log_and_cache_on_a_signal_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_file(dir.path());
    let results = dir.path().join("r.jsonl");
    let cache = dir.path().join("c.bin");
    let (r, c) = (results.to_str().unwrap(), cache.to_str().unwrap());
    let args = [
        "validate",
        "--solve",
        "--threads",
        "1",
        "--tt-bits",
        "16",
        "--results",
        r,
        "--cache",
        c,
        file.to_str().unwrap(),
    ];

    let child = spawn(&args);
    wait_for(|| lines(&results) >= 3);
    signal(&child, "INT");
    let first = child.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(130), "{}", stderr(&first));
    let solved = solved_and_saved(&first, &format!("{r}, {c}"));
    assert_eq!(lines(&results), solved, "every game solved is logged");
    assert!(solved < 1500);
    let cached = cache_positions(&cache, dir.path());
    assert!(cached >= 1 && cached <= solved, "{cached} of {solved}");
    assert!(
        stdout(&first).contains(&format!("theoretical scores: {solved} games checked")),
        "the report of what was checked:\n{}",
        stdout(&first)
    );

    // The same command again, stopped by SIGTERM: the games logged are not
    // solved again.
    let child = spawn(&args);
    wait_for(|| lines(&results) >= solved + 2);
    signal(&child, "TERM");
    let second = child.wait_with_output().unwrap();
    assert_eq!(second.status.code(), Some(130), "{}", stderr(&second));
    let now = solved_and_saved(&second, &format!("{r}, {c}"));
    assert_eq!(lines(&results), solved + now);
    assert!(
        stdout(&second).contains(&format!(
            "; {now} checked now, {solved} already in the results file"
        )),
        "{}",
        stdout(&second)
    );
    assert!(cache_positions(&cache, dir.path()) >= cached);
}

#[test]
fn import_saves_its_cache_on_a_signal_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = slow_file(dir.path());
    let into = dir.path().join("into");
    let cache = dir.path().join("ic.bin");
    let c = cache.to_str().unwrap();
    let mut child = spawn(&[
        "import",
        file.to_str().unwrap(),
        "--into",
        into.to_str().unwrap(),
        "--depth",
        "20",
        "--threads",
        "1",
        "--cache",
        c,
    ]);
    // The plan is printed (and flushed) before the solving starts.
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut plan = String::new();
    while !plan.contains("creation date") {
        assert_ne!(out.read_line(&mut plan).unwrap(), 0, "{plan}");
    }
    std::thread::sleep(Duration::from_millis(500));
    signal(&child, "INT");
    let end = child.wait_with_output().unwrap();
    assert_eq!(end.status.code(), Some(130), "{}", stderr(&end));
    let solved = solved_and_saved(&end, c);
    // Of the games to import: those of the file less the 5 it holds twice.
    assert!(
        stderr(&end).contains(&format!("interrupted: {solved} of 1495 games solved")),
        "{}",
        stderr(&end)
    );
    assert!(!into.exists(), "nothing written, no folder made");
    assert!(cache_positions(&cache, dir.path()) <= solved);
}

#[test]
fn an_analyze_batch_keeps_its_log_on_a_signal_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    slow_file(dir.path());
    for names in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            crate::workspace_root().join("testdata").join(names),
            dir.path().join(names),
        )
        .unwrap();
    }
    let results = dir.path().join("a.jsonl");
    let r = results.to_str().unwrap();
    let args = [
        "analyze",
        "--db",
        dir.path().to_str().unwrap(),
        "--empties",
        "16",
        "--estimate-depth",
        "4",
        "--threads",
        "1",
        "--results",
        r,
    ];
    let child = spawn(&args);
    wait_for(|| lines(&results) >= 3);
    signal(&child, "INT");
    let first = child.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(130), "{}", stderr(&first));
    let done = solved_and_saved(&first, r);
    assert_eq!(lines(&results), done, "every game analysed is logged");
    assert!(
        stdout(&first).contains(&format!(
            "{done} games analysed from 16 empties ({done} now"
        )),
        "{}",
        stdout(&first)
    );
    let child = spawn(&args);
    wait_for(|| lines(&results) >= done + 2);
    signal(&child, "TERM");
    let second = child.wait_with_output().unwrap();
    assert_eq!(second.status.code(), Some(130), "{}", stderr(&second));
    let now = solved_and_saved(&second, r);
    assert_eq!(lines(&results), done + now);
    assert!(
        stdout(&second).contains(&format!("({now} now, {done} from the results file)")),
        "{}",
        stdout(&second)
    );
}

/// `wthor solve` on a file of a quick position and a long one: once the
/// first answer is out (the run is armed), SIGINT stops the second search,
/// which answers with the best found so far, marked interrupted; exit 130.
/// Both ways: the midgame search (`--time`, far past the test) and an
/// exact solve (`--exact` at 34 empties, far past it too).
#[test]
fn solve_prints_the_best_so_far_on_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    // 11 empties, then the start position or 42 empties, then 11 again.
    let quick = "XXXXXXXXXOOOOOOXXOXXXOOXXOOXOOXXXOOXOXXXXOXOOXX-O--OX---O--OX--- X";
    let start = "---------------------------OX------XO--------------------------- X";
    let deep = "--------------OX----XXO----XXOOX---XXOXO---OOOX--O--OX---------- X";
    for (label, long, flags) in [
        ("midgame", start, &["--time", "3600000"][..]),
        ("exact", deep, &["--exact"][..]),
    ] {
        let file = dir.path().join(format!("{label}.obf"));
        std::fs::write(&file, format!("{quick}\n{long}\n{quick}\n")).unwrap();
        let mut args = vec![
            "solve",
            "--json",
            "--threads",
            "1",
            "--file",
            file.to_str().unwrap(),
        ];
        args.extend(flags);
        let mut child = spawn(&args);
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        out.read_line(&mut first).unwrap();
        assert!(first.contains("\"score\""), "{label}: {first}");
        signal(&child, "INT");
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(130), "{label}: {rest}");
        let lines: Vec<&str> = rest.lines().collect();
        // The long position answered, the third never searched.
        assert_eq!(lines.len(), 1, "{label}: {rest}");
        let answer: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(answer["interrupted"], true, "{label}: {rest}");
        assert_eq!(answer["estimate"], true, "{label}: {rest}");
        assert!(answer["best_move"].is_string(), "{label}: {rest}");
        assert!(
            answer["search_depth"].as_u64().unwrap() >= 1,
            "{label}: {rest}"
        );
    }
}
