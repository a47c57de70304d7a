//! The history of a position (`wthor_db::history`) on hand-made games:
//! the first game is the earliest by year and file order, found under a
//! symmetry and through a transposition; a position no game reaches.

use othello_core::Size;
use wthor_db::Database;
use wthor_db::index::IndexChoice;
use wthor_db::query::Filters;

fn write_year(dir: &std::path::Path, year: u16, games: &[&[&str]]) {
    let games: Vec<crate::handmade::Played<'_>> = games.iter().map(|&m| (0, 0, 1, 40, m)).collect();
    crate::handmade::write_games(&dir.join(format!("WTH_{year}.wtb")), year, &games);
}

fn database() -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().unwrap();
    crate::handmade::write_names(&dir.path().join("WTHOR.JOU"), &["Ann", "Bob"]);
    // 2001: game 1 reaches f5 d6 c3 d3 c4 turned by 180 degrees and in
    // another order (c4 e3 f5 e6 f6 is f5 d6 c4 d3 c3 turned), then plays
    // c5, which is f4 in the position's orientation.
    write_year(
        dir.path(),
        2001,
        &[&["f5", "d6", "c5"], &["c4", "e3", "f5", "e6", "f6", "c5"]],
    );
    // 2002: the line itself, then f4; 2003: nothing reaches it.
    write_year(dir.path(), 2002, &[&["f5", "d6", "c3", "d3", "c4", "f4"]]);
    write_year(dir.path(), 2003, &[&["f5", "f6"]]);
    let db = Database::open(dir.path()).unwrap();
    (dir, db)
}

fn query(line: &str) -> wthor_db::Query {
    Filters {
        position_after: Some(line.to_owned()),
        size: Size::Eight,
        ..Filters::default()
    }
    .to_query()
    .unwrap()
}

#[test]
fn the_first_game_is_found_under_a_symmetry_and_a_transposition() {
    let (_dir, db) = database();
    let h = db
        .searcher(IndexChoice::Never)
        .history(&query("f5d6c3d3c4"))
        .unwrap();
    let years: Vec<(u16, u64)> = h.years.iter().map(|y| (y.year, y.reached.games)).collect();
    assert_eq!(years, [(2001, 1), (2002, 1), (2003, 0)]);
    assert_eq!(h.reached(), 2);
    let name = |id| db.game_name(id).to_string();
    assert_eq!(h.first.map(name).as_deref(), Some("2001:1"));
    assert_eq!(h.latest.map(name).as_deref(), Some("2002:0"));
    assert_eq!(h.moves.len(), 1);
    let f4 = &h.moves[0];
    assert_eq!(f4.square.name(Size::Eight).to_string(), "f4");
    assert_eq!(
        (f4.games, name(f4.first), name(f4.latest)),
        (2, "2001:1".to_owned(), "2002:0".to_owned())
    );
    // The same history through the position given as an OBF.
    let obf = Filters {
        position: Some(query("f5d6c3d3c4").position_filter().unwrap().to_obf()),
        ..Filters::default()
    };
    let by_obf = db
        .searcher(IndexChoice::Never)
        .history(&obf.to_query().unwrap())
        .unwrap();
    assert_eq!(by_obf, h);
}

#[test]
fn a_position_no_game_reaches_has_empty_years() {
    let (_dir, db) = database();
    let h = db
        .searcher(IndexChoice::Never)
        .history(&query("f5f4e3d6"))
        .unwrap();
    assert_eq!(h.reached(), 0);
    assert_eq!(h.years.len(), 3);
    assert!(h.first.is_none() && h.moves.is_empty());
}
