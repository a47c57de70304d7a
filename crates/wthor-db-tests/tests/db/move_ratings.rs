//! The next moves' ratings (issue 39: the explorer's mover rating and
//! performance, `StatsOptions::ratings`) against a plain computation: at
//! early positions, where the position after each move is reached by that
//! line only, a row's games are those reaching the line and the move, its
//! mover the side whose turn it is by the count of discs; each game's
//! ratings read from the kept ratings, the performance solved by Newton's
//! method (the library bisects). And `SortKey::Rating`, the top games.

use othello_core::Size;
use wthor_db::index::IndexChoice;
use wthor_db::query::{PlayerKind, Position, SortKey};
use wthor_db::ratings::{PERFORMANCE_CAP, performance};
use wthor_db::stats::StatsOptions;
use wthor_db::{Database, GameId, Query};

fn fixtures(cache: &tempfile::TempDir) -> Database {
    Database::open(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata"))
        .unwrap()
        .with_ratings_file(cache.path().join("ratings.json"))
}

/// The games reaching the position after `line`.
fn reaching(db: &Database, line: &str, filters: &Query) -> Vec<GameId> {
    let q = filters
        .clone()
        .position(Position::after_transcript(line, Size::Eight).unwrap());
    db.searcher(IndexChoice::Never).search(&q).unwrap().value
}

/// The rating of a game's black (`true`) or white player in its year.
fn rating(db: &Database, id: GameId, black: bool) -> Option<f64> {
    let year = db.files()[id.file()].year();
    let name = if black { db.black(id) } else { db.white(id) };
    db.filter_ratings().named(name.name?)?.rating_in(year)
}

/// Newton's method on Σ σ(R − oᵢ) = S, from the mean opponent, within
/// the cap.
fn newton(opponents: &[f64], points: f64) -> f64 {
    let mean = opponents.iter().sum::<f64>() / opponents.len() as f64;
    let k = std::f64::consts::LN_10 / 400.0;
    let mut r = mean;
    for _ in 0..100 {
        let (mut f, mut df) = (-points, 0.0);
        for o in opponents {
            let e = 1.0 / (1.0 + (-(r - o) * k).exp());
            f += e;
            df += k * e * (1.0 - e);
        }
        r = (r - f / df).clamp(mean - PERFORMANCE_CAP, mean + PERFORMANCE_CAP);
    }
    r
}

#[test]
fn mover_ratings_and_performance_are_the_games() {
    let cache = tempfile::tempdir().unwrap();
    let db = fixtures(&cache);
    let edge = db.filter_ratings().black_advantage();
    let options = StatsOptions {
        next_moves: true,
        ratings: true,
        ..StatsOptions::default()
    };
    let mut checked = 0;
    for (line, filters) in [
        ("f5d6", Query::new()),
        ("f5d6c3", Query::new()),
        ("f5f6", Query::new().years(Some(2004), Some(2006))),
        ("f5d6c5f4", Query::new().kind(PlayerKind::Human)),
    ] {
        let q = filters
            .clone()
            .position(Position::after_transcript(line, Size::Eight).unwrap());
        let stats = db
            .searcher(IndexChoice::Never)
            .stats(&q, &options)
            .unwrap()
            .value;
        // Black moves after an even number of discs (no pass this early).
        let mover_black = (line.len() / 2) % 2 == 0;
        for m in &stats.next_moves.unwrap().moves {
            let name = m.square.name(Size::Eight).to_string();
            let games = reaching(&db, &format!("{line}{name}"), &filters);
            assert_eq!(games.len() as u64, m.results.games, "{line} {name}");
            let r = m.ratings.expect("asked");
            let movers: Vec<f64> = games
                .iter()
                .filter_map(|&id| rating(&db, id, mover_black))
                .collect();
            assert_eq!(r.movers_rated, movers.len() as u64, "{line} {name}");
            if movers.is_empty() {
                assert_eq!(r.mover_rating, None);
                continue;
            }
            let mean = movers.iter().sum::<f64>() / movers.len() as f64;
            assert!(
                (r.mover_rating.unwrap() - mean).abs() < 1e-6,
                "{line} {name}"
            );
            let (mut opponents, mut points) = (Vec::new(), 0.0);
            for &id in &games {
                let (Some(own), Some(other)) =
                    (rating(&db, id, mover_black), rating(&db, id, !mover_black))
                else {
                    continue;
                };
                let _ = own;
                let g = db.game(id).unwrap();
                let black_points = match g.real_score() {
                    s if s > 32 => 1.0,
                    32 => 0.5,
                    _ => 0.0,
                };
                points += if mover_black {
                    black_points
                } else {
                    1.0 - black_points
                };
                opponents.push(other - if mover_black { edge } else { -edge });
            }
            assert_eq!(r.rated_games, opponents.len() as u64, "{line} {name}");
            assert!((r.points - points).abs() < 1e-9, "{line} {name}");
            let want = newton(&opponents, points);
            let got = r.performance.unwrap();
            assert!(
                (got - want).abs() < 0.01,
                "{line} {name}: {got} against {want}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
}

#[test]
fn performance_is_the_rating_whose_expected_score_is_the_score() {
    // Equal opponents: the score's logit.
    let p = performance(&[1500.0; 4], 3.0).unwrap();
    let want = 1500.0 + 400.0 * (3.0f64).log10();
    assert!((p - want).abs() < 0.01, "{p} {want}");
    // The cap both ways; nothing without games.
    assert_eq!(performance(&[1400.0, 1600.0], 0.0), Some(700.0));
    assert_eq!(performance(&[1400.0, 1600.0], 2.0), Some(2300.0));
    assert_eq!(performance(&[], 0.0), None);
}

#[test]
fn without_the_option_no_ratings_and_10x10_rates_none() {
    let cache = tempfile::tempdir().unwrap();
    let db = fixtures(&cache);
    let q = Query::new().position(Position::after_transcript("f5d6", Size::Eight).unwrap());
    let plain = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let stats = db
        .searcher(IndexChoice::Never)
        .stats(&q, &plain)
        .unwrap()
        .value;
    assert!(
        stats
            .next_moves
            .unwrap()
            .moves
            .iter()
            .all(|m| m.ratings.is_none())
    );
    let ten = Query::new().position(Position::start(Size::Ten));
    let with = StatsOptions {
        ratings: true,
        ..plain
    };
    let stats = db
        .searcher(IndexChoice::Never)
        .stats(&ten, &with)
        .unwrap()
        .value;
    let moves = stats.next_moves.unwrap().moves;
    assert!(!moves.is_empty());
    for m in moves {
        let r = m.ratings.unwrap();
        assert_eq!(
            (r.movers_rated, r.mover_rating, r.performance),
            (0, None, None)
        );
    }
}

#[test]
fn the_top_games_are_sorted_by_the_mean_rating() {
    let cache = tempfile::tempdir().unwrap();
    let db = fixtures(&cache);
    let q = Query::new()
        .position(Position::after_transcript("f5d6c3", Size::Eight).unwrap())
        .sort(SortKey::Rating)
        .descending(true);
    let ids = db.searcher(IndexChoice::Never).search(&q).unwrap().value;
    let all = reaching(&db, "f5d6c3", &Query::new());
    assert_eq!(ids.len(), all.len());
    let mean = |id: GameId| Some((rating(&db, id, true)? + rating(&db, id, false)?) / 2.0);
    let means: Vec<Option<f64>> = ids.iter().map(|&id| mean(id)).collect();
    let rated = means.iter().take_while(|m| m.is_some()).count();
    assert!(rated > 100, "{rated}");
    // Rated first, highest first; the unrated after them.
    assert!(means[rated..].iter().all(Option::is_none));
    for pair in means[..rated].windows(2) {
        assert!(pair[0].unwrap() >= pair[1].unwrap() - 0.01, "{pair:?}");
    }
    assert_eq!("rating".parse::<SortKey>().unwrap(), SortKey::Rating);
}
