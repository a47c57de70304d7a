//! `wthor analyze`: the table (snapshot), the JSON object against its own
//! rules, every estimate flagged with its depth (table, JSON, graph,
//! results logs), the first exact value the solver's, the theoretical
//! score checked (a wrong one is a finding), and the games it refuses.

use crate::info::stderr;
use crate::{check, workspace_root, wthor};

#[test]
fn analyze_table_of_a_fixture_game() {
    insta::assert_snapshot!(check(
        &[
            "analyze",
            "testdata/WTH_2001.wtb",
            "3",
            "--empties",
            "16",
            "--threads",
            "1"
        ],
        0
    ));
}

#[test]
fn analyze_jsonl_holds_every_move_with_its_loss_and_the_check() {
    // Quick depths: the default (18) is the table's snapshot's, each
    // estimate marked d18 there.
    for (game, depth) in [("2001:3", "8"), ("2002:0", "6"), ("2002:1", "6")] {
        let args = [
            "analyze",
            game,
            "--db",
            "testdata",
            "--empties",
            "14",
            "--format",
            "jsonl",
            "--estimate-depth",
            depth,
        ];
        let text = check(&args, 0);
        let plies: u64 = depth.parse().unwrap();
        assert_eq!(text.lines().count(), 1);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["game"], game);
        assert_eq!(v["exactFrom"], 14);
        // The estimates: the midgame search at its plies, each estimated
        // move flagged `exact: false` with the plies searched (the depth,
        // or to the end from that many empties or fewer: its value then
        // exact, but counted with the estimates, before `--empties`), no
        // exact move with any.
        assert_eq!(
            v["estimate"],
            serde_json::json!({"search": "midgame", "depth": plies})
        );
        let moves = v["moves"].as_array().unwrap();
        assert!(moves.len() > 20, "{game}");
        for (i, m) in moves.iter().enumerate() {
            if m["exact"] == true {
                assert!(m.get("depth").is_none(), "{game} {m}");
            } else {
                let empties = m["empties"].as_u64().unwrap();
                assert_eq!(m["depth"], empties.min(plies), "{game} {m}");
            }
            let value = m["value"].as_i64().unwrap();
            let played = m["played"].as_i64().unwrap();
            assert_eq!(m["loss"].as_i64().unwrap(), value - played, "{game} {m}");
            assert!(m["loss"].as_i64().unwrap() >= 0, "{game} {m}");
            assert_eq!(
                m["exact"],
                m["empties"].as_u64().unwrap() <= 14,
                "{game} {m}"
            );
            if i > 0 {
                assert!(m["index"].as_u64() > moves[i - 1]["index"].as_u64());
            }
        }
        // 14 empties is short of the files' depth (16): no check.
        assert!(v["theoretical"].is_null(), "{game}");
    }
}

/// One game's analysis has one report (issue 38): the line of `--format
/// jsonl` is the `analysis` the server answers for the same game with the
/// same options (served in this process, one solver thread as the CLI's
/// `--threads 1`), key for key, the stored score checked in both; only
/// the seconds the check took differ.
#[test]
fn the_jsonl_line_is_the_servers_analysis() {
    use wthor_db::analysis::AnalysisOptions;
    let options = AnalysisOptions {
        empties: 16,
        estimate_depth: 8,
        estimate_time: None,
    };
    let text = check(
        &[
            "analyze",
            "2001:5",
            "--db",
            "testdata",
            "--empties",
            "16",
            "--estimate-depth",
            "8",
            "--threads",
            "1",
            "--format",
            "jsonl",
        ],
        0,
    );
    let mut cli: serde_json::Value = serde_json::from_str(&text).unwrap();
    let db = wthor_db::Database::open(workspace_root().join("testdata"))
        .unwrap()
        .with_ratings_file(crate::test_cache().join("analysis-ratings.json"));
    let config = wthor_server::Config {
        analysis: options,
        analysis_threads: 1,
        ..wthor_server::Config::default()
    };
    let state = wthor_server::AppState::new(db, &wthor_db::index::IndexChoice::Never, config).0;
    let runtime = wthor_server::runtime().unwrap();
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    // The server on this runtime's thread, asked from another.
    let (status, body) = runtime.block_on(async move {
        let server = tokio::spawn(wthor_server::serve(
            listener,
            std::sync::Arc::new(state),
            std::future::pending(),
        ));
        let answer = tokio::task::spawn_blocking(move || {
            crate::serve::http_get(&addr, "/api/v1/games/2001:5?analysis=1", "")
        })
        .await
        .unwrap();
        server.abort();
        answer
    });
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let mut served: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let mut served = served["analysis"].take();
    assert_eq!(cli["theoretical"]["status"], "ok", "{cli}");
    for v in [&mut cli, &mut served] {
        v["theoretical"].as_object_mut().unwrap().remove("seconds");
    }
    assert_eq!(cli, served);
    let mut keys: Vec<&str> = cli
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "blackLine",
            "ending",
            "estimate",
            "exactFrom",
            "finalBlack",
            "finalDepth",
            "game",
            "moves",
            "theoretical"
        ]
    );
}

#[test]
fn a_wrong_theoretical_score_is_reported_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(workspace_root().join("testdata/WTH_2001.wtb")).unwrap();
    // Game #3's theoretical score (byte 7 of its record) made wrong.
    bytes[16 + 68 * 3 + 7] -= 2;
    let file = dir.path().join("WTH_2001.wtb");
    std::fs::write(&file, bytes).unwrap();
    let f = file.to_str().unwrap();
    // (Shallow estimates: the check is of the exact part.)
    let quick = ["--estimate-depth", "4"];
    let text = check(
        &[&["analyze", f, "3", "--empties", "16"][..], &quick].concat(),
        1,
    );
    assert!(
        text.contains(
            "theoretical score at 16 empties: stored black 55, solved black 57: mismatch"
        ),
        "{text}"
    );
    let ok = check(
        &[
            &["analyze", "testdata/WTH_2001.wtb", "3", "--empties", "16"][..],
            &quick,
        ]
        .concat(),
        0,
    );
    assert!(ok.contains("stored black 57, solved black 57: ok"), "{ok}");
}

#[test]
fn ten_by_ten_and_illegal_games_are_refused() {
    let out = wthor(&["analyze", "testdata/WTH_2001.wtd", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("WTH_2001.wtd:0: a 10x10 game: only 8x8 games are analysed"),
        "{}",
        stderr(&out)
    );
    let text = check(&["analyze", "testdata/malformed/illegal_move.wtb", "0"], 1);
    assert!(text.contains("illegal move 2 (a1)"), "{text}");
    // JSON Lines stays JSON: the game and why, as a batch logs it (it
    // was the table's sentence).
    let text = check(
        &[
            "analyze",
            "testdata/malformed/illegal_move.wtb",
            "0",
            "--format",
            "jsonl",
        ],
        1,
    );
    let v: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(
        v,
        serde_json::json!({
            "game": "illegal_move.wtb:0",
            "error": "illegal move 2 (a1): flips no disc",
        })
    );
    let out = wthor(&["analyze", "testdata/WTH_2001.wtb", "99"]);
    assert_eq!(out.status.code(), Some(2));
}

/// `analyze` of the fixture games of `years` from `empties` empties, the
/// estimates at 2 plies (quick), logged to `log`: its output.
fn analyse_into(log: &std::path::Path, years: &str, empties: &str) -> std::process::Output {
    wthor(&[
        "analyze",
        "--db",
        "testdata",
        "--year",
        years,
        "--empties",
        empties,
        "--estimate-depth",
        "2",
        "--results",
        log.to_str().unwrap(),
    ])
}

/// The lines of a results file, as JSON.
fn logged(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn a_batch_logs_every_game_resumes_and_its_shards_cover_it_once() {
    let dir = tempfile::tempdir().unwrap();
    let all = dir.path().join("all.jsonl");
    let a = all.to_str().unwrap();
    let batch = [
        "analyze",
        "--db",
        "testdata",
        "--year",
        "2001..2002",
        "--empties",
        "10",
        "--estimate-depth",
        "2",
    ];
    let mut args = batch.to_vec();
    args.extend(["--results", a]);
    let first = check(&args, 0);
    let lines = logged(&all);
    // Every 8x8 game of those years, once (10x10 games are not analysed).
    let mut search = batch[..5].to_vec();
    search[0] = "search";
    search.extend(["--format", "jsonl"]);
    let games: Vec<serde_json::Value> = check(&search, 0)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|g: &serde_json::Value| g["boardSize"] == 8)
        .collect();
    assert_eq!(lines.len(), games.len());
    assert!(
        first.contains(&format!(
            "{} games analysed from 10 empties ({} now, 0 from",
            games.len(),
            games.len()
        )),
        "{first}"
    );
    for line in &lines {
        for m in line["moves"].as_array().unwrap() {
            assert!(m["empties"].as_u64().unwrap() <= 10);
            assert!(m["loss"].as_i64().unwrap() >= 0);
        }
    }
    // Again: nothing new is analysed, the summary is the same.
    let again = check(&args, 0);
    assert!(
        again.contains(&format!("(0 now, {} from the results file)", games.len())),
        "{again}"
    );
    assert_eq!(logged(&all).len(), lines.len());
    // Three shards give the same games, each once.
    let mut sharded = Vec::new();
    for k in 1..=3 {
        let path = dir.path().join(format!("s{k}.jsonl"));
        let shard = format!("{k}/3");
        let mut args = batch.to_vec();
        args.extend([
            "--results",
            path.to_str().unwrap(),
            "--shard",
            &shard,
            "--threads",
            "1",
        ]);
        check(&args, 0);
        sharded.extend(logged(&path));
    }
    let key = |v: &serde_json::Value| v["game"].as_str().unwrap().to_owned();
    let mut expected: Vec<String> = lines.iter().map(key).collect();
    let mut got: Vec<String> = sharded.iter().map(key).collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
}

/// A results log made from one `--empties` resumed with another is
/// refused before any work (it was resumed silently, its summary saying
/// "from 16 empties" of games judged from 14), and left as it was.
#[test]
fn a_log_of_other_empties_is_not_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("r.jsonl");
    let l = log.to_str().unwrap();
    let batch = |empties: &'static str| {
        vec![
            "analyze",
            "--db",
            "testdata",
            "--year",
            "2001",
            "--empties",
            empties,
            "--estimate-depth",
            "2",
            "--results",
            l,
        ]
    };
    check(&batch("10"), 0);
    let before = std::fs::read(&log).unwrap();
    let games = logged(&log).len();
    let out = wthor(&batch("12"));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: {l}: the results file holds games analysed exactly from another number of \
             empties than this run's --empties 12: {games} games from 10 empties; resume it \
             with --empties 10, or give another --results file\n"
        )
    );
    assert_eq!(std::fs::read(&log).unwrap(), before, "the log is untouched");
    // The same empties resume it (another estimate depth only gets a note).
    let again = check(&batch("10"), 0);
    assert!(
        again.contains(&format!("(0 now, {games} from the results file)")),
        "{again}"
    );
}

/// `stats --accuracy` over a database that holds none of the logged
/// games says so (it showed 0 games without a word).
#[test]
fn accuracy_warns_of_logged_games_not_in_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("a.jsonl");
    let l = log.to_str().unwrap();
    let out = analyse_into(&log, "2001", "10");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games = logged(&log).len();
    let other = dir.path().join("db");
    std::fs::create_dir(&other).unwrap();
    for f in ["WTH_2002.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(workspace_root().join("testdata").join(f), other.join(f)).unwrap();
    }
    let out = wthor(&[
        "stats",
        "--accuracy",
        "--results",
        l,
        "--db",
        other.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        crate::info::stdout(&out).starts_with("endgame accuracy over 0 analysed games"),
        "{}",
        crate::info::stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: warning: {l}: {games} of its {games} analysed games are not games of this \
             database (matched by record key: file, creation date, index, moves); they are left \
             out\n"
        )
    );
    // The database they come from: no warning.
    let out = wthor(&["stats", "--accuracy", "--results", l, "--db", "testdata"]);
    assert_eq!(stderr(&out), "");
}

#[test]
fn accuracy_counts_the_games_the_filters_select() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("a.jsonl");
    let l = log.to_str().unwrap();
    let out = analyse_into(&log, "2001..2002", "10");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows = |extra: &[&str]| -> Vec<serde_json::Value> {
        let mut args = vec![
            "stats",
            "--accuracy",
            "--results",
            l,
            "--format",
            "jsonl",
            "--top",
            "0",
        ];
        args.extend(extra);
        check(&args, 0)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // Each game gives each of its two players a row's game (when both
    // played a move judged): the games of a player are those `search`
    // finds for them among the logged ones.
    let all = rows(&[]);
    assert!(all.len() > 3);
    for row in all.iter().take(4) {
        let name = row["player"].as_str().unwrap();
        // The 8x8 games of the player (10x10 games are not analysed).
        let eight = check(
            &[
                "search",
                "--db",
                "testdata",
                "--year",
                "2001..2002",
                "--player",
                name,
                "--exact",
                "--format",
                "jsonl",
            ],
            0,
        )
        .lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["boardSize"] == 8)
        .count();
        let mine = rows(&["--db", "testdata", "--player", name, "--exact"]);
        assert_eq!(mine.len(), 1, "{name}: {mine:?}");
        assert_eq!(
            mine[0], *row,
            "the filter changes nothing of the player's own row"
        );
        assert_eq!(row["games"].as_u64().unwrap() as usize, eight, "{name}");
        // The filtered games: every row's games are among the player's.
        let filtered = rows(&["--db", "testdata", "--player", name, "--exact", "--by-year"]);
        let games: u64 = filtered.iter().map(|r| r["games"].as_u64().unwrap()).sum();
        assert_eq!(games, row["games"].as_u64().unwrap());
    }
    // Mean loss is the total over the moves, the rows sorted by it.
    for w in all.windows(2) {
        assert!(w[0]["mean_loss"].as_f64() <= w[1]["mean_loss"].as_f64());
    }
    for r in &all {
        let (total, moves) = (
            r["total_loss"].as_f64().unwrap(),
            r["moves"].as_f64().unwrap(),
        );
        assert!((r["mean_loss"].as_f64().unwrap() - total / moves).abs() < 1e-9);
    }
}

#[test]
fn accuracy_reports_a_damaged_line_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("a.jsonl");
    let l = log.to_str().unwrap();
    let out = analyse_into(&log, "2001", "8");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let before = check(
        &[
            "stats",
            "--accuracy",
            "--results",
            l,
            "--format",
            "jsonl",
            "--top",
            "0",
        ],
        0,
    );
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.insert_str(0, "{\"game\": \"2001:0\", \"moves\": 3}\n");
    std::fs::write(&log, text).unwrap();
    let out = wthor(&[
        "stats",
        "--accuracy",
        "--results",
        l,
        "--format",
        "jsonl",
        "--top",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("a.jsonl: line 1: not an analysed game"),
        "{}",
        stderr(&out)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), before);
    // Filters without a database, and batch options for one game, are
    // usage errors.
    let out = wthor(&["stats", "--accuracy", "--results", l, "--player", "x"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("give --db DIR"), "{}", stderr(&out));
    let out = wthor(&["analyze", "2001:3", "--db", "testdata", "--results", l]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--results is for a batch"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_graph_is_drawn_as_svg_and_png_for_one_game_only() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("g.svg");
    let png = dir.path().join("g.png");
    let (s, p) = (svg.to_str().unwrap(), png.to_str().unwrap());
    let out = check(
        &[
            "analyze",
            "2003:7",
            "--db",
            "testdata",
            "--empties",
            "12",
            "--estimate-depth",
            "8",
            "--svg",
            s,
            "--png",
            p,
        ],
        0,
    );
    assert!(out.contains(&format!("svg: {s}")), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("2003:7: ") && text.contains("exact from 12 empties"));
    // The estimated part says the depth of its search.
    assert!(text.contains(">estimated ~, depth 8<"), "{text}");
    // One point per move and the end: the solid segments are the exact ones.
    let line: serde_json::Value = serde_json::from_str(&check(
        &[
            "analyze",
            "2003:7",
            "--db",
            "testdata",
            "--empties",
            "12",
            "--estimate-depth",
            "8",
            "--format",
            "jsonl",
        ],
        0,
    ))
    .unwrap();
    let moves = line["moves"].as_array().unwrap();
    let estimated = moves.iter().filter(|m| m["exact"] == false).count();
    assert_eq!(text.matches("stroke-dasharray").count(), estimated - 1);
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 720);
    // A folder that does not exist: refused before the analysis, nothing
    // printed (the table used to come first).
    let nowhere = dir.path().join("no/such/g.png");
    let out = wthor(&[
        "analyze",
        "2003:7",
        "--db",
        "testdata",
        "--png",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
    assert!(
        stderr(&out).contains("g.png: cannot write: folder ")
            && stderr(&out).ends_with("no/such does not exist\n"),
        "{}",
        stderr(&out)
    );
    // A batch draws nothing: a usage error.
    let out = wthor(&["analyze", "--db", "testdata", "--svg", s]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--svg draws the graph of one game"));
}

/// One of a thing is singular in the messages: `1 disc lost`, `1 empty`
/// (issue 36, item 22). Game 2001:2 of the fixtures ends after 59 moves,
/// with one empty square; its analysis from one empty square finds
/// mistakes of one disc.
#[test]
fn one_disc_and_one_empty_are_singular() {
    let game = ["--db", "testdata", "2001:2"];
    let analysis = check(
        &[
            &["analyze"][..],
            &game,
            &["--empties", "1", "--estimate-depth", "4"],
        ]
        .concat(),
        0,
    );
    assert!(
        analysis.starts_with("game 2001:2: exact from 1 empty, estimated before"),
        "{analysis}"
    );
    assert!(analysis.contains(": 1 disc lost"), "{analysis}");
    let shown = check(&[&["show"][..], &game, &["--empties", "1"]].concat(), 0);
    assert!(
        shown.contains("position: after move 59 (black h3), 1 empty, game over\n"),
        "{shown}"
    );
    let out = wthor(&[
        "solve",
        "--db",
        "testdata",
        "--game",
        "2001:2",
        "--empties",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: 2001:2: the game ends after 59 moves with 1 empty, before 0 empties\n"
    );
    for text in [&analysis, &shown, &stderr(&out)] {
        assert!(
            !text.contains(" 1 discs") && !text.contains(" 1 empties"),
            "{text}"
        );
    }
}

/// The first exact move's value is the exact solver's: `wthor solve` of
/// the position before it; the estimate before it is the midgame search's
/// (flagged, with its depth).
#[test]
fn the_first_exact_value_is_the_solvers() {
    for (game, empties) in [("2001:3", 16), ("2002:1", 14)] {
        let text = check(
            &[
                "analyze",
                game,
                "--db",
                "testdata",
                "--empties",
                &empties.to_string(),
                "--estimate-depth",
                "6",
                "--format",
                "jsonl",
            ],
            0,
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let moves = v["moves"].as_array().unwrap();
        let first = moves.iter().position(|m| m["exact"] == true).unwrap();
        assert!(first > 0, "{game}");
        assert_eq!(moves[first - 1]["depth"], 6, "{game}");
        let m = &moves[first];
        let solved: serde_json::Value = serde_json::from_str(&check(
            &[
                "solve",
                "--db",
                "testdata",
                "--game",
                game,
                "--move",
                &m["index"].to_string(),
                "--json",
            ],
            0,
        ))
        .unwrap();
        assert_eq!(solved["side"], m["color"], "{game}");
        assert_eq!(solved["empties"], m["empties"], "{game}");
        assert_eq!(solved["score"], m["value"], "{game}: {m}");
    }
}

/// Every estimated row of the table is marked `~` with its depth, no
/// exact one; the header names the search; `--time` marks the depths it
/// reached; the depth's range is checked.
#[test]
fn the_table_marks_each_estimate_with_its_depth() {
    let table = check(
        &[
            "analyze",
            "2001:3",
            "--db",
            "testdata",
            "--empties",
            "16",
            "--estimate-depth",
            "6",
        ],
        0,
    );
    assert!(
        table.starts_with(
            "game 2001:3: exact from 16 empties, estimated before (midgame search, depth 6; \
             marked ~ with the depth searched)\n"
        ),
        "{table}"
    );
    let rows: Vec<&str> = table
        .lines()
        .skip(2)
        .take_while(|l| !l.starts_with("end:"))
        .collect();
    assert_eq!(rows.len(), 60);
    for row in rows {
        let empties: u32 = row.split_whitespace().nth(3).unwrap().parse().unwrap();
        let black = row.split_whitespace().nth(4).unwrap();
        if empties > 16 {
            assert!(black.starts_with('~') && row.contains(" (d6) "), "{row}");
        } else {
            assert!(!row.contains('~') && !row.contains("(d"), "{row}");
        }
    }
    assert!(table.contains(" lost (estimate, d6), best "), "{table}");
    let timed = check(
        &[
            "analyze",
            "2001:3",
            "--db",
            "testdata",
            "--empties",
            "16",
            "--time",
            "2",
        ],
        0,
    );
    assert!(
        timed.contains("estimated before (midgame search, 2 ms a search; "),
        "{timed}"
    );
    assert!(timed.lines().nth(2).unwrap().contains(" (d"), "{timed}");
    for bad in [
        &["--estimate-depth", "1"][..],
        &["--estimate-depth", "21"],
        &["--time", "0"],
        &["--time", "5", "--estimate-depth", "8"],
    ] {
        let mut args = vec!["analyze", "2001:3", "--db", "testdata"];
        args.extend(bad);
        let out = wthor(&args);
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!stderr(&out).is_empty(), "{bad:?}");
    }
}

/// A results log of an older version (its lines without `estimate`: the
/// old evaluation search) stays readable: a batch resumes it, saying how
/// many of its games another search estimated, and summarises both; its
/// new lines name their search; `results merge` merges it with a new log,
/// saying so, each line keeping its own.
#[test]
fn old_logs_resume_and_merge_with_their_estimates_marked_old() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.jsonl");
    let old = dir.path().join("old.jsonl");
    let merged = dir.path().join("merged.jsonl");
    let batch = |log: &std::path::Path| analyse_into(log, "2001", "8");
    let out = batch(&new);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = logged(&new);
    let n = lines.len();
    assert!(n > 6);
    for line in &lines {
        assert_eq!(
            line["estimate"],
            serde_json::json!({"search": "midgame", "depth": 2})
        );
    }
    // The old log: its first three games, without `estimate`.
    let text: String = lines[..3]
        .iter()
        .map(|l| {
            let mut l = l.clone();
            l.as_object_mut().unwrap().remove("estimate");
            format!("{l}\n")
        })
        .collect();
    std::fs::write(&old, text).unwrap();
    let resumed = batch(&old);
    assert_eq!(resumed.status.code(), Some(0), "{}", stderr(&resumed));
    assert!(
        stderr(&resumed).contains(
            "the results file holds games estimated by another search than this run's midgame \
             search, depth 2: old evaluation search (3 games); kept"
        ),
        "{}",
        stderr(&resumed)
    );
    let summary = String::from_utf8(resumed.stdout).unwrap();
    assert!(
        summary.contains(&format!(
            "estimated before the exact part (not logged) by: midgame search, depth 2 ({} games), \
             old evaluation search (3 games)\n",
            n - 3
        )),
        "{summary}"
    );
    let resumed_lines = logged(&old);
    assert_eq!(resumed_lines.len(), n);
    assert!(
        resumed_lines[..3]
            .iter()
            .all(|l| l.get("estimate").is_none())
    );
    assert!(
        resumed_lines[3..]
            .iter()
            .all(|l| l["estimate"]["depth"] == 2)
    );
    // The accuracy tables read both kinds of lines, to the same figures.
    let accuracy = |log: &std::path::Path| {
        check(
            &[
                "stats",
                "--accuracy",
                "--results",
                log.to_str().unwrap(),
                "--format",
                "jsonl",
            ],
            0,
        )
    };
    assert_eq!(accuracy(&old), accuracy(&new));
    // Merged: the same games once, no conflict, the mix said.
    let out = wthor(&[
        "results",
        "merge",
        new.to_str().unwrap(),
        old.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(logged(&merged).len(), n);
    let out = wthor(&[
        "results",
        "merge",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "-o",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let note = stderr(&out);
    // A line of each kind is named: one of the three old ones, one after
    // them (which one depends on the order the batch's workers finished).
    let named = |before: &str| -> usize {
        let at = note
            .find(before)
            .unwrap_or_else(|| panic!("{before:?} in {note}"));
        let rest = &note[at + before.len()..];
        rest[..rest.find(')').unwrap()].parse().unwrap()
    };
    let old_at = format!("old evaluation search (3 records, as {}:", old.display());
    let new_at = format!(
        "midgame search, depth 2 ({} records, as {}:",
        n - 3,
        old.display()
    );
    assert!(
        note.starts_with("wthor: note: the merged log mixes the estimates of "),
        "{note}"
    );
    assert!((1..=3).contains(&named(&old_at)), "{note}");
    assert!(named(&new_at) > 3, "{note}");
    assert_eq!(logged(&merged).len(), n);
}
