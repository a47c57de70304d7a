//! The text formats (`wthor_db::text`): what one writer writes, the one
//! reader reads back (moves, names, year, score); the GGF reader reads or
//! refuses any text, never a panic, and reads back the games written with
//! their colours.

use othello_core::replay::{Token, replay_with, wthor_tokens};
use othello_core::{Board8, Color, Move, Size};
use proptest::prelude::*;
use std::path::Path;
use wthor_db::index::IndexChoice;
use wthor_db::text::ggf::{parse_ggf, parse_ggf_growing};
use wthor_db::text::read::{NamesFiles, read_input};
use wthor_db::text::{ExportOptions, Format, export};

use wthor_db::{Database, GameId};

fn testdata_8x8() -> (Database, Vec<GameId>) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(dir).unwrap();
    let ids: Vec<GameId> = db
        .searcher(IndexChoice::Never)
        .search(&wthor_db::Query::new())
        .unwrap()
        .value
        .into_iter()
        .filter(|&id| db.file_of(id).unwrap().board_size() == Some(wthor_format::BoardSize::Eight))
        .collect();
    (db, ids)
}

/// The moves of a WTHOR game, passes left out (as in a transcript).
fn wthor_moves(db: &Database, id: GameId) -> Vec<Move> {
    wthor_tokens::<Board8>(db.game(id).unwrap().moves_raw())
        .map_while(|t| match t {
            Token::Move(m) => Some(m),
            Token::OffBoard(_) => None,
        })
        .collect()
}

#[test]
fn exported_games_read_back_in_every_readable_format() {
    let (db, ids) = testdata_8x8();
    assert!(ids.len() > 10);
    let dir = tempfile::tempdir().unwrap();
    for (format, ext) in [
        (Format::Csv, "csv"),
        (Format::Jsonl, "jsonl"),
        (Format::Ggf, "ggf"),
    ] {
        let path = dir.path().join(format!("games.{ext}"));
        let mut bytes = Vec::new();
        let options = ExportOptions {
            format,
            empties: None,
        };
        let counts = export(&db, &ids, &options, &mut bytes).unwrap();
        assert_eq!(counts.written, ids.len());
        std::fs::write(&path, &bytes).unwrap();
        let read = read_input(&path, &NamesFiles::default(), None).unwrap();
        assert!(read.unreadable.is_empty(), "{ext}: {:?}", read.unreadable);
        assert_eq!(read.games.len(), ids.len(), "{ext}");
        for (game, &id) in read.games.iter().zip(&ids) {
            // GGF writes the passes; the others leave them to replay.
            let moves: Vec<Move> = game
                .moves
                .iter()
                .copied()
                .filter(|&m| m != Move::Pass)
                .collect();
            assert_eq!(moves, wthor_moves(&db, id), "{ext} {}", db.game_name(id));
            let name = |n: wthor_db::NameRef<'_>| n.name.unwrap_or("?").trim().to_owned();
            assert_eq!(game.black, name(db.black(id)), "{ext}");
            assert_eq!(game.white, name(db.white(id)), "{ext}");
            assert_eq!(game.year, Some(db.file_of(id).unwrap().year()), "{ext}");
            assert_eq!(game.score, Some(db.game(id).unwrap().real_score()), "{ext}");
        }
    }
}

/// A random legal game from a seed: moves and the colour of each.
fn game(seed: u64, len: usize) -> Vec<(Color, Move)> {
    othello_core::random::game::<Board8>(seed, len)
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,200}", cut in 0usize..200) {
        let _ = parse_ggf(&text);
        let _ = parse_ggf_growing(&text);
        // Half a real game, cut anywhere (at a character).
        let real = "(;GM[Othello]PB[Zoë]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3//1.0];)";
        let end = real.char_indices().map(|(i, _)| i).rfind(|&i| i <= cut).unwrap_or(0);
        let _ = parse_ggf(&real[..end]);
        // What is written so far of a real game is read, never refused.
        let growing = parse_ggf_growing(&real[..end.max(2)]);
        prop_assert!(growing.is_ok() || !real[..end].contains("(;"));
        let _ = parse_ggf(&format!("(;BO[8 {text} *];)"));
    }

    #[test]
    fn written_games_read_back(seed in any::<u64>(), len in 0usize..70) {
        let moves = game(seed, len);
        let mut ggf = String::from("(;GM[Othello]TY[8]");
        for (color, mv) in &moves {
            let name = mv.name(Size::Eight).to_string();
            match mv {
                Move::Pass => ggf.push_str(if *color == Color::Black { "B[PA]" } else { "W[pass]" }),
                Move::Play(_) => {
                    let tag = if *color == Color::Black { 'B' } else { 'W' };
                    ggf.push_str(&format!("{tag}[{}//1.5]", name.to_uppercase()));
                }
            }
        }
        ggf.push_str(";)");
        let all: Vec<Move> = moves.iter().map(|&(_, m)| m).collect();
        let read = parse_ggf(&ggf).unwrap();
        prop_assert_eq!(&read.moves, &all);
        prop_assert_eq!(parse_ggf_growing(&ggf).unwrap(), read);
        let r = replay_with::<Board8, _, _>(all.iter().map(|&m| Token::Move(m)), |_| {});
        prop_assert!(r.is_legal());
    }
}

/// The writers' numbers (decimal digits written by hand) at both ends of
/// what a game holds, and black's disc difference of GGF's `RE` on both
/// sizes (the widest number, `u32::MAX`, is checked where the digits are
/// written, when the crate compiles).
#[test]
fn digits_formats_and_extensions_choose_formats() {
    use wthor_format::{BoardSize, Game, Header, write_game_file};
    let dir = tempfile::tempdir().unwrap();
    for (size, name, game) in [
        (
            BoardSize::Eight,
            "WTH_2001.wtb",
            Game::from_squares(0, 65_535, 0, 33, 33, &["f5", "d6"], BoardSize::Eight),
        ),
        (
            BoardSize::Ten,
            "WTH_2001.wtd",
            Game::from_squares(65_535, 0, 7, 40, 40, &["g6", "g7"], BoardSize::Ten),
        ),
    ] {
        let header = Header {
            year: 2001,
            p1: if size == BoardSize::Ten { 10 } else { 8 },
            ..Header::default()
        };
        let mut bytes = Vec::new();
        write_game_file(&header, size, &[game.unwrap()], &mut bytes).unwrap();
        std::fs::write(dir.path().join(name), &bytes).unwrap();
    }
    let db = Database::open(dir.path()).unwrap();
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&wthor_db::Query::new())
        .unwrap()
        .value;
    let run = |format| {
        let mut out = Vec::new();
        let options = ExportOptions {
            format,
            empties: None,
        };
        export(&db, &ids, &options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    };
    let jsonl = run(Format::Jsonl);
    let lines: Vec<&str> = jsonl.lines().collect();
    assert!(lines[0].contains(r#""tournamentId":0,"#), "{}", lines[0]);
    assert!(
        lines[0].contains(r#""blackPlayerId":65535,"#),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].contains(r#""tournamentId":65535,"#),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains(r#""blackPlayerId":0,"#), "{}", lines[1]);
    let csv = run(Format::Csv);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!((rows[0][3], rows[0][5], rows[0][7]), ("0", "65535", "0"));
    assert_eq!((rows[1][3], rows[1][5], rows[1][7]), ("65535", "0", "7"));
    // Black's disc difference: 33 discs of 64 are +2, 40 of 100 are -20.
    let ggf = run(Format::Ggf);
    let ggf: Vec<&str> = ggf.lines().collect();
    assert!(ggf[0].contains("RE[+2.00]"), "{}", ggf[0]);
    assert!(ggf[1].contains("RE[-20.00]"), "{}", ggf[1]);
    assert_eq!(Format::from_path(Path::new("a/b.CSV")), Some(Format::Csv));
    assert_eq!(
        Format::from_path(Path::new("x.txt")),
        Some(Format::Transcript)
    );
    assert_eq!(Format::from_path(Path::new("x.wtb")), None);
    assert_eq!(Format::from_name("TXT"), Some(Format::Transcript));
    assert_eq!(Format::from_name("wtb"), None);
}

mod ggf {
    use wthor_db::text::ggf::*;

    use othello_core::{Move, Size, SquareError};

    #[test]
    fn ggf_reads_real_forms() {
        let g = parse_ggf("(;GM[Othello]PC[]PB[HP]PW[HP]RE[?]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6];)").unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.get("RE"), Some("?"));
        let e = parse_ggf("(;GM[Othello]TY[8kr20]BO[8 -------- ---*---- --OOOO-- -*OOO*-- -O**OO-- --OO**-- ----*--- -------- *]B[B3];)").unwrap_err();
        assert_eq!(e.kind(), &GgfErrorKind::NonStandardStart);
        let e = parse_ggf("(;GM[Othello]BO[4 ---- -O*- -*O- ---- *];)").unwrap_err();
        assert!(matches!(e.kind(), GgfErrorKind::UnsupportedSize(_)));
        assert_eq!(
            parse_ggf("(;GM[Othello]B[f5]").unwrap_err().kind(),
            &GgfErrorKind::Unclosed
        );
        assert_eq!(
            parse_ggf("(;GM[Othello]B[z9];)").unwrap_err().kind(),
            &GgfErrorKind::BadMove {
                index: 0,
                kind: SquareError::OffBoard
            }
        );
        assert_eq!(
            parse_ggf("GM[x]").unwrap_err().kind(),
            &GgfErrorKind::NoStart
        );
        // A pass written `pass` and one implied by two moves of one colour.
        let g = parse_ggf("(;B[f5]W[pass];)").unwrap();
        assert_eq!(g.moves, [g.moves[0], Move::Pass]);
        let g = parse_ggf("(;B[f5]B[d6];)").unwrap();
        assert_eq!(g.moves[1], Move::Pass);
        // The size is the number starting TY.
        assert_eq!(parse_ggf("(;TY[10r];)").unwrap().size, Size::Ten);
    }

    #[test]
    fn a_growing_game_is_read_as_far_as_it_is_written() {
        let text = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio 1200]PW[x]TY[8]\
                    B[d3//0.01]W[C5/1.0/2]B[f";
        let g = parse_ggf_growing(text).unwrap();
        assert_eq!(
            (g.moves.len(), g.complete, g.year()),
            (2, false, Some(2003))
        );
        assert_eq!(parse_ggf(text).unwrap_err().kind(), &GgfErrorKind::Unclosed);
        for end in ["6]", "6]W[PA]", "6]W[PA] ;", "6]W[PA] W"] {
            let g = parse_ggf_growing(&format!("{text}{end}")).unwrap();
            assert!(!g.complete, "{end}");
        }
        let g = parse_ggf_growing(&format!("{text}6]W[PA] ;)")).unwrap();
        assert!(g.complete);
        assert_eq!(g.moves.len(), 4);
        assert!(parse_ggf_growing("(;TY[8]BO[8 ").unwrap().moves.is_empty());
        assert!(parse_ggf_growing("(;TY[6]").is_err());
        assert!(parse_ggf_growing("(;TY[8]B[z9]").is_err());
        assert!(parse_ggf_growing("(;TY[8]b[f5]").is_err());
    }

    #[test]
    fn ggf_dates_and_results() {
        assert_eq!(year("2003"), Some(2003));
        assert_eq!(year("20031215"), Some(1970));
        assert_eq!(black_discs("+0.000"), Some(32));
        assert_eq!(black_discs("-22.00:r"), Some(21));
        assert_eq!(black_discs("-22.87"), None);
        assert_eq!(black_discs("?"), None);
    }
}

mod follow {
    use wthor_db::text::follow::*;

    use othello_core::{Move, Size};

    use othello_core::notation::write_transcript;

    fn moves(text: &str, size: Size) -> (String, bool) {
        let (size, game) = read_followed(text, size).unwrap();
        (write_transcript(&game.moves, size), game.complete)
    }

    #[test]
    fn a_move_being_typed_is_not_taken_yet() {
        assert_eq!(moves("f5d", Size::Eight), ("f5".to_owned(), false));
        assert_eq!(moves("f5d6", Size::Eight), ("f5d6".to_owned(), false));
        assert_eq!(
            moves("f5 D6\r\nrest", Size::Eight),
            ("f5d6".to_owned(), true)
        );
        assert_eq!(moves("f5 pa", Size::Eight), ("f5pa".to_owned(), false));
        assert_eq!(moves("g6a1", Size::Ten), ("g6".to_owned(), false));
        assert_eq!(moves("g6a10", Size::Ten), ("g6a10".to_owned(), false));
        assert_eq!(moves("g6a1\n", Size::Ten), ("g6a1".to_owned(), true));
        assert!(read_followed("f5z9d6", Size::Eight).is_err());
        assert!(read_followed("f5z\n", Size::Eight).is_err());
    }

    #[test]
    fn ggf_properties_and_moves() {
        let text = "1 (;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio 1200]PW[x]TY[8]\
                    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
                    B[d3//0.01]W[C5/1.0/2]B[f";
        let (size, game) = read_followed(text, Size::Ten).unwrap();
        assert_eq!(size, Size::Eight);
        let (_, unix) = read_followed(
            &text.replace("2003.12.15_12:33:18.MST", "1071516798"),
            Size::Eight,
        )
        .unwrap();
        assert_eq!(unix.year, Some(2003));
        assert_eq!(write_transcript(&game.moves, size), "d3c5");
        assert_eq!(
            (
                game.black.as_str(),
                game.white.as_str(),
                game.tournament.as_str()
            ),
            ("Saio 1200", "x", "GGS/os")
        );
        assert_eq!((game.year, game.complete), (Some(2003), false));
        let (_, game) = read_followed(&format!("{text}6]W[PA] ;)"), Size::Eight).unwrap();
        assert_eq!(game.moves.len(), 4);
        assert_eq!(game.moves[3], Move::Pass);
        assert!(game.complete);
        assert!(
            read_followed("(;TY[8]BO[8 ", Size::Eight)
                .unwrap()
                .1
                .moves
                .is_empty()
        );
        assert!(
            read_followed(
                "(;BO[8 ------------------------------------------------------------**** *]",
                Size::Eight
            )
            .is_err()
        );
        assert!(read_followed("(;TY[6]", Size::Eight).is_err());
        assert!(read_followed("(;TY[8]B[z9]", Size::Eight).is_err());
    }
}

mod record {
    use wthor_db::text::record::*;

    use wthor_db::index::IndexChoice;
    use wthor_db::text::{ExportOptions, Format, export};
    use wthor_db::{Database, GameId};

    /// The fast writers agree with the type on every fixture game.
    #[test]
    fn the_export_writers_write_the_record() {
        let testdata = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");
        // The ratings kept in a folder of the test's own.
        let cache = tempfile::tempdir().unwrap();
        let db = Database::open(testdata)
            .unwrap()
            .with_ratings_file(cache.path().join("ratings.json"));
        let ids: Vec<GameId> = db
            .searcher(IndexChoice::Never)
            .search(&wthor_db::Query::new())
            .unwrap()
            .value;
        assert!(ids.len() > 2000);
        let records: Vec<GameRecord> = ids
            .iter()
            .map(|&id| GameRecord::new(&db, id).unwrap())
            .collect();
        let run = |format| {
            let mut out = Vec::new();
            export(
                &db,
                &ids,
                &ExportOptions {
                    format,
                    empties: None,
                },
                &mut out,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        let jsonl = run(Format::Jsonl);
        let mut expected = String::new();
        for r in &records {
            expected.push_str(&serde_json::to_string(r).unwrap());
            expected.push('\n');
        }
        assert_eq!(jsonl, expected);
        // Read back as the type.
        for (line, r) in jsonl.lines().zip(&records) {
            assert_eq!(&serde_json::from_str::<GameRecord>(line).unwrap(), r);
        }
        // The CSV: the same fields but `moves`, a name beyond its file empty.
        let csv = run(Format::Csv);
        let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            wthor_db::text::csv::COLUMNS
        );
        let mut n = 0;
        for (row, r) in reader.records().zip(&records) {
            let row = row.unwrap();
            let name = |n: &Option<String>| n.clone().unwrap_or_default();
            let rating = |r: Option<f64>| r.map(|r| format!("{r:.1}")).unwrap_or_default();
            let want = [
                r.game.clone(),
                r.year.to_string(),
                r.board_size.to_string(),
                r.tournament_id.to_string(),
                name(&r.tournament_name),
                r.black_player_id.to_string(),
                name(&r.black_player_name),
                r.white_player_id.to_string(),
                name(&r.white_player_name),
                r.black_score.to_string(),
                r.black_theoretical_score.to_string(),
                r.depth.to_string(),
                r.transcript.clone(),
                name(&r.opening),
                rating(r.black_rating),
                rating(r.white_rating),
            ];
            assert_eq!(row.iter().collect::<Vec<_>>(), want);
            n += 1;
        }
        assert_eq!(n, records.len());
        // Named openings, and none on 10x10.
        let named = records.iter().filter(|r| r.opening.is_some()).count();
        assert!(named > records.len() / 2, "{named} of {}", records.len());
        assert!(
            records
                .iter()
                .filter(|r| r.board_size == 10)
                .all(|r| r.opening.is_none())
        );
        let tiger = records
            .iter()
            .find(|r| r.transcript.starts_with("f5d6c3d3c4"));
        if let Some(r) = tiger {
            let o = wthor_db::openings::table().opening_of_game(
                &othello_core::notation::parse_transcript(&r.transcript, othello_core::Size::Eight)
                    .unwrap(),
            );
            assert_eq!(r.opening.as_deref(), o.map(|o| o.name()));
        }
        // Both players' ratings of the year: the whole-history fit's, none
        // on 10x10 nor for a player the fit does not know.
        let ratings = db.filter_ratings();
        for r in &records {
            for (name, rating) in [
                (&r.black_player_name, r.black_rating),
                (&r.white_player_name, r.white_rating),
            ] {
                let fitted = name
                    .as_deref()
                    .and_then(|n| ratings.named(n))
                    .and_then(|p| p.rating_in(r.year))
                    .filter(|_| r.board_size == 8);
                match (fitted, rating) {
                    (Some(f), Some(got)) => assert!((f - got).abs() <= 0.05, "{r:?}"),
                    (None, None) => {}
                    _ => panic!(
                        "{name:?} in {}: fitted {fitted:?}, record {rating:?}",
                        r.game
                    ),
                }
            }
        }
        let rated = records.iter().filter(|r| r.black_rating.is_some()).count();
        assert!(
            rated > records.len() * 9 / 10,
            "{rated} of {}",
            records.len()
        );
        assert!(
            records
                .iter()
                .filter(|r| r.board_size == 10)
                .all(|r| r.black_rating.is_none() && r.white_rating.is_none())
        );
        // GGF: `GN`, read back as a property.
        let ggf = run(Format::Ggf);
        for (line, r) in ggf.lines().zip(&records) {
            let g = wthor_db::text::ggf::parse_ggf(line).unwrap();
            assert_eq!(g.get("GN"), r.opening.as_deref(), "{line}");
        }
        // A record written before the field reads back without it.
        let mut old = serde_json::to_value(&records[0]).unwrap();
        for key in ["opening", "blackRating", "whiteRating"] {
            old.as_object_mut().unwrap().remove(key);
        }
        let back: GameRecord = serde_json::from_value(old).unwrap();
        assert_eq!(back.opening, None);
        assert_eq!((back.black_rating, back.white_rating), (None, None));
    }
}
