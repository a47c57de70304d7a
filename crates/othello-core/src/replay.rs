//! Replay of a recorded game from the start position, with implicit passes.
//!
//! WTHOR files store no passes: when the recorded move is not legal for the
//! side to move and that side has no legal move at all, it passes and the
//! move is tried for the other side. Replay stops at the first move that is
//! illegal even so, and reports it. A game that stops while moves remain is
//! *unfinished*: a status, not an error.
//!
//! ```
//! use othello_core::{Board8, Color, notation::parse_transcript, Size};
//! use othello_core::replay::{replay_moves, GameStatus};
//!
//! // The shortest game: 9 moves, black wipes white out.
//! let moves = parse_transcript("d3c3b3d2e1d6d7e3f4", Size::Eight).unwrap();
//! let r = replay_moves::<Board8>(&moves);
//! assert_eq!(r.illegal, None);
//! assert_eq!(r.status, GameStatus::Finished);
//! assert_eq!(r.discs(), (13, 0));
//! assert_eq!(r.score(), (64, 0)); // empties go to the winner
//!
//! // A WTHOR move list (0 ends it): f5 d6, then an occupied square.
//! let r = othello_core::replay::replay_wthor::<Board8>(&[56, 64, 56, 0]);
//! let bad = r.illegal.unwrap();
//! assert_eq!((bad.index, bad.reason.to_string().as_str()), (2, "square occupied"));
//! assert_eq!((r.moves, r.status), (2, GameStatus::Unfinished));
//! ```

use crate::{Bitboard, Board, Color, IllegalReason, Move, Size, Square};

/// One recorded move as read from a game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Token {
    /// A square or an explicit pass.
    Move(Move),
    /// A WTHOR move byte (or other code) that names no square of the board.
    OffBoard(u8),
}

/// Whether a replayed game reached its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Neither side can move in the final position.
    Finished,
    /// The record stops while a side can still move (or at an illegal move
    /// before the end).
    Unfinished,
}

/// The first illegal move of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct IllegalMove {
    /// Its 0-based index among the recorded moves (explicit passes counted,
    /// inserted ones not).
    pub index: usize,
    /// What was recorded.
    pub token: Token,
    /// Why it cannot be played.
    pub reason: IllegalReason,
}

impl IllegalMove {
    /// Its number as players count moves, from 1 (`index + 1`).
    #[must_use]
    pub fn number(&self) -> usize {
        self.index + 1
    }

    /// The move as every message names it: `move 8 (a1)` (numbered from
    /// 1; `pass`, or `byte 99` for a move byte off the board).
    ///
    /// ```
    /// use othello_core::{Board8, Size};
    /// use othello_core::notation::parse_transcript;
    /// use othello_core::replay::replay_moves;
    ///
    /// let moves = parse_transcript("f5d6c3d3c4f4f6a1", Size::Eight).unwrap();
    /// let bad = replay_moves::<Board8>(&moves).illegal.unwrap();
    /// assert_eq!(bad.describe(Size::Eight), "move 8 (a1)");
    /// ```
    #[must_use]
    pub fn describe(&self, size: Size) -> String {
        let what = match self.token {
            Token::Move(Move::Pass) => "pass".to_owned(),
            Token::Move(m) => m.name(size).to_string(),
            Token::OffBoard(byte) => format!("byte {byte}"),
        };
        format!("move {} ({what})", self.number())
    }

    /// The square of the move, if it names one.
    #[must_use]
    pub fn square(&self) -> Option<Square> {
        match self.token {
            Token::Move(m) => m.square(),
            Token::OffBoard(_) => None,
        }
    }
}

/// What happened at one step of a replay (see [`replay_with`]).
#[derive(Clone, Copy, Debug)]
pub struct Step<B> {
    /// The 0-based index of the recorded move this step belongs to.
    pub index: usize,
    /// The move made: a square, or a pass.
    pub mv: Move,
    /// Whether the pass was inserted by the replay (not recorded).
    pub inserted: bool,
    /// The position after the move.
    pub board: B,
}

/// The outcome of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay<B> {
    /// The final position: after the last legal move.
    pub board: B,
    /// The number of discs played.
    pub moves: usize,
    /// The number of passes, inserted or recorded.
    pub passes: usize,
    /// The first move that could not be played, if any; replay stops there.
    pub illegal: Option<IllegalMove>,
    /// Whether the final position ends the game.
    pub status: GameStatus,
}

impl<B: Board> Replay<B> {
    /// `(black, white)` discs of the final position.
    #[must_use]
    pub fn discs(&self) -> (u32, u32) {
        (
            self.board.count(Color::Black),
            self.board.count(Color::White),
        )
    }

    /// `(black, white)` under the WTHOR rule (empties to the winner, a draw
    /// splits them) applied to the final position; the real score of a
    /// finished game (see [`Board::wthor_score`]).
    #[must_use]
    pub fn score(&self) -> (u32, u32) {
        self.board.wthor_score()
    }

    /// Whether every recorded move was legal.
    #[must_use]
    pub fn is_legal(&self) -> bool {
        self.illegal.is_none()
    }
}

/// Replays WTHOR move bytes (8x8: `col + 10 * row`, 10x10: `col + 12 *
/// row`, from 1); a 0 byte or the end of the slice ends the game.
#[must_use]
pub fn replay_wthor<B: Board>(bytes: &[u8]) -> Replay<B> {
    replay_with(wthor_tokens::<B>(bytes), |_| {})
}

/// The tokens of WTHOR move bytes, up to the first 0.
pub fn wthor_tokens<B: Board>(bytes: &[u8]) -> impl Iterator<Item = Token> + '_ {
    bytes
        .iter()
        .take_while(|&&b| b != 0)
        .map(|&b| match Square::from_wthor(b, B::SIZE) {
            Some(sq) => Token::Move(Move::Play(sq)),
            None => Token::OffBoard(b),
        })
}

/// Replays moves (from a transcript: explicit passes allowed, missing forced
/// passes inserted).
#[must_use]
pub fn replay_moves<B: Board>(moves: &[Move]) -> Replay<B> {
    replay_with(moves.iter().map(|&m| Token::Move(m)), |_| {})
}

/// Replays `tokens` from the start position, calling `visit` after every
/// move and pass.
pub fn replay_with<B, I, F>(tokens: I, visit: F) -> Replay<B>
where
    B: Board,
    I: IntoIterator<Item = Token>,
    F: FnMut(&Step<B>),
{
    replay_from_with(B::start(), tokens, visit)
}

/// Replays `tokens` from `start` (any position, its side to move first),
/// calling `visit` after every move and pass: [`replay_with`] from
/// elsewhere than the start.
pub fn replay_from_with<B, I, F>(start: B, tokens: I, mut visit: F) -> Replay<B>
where
    B: Board,
    I: IntoIterator<Item = Token>,
    F: FnMut(&Step<B>),
{
    let mut b = start;
    let mut moves = 0;
    let mut passes = 0;
    let mut illegal = None;
    for (index, token) in tokens.into_iter().enumerate() {
        let fail = |reason| {
            Some(IllegalMove {
                index,
                token,
                reason,
            })
        };
        let sq = match token {
            Token::OffBoard(_) => {
                illegal = fail(IllegalReason::OffBoard);
                break;
            }
            Token::Move(Move::Pass) => match b.play(Move::Pass) {
                Ok(next) => {
                    b = next;
                    passes += 1;
                    visit(&Step {
                        index,
                        mv: Move::Pass,
                        inserted: false,
                        board: b,
                    });
                    continue;
                }
                Err(e) => {
                    illegal = fail(e.reason);
                    break;
                }
            },
            Token::Move(Move::Play(sq)) => sq,
        };
        if sq.index() >= B::SIZE.squares() {
            illegal = fail(IllegalReason::OffBoard);
            break;
        }
        let occupied = (b.player() | b.opponent()).has(sq);
        let flips = flips_unless(occupied, &b, sq);
        if !flips.is_empty() {
            b = b.play_with_flips_unchecked(sq, flips);
            moves += 1;
            visit(&Step {
                index,
                mv: Move::Play(sq),
                inserted: false,
                board: b,
            });
            continue;
        }
        // Not playable by the side to move: a pass is implied only when that
        // side has no move at all.
        if !b.legal_moves().is_empty() {
            illegal = fail(unplayable(occupied));
            break;
        }
        let passed = b.pass();
        if passed.legal_moves().is_empty() {
            illegal = fail(IllegalReason::GameOver);
            break;
        }
        let flips = flips_unless(occupied, &passed, sq);
        if flips.is_empty() {
            illegal = fail(unplayable(occupied));
            break;
        }
        passes += 1;
        visit(&Step {
            index,
            mv: Move::Pass,
            inserted: true,
            board: passed,
        });
        b = passed.play_with_flips_unchecked(sq, flips);
        moves += 1;
        visit(&Step {
            index,
            mv: Move::Play(sq),
            inserted: false,
            board: b,
        });
    }
    let status = if b.is_game_over() {
        GameStatus::Finished
    } else {
        GameStatus::Unfinished
    };
    Replay {
        board: b,
        moves,
        passes,
        illegal,
        status,
    }
}

/// The discs `sq` flips for the side to move of `b`: none when `occupied`.
#[inline]
fn flips_unless<B: Board>(occupied: bool, b: &B, sq: Square) -> B::Bits {
    if occupied {
        B::Bits::EMPTY
    } else {
        b.flips(sq)
    }
}

/// Why a move that flips nothing is illegal.
#[inline]
const fn unplayable(occupied: bool) -> IllegalReason {
    if occupied {
        IllegalReason::Occupied
    } else {
        IllegalReason::NoFlip
    }
}

/// Where a replay to a given depth got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach<B> {
    /// The first position with the wanted number of empty squares, after
    /// `moves` discs played.
    At {
        /// The position (side to move as in the game; it may have to pass).
        board: B,
        /// Discs played to get there.
        moves: usize,
    },
    /// The record ends (legally) before that depth.
    Ended {
        /// Discs played.
        moves: usize,
        /// Empty squares left.
        empties: u32,
        /// Whether the game is over (neither side can move); otherwise it
        /// stops while moves remain.
        finished: bool,
        /// Black's discs under the WTHOR rule (empties to the winner) at
        /// the end of the record.
        final_score: u32,
    },
    /// A move before that depth is illegal.
    Illegal {
        /// Its 0-based index among the recorded moves.
        index: usize,
    },
}

/// Replays WTHOR move bytes to the first position with `empties` empty
/// squares (the start position itself when it has that many).
///
/// ```
/// use othello_core::Board8;
/// use othello_core::replay::{Reach, replay_to_empties};
///
/// // A 9-move game (black wipes white out): it ends before 24 empties.
/// let moves = [34, 33, 32, 24, 15, 64, 74, 35, 46]; // d3 c3 b3 d2 e1 d6 d7 e3 f4
/// match replay_to_empties::<Board8>(&moves, 24) {
///     Reach::Ended { moves, finished, .. } => assert_eq!((moves, finished), (9, true)),
///     other => panic!("{other:?}"),
/// }
/// ```
#[must_use]
pub fn replay_to_empties<B: Board>(moves: &[u8], empties: u32) -> Reach<B> {
    let start = B::start();
    if start.empty_count() == empties {
        return Reach::At {
            board: start,
            moves: 0,
        };
    }
    let mut found = None;
    let mut played = 0;
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(moves), |step| {
        if matches!(step.mv, Move::Play(_)) {
            played += 1;
        }
        if found.is_none() && step.board.empty_count() == empties {
            found = Some((step.board, played));
        }
    });
    match (found, r.illegal) {
        (Some((board, moves)), _) => Reach::At { board, moves },
        (None, Some(bad)) => Reach::Illegal { index: bad.index },
        (None, None) => Reach::Ended {
            moves: r.moves,
            empties: r.board.empty_count(),
            finished: r.status == GameStatus::Finished,
            final_score: r.score().0,
        },
    }
}

/// Replays the first `n` recorded moves (passes the record implies are
/// inserted); `None` when the record holds fewer legal moves.
#[must_use]
pub fn replay_moves_prefix<B: Board>(moves: &[u8], n: usize) -> Option<B> {
    let limited = &moves[..n.min(moves.len())];
    let r = replay_with::<B, _, _>(wthor_tokens::<B>(limited), |_| {});
    (r.illegal.is_none() && wthor_tokens::<B>(limited).count() == n).then_some(r.board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_transcript;
    use crate::{Board8, Board10, Size};

    #[test]
    fn illegal_moves_are_reported_with_their_reason() {
        let r = replay_wthor::<Board8>(&[56, 99]);
        assert_eq!(r.illegal.unwrap().reason, IllegalReason::OffBoard);
        assert_eq!(r.illegal.unwrap().token, Token::OffBoard(99));
        let r = replay_wthor::<Board8>(&[11]);
        assert_eq!(r.illegal.unwrap().reason, IllegalReason::NoFlip);
        let moves = parse_transcript("f5 pa", Size::Eight).unwrap();
        let r = replay_moves::<Board8>(&moves);
        assert_eq!(r.illegal.unwrap().reason, IllegalReason::PassWithMoves);
        // After the 9-move wipe-out, any further move is after the end.
        let moves = parse_transcript("d3c3b3d2e1d6d7e3f4a1", Size::Eight).unwrap();
        let r = replay_moves::<Board8>(&moves);
        let bad = r.illegal.unwrap();
        assert_eq!((bad.index, bad.reason), (9, IllegalReason::GameOver));
        assert_eq!(r.status, GameStatus::Finished);
        let r =
            replay_wthor::<Board10>(&[Square::parse("g6", Size::Ten).unwrap().to_wthor(Size::Ten)]);
        assert!(r.is_legal());
        assert_eq!(r.moves, 1);
    }

    #[test]
    fn replay_stops_at_the_first_position_with_the_depth() {
        // f5 d6 c3 d3 c4: after 5 moves, 55 empties, white to move.
        let moves = [56, 64, 33, 34, 43];
        match replay_to_empties::<Board8>(&moves, 55) {
            Reach::At { board, moves } => {
                assert_eq!(moves, 5);
                assert_eq!(board.side_to_move(), Color::White);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            replay_to_empties::<Board8>(&moves, 60),
            Reach::At { moves: 0, .. }
        ));
        assert!(matches!(
            replay_to_empties::<Board8>(&moves, 50),
            Reach::Ended {
                moves: 5,
                finished: false,
                ..
            }
        ));
        assert!(matches!(
            replay_to_empties::<Board8>(&[56, 56], 50),
            Reach::Illegal { index: 1 }
        ));
        assert_eq!(
            replay_moves_prefix::<Board8>(&moves, 5),
            match replay_to_empties::<Board8>(&moves, 55) {
                Reach::At { board, .. } => Some(board),
                _ => None,
            }
        );
        assert_eq!(replay_moves_prefix::<Board8>(&moves, 6), None);
    }
}
