//! Statistics on the fixture database against a straightforward count
//! written here: totals, next moves in every orientation, player records,
//! openings; parallel equals sequential.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Move, Size, Square};
use wthor_db::index::IndexChoice;
use wthor_db::query::{Outcome, Position, SortKey};
use wthor_db::stats::{Results, Solved, StatsOptions};
use wthor_db::{Database, NamePattern, Query};
use wthor_format::{BoardSize, Game, Header, write_game_file};

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
        ratings: false,
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
            moves: g.moves_raw()[..g.move_count()].to_vec(),
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
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
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
        let par = scan.stats(&q, &options).unwrap().value;
        assert_eq!(par, seq.stats(&q, &options).unwrap().value, "{q:?}");
    }
}

#[test]
fn totals_players_and_openings_equal_a_plain_count() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let games = plain(&db);
    let stats = scan.stats(&Query::new(), &all_options()).unwrap().value;
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
    let scan = db.searcher(IndexChoice::Never);
    let q = Query::new().position(Position::Eight(position));
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let next = scan.stats(&q, &options).unwrap().value.next_moves.unwrap();
    let shares: f64 = next.moves.iter().map(|m| m.share).sum();
    assert!(next.moves.is_empty() || (shares - 1.0).abs() < 1e-9);
    next.moves.iter().map(|m| (m.square, m.results)).collect()
}

#[test]
fn next_moves_are_named_in_the_orientation_given() {
    let db = fixtures();
    let mut checked = 0;
    // Early positions of the 8x8 games, shared by several games: every
    // other distinct one (up to symmetry; 48 of 96), in all 8 orientations.
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
            if !seen.insert((c.player(), c.opponent())) || seen.len() % 2 == 0 {
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
    assert!(checked >= 40, "{checked} positions checked");
}

#[test]
fn equivalent_moves_of_a_symmetric_position_are_one_row() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let start = scan
        .stats(
            &Query::new().position(Position::Eight(Board8::start())),
            &StatsOptions {
                next_moves: true,
                ..StatsOptions::default()
            },
        )
        .unwrap()
        .value;
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
    let scan = db.searcher(IndexChoice::Never);
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
    let next = scan.stats(&q, &options).unwrap().value.next_moves.unwrap();
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
    let next = scan
        .stats(&early, &options)
        .unwrap()
        .value
        .next_moves
        .unwrap();
    assert_eq!(next.solved, Solved::TooManyEmpties(60));
}

#[test]
fn a_head_to_head_is_the_two_records_over_their_games() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let games = plain(&db);
    let (a, b) = (&games[0].black, &games[0].white);
    let q = Query::new().player(a).player(b).exact(true);
    let stats = scan
        .stats(
            &q,
            &StatsOptions {
                players: true,
                ..StatsOptions::default()
            },
        )
        .unwrap()
        .value;
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

/// A directory of one game file of `size` holding `games` (black's discs
/// and the moves), and the database open on it.
fn db_of(size: BoardSize, games: &[(u8, &[&str])]) -> (tempfile::TempDir, Database) {
    let games: Vec<Game> = games
        .iter()
        .map(|&(black, moves)| Game::from_squares(0, 1, 2, black, black, moves, size).unwrap())
        .collect();
    let header = Header {
        year: 2001,
        p1: if size == BoardSize::Ten { 10 } else { 8 },
        ..Header::default()
    };
    let mut bytes = Vec::new();
    write_game_file(&header, size, &games, &mut bytes).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let name = if size == BoardSize::Ten {
        "WTH_2001.wtd"
    } else {
        "WTH_2001.wtb"
    };
    std::fs::write(dir.path().join(name), &bytes).unwrap();
    let db = Database::open(dir.path()).unwrap();
    (dir, db)
}

/// The median of black's discs over games of these scores (8x8).
fn median(scores: &[u8]) -> Option<f64> {
    let games: Vec<(u8, &[&str])> = scores.iter().map(|&s| (s, &["f5"][..])).collect();
    let (_dir, db) = db_of(BoardSize::Eight, &games);
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    let s = scan
        .stats(&Query::new(), &StatsOptions::default())
        .unwrap()
        .value;
    assert_eq!(
        s,
        seq.stats(&Query::new(), &StatsOptions::default())
            .unwrap()
            .value
    );
    s.totals.median_black_discs
}

#[test]
fn median_of_a_histogram() {
    // The histograms [], [0, 0, 1], [1, 0, 0, 1], [2, 1, 0, 5]: games of
    // black's discs.
    assert_eq!(median(&[]), None);
    assert_eq!(median(&[2]), Some(2.0));
    assert_eq!(median(&[3, 0]), Some(1.5));
    assert_eq!(median(&[3, 0, 3, 1, 3, 3, 0, 3]), Some(3.0));
}

#[test]
fn openings_are_canonical_with_f5_first() {
    let stab = othello_core::symmetry::stabilizer(&Board8::start());
    assert_eq!(stab.len(), 4);
    let options = StatsOptions {
        openings: 2,
        ..StatsOptions::default()
    };
    // The four first moves and their answers are one opening, f5 d6; a game
    // of one move is shorter.
    let lines: [&[&str]; 5] = [
        &["f5", "d6"],
        &["c4", "e3"],
        &["d3", "c5"],
        &["e6", "f4"],
        &["f5"],
    ];
    let (_dir, db) = db_of(BoardSize::Eight, &lines.map(|m| (33, m)));
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    let s = scan.stats(&Query::new(), &options).unwrap().value;
    assert_eq!(s, seq.stats(&Query::new(), &options).unwrap().value);
    assert_eq!(s.openings.len(), 1);
    let f5d6 = &s.openings[0];
    assert_eq!(f5d6.results.games, 4);
    let sq = |name| Square::parse(name, Size::Eight).unwrap();
    assert_eq!(f5d6.moves, [sq("f5"), sq("d6")]);
    let indices: Vec<usize> = f5d6.moves.iter().map(|m| m.index()).collect();
    assert_eq!(indices, [37, 43]);
    assert_eq!(s.openings_shorter, 1);
    // 10x10: e4 is g6.
    let (_dir, db) = db_of(BoardSize::Ten, &[(50, &["e4"])]);
    let scan = db.searcher(IndexChoice::Never);
    let options = StatsOptions {
        openings: 1,
        ..StatsOptions::default()
    };
    let s = scan.stats(&Query::new(), &options).unwrap().value;
    assert_eq!(s.openings.len(), 1);
    assert_eq!(s.openings[0].size, Size::Ten);
    let g6: Vec<String> = s.openings[0]
        .moves
        .iter()
        .map(|m| m.name(Size::Ten).to_string())
        .collect();
    assert_eq!(g6, ["g6"]);
}

#[test]
fn openings_and_next_moves_carry_their_names() {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(&testdata).unwrap();
    let scan = db.searcher(IndexChoice::Never);
    let options = StatsOptions {
        openings: 5,
        next_moves: true,
        ..StatsOptions::default()
    };
    let after_f5 = Position::after_transcript("f5", Size::Eight).unwrap();
    let s = scan
        .stats(&Query::new().position(after_f5), &options)
        .unwrap()
        .value;
    let next = s.next_moves.unwrap();
    let named: Vec<(String, Option<&str>)> = next
        .moves
        .iter()
        .map(|m| (m.square.name(Size::Eight).to_string(), m.name.as_deref()))
        .collect();
    assert_eq!(named.len(), 3, "{named:?}");
    for (square, name) in named {
        let want = match square.as_str() {
            "d6" => "Perpendicular Opening",
            "f4" => "Parallel Opening",
            "f6" => "Diagonal Opening",
            other => panic!("{other}"),
        };
        assert_eq!(name, Some(want));
    }
    // The openings of 5 moves: as a game of those moves is named.
    let table = wthor_db::openings::table();
    let mut some = 0;
    for o in &s.openings {
        assert_eq!(o.size, Size::Eight);
        let moves: Vec<Move> = o.moves.iter().map(|&sq| Move::Play(sq)).collect();
        let want = table.opening_of_game(&moves).map(|o| o.name().to_owned());
        assert_eq!(o.name, want);
        some += usize::from(o.name.is_some());
    }
    assert!(some > 0);
    // 10x10: no names.
    let ten = Query::new().position(Position::after_transcript("g6", Size::Ten).unwrap());
    let s = scan.stats(&ten, &options).unwrap().value;
    assert!(s.next_moves.unwrap().moves.iter().all(|m| m.name.is_none()));
    assert!(s.openings.iter().all(|o| o.name.is_none()));
}

/// `add_legal_moves` on every position of games with a pass (2001:22)
/// and with empty squares at the end (2001:2): a row per class of legal
/// moves of the side that plays next (the position's symmetries), the
/// played rows as they were, the new ones without games, in the table's
/// order; and the rows that solving adds.
#[test]
fn added_legal_moves_cover_every_legal_move_once() {
    let db = fixtures();
    let scan = db.searcher(IndexChoice::Never);
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let mut passes = 0;
    for game in ["2001:22", "2001:2"] {
        let raw = db
            .game(db.parse_game_id(game).unwrap())
            .unwrap()
            .moves_raw()
            .to_vec();
        let plies = raw.iter().take_while(|&&b| b != 0).count();
        for ply in 0..=plies {
            let b = replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&raw[..ply]), |_| {}).board;
            let next_side = othello_core::position::forced_pass(&b).unwrap_or(b);
            passes += usize::from(next_side != b);
            let q = Query::new().position(Position::Eight(b));
            let before = scan.stats(&q, &options).unwrap().value.next_moves.unwrap();
            let mut after = before.clone();
            after.add_legal_moves();
            assert_eq!(
                after.moves[..before.moves.len()],
                before.moves[..],
                "{game} {ply}"
            );
            let added = &after.moves[before.moves.len()..];
            assert!(
                added
                    .iter()
                    .all(|m| m.results.games == 0 && m.share == 0.0 && m.exact.is_none())
            );
            let sizes: Vec<u64> = after.moves.iter().map(|m| m.results.games).collect();
            assert!(
                sizes.windows(2).all(|w| w[0] >= w[1]),
                "{game} {ply}: {sizes:?}"
            );
            let stab = othello_core::symmetry::stabilizer(&b);
            let legal = next_side.legal_moves();
            for sq in (0..64).filter(|i| legal >> i & 1 == 1) {
                let sq = Square::new_unchecked(sq);
                let rows = after
                    .moves
                    .iter()
                    .filter(|m| stab.iter().any(|s| s.square(sq, Size::Eight) == m.square))
                    .count();
                assert_eq!(rows, 1, "{game} {ply}: {}", sq.name(Size::Eight));
            }
            assert!(
                after
                    .moves
                    .iter()
                    .all(|m| legal >> m.square.index() & 1 == 1)
            );
            if b.empty_count() <= 16 && b.legal_moves() != 0 {
                let solve = StatsOptions {
                    solve: true,
                    ..options
                };
                let solved = scan.stats(&q, &solve).unwrap().value.next_moves.unwrap();
                let squares = |n: &wthor_db::stats::NextMoves| -> Vec<Square> {
                    n.moves.iter().map(|m| m.square).collect()
                };
                assert_eq!(squares(&solved), squares(&after), "{game} {ply}");
            }
        }
    }
    assert!(passes > 0, "a position where the side to move must pass");
}
