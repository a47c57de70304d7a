//! A board of either size, and the forced-pass rule.
//!
//! [`AnyBoard`] holds an 8x8 or a 10x10 board (side to move included): the
//! position a front end reads from OBF or from a transcript without
//! knowing its size in advance, as shakmaty's `VariantPosition` sits
//! beside its `Chess`. [`forced_pass`] is the one place of the rule that a
//! side without a move while the other has one passes: a query finds a
//! position there, an index stores it, a move played there is the other
//! side's.
//!
//! ```
//! use othello_core::position::AnyBoard;
//! use othello_core::{Size, Square};
//!
//! let board = AnyBoard::after_transcript("f5d6", Size::Eight)?;
//! let next = board.play(Square::parse("c3", Size::Eight).unwrap()).unwrap();
//! assert_eq!(next, AnyBoard::after_transcript("f5d6c3", Size::Eight)?);
//! assert_eq!(next.size(), Size::Eight);
//! assert_eq!(AnyBoard::from_obf(&next.to_obf())?, next);
//! # Ok::<(), othello_core::position::AnyBoardError>(())
//! ```

use crate::notation::{ObfError, TranscriptError, parse_transcript};
use crate::replay::{Token, replay_from_with};
use crate::{Board, Board8, Board10, IllegalReason, Move, Size, Square};

/// The board after the side to move passes, when it must: it has no move
/// and the other side has one (else `None`: it has a move, or the game is
/// over).
///
/// ```
/// use othello_core::position::forced_pass;
/// use othello_core::{Board, Board8};
///
/// assert_eq!(forced_pass(&Board8::start()), None);
/// // Black has no move here, white has c1.
/// let board = Board8::from_obf(&format!("OX{} X", "-".repeat(62))).unwrap();
/// assert_eq!(forced_pass(&board), Some(board.pass()));
/// ```
#[inline]
#[must_use]
pub fn forced_pass<B: Board>(board: &B) -> Option<B> {
    board.must_pass().then(|| board.pass())
}

/// A board of either size: 8x8 or 10x10, side to move included.
///
/// `wthor_db::query` re-exports it as `Position` (the position a query
/// looks for); the Python module's `Board` wraps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AnyBoard {
    /// An 8x8 board.
    Eight(Board8),
    /// A 10x10 board.
    Ten(Board10),
}

/// Why a board of either size could not be read: a malformed OBF text or
/// transcript, or a move of the transcript that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AnyBoardError {
    /// A malformed OBF text.
    #[error(transparent)]
    Obf(#[from] ObfError),
    /// A malformed transcript.
    #[error(transparent)]
    Transcript(#[from] TranscriptError),
    /// A move of the transcript that cannot be played.
    #[error("move {number} ({mv}) of the transcript is illegal: {reason}")]
    Illegal {
        /// Its number, from 1.
        number: usize,
        /// The move as written in lower case.
        mv: String,
        /// Why.
        reason: IllegalReason,
    },
}

impl From<Board8> for AnyBoard {
    fn from(b: Board8) -> AnyBoard {
        AnyBoard::Eight(b)
    }
}

impl From<Board10> for AnyBoard {
    fn from(b: Board10) -> AnyBoard {
        AnyBoard::Ten(b)
    }
}

impl AnyBoard {
    /// The start position of `size`, black to move.
    ///
    /// ```
    /// use othello_core::position::AnyBoard;
    /// use othello_core::{Board, Board10, Size};
    ///
    /// assert_eq!(AnyBoard::start(Size::Ten), AnyBoard::Ten(Board10::start()));
    /// ```
    #[must_use]
    pub fn start(size: Size) -> AnyBoard {
        match size {
            Size::Eight => AnyBoard::Eight(Board8::start()),
            Size::Ten => AnyBoard::Ten(Board10::start()),
        }
    }

    /// Reads an OBF position: 64 squares for 8x8, 100 for 10x10 (the size
    /// is told by the length of the first word).
    ///
    /// ```
    /// use othello_core::position::AnyBoard;
    /// use othello_core::Size;
    ///
    /// let text = format!("{}XO{} X", "-".repeat(44), "-".repeat(54));
    /// assert_eq!(AnyBoard::from_obf(&text)?.size(), Size::Ten);
    /// assert!(AnyBoard::from_obf("XO X").is_err());
    /// # Ok::<(), othello_core::position::AnyBoardError>(())
    /// ```
    ///
    /// # Errors
    /// [`AnyBoardError::Obf`] naming the character and what was expected.
    pub fn from_obf(text: &str) -> Result<AnyBoard, AnyBoardError> {
        let text = text.trim_start();
        let squares = text.chars().take_while(|c| !c.is_whitespace()).count();
        if squares == Size::Ten.squares() {
            Ok(AnyBoard::Ten(Board10::from_obf(text)?))
        } else {
            Ok(AnyBoard::Eight(Board8::from_obf(text)?))
        }
    }

    /// The position after a transcript from the start (passes inserted
    /// where forced).
    ///
    /// ```
    /// use othello_core::position::{AnyBoard, AnyBoardError};
    /// use othello_core::Size;
    ///
    /// let e = AnyBoard::after_transcript("f5f5", Size::Eight).unwrap_err();
    /// assert!(matches!(e, AnyBoardError::Illegal { number: 2, .. }));
    /// ```
    ///
    /// # Errors
    /// [`AnyBoardError::Transcript`] for a malformed transcript,
    /// [`AnyBoardError::Illegal`] for a move that cannot be played.
    pub fn after_transcript(text: &str, size: Size) -> Result<AnyBoard, AnyBoardError> {
        AnyBoard::start(size).then_play(text)
    }

    /// The position after a transcript played from this one (its side to
    /// move first, passes inserted where forced).
    ///
    /// ```
    /// use othello_core::position::AnyBoard;
    /// use othello_core::Size;
    ///
    /// let b = AnyBoard::after_transcript("f5", Size::Eight)?;
    /// assert_eq!(b.then_play("d6")?, AnyBoard::after_transcript("f5d6", Size::Eight)?);
    /// # Ok::<(), othello_core::position::AnyBoardError>(())
    /// ```
    ///
    /// # Errors
    /// As [`after_transcript`](AnyBoard::after_transcript).
    pub fn then_play(&self, text: &str) -> Result<AnyBoard, AnyBoardError> {
        let moves = parse_transcript(text, self.size())?;
        match self {
            AnyBoard::Eight(b) => Ok(AnyBoard::Eight(after_from(*b, &moves)?)),
            AnyBoard::Ten(b) => Ok(AnyBoard::Ten(after_from(*b, &moves)?)),
        }
    }

    /// The board after `sq` is played by the side that plays next: the
    /// side to move, or the other side when the side to move must pass
    /// ([`forced_pass`]).
    ///
    /// ```
    /// use othello_core::position::AnyBoard;
    /// use othello_core::{IllegalReason, Size, Square};
    ///
    /// // Black must pass; white plays c1.
    /// let board = AnyBoard::from_obf(&format!("OX{} X", "-".repeat(62)))?;
    /// let b1 = Square::parse("b1", Size::Eight).unwrap();
    /// let after = board.play(Square::parse("c1", Size::Eight).unwrap());
    /// assert_eq!(after.unwrap().to_obf(), format!("OOO{} X", "-".repeat(61)));
    /// assert_eq!(board.play(b1), Err(IllegalReason::Occupied));
    /// # Ok::<(), othello_core::position::AnyBoardError>(())
    /// ```
    ///
    /// # Errors
    /// Why `sq` is illegal for the side that plays next.
    pub fn play(&self, sq: Square) -> Result<AnyBoard, IllegalReason> {
        fn play<B: Board>(b: &B, sq: Square) -> Result<B, IllegalReason> {
            forced_pass(b)
                .unwrap_or(*b)
                .play(Move::Play(sq))
                .map_err(|e| e.reason)
        }
        match self {
            AnyBoard::Eight(b) => play(b, sq).map(AnyBoard::Eight),
            AnyBoard::Ten(b) => play(b, sq).map(AnyBoard::Ten),
        }
    }

    /// The board after the side to move passes, when it must
    /// ([`forced_pass`]).
    ///
    /// ```
    /// use othello_core::position::AnyBoard;
    /// use othello_core::Size;
    ///
    /// assert_eq!(AnyBoard::start(Size::Eight).forced_pass(), None);
    /// ```
    #[must_use]
    pub fn forced_pass(&self) -> Option<AnyBoard> {
        match self {
            AnyBoard::Eight(b) => forced_pass(b).map(AnyBoard::Eight),
            AnyBoard::Ten(b) => forced_pass(b).map(AnyBoard::Ten),
        }
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        match self {
            AnyBoard::Eight(_) => Size::Eight,
            AnyBoard::Ten(_) => Size::Ten,
        }
    }

    /// The 8x8 board, if it is one.
    #[must_use]
    pub fn as_eight(&self) -> Option<&Board8> {
        match self {
            AnyBoard::Eight(b) => Some(b),
            AnyBoard::Ten(_) => None,
        }
    }

    /// The OBF text of the position.
    #[must_use]
    pub fn to_obf(&self) -> String {
        match self {
            AnyBoard::Eight(b) => b.to_obf(),
            AnyBoard::Ten(b) => b.to_obf(),
        }
    }
}

fn after_from<B: Board>(start: B, moves: &[Move]) -> Result<B, AnyBoardError> {
    let r = replay_from_with(start, moves.iter().map(|&m| Token::Move(m)), |_| {});
    match r.illegal {
        None => Ok(r.board),
        Some(bad) => Err(AnyBoardError::Illegal {
            number: bad.index + 1,
            mv: moves[bad.index].name(B::SIZE).to_string(),
            reason: bad.reason,
        }),
    }
}
