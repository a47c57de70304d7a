//! `wthor stream`: the lines of a fixture game (snapshot, each line parsed
//! back), and `--follow` on files the test writes in steps.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use othello_core::Color;
use wthor_db::position_line::PositionLine;

use crate::info::{stderr, stdout};
use crate::wthor;

#[test]
fn stream_a_game_with_a_pass() {
    // Game #22 of WTH_2001.wtb holds a pass.
    let out = wthor(&["stream", "testdata/WTH_2001.wtb", "22"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<PositionLine> = text
        .lines()
        .map(|l| PositionLine::parse(l).expect("a position line"))
        .collect();
    // Written back, each line is what was printed.
    for (line, printed) in lines.iter().zip(text.lines()) {
        assert_eq!(line.to_string(), printed);
        assert_eq!(line.game, "2001:22");
    }
    // Moves are numbered from 1 one after the other; somewhere the same
    // side moves twice in a row (the pass).
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line.move_number() as usize, k + 1);
    }
    let movers: Vec<Color> = lines[1..]
        .iter()
        .map(|l| l.at(l.last_move().unwrap()).unwrap())
        .collect();
    assert!(movers.windows(2).any(|w| w[0] == w[1]), "no pass seen");
    assert_eq!(lines.last().unwrap().to_move(), None);
    insta::assert_snapshot!(text);
}

#[test]
fn stream_a_10x10_game_and_an_illegal_one() {
    let out = wthor(&["stream", "testdata/WTH_2002.wtd", "3"]);
    assert_eq!(out.status.code(), Some(0));
    let first = stdout(&out).lines().next().unwrap().to_owned();
    insta::assert_snapshot!(first);
    let out = wthor(&["stream", "testdata/malformed/illegal_move.wtb", "0"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(stdout(&out).lines().count(), 2);
    assert!(
        stderr(&out).contains("illegal move 2 (a1)"),
        "{}",
        stderr(&out)
    );
}

/// A `wthor stream --follow` child and its stdout lines.
struct Follower {
    child: Child,
    lines: Receiver<String>,
}

impl Follower {
    fn start(path: &Path, extra: &[&str]) -> Follower {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wthor"))
            .args(["stream", "--follow", path.to_str().unwrap(), "--poll", "20"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the wthor binary runs");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                if send.send(line.unwrap()).is_err() {
                    break;
                }
            }
        });
        Follower { child, lines }
    }

    /// The next `n` lines, parsed. A generous guard against a hang, not a
    /// measure of speed.
    #[track_caller]
    fn next(&mut self, n: usize) -> Vec<PositionLine> {
        (0..n)
            .map(|_| match self.lines.recv_timeout(Duration::from_secs(60)) {
                Ok(line) => PositionLine::parse(&line).expect("a position line"),
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no line from wthor stream --follow");
                }
                Err(RecvTimeoutError::Disconnected) => panic!("wthor stream stopped"),
            })
            .collect()
    }

    /// Waits for the end: the exit code, stderr and the lines left.
    fn finish(mut self) -> (Option<i32>, String, Vec<String>) {
        let status = self.child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut err).unwrap();
        (status.code(), err, self.lines.iter().collect())
    }
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

fn names(lines: &[PositionLine]) -> Vec<String> {
    lines
        .iter()
        .map(|l| match l.last_move() {
            Some(sq) => sq.name(l.size()).to_string(),
            None => "start".to_owned(),
        })
        .collect()
}

#[test]
fn follow_a_transcript_written_in_steps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.txt");
    append(&path, "f5");
    let mut f = Follower::start(&path, &["--timeout", "120"]);
    assert_eq!(names(&f.next(2)), ["start", "f5"]);
    // A move being typed is taken once it is whole.
    append(&path, "d6c");
    assert_eq!(names(&f.next(1)), ["d6"]);
    append(&path, "3 F4");
    let got = f.next(2);
    assert_eq!(names(&got), ["c3", "f4"]);
    assert_eq!(got[1].move_number(), 5);
    // The line end closes the record.
    append(&path, "\n");
    let (code, err, rest) = f.finish();
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn follow_a_ggf_game_written_in_steps() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.ggf");
    let mut f = Follower::start(&path, &["--timeout", "120"]);
    // The file does not exist yet: the start position.
    assert_eq!(names(&f.next(1)), ["start"]);
    append(
        &path,
        "(;GM[Othello]PC[Club 7]DT[2026.11.23_10:00:00.UTC]PB[Ann Lee]PW[Bo]TY[8]B[f5//1]W[d",
    );
    let got = f.next(1);
    assert_eq!(names(&got), ["f5"]);
    assert_eq!(
        (
            got[0].black.as_str(),
            got[0].tournament.as_str(),
            got[0].year
        ),
        ("Ann Lee", "Club 7", Some(2026))
    );
    append(&path, "6]");
    assert_eq!(names(&f.next(1)), ["d6"]);
    append(&path, ";)");
    let (code, _, rest) = f.finish();
    assert_eq!(code, Some(0));
    assert!(rest.is_empty(), "{rest:?}");
}

/// `stream --follow` reads GGF with the reader of `import`: one date rule,
/// Unix seconds included (it gave no year before).
#[test]
fn follow_a_ggf_game_dated_in_unix_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unix.ggf");
    // 1071516798 is 2003-12-15.
    append(
        &path,
        "(;GM[Othello]DT[1071516798]PB[Ann]PW[Bo]TY[8]B[f5];)",
    );
    let mut f = Follower::start(&path, &["--timeout", "120"]);
    let got = f.next(2);
    assert_eq!(names(&got), ["start", "f5"]);
    assert!(got.iter().all(|l| l.year == Some(2003)), "{got:?}");
    let (code, err, rest) = f.finish();
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn follow_stops_at_the_end_of_the_game_an_illegal_move_or_a_rewrite() {
    let dir = tempfile::tempdir().unwrap();
    // The 9-move wipe-out: over without a line end.
    let path = dir.path().join("wipeout.txt");
    append(&path, "d3c3b3d2e1d6d7e3f4");
    let mut f = Follower::start(&path, &[]);
    let lines = f.next(10);
    assert_eq!(lines[9].to_move(), None);
    assert_eq!(f.finish().0, Some(0));

    let path = dir.path().join("illegal.txt");
    append(&path, "f5a1");
    let mut f = Follower::start(&path, &[]);
    f.next(2);
    let (code, err, _) = f.finish();
    assert_eq!(code, Some(1));
    assert!(err.contains("illegal move 2 (a1)"), "{err}");

    let path = dir.path().join("rewritten.txt");
    append(&path, "f5d6");
    let mut f = Follower::start(&path, &["--timeout", "120"]);
    f.next(3);
    std::fs::write(&path, "f5f4").unwrap();
    let (code, err, _) = f.finish();
    assert_eq!(code, Some(2));
    assert!(err.contains("the file was rewritten"), "{err}");

    let path = dir.path().join("quiet.txt");
    append(&path, "f5");
    let mut f = Follower::start(&path, &["--timeout", "0.2"]);
    f.next(2);
    let (code, err, _) = f.finish();
    assert_eq!(code, Some(0));
    assert!(err.contains("no change for 0.2 s"), "{err}");
}

/// A followed file that does not exist yet is waited for as the start
/// position, saying so; it is not an error after a line was printed (the
/// start line was followed by "cannot read" at the next poll).
#[test]
fn a_followed_file_not_there_yet_is_waited_for_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    let out = wthor(&[
        "stream",
        "--follow",
        missing.to_str().unwrap(),
        "--timeout",
        "0.6",
        "--poll",
        "50",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().count(), 1, "{}", stdout(&out));
    let err = stderr(&out);
    assert!(
        err.contains("missing.txt: no such file yet: waiting for it"),
        "{err}"
    );
    assert!(!err.contains("cannot read"), "{err}");
}
