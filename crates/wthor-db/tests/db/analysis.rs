//! The analysis of real games (`$WTHOR_DATA/wthor`): on 50 games drawn at
//! random (fixed seed), every exact value and the value of every move
//! played equal fresh solves with cold tables (the table the analysis of a
//! game shares changes the time, never the values) and the losses add up.
//! (The stored theoretical scores are audited by `validate --solve`.)

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Move};
use rayon::prelude::*;
use wthor_db::analysis::{AnalysisOptions, analyze_game};
use wthor_db::{Database, GameId, Query};
use wthor_format::BoardSize;

/// Exact from this many empties: shallow enough for a test (the files'
/// depths, 22 or 24, are not reached: no theoretical check is claimed).
const EMPTIES: u8 = 18;

fn cold() -> Solver {
    Solver::new(SolverOptions {
        threads: 1,
        tt_bits: 16,
    })
}

#[test]
fn fifty_real_games_have_the_values_of_cold_solves() {
    let Some(data) = crate::wthor_data() else {
        return;
    };
    let db = Database::open(data.join("wthor")).expect("the real database");
    let all: Vec<GameId> = db
        .search(&Query::new())
        .unwrap()
        .into_iter()
        .filter(|&id| db.game(id).unwrap().board_size() == BoardSize::Eight)
        .collect();
    assert!(all.len() > 100_000, "{} 8x8 games", all.len());
    let mut x: u64 = 0x5754_484f_5232_3032;
    let sample: Vec<GameId> = (0..50)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            all[(x % all.len() as u64) as usize]
        })
        .collect();
    let options = AnalysisOptions {
        empties: EMPTIES,
        estimate_depth: 2,
    };
    let judged: usize = sample
        .par_iter()
        .map(|&id| {
            let view = db.game(id).unwrap();
            let name = db.game_name(id).to_string();
            let depth = db.file_of(id).unwrap().header().depth();
            let mut shared = Solver::new(SolverOptions {
                threads: 1,
                tt_bits: 20,
            });
            let a = analyze_game(&view, depth, &options, &mut shared).unwrap();
            // The positions where a disc is played, replayed here.
            let mut before = Board8::start();
            let mut plays = Vec::new();
            let replay =
                replay_with::<Board8, _, _>(wthor_tokens::<Board8>(view.moves_raw()), |s| {
                    if let Move::Play(sq) = s.mv {
                        plays.push((before, sq, s.board));
                    }
                    before = s.board;
                });
            assert!(replay.illegal.is_none(), "{name}");
            assert_eq!(a.moves.len(), plays.len(), "{name}");
            let mut exact = 0;
            for (j, (board, sq, child)) in a.moves.iter().zip(&plays) {
                assert_eq!(j.square, *sq, "{name}");
                assert_eq!(j.loss, j.value - j.played, "{name} {j:?}");
                assert!(j.loss >= 0, "{name} {j:?}");
                assert_eq!(j.exact, u32::from(j.empties) <= u32::from(EMPTIES));
                if !j.exact {
                    continue;
                }
                exact += 1;
                let value = cold().solve(board.player(), board.opponent()).score;
                assert_eq!(j.value, value, "{name} {j:?}");
                // The position after the move, solved for the opponent
                // (who passes inside the solve when it must).
                let after = cold().solve(child.player(), child.opponent()).score;
                assert_eq!(j.played, -after, "{name} {j:?}");
                // A move that lost discs: the best move given reaches the value.
                if j.loss > 0 {
                    let [best] = j.best[..] else {
                        panic!("{name} {j:?}: one best move")
                    };
                    let reached = board.play_unchecked(best);
                    let score = -cold().solve(reached.player(), reached.opponent()).score;
                    assert_eq!(score, j.value, "{name} {j:?}");
                } else {
                    assert!(j.best.is_empty(), "{name} {j:?}");
                }
            }
            // Not deep enough for the stored score: no check claimed.
            assert!(depth > EMPTIES && a.theoretical.is_none(), "{name}");
            exact
        })
        .sum();
    assert!(judged > 50 * 10, "{judged} moves judged exactly");
}
