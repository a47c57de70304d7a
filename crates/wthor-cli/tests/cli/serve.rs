//! `wthor serve`: started on a free loopback port, asked over HTTP (a
//! plain HTTP/1.1 client on a socket), stopped by SIGTERM. The explorer's
//! table equals `wthor stats --next --format jsonl` with the same filters,
//! on the fixtures and (with `WTHOR_DATA`) on the real archive.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::{check, workspace_root, wthor, wthor_data};

/// A running `wthor serve`, stopped (SIGTERM) when dropped.
pub(crate) struct Server {
    child: Option<Child>,
    /// `127.0.0.1:PORT`.
    pub(crate) addr: String,
}

impl Server {
    /// Starts `wthor serve ARGS --addr 127.0.0.1:0`; `Err` with its stderr
    /// when it exits instead of printing its URL.
    pub(crate) fn start(args: &[&str]) -> Result<Server, (Option<i32>, String)> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wthor"))
            .arg("serve")
            .args(args)
            .args(["--addr", "127.0.0.1:0"])
            .current_dir(workspace_root())
            // The ratings it makes at its start: in the tests' cache.
            .env("XDG_CACHE_HOME", crate::test_cache())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("wthor serve starts");
        let mut line = String::new();
        let stdout = child.stdout.take().unwrap();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let Some(addr) = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
        else {
            let out = child.wait_with_output().unwrap();
            return Err((
                out.status.code(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ));
        };
        Ok(Server {
            addr: addr.to_owned(),
            child: Some(child),
        })
    }

    /// Sends SIGTERM and returns the exit code and stderr.
    pub(crate) fn stop(mut self) -> (Option<i32>, String) {
        let child = self.child.take().unwrap();
        terminate(&child);
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    /// `GET path`: the status and the body.
    pub(crate) fn get(&self, path: &str) -> (u16, String) {
        let (status, body) = http_get(&self.addr, path, "");
        (status, String::from_utf8(body).unwrap())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            terminate(&child);
            let _ = child.wait();
        }
    }
}

fn terminate(child: &Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
}

/// A minimal HTTP/1.1 GET with `headers` (`Name: value\r\n` lines);
/// chunked bodies decoded (a body cut short fails), not decompressed.
pub(crate) fn http_get(addr: &str, path: &str, headers: &str) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut body = raw[split + 4..].to_vec();
    let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let size = usize::from_str_radix(std::str::from_utf8(&rest[..end]).unwrap().trim(), 16)
                .unwrap();
            if size == 0 {
                break;
            }
            out.extend_from_slice(&rest[end + 2..end + 2 + size]);
            rest = &rest[end + 2 + size + 2..];
        }
        body = out;
    }
    (status, body)
}

#[test]
fn serve_prints_its_url_answers_and_stops_on_sigterm() {
    let server = Server::start(&["--db", "testdata"]).unwrap();
    let (status, body) = server.get("/");
    assert_eq!(status, 200);
    assert!(body.contains("<script type=\"module\" src=\"/assets/app.js\">"));
    let (status, body) = server.get("/api/v1/games/2001:5");
    assert_eq!(status, 200, "{body}");
    // A streamed export, gzip-compressed to its end (a body polled after
    // its end once panicked and cut the answer).
    let (status, gz) = http_get(
        &server.addr,
        "/api/v1/export?format=csv&player=saio",
        "Accept-Encoding: gzip\r\n",
    );
    assert_eq!(status, 200);
    assert!(
        gz.len() > 1000 && gz.starts_with(&[0x1f, 0x8b]),
        "{}",
        gz.len()
    );
    let (status, body) = server.get("/api/v1/nothing");
    assert_eq!(
        (status, body.as_str()),
        (
            404,
            r#"{"error":"/api/v1/nothing: no such endpoint (the API is at /api/v1/: see docs/http-api.md)"}"#
        )
    );
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("wthor: stopped"), "{stderr}");
}

/// `--analysis`: the games of this database feed the player pages'
/// accuracy; a game of another database (its bytes differ) is warned
/// about, not fatal; a log that cannot be read is an error naming it.
#[test]
fn serve_takes_analysis_logs_and_warns_about_other_databases() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("results.jsonl");
    let log = log.to_str().unwrap();
    let out = wthor(&[
        "analyze",
        "--db",
        "testdata",
        "--player",
        "nakamura",
        "--year",
        "2007",
        "--empties",
        "10",
        "--estimate-depth",
        "2",
        "--results",
        log,
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", crate::info::stderr(&out));
    let text = std::fs::read_to_string(log).unwrap();
    let games = text.lines().count();
    // One more line: the first game with other bytes (another hash).
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let mut other = first.clone();
    other["hash"] = "0123456789abcdef".into();
    std::fs::write(log, format!("{text}{other}\n")).unwrap();
    let server = Server::start(&["--db", "testdata", "--analysis", log]).unwrap();
    let (status, body) = server.get("/api/v1/players/Takuji%20Nakamura");
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    let acc = v["accuracy"].as_array().unwrap();
    assert_eq!(acc.len(), 1, "{acc:?}");
    assert_eq!(acc[0]["year"], 2007);
    assert_eq!(acc[0]["games"].as_u64().unwrap() as usize, games);
    let (code, stderr) = server.stop();
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{log}: 1 of its {} analysed games are not games of this database",
            games + 1
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("wthor: {games} games analysed of this database")),
        "{stderr}"
    );
    let missing = dir.path().join("none.jsonl");
    let (code, stderr) =
        Server::start(&["--db", "testdata", "--analysis", missing.to_str().unwrap()])
            .err()
            .unwrap();
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("--analysis") && stderr.contains("none.jsonl"),
        "{stderr}"
    );
}

#[test]
fn serve_refuses_other_addresses_without_public() {
    let out = wthor(&["serve", "--db", "testdata", "--addr", "0.0.0.0:0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end(),
        "wthor: --addr 0.0.0.0:0: not a loopback address; give --public to listen there (anyone who reaches it can read the database)"
    );
    let out = wthor(&["serve", "--db", "no/such/dir"]);
    assert_eq!(out.status.code(), Some(2));
}

/// The rows of `wthor stats --next --format jsonl` and of the explorer
/// for the same position and filters: equal (the explorer's legal moves
/// nobody played after them).
fn compare_with_stats(server: &Server, db: &str, play: &str, filters: &[(&str, &str)]) {
    let mut args = vec!["stats", "--db", db, "--next", "--format", "jsonl"];
    if !play.is_empty() {
        args.extend(["--position-after", play]);
    }
    let flags: Vec<String> = filters
        .iter()
        .map(|(k, _)| format!("--{}", k.replace('_', "-")))
        .collect();
    for ((_, v), flag) in filters.iter().zip(&flags) {
        args.push(flag);
        if *v != "true" {
            args.push(v);
        }
    }
    let cli: Vec<serde_json::Value> = check(&args, 0)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v["kind"] == "next")
        .collect();
    let mut query = format!("/api/v1/explorer?games=0&play={play}");
    for (k, v) in filters {
        query.push_str(&format!("&{k}={}", v.replace(' ', "%20")));
    }
    let (status, body) = server.get(&query);
    assert_eq!(status, 200, "{query}: {body}");
    let api: serde_json::Value = serde_json::from_str(&body).unwrap();
    let rows = api["moves"].as_array().unwrap();
    assert!(!cli.is_empty(), "{args:?}");
    // The moves played, then the legal moves nobody played (no games).
    assert!(rows.len() >= cli.len(), "{query}");
    assert!(rows[cli.len()..].iter().all(|r| r["games"] == 0), "{query}");
    for (row, want) in rows.iter().zip(&cli) {
        // The CLI's keys (snake_case) and the API's (camelCase).
        for (cli_key, key) in [
            ("move", "move"),
            ("games", "games"),
            ("black_wins", "blackWins"),
            ("draws", "draws"),
            ("black_losses", "blackLosses"),
            ("exact", "exact"),
            ("name", "name"),
        ] {
            assert_eq!(row[key], want[cli_key], "{query}: {key}");
        }
        for (cli_key, key) in [
            ("share", "share"),
            ("mean_black_discs", "meanBlackDiscs"),
            ("mean_black_theoretical", "meanBlackTheoretical"),
        ] {
            let (a, b) = (row[key].as_f64().unwrap(), want[cli_key].as_f64().unwrap());
            assert!((a - b).abs() < 1e-12, "{query}: {key} {a} {b}");
        }
    }
}

#[test]
fn the_explorer_table_is_wthor_stats_next() {
    let server = Server::start(&["--db", "testdata"]).unwrap();
    compare_with_stats(&server, "testdata", "", &[]);
    compare_with_stats(&server, "testdata", "f5d6", &[("player", "nakamura")]);
    compare_with_stats(
        &server,
        "testdata",
        "f5d6c3",
        &[("year", "2002..2003"), ("result", "black")],
    );
    compare_with_stats(&server, "testdata", "f5f6e6", &[("human", "true")]);
    compare_with_stats(
        &server,
        "testdata",
        "c4e3",
        &[("black", "Saio (romano)"), ("exact", "true")],
    );
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn the_explorer_table_is_wthor_stats_next_on_the_real_archive() {
    let data = wthor_data();
    let dir = data.join("wthor");
    let dir = dir.to_str().unwrap();
    let server = Server::start(&["--db", dir, "--no-index"]).unwrap();
    compare_with_stats(&server, dir, "f5d6c3d3c4f4", &[]);
    compare_with_stats(&server, dir, "f5f6e6f4", &[("year", "1990..1999")]);
    compare_with_stats(&server, dir, "f5d6c5f4e3", &[("player", "tastet")]);
}
