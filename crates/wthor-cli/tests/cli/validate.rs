//! `wthor validate`: generated files (always) and the real database (when
//! `WTHOR_DATA` is set).

use std::path::Path;

use wthor_format::{BoardSize, Game, Header, write_game_file};

use crate::{wthor, wthor_data};

/// The 9-move wipe-out (black wins 13-0 on the board, 64-0 by the rule).
pub(crate) const WIPEOUT: [&str; 9] = ["d3", "c3", "b3", "d2", "e1", "d6", "d7", "e3", "f4"];

/// A file of 4 games: finished, unfinished, illegal, wrong score.
pub(crate) fn write_sample(dir: &Path) {
    let games = [
        Game::from_squares(0, 0, 1, 64, 64, &WIPEOUT, BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 33, 33, &["f5", "d6"], BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 33, 33, &["f5", "f5"], BoardSize::Eight).unwrap(),
        Game::from_squares(0, 0, 1, 13, 13, &WIPEOUT, BoardSize::Eight).unwrap(),
    ];
    let header = Header {
        year: 2001,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.join("WTH_2001.wtb"), bytes).unwrap();
}

fn text(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn counts_and_findings_of_a_generated_file() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let out = wthor(&["validate", dir.path().to_str().unwrap()]);
    assert!(out.status.success());
    let t = text(&out);
    for line in [
        "games: 4",
        "legal: 3",
        "illegal: 1",
        "finished: 2",
        "unfinished: 2",
        "score mismatches: 1",
    ] {
        assert!(t.lines().any(|l| l == line), "{line} missing in\n{t}");
    }
    assert!(
        t.contains("record 2: illegal move 2 (f5): square occupied"),
        "{t}"
    );
    assert!(t.contains("record 3: score mismatch: stored 13"), "{t}");
    // --strict turns the findings into a failure.
    let strict = wthor(&["validate", "--strict", dir.path().to_str().unwrap()]);
    assert_eq!(strict.status.code(), Some(1));
}

#[test]
fn json_and_by_file() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    let out = wthor(&[
        "validate",
        "--json",
        "--by-file",
        dir.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["unfinished"], 2);
    assert_eq!(v["score_mismatches"], 1);
    assert_eq!(v["findings"].as_array().unwrap().len(), 2);
    assert_eq!(v["findings"][0]["record"], 2);
    assert_eq!(v["by_file"][0]["games"], 4);
}

#[test]
fn unreadable_files_fail_but_the_others_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    write_sample(dir.path());
    std::fs::write(dir.path().join("WTH_1999.wtb"), [0u8; 5]).unwrap();
    let out = wthor(&["validate", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("WTH_1999.wtb"));
    assert!(text(&out).lines().any(|l| l == "games: 4"));
    let missing = wthor(&["validate", "no/such/file.wtb"]);
    assert_eq!(missing.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&missing.stderr),
        "wthor: no/such/file.wtb: No such file or directory (os error 2)\n"
    );
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn the_real_database() {
    let data = wthor_data();
    let top = data.join("wthor");
    let out = wthor(&["validate", top.to_str().unwrap()]);
    assert!(out.status.success());
    let t = text(&out);
    for line in [
        "games: 137548",
        "legal: 137548",
        "illegal: 0",
        "unfinished: 413",
        "score mismatches: 0",
    ] {
        assert!(t.lines().any(|l| l == line), "{line} missing in\n{t}");
    }
    let out = wthor(&[
        "validate",
        "--recursive",
        "--json",
        top.join("variants").to_str().unwrap(),
        top.join("other").to_str().unwrap(),
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["illegal"], 0);
    assert_eq!(v["games"], 70_482 + 92_075);
    assert_eq!(v["score_mismatches"], 16);
}

/// On a terminal, a batch draws its progress bar (count, rate, time left)
/// on stderr: `script` (util-linux) runs `wthor` on a pseudo-terminal and
/// keeps what it drew. A pipe, as in the other tests, draws nothing.
#[cfg(target_os = "linux")]
#[test]
fn a_batch_draws_its_progress_bar_on_a_terminal() {
    let args = "validate --solve --sample 4 --threads 1 --tt-bits 16 testdata/WTH_2001.wtb";
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_wthor"));
    let out = match std::process::Command::new("script")
        .args(["-qefc", &command, "/dev/null"])
        .current_dir(crate::workspace_root())
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            eprintln!("skipped: no `script` command to make a terminal ({e})");
            return;
        }
    };
    let drawn = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{drawn}");
    // Every key of the template drawn (indicatif prints a damaged one as
    // it is): elapsed time, bar, count, rate, time left.
    assert!(
        drawn.contains("00:00:") && drawn.contains("] 4/4 games (") && drawn.contains("/s, ETA "),
        "{drawn}"
    );
    assert!(!drawn.contains('{'), "{drawn}");
    assert!(drawn.contains("4 games checked: 4 ok"), "{drawn}");
    // Without a terminal: the same report and no bar.
    let piped = crate::wthor(&args.split(' ').collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&piped.stderr);
    assert!(String::from_utf8_lossy(&piped.stdout).contains("4 games checked: 4 ok"));
    assert!(!err.contains("ETA"), "{err}");
}
