//! Benchmarks of `wthor serve` on the real archive (`WTHOR_DATA`; skipped
//! without it), printed as `bench: name = value unit` lines for `cargo
//! xtask bench`:
//!
//! - the explorer's server time for positions of 10 to 20 moves taken from
//!   real games, with a fresh position index and without (the router
//!   called in process, no socket; each position asked once, so no answer
//!   comes from the cache);
//! - the same positions' `/api/v1/history` alone, and the explorer and
//!   the history asked at once (as the page asks them) on servers that
//!   have answered neither: the median of both answers' end against the
//!   explorer's alone (issue 40: within 2x); the same at 8 early
//!   positions (0 to 3 moves), where the most games reach;
//! - the next-move statistics of both sets with and without the movers'
//!   ratings (issue 39: what the explorer's rating columns add);
//! - `/api/v1/search` of the players with the most games;
//! - the load test of issue 38 on 127.0.0.1, a server of its own with the
//!   default limits, a fresh index and cold caches, on the runtime of
//!   `wthor serve`: 32 clients (threads, one keep-alive connection each)
//!   for `LOAD_SECONDS` (default 30, at most 60), 60% explorer requests
//!   (the positions of 10 to 20 moves above), 20% searches (the players
//!   above), 5% games, 5% exports of a whole year (CSV, one of the last
//!   10 years), 10% `solve=1` on a fixed set of 10 positions at 20 empties
//!   (40 moves of real games; the cache may answer repeats): requests per
//!   second, p50 and p99 latency (and by kind), errors (any answer but
//!   200, a 503 included, or a broken connection; goal 0), p99 (goal 250
//!   ms), the largest resident memory (goal 300 MB) and the most server
//!   threads running at once (state `R` in `/proc/self/task`, the
//!   clients' and the sampler's left out; goal the cores + 1), both
//!   sampled every 100 ms.
//!
//! The index is built under the build's target folder when missing or
//! stale (never beside the real files).

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt as _;
use othello_core::Size;
use tower::ServiceExt as _;
use wthor_db::index::{IndexChoice, IndexStatus, PositionIndex};
use wthor_db::query::Position;
use wthor_db::stats::StatsOptions;
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

/// The explorer's server time at `plays` on `state` (each position asked
/// once), the history's alone on the same server, and both asked at once
/// (as the page asks them) on `both`, a server that has answered neither:
/// medians, and the last against the first (issue 40: within 2x).
async fn explorer_and_history(
    label: &str,
    set: &str,
    plays: &[String],
    state: &Arc<AppState>,
    both: &Arc<AppState>,
) {
    let router = wthor_server::router(Arc::clone(state));
    let mut times = Vec::new();
    for play in plays {
        let (ms, status) = time(&router, &format!("{API}/explorer?play={play}&games=10")).await;
        assert_eq!(status, 200, "{play}");
        times.push(ms);
    }
    let max = times.iter().copied().fold(0.0, f64::max);
    let explorer = median(&mut times);
    println!("bench: explorer_{set}_{label}_median = {explorer:.2} ms");
    println!("bench: explorer_{set}_{label}_max = {max:.2} ms");
    // The history alone (the explorer's answers in the cache are not the
    // history's).
    let mut history = Vec::new();
    for play in plays {
        let (ms, status) = time(&router, &format!("{API}/history?play={play}")).await;
        assert_eq!(status, 200, "{play}");
        history.push(ms);
    }
    let router = wthor_server::router(Arc::clone(both));
    let mut together = Vec::new();
    for play in plays {
        let (explorer_uri, history_uri) = (
            format!("{API}/explorer?play={play}&games=10"),
            format!("{API}/history?play={play}"),
        );
        let start = Instant::now();
        let (e, h) = tokio::join!(time(&router, &explorer_uri), time(&router, &history_uri));
        assert_eq!((e.1, h.1), (200, 200), "{play}");
        together.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let history = median(&mut history);
    let together = median(&mut together);
    println!("bench: history_{set}_{label}_median = {history:.2} ms");
    println!(
        "bench: explorer_with_history_{set}_{label}_median = {together:.2} ms \
         ({:.2}x the explorer alone; goal 2x)",
        together / explorer
    );
}

/// The next-move statistics at `plays` with and without the movers'
/// ratings (issue 39: what the rating columns add to an explorer
/// request), medians of 3 runs each, the ratings made first.
fn ratings_overhead(db: &Database, index: &IndexChoice, label: &str, set: &str, plays: &[String]) {
    let _ = db.filter_ratings();
    let searcher = db.searcher(index.clone());
    let run = |ratings: bool| -> f64 {
        let options = StatsOptions {
            next_moves: true,
            ratings,
            ..StatsOptions::default()
        };
        let mut times = Vec::new();
        for _ in 0..3 {
            let start = Instant::now();
            for play in plays {
                let q =
                    Query::new().position(Position::after_transcript(play, Size::Eight).unwrap());
                searcher.stats(&q, &options).unwrap();
            }
            times.push(start.elapsed().as_secs_f64() * 1000.0 / plays.len() as f64);
        }
        median(&mut times)
    };
    let (without, with) = (run(false), run(true));
    println!(
        "bench: next_moves_{set}_{label} = {without:.2} ms, with the movers' ratings {with:.2} ms \
         (+{:.2} ms a position)",
        with - without
    );
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
    // Never beside the real files: under the build's target folder.
    let index_path = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(
            || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
            std::path::PathBuf::from,
        )
        .join("wthor-serve-bench.idx");
    if !matches!(db.index_status(&index_path), IndexStatus::Fresh(_)) {
        let start = Instant::now();
        PositionIndex::build(&db, &index_path).expect("index built");
        println!(
            "note: index built in {:.1} s at {}",
            start.elapsed().as_secs_f64(),
            index_path.display()
        );
    }
    // The runtime of `wthor serve`: one async thread, the work on rayon's
    // pool.
    let rt = wthor_server::runtime().unwrap();
    let config = Config {
        cache_entries: 1,
        ..Config::default()
    };
    let (indexed, note) = AppState::new(db, &IndexChoice::At(index_path.clone()), config);
    assert!(note.is_none() && indexed.has_index(), "{note:?}");
    let (plain, _) = AppState::new(open(&dir), &IndexChoice::Never, config);
    let players: Vec<String> = {
        let mut names: Vec<(u64, String)> = Vec::new();
        let answer = rt.block_on(async {
            let r = wthor_server::router(Arc::new(
                AppState::new(open(&dir), &IndexChoice::Never, config).0,
            ));
            r.oneshot(
                Request::get(format!("{API}/players?prefix=&limit=100"))
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
    // Servers of their own for the explorer with its history (issue 40):
    // their caches hold none of the positions timed alone.
    let (indexed_both, _) = AppState::new(open(&dir), &IndexChoice::At(index_path.clone()), config);
    let (plain_both, _) = AppState::new(open(&dir), &IndexChoice::Never, config);
    let indexed = Arc::new(indexed);
    let plain = Arc::new(plain);
    let indexed_both = Arc::new(indexed_both);
    let plain_both = Arc::new(plain_both);
    // Early positions (0 to 3 moves), where the most games reach: the
    // history's and the ratings' heaviest case.
    let early: Vec<String> = [
        "", "f5", "f5d6", "f5f6", "f5f4", "f5d6c3", "f5d6c5", "f5f6e6",
    ]
    .map(str::to_owned)
    .to_vec();
    for (label, index) in [
        ("indexed", IndexChoice::At(index_path.clone())),
        ("scan", IndexChoice::Never),
    ] {
        let db = open(&dir);
        ratings_overhead(&db, &index, label, "10_20_moves", &plays);
        ratings_overhead(&db, &index, label, "0_3_moves", &early);
    }
    rt.block_on(async {
        for (label, state, both) in [
            ("indexed", &indexed, &indexed_both),
            ("scan", &plain, &plain_both),
        ] {
            for (set, positions) in [("10_20_moves", &plays), ("0_3_moves", &early)] {
                explorer_and_history(label, set, positions, state, both).await;
            }
        }
        let router = wthor_server::router(Arc::clone(&indexed));
        let mut times = Vec::new();
        for name in &players {
            let uri = format!(
                "{API}/search?player={}&exact=true&limit=50",
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
    // The load test on a server of its own, with the default limits and
    // cold caches (the explorer's answers and values of the positions
    // timed above are not in them), the servers above gone (their engines
    // and tables out of the resident memory measured).
    drop((indexed, plain, indexed_both, plain_both));
    let (loaded, note) = AppState::new(
        open(&dir),
        &IndexChoice::At(index_path.clone()),
        Config::default(),
    );
    assert!(note.is_none() && loaded.has_index(), "{note:?}");
    load(&rt, &Arc::new(loaded), &ids, &plays, &players);
}

/// The API's paths.
const API: &str = "/api/v1";

/// What a load client asks for, by share of the requests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// 60%: the explorer at a position of 10 to 20 moves.
    Explorer,
    /// 20%: a player's games.
    Search,
    /// 5%: a game.
    Game,
    /// 5%: the export of a whole year (CSV).
    Export,
    /// 10%: `solve=1` at one of 10 positions of 20 empties.
    Solve,
}

const KINDS: [Kind; 5] = [
    Kind::Explorer,
    Kind::Search,
    Kind::Game,
    Kind::Export,
    Kind::Solve,
];

impl Kind {
    /// The kind of the `i`th request of a client: 60/20/5/5/10 in every 20.
    fn of(i: usize) -> Kind {
        match i % 20 {
            0..=11 => Kind::Explorer,
            12..=15 => Kind::Search,
            16 => Kind::Game,
            17 => Kind::Export,
            _ => Kind::Solve,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Explorer => "explorer",
            Kind::Search => "search",
            Kind::Game => "game",
            Kind::Export => "export",
            Kind::Solve => "solve",
        }
    }
}

/// The requests of the load test.
struct Mix {
    plays: Vec<String>,
    players: Vec<String>,
    games: Vec<String>,
    years: Vec<u16>,
    solves: Vec<String>,
}

impl Mix {
    fn path(&self, kind: Kind, i: usize) -> String {
        let pick = |n: usize| i.wrapping_mul(7919) % n;
        match kind {
            Kind::Explorer => format!(
                "{API}/explorer?play={}&games=10",
                self.plays[pick(self.plays.len())]
            ),
            Kind::Search => format!(
                "{API}/search?player={}&exact=true&limit=50",
                self.players[pick(self.players.len())].replace(' ', "%20")
            ),
            Kind::Game => format!("{API}/games/{}", self.games[pick(self.games.len())]),
            Kind::Export => format!(
                "{API}/export?format=csv&year={}",
                self.years[pick(self.years.len())]
            ),
            Kind::Solve => format!(
                "{API}/explorer?play={}&solve=1&games=10",
                self.solves[pick(self.solves.len())]
            ),
        }
    }
}

/// The threads of this process that are running (state `R`), but the load
/// clients' and the sampler's (named `load-…`): the server's.
fn running_server_threads() -> usize {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .filter_map(Result::ok)
        .filter_map(|t| std::fs::read_to_string(t.path().join("stat")).ok())
        .filter(|stat| {
            // `pid (comm) state …`: the name may hold spaces and parentheses.
            let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
                return false;
            };
            let comm = &stat[open + 1..close];
            let state = stat[close + 1..].split_whitespace().next();
            state == Some("R") && !comm.starts_with("load-")
        })
        .count()
}

/// The load test on a socket: `CLIENTS` clients (threads, one keep-alive
/// connection each) for `LOAD_SECONDS` (default 30, at most 60), the mix
/// of [`Kind`]; requests per second, p50 and p99 latency (by kind too),
/// errors (any answer but 200, a 503 included, or a broken connection),
/// the largest resident memory and the most server threads running at
/// once, both sampled every 100 ms.
fn load(
    rt: &tokio::runtime::Runtime,
    state: &Arc<AppState>,
    ids: &[wthor_db::GameId],
    plays: &[String],
    players: &[String],
) {
    let seconds: u64 = std::env::var("LOAD_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30)
        .min(60);
    let db = state.database();
    // 10 positions of 20 empties (40 discs played) from real games.
    let solves: Vec<String> = (0..)
        .map(|i: usize| ids[(i * 4_099 + 31) % ids.len()])
        .filter_map(|id| wthor_db::text::GameRecord::new(db, id))
        .filter(|r| r.moves.len() >= 44)
        .map(|r| r.moves[..40].concat())
        .take(10)
        .collect();
    let mut years: Vec<u16> = db
        .files()
        .iter()
        .filter(|f| f.board_size().is_some() && f.game_count() > 0)
        .map(wthor_db::files::DbFile::year)
        .collect();
    years.sort_unstable();
    years.dedup();
    let years: Vec<u16> = years.into_iter().rev().take(10).collect();
    let mix = Arc::new(Mix {
        plays: plays.to_vec(),
        players: players.to_vec(),
        games: (0..200)
            .map(|i| db.game_name(ids[(i * 613 + 5) % ids.len()]).to_string())
            .collect(),
        years,
        solves,
    });
    let listener = rt
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    // The server's async thread, as `wthor serve` runs it (a current-thread
    // runtime moves only inside `block_on`).
    let served = Arc::clone(state);
    std::thread::scope(|scope| {
        let server = std::thread::Builder::new()
            .name("server".into())
            .spawn_scoped(scope, move || {
                rt.block_on(wthor_server::serve(listener, served, async {
                    let _ = stopped.await;
                }))
            })
            .unwrap();
        drive(addr, &mix, seconds, stop, server);
    });
}

/// Runs the clients against the server at `addr` and prints the figures;
/// stops the server (`stop`) at the end.
fn drive(
    addr: std::net::SocketAddr,
    mix: &Arc<Mix>,
    seconds: u64,
    stop: tokio::sync::oneshot::Sender<()>,
    server: std::thread::ScopedJoinHandle<'_, std::io::Result<()>>,
) {
    let rss_before = rss_mib();
    let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let done = Arc::clone(&done);
        std::thread::Builder::new()
            .name("load-sampler".into())
            .spawn(move || {
                let (mut rss, mut threads) = (0.0f64, 0usize);
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    rss = rss.max(rss_mib());
                    threads = threads.max(running_server_threads());
                    std::thread::sleep(Duration::from_millis(100));
                }
                (rss, threads)
            })
            .unwrap()
    };
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let start = Instant::now();
    let clients: Vec<_> = (0..CLIENTS)
        .map(|c| {
            let mix = Arc::clone(mix);
            std::thread::Builder::new()
                .name(format!("load-client-{c}"))
                .spawn(move || {
                    let mut latencies: Vec<(Kind, f64)> = Vec::new();
                    let mut errors: Vec<(Kind, String)> = Vec::new();
                    let mut conn = Conn::new(addr);
                    let mut i = c * 7;
                    while Instant::now() < deadline {
                        i += 1;
                        let kind = Kind::of(i);
                        let path = mix.path(kind, i / 20 * 32 + c);
                        let t = Instant::now();
                        match conn.get(&path) {
                            Some(200) => {
                                latencies.push((kind, t.elapsed().as_secs_f64() * 1000.0));
                            }
                            status => {
                                errors.push((kind, format!("{status:?} {path}")));
                                conn = Conn::new(addr);
                            }
                        }
                    }
                    (latencies, errors)
                })
                .unwrap()
        })
        .collect();
    let mut latencies = Vec::new();
    let mut errors = Vec::new();
    for c in clients {
        let (l, e) = c.join().unwrap();
        latencies.extend(l);
        errors.extend(e);
    }
    let elapsed = start.elapsed().as_secs_f64();
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    let (rss_max, threads_max) = sampler.join().unwrap();
    let _ = stop.send(());
    let _ = server.join();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut all: Vec<f64> = latencies.iter().map(|&(_, ms)| ms).collect();
    all.sort_by(f64::total_cmp);
    println!(
        "bench: load_{CLIENTS}_clients_requests_per_second = {:.0} req/s ({} answered in {elapsed:.1} s)",
        all.len() as f64 / elapsed,
        all.len()
    );
    println!("bench: load_p50 = {:.2} ms", percentile(&all, 0.5));
    println!(
        "bench: load_p99 = {:.2} ms (goal: 250)",
        percentile(&all, 0.99)
    );
    println!(
        "bench: load_max = {:.2} ms (the slowest answer)",
        all.last().copied().unwrap_or_default()
    );
    for kind in KINDS {
        let mut mine: Vec<f64> = latencies
            .iter()
            .filter(|&&(k, _)| k == kind)
            .map(|&(_, ms)| ms)
            .collect();
        if mine.is_empty() {
            continue;
        }
        mine.sort_by(f64::total_cmp);
        println!(
            "bench: load_{}_p99 = {:.2} ms ({} answered, p50 {:.2} ms)",
            kind.name(),
            percentile(&mine, 0.99),
            mine.len(),
            percentile(&mine, 0.5)
        );
    }
    println!("bench: load_errors = {} requests (goal: 0)", errors.len());
    for (kind, what) in errors.iter().take(5) {
        println!("note: error: {} {what}", kind.name());
    }
    println!("bench: load_rss_before = {rss_before:.0} MiB");
    println!("bench: load_rss_max = {rss_max:.0} MiB (goal: 300)");
    println!(
        "bench: load_running_threads_max = {threads_max} threads (goal: cores + 1 = {})",
        cores + 1
    );
}

/// One keep-alive HTTP/1.1 connection.
struct Conn {
    reader: Option<BufReader<TcpStream>>,
}

impl Conn {
    fn new(addr: std::net::SocketAddr) -> Conn {
        Conn {
            reader: TcpStream::connect(addr)
                .ok()
                .filter(|s| s.set_nodelay(true).is_ok())
                .map(BufReader::new),
        }
    }

    /// `GET path`: the status, `None` on a broken connection.
    fn get(&mut self, path: &str) -> Option<u16> {
        let reader = self.reader.as_mut()?;
        // One write (no Nagle delay between pieces of a request).
        let request = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
        reader.get_mut().write_all(request.as_bytes()).ok()?;
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
