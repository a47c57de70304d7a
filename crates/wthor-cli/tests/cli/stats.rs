//! `wthor stats` and `wthor index` on the fixture database `testdata/`:
//! snapshots of the tables, exit codes, the index used when fresh and
//! refused (with a line on stderr) when stale or damaged.

use std::path::Path;
use std::process::Output;

use crate::wthor;

fn text(bytes: &[u8], tmp: &Path) -> String {
    String::from_utf8(bytes.to_vec())
        .expect("UTF-8")
        .replace(&tmp.display().to_string(), "[TMP]")
}

/// Runs `wthor args` (from the workspace root), asserts the exit code and
/// returns stdout and stderr with the temporary directory written `[TMP]`.
#[track_caller]
fn run(args: &[&str], code: i32, tmp: &Path) -> (String, String) {
    let out: Output = wthor(args);
    let (stdout, stderr) = (text(&out.stdout, tmp), text(&out.stderr, tmp));
    assert_eq!(
        out.status.code(),
        Some(code),
        "{args:?}\n{stdout}\n{stderr}"
    );
    (stdout, stderr)
}

#[test]
fn stats_tables() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (out, _) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--next",
            "--player-records",
            "--openings",
            "2",
            "--top",
            "6",
        ],
        0,
        t,
    );
    insta::assert_snapshot!("stats_totals_next_players_openings", out);
    let (out, err) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--position-after",
            "f5d6",
            "--next",
            "--no-index",
        ],
        0,
        t,
    );
    assert_eq!(err, "");
    insta::assert_snapshot!("stats_next_after_f5d6", out);
    let (out, _) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--player",
            "Logistello",
            "--by-year",
            "--year",
            "2001..2002",
        ],
        0,
        t,
    );
    insta::assert_snapshot!("stats_player_by_year", out);
    let (out, _) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--result",
            "draw",
            "--next",
            "--player-records",
            "--openings",
            "1",
            "--format",
            "jsonl",
        ],
        0,
        t,
    );
    insta::assert_snapshot!("stats_draws_jsonl", out);
    let (out, _) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--year",
            "2002",
            "--openings",
            "1",
            "--format",
            "csv",
        ],
        0,
        t,
    );
    insta::assert_snapshot!("stats_openings_csv", out);
}

#[test]
fn stats_solves_the_next_moves() {
    let tmp = tempfile::tempdir().unwrap();
    // 2001:3 after 46 moves (14 empties), given as a transcript.
    let (moves, _) = run(&["replay", "testdata/WTH_2001.wtb", "3"], 0, tmp.path());
    let transcript: String = moves
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.split_once(". ")?;
            n.parse::<u32>().ok()?;
            Some(rest.split_whitespace().last()?.to_owned())
        })
        .take(46)
        .collect();
    assert_eq!(transcript.len(), 92, "{moves}");
    let (out, _) = run(
        &[
            "stats",
            "--db",
            "testdata",
            "--position-after",
            &transcript,
            "--solve",
            "--no-index",
        ],
        0,
        tmp.path(),
    );
    insta::assert_snapshot!("stats_solve", out);
    let (out, _) = run(
        &["stats", "--db", "testdata", "--next", "--solve"],
        0,
        tmp.path(),
    );
    assert!(out.contains("not solved: 60 empty squares"), "{out}");
}

#[test]
fn stats_bad_input_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (vec!["--position-after", "f5x9"], "--position-after"),
        (vec!["--position", "XO?"], "--position"),
        (vec!["--year", "2002..2001"], "empty range"),
        (vec!["--sort", "colour"], "unknown sort key"),
    ] {
        let mut all = vec!["stats", "--db", "testdata"];
        all.extend(args);
        let (_, err) = run(&all, 2, tmp.path());
        // One line saying what is wrong (clap adds a hint below its own).
        assert!(err.lines().next().unwrap().contains(needle), "{err}");
    }
    // No match: empty results, exit 0.
    let (out, _) = run(
        &["stats", "--db", "testdata", "--player", "nobody at all"],
        0,
        tmp.path(),
    );
    assert!(out.starts_with("games                 0\n"), "{out}");
}

#[test]
fn index_build_status_and_use() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let idx = t.join("fixtures.idx");
    let idx = idx.to_str().unwrap();
    let (out, _) = run(
        &["index", "status", "--db", "testdata", "--index", idx],
        1,
        t,
    );
    insta::assert_snapshot!("index_status_missing", out);
    let (out, _) = run(&["index", "build", "--db", "testdata", "-o", idx], 0, t);
    assert!(
        out.starts_with("wrote [TMP]/fixtures.idx: 2316 games, "),
        "{out}"
    );
    let (out, _) = run(
        &["index", "status", "--db", "testdata", "--index", idx],
        0,
        t,
    );
    // The index records each file's canonical path, so its size depends on
    // where the checkout is: the snapshot leaves the byte count out.
    let out: String = out
        .lines()
        .map(|l| match l.split_once(", bytes: ") {
            Some((head, _)) if l.starts_with("games: ") => format!("{head}, bytes: [N]\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    insta::assert_snapshot!("index_status_fresh", out);

    // The same answers with the index and without; silent when fresh.
    let query = [
        "stats",
        "--db",
        "testdata",
        "--position-after",
        "f5d6c3",
        "--next",
        "--player-records",
    ];
    let (scan, _) = run(&[&query[..], &["--no-index"]].concat(), 0, t);
    let (indexed, err) = run(&[&query[..], &["--index", idx]].concat(), 0, t);
    assert_eq!(err, "");
    assert_eq!(indexed, scan);

    // Another database: stale, refused, said on stderr.
    let (out, _) = run(
        &[
            "index",
            "status",
            "--db",
            "testdata/WTH_2001.wtb",
            "--index",
            idx,
        ],
        1,
        t,
    );
    insta::assert_snapshot!("index_status_stale", out);
    let (_, err) = run(
        &[
            "stats",
            "--db",
            "testdata/WTH_2001.wtb",
            "--index",
            idx,
            "--position-after",
            "f5d6",
        ],
        0,
        t,
    );
    assert!(
        err.contains("stale: WTH_2001.wtd is indexed but not in the database; scanning"),
        "{err}"
    );

    // Damaged: refused, said, same answer by a scan.
    let mut bytes = std::fs::read(idx).unwrap();
    bytes[20] ^= 0xff;
    std::fs::write(idx, &bytes).unwrap();
    let (out, _) = run(
        &["index", "status", "--db", "testdata", "--index", idx],
        1,
        t,
    );
    assert!(
        out.contains("status: damaged: [TMP]/fixtures.idx: corrupt index"),
        "{out}"
    );
    let (again, err) = run(&[&query[..], &["--index", idx]].concat(), 0, t);
    assert!(err.contains("not used"), "{err}");
    assert_eq!(again, scan);
}

/// A position given to `stats` is asked for its next moves: the table is
/// shown without --next (the same as with it), and --no-next hides it.
#[test]
fn a_position_shows_its_next_moves_unless_no_next() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let base = ["stats", "--db", "testdata", "--position-after", "f5d6"];
    let (plain, _) = run(&base, 0, t);
    let (asked, _) = run(&[&base[..], &["--next"]].concat(), 0, t);
    assert_eq!(plain, asked);
    assert!(plain.contains("next moves from"), "{plain}");
    let (hidden, _) = run(&[&base[..], &["--no-next"]].concat(), 0, t);
    assert!(!hidden.contains("next moves from"), "{hidden}");
    assert!(plain.starts_with(&hidden), "{hidden}\n---\n{plain}");
    // Without a position, no table unless asked for.
    let (totals, _) = run(&["stats", "--db", "testdata", "--year", "2001"], 0, t);
    assert!(!totals.contains("next moves from"));
    run(&[&base[..], &["--no-next", "--next"]].concat(), 2, t);
}

/// `index build` names its file with the same --index that `index status`,
/// `search` and `stats` read (-o and --output still accepted).
#[test]
fn index_build_takes_the_index_flag_of_the_readers() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    for name in ["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            crate::workspace_root().join("testdata").join(name),
            t.join(name),
        )
        .unwrap();
    }
    let db = t.to_str().unwrap();
    for (flag, file) in [("--index", "a.idx"), ("--output", "b.idx"), ("-o", "c.idx")] {
        let path = t.join(file);
        let path = path.to_str().unwrap();
        run(&["index", "build", "--db", db, flag, path], 0, t);
        let (out, _) = run(&["index", "status", "--db", db, "--index", path], 0, t);
        assert!(out.contains("fresh"), "{flag}: {out}");
    }
}

/// A CSV holds one table, with one header: the one the options ask for,
/// the totals without any, or the one --table names; several asked for
/// without --table is a usage error naming them.
#[test]
fn a_csv_holds_one_table() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let base = ["stats", "--db", "testdata", "--format", "csv"];
    let one_table = |text: &str, header: &str| {
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some(header), "{text}");
        let width = header.split(',').count();
        for line in lines {
            assert!(!line.is_empty(), "a blank line in\n{text}");
            assert_eq!(line.split(',').count(), width, "{line}");
        }
    };
    let (totals, _) = run(&base, 0, t);
    one_table(
        &totals,
        "games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,median_black_discs",
    );
    let (next, _) = run(&[&base[..], &["--position-after", "f5d6"]].concat(), 0, t);
    one_table(
        &next,
        "move,games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,share,exact,name",
    );
    let both = [&base[..], &["--position-after", "f5d6", "--openings", "3"]].concat();
    let (_, err) = run(&both, 2, t);
    assert!(
        err.contains("choose it with --table (next, openings, or totals)"),
        "{err}"
    );
    let (openings, _) = run(&[&both[..], &["--table", "openings"]].concat(), 0, t);
    one_table(
        &openings,
        "opening,games,black_wins,draws,black_losses,mean_black_discs,mean_black_theoretical,share,name",
    );
    let (totals_too, _) = run(&[&both[..], &["--table", "totals"]].concat(), 0, t);
    one_table(&totals_too, totals.lines().next().unwrap());
    assert_eq!(totals_too.lines().count(), 2);
}

/// A name holding a comma and quotes comes back whole from the CSV of
/// `stats --player-records` read by a CSV reader (RFC 4180 quoting).
#[test]
fn csv_names_with_commas_and_quotes_read_back_whole() {
    use wthor_format::{Header, Name, NameKind, WINDOWS_1252, write_names_file};
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        crate::workspace_root().join("testdata/WTH_2001.wtb"),
        dir.path().join("WTH_2001.wtb"),
    )
    .unwrap();
    let name = "Doe, \"Ace\" Jo";
    let names: Vec<Name> = (0..200)
        .map(|i| {
            let text = if i % 2 == 0 {
                name.to_owned()
            } else {
                format!("P{i}")
            };
            Name::from_text(&text, NameKind::Players, WINDOWS_1252).unwrap()
        })
        .collect();
    let mut bytes = Vec::new();
    write_names_file(&Header::default(), NameKind::Players, &names, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTHOR.JOU"), bytes).unwrap();
    let db = dir.path().to_str().unwrap();
    let out = wthor(&["stats", "--db", db, "--player-records", "--format", "csv"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("\"Doe, \"\"Ace\"\" Jo\""), "{text}");
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let players: Vec<String> = reader
        .records()
        .map(|r| r.unwrap().get(0).unwrap().to_owned())
        .collect();
    assert!(players.iter().any(|p| p == name), "{players:?}");
    assert!(
        players.iter().all(|p| p == name || p.starts_with('P')),
        "{players:?}"
    );
}
