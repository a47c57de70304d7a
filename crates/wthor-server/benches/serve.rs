//! Benchmarks of `wthor serve` on the real archive (`WTHOR_DATA`; skipped
//! without it), printed as `bench: name = value unit` lines for `cargo
//! xtask bench`:
//!
//! - the explorer's server time for positions of 10 to 20 moves taken from
//!   real games, with a fresh position index and without (the router
//!   called in process, no socket; each position asked once, so no answer
//!   comes from the cache);
//! - `/api/search` of the players with the most games;
//! - a load test on 127.0.0.1: 32 clients (threads, one keep-alive
//!   connection each) mixing explorer, search and game requests for
//!   `LOAD_SECONDS` (default 20, at most 60): requests per second, p50 and
//!   p99 latency, errors, resident memory before and after.
//!
//! The index is built into the system's temporary folder when missing or
//! stale (never beside the real files).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt as _;
use tower::ServiceExt as _;
use wthor_db::index::{IndexChoice, IndexStatus, PositionIndex};
use wthor_db::{Database, DatabaseBuilder, Query};
use wthor_server::{AppState, Config};

const CLIENTS: usize = 32;

fn open(dir: &std::path::Path) -> Database {
    DatabaseBuilder::new()
        .source(dir)
        .open()
        .expect("the real archive opens")
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn percentile(v: &[f64], p: f64) -> f64 {
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Server time of `GET uri` through the router, in ms; the status.
async fn time(router: &axum::Router, uri: &str) -> (f64, u16) {
    let start = Instant::now();
    let response = router
        .clone()
        .oneshot(Request::get(uri).body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status().as_u16();
    let _ = response.into_body().collect().await.unwrap();
    (start.elapsed().as_secs_f64() * 1000.0, status)
}

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let dir = std::path::Path::new(&data).join("wthor");
    let db = open(&dir);
    // Positions of 10 to 20 moves from real games, spread over the archive.
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&Query::new().years(Some(1980), None))
        .unwrap()
        .value;
    let plays: Vec<String> = (0..60)
        .filter_map(|i| {
            let id = ids[(i * 2_311 + 17) % ids.len()];
            let record = wthor_db::text::GameRecord::new(&db, id)?;
            let n = 10 + i % 11;
            (record.moves.len() >= n).then(|| record.moves[..n].concat())
        })
        .collect();
    let index_path = std::env::temp_dir().join("wthor-serve-bench.idx");
    if !matches!(db.index_status(&index_path), IndexStatus::Fresh(_)) {
        let start = Instant::now();
        PositionIndex::build(&db, &index_path).expect("index built");
        println!(
            "note: index built in {:.1} s at {}",
            start.elapsed().as_secs_f64(),
            index_path.display()
        );
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let config = Config {
        cache_entries: 1,
        ..Config::default()
    };
    let (indexed, note) = AppState::new(db, &IndexChoice::At(index_path), config);
    assert!(note.is_none() && indexed.has_index(), "{note:?}");
    let (plain, _) = AppState::new(open(&dir), &IndexChoice::Never, config);
    let players: Vec<String> = {
        let mut names: Vec<(u64, String)> = Vec::new();
        let answer = rt.block_on(async {
            let r = wthor_server::router(Arc::new(
                AppState::new(open(&dir), &IndexChoice::Never, config).0,
            ));
            r.oneshot(
                Request::get("/api/players?prefix=&limit=100")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap()
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
        });
        let v: serde_json::Value = serde_json::from_slice(&answer).unwrap();
        for p in v.as_array().unwrap() {
            names.push((
                p["games"].as_u64().unwrap(),
                p["name"].as_str().unwrap().to_owned(),
            ));
        }
        names.into_iter().take(10).map(|(_, n)| n).collect()
    };
    let indexed = Arc::new(indexed);
    let plain = Arc::new(plain);
    rt.block_on(async {
        for (label, state) in [("indexed", &indexed), ("scan", &plain)] {
            let router = wthor_server::router(Arc::clone(state));
            let mut times = Vec::new();
            for play in &plays {
                let (ms, status) =
                    time(&router, &format!("/api/explorer?play={play}&games=10")).await;
                assert_eq!(status, 200, "{play}");
                times.push(ms);
            }
            let max = times.iter().copied().fold(0.0, f64::max);
            println!(
                "bench: explorer_10_20_moves_{label}_median = {:.2} ms",
                median(&mut times)
            );
            println!("bench: explorer_10_20_moves_{label}_max = {max:.2} ms");
        }
        let router = wthor_server::router(Arc::clone(&indexed));
        let mut times = Vec::new();
        for name in &players {
            let uri = format!(
                "/api/search?player={}&exact=true&limit=50",
                name.replace(' ', "%20")
            );
            let (ms, status) = time(&router, &uri).await;
            assert_eq!(status, 200, "{uri}");
            times.push(ms);
        }
        println!(
            "bench: search_player_median = {:.2} ms ({} players with the most games)",
            median(&mut times),
            players.len()
        );
    });
    // The load test, on a socket.
    let seconds: u64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20)
        .min(60);
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = rt.spawn(wthor_server::serve(listener, Arc::clone(&indexed), async {
        let _ = stopped.await;
    }));
    let rss_before = rss_mib();
    let game_ids: Vec<String> = (0..200)
        .map(|i| {
            indexed
                .database()
                .game_name(ids[(i * 613 + 5) % ids.len()])
                .to_string()
        })
        .collect();
    let plays = Arc::new(plays);
    let players = Arc::new(players);
    let game_ids = Arc::new(game_ids);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let (plays, players, game_ids) = (
                Arc::clone(&plays),
                Arc::clone(&players),
                Arc::clone(&game_ids),
            );
            std::thread::spawn(move || {
                let mut latencies = Vec::new();
                let mut errors = 0u64;
                let mut conn = Conn::new(addr);
                let mut i = c * 7;
                while Instant::now() < deadline {
                    i += 1;
                    let path = match i % 3 {
                        0 => format!("/api/explorer?play={}&games=10", plays[i % plays.len()]),
                        1 => format!(
                            "/api/search?player={}&exact=true&limit=50",
                            players[i % players.len()].replace(' ', "%20")
                        ),
                        _ => format!("/api/games/{}", game_ids[i % game_ids.len()]),
                    };
                    let t = Instant::now();
                    match conn.get(&path) {
                        Some(200) => latencies.push(t.elapsed().as_secs_f64() * 1000.0),
                        _ => {
                            errors += 1;
                            conn = Conn::new(addr);
                        }
                    }
                }
                (latencies, errors)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = 0;
    for c in clients {
        let (l, e) = c.join().unwrap();
        latencies.extend(l);
        errors += e;
    }
    let elapsed = start.elapsed().as_secs_f64();
    let rss_after = rss_mib();
    let _ = stop.send(());
    let _ = rt.block_on(server);
    latencies.sort_by(f64::total_cmp);
    println!(
        "bench: load_{CLIENTS}_clients_requests_per_second = {:.0} req/s ({} requests in {elapsed:.1} s)",
        latencies.len() as f64 / elapsed,
        latencies.len()
    );
    println!("bench: load_p50 = {:.2} ms", percentile(&latencies, 0.5));
    println!("bench: load_p99 = {:.2} ms", percentile(&latencies, 0.99));
    println!("bench: load_errors = {errors} requests");
    println!("bench: load_rss_before = {rss_before:.0} MiB");
    println!("bench: load_rss_after = {rss_after:.0} MiB");
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    reader: Option<BufReader<TcpStream>>,
}

impl Conn {
    fn new(addr: std::net::SocketAddr) -> Conn {
        Conn {
            reader: TcpStream::connect(addr).ok().map(BufReader::new),
        }
    }

    /// `GET path`: the status, `None` on a broken connection.
    fn get(&mut self, path: &str) -> Option<u16> {
        let reader = self.reader.as_mut()?;
        write!(
            reader.get_mut(),
            "GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n"
        )
        .ok()?;
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let status: u16 = line.split(' ').nth(1)?.parse().ok()?;
        let mut length = None;
        let mut chunked = false;
        loop {
            line.clear();
            reader.read_line(&mut line).ok()?;
            let l = line.trim_end().to_ascii_lowercase();
            if l.is_empty() {
                break;
            }
            if let Some(v) = l.strip_prefix("content-length:") {
                length = v.trim().parse::<usize>().ok();
            }
            chunked |= l == "transfer-encoding: chunked";
        }
        if chunked {
            loop {
                line.clear();
                reader.read_line(&mut line).ok()?;
                let size = usize::from_str_radix(line.trim(), 16).ok()?;
                let mut buf = vec![0; size + 2];
                reader.read_exact(&mut buf).ok()?;
                if size == 0 {
                    break;
                }
            }
        } else {
            let mut buf = vec![0; length?];
            reader.read_exact(&mut buf).ok()?;
        }
        Some(status)
    }
}
