//! `wthor export` and `wthor convert` to text: snapshots of every format on
//! the fixture database, the CSV read back with the csv crate, atomic
//! output, and (with `WTHOR_DATA`) the whole real archive as CSV and JSON
//! Lines, read back row by row.

use std::path::Path;

use crate::info::{stderr, stdout, wthor_in};
use crate::{workspace_root, wthor, wthor_data};

/// `wthor ARGS`, its exit code checked, its standard output.
#[track_caller]
fn check(args: &[&str], code: i32) -> String {
    let out = wthor(args);
    assert_eq!(out.status.code(), Some(code), "stderr: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn every_format_on_a_selection_of_the_fixtures() {
    for format in ["csv", "jsonl", "ggf", "transcript", "obf"] {
        let text = check(
            &[
                "export", "--db", "testdata", "--format", format, "--year", "2002", "--limit", "3",
            ],
            0,
        );
        insta::assert_snapshot!(format!("export_{format}"), text);
    }
    // A filter on a name (accents folded), 10x10 games included.
    let text = check(
        &[
            "export", "--db", "testdata", "--format", "csv", "--player", "ferriere", "--limit", "4",
        ],
        0,
    );
    insta::assert_snapshot!("export_csv_filtered", text);
    let text = check(
        &[
            "export",
            "--db",
            "testdata",
            "--format",
            "obf",
            "--empties",
            "20",
            "--limit",
            "2",
        ],
        0,
    );
    insta::assert_snapshot!("export_obf_empties", text);
}

#[test]
fn encoding_of_the_names_files() {
    let args = |enc: &'static str| {
        let mut a = vec!["export", "--db", "testdata", "--format", "csv"];
        a.extend(["--tournament", "Open de", "--limit", "1"]);
        if !enc.is_empty() {
            a.extend(["--encoding", enc]);
        }
        a
    };
    assert!(check(&args(""), 0).contains(",Open de Suède,"));
    // The Japanese article's guess decodes the è (0xE8) as č.
    let wrong = check(&args("iso-8859-2"), 0);
    assert!(wrong.contains(",Open de Sučde,"), "{wrong}");
    let out = wthor(&[
        "export",
        "--db",
        "testdata",
        "--format",
        "csv",
        "--encoding",
        "klingon",
    ]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("--encoding klingon"));
}

#[test]
fn db_from_the_environment_and_usage_errors() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["export", "--format", "transcript", "--limit", "1"])
        .env("WTHOR_DIR", workspace_root().join("testdata"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out).lines().count(), 1);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["export", "--format", "csv"])
        .env_remove("WTHOR_DIR")
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("give --db DIR or set WTHOR_DIR"));
    let out = wthor(&["export", "--db", "testdata", "-o", "x.unknown"]);
    assert!(stderr(&out).contains("give --format"));
}

#[test]
fn csv_reads_back_one_row_per_game_with_the_article_columns() {
    let text = check(&["export", "--db", "testdata", "--format", "csv"], 0);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let headers = reader.headers().unwrap().clone();
    for column in [
        "tournamentId",
        "tournamentName",
        "blackPlayerId",
        "blackPlayerName",
        "whitePlayerId",
        "whitePlayerName",
        "blackScore",
        "blackTheoreticalScore",
        "transcript",
    ] {
        assert!(headers.iter().any(|h| h == column), "no column {column}");
    }
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let db = wthor_db::Database::open(workspace_root().join("testdata")).unwrap();
    assert_eq!(rows.len(), db.game_count());
    // Windows-1252 decoded: the tournament with an è.
    assert!(rows.iter().any(|r| &r[4] == "Open de Suède"));
    // Every transcript is the game's moves.
    for (row, (_, _, game)) in rows.iter().zip(db.games()) {
        let moves: String = game.moves().map(|m| m.unwrap().to_string()).collect();
        assert_eq!(&row[12], moves);
        assert_eq!(row[9].parse::<u8>().unwrap(), game.real_score());
    }
}

#[test]
fn output_file_is_written_whole_and_replaces_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("games.jsonl");
    std::fs::write(&target, "old").unwrap();
    let root = workspace_root();
    let out = wthor_in(
        &root,
        &["export", "--db", "testdata", "-o", target.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = std::fs::read_to_string(&target).unwrap();
    let count = wthor_in(&root, &["search", "--db", "testdata", "--count"]);
    let games: usize = stdout(&count).trim().parse().unwrap();
    assert_eq!(text.lines().count(), games);
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["moves"].is_array());
    }
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temporary file left behind");
    // An output that cannot be written leaves nothing and fails.
    let out = wthor(&["export", "--db", "testdata", "-o", "/nonexistent/dir/x.csv"]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn convert_writes_text_by_extension_and_still_wthor() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let ggf = format!("{d}/t.ggf");
    check(&["convert", "testdata/WTH_2001.wtd", "-o", &ggf], 0);
    let text = std::fs::read_to_string(&ggf).unwrap();
    assert_eq!(text.lines().count(), 12);
    assert!(text.starts_with("(;GM[Othello]PC["));
    assert!(text.contains("TY[10]"));
    let txt = format!("{d}/t.txt");
    check(&["convert", "testdata/WTH_2002.wtb", "-o", &txt], 0);
    let by_export = check(
        &[
            "export",
            "--db",
            "testdata",
            "--format",
            "transcript",
            "--year",
            "2002",
        ],
        0,
    );
    // The 8x8 games of 2002 are the first 20 lines of the export of 2002.
    let exported: Vec<&str> = by_export.lines().take(20).collect();
    let converted = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(converted.lines().collect::<Vec<_>>(), exported);
    let wtb = format!("{d}/copy.wtb");
    check(&["convert", "testdata/WTH_2002.wtb", "-o", &wtb], 0);
    assert_eq!(
        std::fs::read(&wtb).unwrap(),
        std::fs::read(workspace_root().join("testdata/WTH_2002.wtb")).unwrap()
    );
}

fn real_export(data: &Path, format: &str) -> String {
    let db = data.join("wthor");
    check(
        &["export", "--db", db.to_str().unwrap(), "--format", format],
        0,
    )
}

#[test]
fn the_whole_real_archive_reads_back_as_csv_and_jsonl() {
    let Some(data) = wthor_data() else { return };
    let db = wthor_db::Database::open(data.join("wthor")).unwrap();
    let games = db.game_count();
    let csv_text = real_export(&data, "csv");
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    // One row per game, in database order across the parallel chunks.
    let ids: Vec<String> = db
        .games()
        .map(|(f, i, _)| db.game_name(wthor_db::GameId::new(f, i)).to_string())
        .collect();
    let mut rows = 0;
    for (record, id) in reader.records().zip(&ids) {
        let record = record.unwrap();
        assert_eq!(record.len(), 13);
        assert_eq!(&record[0], id);
        rows += 1;
    }
    assert_eq!(rows, games);
    let jsonl = real_export(&data, "jsonl");
    let mut lines = 0;
    for line in jsonl.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["transcript"].is_string());
        lines += 1;
    }
    assert_eq!(lines, games);
}

/// Values checked against the board: OBF positions past the empty squares
/// a selected game can have are refused; at 0 empties the known value is
/// the real score; standard output without --format is CSV.
#[test]
fn obf_empties_are_checked_and_zero_gives_the_real_score() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            workspace_root().join("testdata").join(name),
            dir.path().join(name),
        )
        .unwrap();
    }
    let db = dir.path().to_str().unwrap();
    let out = wthor(&["export", "--db", db, "--format", "obf", "--empties", "70"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert!(
        stderr(&out).contains("--empties 70: the games selected have at most 60 empty squares"),
        "{}",
        stderr(&out)
    );
    let out = wthor(&["export", "--db", db, "--format", "obf", "--empties", "97"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // At 0 empties: the real score, from the side to move's point of view.
    let csv = check(&["export", "--db", db], 0);
    let mut header = csv.lines().next().unwrap().split(',');
    assert_eq!(header.next(), Some("game"));
    let obf = check(
        &["export", "--db", db, "--format", "obf", "--empties", "0"],
        0,
    );
    let mut lines = 0;
    for line in obf.lines() {
        let (board, rest) = line.split_once(' ').unwrap();
        let black = board.chars().filter(|&c| c == 'X').count() as i32;
        let white = board.chars().filter(|&c| c == 'O').count() as i32;
        let value: i32 = rest.split(';').nth(1).unwrap().trim().parse().unwrap();
        let diff = if rest.starts_with('X') {
            black - white
        } else {
            white - black
        };
        assert_eq!(value, diff, "{line}");
        lines += 1;
    }
    assert!(lines > 0);
}

#[test]
fn disc_ranges_past_the_board_are_usage_errors() {
    for (args, message) in [
        (
            &["search", "--db", "testdata", "--theoretical", "65..70"][..],
            "the theoretical score range 65..70 goes past 64, the squares of the 8x8 board",
        ),
        (
            &["export", "--db", "testdata", "--black-discs", "0..100"],
            "the black discs range 0..100 goes past 64",
        ),
        (
            &["stats", "--db", "testdata", "--theoretical", "70.."],
            "the theoretical score range 70.. goes past 64",
        ),
    ] {
        let out = wthor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

/// Every command that writes a file says the same thing, naming the file
/// and its missing folder, never the temporary file it writes first; and a
/// new file is not private (the temporary file is 0600).
#[test]
fn every_writer_names_the_file_and_its_missing_folder() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let testdata = workspace_root().join("testdata");
    let t = |name: &str| testdata.join(name).to_str().unwrap().to_owned();
    // A cache and a results log to merge.
    let cache = d.join("c.bin");
    let results = d.join("r.jsonl");
    let (c, r) = (cache.to_str().unwrap(), results.to_str().unwrap());
    let solve = [
        "validate",
        "--solve",
        "--threads",
        "1",
        "--tt-bits",
        "12",
        "--sample",
        "2",
    ];
    let mut first = solve.to_vec();
    let wtb = t("WTH_2001.wtb");
    first.extend(["--cache", c, "--results", r, &wtb]);
    check(&first, 0);
    let missing = d.join("no/such");
    let to = |name: &str| missing.join(name).to_str().unwrap().to_owned();
    let (csv, wtb_out, png, svg, idx, bin, jsonl, cache_out) = (
        to("x.csv"),
        to("x.wtb"),
        to("x.png"),
        to("x.svg"),
        to("x.idx"),
        to("m.bin"),
        to("m.jsonl"),
        to("c.bin"),
    );
    let db = t("");
    let mut validate = solve.to_vec();
    validate.extend(["--cache", &cache_out, &wtb]);
    let runs: Vec<(Vec<&str>, &str)> = vec![
        (vec!["export", "--db", &db, "-o", &csv], &csv),
        (vec!["convert", &wtb, "-o", &wtb_out], &wtb_out),
        (vec!["show", &wtb, "1", "--png", &png], &png),
        (vec!["show", &wtb, "1", "--svg", &svg], &svg),
        (vec!["index", "build", "--db", &db, "--index", &idx], &idx),
        (vec!["cache", "merge", c, "-o", &bin], &bin),
        (vec!["results", "merge", r, "-o", &jsonl], &jsonl),
        (validate, &cache_out),
    ];
    let folder = missing.display().to_string();
    for (args, file) in &runs {
        let out = wthor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.ends_with(&format!(
                "{file}: cannot write: folder {folder} does not exist\n"
            )),
            "{args:?}: {err}"
        );
        assert!(!err.contains(".wthor-"), "{args:?}: {err}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::create_dir_all(&missing).unwrap();
        let mut private = Vec::new();
        for (args, file) in &runs {
            let out = wthor(args);
            assert!(out.status.success(), "{args:?}: {}", stderr(&out));
            let mode = std::fs::metadata(file).unwrap().permissions().mode();
            if mode & 0o044 == 0 {
                private.push(format!("{file}: {mode:o}"));
            }
        }
        assert!(private.is_empty(), "private files: {private:?}");
    }
}
