//! The position index: the same answers as a scan (every position of the
//! fixture games, ≥ 1,000 positions of the real archive), stale when a
//! file changes, never used when damaged.

use std::path::{Path, PathBuf};

use std::collections::BTreeMap;

use othello_core::replay::{Step, replay_with, wthor_tokens};
use othello_core::symmetry::{PositionKey, Symmetry, canonical};
use othello_core::{Bitboard, Board, Board8, Board10, Color, Move, Size};
use wthor_db::index::{IndexChoice, IndexError, PositionIndex, StaleReason};
use wthor_db::query::Position;
use wthor_db::stats::StatsOptions;
use wthor_db::{Answer, Database, GameId, IndexStatus, Query, QueryError};
use wthor_format::BoardSize;

fn testdata() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")
}

/// The positions of a game after 1.. moves (and, where the side to move
/// must pass, the position with the other side to move).
fn positions<B: Board>(raw: &[u8], wrap: fn(B) -> Position) -> Vec<Position> {
    let mut out = Vec::new();
    replay_with::<B, _, _>(wthor_tokens::<B>(raw), |s: &Step<B>| {
        if matches!(s.mv, Move::Play(_)) {
            out.push(wrap(s.board));
            let passed = s.board.pass();
            if s.board.legal_moves().is_empty() && !passed.legal_moves().is_empty() {
                out.push(wrap(passed));
            }
        }
    });
    out
}

fn game_positions(db: &Database, id: GameId) -> Vec<Position> {
    let g = db.game(id).unwrap();
    match g.board_size() {
        BoardSize::Eight => positions::<Board8>(g.moves_raw(), Position::Eight),
        BoardSize::Ten => positions::<Board10>(g.moves_raw(), Position::Ten),
    }
}

/// A position in canonical form under the 8 symmetries (size, discs of
/// the side to move and of the other, whether black moves): two positions
/// are the same query exactly when their keys are equal.
type Key = (Size, u128, u128, bool);

fn key(p: &Position) -> Key {
    fn of<B: Board>(b: &B) -> (u128, u128, bool)
    where
        B::Bits: Into<u128>,
    {
        let (c, _) = canonical(b);
        (
            c.player().into(),
            c.opponent().into(),
            c.side_to_move() == Color::Black,
        )
    }
    let (player, opponent, black) = match p {
        Position::Eight(b) => of(b),
        Position::Ten(b) => of(b),
    };
    (p.size(), player, opponent, black)
}

/// Each position (by its key) with the games that reach it.
type Reference = BTreeMap<Key, (Position, Vec<GameId>)>;

/// Every position of every game with the games that reach it, in database
/// order: an answer for each position made in one walk (this file's
/// replay, othello-core's symmetries), independent of the scan and the
/// index it checks.
fn walk(db: &Database) -> Reference {
    let mut map = Reference::new();
    for (f, i, _) in db.games() {
        let id = GameId::new(f, i);
        for p in game_positions(db, id) {
            let games = &mut map.entry(key(&p)).or_insert_with(|| (p, Vec::new())).1;
            if games.last() != Some(&id) {
                games.push(id);
            }
        }
    }
    for (_, games) in map.values_mut() {
        games.sort_unstable();
        games.dedup();
    }
    map
}

/// [`walk`] of the fixtures, made once for the tests that ask (each opens
/// its own copy of `testdata/`, whose games are the same).
fn reference(db: &Database) -> &'static Reference {
    static FIXTURES: std::sync::OnceLock<(usize, Reference)> = std::sync::OnceLock::new();
    let (games, map) = FIXTURES.get_or_init(|| (db.game_count(), walk(db)));
    assert_eq!(*games, db.game_count(), "a copy of the fixtures");
    map
}

fn fresh(db: &Database, path: &Path) -> PositionIndex {
    match db.index_status(path) {
        IndexStatus::Fresh(ix) => ix,
        other => panic!("not fresh: {other:?}"),
    }
}

/// The value of an answer the index gave (not the scan).
#[track_caller]
fn by_index<T>(answer: Result<Answer<T>, QueryError>) -> T {
    let answer = answer.unwrap();
    assert!(answer.indexed, "{:?}", answer.note);
    answer.value
}

/// The games of `db` reaching `p` by `ix`'s lookup, confirmed by the
/// query's matcher (as a searcher confirms them).
fn looked_up(db: &Database, ix: &PositionIndex, p: &Position) -> Result<Vec<GameId>, IndexError> {
    let m = db.matcher(&Query::new().position(*p)).unwrap();
    Ok(ix
        .candidates(db, p)?
        .into_iter()
        .filter(|&id| db.game_ref(id).is_some_and(|g| m.matches(&g)))
        .collect())
}

/// Copies the fixture database's files (not `malformed/` nor
/// `known-play/`) into a new directory.
pub(crate) fn copy_fixtures() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(testdata()).unwrap() {
        let p = entry.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
        }
    }
    dir
}

#[test]
fn the_index_answers_as_the_scan_on_every_fixture_position() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = wthor_db::index::default_path(&db);
    assert_eq!(path, dir.path().join("wthor.idx"));
    assert!(matches!(db.index_status(&path), IndexStatus::Missing));
    let report = PositionIndex::build(&db, &path).unwrap();
    assert_eq!(report.games as usize, db.game_count());
    assert_eq!(report.bytes, std::fs::metadata(&path).unwrap().len());
    let ix = fresh(&db, &path);
    ix.verify().unwrap();
    let indexed = db.searcher(IndexChoice::Default);
    let scan = db.searcher(IndexChoice::Never);
    // The index file is not taken for a database file.
    assert_eq!(
        Database::open(dir.path()).unwrap().files().len(),
        db.files().len()
    );
    // Every distinct position of the fixture games (one query per position
    // up to symmetry: the answer is the same for each image): the index
    // answers as the reference; the scan too, on a spread of 100 positions
    // (a scan per position would make this test quadratic in the games),
    // and the start positions, which every game reaches.
    let reference = reference(&db);
    assert!(reference.len() > 50_000, "{}", reference.len());
    let spread = reference.len() / 100;
    for (n, (p, games)) in reference.values().enumerate() {
        let q = Query::new().position(*p);
        let found = by_index(indexed.search(&q));
        assert_eq!(&found, games, "{}", p.to_obf());
        if n % spread == 0 {
            assert_eq!(&scan.search(&q).unwrap().value, games, "{}", p.to_obf());
        }
    }
    for p in [
        Position::Eight(Board8::start()),
        Position::Ten(Board10::start()),
        Position::Eight(Board8::start().pass()),
    ] {
        let q = Query::new().position(p);
        let scanned = scan.search(&q).unwrap().value;
        assert_eq!(by_index(indexed.search(&q)), scanned, "{}", p.to_obf());
        if !matches!(p, Position::Eight(b) if b == Board8::start().pass()) {
            assert!(!scanned.is_empty(), "{}", p.to_obf());
        }
    }
    // With other filters and statistics too.
    let p = game_positions(&db, db.parse_game_id("2001:4").unwrap())[5];
    let options = StatsOptions {
        next_moves: true,
        players: true,
        openings: 2,
        ..StatsOptions::default()
    };
    for q in [
        Query::new().position(p),
        Query::new().position(p).years(Some(2002), None),
        Query::new().position(p).limit(1),
    ] {
        assert_eq!(by_index(indexed.count(&q)), scan.count(&q).unwrap().value);
        assert_eq!(
            by_index(indexed.stats(&q, &options)),
            scan.stats(&q, &options).unwrap().value
        );
    }
}

#[test]
fn a_changed_file_makes_the_index_stale() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    drop(fresh(&db, &path));
    let wtb = dir.path().join("WTH_2002.wtb");
    let original = std::fs::read(&wtb).unwrap();
    let reopen = || Database::open(dir.path()).unwrap();

    // One move byte of the last game: same size, same header.
    let mut bytes = original.clone();
    let at = bytes.len() - 1;
    bytes[at] ^= 1;
    std::fs::write(&wtb, &bytes).unwrap();
    let stale = |db: &Database| match db.index_status(&path) {
        IndexStatus::Stale(r) => r,
        other => panic!("not stale: {other:?}"),
    };
    assert_eq!(
        stale(&reopen()),
        StaleReason::Changed {
            file: "WTH_2002.wtb".into(),
            what: "content"
        }
    );
    // The creation date in the header.
    let mut bytes = original.clone();
    bytes[0] ^= 1;
    std::fs::write(&wtb, &bytes).unwrap();
    assert!(matches!(
        stale(&reopen()),
        StaleReason::Changed { what: "header", .. }
    ));
    // A file removed, a file added.
    std::fs::remove_file(&wtb).unwrap();
    assert_eq!(stale(&reopen()), StaleReason::Gone("WTH_2002.wtb".into()));
    std::fs::write(&wtb, &original).unwrap();
    drop(fresh(&reopen(), &path));
    std::fs::copy(&wtb, dir.path().join("WTH_2009.wtb")).unwrap();
    assert_eq!(
        stale(&reopen()),
        StaleReason::NotIndexed("WTH_2009.wtb".into())
    );
    // Rebuilt: fresh again.
    let db = reopen();
    PositionIndex::build(&db, &path).unwrap();
    drop(fresh(&db, &path));
}

#[test]
fn a_corrupt_index_is_detected_and_not_used() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let corrupt = |bytes: &[u8]| {
        std::fs::write(&path, bytes).unwrap();
        db.index_status(&path)
    };
    // Header, file table and directory bytes: refused when opened.
    let table_len = u64::from_le_bytes(good[32..40].try_into().unwrap()) as usize;
    for at in [0, 9, 30, 70, 64 + table_len + 10] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x10;
        assert!(
            matches!(
                corrupt(&bytes),
                IndexStatus::Corrupt(IndexError::Corrupt { .. })
            ),
            "byte {at}"
        );
    }
    // Truncated, extended, empty.
    for bytes in [
        &good[..good.len() - 1],
        &[good.as_slice(), &[0]].concat(),
        &[][..],
    ] {
        assert!(matches!(corrupt(bytes), IndexStatus::Corrupt(_)));
    }
    // An entry damaged: opening is cheap and does not see it; `verify`
    // does, and so does every lookup in its block.
    let mut bytes = good.clone();
    let at = bytes.len() - 3;
    bytes[at] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let ix = fresh(&db, &path);
    assert!(matches!(ix.verify(), Err(IndexError::Corrupt { .. })));
    // Lookups in the damaged block fail (and are reported: a searcher
    // with the index says so, and the scan answers); the others answer as
    // the scan (checked on every 8th position: the test above checks them
    // all on a sound index).
    let indexed = db.searcher(IndexChoice::At(path.clone()));
    let mut failed = 0;
    for (i, (p, games)) in reference(&db).values().enumerate() {
        let lookup = if i % 8 == 0 {
            looked_up(&db, &ix, p)
        } else {
            ix.candidates(&db, p).map(|_| games.clone())
        };
        match lookup {
            Ok(found) => assert_eq!(&found, games, "{}", p.to_obf()),
            Err(IndexError::Corrupt { .. }) => {
                failed += 1;
                if failed == 1 {
                    let found = indexed.search(&Query::new().position(*p)).unwrap();
                    assert!(!found.indexed);
                    assert!(
                        found
                            .note
                            .as_deref()
                            .is_some_and(|n| n.contains("corrupt index")
                                && n.ends_with("scanning every game")),
                        "{:?}",
                        found.note
                    );
                    assert_eq!(&found.value, games, "{}", p.to_obf());
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(failed > 0);
    // Not an index at all.
    std::fs::write(&path, b"hello").unwrap();
    assert!(matches!(db.index_status(&path), IndexStatus::Corrupt(_)));
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn index_and_scan_agree_on_the_real_archive() {
    let data = crate::wthor_data();
    let db = Database::open(data.join("wthor")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wthor.idx");
    let report = PositionIndex::build(&db, &path).unwrap();
    assert_eq!(report.games, 137_548);
    let ix = fresh(&db, &path);
    ix.verify().unwrap();
    let indexed = db.searcher(IndexChoice::At(path.clone()));
    let scan = db.searcher(IndexChoice::Never);
    // 1,200 positions: every 115th game, at a ply spread over 1..=60.
    let mut checked = 0;
    let mut n = 0usize;
    let _ = db.scan(|g| {
        n += 1;
        if n.is_multiple_of(115) {
            let all = game_positions(&db, g.id);
            if !all.is_empty() {
                let p = all[(n / 115 * 7) % all.len()];
                let q = Query::new().position(p);
                let scanned = scan.search(&q).unwrap().value;
                assert!(scanned.contains(&g.id));
                assert_eq!(by_index(indexed.search(&q)), scanned, "{}", p.to_obf());
                checked += 1;
            }
        }
        std::ops::ControlFlow::<()>::Continue(())
    });
    assert!(checked >= 1000, "{checked}");
    let p = Position::after_transcript("f5d6c3d3c4f4f6f3e6e7", othello_core::Size::Eight).unwrap();
    let q = Query::new().position(p);
    let options = StatsOptions {
        next_moves: true,
        players: true,
        openings: 12,
        ..StatsOptions::default()
    };
    assert_eq!(
        by_index(indexed.stats(&q, &options)),
        scan.stats(&q, &options).unwrap().value
    );
}

#[test]
fn an_index_opened_by_hand_checks_freshness_on_first_use() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    let ix = PositionIndex::open(&path).unwrap();
    let p = game_positions(&db, db.parse_game_id("2001:1").unwrap())[3];
    let q = Query::new().position(p);
    let scan = db.searcher(IndexChoice::Never);
    assert_eq!(
        looked_up(&db, &ix, &p).unwrap(),
        scan.search(&q).unwrap().value
    );
    // Another database (one file fewer): refused, not misread.
    std::fs::remove_file(dir.path().join("WTH_2001.wtd")).unwrap();
    let other = Database::open(dir.path()).unwrap();
    assert!(matches!(
        looked_up(&other, &ix, &p),
        Err(IndexError::Stale(_))
    ));
}

#[test]
fn through_an_index_that_fails_the_scan_answers_with_a_note() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    let p = game_positions(&db, db.parse_game_id("2002:3").unwrap())[5];
    let q = Query::new().position(p);
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    // Its own database: the index answers.
    let indexed = db.searcher(IndexChoice::At(path.clone()));
    let scan = db.searcher(IndexChoice::Never);
    let found = indexed.search(&q).unwrap();
    assert!(found.indexed && found.note.is_none());
    assert_eq!(found.value, scan.search(&q).unwrap().value);
    let n = indexed.count(&q).unwrap();
    assert!(n.indexed);
    assert_eq!(n.value, found.value.len());
    let stats = indexed.stats(&q, &options).unwrap();
    assert!(stats.indexed);
    assert_eq!(stats.value, scan.stats(&q, &options).unwrap().value);
    // No position filter: a scan, without a note.
    let plain = indexed.search(&Query::new()).unwrap();
    assert!(!plain.indexed && plain.note.is_none());
    // Another database: the scan answers and the note says why.
    std::fs::remove_file(dir.path().join("WTH_2001.wtd")).unwrap();
    let other = Database::open(dir.path()).unwrap();
    let indexed = other.searcher(IndexChoice::At(path));
    let scan = other.searcher(IndexChoice::Never);
    let found = indexed.search(&q).unwrap();
    assert!(!found.indexed);
    assert!(
        found
            .note
            .as_deref()
            .is_some_and(|n| n.ends_with("scanning every game")),
        "{:?}",
        found.note
    );
    assert_eq!(found.value, scan.search(&q).unwrap().value);
    let stats = indexed.stats(&q, &options).unwrap();
    assert!(!stats.indexed && stats.note.is_some());
    assert_eq!(stats.value, scan.stats(&q, &options).unwrap().value);
    let n = indexed.count(&q).unwrap();
    assert!(!n.indexed && n.note.is_some());
    assert_eq!(n.value, scan.count(&q).unwrap().value);
}

#[test]
fn extra_candidates_as_from_a_hash_collision_change_nothing() {
    // An index lookup may return games that do not reach the position (a
    // 40-bit hash collision): they are confirmed by replay. The start
    // position is not stored: every game of its size is its candidate, so
    // the index answers a query of the start (or of the start with the
    // other side to move, which no game reaches) with every game as a
    // candidate, and gives the scan's answer only if the extra ones are
    // rejected.
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    let indexed = db.searcher(IndexChoice::At(path));
    let scan = db.searcher(IndexChoice::Never);
    let options = StatsOptions {
        next_moves: true,
        players: true,
        openings: 2,
        ..StatsOptions::default()
    };
    let start = Position::Eight(Board8::start());
    let mut queries = vec![
        (
            "the start, nakamura".to_owned(),
            Query::new().position(start).player("nakamura"),
        ),
        (
            "the start, 2002-".to_owned(),
            Query::new().position(start).years(Some(2002), None),
        ),
        (
            "the start after a pass".to_owned(),
            Query::new().position(Position::Eight(Board8::start().pass())),
        ),
        (
            "the 10x10 start, 2002-".to_owned(),
            Query::new()
                .position(Position::Ten(Board10::start()))
                .years(Some(2002), None),
        ),
    ];
    for (name, ply) in [("2001:2", 7), ("2002:9", 20), ("WTH_2002.wtd:1", 11)] {
        let p = game_positions(&db, db.parse_game_id(name).unwrap())[ply];
        queries.push((name.to_owned(), Query::new().position(p)));
    }
    for (name, q) in queries {
        let stats = scan.stats(&q, &options).unwrap().value;
        assert_eq!(
            stats.totals.results.games,
            scan.count(&q).unwrap().value as u64
        );
        assert_eq!(by_index(indexed.stats(&q, &options)), stats, "{name}");
    }
}

#[test]
fn transpositions_counted_in_one_scan_equal_a_count_per_position() {
    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("x.idx");
    PositionIndex::build(&db, &path).unwrap();
    let indexed = db.searcher(IndexChoice::At(path));
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    // Positions of both sizes, early (reached by many) and late.
    let mut positions = Vec::new();
    for (name, plies) in [
        ("2001:2", &[1, 2, 3, 7][..]),
        ("2002:9", &[4, 20][..]),
        ("2003:35", &[5, 12][..]),
        ("WTH_2002.wtd:1", &[2, 11][..]),
    ] {
        let all = game_positions(&db, db.parse_game_id(name).unwrap());
        positions.extend(plies.iter().map(|&i| all[i]));
    }
    for query in [
        Query::new(),
        Query::new().years(Some(2002), None),
        // The query's own position filter is left aside.
        Query::new().player("nakamura").position(positions[0]),
        Query::new().limit(3),
    ] {
        let each: Vec<usize> = positions
            .iter()
            .map(|p| scan.count(&query.clone().position(*p)).unwrap().value)
            .collect();
        assert!(each.iter().any(|&n| n > 1), "{each:?}");
        assert_eq!(seq.count_reaching(&query, &positions).unwrap().value, each);
        let scanned = scan.count_reaching(&query, &positions).unwrap();
        assert!(!scanned.indexed && scanned.note.is_none());
        assert_eq!(scanned.value, each);
        let indexed = indexed.count_reaching(&query, &positions).unwrap();
        assert!(indexed.indexed);
        assert_eq!(indexed.value, each);
    }
}

/// The index files positions by the hash of their key up to symmetry
/// ([`PositionKey::hash64`]): the same in every orientation, not with the
/// other side to move; so the index finds the games through a position
/// given in any orientation.
#[test]
fn the_hash_does_not_depend_on_orientation() {
    let position_hash = |b: &Board8| PositionKey::of(b).hash64();
    let b = Position::after_transcript("f5d6c3d3c4f4", Size::Eight).unwrap();
    let Position::Eight(b) = b else {
        unreachable!()
    };
    let h = position_hash(&b);
    for s in Symmetry::ALL {
        assert_eq!(position_hash(&s.board(&b)), h);
    }
    assert_ne!(position_hash(&b.pass()), h);

    let dir = copy_fixtures();
    let db = Database::open(dir.path()).unwrap();
    let path = dir.path().join("wthor.idx");
    PositionIndex::build(&db, &path).unwrap();
    let indexed = db.searcher(IndexChoice::Default);
    let q = |b: Board8| Query::new().position(Position::Eight(b));
    let found = by_index(indexed.search(&q(b)));
    assert!(!found.is_empty());
    let scan = db.searcher(IndexChoice::Never);
    assert_eq!(found, scan.search(&q(b)).unwrap().value);
    for s in Symmetry::ALL {
        assert_eq!(by_index(indexed.search(&q(s.board(&b)))), found, "{s:?}");
    }
}
