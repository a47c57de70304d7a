//! Each endpoint's answer on the fixtures, pinned.

use axum::http::StatusCode;
use wthor_db::index::IndexChoice;
use wthor_db::query::Filters;
use wthor_db::stats::{StatsOptions, StatsReport};

use crate::{app, get, ok_json, send, state};

/// An explorer answer with the estimates' numbers (`value`, `best`)
/// replaced: they follow the evaluation's weights, and `values.rs` checks
/// them against the engine.
fn engine_redacted(mut v: serde_json::Value) -> serde_json::Value {
    for row in v["moves"].as_array_mut().unwrap() {
        if row["exact"].is_null() && row["value"].is_number() {
            row["value"] = "[estimate]".into();
            row["best"] = "[estimate]".into();
        }
    }
    v
}

/// A snake_case key in camelCase (`black_wins` → `blackWins`).
fn camel(key: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Every key of `v`, at any depth (object keys only).
fn keys(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                out.push(k.clone());
                keys(v, out);
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

/// One key style in every answer: camelCase (no `_`, a lowercase
/// start), the game record's style; `move` included.
#[tokio::test]
async fn every_key_of_every_answer_is_camel_case() {
    for uri in [
        "/api/v1/explorer?play=f5d6&games=2",
        "/api/v1/explorer?play=f5d6c3d3c4f4f6f3e6e7d7g6g5c5c6&solve=1&games=1",
        "/api/v1/search?player=nakamura&limit=2",
        "/api/v1/search?opening_name=tigre&limit=1",
        "/api/v1/games/2001:5?analysis=1",
        "/api/v1/games/2005:3?novelty=1",
        "/api/v1/history?play=f5d6c3&year=2003..2005",
        "/api/v1/players?prefix=na",
        "/api/v1/players/Takuji%20Nakamura",
        "/api/v1/explorer?play=f5f5",
        "/api/v1/nothing",
    ] {
        let a = get(uri).await;
        let mut found = Vec::new();
        keys(&a.json(), &mut found);
        assert!(!found.is_empty(), "{uri}");
        for key in found {
            assert!(
                !key.contains('_') && key.starts_with(|c: char| c.is_ascii_lowercase()),
                "{uri}: {key}"
            );
        }
    }
}

/// The unversioned paths (`/api/…`) keep answering, the same answers,
/// marked deprecated; the versioned ones are not.
#[tokio::test]
async fn the_unversioned_paths_answer_the_same_marked_deprecated() {
    for path in [
        "explorer?play=f5d6&games=2",
        "search?player=nakamura&limit=2",
        "games/2001:5",
        "games/2001:5/export?format=ggf",
        "games/2001:5/png?ply=3",
        "players?prefix=na",
        "players/Takuji%20Nakamura",
        "export?format=csv&year=2003&player=saio",
        "search?limit=1000",
    ] {
        let (old, new) = (
            get(&format!("/api/{path}")).await,
            get(&format!("/api/v1/{path}")).await,
        );
        assert_eq!(old.status, new.status, "{path}");
        assert_eq!(old.body, new.body, "{path}");
        assert_eq!(old.headers["deprecation"], "true", "{path}");
        assert!(new.headers.get("deprecation").is_none(), "{path}");
    }
}

#[tokio::test]
async fn explorer_from_the_start() {
    let uri = "/api/v1/explorer?games=2";
    let v = ok_json(get(uri).await, uri);
    insta::assert_json_snapshot!("explorer_start", engine_redacted(v));
}

#[tokio::test]
async fn explorer_after_two_moves_with_filters() {
    let uri = "/api/v1/explorer?play=f5d6&year=2001..2002&games=2";
    let v = ok_json(get(uri).await, uri);
    insta::assert_json_snapshot!("explorer_f5d6_2001_2002", engine_redacted(v));
}

#[tokio::test]
async fn explorer_plays_moves_from_a_position_given() {
    // The position after f5d6, given as OBF, then c3 played from it: the
    // answer of f5d6c3 played from the start (but the moves' own record).
    let from_start = ok_json(get("/api/v1/explorer?play=f5d6c3&games=3").await, "f5d6c3");
    let base = ok_json(get("/api/v1/explorer?play=f5d6&games=0").await, "f5d6");
    let obf = base["obf"].as_str().unwrap().replace(' ', "+");
    let uri = format!("/api/v1/explorer?position={obf}&play=c3&games=3");
    let v = ok_json(get(&uri).await, &uri);
    for key in ["obf", "moves", "totals", "reached", "games", "opening"] {
        assert_eq!(v[key], from_start[key], "{key}");
    }
    assert_eq!(v["position"]["lastMove"], "c3");
    // A move that cannot be played from there is named.
    let uri = format!("/api/v1/explorer?position={obf}&play=c3c3");
    let answer = get(&uri).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    assert!(
        answer.text().contains("play: move 2 (c3)"),
        "{}",
        answer.text()
    );
}

#[tokio::test]
async fn explorer_solves_near_the_end() {
    // A fixture game to 14 empties (46 moves played): quick to solve.
    let id = "2001:5";
    let game = ok_json(get(&format!("/api/v1/games/{id}")).await, id);
    let moves: Vec<&str> = game["moves"].as_array().unwrap()[..46]
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let uri = format!("/api/v1/explorer?play={}&solve=1&games=0", moves.concat());
    let v = ok_json(get(&uri).await, &uri);
    assert_eq!(v["solved"], true, "{v}");
    assert_eq!(v["position"]["empties"], 14);
    let rows = v["moves"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        v["position"]["legalMoves"].as_array().unwrap().len()
    );
    assert!(rows.iter().all(|r| r["exact"].is_i64()), "{v}");
    // Too deep: not solved, and said why.
    let uri = "/api/v1/explorer?play=f5d6&solve=1&games=0";
    let v = ok_json(get(uri).await, uri);
    assert_eq!(
        v["solved"],
        "not solved: 58 empty squares (the exact solver takes at most 24)"
    );
}

/// The explorer's rows are the library's `wthor stats --next` rows (the
/// CLI's own output is compared in the CLI's tests) with the legal moves
/// nobody played after them, and a row's transpositions are the games the
/// explorer counts once the move is played.
#[tokio::test]
async fn explorer_rows_are_the_next_move_statistics_and_transpositions_agree() {
    for (play, filters) in [
        ("", ""),
        ("f5", ""),
        ("f5d6c3", "&result=black"),
        ("f5f6e6f4", "&player=nakamura"),
        ("c4e3", "&year=2002..&human=true"),
    ] {
        let uri = format!("/api/v1/explorer?play={play}{filters}&games=0");
        let v = ok_json(get(&uri).await, &uri);
        let mut f: Filters = serde_html_form::from_str(filters.trim_start_matches('&')).unwrap();
        if !play.is_empty() {
            f.position_after = Some(play.to_owned());
        }
        let query = f.to_query().unwrap();
        let stats = state()
            .database()
            .searcher(IndexChoice::Never)
            .stats(
                &query,
                &StatsOptions {
                    next_moves: true,
                    ..StatsOptions::default()
                },
            )
            .unwrap()
            .value;
        let played = stats.next_moves.as_ref().unwrap().moves.len();
        let mut stats = stats;
        stats.next_moves.as_mut().unwrap().add_legal_moves();
        let report = StatsReport::new(&stats, &[], false, None)
            .next_moves
            .unwrap();
        let want = serde_json::to_value(&report.moves).unwrap();
        let rows = v["moves"].as_array().unwrap();
        assert!(!rows.is_empty(), "{uri}");
        assert_eq!(rows.len(), want.as_array().unwrap().len(), "{uri}");
        // The moves played first, then the legal moves nobody played.
        let games: Vec<u64> = rows.iter().map(|r| r["games"].as_u64().unwrap()).collect();
        assert!(games[..played].iter().all(|&n| n > 0), "{uri}: {games:?}");
        assert!(games[played..].iter().all(|&n| n == 0), "{uri}: {games:?}");
        for (row, want) in rows.iter().zip(want.as_array().unwrap()) {
            for (key, value) in want.as_object().unwrap() {
                // The library's keys (`wthor stats --format jsonl`'s) in
                // the API's style.
                let key = &camel(key);
                // Floats through JSON text: equal to the last bits.
                match (row[key].as_f64(), value.as_f64()) {
                    (Some(a), Some(b)) if value.is_f64() => {
                        assert!((a - b).abs() < 1e-12, "{uri}: {key}: {a} {b}");
                    }
                    _ => assert_eq!(&row[key], value, "{uri}: {key}"),
                }
            }
            let next = format!(
                "/api/v1/explorer?play={play}{}{filters}&games=0",
                row["move"].as_str().unwrap()
            );
            let after = ok_json(get(&next).await, &next);
            assert_eq!(row["transpositions"], after["reached"], "{next}");
            assert!(
                row["transpositions"].as_u64() >= row["games"].as_u64(),
                "{next}"
            );
        }
        assert_eq!(v["reached"], report.reached);
    }
}

#[tokio::test]
async fn search_pages() {
    let uri = "/api/v1/search?player=nakamura&sort=score&reverse=true&limit=2&offset=1";
    let v = ok_json(get(uri).await, uri);
    insta::assert_json_snapshot!("search_nakamura", v);
    // The pages add up to the whole.
    let all = ok_json(get("/api/v1/search?player=nakamura&limit=500").await, "all");
    let total = all["total"].as_u64().unwrap();
    assert_eq!(
        all["games"].as_array().unwrap().len() as u64,
        total.min(500)
    );
    let second = ok_json(
        get("/api/v1/search?player=nakamura&limit=10&offset=10").await,
        "page 2",
    );
    assert_eq!(second["games"][0], all["games"][10]);
}

#[tokio::test]
async fn game_with_positions() {
    let v = ok_json(get("/api/v1/games/2001:5").await, "2001:5");
    assert_eq!(
        v["positions"].as_array().unwrap().len(),
        v["moves"].as_array().unwrap().len() + 1
    );
    insta::assert_json_snapshot!("game_2001_5", v);
}

#[tokio::test]
async fn game_analysis_on_request() {
    let v = ok_json(get("/api/v1/games/2001:5?analysis=1").await, "analysis");
    let a = &v["analysis"];
    let moves = a["moves"].as_array().unwrap();
    assert_eq!(moves.len(), v["moves"].as_array().unwrap().len());
    assert_eq!(a["blackLine"].as_array().unwrap().len(), moves.len() + 1);
    assert!(moves.iter().any(|m| m["exact"] == true));
    // A second time from the cache: the same answer.
    let again = ok_json(get("/api/v1/games/2001:5?analysis=1").await, "again");
    assert_eq!(again, v);
}

#[tokio::test]
async fn players_autocomplete_ignores_accents_and_case() {
    let v = ok_json(get("/api/v1/players?prefix=na").await, "na");
    insta::assert_json_snapshot!("players_na", v);
    // "Élodie": found by "elo" and by "ÉLO".
    for prefix in ["elo", "%C3%89LO", "marchand"] {
        let uri = format!("/api/v1/players?prefix={prefix}");
        let v = ok_json(get(&uri).await, &uri);
        assert!(
            v.as_array()
                .unwrap()
                .iter()
                .any(|p| p["name"] == "Élodie Marchand"),
            "{uri}: {v}"
        );
    }
}

#[tokio::test]
async fn player_page() {
    let uri = "/api/v1/players/Takuji%20Nakamura";
    let v = ok_json(get(uri).await, uri);
    let by_year: u64 = v["byYear"]
        .as_array()
        .unwrap()
        .iter()
        .map(|y| y["games"].as_u64().unwrap())
        .sum();
    assert_eq!(by_year, v["record"]["games"].as_u64().unwrap());
    let against: u64 = v["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["games"].as_u64().unwrap())
        .sum();
    assert!(against <= v["record"]["games"].as_u64().unwrap());
    insta::assert_json_snapshot!("player_nakamura", v);
}

#[tokio::test]
async fn export_is_the_library_export() {
    for format in [
        wthor_db::text::Format::Csv,
        wthor_db::text::Format::Jsonl,
        wthor_db::text::Format::Ggf,
    ] {
        let name = match format {
            wthor_db::text::Format::Csv => "csv",
            wthor_db::text::Format::Jsonl => "jsonl",
            _ => "ggf",
        };
        let uri = format!("/api/v1/export?format={name}&player=saio&year=2003");
        let a = get(&uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        let db = state();
        let query = Filters {
            players: vec!["saio".to_owned()],
            years: Some("2003".parse().unwrap()),
            ..Filters::default()
        }
        .to_query()
        .unwrap();
        let ids = db
            .database()
            .searcher(IndexChoice::Never)
            .search(&query)
            .unwrap()
            .value;
        assert!(!ids.is_empty());
        let mut want = Vec::new();
        wthor_db::text::export(
            db.database(),
            &ids,
            &wthor_db::text::ExportOptions {
                format,
                empties: None,
            },
            &mut want,
        )
        .unwrap();
        assert_eq!(a.body, want, "{uri}");
        assert!(
            a.headers["content-disposition"]
                .to_str()
                .unwrap()
                .ends_with(&format!("wthor.{name}\"")),
        );
    }
}

#[tokio::test]
async fn pages_and_assets_have_etags_and_are_compressed() {
    for uri in [
        "/",
        "/explorer",
        "/game/2001:5",
        "/player/x",
        "/assets/app.js",
        "/assets/style.css",
    ] {
        let a = get(uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        let tag = a.headers["etag"].to_str().unwrap().to_owned();
        let b = send(app(), "GET", uri, &[("if-none-match", &tag)]).await;
        assert_eq!(b.status, StatusCode::NOT_MODIFIED, "{uri}");
        assert!(b.body.is_empty());
    }
    // A streamed export compressed to its end (the body polled after its
    // end once panicked).
    let a = send(
        app(),
        "GET",
        "/api/v1/export?format=csv&player=saio",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.headers["content-encoding"], "gzip");
    assert!(a.body.len() > 1000, "{}", a.body.len());
    let a = send(
        app(),
        "GET",
        "/assets/app.js",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(a.headers["content-encoding"], "gzip");
    let a = send(
        app(),
        "GET",
        "/api/v1/search?limit=100",
        &[("accept-encoding", "gzip")],
    )
    .await;
    assert_eq!(a.headers["content-encoding"], "gzip");
}

/// An opening name that names nothing: no game, and the close names under
/// `suggestions` (none for a text like no name), with the sentence of the
/// CLI under `note`; a known name has neither key.
#[tokio::test]
async fn search_suggests_opening_names() {
    let table = wthor_db::openings::table();
    for (name, known) in [("xyzzy", false), ("tigre", false), ("Tiger", true)] {
        let uri = format!("/api/v1/search?opening_name={name}&limit=1");
        let v = ok_json(get(&uri).await, &uri);
        if known {
            assert!(v["total"].as_u64().unwrap() > 0, "{uri}: {v}");
            assert!(v.get("suggestions").is_none(), "{uri}: {v}");
            assert!(v.get("note").is_none(), "{uri}: {v}");
            continue;
        }
        assert_eq!(v["total"], 0, "{uri}");
        let want: Vec<&str> = table.closest(name, 3).iter().map(|o| o.name()).collect();
        assert_eq!(v["suggestions"], serde_json::json!(want), "{uri}");
        assert_eq!(
            v["note"].as_str(),
            table.unknown_name_note(name).as_deref(),
            "{uri}"
        );
    }
    let v = ok_json(get("/api/v1/search?opening_name=tigre").await, "tigre");
    assert!(
        v["suggestions"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("Tiger")),
        "{v}"
    );
    let v = ok_json(get("/api/v1/search?opening_name=xyzzy").await, "xyzzy");
    assert_eq!(v["suggestions"], serde_json::json!([]));
}

/// The explorer says of an opening name that names nothing what the
/// search says (its games and rows are none); a known name, nothing.
#[tokio::test]
async fn the_explorer_suggests_opening_names_as_the_search() {
    for name in ["tigre", "xyzzy", "Tiger"] {
        let search = format!("/api/v1/search?opening_name={name}&limit=1");
        let s = ok_json(get(&search).await, &search);
        let uri = format!("/api/v1/explorer?play=f5d6&opening_name={name}&games=1");
        let e = ok_json(get(&uri).await, &uri);
        assert_eq!(e.get("suggestions"), s.get("suggestions"), "{uri}");
        assert_eq!(e.get("note"), s.get("note"), "{uri}");
        if name == "tigre" {
            assert_eq!(
                e["note"],
                "no opening is named \"tigre\"; the closest names: Tiger"
            );
            assert_eq!(e["totals"]["games"], 0, "{uri}");
        }
    }
}

/// `size` selects no game (as `wthor search --size`): it is the size in
/// which openings and transcripts are read.
#[tokio::test]
async fn size_selects_no_game() {
    let all = ok_json(get("/api/v1/search?limit=1").await, "all");
    let ten = ok_json(get("/api/v1/search?size=10&limit=1").await, "size=10");
    assert_eq!(ten["total"], all["total"]);
    // A position of that size selects its games.
    let tens = ok_json(
        get("/api/v1/search?size=10&position_after=d5&limit=500").await,
        "10x10",
    );
    let games = tens["games"].as_array().unwrap();
    assert!(!games.is_empty());
    assert!(games.iter().all(|g| g["boardSize"] == 10));
}

/// A position's picture is named by its game and the discs played: a
/// download per move, not one name for every move.
#[tokio::test]
async fn a_png_is_named_by_its_game_and_ply() {
    let name = |a: &crate::Answer| {
        a.headers["content-disposition"]
            .to_str()
            .unwrap()
            .to_owned()
    };
    let at30 = get("/api/v1/games/2001:5/png?ply=30").await;
    assert_eq!(at30.status, StatusCode::OK);
    assert_eq!(name(&at30), "attachment; filename=\"2001_5-ply30.png\"");
    let end = get("/api/v1/games/2001:5/png").await;
    assert_eq!(name(&end), "attachment; filename=\"2001_5-ply60.png\"");
    assert_eq!(
        name(&get("/api/v1/games/2001:5/png?ply=0").await),
        "attachment; filename=\"2001_5-ply0.png\""
    );
}

/// `format=transcript`, the CLI's name of the format, is `txt`.
#[tokio::test]
async fn transcript_is_the_txt_format() {
    for path in [
        "/api/v1/export?player=saio&year=2003&format=",
        "/api/v1/games/2001:5/export?format=",
    ] {
        let txt = get(&format!("{path}txt")).await;
        let transcript = get(&format!("{path}transcript")).await;
        assert_eq!(txt.status, StatusCode::OK, "{path}");
        assert_eq!(transcript.status, StatusCode::OK, "{path}");
        assert_eq!(txt.body, transcript.body, "{path}");
        assert_eq!(
            txt.headers["content-disposition"],
            transcript.headers["content-disposition"]
        );
    }
}

/// A player's openings carry the player's own results beside black's:
/// as black, black's wins are theirs; as white, black's losses are.
#[tokio::test]
async fn player_openings_carry_the_players_results() {
    let uri = "/api/v1/players/Takuji%20Nakamura";
    let v = ok_json(get(uri).await, uri);
    for (key, black) in [("asBlack", true), ("asWhite", false)] {
        let rows = v[key].as_array().unwrap();
        assert!(!rows.is_empty(), "{key}");
        for row in rows {
            let (wins, losses) = if black {
                (&row["blackWins"], &row["blackLosses"])
            } else {
                (&row["blackLosses"], &row["blackWins"])
            };
            assert_eq!(&row["wins"], wins, "{key}: {row}");
            assert_eq!(&row["losses"], losses, "{key}: {row}");
            assert!(row["name"].is_string(), "{key}: {row}");
        }
    }
}

/// The analysis says where its exact part starts (`exactFrom` empties),
/// and every move from there on is exact, every one before an estimate
/// flagged with the plies of its search (the midgame search's, at
/// `wthor analyze`'s default depth, named in `estimate`).
#[tokio::test]
async fn analysis_says_where_the_exact_part_starts() {
    let v = ok_json(get("/api/v1/games/2001:5?analysis=1").await, "analysis");
    let a = &v["analysis"];
    let from = a["exactFrom"].as_u64().expect("exactFrom");
    assert_eq!(from, u64::from(crate::ANALYSIS_EMPTIES));
    let depth = wthor_db::analysis::DEFAULT_ESTIMATE_DEPTH;
    assert_eq!(
        a["estimate"],
        serde_json::json!({"search": "midgame", "depth": depth})
    );
    for m in a["moves"].as_array().unwrap() {
        let exact = m["empties"].as_u64().unwrap() <= from;
        assert_eq!(m["exact"], exact, "{m}");
        if exact {
            assert!(m.get("depth").is_none(), "{m}");
        } else {
            // The plies searched: to the end from 16 empties or fewer.
            let empties = m["empties"].as_u64().unwrap();
            assert_eq!(m["depth"], empties.min(u64::from(depth)), "{m}");
        }
    }
}
