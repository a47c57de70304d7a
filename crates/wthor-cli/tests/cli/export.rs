//! `wthor export` and `wthor convert` to text: snapshots of every format on
//! the fixture database, the CSV read back with the csv crate, atomic
//! output, and (with `WTHOR_DATA`) the whole real archive as CSV and JSON
//! Lines, read back row by row.

use std::path::Path;

use crate::info::{stderr, stdout, wthor_in};
use crate::{check, workspace_root, wthor, wthor_data};

/// `wthor ARGS`, its exit code checked, its standard output.

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
    // The article's nine columns keep their places; `opening` comes after
    // every one of them, then the two ratings, last.
    let place = |c: &str| headers.iter().position(|h| h == c).unwrap();
    assert_eq!(
        [
            "tournamentId",
            "tournamentName",
            "blackPlayerId",
            "blackPlayerName",
            "whitePlayerId",
            "whitePlayerName",
            "blackScore",
            "blackTheoreticalScore",
            "transcript",
        ]
        .map(place),
        [3, 4, 5, 6, 7, 8, 9, 10, 12]
    );
    assert_eq!(place("opening"), headers.len() - 3);
    assert_eq!(place("blackRating"), headers.len() - 2);
    assert_eq!(place("whiteRating"), headers.len() - 1);
    assert_eq!(headers.len(), 16);
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
#[ignore = "needs WTHOR_DATA"]
fn the_whole_real_archive_reads_back_as_csv_and_jsonl() {
    let data = wthor_data();
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
    let mut openings = Vec::with_capacity(games);
    let mut ratings = Vec::with_capacity(games);
    for (record, id) in reader.records().zip(&ids) {
        let record = record.unwrap();
        assert_eq!(record.len(), 16);
        assert_eq!(&record[0], id);
        openings.push(record[13].to_owned());
        ratings.push((record[14].to_owned(), record[15].to_owned()));
        rows += 1;
    }
    assert_eq!(rows, games);
    // Both players rated in nearly every game (the unknown players are
    // not).
    let rated = ratings
        .iter()
        .filter(|(b, w)| !b.is_empty() && !w.is_empty())
        .count();
    assert!(rated > games * 9 / 10, "{rated} of {games}");
    // Every 8x8 game passes through one of the named second moves.
    assert!(openings.iter().all(|o| !o.is_empty()));
    let jsonl = real_export(&data, "jsonl");
    let mut lines = 0;
    for ((line, opening), (black, white)) in jsonl.lines().zip(&openings).zip(&ratings) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(v["transcript"].is_string());
        assert_eq!(v["opening"], opening.as_str());
        for (key, csv) in [("blackRating", black), ("whiteRating", white)] {
            match v[key].as_f64() {
                Some(r) => assert_eq!(&format!("{r:.1}"), csv, "{line}"),
                None => assert!(v[key].is_null() && csv.is_empty(), "{line}"),
            }
        }
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

/// The rows of a Parquet file, read with the `parquet` crate.
fn read_parquet(path: &Path) -> Vec<parquet::record::Row> {
    use parquet::file::reader::{FileReader as _, SerializedFileReader};
    let reader = SerializedFileReader::new(std::fs::File::open(path).unwrap()).unwrap();
    reader
        .get_row_iter(None)
        .unwrap()
        .collect::<Result<Vec<_>, _>>()
        .unwrap()
}

/// The field `name` of `row`.
fn field<'r>(row: &'r parquet::record::Row, name: &str) -> &'r parquet::record::Field {
    row.get_column_iter()
        .find(|(n, _)| n.as_str() == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no column {name}"))
}

/// An integer column, whatever its width and sign.
fn ints(rows: &[parquet::record::Row], name: &str) -> Vec<i64> {
    use parquet::record::Field;
    rows.iter()
        .map(|r| match field(r, name) {
            Field::UByte(v) => i64::from(*v),
            Field::UShort(v) => i64::from(*v),
            Field::UInt(v) => i64::from(*v),
            Field::ULong(v) => *v as i64,
            Field::Byte(v) => i64::from(*v),
            other => panic!("{name} is no integer column: {other}"),
        })
        .collect()
}

/// A text column ("" for a null, as the CSV writes it).
fn texts(rows: &[parquet::record::Row], name: &str) -> Vec<String> {
    use parquet::record::Field;
    rows.iter()
        .map(|r| match field(r, name) {
            Field::Str(s) => s.clone(),
            Field::Null => String::new(),
            other => panic!("{name} is no text column: {other}"),
        })
        .collect()
}

/// The CSV export of `filters`, and the same games as Parquet (games, and
/// positions) in `dir`.
fn csv_and_parquet(
    dir: &Path,
    filters: &[&str],
) -> (Vec<csv::StringRecord>, Vec<parquet::record::Row>) {
    let mut args = vec!["export", "--db", "testdata"];
    args.extend(filters);
    let mut csv_args = args.clone();
    csv_args.extend(["--format", "csv"]);
    let text = check(&csv_args, 0);
    let rows = csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(Result::unwrap)
        .collect();
    let path = dir.join("games.parquet");
    let mut parquet_args = args.clone();
    parquet_args.extend(["-o", path.to_str().unwrap()]);
    let out = wthor(&parquet_args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("games written"), "{}", stderr(&out));
    (rows, read_parquet(&path))
}

#[test]
fn parquet_games_are_the_rows_of_the_csv_export() {
    let dir = tempfile::tempdir().unwrap();
    // All the fixture games (8x8 and 10x10), and a filtered, sorted set.
    for filters in [&[][..], &["--player", "ferriere", "--sort", "score"][..]] {
        let (rows, batches) = csv_and_parquet(dir.path(), filters);
        assert!(!rows.is_empty());
        assert_eq!(batches.len(), rows.len(), "{filters:?}");
        let csv_col = |i: usize| rows.iter().map(|r| r[i].to_owned()).collect::<Vec<_>>();
        let csv_ints = |i: usize| {
            rows.iter()
                .map(|r| r[i].parse::<i64>().unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(texts(&batches, "id"), csv_col(0));
        assert_eq!(ints(&batches, "year"), csv_ints(1));
        assert_eq!(ints(&batches, "size"), csv_ints(2));
        assert_eq!(ints(&batches, "tournament_number"), csv_ints(3));
        assert_eq!(texts(&batches, "tournament"), csv_col(4));
        assert_eq!(ints(&batches, "black_number"), csv_ints(5));
        assert_eq!(texts(&batches, "black"), csv_col(6));
        assert_eq!(ints(&batches, "white_number"), csv_ints(7));
        assert_eq!(texts(&batches, "white"), csv_col(8));
        assert_eq!(ints(&batches, "real_score"), csv_ints(9));
        assert_eq!(ints(&batches, "theoretical_score"), csv_ints(10));
        assert_eq!(ints(&batches, "depth"), csv_ints(11));
        assert_eq!(texts(&batches, "transcript"), csv_col(12));
        // The squares are the transcript's moves as indices.
        for (row, parquet_row) in rows.iter().zip(&batches) {
            let side: u8 = row[2].parse().unwrap();
            let size = othello_core::Size::from_side(side).unwrap();
            let moves = othello_core::notation::parse_transcript(&row[12], size).unwrap();
            let expected: Vec<parquet::record::Field> = moves
                .iter()
                .map(|m| match m {
                    othello_core::Move::Play(sq) => {
                        parquet::record::Field::UByte(sq.row(size) * side + sq.col(size))
                    }
                    othello_core::Move::Pass => panic!("no pass in a transcript"),
                })
                .collect();
            let parquet::record::Field::ListInternal(got) = field(parquet_row, "squares") else {
                panic!("squares is no list");
            };
            assert_eq!(got.elements(), &expected[..], "game {}", &row[0]);
        }
    }
}

#[test]
fn parquet_positions_have_a_row_per_position_of_each_8x8_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("positions.parquet");
    let filters = ["--year", "2001..2002"];
    let mut args = vec![
        "export",
        "--db",
        "testdata",
        "--positions",
        "--format",
        "parquet",
    ];
    args.extend(filters);
    args.extend(["-o", path.to_str().unwrap()]);
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let batches = read_parquet(&path);
    let mut csv_args = vec!["export", "--db", "testdata", "--format", "csv"];
    csv_args.extend(filters);
    let text = check(&csv_args, 0);
    // Each 8x8 game gives a row per move and per pass (the final position
    // is no row); 10x10 games give none.
    let mut expected = 0;
    let (mut games, mut ten) = (0, 0);
    for r in csv::Reader::from_reader(text.as_bytes()).records() {
        let r = r.unwrap();
        if &r[2] != "8" {
            ten += 1;
            continue;
        }
        games += 1;
        let moves =
            othello_core::notation::parse_transcript(&r[12], othello_core::Size::Eight).unwrap();
        let replay = othello_core::replay::replay_moves::<othello_core::Board8>(&moves);
        assert!(replay.is_legal());
        expected += replay.moves + replay.passes;
    }
    assert!(games > 10 && ten > 0, "8x8 and 10x10 games");
    assert_eq!(batches.len(), expected);
    assert!(stderr(&out).contains(&format!("{expected} positions written")));
    let names: Vec<String> = batches[0]
        .get_column_iter()
        .map(|(name, _)| name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "player",
            "opponent",
            "side",
            "ply",
            "move",
            "final",
            "theoretical",
            "game"
        ]
    );
    // The start position opens each game: black to move, 2 discs each.
    let ply = ints(&batches, "ply");
    let player = ints(&batches, "player");
    let starts = ply.iter().filter(|&&p| p == 0).count();
    assert_eq!(starts, games);
    for (p, bits) in ply.iter().zip(&player) {
        if *p == 0 {
            assert_eq!((*bits as u64).count_ones(), 2);
        }
    }
}

#[test]
fn parquet_usage_errors() {
    // Not to standard output.
    let out = wthor(&["export", "--db", "testdata", "--format", "parquet"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("give -o FILE.parquet"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    // --positions is Parquet's.
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["--positions"][..],
        &["--positions", "--format", "csv"][..],
        &[
            "--positions",
            "-o",
            dir.path().join("x.csv").to_str().unwrap(),
        ][..],
    ] {
        let mut a = vec!["export", "--db", "testdata"];
        a.extend(args);
        let out = wthor(&a);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&out).contains("--positions is a Parquet table"),
            "{}",
            stderr(&out)
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // Names files do not convert to Parquet.
    let out = wthor(&[
        "convert",
        "testdata/WTHOR.JOU",
        "-o",
        dir.path().join("t.parquet").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains(".csv or .jsonl"), "{}", stderr(&out));
}

#[test]
fn convert_writes_a_parquet_games_table() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.PARQUET");
    let csv_path = dir.path().join("t.csv");
    check(
        &[
            "convert",
            "testdata/WTH_2001.wtb",
            "-o",
            path.to_str().unwrap(),
        ],
        0,
    );
    check(
        &[
            "convert",
            "testdata/WTH_2001.wtb",
            "-o",
            csv_path.to_str().unwrap(),
        ],
        0,
    );
    let batches = read_parquet(&path);
    let rows: Vec<csv::StringRecord> = csv::Reader::from_path(&csv_path)
        .unwrap()
        .records()
        .map(Result::unwrap)
        .collect();
    assert!(rows.len() > 10);
    let ids: Vec<String> = rows.iter().map(|r| r[0].to_owned()).collect();
    assert_eq!(texts(&batches, "id"), ids);
    let black: Vec<String> = rows.iter().map(|r| r[6].to_owned()).collect();
    assert_eq!(texts(&batches, "black"), black);
    let transcripts: Vec<String> = rows.iter().map(|r| r[12].to_owned()).collect();
    assert_eq!(texts(&batches, "transcript"), transcripts);
}
