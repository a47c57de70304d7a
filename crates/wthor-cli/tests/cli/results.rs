//! `wthor results summary|merge` and `wthor cache merge`: a sample solved
//! in one run and in 3 shards run as separate processes (through GNU
//! parallel when it is installed) gives the same report.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::wthor;

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `validate --solve` of the sample, with `extra` arguments.
fn solve_args<'a>(dir: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "validate",
        "--solve",
        "--sample",
        "20",
        "--seed",
        "3",
        "--threads",
        "1",
        "--tt-bits",
        "16",
    ];
    args.extend_from_slice(extra);
    args.push(dir);
    args
}

/// A `results summary --json` report without what differs from run to run
/// (times) or with the number of logs.
fn summary_json(logs: &[&Path]) -> serde_json::Value {
    let mut args = vec!["results", "summary", "--json"];
    args.extend(logs.iter().map(|p| p.to_str().unwrap()));
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let mut v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let strip = |s: &mut serde_json::Value| {
        for k in [
            "median_seconds",
            "p90_seconds",
            "median_cpu_seconds",
            "p90_cpu_seconds",
        ] {
            s.as_object_mut().unwrap().remove(k);
        }
    };
    strip(&mut v["total"]);
    for f in v["files"].as_array_mut().unwrap() {
        strip(f);
    }
    v.as_object_mut().unwrap().remove("logs");
    v
}

fn mismatches_csv(logs: &[&Path]) -> String {
    let mut args = vec!["results", "summary", "--mismatches", "--format", "csv"];
    args.extend(logs.iter().map(|p| p.to_str().unwrap()));
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    stdout(&out)
}

/// Runs the 3 shards as separate processes: GNU parallel when installed,
/// else 3 processes started together.
fn run_shards(data: &Path, d: &Path) {
    let data = data.to_str().unwrap();
    let dir = d.to_str().unwrap();
    let bin = env!("CARGO_BIN_EXE_wthor");
    let has_parallel = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if has_parallel {
        let mut cmd = Command::new("parallel");
        cmd.arg("--will-cite").arg(bin).args(solve_args(
            data,
            &[
                "--shard",
                "{}/3",
                "--results",
                &format!("{dir}/shard{{}}.jsonl"),
                "--cache",
                &format!("{dir}/shard{{}}.bin"),
            ],
        ));
        let out = cmd.args([":::", "1", "2", "3"]).output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        return;
    }
    eprintln!("GNU parallel not installed: 3 processes started by the test");
    let children: Vec<_> = (1..=3)
        .map(|k| {
            let shard = format!("{k}/3");
            let results = format!("{dir}/shard{k}.jsonl");
            let cache = format!("{dir}/shard{k}.bin");
            Command::new(bin)
                .args(solve_args(
                    data,
                    &["--shard", &shard, "--results", &results, "--cache", &cache],
                ))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    }
}

#[test]
fn three_shards_give_the_report_of_one_run() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let data = d.join("data");
    std::fs::create_dir(&data).unwrap();
    // 9 games with a wrong and an impossible stored score, and the 24 of a
    // fixture file: a sample of 20 over two files.
    crate::solve::write_games(&data);
    std::fs::copy(
        crate::workspace_root().join("testdata/WTH_2002.wtb"),
        data.join("WTH_2002.wtb"),
    )
    .unwrap();
    let data_s = data.to_str().unwrap();
    let single = d.join("single.jsonl");
    let single_cache = d.join("single.bin");
    let out = wthor(&solve_args(
        data_s,
        &[
            "--results",
            single.to_str().unwrap(),
            "--cache",
            single_cache.to_str().unwrap(),
        ],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    run_shards(&data, d);
    let shards: Vec<std::path::PathBuf> =
        (1..=3).map(|k| d.join(format!("shard{k}.jsonl"))).collect();
    let shard_refs: Vec<&Path> = shards.iter().map(|p| p.as_path()).collect();

    let one = summary_json(&[&single]);
    assert_eq!(one["total"]["checked"], 20, "{one}");
    assert_eq!(one["total"]["impossible"], 1, "{one}");
    assert_eq!(one["files"].as_array().unwrap().len(), 2, "{one}");
    assert_eq!(one["duplicates"], 0);
    assert_eq!(one["conflicts"], 0);
    assert_eq!(summary_json(&shard_refs), one);
    let csv = mismatches_csv(&[&single]);
    assert_eq!(
        csv.lines().count(),
        2,
        "a header and the impossible value: {csv}"
    );
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("2001:5,WTH_2001.wtb,0000-00-00,5,#0,#1,70,"),
        "{csv}"
    );
    assert_eq!(mismatches_csv(&shard_refs), csv);

    // The text report: per file and in total, as validate --solve prints.
    let out = wthor(&["results", "summary", single.to_str().unwrap()]);
    let t = stdout(&out);
    assert!(t.lines().any(|l| l.starts_with("WTH_2001.wtb: ")), "{t}");
    assert!(t.lines().any(|l| l.starts_with("WTH_2002.wtb: ")), "{t}");
    assert!(t.contains("total: 20 games checked: "), "{t}");
    assert!(t.contains("solve time per game: median "), "{t}");
    assert!(
        t.ends_with("logs: 1, duplicate lines: 0, conflicts: 0\n"),
        "{t}"
    );

    // Merged, the shards are one log of the 12 games, equal in report.
    let all = d.join("all.jsonl");
    let mut args = vec!["results", "merge", "-o", all.to_str().unwrap()];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "{}: 20 records from 3 logs (0 duplicate lines)\n",
            all.display()
        )
    );
    assert_eq!(std::fs::read_to_string(&all).unwrap().lines().count(), 20);
    assert_eq!(summary_json(&[&all]), one);
    // The single run and the shards together: every game twice, agreeing.
    let mut both = shard_refs.clone();
    both.push(&single);
    let v = summary_json(&both);
    assert_eq!(
        (v["duplicates"].as_u64(), v["conflicts"].as_u64()),
        (Some(20), Some(0))
    );
    assert_eq!(v["total"], one["total"]);

    // The caches merge into the single run's positions.
    let merged_cache = d.join("all.bin");
    let mut args = vec!["cache", "merge", "-o", merged_cache.to_str().unwrap()];
    let caches: Vec<String> = (1..=3)
        .map(|k| d.join(format!("shard{k}.bin")).to_str().unwrap().to_owned())
        .collect();
    args.extend(caches.iter().map(String::as_str));
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let single_positions = wthor_db::cache::SolveCache::load(&single_cache)
        .unwrap()
        .len();
    let merged_positions = wthor_db::cache::SolveCache::load(&merged_cache)
        .unwrap()
        .len();
    assert_eq!(merged_positions, single_positions);
    assert!(
        stdout(&out).ends_with(&format!(
            ": {single_positions} positions from 3 caches (0 positions with two scores)\n"
        )),
        "{}",
        stdout(&out)
    );
}

#[test]
fn conflicts_and_files_that_are_not_logs_or_caches() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    crate::solve::write_games(d);
    let log = d.join("r.jsonl");
    let cache = d.join("c.bin");
    let out = wthor(&solve_args(
        d.join("WTH_2001.wtb").to_str().unwrap(),
        &[
            "--results",
            log.to_str().unwrap(),
            "--cache",
            cache.to_str().unwrap(),
        ],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&log).unwrap();

    // The same game solved to another value in another log: a conflict,
    // exit 1, both sources named.
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut other = first.clone();
    other["solved"] = (first["solved"].as_u64().unwrap() + 2).into();
    other["status"] = "mismatch".into();
    let other_log = d.join("other.jsonl");
    std::fs::write(&other_log, format!("{other}\n")).unwrap();
    let out = wthor(&[
        "results",
        "summary",
        log.to_str().unwrap(),
        other_log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "wthor: conflict: 2001:{} (WTH_2001.wtb of ",
            first["index"]
        )) && err.contains(&format!("{}:1: mismatch", other_log.display())),
        "{err}"
    );
    assert!(stdout(&out).ends_with("logs: 2, duplicate lines: 0, conflicts: 1\n"));

    // A cache is not a results log; a results log is not a cache: refused,
    // nothing written.
    let out = wthor(&["results", "summary", cache.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!(
            "wthor: {}: line 1: not a results log line (",
            cache.display()
        )),
        "{}",
        stderr(&out)
    );
    let merged = d.join("m.jsonl");
    let out = wthor(&[
        "results",
        "merge",
        "-o",
        merged.to_str().unwrap(),
        log.to_str().unwrap(),
        cache.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!merged.exists());
    let merged_cache = d.join("m.bin");
    let out = wthor(&[
        "cache",
        "merge",
        "-o",
        merged_cache.to_str().unwrap(),
        cache.to_str().unwrap(),
        log.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {}: not a solve cache (it does not start with \"WTHSOLV1\")\n",
            log.display()
        )
    );
    assert!(!merged_cache.exists());
    let out = wthor(&[
        "cache",
        "merge",
        "-o",
        merged_cache.to_str().unwrap(),
        d.join("missing.bin").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!merged_cache.exists());
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        text,
        "inputs untouched"
    );

    // --mismatches: the wrong and the impossible stored scores, with their
    // identity and position.
    let out = wthor(&["results", "summary", "--mismatches", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let t = stdout(&out);
    assert!(
        t.ends_with("games whose stored score disagrees: 2\n"),
        "{t}"
    );
    let lines: Vec<&str> = t.lines().collect();
    assert!(
        lines[0].starts_with("2001:3 (WTH_2001.wtb record 3): #0 vs #1: stored "),
        "{t}"
    );
    assert!(lines[0].contains(" (mismatch); position "), "{t}");
    assert!(
        lines[1].starts_with("2001:5 (WTH_2001.wtb record 5): #0 vs #1: stored 70, solved "),
        "{t}"
    );
    assert!(
        lines[1].ends_with(" X"),
        "the position as OBF, black to move: {t}"
    );
}

/// `results merge` refuses logs of two commands up front (exit 2, a line
/// of each named), and writes nothing when the logs conflict (exit 1, both
/// lines named as LOG:LINE), so that a finding is never lost to an
/// ignored exit status; `stats --accuracy` refuses a `validate --solve`
/// log in one line (issue 36, items 4 and 5).
#[test]
fn merge_refuses_two_kinds_and_writes_nothing_on_a_conflict() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    crate::solve::write_games(d);
    let log = d.join("r.jsonl");
    let out = wthor(&solve_args(
        d.join("WTH_2001.wtb").to_str().unwrap(),
        &["--results", log.to_str().unwrap()],
    ));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&log).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    // An `analyze` line of the same game.
    let mut analysed = serde_json::json!({
        "game": format!("2001:{}", first["index"]),
        "year": 2001,
        "black": "#0",
        "white": "#1",
        "empties": 20,
        "moves": [],
    });
    for k in ["file", "created", "index", "hash"] {
        analysed[k] = first[k].clone();
    }
    let analyses = d.join("a.jsonl");
    std::fs::write(&analyses, format!("{analysed}\n")).unwrap();
    let merged = d.join("m.jsonl");
    let merge = |logs: &[&Path]| {
        let mut args = vec!["results", "merge", "-o", merged.to_str().unwrap()];
        args.extend(logs.iter().map(|p| p.to_str().unwrap()));
        wthor(&args)
    };
    let out = merge(&[&log, &analyses]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {}:1: a result of wthor analyze, where {}:1 is one of wthor validate \
             --solve: logs of two kinds do not merge\n",
            analyses.display(),
            log.display()
        )
    );
    assert!(!merged.exists());
    let out = wthor(&["results", "summary", analyses.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {}:1: a result of wthor analyze: results summary reads the logs of wthor \
             validate --solve\n",
            analyses.display()
        )
    );

    // The same game ok in one log and a mismatch in the other.
    let mut other = first.clone();
    other["solved"] = (first["solved"].as_u64().unwrap() + 2).into();
    other["status"] = "mismatch".into();
    let other_log = d.join("other.jsonl");
    std::fs::write(&other_log, format!("\n{other}\n")).unwrap();
    let out = merge(&[&log, &other_log]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out), "");
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            ": {}:1: {} (stored {}, solved {}); {}:2: mismatch (stored {}, solved {})\n",
            log.display(),
            first["status"].as_str().unwrap(),
            first["stored"],
            first["solved"],
            other_log.display(),
            other["stored"],
            other["solved"]
        )),
        "{err}"
    );
    assert!(
        err.ends_with(&format!(
            "wthor: {}: nothing written: the logs disagree (1 conflict); settle them first\n",
            merged.display()
        )),
        "{err}"
    );
    assert!(!merged.exists());

    // A validate log given to the accuracy tables.
    let out = wthor(&["stats", "--accuracy", "--results", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {}:1: a result of wthor validate --solve: the accuracy tables read the \
             results of wthor analyze\n",
            log.display()
        )
    );
}
