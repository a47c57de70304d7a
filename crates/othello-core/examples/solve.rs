//! Solves an 8x8 position exactly: the final disc difference for the side
//! to move with perfect play on both sides (empties to the winner), a best
//! move, and the exact score of every legal move.
//!
//! The position is an OBF text (64 squares `X` black, `O` white, `-` empty,
//! then the side to move) or the moves from the start (`f5d6c3…`); by
//! default FFO endgame #1 (14 empties, G8 wins by 18). Up to about 20
//! empties a solve takes well under a second; each empty square more
//! costs about twice the time, and the example refuses more than 30 (see
//! the `midgame` example for those).
//!
//! ```text
//! cargo run --example solve -p othello-core -- [POSITION]
//! cargo run --example solve -p othello-core -- "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
//! ```

use std::time::Instant;

use othello_core::position::AnyBoard;
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Size, Square};

/// FFO endgame #1, black to move.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

fn main() {
    if let Err(err) = run() {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args().nth(1).unwrap_or_else(|| FFO_1.to_owned());
    // Moves have digits, OBF none.
    let board = if text.contains(|c: char| c.is_ascii_digit()) {
        AnyBoard::after_transcript(&text, Size::Eight)?
    } else {
        AnyBoard::from_obf(&text)?
    };
    let Some(board) = board.as_eight() else {
        return Err("a 10x10 position: the exact solver is 8x8 only".into());
    };
    print!("{}", board.diagram());
    if board.empty_count() > 30 {
        return Err("more than 30 empties: too many to solve exactly".into());
    }

    let mut solver = Solver::new(SolverOptions::default());
    let start = Instant::now();
    let solution = solver.solve(board.player(), board.opponent());
    let name = |sq: u8| Square::new_unchecked(sq).name(Size::Eight).to_string();
    println!(
        "score {:+} for the side to move, best move {}, {} nodes, {:.3} s",
        solution.score,
        solution.best_move.map_or("(pass)".to_owned(), name),
        solution.nodes,
        start.elapsed().as_secs_f64()
    );
    // Every legal move's exact score, best first.
    let mut scores = solver.move_scores(board.player(), board.opponent());
    scores.sort_by_key(|&(_, score)| -score);
    let scores: Vec<String> = scores
        .into_iter()
        .map(|(sq, score)| format!("{} {score:+}", name(sq)))
        .collect();
    println!("moves: {}", scores.join(", "));
    Ok(())
}
