//! No command panics on any input: every command on every fixture file
//! (`testdata/` and `testdata/malformed/`; one of the files made alike),
//! each given to commands of other kinds too. A panic exits 101; every run
//! must exit 0, 1 or 2, with no "panicked" on stderr.

use std::path::PathBuf;

use crate::{workspace_root, wthor};

/// The fixture files made as another one is, for ratings: 2004 to 2008 are
/// written as the 2003 file (the same generator, header and players, other
/// games), so they add runs and no new input; 2003 stands for them.
const SAME_SHAPE_AS_2003: [&str; 5] = [
    "WTH_2004.wtb",
    "WTH_2005.wtb",
    "WTH_2006.wtb",
    "WTH_2007.wtb",
    "WTH_2008.wtb",
];

/// Every fixture file of its own shape, sorted.
fn fixtures() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["testdata", "testdata/malformed"] {
        for entry in std::fs::read_dir(workspace_root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap();
            if path.is_file()
                && path.extension().is_some_and(|e| e != "md")
                && !SAME_SHAPE_AS_2003.contains(&name)
            {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 20, "{files:?}");
    // The names above are fixtures still (a renamed file would otherwise
    // come back into the runs unnoticed).
    for name in SAME_SHAPE_AS_2003 {
        assert!(
            workspace_root().join("testdata").join(name).is_file(),
            "{name}"
        );
    }
    files
}

#[test]
fn no_command_panics_on_any_fixture() {
    let out_dir = tempfile::tempdir().unwrap();
    let mut runs = 0;
    // 128 pseudo-random bytes named as a game file (issue 29, item 10).
    let random = out_dir.path().join("random.wtb");
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes: Vec<u8> = (0..128)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&random, bytes).unwrap();
    let mut files = fixtures();
    files.push(random);
    for file in files {
        let f = file.to_str().unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        let converted = out_dir.path().join(name);
        let converted = converted.to_str().unwrap();
        let other = out_dir.path().join("other.pzz");
        let other = other.to_str().unwrap();
        let merged_log = out_dir.path().join("merged.jsonl");
        let merged_log = merged_log.to_str().unwrap();
        let merged_cache = out_dir.path().join("merged.bin");
        let merged_cache = merged_cache.to_str().unwrap();
        let as_csv = out_dir.path().join(format!("{name}.csv"));
        let as_csv = as_csv.to_str().unwrap();
        let into = out_dir.path().join("into");
        let into = into.to_str().unwrap();
        let results = out_dir.path().join(format!("{name}.jsonl"));
        let results = results.to_str().unwrap();
        let graph = out_dir.path().join("graph.svg");
        let graph = graph.to_str().unwrap();
        let analysed = out_dir.path().join(format!("{name}.analysed.jsonl"));
        let analysed = analysed.to_str().unwrap();
        let commands: Vec<Vec<&str>> = vec![
            vec!["info", f],
            vec!["info", "--strict", "--json", f],
            vec!["validate", f],
            vec!["validate", "--strict", "--json", "--by-file", f],
            // A sample of 4 games keeps the solving quick.
            vec![
                "validate",
                "--solve",
                "--sample",
                "4",
                "--threads",
                "1",
                "--tt-bits",
                "16",
                f,
            ],
            vec![
                "validate",
                "--solve",
                "--sample",
                "4",
                "--threads",
                "1",
                "--tt-bits",
                "16",
                "--json",
                "--results",
                results,
                f,
            ],
            vec!["convert", f, "-o", converted],
            vec!["convert", f, "-o", other],
            vec!["convert", f, "-o", as_csv],
            vec!["show", f, "1", "--numbers"],
            // Shallow estimates keep the analyses quick.
            vec![
                "analyze",
                f,
                "1",
                "--empties",
                "12",
                "--estimate-depth",
                "4",
                "--threads",
                "1",
            ],
            vec![
                "analyze",
                f,
                "0",
                "--empties",
                "8",
                "--estimate-depth",
                "4",
                "--svg",
                graph,
            ],
            // A batch over the file as a database, and the file as a log.
            vec![
                "analyze",
                "--db",
                f,
                "--sample",
                "2",
                "--empties",
                "8",
                "--estimate-depth",
                "4",
                "--threads",
                "1",
                "--results",
                analysed,
            ],
            vec!["stats", "--accuracy", "--results", f],
            vec!["stats", "--accuracy", "--results", analysed, "--db", f],
            vec!["openings", "--db", f],
            vec!["search", "--db", f, "--count"],
            vec!["duplicates", "--db", f],
            vec!["duplicates", "--db", f, "--format", "jsonl"],
            vec!["export", "--db", f, "--dedupe"],
            vec!["search", "--db", f, "--strict", "--count"],
            vec!["search", "--db", f, "--opening-name", "tiger"],
            vec![
                "search",
                "--db",
                f,
                "--opening-name",
                "no such name",
                "--count",
            ],
            vec!["stats", "--db", f, "--openings", "5", "--next"],
            vec![
                "export",
                "--db",
                f,
                "--opening-name",
                "rose",
                "--format",
                "ggf",
            ],
            vec!["stats", "--db", f, "--position-after", "f5d6"],
            vec!["ratings", "--db", f],
            vec!["ratings", "--db", f, "--player", "x", "--format", "jsonl"],
            vec!["ratings", "--db", f, "--evaluate", "2001..2003"],
            vec!["import", f, "--into", into, "--dry-run"],
            vec!["replay", f, "0"],
            vec!["replay", f, "1000000"],
            vec!["puzzles", f],
            vec!["puzzles", "--json", f],
            vec![
                "puzzles",
                "--verify",
                "--threads",
                "1",
                "--tt-bits",
                "16",
                f,
            ],
            vec!["solve", "--threads", "1", "--tt-bits", "16", "--file", f],
            vec!["results", "summary", f],
            vec!["results", "summary", "--mismatches", "--format", "csv", f],
            vec!["results", "merge", f, "-o", merged_log],
            vec!["cache", "merge", f, "-o", merged_cache],
            // Few empties: 10, and 4 after 56 moves.
            vec![
                "solve",
                "--threads",
                "1",
                "--tt-bits",
                "16",
                "--game",
                f,
                "0",
                "--empties",
                "10",
            ],
            vec![
                "solve",
                "--threads",
                "1",
                "--tt-bits",
                "16",
                "--game",
                f,
                "1",
                "--move",
                "56",
            ],
        ];
        for args in commands {
            let out = wthor(&args);
            check_no_crash(&args, &out);
            runs += 1;
        }
        // `wthor serve` on the file: refused (exit 2), or serving answers
        // below 500 and stops cleanly.
        match crate::serve::Server::start(&["--db", f]) {
            Err((code, err)) => assert!(
                code == Some(2) && !err.contains("panicked"),
                "wthor serve --db {f}: exit {code:?}\n{err}"
            ),
            Ok(server) => {
                for path in [
                    "/api/v1/explorer?play=f5d6",
                    "/api/v1/search?limit=5",
                    "/api/v1/games/0:0",
                    "/api/v1/players?prefix=a",
                    "/api/v1/export?format=ggf",
                ] {
                    let (status, body) = server.get(path);
                    assert!(
                        status < 500,
                        "wthor serve --db {f}: {path}: {status} {body}"
                    );
                }
                let (code, err) = server.stop();
                assert!(code == Some(0) && !err.contains("panicked"), "{f}: {err}");
            }
        }
        runs += 1;
    }
    assert!(runs > 300, "{runs} runs");
}

/// Exit 0, 1 or 2 and no panic, abort or failed allocation: a process
/// killed by a signal (an abort, 134 in a shell; the OOM killer, 137) has
/// no exit code at all.
#[track_caller]
fn check_no_crash(args: &[&str], out: &std::process::Output) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        matches!(out.status.code(), Some(0..=2))
            && !err.contains("panicked")
            && !err.contains("memory allocation"),
        "wthor {}: exit {:?}\n{err}",
        args.join(" "),
        out.status.code()
    );
}

/// Sizes and counts from the command line are checked when it is parsed: a
/// table that cannot fit in memory, a table size out of its range, no
/// threads at all are usage errors (exit 2) naming the range or the sizes,
/// never an allocation that aborts.
#[test]
fn sizes_and_counts_out_of_range_are_usage_errors() {
    let obf = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["solve", "--tt-bits", "40", obf],
            "out of range: from 4 to 32",
        ),
        (vec!["solve", "--tt-bits", "64", obf], "out of range"),
        (vec!["solve", "--tt-bits", "3", obf], "from 4 to 32"),
        (
            vec!["solve", "--tt-bits", "x", obf],
            "expected a whole number of bits from 4 to 32",
        ),
        // 128 GiB: more than any machine CI runs on.
        (
            vec!["solve", "--tt-bits", "32", obf],
            "--tt-bits 32: a table takes 128 GiB, more than this machine's",
        ),
        (
            vec![
                "validate",
                "--solve",
                "--tt-bits",
                "40",
                "testdata/WTH_2001.wtb",
            ],
            "out of range",
        ),
        // Four tables of 64 GiB: refused when parsed (one does not fit) or
        // before any is made (the four do not).
        (
            vec![
                "validate",
                "--solve",
                "--threads",
                "4",
                "--tt-bits",
                "31",
                "testdata/WTH_2001.wtb",
            ],
            "more than this machine's",
        ),
        (
            vec![
                "puzzles",
                "--verify",
                "--tt-bits",
                "36",
                "testdata/Solitaires_12.pzz",
            ],
            "out of range",
        ),
        (vec!["solve", "--threads", "0", obf], "0 threads"),
        (
            vec![
                "validate",
                "--solve",
                "--threads",
                "0",
                "testdata/WTH_2001.wtb",
            ],
            "0 threads",
        ),
        (
            vec![
                "puzzles",
                "--verify",
                "--threads",
                "0",
                "testdata/Solitaires_12.pzz",
            ],
            "0 threads",
        ),
        (vec!["perft", "--depth", "3", "--threads", "0"], "0 threads"),
    ];
    for (args, message) in cases {
        let out = wthor(&args);
        check_no_crash(&args, &out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(2),
            "wthor {}: {err}",
            args.join(" ")
        );
        assert!(err.contains(message), "wthor {}: {err}", args.join(" "));
    }
}
