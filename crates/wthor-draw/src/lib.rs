//! Pictures of an Othello position: an SVG drawing, and with the `png`
//! feature the same drawing rasterised to PNG by `resvg`; and the graph
//! of a game's values ([`graph_svg`], `wthor analyze --svg`).
//!
//! The drawing: a dark frame with the coordinates (letters above the
//! columns, numbers left of the rows, row 1 at the top as in WTHOR), the
//! green board with its grid (and the four dots of the 8x8 board), the
//! discs, a red dot on the last disc played (a red ring around it when the
//! discs are numbered), the move numbers on the discs (the move that put a
//! disc there, whatever its colour now), and small dots of the side to
//! move's colour on its legal moves. What is drawn besides the board and
//! the discs is chosen by [`Options`].
//!
//! ```text
//!      a   b   c   d   e   f   g   h
//!    ┌───┬───┬───┬───┬───┬───┬───┬───┐
//!  1 │   │   │   │   │   │   │   │   │   frame: 28 units, the coordinates
//!    ├───┼───┼───┼───┼───┼───┼───┼───┤   square: 48 units
//!  … │   │   │ ● │ ○ │   │   │   │   │   side: 440 units on 8x8, 536 on 10x10
//! ```
//!
//! Text is written as SVG `<text>` in the font family "DejaVu Sans", bold:
//! a real font keeps the SVG's text selectable in a browser. For the PNG,
//! each text is drawn as the outlines of its glyphs in the DejaVu Sans Bold
//! font of the `dejavu` crate (its bytes compiled in): the picture does not
//! depend on the fonts installed on the machine, and is the same
//! everywhere.
//!
//! ```
//! use wthor_draw::othello_core::{Board, Board10}; // re-exported
//! use wthor_draw::{Options, Position};
//!
//! let position = Position::from_board(&Board10::start());
//! let options = Options { coordinates: false, size: Some(200), ..Options::default() };
//! let svg = wthor_draw::svg(&position, &options);
//! assert!(svg.contains(r#"width="200" height="200""#));
//! assert_eq!(svg.matches("<circle").count(), 4); // the four discs
//! ```

// Only the `wthor` binary prints: the libraries return values and errors.
#![deny(clippy::print_stdout, clippy::print_stderr)]

// The README's example is compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;

mod graph;
#[cfg(feature = "png")]
mod png;
mod svg;

/// The rules crate, whose boards, squares and sizes this crate's API
/// shows ([`Position::from_board`], [`Position::size`]).
pub use othello_core;

pub use graph::{Graph, Point, graph_svg};
#[cfg(feature = "png")]
pub use png::png;
pub use svg::{picture_side, svg};

use othello_core::{Bitboard, Board, Board8, Board10, Color, Size, Square};

/// An error of this crate: a position that does not fit its board, or a
/// picture that cannot be rasterised.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The squares or the move numbers are not one per square of the board.
    #[error("a {size} board has {} squares, not {found}", size.squares())]
    Squares {
        /// The board size.
        size: Size,
        /// The number of squares (or move numbers) given.
        found: usize,
    },
    /// The last move is off the board.
    #[error("square index {index} is off the {size} board")]
    OffBoard {
        /// The board size.
        size: Size,
        /// The square's bit index.
        index: usize,
    },
    /// The SVG text does not parse (PNG only).
    #[cfg(feature = "png")]
    #[error("the SVG drawing does not parse: {0}")]
    Parse(String),
    /// The scale makes a picture without pixels (PNG only).
    #[cfg(feature = "png")]
    #[error("scale {0} gives an empty picture")]
    EmptyPicture(f32),
    /// The pixel buffer cannot be had (PNG only).
    #[cfg(feature = "png")]
    #[error("cannot make a {width}x{height} picture")]
    Pixmap {
        /// Its width in pixels.
        width: u32,
        /// Its height in pixels.
        height: u32,
    },
    /// The PNG encoder failed (PNG only).
    #[cfg(feature = "png")]
    #[error("cannot encode the PNG: {0}")]
    Encode(String),
}

/// A position to draw: the discs, the side to move (whose legal moves
/// [`Options::legal`] marks), the last disc played and the move numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    size: Size,
    /// The squares in bit order: `a1`, `b1`, …, row by row from row 1.
    squares: Vec<Option<Color>>,
    to_move: Option<Color>,
    last_move: Option<Square>,
    /// One per square, or empty: no numbers.
    numbers: Vec<Option<u32>>,
}

impl Position {
    /// A position from its squares (bit order: `a1`, `b1`, …, row by row
    /// from row 1; `size.squares()` of them) and the side to move (`None`
    /// when the game is over); no last move, no numbers.
    ///
    /// # Errors
    /// [`Error::Squares`] when `squares` has the wrong length.
    pub fn new(
        size: Size,
        squares: Vec<Option<Color>>,
        to_move: Option<Color>,
    ) -> Result<Position, Error> {
        if squares.len() != size.squares() {
            return Err(Error::Squares {
                size,
                found: squares.len(),
            });
        }
        Ok(Position {
            size,
            squares,
            to_move,
            last_move: None,
            numbers: Vec::new(),
        })
    }

    /// The position of `board`. The side to move is the side that plays
    /// next: the board's, or the other one when the board's must pass;
    /// `None` when neither can move (as in `wthor show` and the position
    /// line of `wthor stream`).
    #[must_use]
    pub fn from_board<B: Board>(board: &B) -> Position {
        let squares = board.cells();
        let to_move = if !board.legal_moves().is_empty() {
            Some(board.side_to_move())
        } else if !board.pass().legal_moves().is_empty() {
            Some(board.side_to_move().other())
        } else {
            None
        };
        Position {
            size: B::SIZE,
            squares,
            to_move,
            last_move: None,
            numbers: Vec::new(),
        }
    }

    /// The position with `last` as the last disc played (marked when
    /// [`Options::last_move`] is set).
    ///
    /// # Errors
    /// [`Error::OffBoard`] when the square is off the board.
    pub fn with_last_move(mut self, last: Option<Square>) -> Result<Position, Error> {
        if let Some(sq) = last.filter(|sq| sq.index() >= self.size.squares()) {
            return Err(Error::OffBoard {
                size: self.size,
                index: sq.index(),
            });
        }
        self.last_move = last;
        Ok(self)
    }

    /// The position with move numbers: `numbers[i]` is the number of the
    /// move that put the disc on square `i` (bit order), written on the
    /// disc when [`Options::numbers`] is set (a number on an empty square
    /// is not drawn).
    ///
    /// # Errors
    /// [`Error::Squares`] when there is not one number per square.
    pub fn with_numbers(mut self, numbers: Vec<Option<u32>>) -> Result<Position, Error> {
        if numbers.len() != self.size.squares() {
            return Err(Error::Squares {
                size: self.size,
                found: numbers.len(),
            });
        }
        self.numbers = numbers;
        Ok(self)
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The squares in bit order.
    #[must_use]
    pub fn squares(&self) -> &[Option<Color>] {
        &self.squares
    }

    /// The side to move, `None` when the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        self.to_move
    }

    /// The last disc played, if given.
    #[must_use]
    pub fn last_move(&self) -> Option<Square> {
        self.last_move
    }

    /// The number of the move that put the disc on `sq`, if given.
    #[must_use]
    pub fn number(&self, sq: Square) -> Option<u32> {
        self.numbers.get(sq.index()).copied().flatten()
    }

    /// The legal moves of the side to move (none when the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Square> {
        fn moves<B: Board>(p: &Position, side: Color) -> Vec<Square> {
            // One colour per square, all on the board: never an error.
            B::from_cells(&p.squares, side)
                .map(|b| b.legal_moves().squares().collect())
                .unwrap_or_default()
        }
        match (self.to_move, self.size) {
            (None, _) => Vec::new(),
            (Some(side), Size::Eight) => moves::<Board8>(self, side),
            (Some(side), Size::Ten) => moves::<Board10>(self, side),
        }
    }
}

/// What to draw besides the board and the discs, and how big.
///
/// The default draws the coordinates and marks the last move, at the
/// natural size ([`picture_side`]), without a title.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// The picture's width and height in pixels (the `width` and `height`
    /// of the SVG; its coordinates, the `viewBox`, stay the natural ones);
    /// `None`: the natural size, one pixel per unit.
    pub size: Option<u32>,
    /// The letters and numbers around the board (without them, a thin
    /// frame only).
    pub coordinates: bool,
    /// A dot on the last disc played (a ring when the discs are numbered).
    pub last_move: bool,
    /// The move numbers on the discs.
    pub numbers: bool,
    /// The legal moves of the side to move.
    pub legal: bool,
    /// The picture's `<title>` (escaped), if any.
    pub title: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            size: None,
            coordinates: true,
            last_move: true,
            numbers: false,
            legal: false,
            title: None,
        }
    }
}

#[cfg(test)]
mod tests;
