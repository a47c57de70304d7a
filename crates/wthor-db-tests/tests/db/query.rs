//! Game identities, names and queries on the fixture database.

use std::path::PathBuf;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Board10, Size};
use wthor_db::index::IndexChoice;
use wthor_db::query::{OpeningMoves, Outcome, PlayerKind, Position, SortKey};
use wthor_db::{Database, DatabaseBuilder, GameId, Query};

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

fn fixtures() -> Database {
    Database::open(testdata()).unwrap()
}

#[test]
fn every_game_id_reads_back() {
    let db = fixtures();
    let mut seen = 0;
    for (f, i, _) in db.games() {
        let id = GameId::new(f, i);
        let text = db.game_name(id).to_string();
        assert_eq!(db.parse_game_id(&text), Ok(id), "{text}");
        seen += 1;
    }
    assert_eq!(seen, db.game_count());
    assert_eq!(
        db.game_name(db.parse_game_id("2002:0").unwrap())
            .to_string(),
        "2002:0"
    );
    assert_eq!(
        db.game_name(db.parse_game_id("WTH_2002.WTD:1").unwrap())
            .to_string(),
        "WTH_2002.wtd:1"
    );
    for bad in [
        "2001",
        "2001:x",
        ":3",
        "1999:0",
        "2001:99999",
        "WTHOR.JOU:0",
    ] {
        assert!(db.parse_game_id(bad).is_err(), "{bad}");
    }
}

#[test]
fn names_are_joined_and_out_of_range_numbers_are_placeholders() {
    let db = fixtures();
    let id = db.parse_game_id("2001:0").unwrap();
    assert!(db.black(id).is_known());
    assert!(db.tournament(id).is_known());
    let r = wthor_db::NameRef {
        kind: wthor_format::NameKind::Players,
        number: 3849,
        name: None,
    };
    assert_eq!(r.to_string(), "<player 3849>");
}

fn queries() -> Vec<Query> {
    let opening = OpeningMoves::parse("f5d6", Size::Eight).unwrap();
    vec![
        Query::new(),
        Query::new().result(Outcome::Draw),
        Query::new()
            .result(Outcome::BlackWin)
            .years(Some(2002), None),
        Query::new().years(None, Some(2001)).black_discs(33, 64),
        Query::new().theoretical(0, 31),
        Query::new().kind(PlayerKind::Program),
        Query::new().kind(PlayerKind::Human),
        Query::new().player("e").sort(SortKey::Black),
        Query::new()
            .tournament("open")
            .sort(SortKey::Tournament)
            .limit(3),
        Query::new().opening(opening.clone()),
        Query::new().opening(opening).as_played(true),
        Query::new().sort(SortKey::Score).limit(5),
        Query::new().limit(2),
    ]
}

#[test]
fn parallel_search_equals_sequential() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    for q in queries() {
        let par = scan.search(&q).unwrap().value;
        assert_eq!(par, seq.search(&q).unwrap().value, "{q:?}");
        let count = scan.count(&q.clone().limit(usize::MAX)).unwrap().value;
        assert!(count >= par.len(), "{q:?}");
    }
}

#[test]
fn filters_do_what_they_say_on_fixtures() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let all = scan.search(&Query::new()).unwrap().value;
    assert_eq!(all.len(), db.game_count());
    let draws = scan
        .search(&Query::new().result(Outcome::Draw))
        .unwrap()
        .value;
    assert!(!draws.is_empty());
    for id in &draws {
        let g = db.game(*id).unwrap();
        let half = if g.board_size() == wthor_format::BoardSize::Ten {
            50
        } else {
            32
        };
        assert_eq!(g.real_score(), half);
    }
    let sorted = scan
        .search(&Query::new().sort(SortKey::Score))
        .unwrap()
        .value;
    let scores: Vec<u8> = sorted
        .iter()
        .map(|&id| db.game(id).unwrap().real_score())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] <= w[1]));
    assert!(matches!(
        scan.search(&Query::new().years(Some(2002), Some(2001))),
        Err(wthor_db::QueryError::EmptyRange { .. })
    ));
    let programs = scan
        .search(&Query::new().kind(PlayerKind::Program))
        .unwrap()
        .value;
    let humans = scan
        .search(&Query::new().kind(PlayerKind::Human))
        .unwrap()
        .value;
    assert_eq!(programs.len() + humans.len(), db.game_count());
}

/// The position after `ply` moves of game `id`, replayed on the bitboard.
fn position_of<B: Board>(db: &Database, id: GameId, ply: usize) -> B {
    let g = db.game(id).unwrap();
    replay_with::<B, _, _>(wthor_tokens::<B>(&g.moves_raw()[..ply]), |_| {}).board
}

#[test]
fn a_played_position_is_found_in_each_orientation() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    for (name, ply) in [("2001:3", 20), ("2002:7", 12), ("2001:5", 1)] {
        let id = db.parse_game_id(name).unwrap();
        let b: Board8 = position_of(&db, id, ply);
        for s in Symmetry::ALL {
            let q = Query::new().position(Position::Eight(s.board(&b)));
            let found = scan.search(&q).unwrap().value;
            assert!(found.contains(&id), "{name} after {ply}, {s:?}");
            assert_eq!(found, seq.search(&q).unwrap().value);
            // Where and in which orientation: the symmetry maps the
            // position as given to the game's.
            let m = db.matcher(&q).unwrap();
            let g = wthor_db::GameRef {
                id,
                game: db.game(id).unwrap(),
                file: db.file_of(id).unwrap(),
            };
            let reach = m.reach(&g).unwrap();
            assert_eq!((reach.ply, reach.after_pass), (ply, false));
            assert_eq!(reach.symmetry.board(&s.board(&b)), b);
        }
    }
    for (name, ply) in [("WTH_2001.wtd:2", 30), ("WTH_2002.wtd:4", 9)] {
        let id = db.parse_game_id(name).unwrap();
        let b: Board10 = position_of(&db, id, ply);
        for s in Symmetry::ALL {
            let q = Query::new().position(Position::Ten(s.board(&b)));
            assert!(
                scan.search(&q).unwrap().value.contains(&id),
                "{name} after {ply}, {s:?}"
            );
        }
    }
}

fn write_names(path: &std::path::Path, kind: wthor_format::NameKind, year: u8, names: &[&str]) {
    let names: Vec<wthor_format::Name> = names
        .iter()
        .map(|n| wthor_format::Name::from_text(n, kind, wthor_format::WINDOWS_1252).unwrap())
        .collect();
    let header = wthor_format::Header {
        created: wthor_format::CreationDate {
            century: 20,
            year,
            month: 1,
            day: 1,
        },
        ..wthor_format::Header::default()
    };
    let mut bytes = Vec::new();
    wthor_format::write_names_file(&header, kind, &names, &mut bytes).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn write_games(path: &std::path::Path, black: u16) {
    let games = [wthor_format::Game::from_squares(
        0,
        black,
        1,
        40,
        40,
        &["f5", "d6"],
        wthor_format::BoardSize::Eight,
    )
    .unwrap()];
    let header = wthor_format::Header {
        year: 2020,
        p1: 8,
        ..wthor_format::Header::default()
    };
    let mut bytes = Vec::new();
    wthor_format::write_game_file(&header, wthor_format::BoardSize::Eight, &games, &mut bytes)
        .unwrap();
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn game_files_join_the_newest_names_of_their_release() {
    use wthor_format::NameKind::Players;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Two FFO releases: the newer one (WTH.JOU, 2026) wins over WTHOR.JOU
    // (2022); PLAYOK games read PLAYOK.JOU; a game file of another release
    // reads the FFO's names of its directory, and has none in a directory
    // without them.
    write_names(
        &d.join("WTHOR.JOU"),
        Players,
        22,
        &["old zero", "old one", "old two"],
    );
    write_names(&d.join("WTH.JOU"), Players, 26, &["new zero", "new one"]);
    write_names(&d.join("PLAYOK.JOU"), Players, 27, &["pk zero", "pk one"]);
    write_games(&d.join("WTH_2020.wtb"), 0);
    write_games(&d.join("PLAYOK_2023.wtb"), 1);
    write_games(&d.join("mine.wtb"), 0);
    let db = DatabaseBuilder::new().source(d).open().unwrap();
    let black = |name: &str| db.black(db.parse_game_id(name).unwrap()).to_string();
    assert_eq!(black("2020:0"), "new zero");
    assert_eq!(black("PLAYOK_2023.wtb:0"), "pk one");
    assert_eq!(black("mine.wtb:0"), "new zero");
    let other = tempfile::tempdir().unwrap();
    write_games(&other.path().join("mine.wtb"), 0);
    write_names(&other.path().join("PLAYOK.JOU"), Players, 27, &["pk zero"]);
    let lone = DatabaseBuilder::new().source(other.path()).open().unwrap();
    let id = lone.parse_game_id("mine.wtb:0").unwrap();
    assert_eq!(lone.black(id).to_string(), "<player 0>");
    // Explicit names files win, for every game file.
    let db = DatabaseBuilder::new()
        .source(d)
        .players(d.join("WTHOR.JOU"))
        .open()
        .unwrap();
    let black = |name: &str| db.black(db.parse_game_id(name).unwrap()).to_string();
    assert_eq!(black("2020:0"), "old zero");
    assert_eq!(black("PLAYOK_2023.wtb:0"), "old one");
    assert_eq!(black("mine.wtb:0"), "old zero");
    // A names file of the wrong kind is refused.
    let err = DatabaseBuilder::new()
        .source(d)
        .tournaments(d.join("WTH.JOU"))
        .open()
        .unwrap_err();
    assert!(err.to_string().contains("expected a"), "{err}");
}

/// A game file given alone (`--db FILE.wtb`) is joined with the names
/// files beside it by the rule of a directory (issue 36, item 2): its own
/// release's, else the FFO's newest; an explicit names file still wins.
#[test]
fn a_game_file_given_alone_joins_the_names_beside_it() {
    use wthor_format::NameKind::{Players, Tournaments};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_names(&d.join("WTHOR.JOU"), Players, 22, &["old zero", "old one"]);
    write_names(&d.join("WTH.JOU"), Players, 26, &["new zero", "new one"]);
    write_names(&d.join("WTH.TRN"), Tournaments, 26, &["Cup zero"]);
    write_names(&d.join("PLAYOK.JOU"), Players, 27, &["pk zero", "pk one"]);
    write_games(&d.join("WTH_2020.wtb"), 0);
    write_games(&d.join("PLAYOK_2023.wtb"), 1);
    let names = |db: &Database| {
        let id = GameId::new(0, 0);
        (db.black(id).to_string(), db.tournament(id).to_string())
    };
    let file_names = |db: &Database| -> Vec<String> {
        let mut v: Vec<String> = db.files().iter().map(|f| f.file_name()).collect();
        v.sort();
        v
    };
    let alone = DatabaseBuilder::new()
        .source(d.join("WTH_2020.wtb"))
        .open()
        .unwrap();
    assert_eq!(names(&alone), ("new zero".into(), "Cup zero".into()));
    assert_eq!(
        file_names(&alone),
        ["WTH.JOU", "WTH.TRN", "WTHOR.JOU", "WTH_2020.wtb"]
    );
    let playok = DatabaseBuilder::new()
        .source(d.join("PLAYOK_2023.wtb"))
        .open()
        .unwrap();
    // Its own release's players; the FFO's tournaments (it has none).
    assert_eq!(names(&playok), ("pk one".into(), "Cup zero".into()));
    assert_eq!(
        file_names(&playok),
        ["PLAYOK.JOU", "PLAYOK_2023.wtb", "WTH.TRN"]
    );
    let explicit = DatabaseBuilder::new()
        .source(d.join("WTH_2020.wtb"))
        .players(d.join("WTHOR.JOU"))
        .open()
        .unwrap();
    assert_eq!(names(&explicit), ("old zero".into(), "Cup zero".into()));
    // The same game file opened with its directory reads the same names.
    let whole = DatabaseBuilder::new().source(d).open().unwrap();
    let id = whole.parse_game_id("2020:0").unwrap();
    assert_eq!(whole.black(id).to_string(), "new zero");
    assert_eq!(whole.tournament(id).to_string(), "Cup zero");
}

#[test]
fn the_builder_leaves_move_bytes_to_the_replay() {
    let path = testdata().join("malformed/bad_move_byte.wtb");
    let checked =
        Database::from_paths(".", std::slice::from_ref(&path), &Default::default()).unwrap();
    assert_eq!(checked.files()[0].warnings().len(), 1);
    let lazy = DatabaseBuilder::new().source(&path).open().unwrap();
    assert!(lazy.files()[0].warnings().is_empty());
    // Either way the replay check finds the bad byte.
    for db in [&checked, &lazy] {
        assert_eq!(db.check_games().totals.illegal, 1);
    }
}

#[test]
fn a_damaged_file_is_set_aside_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        testdata().join("WTH_2001.wtb"),
        dir.path().join("WTH_2001.wtb"),
    )
    .unwrap();
    std::fs::write(dir.path().join("WTH_2000.wtb"), b"short").unwrap();
    assert!(DatabaseBuilder::new().source(dir.path()).open().is_err());
    let db = DatabaseBuilder::new()
        .source(dir.path())
        .skip_damaged(true)
        .open()
        .unwrap();
    assert_eq!(db.skipped().len(), 1);
    assert!(db.skipped()[0].path().ends_with("WTH_2000.wtb"));
    assert_eq!(db.game_count(), 24);
}

#[test]
fn two_files_of_one_name_are_named_by_path() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("WTH_2001.wtb");
    std::fs::copy(testdata().join("WTH_2001.wtb"), &copy).unwrap();
    let db = DatabaseBuilder::new()
        .source(testdata())
        .source(dir.path())
        .open()
        .unwrap();
    assert!(matches!(
        db.parse_game_id("2001:0"),
        Err(wthor_db::GameIdError::Ambiguous(_, 2))
    ));
    let text = format!("{}:3", copy.display());
    let id = db.parse_game_id(&text).unwrap();
    assert_eq!(db.game_name(id).to_string(), text);
    assert_eq!(
        db.game(id).unwrap().as_bytes(),
        fixtures()
            .game(fixtures().parse_game_id("2001:3").unwrap())
            .unwrap()
            .as_bytes()
    );
    // The 2002 file is still named by its year.
    assert_eq!(
        db.game_name(db.parse_game_id("2002:1").unwrap())
            .to_string(),
        "2002:1"
    );
}

/// Every letter of Windows-1252 (the names files' encoding) folds to plain
/// ASCII letters, so that a name typed without accents or ligatures finds it.
#[test]
fn every_windows_1252_letter_folds_to_ascii() {
    for byte in 0x80..=0xffu8 {
        let bytes = [byte];
        let (text, _, _) = wthor_format::WINDOWS_1252.decode(&bytes);
        let c = text.chars().next().unwrap();
        // Not letters of a name: the ordinal indicators, the micro sign and
        // the spacing circumflex (a modifier Unicode counts as alphabetic).
        if !c.is_alphabetic() || matches!(c, 'ª' | 'º' | 'µ' | 'ˆ') {
            continue;
        }
        let folded = wthor_db::names::fold(&text);
        assert!(
            !folded.is_empty() && folded.chars().all(|c| c.is_ascii_lowercase()),
            "{c} (byte {byte:#x}) folds to {folded:?}"
        );
    }
}

#[test]
fn a_name_typed_without_its_ligature_finds_the_same_games() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let typed = scan.count(&Query::new().player("duboeuf")).unwrap().value;
    assert!(typed > 0);
    assert_eq!(
        typed,
        scan.count(&Query::new().player("Dubœuf")).unwrap().value
    );
    assert_eq!(
        typed,
        scan.count(&Query::new().player("DUBŒUF")).unwrap().value
    );
}

mod filters {
    use wthor_db::query::*;

    use othello_core::Size;

    use wthor_db::query::{
        AnyBoardError, OpeningMoves, Outcome, PlayerKind, Position, Query, SortKey,
    };

    #[test]
    fn disc_ranges_past_the_board_are_refused() {
        let past = |black_discs: Option<(Option<u8>, Option<u8>)>,
                    theoretical: Option<(Option<u8>, Option<u8>)>,
                    size| {
            let span = |r: Option<(Option<u8>, Option<u8>)>| r.map(|(l, h)| Span::new(l, h));
            Filters {
                black_discs: span(black_discs),
                theoretical: span(theoretical),
                size,
                ..Filters::default()
            }
            .to_query()
            .err()
            .map(|e| e.to_string())
        };
        assert_eq!(
            past(None, Some((Some(65), Some(70))), Size::Eight).as_deref(),
            Some("the theoretical score range 65..70 goes past 64, the squares of the 8x8 board")
        );
        assert_eq!(
            past(Some((None, Some(100))), None, Size::Eight).as_deref(),
            Some("the black discs range ..100 goes past 64, the squares of the 8x8 board")
        );
        assert!(past(Some((Some(70), None)), None, Size::Eight).is_some());
        assert_eq!(
            past(
                Some((Some(0), Some(64))),
                Some((Some(33), None)),
                Size::Eight
            ),
            None
        );
        assert_eq!(past(Some((Some(0), Some(100))), None, Size::Ten), None);
        assert!(past(None, Some((None, Some(101))), Size::Ten).is_some());
    }

    #[test]
    fn pieces_read_their_text_form() {
        let span = |t: &str| t.parse::<Span<u16>>();
        assert_eq!(span("2001..2005"), Ok(Span::new(Some(2001), Some(2005))));
        assert_eq!(span("..1985"), Ok(Span::new(None, Some(1985))));
        assert_eq!(span(" 2001 "), Ok(Span::new(Some(2001), Some(2001))));
        assert_eq!(span(".."), Ok(Span::new(None, None)));
        assert_eq!(span(""), Err(SpanError::Empty));
        assert_eq!(
            span("2001..x").unwrap_err().to_string(),
            "\"x\" is not a number (expected A..B, A.., ..B or A)"
        );
        assert_eq!(
            span("2005..2001").unwrap_err().to_string(),
            "empty range: 2005 is above 2001"
        );
        for text in ["2001..2005", "2001..", "..1985", ".."] {
            assert_eq!(span(text).unwrap().to_string(), text);
        }
        // A whole number past the type's bounds is out of range, with the
        // range (issue 36, item 20).
        assert_eq!(
            span("0..99999").unwrap_err().to_string(),
            "99999 is out of range: give a number from 0 to 65535"
        );
        assert_eq!(
            span("-1..").unwrap_err(),
            SpanError::OutOfRange {
                value: "-1".into(),
                min: "0".into(),
                max: "65535".into()
            }
        );
        assert_eq!(
            "300".parse::<Span<u8>>().unwrap_err().to_string(),
            "300 is out of range: give a number from 0 to 255"
        );
        assert!(matches!(span("1e9"), Err(SpanError::NotANumber(_))));
        for o in [Outcome::BlackWin, Outcome::WhiteWin, Outcome::Draw] {
            assert_eq!(o.to_string().parse::<Outcome>(), Ok(o));
        }
        assert!("won".parse::<Outcome>().is_err());
    }

    #[test]
    fn a_query_string_or_json_object_deserialises_into_filters() {
        let f: Filters = serde_json::from_value(serde_json::json!({
            "player": ["Edax", "Tastet"],
            "exact": true,
            "human": true,
            "year": "2001..",
            "result": "draw",
            "black_discs": "33..",
            "theoretical": "..32",
            "opening": "f5d6",
            "as_played": true,
            "opening_name": "Tiger",
            "position_after": "f5d6c3",
            "sort": "score",
            "limit": "3",
        }))
        .unwrap();
        assert_eq!(
            format!("{:?}", f.to_query().unwrap()),
            format!("{:?}", example_query())
        );
        // One name alone, numbers as numbers, the size as text or number.
        let f: Filters = serde_json::from_value(serde_json::json!({
            "player": "Edax", "year": 2001, "size": 10, "reverse": true, "sort": "year", "limit": 5
        }))
        .unwrap();
        assert_eq!(f.players, ["Edax"]);
        assert_eq!(f.years, Some(Span::new(Some(2001), Some(2001))));
        assert_eq!((f.size, f.descending, f.limit), (Size::Ten, true, Some(5)));
        let f: Filters = serde_json::from_value(serde_json::json!({"size": "8"})).unwrap();
        assert_eq!(f, Filters::default());
        // Unknown keys and bad values are errors naming them.
        let err = |v| {
            serde_json::from_value::<Filters>(v)
                .unwrap_err()
                .to_string()
        };
        assert!(err(serde_json::json!({"players": "x"})).contains("unknown field `players`"));
        assert!(err(serde_json::json!({"size": 9})).contains("the board size is 8 or 10"));
        assert!(err(serde_json::json!({"result": "won"})).contains("unknown result"));
        assert!(err(serde_json::json!({"year": "2005..2001"})).contains("empty range"));
        // The checks together are to_query's, for every front end.
        let three: Filters =
            serde_json::from_value(serde_json::json!({"player": ["a", "b", "c"]})).unwrap();
        assert_eq!(
            three.to_query().unwrap_err(),
            FiltersError::TooManyPlayers(3)
        );
    }

    /// The query the example filters of the tests below build.
    fn example_query() -> Query {
        Query::new()
            .exact(true)
            .player("Edax")
            .player("Tastet")
            .kind(PlayerKind::Human)
            .years(Some(2001), None)
            .result(Outcome::Draw)
            .black_discs(33, u8::MAX)
            .theoretical(0, 32)
            .opening(OpeningMoves::parse("f5d6", Size::Eight).unwrap())
            .as_played(true)
            .opening_name("Tiger")
            .position(Position::after_transcript("f5d6c3", Size::Eight).unwrap())
            .sort(SortKey::Score)
            .limit(3)
    }

    #[test]
    fn an_unknown_opening_name_is_a_note_not_an_error() {
        let f = |name: &str| Filters {
            opening_name: Some(name.to_owned()),
            ..Filters::default()
        };
        assert!(f("tigre").to_query().is_ok());
        let note = f("tigre").opening_name_note().unwrap();
        assert!(
            note.starts_with("no opening is named \"tigre\"; the closest names: Tiger"),
            "{note}"
        );
        assert_eq!(f("TIGER").opening_name_note(), None);
        assert_eq!(Filters::default().opening_name_note(), None);
    }

    #[test]
    fn no_filter_is_the_empty_query() {
        let q = Filters::default().to_query().unwrap();
        assert_eq!(format!("{q:?}"), format!("{:?}", Query::new()));
    }

    #[test]
    fn the_fields_build_the_query_the_builder_builds() {
        let f = Filters {
            players: vec!["Edax".to_owned(), "Tastet".to_owned()],
            exact: true,
            human: true,
            years: Some(Span::new(Some(2001), None)),
            result: Some(Outcome::Draw),
            black_discs: Some(Span::new(Some(33), None)),
            theoretical: Some(Span::new(None, Some(32))),
            opening: Some("f5d6".to_owned()),
            as_played: true,
            opening_name: Some("Tiger".to_owned()),
            position_after: Some("f5d6c3".to_owned()),
            sort: Some(SortKey::Score),
            limit: Some(3),
            ..Filters::default()
        };
        assert_eq!(
            format!("{:?}", f.to_query().unwrap()),
            format!("{:?}", example_query())
        );
        assert_eq!(f.player_patterns().len(), 2);
        assert!(f.player_patterns()[0].matches("edax"));
        assert!(!f.player_patterns()[0].matches("Edax (delorme)"));
    }

    /// The error of `to_query` for filters of only these text fields.
    fn error(opening: &str, position: &str, position_after: &str) -> FiltersError {
        let some = |t: &str| (!t.is_empty()).then(|| t.to_owned());
        let f = Filters {
            opening: some(opening),
            position: some(position),
            position_after: some(position_after),
            ..Filters::default()
        };
        f.to_query().unwrap_err()
    }

    #[test]
    fn conflicts_and_bad_text_are_errors_naming_the_character() {
        let both = Filters {
            program: true,
            human: true,
            ..Filters::default()
        };
        assert_eq!(both.to_query().unwrap_err(), FiltersError::ProgramAndHuman);
        let alone = Filters {
            as_played: true,
            ..Filters::default()
        };
        assert_eq!(
            alone.to_query().unwrap_err(),
            FiltersError::AsPlayedWithoutOpening
        );
        let obf = "-".repeat(64);
        assert_eq!(error("", &obf, "f5"), FiltersError::TwoPositions);

        let e = error("", "", "f5z9");
        assert!(matches!(
            e,
            FiltersError::Text {
                filter: TextFilter::PositionAfter,
                found: Some(Found::Char('z')),
                ..
            }
        ));
        assert!(e.to_string().ends_with(" (found 'z')"), "{e}");
        let e = error("", "X", "");
        assert!(e.to_string().ends_with(" (at the end)"), "{e}");
        assert!(matches!(
            error("a1", "", ""),
            FiltersError::Text {
                filter: TextFilter::Opening,
                error: AnyBoardError::Illegal { .. },
                found: None,
            }
        ));
    }
}
