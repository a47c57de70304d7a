//! Novelties (`wthor_db::novelty`): every fixture game's novelty against a
//! plain scan of the positions of earlier years; a copy in a later year has
//! none of its own; uniqueness against a count of the games per position.

use std::collections::{HashMap, HashSet};

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::PositionKey;
use othello_core::{Board, Board8, Move};
use wthor_db::novelty::Departure;
use wthor_db::{Database, GameId, Query};
use wthor_format::BoardSize;

/// A copy of the fixtures with a game in known play, which the database
/// of the fixtures does not hold: `testdata/known-play/WTH_2009.wtb` (see
/// `testdata/README.md`) beside them.
fn fixtures_and_a_game_in_known_play() -> tempfile::TempDir {
    let dir = crate::index::copy_fixtures();
    let known = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/known-play/WTH_2009.wtb");
    std::fs::copy(known, dir.path().join("WTH_2009.wtb")).unwrap();
    dir
}

fn keys(raw: &[u8]) -> Vec<PositionKey> {
    let mut out = Vec::new();
    replay_with::<Board8, _, _>(wthor_tokens::<Board8>(raw), |s| {
        if matches!(s.mv, Move::Play(_)) {
            out.push(PositionKey::of(&s.board));
        }
    });
    out
}

#[test]
fn every_fixture_novelty_is_the_plain_scan_s() {
    let dir = fixtures_and_a_game_in_known_play();
    let db = Database::open(dir.path()).unwrap();
    // Every 8x8 game's positions, by year.
    let mut games: Vec<(u16, GameId, Vec<PositionKey>)> = Vec::new();
    for (f, i, g) in db.games() {
        if g.board_size() == BoardSize::Eight {
            games.push((db.files()[f].year(), GameId::new(f, i), keys(g.moves_raw())));
        }
    }
    let mut by_year: HashMap<u16, HashSet<PositionKey>> = HashMap::new();
    let mut reaching: HashMap<PositionKey, usize> = HashMap::new();
    for (year, _, ks) in &games {
        by_year.entry(*year).or_default().extend(ks.iter().copied());
        for k in ks.iter().collect::<HashSet<_>>() {
            *reaching.entry(*k).or_default() += 1;
        }
    }
    let first_year = *by_year.keys().min().unwrap();
    let novelties = db.novelties(&Query::new()).unwrap();
    assert_eq!(novelties.len(), games.len());
    let mut checked = 0;
    let mut known = 0;
    for n in &novelties {
        let (year, _, ks) = games.iter().find(|g| g.1 == n.game).unwrap();
        let earlier: Vec<&HashSet<PositionKey>> = by_year
            .iter()
            .filter(|(y, _)| *y < year)
            .map(|(_, s)| s)
            .collect();
        let first_new = ks
            .iter()
            .position(|k| !earlier.iter().any(|s| s.contains(k)));
        match n.departure {
            Departure::Novelty { ply, .. } => {
                assert_eq!(Some(ply - 1), first_new, "{:?}", n.game);
                checked += 1;
            }
            Departure::InKnownPlay => {
                assert_eq!(first_new, None, "{:?}", n.game);
                known += 1;
            }
            Departure::FirstYear => assert_eq!(*year, first_year),
            Departure::Copy => {}
        }
        let unique = ks.iter().position(|k| reaching[k] == 1).map(|k| k + 1);
        assert_eq!(n.unique_from, unique, "{:?}", n.game);
    }
    assert!(checked > 1000, "{checked}");
    assert_eq!(known, 1, "2009:0 only");
}

#[test]
fn a_copy_in_a_later_year_has_no_novelty_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    crate::handmade::write_names(&dir.path().join("WTHOR.JOU"), &["Ann", "Bob"]);
    let line: &[&str] = &["f5", "d6", "c3", "d3", "c4"];
    // The same game turned by 180 degrees.
    let turned: &[&str] = &["c4", "e3", "f6", "e6", "f5"];
    crate::handmade::write_games(
        &dir.path().join("WTH_2001.wtb"),
        2001,
        &[(0, 0, 1, 40, line)],
    );
    crate::handmade::write_games(
        &dir.path().join("WTH_2002.wtb"),
        2002,
        &[
            (0, 0, 1, 40, turned),
            (0, 1, 0, 30, &["f5", "d6", "c3", "d3", "c4", "f4"]),
        ],
    );
    let db = Database::open(dir.path()).unwrap();
    let n = db.novelties(&Query::new()).unwrap();
    assert_eq!(n[0].departure, Departure::FirstYear);
    assert_eq!(n[1].departure, Departure::Copy);
    // The third leaves 2001's game at its 6th move, which 2001's game had
    // reached once before it; no other game of 2002 reaches the new one.
    assert_eq!(
        n[2].departure,
        Departure::Novelty {
            ply: 6,
            before: 1,
            same_year: false
        }
    );
    assert_eq!(n[2].unique_from, Some(6));
    assert_eq!(n[0].unique_from, None);
    // One game's novelty (the game page's, Python's Game.novelty) is its
    // row of the whole query.
    for row in &n {
        assert_eq!(db.novelty_of(row.game), Some(*row));
    }
}

#[test]
fn one_game_s_novelty_is_its_row_of_the_whole_query() {
    let dir = fixtures_and_a_game_in_known_play();
    let db = Database::open(dir.path()).unwrap();
    let all = db.novelties(&Query::new()).unwrap();
    // Every kind of row, and the novelties of a spread of games (about 20:
    // the pass per game is the whole database's).
    let spread = (all.len() / 20).max(1);
    let mut kinds = HashSet::new();
    for (i, row) in all.iter().enumerate() {
        let kind = std::mem::discriminant(&row.departure);
        if kinds.insert(kind) || i % spread == 0 {
            assert_eq!(db.novelty_of(row.game), Some(*row), "{:?}", row.game);
        }
    }
    assert_eq!(kinds.len(), 4, "every kind among the fixtures and 2009:0");
    // A 10x10 game has none; a game that is not there neither.
    let ten = db
        .games()
        .find(|(_, _, g)| g.board_size() == BoardSize::Ten)
        .map(|(f, i, _)| GameId::new(f, i))
        .expect("the fixtures have 10x10 games");
    assert_eq!(db.novelty_of(ten), None);
    assert_eq!(db.novelty_of(GameId::new(0, 1_000_000)), None);
}

/// A fixture game by name.
fn fixture_game(db: &Database, name: &str) -> GameId {
    db.parse_game_id(name).unwrap()
}

/// The novelty move's value is that of a separate multi-PV search of the
/// position before it at the same settings; where exact, the exact
/// solver's too (the move's score and the position's best), so that a
/// best move loses 0 and another loses what the solver says.
#[test]
fn a_novelty_move_s_value_is_a_search_s() {
    use othello_core::midgame::{Engine, EngineOptions, Limits, MAX_DEPTH, Query, Selectivity};
    use othello_core::solver::{Solver, SolverOptions};
    use wthor_db::novelty::{VALUE_DEPTH, VALUE_EXACT_EMPTIES};
    let db =
        Database::open(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"))
            .unwrap();
    let mut solver = Solver::try_new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    })
    .unwrap();
    // An estimated novelty (move 4), an exact best move (2004:31, move 55),
    // an exact move that loses (2004:130, move 43).
    let mut losses = Vec::new();
    for name in ["2003:1", "2004:31", "2004:130"] {
        let id = fixture_game(&db, name);
        let n = db.novelty_of(id).unwrap();
        let Departure::Novelty { ply, .. } = n.departure else {
            panic!("{name}: a novelty")
        };
        let v = db.novelty_value(&n).unwrap().expect("a value");
        assert_eq!(db.novelty_value(&n).unwrap(), Some(v), "{name}: repeats");
        // The position before the move, the move and the board after it.
        let mut boards = vec![Board8::start()];
        let mut squares = Vec::new();
        replay_with::<Board8, _, _>(
            wthor_tokens::<Board8>(db.game(id).unwrap().moves_raw()),
            |s| {
                if let Move::Play(sq) = s.mv {
                    boards.push(s.board);
                    squares.push(sq);
                } else {
                    *boards.last_mut().unwrap() = s.board;
                }
            },
        );
        let (before, square, after) = (boards[ply - 1], squares[ply - 1], boards[ply]);
        let exact = before.empty_count() <= VALUE_EXACT_EMPTIES;
        let depth = if exact { MAX_DEPTH } else { VALUE_DEPTH };
        let mut engine = Engine::new(EngineOptions::default()).unwrap();
        let a = engine
            .analyze(
                before.player(),
                before.opponent(),
                Query::from(Limits::depth(depth))
                    .all_moves()
                    .selectivity(Selectivity::DEFAULT),
            )
            .unwrap();
        let discs = |x: f32| x.round() as i32;
        let best = a.moves.iter().map(|m| discs(m.value)).max().unwrap();
        let mine = a
            .moves
            .iter()
            .find(|m| usize::from(m.square) == square.index())
            .map(|m| discs(m.value))
            .unwrap();
        assert_eq!(v.value, Some(mine), "{name}");
        assert_eq!(v.loss, best - mine, "{name}");
        assert_eq!((v.exact, v.depth.is_none()), (exact, exact), "{name}");
        if exact {
            let score = solver.solve(before.player(), before.opponent()).score;
            let played = -solver.solve(after.player(), after.opponent()).score;
            assert_eq!((v.value, v.loss), (Some(played), score - played), "{name}");
        } else {
            assert_eq!(v.depth, Some(VALUE_DEPTH), "{name}");
        }
        losses.push(v.loss);
    }
    assert_eq!(losses[1], 0, "2004:31 plays a best move");
    assert!(losses[2] > 0, "2004:130 does not");
    // No novelty, no value: a game of the first year; a 10x10 game has no
    // novelty (and so no value).
    let first = db.novelty_of(fixture_game(&db, "2001:3")).unwrap();
    assert_eq!(first.departure, Departure::FirstYear);
    assert_eq!(db.novelty_value(&first).unwrap(), None);
    // A move past the end has none.
    assert_eq!(
        wthor_db::novelty::move_value(
            db.game(fixture_game(&db, "2003:1")).unwrap().moves_raw(),
            61
        )
        .unwrap(),
        None
    );
}
