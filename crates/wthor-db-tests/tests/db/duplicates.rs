//! Duplicate games under the 8 symmetries: the parallel grouping equals the
//! plain one, on a directory made here with known copies, on the fixtures
//! and on the real archive.

use othello_core::symmetry::Symmetry;
use othello_core::{Size, Square};
use wthor_db::duplicates::{Kind, Later, canonical_moves};
use wthor_db::index::IndexChoice;
use wthor_db::{Database, GameId, Query};
use wthor_format::{BoardSize, Game, Header, write_game_file};

/// `moves` turned by `s`.
fn turned(moves: &[&str], s: Symmetry, size: Size) -> Vec<String> {
    moves
        .iter()
        .map(|m| {
            let sq = Square::parse(m, size).unwrap();
            s.square(sq, size).name(size).to_string()
        })
        .collect()
}

fn file(dir: &std::path::Path, name: &str, year: u16, size: BoardSize, games: &[Game]) {
    let header = Header {
        year,
        p1: if size == BoardSize::Ten { 10 } else { 8 },
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, size, games, &mut bytes).unwrap();
    std::fs::write(dir.join(name), &bytes).unwrap();
}

fn game(black: u16, white: u16, moves: &[String], size: BoardSize) -> Game {
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    Game::from_squares(0, black, white, 33, 33, &moves, size).unwrap()
}

#[test]
fn copies_are_grouped_by_kind_within_and_across_files() {
    let a = ["f5", "d6", "c3", "d3", "c4", "f4", "f6"];
    let b = ["f5", "f6", "e6", "f4", "e3"];
    let s = |m: &[&str], sym| turned(m, sym, Size::Eight);
    let id = Symmetry::IDENTITY;
    let dir = tempfile::tempdir().unwrap();
    // 2001: a; a turned, same players (a double entry); b; nothing.
    file(
        dir.path(),
        "WTH_2001.wtb",
        2001,
        BoardSize::Eight,
        &[
            game(1, 2, &s(&a, id), BoardSize::Eight),
            game(1, 2, &s(&a, Symmetry::ROTATE_180), BoardSize::Eight),
            game(3, 4, &s(&b, id), BoardSize::Eight),
            game(0, 0, &[], BoardSize::Eight),
            game(0, 0, &[], BoardSize::Eight),
        ],
    );
    // 2002: a, same players but another year; b by other players,
    // transposed; a prefix of a (no copy).
    file(
        dir.path(),
        "WTH_2002.wtb",
        2002,
        BoardSize::Eight,
        &[
            game(1, 2, &s(&a, Symmetry::TRANSPOSE_MAIN), BoardSize::Eight),
            game(5, 6, &s(&b, Symmetry::TRANSPOSE_ANTI), BoardSize::Eight),
            game(1, 2, &s(&a[..6], id), BoardSize::Eight),
        ],
    );
    // 10x10: the same squares as a 8x8 game are no copy of it; two copies.
    let ten = ["g6", "g7", "f7"];
    let t = |sym| turned(&ten, sym, Size::Ten);
    file(
        dir.path(),
        "WTH_2001.wtd",
        2001,
        BoardSize::Ten,
        &[
            game(1, 2, &t(id), BoardSize::Ten),
            game(1, 2, &t(Symmetry::ROTATE_180), BoardSize::Ten),
        ],
    );
    let db = Database::open(dir.path()).unwrap();
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&Query::new())
        .unwrap()
        .value;
    let d = db.duplicates(&ids);
    assert_eq!(d, db.duplicates_sequential(&ids));
    // Games without moves are not compared.
    assert_eq!(d.games, ids.len() - 2);
    // Files: WTH_2001.wtb, WTH_2001.wtd, WTH_2002.wtb.
    let g = |f, i| GameId::new(f, i);
    let later = |id, kind, symmetry| Later { id, kind, symmetry };
    assert_eq!(d.groups.len(), 3);
    assert_eq!(d.groups[0].first, g(0, 0));
    assert_eq!(
        d.groups[0].later,
        [
            later(g(0, 1), Kind::DoubleEntry, Symmetry::ROTATE_180),
            later(g(2, 0), Kind::OtherPlayers, Symmetry::TRANSPOSE_MAIN),
        ]
    );
    assert_eq!(d.groups[1].first, g(0, 2));
    assert_eq!(
        d.groups[1].later,
        [later(g(2, 1), Kind::OtherPlayers, Symmetry::TRANSPOSE_ANTI)]
    );
    assert_eq!(d.groups[2].first, g(1, 0));
    assert_eq!(
        d.groups[2].later,
        [later(g(1, 1), Kind::DoubleEntry, Symmetry::ROTATE_180)]
    );
    assert_eq!(d.count(Kind::DoubleEntry), 2);
    assert_eq!(d.count(Kind::OtherPlayers), 2);
    assert_eq!(d.groups_with(Kind::DoubleEntry), 2);
    // Dedupe keeps the first copies, in the order given.
    let mut reversed = ids.clone();
    reversed.reverse();
    let kept = db.dedupe(&reversed);
    let dropped = [g(0, 1), g(2, 0), g(2, 1), g(1, 1)];
    let expected: Vec<GameId> = reversed
        .iter()
        .copied()
        .filter(|i| !dropped.contains(i))
        .collect();
    assert_eq!(kept, expected);
    // Among a subset, only its own copies; a game given twice counts once.
    let some = [g(2, 0), g(2, 1), g(0, 2), g(0, 2)];
    let d = db.duplicates(&some);
    assert_eq!(d, db.duplicates_sequential(&some));
    assert_eq!(d.games, 3);
    assert_eq!(d.groups.len(), 1);
    assert_eq!(d.groups[0].first, g(0, 2));
}

#[test]
fn fixtures_parallel_equals_sequential() {
    let testdata = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(testdata).unwrap();
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&Query::new())
        .unwrap()
        .value;
    let d = db.duplicates(&ids);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    assert_eq!(pool.install(|| db.duplicates(&ids)), d);
    assert_eq!(d, db.duplicates_sequential(&ids));
    // The bulk files' players meet often on a small book: 6 groups, all
    // by other players (wthor duplicates --db testdata).
    assert_eq!(d.groups.len(), 6);
    assert_eq!(d.count(Kind::DoubleEntry), 0);
    assert_eq!(d.count(Kind::OtherPlayers), 6);
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_archive_parallel_equals_sequential() {
    let data = super::wthor_data();
    let db = Database::open(data.join("wthor")).unwrap();
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&Query::new())
        .unwrap()
        .value;
    let d = db.duplicates(&ids);
    assert_eq!(d, db.duplicates_sequential(&ids));
    eprintln!(
        "real archive: {} games compared, {} groups, {} double entries, {} other players",
        d.games,
        d.groups.len(),
        d.count(Kind::DoubleEntry),
        d.count(Kind::OtherPlayers)
    );
    // Measured once (issue 26): every copy on the top level is by other
    // players (engines' internet games met again, thematic tournaments).
    assert_eq!(d.games, 137_548);
    assert_eq!(d.groups.len(), 30);
    assert_eq!(d.count(Kind::DoubleEntry), 0);
    assert_eq!(d.count(Kind::OtherPlayers), 41);
}

fn sq(name: &str) -> Square {
    Square::parse(name, Size::Eight).unwrap()
}

fn bytes(moves: &[&str]) -> Vec<u8> {
    let mut out: Vec<u8> = moves.iter().map(|m| sq(m).to_wthor(Size::Eight)).collect();
    out.resize(60, 0);
    out
}

/// The image of a WTHOR move byte under `s` (a byte that is no square is
/// its own image), from [`Symmetry::square`].
fn image_byte(b: u8, s: Symmetry) -> u8 {
    Square::from_wthor(b, Size::Eight).map_or(b, |q| s.square(q, Size::Eight).to_wthor(Size::Eight))
}

#[test]
fn the_images_of_a_game_share_its_key() {
    let moves = ["f5", "d6", "c3", "d3", "c4", "f4"];
    let raw = bytes(&moves);
    let (key, _) = canonical_moves(&raw, Size::Eight);
    for s in Symmetry::ALL {
        let image: Vec<u8> = raw.iter().map(|&b| image_byte(b, s)).collect();
        let (k, sym) = canonical_moves(&image, Size::Eight);
        assert_eq!(k, key, "{s:?}");
        // The symmetry found turns the image into the key.
        let turned: Vec<u8> = image.iter().map(|&b| image_byte(b, sym)).collect();
        assert_eq!(turned, key);
    }
    let other = bytes(&["f5", "d6", "c3", "d3", "c4", "b4"]);
    assert_ne!(canonical_moves(&other, Size::Eight).0, key);
    // The key is the smallest image, not the first.
    assert!(Symmetry::ALL.iter().all(|&s| {
        let image: Vec<u8> = raw.iter().map(|&b| image_byte(b, s)).collect();
        key <= image
    }));
    // The parallel grouping hashes the keys: the game and its 8 images
    // share one hash (one group), a game without moves has none (it is not
    // compared).
    let dir = tempfile::tempdir().unwrap();
    let mut games = vec![game_of(1, &moves)];
    for (i, s) in (2..).zip(Symmetry::ALL) {
        games.push(game(
            i,
            20,
            &turned(&moves, s, Size::Eight),
            BoardSize::Eight,
        ));
    }
    games.push(game(11, 12, &[], BoardSize::Eight));
    games.push(game(13, 14, &[], BoardSize::Eight));
    file(dir.path(), "WTH_2001.wtb", 2001, BoardSize::Eight, &games);
    let db = Database::open(dir.path()).unwrap();
    let ids = db
        .searcher(IndexChoice::Never)
        .search(&Query::new())
        .unwrap()
        .value;
    assert_eq!(ids.len(), 11);
    let d = db.duplicates(&ids);
    assert_eq!(d.games, 9);
    assert_eq!(d.groups.len(), 1);
    assert_eq!(d.groups[0].first, ids[0]);
    assert_eq!(d.groups[0].later.len(), 8);
    assert_eq!(d, db.duplicates_sequential(&ids));
}

fn game_of(black: u16, moves: &[&str]) -> Game {
    Game::from_squares(0, black, 20, 33, 33, moves, BoardSize::Eight).unwrap()
}
