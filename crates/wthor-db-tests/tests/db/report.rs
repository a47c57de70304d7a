//! The preparation report (`wthor_db::report`) on hand-made games: lines
//! turned f5-first, the archive's main move and the player's departure
//! from it, results by the opponents' ratings, a player with one game.

use othello_core::Color;
use wthor_db::Database;
use wthor_db::ratings::Params;
use wthor_db::report::{Record, ReportOptions};

/// Black, white, black's discs, the moves.
type Played<'a> = (u16, u16, u8, &'a [&'a str]);

/// `names` and the games of 2001.
fn database(names: &[&str], games: &[Played<'_>]) -> (tempfile::TempDir, Database) {
    let dir = tempfile::tempdir().unwrap();
    crate::handmade::write_names(&dir.path().join("WTHOR.JOU"), names);
    let games: Vec<crate::handmade::Played<'_>> = games
        .iter()
        .map(|&(b, w, discs, moves)| (0, b, w, discs, moves))
        .collect();
    crate::handmade::write_games(&dir.path().join("WTH_2001.wtb"), 2001, &games);
    let db = Database::open(dir.path()).unwrap();
    (dir, db)
}

#[test]
fn lines_are_turned_to_f5_and_departures_found() {
    // Ann (black) plays c5 after f5 d6, once as the 180-degree image
    // c4 e3 f4; the archive's most played move there is c3.
    let (_dir, db) = database(
        &["Ann", "Bob", "Cid"],
        &[
            (0, 1, 40, &["f5", "d6", "c5"]),
            (0, 2, 20, &["f5", "d6", "c5"]),
            (0, 1, 32, &["c4", "e3", "f4"]),
            (1, 2, 40, &["f5", "d6", "c3"]),
            (1, 2, 40, &["f5", "d6", "c3"]),
            (2, 1, 40, &["e6", "f4", "c3"]),
            (2, 1, 40, &["f5", "d6", "c3"]),
        ],
    );
    let ratings = db
        .ratings(&wthor_db::Query::new(), &Params::FITTED)
        .unwrap();
    let mut options = ReportOptions::new(Color::Black);
    options.min_games = 1;
    let r = db.player_report("Ann", &options, Some(&ratings)).unwrap();
    assert_eq!(
        r.tree.player,
        Record {
            games: 3,
            points: 1.5
        }
    );
    assert_eq!(r.tree.archive.games, 7);
    let f5 = &r.tree.lines[0];
    assert_eq!(f5.moves, "f5");
    let f5d6 = &f5.lines[0];
    assert_eq!(
        (f5d6.moves.as_str(), f5d6.player.games, f5d6.archive.games),
        ("f5d6", 3, 7)
    );
    assert_eq!(f5d6.to_move, Color::Black);
    assert_eq!(f5d6.player_next.as_deref(), Some("c5"));
    // e6 f4 c3 turned by the transpose (e6 -> f5, f4 -> d6, c3 -> c3) is
    // f5 d6 c3: four games play c3.
    assert_eq!(f5d6.archive_next.as_deref(), Some("c3"));
    let c5 = &f5d6.lines[0];
    assert_eq!(
        (c5.moves.as_str(), c5.player.games, c5.archive.games),
        ("f5d6c5", 3, 3)
    );
    assert_eq!(r.departures.len(), 1, "{:?}", r.departures);
    let d = &r.departures[0];
    assert_eq!(
        (d.moves.as_str(), d.played.as_str(), d.archive_next.as_str()),
        ("f5d6", "c5", "c3")
    );
    assert_eq!(
        d.record,
        Record {
            games: 3,
            points: 1.5
        }
    );
    assert_eq!(d.archive_record.games, 4);
    assert_eq!(d.archive_record.points, 4.0);
    // Every game is against a rated opponent, above or below Ann.
    assert_eq!(r.against_stronger.games + r.against_weaker.games, 3);
    assert_eq!(r.against_unrated.games, 0);
    // As white Ann has no game.
    assert!(
        db.player_report("Ann", &ReportOptions::new(Color::White), None)
            .is_err()
    );
}

/// One game is too few for a report: an error that says so and names the
/// game, never an empty tree (issue 39's bad input).
#[test]
fn one_game_is_said_plainly() {
    let (_dir, db) = database(
        &["Ann", "Bob"],
        &[(0, 1, 40, &["f5", "d6", "c3"]), (1, 0, 40, &["f5", "f6"])],
    );
    let e = db
        .player_report("ann", &ReportOptions::new(Color::Black), None)
        .unwrap_err();
    assert!(
        matches!(e, wthor_db::report::ReportError::OneGame { .. }),
        "{e:?}"
    );
    let text = e.to_string();
    assert!(
        text.starts_with("ann has only one 8x8 game with black (")
            && text.ends_with("): too few for a report"),
        "{text}"
    );
    // As white too.
    assert!(matches!(
        db.player_report("ann", &ReportOptions::new(Color::White), None),
        Err(wthor_db::report::ReportError::OneGame { .. })
    ));
}
