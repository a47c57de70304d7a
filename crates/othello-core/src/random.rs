//! Seeded random legal games, for tests, fuzzing and benchmarks: the same
//! seed gives the same game on every platform (xorshift64, a move drawn
//! uniformly among the legal ones in square order).
//!
//! ```
//! use othello_core::{Board8, Color, Move};
//!
//! let game = othello_core::random::game::<Board8>(7, 200);
//! assert_eq!(game, othello_core::random::game::<Board8>(7, 200));
//! assert_eq!(game[0].0, Color::Black);
//! assert!(game.len() >= 9 && game.len() <= 61 + 10);
//! assert!(matches!(game[0].1, Move::Play(_)));
//! ```

use crate::{Bitboard, Board, Color, Move};

/// A random legal game from the start position, drawn from `seed`: each
/// ply's colour and move (a pass where the side to move has none), until
/// the game ends or `max_plies` plies are played.
#[must_use]
pub fn game<B: Board>(seed: u64, max_plies: usize) -> Vec<(Color, Move)> {
    let mut board = B::start();
    let mut x = seed | 1;
    let mut out = Vec::new();
    for _ in 0..max_plies {
        let moves = board.legal_moves();
        let mv = if !moves.is_empty() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let squares: Vec<_> = moves.squares().collect();
            Move::Play(squares[(x % squares.len() as u64) as usize])
        } else if board.is_game_over() {
            break;
        } else {
            Move::Pass
        };
        out.push((board.side_to_move(), mv));
        board = match mv {
            Move::Play(sq) => board.play_unchecked(sq),
            Move::Pass => board.pass(),
        };
    }
    out
}
