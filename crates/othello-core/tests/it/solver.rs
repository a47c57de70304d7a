//! The exact solver against outside truth (the FFO endgame suite) and
//! against a plain search (negamax with alpha-beta) on an independent array board.

use std::collections::HashMap;

use othello_core::solver::{Solution, Solver, SolverOptions};

// ----- OBF lines --------------------------------------------------------

/// One FFO position: discs of the side to move and of its opponent, and the
/// published `(square, score)` list, best first.
struct Ffo {
    p: u64,
    o: u64,
    scores: Vec<(u8, i32)>,
}

/// Reads an OBF line (`64 squares, side, ; MOVE:+SCORE; …`). Test-only.
fn parse_obf(line: &str) -> Ffo {
    let (board, rest) = line.split_at(64);
    let (mut black, mut white) = (0u64, 0u64);
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'X' => black |= 1 << i,
            b'O' => white |= 1 << i,
            b'-' => {}
            _ => panic!("bad square {c} in {line}"),
        }
    }
    let mut items = rest.trim().split(';');
    let side = items.next().unwrap().trim();
    let (p, o) = match side {
        "X" => (black, white),
        "O" => (white, black),
        _ => panic!("bad side {side}"),
    };
    let scores = items
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let (mv, score) = item.split_once(':').unwrap();
            let b = mv.as_bytes();
            let sq = (b[0].to_ascii_lowercase() - b'a') + 8 * (b[1] - b'1');
            (sq, score.parse::<i32>().unwrap())
        })
        .collect();
    Ffo { p, o, scores }
}

/// FFO positions `first..=last` read from `$WTHOR_DATA/ffo`.
fn ffo(first: usize, last: usize) -> Vec<(usize, Ffo)> {
    let dir = crate::wthor_data().join("ffo");
    let mut out = Vec::new();
    for (name, start) in [
        ("fforum-1-19.obf", 1),
        ("fforum-20-39.obf", 20),
        ("fforum-40-59.obf", 40),
    ] {
        let text = std::fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.join(name).display()));
        let lines = text.lines().filter(|l| !l.trim().is_empty());
        for (i, line) in lines.enumerate() {
            let id = start + i;
            if (first..=last).contains(&id) {
                out.push((id, parse_obf(line)));
            }
        }
    }
    assert_eq!(out.len(), last - first + 1, "FFO #{first}..=#{last}");
    out
}

#[track_caller]
fn check_ffo(id: usize, pos: &Ffo, sol: &Solution) {
    let best = pos.scores[0].1;
    assert_eq!(sol.score, best, "FFO #{id}: score");
    let mv = sol.best_move.expect("a best move");
    assert!(
        pos.scores.iter().any(|&(x, s)| x == mv && s == best),
        "FFO #{id}: move {mv} is not among the best"
    );
}

/// Solves FFO #`first`..=#`last` but those in `skip` with one solver of
/// `threads` threads and checks each score and best move.
fn solve_ffo(first: usize, last: usize, threads: usize, skip: &[usize]) {
    let positions = ffo(first, last);
    let mut solver = Solver::new(SolverOptions {
        threads,
        tt_bits: 20,
    });
    for (id, pos) in positions.iter().filter(|(id, _)| !skip.contains(id)) {
        check_ffo(*id, pos, &solver.solve(pos.p, pos.o));
    }
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_1_to_19_scores_and_best_moves() {
    let positions = ffo(1, 19);
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 20,
    });
    for (id, pos) in &positions {
        let sol = solver.solve(pos.p, pos.o);
        check_ffo(*id, pos, &sol);
        assert!(sol.nodes > 0);
        // The win/draw/loss search agrees with the exact score.
        assert_eq!(
            solver.wld(pos.p, pos.o),
            sol.score.signum(),
            "FFO #{id}: wld"
        );
        // The audit's check of a stored score, with a fresh table.
        let mut fresh = Solver::new(SolverOptions {
            threads: 1,
            tt_bits: 20,
        });
        let g = sol.score;
        assert_eq!(fresh.solve_window(pos.p, pos.o, g - 1, g + 1), g);
        assert!(fresh.solve_window(pos.p, pos.o, g + 1, g + 3) <= g);
    }
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_1_to_19_in_parallel_equal_the_published_scores() {
    solve_ffo(1, 19, 2, &[]);
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_1_to_4_every_published_move_score() {
    let positions = ffo(1, 4);
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 20,
    });
    for (id, pos) in &positions {
        let mut published = pos.scores.clone();
        published.sort_unstable();
        assert_eq!(solver.move_scores(pos.p, pos.o), published, "FFO #{id}");
        let (score, best) = solver.best_moves(pos.p, pos.o);
        let expected: Vec<u8> = published
            .iter()
            .filter(|&&(_, s)| s == score)
            .map(|&(x, _)| x)
            .collect();
        assert_eq!(best, expected, "FFO #{id}: best moves");
    }
}

/// #20–#35 and #39 (15–26 empties) take a few seconds together; #36–#38
/// (21–24 empties, 3–20 s each) are left to the benchmark.
#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_20_to_35_and_39_scores_and_best_moves() {
    solve_ffo(20, 39, 1, &[36, 37, 38]);
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn ffo_20_to_29_in_parallel_equal_the_published_scores() {
    solve_ffo(20, 29, 2, &[]);
}

// ----- a plain array board and negamax ------------------------------------

/// A 10x10 array with a border: cell `(r + 1) * 10 + c + 1` holds square
/// `r * 8 + c`: 0 empty, 1 side to move, 2 opponent, 3 border.
#[derive(Clone)]
struct Mailbox([u8; 100]);

const DIRS: [i32; 8] = [-11, -10, -9, -1, 1, 9, 10, 11];

impl Mailbox {
    fn new(p: u64, o: u64) -> Self {
        let mut cells = [3u8; 100];
        for sq in 0..64 {
            let cell = (sq / 8 + 1) * 10 + sq % 8 + 1;
            cells[cell] = if p >> sq & 1 == 1 {
                1
            } else if o >> sq & 1 == 1 {
                2
            } else {
                0
            };
        }
        Mailbox(cells)
    }

    /// Plays on `cell` for side 1 if legal; returns whether it was.
    fn play(&mut self, cell: usize) -> bool {
        if self.0[cell] != 0 {
            return false;
        }
        let mut any = false;
        for d in DIRS {
            let mut c = cell as i32 + d;
            let mut run = 0;
            while self.0[c as usize] == 2 {
                c += d;
                run += 1;
            }
            if run > 0 && self.0[c as usize] == 1 {
                any = true;
                for k in 1..=run {
                    self.0[(cell as i32 + k * d) as usize] = 1;
                }
            }
        }
        if any {
            self.0[cell] = 1;
        }
        any
    }

    fn swap(&mut self) {
        for c in &mut self.0 {
            if *c == 1 || *c == 2 {
                *c = 3 - *c;
            }
        }
    }

    fn score(&self) -> i32 {
        let mine = self.0.iter().filter(|&&c| c == 1).count() as i32;
        let theirs = self.0.iter().filter(|&&c| c == 2).count() as i32;
        let empty = 64 - mine - theirs;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => mine - theirs + empty,
            std::cmp::Ordering::Less => mine - theirs - empty,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Every child position, side to move swapped, with the square played.
    fn children(&self) -> Vec<(u8, Mailbox)> {
        let mut out = Vec::new();
        for r in 0..8 {
            for c in 0..8 {
                let cell = (r + 1) * 10 + c + 1;
                if self.0[cell] != 0 {
                    continue;
                }
                let mut b = self.clone();
                if b.play(cell) {
                    b.swap();
                    out.push(((r * 8 + c) as u8, b));
                }
            }
        }
        out
    }

    /// The exact value for the side to move: negamax on the array board,
    /// searched by [`alpha_beta`](Mailbox::alpha_beta) over the full window.
    fn negamax(&self, passed: bool) -> i32 {
        self.alpha_beta(passed, -65, 65)
    }

    /// [`negamax`](Mailbox::negamax) with alpha-beta pruning: the exact
    /// value when it lies inside `(alpha, beta)`, a bound on the side it
    /// falls otherwise (a full window gives the exact value; the plain
    /// tree took seconds per 12-empty position).
    fn alpha_beta(&self, passed: bool, mut alpha: i32, beta: i32) -> i32 {
        let mut any = false;
        for r in 0..8 {
            for c in 0..8 {
                let cell = (r + 1) * 10 + c + 1;
                if self.0[cell] != 0 {
                    continue;
                }
                let mut b = self.clone();
                if b.play(cell) {
                    b.swap();
                    any = true;
                    let s = -b.alpha_beta(false, -beta, -alpha);
                    if s > alpha {
                        alpha = s;
                        if s >= beta {
                            return s;
                        }
                    }
                }
            }
        }
        if any {
            return alpha;
        }
        if passed {
            return self.score();
        }
        let mut b = self.clone();
        b.swap();
        -b.alpha_beta(true, -beta, -alpha)
    }
}

/// xorshift64.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A position reached by random moves from the start (passing when
/// needed), with about `empties` empty squares left, or an earlier finished
/// one; side to move owns `p`.
fn random_position(seed: &mut u64, empties: u32) -> (u64, u64) {
    let (mut p, mut o) = othello_core::bitboard8::START;
    let mut passes = 0;
    while (!(p | o)).count_ones() > empties && passes < 2 {
        let moves = othello_core::bitboard8::legal_moves(p, o);
        if moves == 0 {
            passes += 1;
        } else {
            passes = 0;
            let mut m = moves;
            for _ in 0..next(seed) % u64::from(moves.count_ones()) {
                m &= m - 1;
            }
            let sq = m.trailing_zeros() as usize;
            let f = othello_core::bitboard8::flips(p, o, sq);
            p |= f | (1 << sq);
            o &= !f;
        }
        (p, o) = (o, p);
    }
    (p, o)
}

#[test]
fn random_positions_equal_a_plain_search() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    let mut parallel = Solver::new(SolverOptions {
        threads: 2,
        tt_bits: 16,
    });
    let mut checked = 0;
    for i in 0..600 {
        // 0..=9 empties, with some at 10 to 13 (the array board's
        // alpha-beta takes about 0.1 s on 12 empties, 1 s on 13).
        let empties = match i {
            599 => 13,
            549 => 13,
            399 | 199 => 12,
            299 | 499 => 11,
            _ if i % 30 == 29 => 10,
            _ => (i % 10) as u32,
        };
        let (p, o) = random_position(&mut seed, empties);
        let board = Mailbox::new(p, o);
        let children = board.children();
        let mut expected: Vec<(u8, i32)> = children
            .iter()
            .map(|(x, b)| (*x, -b.negamax(false)))
            .collect();
        expected.sort_unstable();
        let truth = match expected.iter().map(|&(_, s)| s).max() {
            Some(best) => best,
            None => board.negamax(false),
        };
        let sol = solver.solve(p, o);
        assert_eq!(sol.score, truth, "position {i}: {p:#x} {o:#x}");
        assert_eq!(parallel.solve(p, o).score, truth, "parallel {i}");
        assert_eq!(solver.wld(p, o), truth.signum(), "wld {i}");
        // Fail-soft null windows bound the true score on the right side.
        for alpha in [truth - 3, truth - 1, truth, truth + 1] {
            let s = solver.solve_window(p, o, alpha, alpha + 1);
            if truth > alpha {
                assert!(s > alpha && s <= truth, "window {alpha}: {s} vs {truth}");
            } else {
                assert!(s <= alpha && s >= truth, "window {alpha}: {s} vs {truth}");
            }
        }
        // Every move's exact score, and the best move achieves the score.
        if i % 4 == 0 {
            assert_eq!(solver.move_scores(p, o), expected, "move scores {i}");
        }
        let winning: Vec<u8> = expected
            .iter()
            .filter(|&&(_, s)| s >= 0)
            .map(|&(x, _)| x)
            .collect();
        assert_eq!(solver.moves_at_least(p, o, 0), winning, "moves >= 0 {i}");
        match sol.best_move {
            None => assert!(expected.is_empty(), "no move but {expected:?}"),
            Some(mv) => assert!(expected.contains(&(mv, truth)), "best move {i}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 600);
}

#[test]
fn finished_and_passing_positions() {
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 8,
    });
    // A full board: 40 against 24.
    let p = 0x00ff_ffff_ffff_ffffu64 >> 8 | 0xff;
    let p = p & !0xff00; // 40 discs
    let o = !p;
    let sol = solver.solve(p, o);
    assert_eq!(sol.score, 2 * p.count_ones() as i32 - 64);
    assert_eq!(sol.best_move, None);
    // Both sides must pass with empties left: the winner gets them.
    let (p, o) = (0x0000_0000_0000_0007u64, 1u64 << 63);
    assert_eq!(solver.solve(p, o).score, 62);
    assert_eq!(solver.solve(o, p).score, -62);
    assert_eq!(solver.wld(o, p), -1);
    // Nothing on the board at all, and overlapping inputs: no panic.
    assert_eq!(solver.solve(0, 0).score, 0);
    assert_eq!(solver.solve(!0, !0).score, 64);
    // The side to move must pass: the score is still its own.
    let mut seed = 7u64;
    let mut found = 0;
    while found < 20 {
        let empties = 1 + (next(&mut seed) % 10) as u32;
        let (p, o) = random_position(&mut seed, empties);
        let passes = othello_core::bitboard8::legal_moves(p, o) == 0;
        if passes && othello_core::bitboard8::legal_moves(o, p) != 0 {
            let sol = solver.solve(p, o);
            assert_eq!(sol.best_move, None);
            assert_eq!(sol.score, Mailbox::new(p, o).negamax(false));
            assert!(solver.move_scores(p, o).is_empty());
            found += 1;
        }
    }
}

// ----- the generic solver, both sizes -----------------------------------

use othello_core::mailbox::{Mailbox8, Mailbox10};
use othello_core::solver::GenericSolver;
use othello_core::{Bitboard, Board, Board8, Board10, Color};

/// Plain negamax over any board, no pruning; the final score from
/// [`Board::wthor_score`]. Each position's value is remembered (the same
/// values, each position searched once).
fn board_negamax<B: Board>(b: &B) -> i32
where
    B::Bits: Into<u128>,
{
    fn go<B: Board>(b: &B, memo: &mut HashMap<(u128, u128, bool), i32>) -> i32
    where
        B::Bits: Into<u128>,
    {
        let key = (
            b.player().into(),
            b.opponent().into(),
            b.side_to_move() == Color::Black,
        );
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let moves = b.legal_moves();
        let v = if moves.is_empty() {
            let passed = b.pass();
            if passed.legal_moves().is_empty() {
                let (black, white) = b.wthor_score();
                let diff = black as i32 - white as i32;
                if b.side_to_move() == Color::Black {
                    diff
                } else {
                    -diff
                }
            } else {
                -go(&passed, memo)
            }
        } else {
            moves
                .squares()
                .map(|sq| -go(&b.play_unchecked(sq), memo))
                .max()
                .unwrap()
        };
        memo.insert(key, v);
        v
    }
    go(b, &mut HashMap::new())
}

/// A random game from the start stopped at `empties` empty squares (or
/// earlier when it ends).
fn random_board<B: Board>(seed: &mut u64, empties: u32) -> B {
    let mut b = B::start();
    while b.empty_count() > empties && !b.is_game_over() {
        let moves = b.legal_moves();
        if moves.is_empty() {
            b = b.pass();
            continue;
        }
        let k = next(seed) % u64::from(moves.count());
        let sq = moves.squares().nth(k as usize).unwrap();
        b = b.play_unchecked(sq);
    }
    b
}

#[test]
fn generic_solver_on_10x10_equals_negamax_on_the_mailbox_board() {
    let mut seed = 0x0123_4567_89ab_cdefu64;
    let mut solver = GenericSolver::<Board10>::new();
    for i in 0..300 {
        // One position at 10 empties: the mailbox negamax takes most of a
        // second there.
        let empties = match i {
            299 => 10,
            _ => (i % 10) as u32,
        };
        let b: Board10 = random_board(&mut seed, empties);
        let mailbox = Mailbox10::from_discs_unchecked(b.player(), b.opponent(), b.side_to_move());
        let expected: Vec<_> = mailbox
            .legal_moves()
            .squares()
            .map(|sq| (sq, -board_negamax(&mailbox.play_unchecked(sq))))
            .collect();
        let truth = match expected.iter().map(|e| e.1).max() {
            Some(best) => best,
            None => board_negamax(&mailbox),
        };
        let sol = solver.solve(&b);
        assert_eq!(sol.score, truth, "10x10 position {i}: {}", b.to_obf());
        match sol.best_move {
            None => assert!(expected.is_empty()),
            Some(mv) => assert!(expected.contains(&(mv, truth)), "best move {i}"),
        }
        if i % 5 == 0 {
            assert_eq!(solver.move_scores(&b), expected, "move scores {i}");
        }
        let winning: Vec<_> = expected.iter().filter(|e| e.1 >= 0).map(|e| e.0).collect();
        assert_eq!(solver.moves_at_least(&b, 0), winning, "moves >= 0 {i}");
    }
}

#[test]
fn generic_solver_on_8x8_equals_the_fast_solver() {
    let mut seed = 0xfeed_beef_u64;
    let mut generic = GenericSolver::<Board8>::new();
    let mut mailbox = GenericSolver::<Mailbox8>::new();
    let mut fast = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    });
    for i in 0..200 {
        let b: Board8 = random_board(&mut seed, (i % 15) as u32);
        let truth = fast.solve(b.player(), b.opponent()).score;
        assert_eq!(generic.solve(&b).score, truth, "8x8 position {i}");
        if i % 15 < 9 {
            let m = Mailbox8::from_discs_unchecked(b.player(), b.opponent(), b.side_to_move());
            assert_eq!(mailbox.solve(&m).score, truth, "mailbox position {i}");
        }
    }
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn generic_solver_solves_ffo_1_to_3() {
    let positions = ffo(1, 3);
    let mut solver = GenericSolver::<Board8>::new();
    for (id, pos) in &positions {
        let b = Board8::from_discs(pos.p, pos.o, Color::Black).unwrap();
        let sol = solver.solve(&b);
        let mv = sol.best_move.map(|m| m.index() as u8);
        check_ffo(
            *id,
            pos,
            &Solution {
                score: sol.score,
                best_move: mv,
                nodes: sol.nodes,
            },
        );
    }
}

/// The null-window walks of `solve` and `solve_window` against the plain
/// principal-variation search of `GenericSolver`, the best move checked by
/// solving the position after it, and windows around the score (a stored
/// score checked with `(g - 1, g + 1)`, as the audit does) fail-soft on the
/// right side, with a move reaching the score above the window's floor.
#[test]
fn solve_and_windows_equal_a_plain_search_at_13_to_16_empties() {
    let mut seed = 0x5151_1515_u64;
    let mut solver = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 18,
    });
    let mut other = Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 18,
    });
    let mut plain = GenericSolver::<Board8>::new();
    for i in 0..28 {
        let (p, o) = random_position(&mut seed, 13 + i % 4);
        let b = Board8::from_discs(p, o, Color::Black).unwrap();
        let truth = plain.solve(&b).score;
        let sol = solver.solve(p, o);
        assert_eq!(sol.score, truth, "position {i}");
        if let Some(mv) = sol.best_move {
            let f = othello_core::bitboard8::flips(p, o, usize::from(mv));
            assert_ne!(f, 0, "illegal best move {i}");
            let (np, no) = (o ^ f, p | f | (1 << mv));
            assert_eq!(-other.solve(np, no).score, truth, "best move {i}");
        }
        for (alpha, beta) in [
            (truth - 1, truth + 1),
            (truth - 3, truth - 1),
            (truth + 1, truth + 3),
            (truth - 9, truth + 5),
            (-64, 64),
            (truth, truth + 1),
            (truth - 1, truth),
        ] {
            let (s, mv) = other.solve_window_move(p, o, alpha, beta);
            assert_eq!(s, other.solve_window(p, o, alpha, beta));
            // Above alpha, a move reaching the score: the exact score
            // inside the window, at least the bound above it.
            let moves = othello_core::bitboard8::legal_moves(p, o);
            match mv {
                Some(mv) => {
                    assert!(s > alpha);
                    let f = othello_core::bitboard8::flips(p, o, usize::from(mv));
                    assert_ne!(f, 0, "illegal move {i}");
                    let child = -plain
                        .solve(&Board8::from_discs(o ^ f, p | f | (1 << mv), Color::White).unwrap())
                        .score;
                    if s < beta {
                        assert_eq!(child, truth, "({alpha}, {beta}) {i}");
                    } else {
                        assert!(child >= s, "({alpha}, {beta}) {i}");
                    }
                }
                None => assert!(s <= alpha || moves == 0, "({alpha}, {beta}) {i}: no move"),
            }
            if s <= alpha {
                assert!(truth <= s, "({alpha}, {beta}): {s} vs {truth}, {i}");
            } else if s >= beta {
                assert!(truth >= s, "({alpha}, {beta}): {s} vs {truth}, {i}");
            } else {
                assert_eq!(s, truth, "({alpha}, {beta}), {i}");
            }
            assert_eq!(s > alpha && s < beta, truth > alpha && truth < beta);
        }
    }
}

#[test]
fn a_table_size_out_of_range_is_an_error_from_try_new() {
    use othello_core::solver::{SolverError, TT_BITS};
    for bits in [0, 3, 33, 40, 64] {
        let options = SolverOptions {
            threads: 1,
            tt_bits: bits,
        };
        assert!(matches!(Solver::try_new(options), Err(SolverError::TableSize(b)) if b == bits));
    }
    for bits in [*TT_BITS.start(), 10] {
        let options = SolverOptions {
            threads: 1,
            tt_bits: bits,
        };
        assert!(Solver::try_new(options).is_ok());
    }
}
