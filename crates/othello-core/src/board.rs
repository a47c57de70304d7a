//! The [`Board`] trait and its bitboard implementations [`Board8`] and
//! [`Board10`].
//!
//! A board holds the discs of the side to move ("player") and of the other
//! side ("opponent"), and the colour of the side to move. Boards are small
//! `Copy` values: playing a move returns a new board. Everything written
//! against the trait (replay, perft, symmetries, the solver) works for both
//! sizes, and for the plain-array reference boards of [`mailbox`](crate::mailbox).

use core::fmt::{self, Debug};
use core::hash::Hash;

use crate::notation::{self, ObfError};
use crate::{Bitboard, Color, Move, Size, Square, bitboard8, bitboard10};

/// An Othello position: the discs of both sides and the side to move.
///
/// Required methods are the few primitives a representation provides; the
/// rest is written once on top of them. Methods marked `unchecked` trust
/// their caller (for hot loops); the others check and return errors.
///
/// ```
/// use othello_core::{Bitboard, Board, Board8, Color, Move, Square, Size};
///
/// let board = Board8::start();
/// assert_eq!(board.side_to_move(), Color::Black);
/// assert_eq!(board.legal_moves().count(), 4);
/// let f5 = Square::parse("f5", Size::Eight).unwrap();
/// let next = board.play(Move::Play(f5)).unwrap();
/// assert_eq!(next.side_to_move(), Color::White);
/// assert_eq!((next.count(Color::Black), next.count(Color::White)), (4, 1));
/// // a1 is empty but flips nothing: the error hands back the board.
/// let a1 = Square::parse("a1", Size::Eight).unwrap();
/// let err = next.play(Move::Play(a1)).unwrap_err();
/// assert_eq!(err.board, next);
/// ```
pub trait Board: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The set-of-squares type: `u64` on 8x8, `u128` on 10x10.
    type Bits: Bitboard;

    /// The size of the board.
    const SIZE: Size;

    /// The start position, black to move: on 8x8 d4/e5 white and d5/e4
    /// black; on 10x10 e5/f6 white and e6/f5 black.
    fn start() -> Self;

    /// A board from the discs of the side to move, of its opponent, and the
    /// colour of the side to move, unchecked: the two sets must be disjoint
    /// and hold no bit beyond the board.
    fn from_discs_unchecked(player: Self::Bits, opponent: Self::Bits, side: Color) -> Self;

    /// The discs of the side to move.
    fn player(&self) -> Self::Bits;

    /// The discs of the side not to move.
    fn opponent(&self) -> Self::Bits;

    /// The colour of the side to move.
    fn side_to_move(&self) -> Color;

    /// The legal moves of the side to move (empty when it must pass or the
    /// game is over).
    fn legal_moves(&self) -> Self::Bits;

    /// The opponent discs flipped by the side to move playing on `sq`: empty
    /// when the move is not legal.
    ///
    /// `sq` must be an empty square of the board (an occupied one gives a
    /// meaningless set, a square beyond the board may panic).
    fn flips(&self, sq: Square) -> Self::Bits;

    /// The board after the side to move plays `sq` flipping `flips` (as
    /// returned by [`flips`](Board::flips), non-empty): unchecked.
    fn play_with_flips_unchecked(&self, sq: Square, flips: Self::Bits) -> Self;

    /// The board with the other side to move and the discs unchanged.
    fn pass(&self) -> Self;

    /// A board from its discs, checked: the sets must be disjoint and on
    /// the board.
    ///
    /// # Errors
    /// [`PositionError`] naming the first square in both sets or the lowest
    /// bit beyond the board.
    fn from_discs(
        player: Self::Bits,
        opponent: Self::Bits,
        side: Color,
    ) -> Result<Self, PositionError> {
        if let Some(sq) = (player & opponent).first() {
            return Err(PositionError::Overlap(sq));
        }
        let all = player | opponent;
        if let Some(bit) = all.squares().find(|s| s.index() >= Self::SIZE.squares()) {
            return Err(PositionError::OffBoard(bit.index()));
        }
        Ok(Self::from_discs_unchecked(player, opponent, side))
    }

    /// A board from black's and white's discs and the side to move,
    /// checked like [`from_discs`](Board::from_discs).
    ///
    /// # Errors
    /// As [`from_discs`](Board::from_discs).
    fn from_colors(
        black: Self::Bits,
        white: Self::Bits,
        side: Color,
    ) -> Result<Self, PositionError> {
        match side {
            Color::Black => Self::from_discs(black, white, side),
            Color::White => Self::from_discs(white, black, side),
        }
    }

    /// The discs of `color`.
    #[inline]
    fn discs(&self, color: Color) -> Self::Bits {
        if color == self.side_to_move() {
            self.player()
        } else {
            self.opponent()
        }
    }

    /// The board with these colours on its squares (in square order, as
    /// [`Board::cells`] gives them; squares past the board or the list's
    /// end are empty) and `side` to move.
    ///
    /// # Errors
    /// As [`Board::from_colors`].
    fn from_cells(cells: &[Option<Color>], side: Color) -> Result<Self, PositionError> {
        let mut black = Self::Bits::default();
        let mut white = Self::Bits::default();
        for (i, c) in cells.iter().enumerate().take(Self::SIZE.squares()) {
            let bit = Self::Bits::single(Square::new_unchecked(i as u8));
            match c {
                Some(Color::Black) => black |= bit,
                Some(Color::White) => white |= bit,
                None => {}
            }
        }
        Self::from_colors(black, white, side)
    }

    /// The colour on every square, in square order (a1, b1, …; `None` for
    /// an empty square): what drawings and position lines are made of.
    fn cells(&self) -> Vec<Option<Color>> {
        let black = self.discs(Color::Black);
        let white = self.discs(Color::White);
        (0..Self::SIZE.squares())
            .map(|i| {
                let sq = Square::new_unchecked(i as u8);
                if black.has(sq) {
                    Some(Color::Black)
                } else if white.has(sq) {
                    Some(Color::White)
                } else {
                    None
                }
            })
            .collect()
    }

    /// The number of discs of `color`.
    #[inline]
    fn count(&self, color: Color) -> u32 {
        self.discs(color).count()
    }

    /// The empty squares.
    #[inline]
    fn empties(&self) -> Self::Bits {
        Self::Bits::low_bits(Self::SIZE.squares() as u32) & !(self.player() | self.opponent())
    }

    /// The number of empty squares.
    #[inline]
    fn empty_count(&self) -> u32 {
        Self::SIZE.squares() as u32 - (self.player() | self.opponent()).count()
    }

    /// Whether the side to move has no move but its opponent has one.
    #[inline]
    fn must_pass(&self) -> bool {
        self.legal_moves().is_empty() && !self.pass().legal_moves().is_empty()
    }

    /// Whether neither side can move.
    #[inline]
    fn is_game_over(&self) -> bool {
        self.legal_moves().is_empty() && self.pass().legal_moves().is_empty()
    }

    /// The board after the side to move plays `sq`, unchecked: `sq` must be
    /// a legal move.
    #[inline]
    fn play_unchecked(&self, sq: Square) -> Self {
        self.play_with_flips_unchecked(sq, self.flips(sq))
    }

    /// The board after `mv`, checked.
    ///
    /// # Errors
    /// [`PlayError`], which hands back the unchanged board and says why the
    /// move is illegal.
    fn play(&self, mv: Move) -> Result<Self, PlayError<Self>> {
        let err = |reason| {
            Err(PlayError {
                board: *self,
                mv,
                reason,
            })
        };
        match mv {
            Move::Pass => {
                if !self.legal_moves().is_empty() {
                    err(IllegalReason::PassWithMoves)
                } else if self.is_game_over() {
                    err(IllegalReason::GameOver)
                } else {
                    Ok(self.pass())
                }
            }
            Move::Play(sq) => {
                if sq.index() >= Self::SIZE.squares() {
                    return err(IllegalReason::OffBoard);
                }
                if self.is_game_over() {
                    return err(IllegalReason::GameOver);
                }
                if (self.player() | self.opponent()).has(sq) {
                    return err(IllegalReason::Occupied);
                }
                let f = self.flips(sq);
                if f.is_empty() {
                    return err(IllegalReason::NoFlip);
                }
                Ok(self.play_with_flips_unchecked(sq, f))
            }
        }
    }

    /// The legal moves as [`Move`]s: the squares, or a single pass when the
    /// side to move must pass, or nothing when the game is over.
    fn moves(&self) -> MoveList<Self::Bits> {
        let moves = self.legal_moves();
        MoveList {
            squares: moves,
            pass: moves.is_empty() && !self.pass().legal_moves().is_empty(),
        }
    }

    /// The final score `(black, white)` under the WTHOR rule: the empty
    /// squares go to the winner, a draw splits them. Meaningful once the
    /// game is over; on a position where moves remain it is the score the
    /// rule would give if the game stopped here.
    ///
    /// ```
    /// use othello_core::{Board, Board8, Color};
    ///
    /// // 40 black discs, 20 white, 4 empties: black wins 44-20.
    /// let black: u64 = (1 << 40) - 1;
    /// let white: u64 = ((1 << 60) - 1) & !black;
    /// let end = Board8::from_colors(black, white, Color::White).unwrap();
    /// assert_eq!(end.wthor_score(), (44, 20));
    /// ```
    fn wthor_score(&self) -> (u32, u32) {
        let b = self.count(Color::Black);
        let w = self.count(Color::White);
        let e = self.empty_count();
        match b.cmp(&w) {
            core::cmp::Ordering::Greater => (b + e, w),
            core::cmp::Ordering::Less => (b, w + e),
            core::cmp::Ordering::Equal => (b + e / 2, w + e - e / 2),
        }
    }

    /// The OBF text of the board: one character per square in bit order
    /// (`a1`, `b1`, …; `X` black, `O` white, `-` empty), a space, and the
    /// side to move (`X` or `O`). 64 squares on 8x8, 100 on 10x10.
    fn to_obf(&self) -> String {
        notation::to_obf(self)
    }

    /// Parses an OBF position (64 or 100 squares, see
    /// [`to_obf`](Board::to_obf)). Also accepted: `x`/`*` for black, `o`
    /// for white, `.` for empty; anything after the side to move that
    /// starts with a space or `;` (FFO solutions) is ignored.
    ///
    /// # Errors
    /// [`ObfError`] with the character position where the text went wrong.
    fn from_obf(text: &str) -> Result<Self, ObfError> {
        notation::from_obf(text)
    }

    /// An ASCII diagram of the board (see [`Diagram`]).
    fn diagram(&self) -> Diagram<Self> {
        Diagram(*self)
    }
}

/// The legal moves of a position as [`Move`]s (see [`Board::moves`]).
#[derive(Clone, Copy, Debug)]
pub struct MoveList<B> {
    squares: B,
    pass: bool,
}

impl<B: Bitboard> Iterator for MoveList<B> {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if self.pass {
            self.pass = false;
            return Some(Move::Pass);
        }
        let sq = self.squares.first()?;
        self.squares = self.squares.without_first();
        Some(Move::Play(sq))
    }
}

/// Why a move is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IllegalReason {
    /// The square is not on the board.
    OffBoard,
    /// The square already holds a disc.
    Occupied,
    /// The move would flip no disc.
    NoFlip,
    /// A pass while the side to move has a legal move.
    PassWithMoves,
    /// Neither side can move: the game has ended.
    GameOver,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalReason::OffBoard => "off the board",
            IllegalReason::Occupied => "square occupied",
            IllegalReason::NoFlip => "flips no disc",
            IllegalReason::PassWithMoves => "pass while a move is legal",
            IllegalReason::GameOver => "move after the game ended",
        })
    }
}

/// An illegal move: the unchanged board, the move, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayError<B> {
    /// The board the move was tried on, unchanged.
    pub board: B,
    /// The move tried.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

impl<B: Board> fmt::Display for PlayError<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {}: {}", self.mv.name(B::SIZE), self.reason)
    }
}

impl<B: Board> std::error::Error for PlayError<B> {}

/// Why a pair of disc sets is not a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionError {
    /// A square holds discs of both sides.
    #[error("square {0:?} holds discs of both sides")]
    Overlap(Square),
    /// A bit beyond the board is set.
    #[error("bit {0} is beyond the board")]
    OffBoard(usize),
}

/// An ASCII diagram of a board, rows from 1 (top) to the last, `X` black,
/// `O` white, `.` empty, then the side to move and the disc counts.
///
/// ```
/// use othello_core::{Board, Board8};
///
/// let text = Board8::start().diagram().to_string();
/// assert_eq!(text, "  a b c d e f g h
/// 1 . . . . . . . .
/// 2 . . . . . . . .
/// 3 . . . . . . . .
/// 4 . . . O X . . .
/// 5 . . . X O . . .
/// 6 . . . . . . . .
/// 7 . . . . . . . .
/// 8 . . . . . . . .
/// black to move, black 2, white 2, empty 60
/// ");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Diagram<B>(pub B);

impl<B: Board> fmt::Display for Diagram<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.0;
        let size = B::SIZE;
        let side = size.side();
        let pad = if side > 9 { "   " } else { "  " };
        f.write_str(pad)?;
        for c in 0..side {
            if c > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}", (b'a' + c) as char)?;
        }
        writeln!(f)?;
        let black = b.discs(Color::Black);
        let white = b.discs(Color::White);
        for r in 0..side {
            if side > 9 {
                write!(f, "{:>2}", r + 1)?;
            } else {
                write!(f, "{}", r + 1)?;
            }
            for c in 0..side {
                let sq = Square::new_unchecked(r * side + c);
                let ch = if black.has(sq) {
                    'X'
                } else if white.has(sq) {
                    'O'
                } else {
                    '.'
                };
                write!(f, " {ch}")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "{} to move, black {}, white {}, empty {}",
            b.side_to_move(),
            black.count(),
            white.count(),
            b.empty_count()
        )
    }
}

macro_rules! bitboard_board {
    ($(#[$doc:meta])* $name:ident, $bits:ty, $size:expr, $kernel:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        pub struct $name {
            player: $bits,
            opponent: $bits,
            side: Color,
        }

        impl $name {
            /// The start position (as [`Board::start`], usable in `const`).
            pub const START: $name = $name {
                player: $kernel::START.0,
                opponent: $kernel::START.1,
                side: Color::Black,
            };
        }

        impl Board for $name {
            type Bits = $bits;
            const SIZE: Size = $size;

            #[inline]
            fn start() -> Self {
                Self::START
            }

            #[inline(always)]
            fn from_discs_unchecked(player: $bits, opponent: $bits, side: Color) -> Self {
                $name { player, opponent, side }
            }

            #[inline(always)]
            fn player(&self) -> $bits {
                self.player
            }

            #[inline(always)]
            fn opponent(&self) -> $bits {
                self.opponent
            }

            #[inline(always)]
            fn side_to_move(&self) -> Color {
                self.side
            }

            #[inline(always)]
            fn legal_moves(&self) -> $bits {
                $kernel::legal_moves(self.player, self.opponent)
            }

            #[inline(always)]
            fn flips(&self, sq: Square) -> $bits {
                $kernel::flips(self.player, self.opponent, sq.index())
            }

            #[inline(always)]
            fn play_with_flips_unchecked(&self, sq: Square, flips: $bits) -> Self {
                $name {
                    player: self.opponent ^ flips,
                    opponent: self.player | flips | <$bits as Bitboard>::single(sq),
                    side: self.side.other(),
                }
            }

            #[inline(always)]
            fn pass(&self) -> Self {
                $name {
                    player: self.opponent,
                    opponent: self.player,
                    side: self.side.other(),
                }
            }

            #[inline]
            fn empties(&self) -> $bits {
                (<$bits>::MAX >> (<$bits>::BITS as usize - Self::SIZE.squares()))
                    & !(self.player | self.opponent)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::START
            }
        }

        impl Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}(\"{}\")", stringify!($name), self.to_obf())
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&Diagram(*self), f)
            }
        }

        impl core::str::FromStr for $name {
            type Err = ObfError;
            fn from_str(s: &str) -> Result<Self, ObfError> {
                Self::from_obf(s)
            }
        }
    };
}

bitboard_board!(
    /// An 8x8 board on two `u64` bitboards (see [`bitboard8`]).
    ///
    /// ```
    /// use othello_core::{Board, Board8};
    ///
    /// let b: Board8 = "---------------------------OX------XO--------------------------- X"
    ///     .parse()
    ///     .unwrap();
    /// assert_eq!(b, Board8::start());
    /// ```
    Board8,
    u64,
    Size::Eight,
    bitboard8
);

bitboard_board!(
    /// A 10x10 board on two `u128` bitboards (see [`bitboard10`]).
    ///
    /// ```
    /// use othello_core::{Bitboard, Board, Board10, Move, Size, Square};
    ///
    /// let b = Board10::start();
    /// assert_eq!(b.legal_moves().count(), 4);
    /// // The first move of every WTHOR 10x10 game, g6, is legal.
    /// let g6 = Square::parse("g6", Size::Ten).unwrap();
    /// assert!(b.play(Move::Play(g6)).is_ok());
    /// ```
    Board10,
    u128,
    Size::Ten,
    bitboard10
);
