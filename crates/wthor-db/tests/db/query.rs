//! Game identities, names and queries on the fixture database.

use std::path::PathBuf;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Board10, Size};
use wthor_db::query::{Opening, Outcome, PlayerKind, Position, SortKey};
use wthor_db::{Database, GameId, Query};

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
    let opening = Opening::parse("f5d6", Size::Eight).unwrap();
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
    for q in queries() {
        let par = db.search(&q).unwrap();
        assert_eq!(par, db.search_sequential(&q).unwrap(), "{q:?}");
        let count = db.count(&q.clone().limit(usize::MAX)).unwrap();
        assert!(count >= par.len(), "{q:?}");
    }
}

#[test]
fn filters_do_what_they_say_on_fixtures() {
    let db = fixtures();
    let all = db.search(&Query::new()).unwrap();
    assert_eq!(all.len(), db.game_count());
    let draws = db.search(&Query::new().result(Outcome::Draw)).unwrap();
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
    let sorted = db.search(&Query::new().sort(SortKey::Score)).unwrap();
    let scores: Vec<u8> = sorted
        .iter()
        .map(|&id| db.game(id).unwrap().real_score())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] <= w[1]));
    assert!(matches!(
        db.search(&Query::new().years(Some(2002), Some(2001))),
        Err(wthor_db::QueryError::EmptyRange { .. })
    ));
    let programs = db.search(&Query::new().kind(PlayerKind::Program)).unwrap();
    let humans = db.search(&Query::new().kind(PlayerKind::Human)).unwrap();
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
    for (name, ply) in [("2001:3", 20), ("2002:7", 12), ("2001:5", 1)] {
        let id = db.parse_game_id(name).unwrap();
        let b: Board8 = position_of(&db, id, ply);
        for s in Symmetry::ALL {
            let q = Query::new().position(Position::Eight(s.board(&b)));
            let found = db.search(&q).unwrap();
            assert!(found.contains(&id), "{name} after {ply}, {s:?}");
            assert_eq!(found, db.search_sequential(&q).unwrap());
        }
    }
    for (name, ply) in [("WTH_2001.wtd:2", 30), ("WTH_2002.wtd:4", 9)] {
        let id = db.parse_game_id(name).unwrap();
        let b: Board10 = position_of(&db, id, ply);
        for s in Symmetry::ALL {
            let q = Query::new().position(Position::Ten(s.board(&b)));
            assert!(
                db.search(&q).unwrap().contains(&id),
                "{name} after {ply}, {s:?}"
            );
        }
    }
}
