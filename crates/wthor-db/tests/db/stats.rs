//! Statistics on the fixture database against a straightforward count
//! written here: totals, next moves in every orientation, player records,
//! openings; parallel equals sequential.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Size, Square};
use wthor_db::query::{Outcome, Position, SortKey};
use wthor_db::stats::{Results, Solved, StatsOptions};
use wthor_db::{Database, NamePattern, Query};
use wthor_format::BoardSize;

fn fixtures() -> Database {
    Database::open(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata")).unwrap()
}

fn all_options() -> StatsOptions {
    StatsOptions {
        next_moves: true,
        solve: false,
        players: true,
        by_year: true,
        openings: 3,
    }
}

/// Black's discs and the board size of every game of the database, in
/// order, with the game's moves and year and players' names.
struct Plain {
    score: u8,
    theoretical: u8,
    size: BoardSize,
    moves: Vec<u8>,
    year: u16,
    black: String,
    white: String,
}

fn plain(db: &Database) -> Vec<Plain> {
    let mut out = Vec::new();
    for (f, i, g) in db.games() {
        let id = wthor_db::GameId::new(f, i);
        out.push(Plain {
            score: g.real_score(),
            theoretical: g.theoretical_score(),
            size: g.board_size(),
            moves: g
                .moves_raw()
                .iter()
                .copied()
                .take_while(|&b| b != 0)
                .collect(),
            year: db.files()[f].year(),
            black: db.black(id).to_string(),
            white: db.white(id).to_string(),
        });
    }
    out
}

fn half(size: BoardSize) -> u8 {
    if size == BoardSize::Ten { 50 } else { 32 }
}

#[test]
fn parallel_stats_equal_sequential() {
    let db = fixtures();
    let after = |t: &str| Position::after_transcript(t, Size::Eight).unwrap();
    for q in [
        Query::new(),
        Query::new().result(Outcome::Draw),
        Query::new().years(Some(2002), None),
        Query::new().position(after("f5d6")),
        Query::new().position(after("f5f6e6")),
        Query::new().player("e").sort(SortKey::Score).limit(7),
    ] {
        let options = all_options();
        let par = db.stats(&q, &options).unwrap();
        assert_eq!(par, db.stats_sequential(&q, &options).unwrap(), "{q:?}");
    }
}

#[test]
fn totals_players_and_openings_equal_a_plain_count() {
    let db = fixtures();
    let games = plain(&db);
    let stats = db.stats(&Query::new(), &all_options()).unwrap();
    // Totals.
    let t = &stats.totals.results;
    assert_eq!(t.games as usize, games.len());
    let wins = games.iter().filter(|g| g.score > half(g.size)).count();
    let draws = games.iter().filter(|g| g.score == half(g.size)).count();
    assert_eq!((t.black_wins as usize, t.draws as usize), (wins, draws));
    assert_eq!(t.black_losses as usize, games.len() - wins - draws);
    let sum: u64 = games.iter().map(|g| u64::from(g.score)).sum();
    assert_eq!(t.black_discs_sum, sum);
    let theoretical: u64 = games.iter().map(|g| u64::from(g.theoretical)).sum();
    assert_eq!(t.black_theoretical_sum, theoretical);
    assert_ne!(theoretical, sum, "the fixtures tell the two sums apart");
    let mut scores: Vec<u8> = games.iter().map(|g| g.score).collect();
    scores.sort_unstable();
    let n = scores.len();
    let median = (f64::from(scores[(n - 1) / 2]) + f64::from(scores[n / 2])) / 2.0;
    assert_eq!(stats.totals.median_black_discs, Some(median));

    // Player records: (games, wins, draws, losses, diff sum, first, last).
    type Tally = (u64, u64, u64, u64, i64, u16, u16);
    let mut records: BTreeMap<String, Tally> = BTreeMap::new();
    for g in &games {
        let total = i64::from(half(g.size)) * 2;
        let b = i64::from(g.score);
        for (name, diff) in [(&g.black, 2 * b - total), (&g.white, total - 2 * b)] {
            let r = records
                .entry(name.clone())
                .or_insert((0, 0, 0, 0, 0, u16::MAX, 0));
            r.0 += 1;
            if diff > 0 {
                r.1 += 1;
            } else if diff == 0 {
                r.2 += 1;
            } else {
                r.3 += 1;
            }
            r.4 += diff;
            r.5 = r.5.min(g.year);
            r.6 = r.6.max(g.year);
        }
    }
    assert_eq!(stats.players.len(), records.len());
    for p in &stats.players {
        let r = records[&p.name];
        let got = &p.record;
        assert_eq!(
            (
                got.games,
                got.wins,
                got.draws,
                got.losses,
                got.disc_difference_sum
            ),
            (r.0, r.1, r.2, r.3, r.4),
            "{}",
            p.name
        );
        assert_eq!((got.first_year, got.last_year), (r.5, r.6), "{}", p.name);
        let by_year: u64 = p.by_year.iter().map(|(_, r)| r.games).sum();
        assert_eq!(by_year, got.games);
    }
    assert!(
        stats
            .players
            .windows(2)
            .all(|w| w[0].record.games >= w[1].record.games)
    );

    // Openings of 3 moves: the 4 (or fewer) images under the symmetries of
    // the start, the one starting f5 (g6 on 10x10) kept.
    let mut openings: HashMap<Vec<String>, u64> = HashMap::new();
    let mut shorter = 0;
    for g in &games {
        let size = if g.size == BoardSize::Ten {
            Size::Ten
        } else {
            Size::Eight
        };
        if g.moves.len() < 3 {
            shorter += 1;
            continue;
        }
        let squares: Vec<Square> = g.moves[..3]
            .iter()
            .map(|&b| Square::from_wthor(b, size).unwrap())
            .collect();
        let first = if size == Size::Ten { "g6" } else { "f5" };
        let names: Vec<String> = Symmetry::ALL
            .iter()
            .map(|s| {
                squares
                    .iter()
                    .map(|&sq| s.square(sq, size).name(size).to_string())
                    .collect::<Vec<_>>()
            })
            .find(|n| n[0] == first)
            .unwrap();
        *openings.entry(names).or_default() += 1;
    }
    assert_eq!(stats.openings_shorter, shorter);
    assert_eq!(stats.openings.len(), openings.len());
    for o in &stats.openings {
        let names: Vec<String> = o
            .moves
            .iter()
            .map(|sq| sq.name(o.size).to_string())
            .collect();
        assert_eq!(o.results.games, openings[&names], "{names:?}");
    }
    // Shares within a board size: each size's shares sum to one.
    for size in [Size::Eight, Size::Ten] {
        let of_size: Vec<_> = stats.openings.iter().filter(|o| o.size == size).collect();
        assert!(!of_size.is_empty(), "the fixture has {size:?} games");
        let shares: f64 = of_size.iter().map(|o| o.share).sum();
        assert!((shares - 1.0).abs() < 1e-9, "{size:?}: {shares}");
    }
}

/// The next-move table of `position` counted plainly: every game replayed
/// to the position's ply, compared with each image; the next move mapped
/// back through the (unique) symmetry.
fn plain_next(db: &Database, position: &Board8) -> BTreeMap<Square, Results> {
    let ply = (position.player() | position.opponent()).count_ones() as usize - 4;
    let mut out: BTreeMap<Square, Results> = BTreeMap::new();
    for (_, _, g) in db.games() {
        if g.board_size() != BoardSize::Eight {
            continue;
        }
        let raw = g.moves_raw();
        let r = replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&raw[..ply]), |_| {});
        if r.moves != ply || r.illegal.is_some() {
            continue;
        }
        let Some(s) = Symmetry::ALL
            .into_iter()
            .find(|s| s.board(position) == r.board)
        else {
            continue;
        };
        let Some(next) = Square::from_wthor(raw[ply], Size::Eight) else {
            continue;
        };
        let mv = s.inverse().square(next, Size::Eight);
        let e = out.entry(mv).or_default();
        e.games += 1;
        let score = g.real_score();
        match Outcome::of_score(score, BoardSize::Eight) {
            Outcome::BlackWin => e.black_wins += 1,
            Outcome::Draw => e.draws += 1,
            Outcome::WhiteWin => e.black_losses += 1,
        }
        e.black_discs_sum += u64::from(score);
        e.black_theoretical_sum += u64::from(g.theoretical_score());
    }
    out
}

fn table(db: &Database, position: Board8) -> BTreeMap<Square, Results> {
    let q = Query::new().position(Position::Eight(position));
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let next = db.stats(&q, &options).unwrap().next_moves.unwrap();
    let shares: f64 = next.moves.iter().map(|m| m.share).sum();
    assert!(next.moves.is_empty() || (shares - 1.0).abs() < 1e-9);
    next.moves.iter().map(|m| (m.square, m.results)).collect()
}

#[test]
fn next_moves_are_named_in_the_orientation_given() {
    let db = fixtures();
    let mut checked = 0;
    // Early positions of the 8x8 games, shared by several games: each
    // distinct one (up to symmetry) once, in all 8 orientations.
    let mut seen = std::collections::HashSet::new();
    for (f, i, g) in db.games() {
        if g.board_size() != BoardSize::Eight {
            continue;
        }
        for ply in [3, 4, 6] {
            let b: Board8 =
                replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&g.moves_raw()[..ply]), |_| {})
                    .board;
            // Positions with a symmetry of their own merge equivalent moves;
            // the plain count below does not.
            if Symmetry::ALL[1..].iter().any(|s| s.board(&b) == b) {
                continue;
            }
            let (c, _) = othello_core::symmetry::canonical(&b);
            if !seen.insert((c.player(), c.opponent())) {
                continue;
            }
            let want = plain_next(&db, &b);
            assert!(!want.is_empty(), "game {f}:{i} after {ply}");
            for s in Symmetry::ALL {
                let got = table(&db, s.board(&b));
                let moved: BTreeMap<Square, Results> = want
                    .iter()
                    .map(|(&sq, &r)| (s.square(sq, Size::Eight), r))
                    .collect();
                assert_eq!(got, moved, "game {f}:{i} after {ply}, {s:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} positions checked");
}

#[test]
fn equivalent_moves_of_a_symmetric_position_are_one_row() {
    let db = fixtures();
    let start = db
        .stats(
            &Query::new().position(Position::Eight(Board8::start())),
            &StatsOptions {
                next_moves: true,
                ..StatsOptions::default()
            },
        )
        .unwrap();
    let next = start.next_moves.unwrap();
    let eight = db
        .games()
        .filter(|(_, _, g)| g.board_size() == BoardSize::Eight)
        .count() as u64;
    assert_eq!(next.reached, eight);
    assert_eq!(next.moves.len(), 1);
    assert_eq!(next.moves[0].square.name(Size::Eight).to_string(), "f5");
    assert_eq!(next.moves[0].results.games + next.ended, eight);
}

#[test]
fn solving_scores_every_legal_move() {
    let db = fixtures();
    // A position of a fixture game with 14 empties.
    let id = db.parse_game_id("2001:3").unwrap();
    let raw = db.game(id).unwrap().moves_raw();
    let r = replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&raw[..46]), |_| {});
    let b = r.board;
    assert!(b.empty_count() <= 24 && b.legal_moves() != 0);
    let options = StatsOptions {
        next_moves: true,
        solve: true,
        ..StatsOptions::default()
    };
    let q = Query::new().position(Position::Eight(b));
    let next = db.stats(&q, &options).unwrap().next_moves.unwrap();
    assert_eq!(next.solved, Solved::Yes);
    let mut solver = othello_core::solver::Solver::new(othello_core::solver::SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    let want = solver.move_scores(b.player(), b.opponent());
    assert_eq!(next.moves.len(), want.len());
    for (x, score) in want {
        let m = next
            .moves
            .iter()
            .find(|m| m.square.index() == usize::from(x))
            .unwrap();
        assert_eq!(m.exact, Some(score));
    }
    assert!(next.moves.iter().any(|m| m.results.games > 0));
    let early = Query::new().position(Position::Eight(Board8::start()));
    let next = db.stats(&early, &options).unwrap().next_moves.unwrap();
    assert_eq!(next.solved, Solved::TooManyEmpties(60));
}

#[test]
fn a_head_to_head_is_the_two_records_over_their_games() {
    let db = fixtures();
    let games = plain(&db);
    let (a, b) = (&games[0].black, &games[0].white);
    let q = Query::new().player(a).player(b).exact(true);
    let stats = db
        .stats(
            &q,
            &StatsOptions {
                players: true,
                ..StatsOptions::default()
            },
        )
        .unwrap();
    let ra = stats.records_of(&NamePattern::exact(a));
    let rb = stats.records_of(&NamePattern::exact(b));
    assert_eq!((ra.len(), rb.len()), (1, 1));
    let (ra, rb) = (ra[0].record, rb[0].record);
    let between = games
        .iter()
        .filter(|g| (&g.black == a && &g.white == b) || (&g.black == b && &g.white == a))
        .count() as u64;
    assert_eq!(ra.games, between);
    assert_eq!(rb.games, between);
    assert_eq!(
        (ra.wins, ra.draws, ra.losses),
        (rb.losses, rb.draws, rb.wins)
    );
    assert_eq!(ra.disc_difference_sum, -rb.disc_difference_sum);
}
