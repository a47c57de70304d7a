//! The solution of a solitaire puzzle checked with the exact solver.

use std::time::Instant;

use othello_core::Color;
use othello_core::solver::Solver;
use serde::{Deserialize, Serialize};
use wthor_format::{Cell, PuzzleView};

use super::theory::{color_name, square_name};

/// A puzzle position: `(p, o, side)` with `p` the discs of the side to move.
///
/// # Errors
/// A message when the side-to-move byte is not 1 or 2 or a square holds
/// the unused code `01`.
pub fn puzzle_position(puzzle: &PuzzleView<'_>) -> Result<(u64, u64, Color), String> {
    let side = match puzzle.side_to_move() {
        1 => Color::Black,
        2 => Color::White,
        other => {
            return Err(format!(
                "side to move is {other}, expected 1 (black) or 2 (white)"
            ));
        }
    };
    let (mut black, mut white) = (0u64, 0u64);
    for (i, cell) in puzzle.position().iter().enumerate() {
        match cell {
            Cell::Black => black |= 1 << i,
            Cell::White => white |= 1 << i,
            Cell::Empty => {}
            Cell::Unused => {
                return Err(format!(
                    "square {} holds the unused code 01",
                    square_name(i as u8)
                ));
            }
        }
    }
    Ok(match side {
        Color::Black => (black, white, side),
        Color::White => (white, black, side),
    })
}

/// The check of one solitaire puzzle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleCheck {
    /// Whether everything holds.
    pub ok: bool,
    /// What does not hold, one sentence each.
    pub problems: Vec<String>,
    /// The empty squares of the board.
    pub empties: u32,
    /// The stored empties count.
    pub stored_empties: u8,
    /// The side to move (`"black"`/`"white"`), when valid.
    pub side: Option<String>,
    /// The stored solution score (disc difference for the side to move).
    pub stored_score: i8,
    /// The stored first move (e.g. `"g8"`), or the raw byte when it names no square.
    pub stored_move: String,
    /// The exact score, when solved.
    pub score: Option<i32>,
    /// The moves reaching the threshold (win, or draw when the best is a
    /// draw), when solved.
    pub solutions: Vec<String>,
    /// When the stored score is not the solver's: whether it has the same
    /// sign and a smaller size by at most the empties (as if the empty
    /// squares left at the end were not given to the winner).
    pub empties_uncounted: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// Verifies a solitaire: a valid position, the stored empties count, the
/// stored score and first move against the solver, and the defining
/// property: exactly one move wins (or, when the best is a draw, exactly
/// one move draws).
pub fn check_puzzle(puzzle: &PuzzleView<'_>, solver: &mut Solver) -> PuzzleCheck {
    let t = Instant::now();
    let stored_move = match puzzle.first_move() {
        Some(sq) => sq.to_string(),
        None => format!("byte {}", puzzle.first_move_raw()),
    };
    let mut check = PuzzleCheck {
        ok: false,
        problems: Vec::new(),
        empties: 0,
        stored_empties: puzzle.empties(),
        side: None,
        stored_score: puzzle.score(),
        stored_move: stored_move.clone(),
        score: None,
        solutions: Vec::new(),
        empties_uncounted: false,
        nodes: 0,
        seconds: 0.0,
    };
    if puzzle.first_move().is_none() {
        check.problems.push(format!(
            "stored first move is {stored_move}, which names no square"
        ));
    }
    let (p, o, side) = match puzzle_position(puzzle) {
        Ok(pos) => pos,
        Err(e) => {
            check.problems.push(e);
            return check;
        }
    };
    check.side = Some(color_name(side));
    check.empties = (!(p | o)).count_ones();
    if check.empties != u32::from(puzzle.empties()) {
        check.problems.push(format!(
            "stored empties {} but the board has {}",
            puzzle.empties(),
            check.empties
        ));
    }
    let nodes0 = solver.nodes();
    let s = solver.solve(p, o);
    check.score = Some(s.score);
    let stored = i32::from(puzzle.score());
    if s.score != stored {
        // Same winner, fewer discs, by at most the empties: the stored value
        // looks like a disc count that leaves the empties out.
        check.empties_uncounted = stored.signum() == s.score.signum()
            && stored.abs() < s.score.abs()
            && s.score.abs() - stored.abs() <= check.empties as i32;
        check.problems.push(format!(
            "stored score {stored:+} but the solver finds {:+} (empties to the winner){}",
            s.score,
            if check.empties_uncounted {
                "; the stored value fits a count without the empties"
            } else {
                ""
            }
        ));
    }
    if s.best_move.is_none() {
        check
            .problems
            .push("the side to move has no legal move".into());
    } else if s.score < 0 {
        check
            .problems
            .push(format!("no move wins or draws (best {:+})", s.score));
    } else {
        let bound = if s.score > 0 { 1 } else { 0 };
        let good = solver.moves_at_least(p, o, bound);
        check.solutions = good.iter().map(|&x| square_name(x)).collect();
        let what = if bound > 0 { "winning" } else { "drawing" };
        if good.len() != 1 {
            check.problems.push(format!(
                "{} {what} moves ({}), expected exactly one",
                good.len(),
                check.solutions.join(" ")
            ));
        }
        // (A byte naming no square is said once, above.)
        if puzzle.first_move().is_some() && !check.solutions.contains(&stored_move) {
            check.problems.push(format!(
                "stored first move {stored_move} is not a {what} move"
            ));
        }
    }
    check.nodes = solver.nodes() - nodes0;
    check.seconds = t.elapsed().as_secs_f64();
    check.ok = check.problems.is_empty();
    check
}
