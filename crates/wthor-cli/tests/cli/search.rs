//! `wthor search`: snapshots on the fixture database, exact exit codes and
//! messages for bad input, a damaged file among good ones, `WTHOR_DIR`.

use std::path::Path;
use std::process::Command;

use wthor_format::{BoardSize, Game, Header, write_game_file};

use crate::info::{stderr, stdout};
use crate::{workspace_root, wthor};

/// `wthor search --db testdata ARGS`: its stdout, after checking it exits 0
/// with nothing on stderr.
#[track_caller]
fn search(args: &[&str]) -> String {
    let mut all = vec!["search", "--db", "testdata"];
    all.extend_from_slice(args);
    let out = wthor(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?}");
    stdout(&out)
}

/// Runs `wthor search --db testdata ARGS` expecting exit code 2 and this one
/// line on stderr.
#[track_caller]
fn fails(args: &[&str], message: &str) {
    let mut all = vec!["search", "--db", "testdata"];
    all.extend_from_slice(args);
    let out = wthor(&all);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert_eq!(stdout(&out), "", "{args:?}");
    let err = stderr(&out);
    assert!(err.contains(message), "{args:?}: {err}");
}

#[test]
fn snapshots_on_the_fixture_database() {
    insta::assert_snapshot!(
        "search_year_2001",
        search(&["--year", "..2001", "--limit", "8"])
    );
    insta::assert_snapshot!(
        "search_two_players_csv",
        search(&[
            "--player", "takuji", "--player", "ELODIE", "--format", "csv", "--limit", "6"
        ])
    );
    insta::assert_snapshot!(
        "search_draws_jsonl",
        search(&[
            "--result",
            "draw",
            "--year",
            "2001..2002",
            "--format",
            "jsonl"
        ])
    );
    insta::assert_snapshot!(
        "search_programs_by_score",
        search(&[
            "--program",
            "--black",
            "(",
            "--sort",
            "score",
            "--limit",
            "6"
        ])
    );
    insta::assert_snapshot!(
        "search_position_sorted",
        search(&[
            "--position-after",
            "f5d6c3d3c4f4f6",
            "--sort",
            "white",
            "--limit",
            "6"
        ])
    );
    insta::assert_snapshot!(
        "search_tournament_exact_10x10",
        search(&[
            "--tournament",
            "open de suede",
            "--exact",
            "--size",
            "10",
            "--opening",
            "g6"
        ])
    );
}

#[test]
fn counts_agree_with_the_listing() {
    for args in [
        &["--opening", "f5d6c3d3c4"][..],
        &["--opening", "f5d6c3d3c4", "--as-played"],
        &["--human", "--result", "white", "--black-discs", "0..20"],
        &["--theoretical", "33..", "--year", "2003"],
        &["--white", "zebra", "--position-after", "f5d6c3"],
    ] {
        let count = search(&[args, &["--count"][..]].concat());
        let list = search(&[args, &["--format", "csv"][..]].concat());
        let n: usize = count.trim().parse().unwrap();
        assert!(n > 0, "{args:?} finds nothing");
        assert_eq!(list.lines().count(), n + 1, "{args:?}");
    }
    // Symmetry: the opening in its 4 orientations finds the same games.
    let orientations: Vec<String> = ["f5d6", "c4e3", "d3c5", "e6f4"]
        .iter()
        .map(|o| search(&["--opening", o, "--format", "csv"]))
        .collect();
    assert!(orientations.windows(2).all(|w| w[0] == w[1]));
    let played: Vec<usize> = ["f5d6", "c4e3", "d3c5", "e6f4"]
        .iter()
        .map(|o| {
            search(&["--opening", o, "--as-played", "--count"])
                .trim()
                .parse()
                .unwrap()
        })
        .collect();
    assert_eq!(
        played.iter().sum::<usize>() + 1,
        orientations[0].lines().count()
    );
}

#[test]
fn no_match_is_an_empty_result() {
    assert_eq!(search(&["--player", "nobody at all", "--count"]), "0\n");
    insta::assert_snapshot!("search_no_match", search(&["--player", "nobody at all"]));
    assert_eq!(
        search(&["--year", "1990..1995", "--format", "csv"])
            .lines()
            .count(),
        1
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    fails(
        &["--position", "XXZ"],
        "wthor: --position: bad OBF position at character 3: expected X, O or - for a square (found 'Z')\n",
    );
    fails(
        &["--position-after", "f5d6z9"],
        "wthor: --position-after: bad transcript at character 5 (move 3): square off the board (found 'z')\n",
    );
    fails(
        &["--position-after", "f5d6a1"],
        "wthor: --position-after: move 3 (a1) of the transcript is illegal: flips no disc\n",
    );
    fails(
        &["--opening", "f5f5"],
        "wthor: --opening: move 2 (f5) of the transcript is illegal: square occupied\n",
    );
    fails(&["--year", "2000..1990"], "empty range: 2000 is above 1990");
    fails(&["--black-discs", "40..30"], "empty range: 40 is above 30");
    fails(&["--year", "20x0.."], "\"20x0\" is not a number");
    fails(
        &["--year", "0..99999"],
        "invalid value '0..99999' for '--year <A..B>': 99999 is out of range: give a number \
         from 0 to 65535\n",
    );
    fails(&["--sort", "elo"], "unknown sort key \"elo\"");
    fails(
        &["--result", "win"],
        "invalid value 'win' for '--result <RESULT>'",
    );
    fails(
        &["--player", "a", "--player", "b", "--player", "c"],
        "wthor: --player: at most two players (games between them), got 3\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["search", "--count"])
        .env_remove("WTHOR_DIR")
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no database: give --db DIR or set WTHOR_DIR\n"
    );
    let out = wthor(&["search", "--db", "no/such/dir", "--count"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no/such/dir: no such file or directory\n"
    );
}

#[test]
fn wthor_dir_names_the_database() {
    let out = Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["search", "--count", "--year", "2001"])
        .env("WTHOR_DIR", "testdata")
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), search(&["--count", "--year", "2001"]));
}

fn copy(from: &str, dir: &Path) {
    std::fs::copy(workspace_root().join("testdata").join(from), dir.join(from)).unwrap();
}

#[test]
fn a_damaged_file_is_reported_once_and_the_others_answer() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["WTH_2001.wtb", "WTH_2002.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        copy(f, dir.path());
    }
    std::fs::write(dir.path().join("WTH_1999.wtb"), b"short").unwrap();
    let out = crate::info::wthor_in(dir.path(), &["search", "--db", ".", "--count"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "44\n");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("wthor: warning: ./WTH_1999.wtb: "), "{err}");
    assert!(err.ends_with("; file skipped\n"), "{err}");
}

#[test]
fn a_number_beyond_the_names_file_is_a_placeholder_and_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    copy("WTHOR.JOU", dir.path());
    copy("WTHOR.TRN", dir.path());
    let games = [Game::from_squares(0, 2, 999, 36, 36, &["f5", "d6"], BoardSize::Eight).unwrap()];
    let header = Header {
        year: 2010,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2010.wtb"), &bytes).unwrap();
    let out = crate::info::wthor_in(dir.path(), &["search", "--db", ".", "--format", "csv"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "game,year,boardSize,tournamentId,tournamentName,blackPlayerId,blackPlayerName,\
         whitePlayerId,whitePlayerName,blackScore,blackTheoreticalScore,depth,transcript,opening,\
         blackRating,whiteRating\n\
         2010:0,2010,8,0,Championnat de France,2,Edax (delorme),999,,36,36,22,f5d6,Perpendicular Opening,,\n"
    );
    assert_eq!(
        stderr(&out),
        "wthor: warning: 2010:0: <player 999> is beyond its names file\n"
    );
}

/// `wthor search --db DB --format csv MORE…`, checked to succeed without a
/// warning.
fn search_csv(db: &str, more: &[&str]) -> String {
    let mut args = vec!["search", "--db", db, "--format", "csv"];
    args.extend_from_slice(more);
    let out = wthor(&args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    assert_eq!(stderr(&out), "", "{args:?}");
    stdout(&out)
}

/// `--db FILE.wtb` reads the names files beside the file, as `--db` of
/// its directory does (issue 36, item 2): the same rows, no warning.
#[test]
fn a_game_file_as_db_reads_the_names_beside_it() {
    let csv = search_csv;
    // The ratings (the last two columns) are those of the database opened:
    // the file alone rates its players on its own games. The rows without
    // them are the same.
    let without_ratings = |text: String| -> Vec<String> {
        text.lines()
            .map(|l| l.rsplitn(3, ',').nth(2).unwrap().to_owned())
            .collect()
    };
    let alone = csv("testdata/WTH_2001.wtb", &[]);
    let whole = csv("testdata", &["--year", "2001"]);
    let eight: Vec<String> = without_ratings(whole)
        .into_iter()
        .filter(|l| !l.starts_with("WTH_2001.wtd:"))
        .collect();
    assert_eq!(without_ratings(alone.clone()), eight);
    assert!(
        alone.lines().count() > 2 && !alone.contains("<player"),
        "{alone}"
    );
}

/// `--db FILE.wtb` on the real archive: the names of WTH_2025.wtb are found
/// beside it (no placeholder).
#[test]
#[ignore = "needs WTHOR_DATA"]
fn a_real_game_file_as_db_reads_the_names_beside_it() {
    let file = crate::wthor_data().join("wthor/WTH_2025.wtb");
    let real = search_csv(file.to_str().unwrap(), &["--limit", "50"]);
    assert_eq!(real.lines().count(), 51, "{real}");
    assert!(
        !real.contains("<player") && !real.contains("<tournament"),
        "{real}"
    );
}

#[test]
fn replay_takes_a_game_id_and_prints_names() {
    let out = wthor(&["replay", "--db", "testdata", "2003:7", "--final-only"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let by_id = stdout(&out);
    let out = wthor(&["replay", "testdata/WTH_2003.wtb", "7", "--final-only"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), by_id);
    let out = wthor(&["replay", "testdata/WTH_2003.wtb:7", "--final-only"]);
    assert_eq!(stdout(&out), by_id);
    insta::assert_snapshot!("replay_game_id_first_line", by_id.lines().next().unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_wthor"))
        .args(["replay", "2003:7"])
        .env_remove("WTHOR_DIR")
        .current_dir(workspace_root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = wthor(&["replay", "--db", "testdata", "1999:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no game file \"1999\" in the database\n"
    );
}

#[test]
fn a_10x10_position_is_found_in_each_orientation_by_its_obf() {
    use othello_core::replay::{replay_with, wthor_tokens};
    use othello_core::symmetry::Symmetry;
    use othello_core::{Board, Board10};
    let bytes = std::fs::read(workspace_root().join("testdata/WTH_2001.wtd")).unwrap();
    let file =
        wthor_format::parse_game_file(&bytes, &wthor_format::ReadOptions::default()).unwrap();
    let game = file.get(2).unwrap();
    let moves = &game.moves_raw()[..30];
    let board = replay_with::<Board10, _, _>(wthor_tokens::<Board10>(moves), |_| {}).board;
    for s in Symmetry::ALL {
        let obf = s.board(&board).to_obf();
        let csv = search(&["--position", &obf, "--format", "csv"]);
        assert!(
            csv.lines().any(|l| l.starts_with("WTH_2001.wtd:2,")),
            "{s:?}: {csv}"
        );
    }
}

#[test]
fn validate_takes_db_and_wthor_dir_too() {
    let by_path = wthor(&["validate", "testdata"]);
    assert_eq!(by_path.status.code(), Some(0), "{}", stderr(&by_path));
    let by_db = wthor(&["validate", "--db", "testdata"]);
    assert_eq!(stdout(&by_db), stdout(&by_path));
    let run_env = |dir: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_wthor"));
        cmd.arg("validate").current_dir(workspace_root());
        match dir {
            Some(d) => cmd.env("WTHOR_DIR", d),
            None => cmd.env_remove("WTHOR_DIR"),
        };
        cmd.output().unwrap()
    };
    assert_eq!(stdout(&run_env(Some("testdata"))), stdout(&by_path));
    let none = run_env(None);
    assert_eq!(none.status.code(), Some(2));
    assert_eq!(
        stderr(&none),
        "wthor: nothing to validate: give PATH, --db DIR or set WTHOR_DIR\n"
    );
}

#[test]
fn validate_findings_name_the_game_and_its_players() {
    let dir = tempfile::tempdir().unwrap();
    copy("WTHOR.JOU", dir.path());
    std::fs::copy(
        workspace_root().join("testdata/malformed/illegal_move.wtb"),
        dir.path().join("WTH_2001.wtb"),
    )
    .unwrap();
    let out = crate::info::wthor_in(dir.path(), &["validate", "."]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).starts_with(
            "./WTH_2001.wtb: record 0: illegal move 2 (a1): flips no disc (after 1 move, 0 \
             passes); game 2001:0, Maximilien Ferrière vs Hélène Dupré\n\
             files: 2 (1 game file)\n"
        ),
        "{}",
        stdout(&out)
    );
}

#[test]
fn solve_takes_a_game_id_too() {
    let by_file = wthor(&[
        "solve",
        "--game",
        "testdata/WTH_2001.wtb",
        "3",
        "--empties",
        "14",
        "--json",
    ]);
    assert_eq!(by_file.status.code(), Some(0), "{}", stderr(&by_file));
    for args in [
        &[
            "solve",
            "--game",
            "2001:3",
            "--db",
            "testdata",
            "--empties",
            "14",
            "--json",
        ][..],
        &[
            "solve",
            "--game",
            "testdata/WTH_2001.wtb:3",
            "--empties",
            "14",
            "--json",
        ],
    ] {
        let out = wthor(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        // The same position, score and move (the time differs).
        let key = |o: &std::process::Output| {
            let v: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
            (v["obf"].clone(), v["score"].clone(), v["best_move"].clone())
        };
        assert_eq!(key(&out), key(&by_file), "{args:?}");
    }
    let out = wthor(&[
        "solve",
        "--game",
        "1999:3",
        "--db",
        "testdata",
        "--empties",
        "14",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "wthor: no game file \"1999\" in the database\n"
    );
}

/// A folder without any game file is no database: every command that
/// reads games says so (exit 2, naming the folder), rather than answering
/// 0 games; also beside a good one (issue 36, item 7). A folder of
/// puzzles is read by `validate` and `puzzles`, and only by them.
#[test]
fn a_folder_without_game_files_is_an_error_not_zero_games() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().to_str().unwrap();
    // Only names files: still no game.
    let names = tempfile::tempdir().unwrap();
    copy("WTHOR.JOU", names.path());
    copy("WTHOR.TRN", names.path());
    let names = names.path().to_str().unwrap();
    let puzzles = tempfile::tempdir().unwrap();
    copy("Solitaires_12.pzz", puzzles.path());
    let puzzles = puzzles.path().to_str().unwrap();
    let no = |what: &str, db: &str, args: &[&str]| {
        let out = wthor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{args:?}");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("no WTHOR {what} in {db} (looked for *.")),
            "{args:?}: {err}"
        );
    };
    for db in [empty, names] {
        no("game or puzzle files", db, &["validate", db]);
        no("game or puzzle files", db, &["validate", "testdata", db]);
        no("puzzle files", db, &["puzzles", db]);
        no("puzzle files", db, &["puzzles", "--verify", db]);
    }
    for db in [empty, names, puzzles] {
        no("game files", db, &["validate", "--solve", db]);
        for args in [
            &["search", "--db", db, "--count"][..],
            &["search", "--db", "testdata", "--db", db, "--count"],
            &["stats", "--db", db],
            &["export", "--db", db, "--format", "csv"],
            &["index", "build", "--db", db],
            &["analyze", "--db", db, "--limit", "1"],
            &["duplicates", "--db", db],
            &["openings", "--db", db],
        ] {
            no("game files", db, args);
        }
    }
    let out = wthor(&["validate", "--solve", puzzles]);
    assert!(
        stderr(&out).ends_with("; its puzzles are checked by wthor puzzles --verify\n"),
        "{}",
        stderr(&out)
    );
    for args in [["validate", puzzles], ["puzzles", puzzles]] {
        let out = wthor(&args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    }
    let out = wthor(&["info", empty]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("no WTHOR files in {empty} (looked for *.wtb")),
        "{}",
        stderr(&out)
    );
}

/// `--reverse` sorts in descending order: the same games as ascending, the
/// keys from the highest, ties in database order.
#[test]
fn reverse_sorts_in_descending_order() {
    let ids = |args: &[&str]| -> Vec<String> {
        search(&[&["--year", "2003", "--format", "csv"][..], args].concat())
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().to_owned())
            .collect()
    };
    let all = ids(&[]);
    let up = ids(&["--sort", "year"]);
    let down = ids(&["--sort", "year", "--reverse"]);
    // One key for every game of the same year: database order both ways.
    assert_eq!(up, all);
    assert_eq!(down, all);
    let score = |args: &[&str]| -> Vec<u32> {
        search(&[&["--year", "2003", "--format", "csv"][..], args].concat())
            .lines()
            .skip(1)
            // blackScore, the tenth column of the export schema.
            .map(|l| l.split(',').nth(9).unwrap().parse().unwrap())
            .collect()
    };
    let down = score(&["--sort", "score", "--reverse"]);
    assert!(down.windows(2).all(|w| w[0] >= w[1]), "{down:?}");
    let mut up = score(&["--sort", "score"]);
    up.reverse();
    assert_eq!(up, down);
    let out = wthor(&["search", "--db", "testdata", "--reverse"]);
    assert_eq!(out.status.code(), Some(2), "--reverse needs --sort");
}

/// A year file cut in the middle of a record answers from its whole
/// records, with a warning naming the file, the records used and the
/// bytes ignored (issue 29, item 12); `--strict` refuses it.
#[test]
fn a_cut_year_file_answers_from_its_whole_records_unless_strict() {
    let dir = tempfile::tempdir().unwrap();
    let testdata = workspace_root().join("testdata");
    let full = std::fs::read(testdata.join("WTH_2001.wtb")).unwrap();
    std::fs::write(dir.path().join("WTH_2001.wtb"), &full[..16 + 68 * 7 + 40]).unwrap();
    std::fs::copy(testdata.join("WTHOR.JOU"), dir.path().join("WTHOR.JOU")).unwrap();
    let db = dir.path().to_str().unwrap();
    let file = dir.path().join("WTH_2001.wtb");
    let out = wthor(&["search", "--db", db, "--count"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "7\n");
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: warning: {}: byte 492 (record 7): the file ends inside this record (40 of \
             its 68 bytes; header N1 says 24 records): 7 whole records read, 40 bytes ignored\n",
            file.display()
        )
    );
    let out = wthor(&["search", "--db", db, "--count", "--strict"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!(
            "wthor: opening the database: {}: byte 492 (record 7): truncated record: expected 68 \
             bytes, found 40\n",
            file.display()
        )
    );
}

/// A game has one schema: `search --format csv|jsonl` writes what `export`
/// writes for the same filters, and `import` takes it back, every line.
#[test]
fn search_writes_the_export_schema_which_import_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    for (format, ext) in [("csv", "csv"), ("jsonl", "jsonl")] {
        let filters = [
            "--db",
            "testdata",
            "--year",
            "2003..2008",
            "--result",
            "draw",
        ];
        let mut search = vec!["search", "--format", format];
        search.extend(filters);
        let found = wthor(&search);
        assert!(found.status.success(), "{}", stderr(&found));
        let mut export = vec!["export", "--format", format];
        export.extend(filters);
        let exported = wthor(&export);
        assert_eq!(stdout(&found), stdout(&exported), "{format}");
        let games = if format == "csv" {
            stdout(&found).lines().count() - 1
        } else {
            stdout(&found).lines().count()
        };
        assert!(games > 50, "{games}");
        let file = dir.path().join(format!("found.{ext}"));
        std::fs::write(&file, stdout(&found)).unwrap();
        let into = dir.path().join("db");
        let out = wthor(&[
            "import",
            file.to_str().unwrap(),
            "--into",
            into.to_str().unwrap(),
            "--dry-run",
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains(&format!(
                "{games} games read: {games} to import, 0 rejected"
            )),
            "{}",
            stdout(&out)
        );
    }
}

/// The name filter finds the games `wthor openings --db` counts, for every
/// name of the table (and an alias, folded), on the fixture database.
#[test]
fn opening_name_counts_equal_the_openings_table() {
    let table = crate::check(&["openings", "--db", "testdata"], 0);
    let mut rows = 0;
    let mut with_games = 0;
    for line in table.lines().skip(1) {
        if line.len() < 37 || line.starts_with(' ') {
            continue; // the summary lines
        }
        let name = line[..36].trim_end();
        let games: usize = line[37..]
            .split_whitespace()
            .nth(1)
            .and_then(|g| g.parse().ok())
            .unwrap_or_else(|| panic!("no count in {line:?}"));
        let count = search(&["--opening-name", name, "--count"]);
        assert_eq!(count.trim(), games.to_string(), "{name}");
        rows += 1;
        with_games += usize::from(games > 0);
    }
    assert!(rows >= 70, "{rows} rows read");
    assert!(with_games >= 10, "{with_games} names with games");
    // Case, accents and aliases: the Tiger is Tora.
    assert_eq!(
        search(&["--opening-name", "TÔRA", "--count"]),
        search(&["--opening-name", "tiger", "--count"])
    );
}

/// A name that names nothing: 0 games, exit 0, the closest names on
/// stderr; the other filters still combine.
#[test]
fn an_unknown_opening_name_finds_nothing_and_suggests() {
    for format in ["table", "csv"] {
        let out = wthor(&[
            "search",
            "--db",
            "testdata",
            "--opening-name",
            "Tigre",
            "--format",
            format,
        ]);
        assert_eq!(out.status.code(), Some(0));
        assert_eq!(
            stderr(&out),
            "wthor: --opening-name: no opening is named \"Tigre\"; the closest names: Tiger\n"
        );
        let text = stdout(&out);
        assert_eq!(
            text.lines().count(),
            if format == "csv" { 1 } else { 2 },
            "{text}"
        );
    }
    let out = wthor(&["stats", "--db", "testdata", "--opening-name", "bufallo"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        stderr(&out).contains("the closest names: Buffalo"),
        "{}",
        stderr(&out)
    );
    assert!(
        stdout(&out).starts_with("games                 0\n"),
        "{}",
        stdout(&out)
    );
    // Nothing close: said so, no names suggested (issue 36, item 19).
    let out = wthor(&["search", "--db", "testdata", "--opening-name", "xyzzy"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        "wthor: --opening-name: no opening is named \"xyzzy\", and no name is close to it\n"
    );
}

/// Games written by hand: the Tiger as played, by transposition, and in
/// the other three orientations from the start, and the Brightwell past
/// it. Each gets its name in every output, and the name filter finds
/// them with their sub-lines; a 10x10 game gets none.
#[test]
fn hand_written_games_get_their_names_in_any_order_and_orientation() {
    let dir = tempfile::tempdir().unwrap();
    copy("WTHOR.JOU", dir.path());
    copy("WTHOR.TRN", dir.path());
    let lines: [&[&str]; 6] = [
        &["f5", "d6", "c3", "d3", "c4"],
        &["f5", "d6", "c4", "d3", "c3"], // a transposition
        &["c4", "e3", "f6", "e6", "f5"], // turned half a turn
        &["e6", "f4", "c3", "c4", "d3"], // mirrored on a1-h8
        &["d3", "c5", "f6", "f5", "e6"], // mirrored on a8-h1
        &["f5", "d6", "c3", "d3", "c4", "f4", "e3"],
    ];
    let games: Vec<Game> = lines
        .iter()
        .map(|m| Game::from_squares(0, 1, 2, 32, 32, m, BoardSize::Eight).unwrap())
        .collect();
    let header = Header {
        year: 2010,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2010.wtb"), &bytes).unwrap();
    let ten = [Game::from_squares(0, 1, 2, 50, 50, &["g6"], BoardSize::Ten).unwrap()];
    let mut bytes = Vec::new();
    write_game_file(&header, BoardSize::Ten, &ten, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTH_2010.wtd"), &bytes).unwrap();
    let run = |args: &[&str]| {
        let all = [&["search", "--db", "."][..], args].concat();
        let out = crate::info::wthor_in(dir.path(), &all);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let csv = run(&["--format", "csv"]);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let names: Vec<String> = reader
        .records()
        .map(|r| r.unwrap().get(13).unwrap().to_owned())
        .collect();
    assert_eq!(
        names,
        [
            "Tiger",
            "Tiger",
            "Tiger",
            "Tiger",
            "Tiger",
            "Brightwell",
            ""
        ]
    );
    let jsonl = run(&["--format", "jsonl"]);
    let json: Vec<serde_json::Value> = jsonl
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(json[1]["opening"], "Tiger");
    assert_eq!(json[6]["opening"], serde_json::Value::Null);
    let table = run(&[]);
    assert!(
        table.lines().nth(3).unwrap().ends_with("  Tiger"),
        "{table}"
    );
    assert_eq!(run(&["--opening-name", "tiger", "--count"]), "6\n");
    assert_eq!(run(&["--opening-name", "Brightwell", "--count"]), "1\n");
    assert_eq!(run(&["--opening-name", "leader's tiger", "--count"]), "0\n");
    // `show` names it in its header.
    let out = crate::info::wthor_in(dir.path(), &["show", "--db", ".", "2010:1"]);
    assert!(
        stdout(&out).contains("\nopening: Tiger (f5d6c3d3c4)\n"),
        "{}",
        stdout(&out)
    );
}
