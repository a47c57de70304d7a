//! The position line: one position of a game on one line of text, for GUIs
//! and scripts (`wthor stream`), modelled on the FICS "style 12" line.
//!
//! The full specification is `docs/position-line.md`; in short, fields are
//! separated by single spaces, no field is empty or holds a space, and
//! readers parse left to right and ignore fields after the ones they know
//! (new fields are only ever appended):
//!
//! ```text
//! <pos> ROW1 … ROWn SIDE MOVE LAST-WTHOR LAST BLACK-DISCS WHITE-DISCS BLACK WHITE TOURNAMENT YEAR GAME
//! ```
//!
//! ```
//! use othello_core::{Board, Board8, Color, Size, Square};
//! use wthor_db::position_line::PositionLine;
//!
//! let f5 = Square::parse("f5", Size::Eight).unwrap();
//! let board = Board8::start().play_unchecked(f5);
//! let mut line = PositionLine::from_board(&board, 2, Some(f5)).unwrap();
//! line.black = "Tamenori Hideshi".into();
//! line.year = Some(2001);
//! line.game = "2001:3".into();
//! let text = line.to_string();
//! assert_eq!(
//!     text,
//!     "<pos> -------- -------- -------- ---OX--- ---XXX-- -------- -------- -------- \
//!      W 2 56 f5 4 1 Tamenori%20Hideshi - - 2001 2001:3"
//! );
//! assert_eq!(PositionLine::parse(&text).unwrap(), line);
//! ```

use std::borrow::Cow;
use std::fmt;

use othello_core::position::forced_pass;
use othello_core::replay::{GameStatus, IllegalMove, Token, replay_with};
use othello_core::{Bitboard, Board, Board8, Board10, Color, Move, Size, Square};

/// The first field of every position line.
pub const TAG: &str = "<pos>";

/// One position of a game with what a viewer shows beside it.
///
/// The board part (size, squares, side to move, move number, last move) is
/// checked on construction; the names, year and game identity are free
/// text, escaped when written (see [`escape`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionLine {
    size: Size,
    /// The squares in bit order: `a1`, `b1`, …, row by row from row 1.
    squares: Vec<Option<Color>>,
    to_move: Option<Color>,
    move_number: u32,
    last_move: Option<Square>,
    /// Black's name (empty when unknown).
    pub black: String,
    /// White's name (empty when unknown).
    pub white: String,
    /// The tournament's name (empty when unknown).
    pub tournament: String,
    /// The year of the game, if known.
    pub year: Option<u16>,
    /// The identity of the game in its database (`2001:3`, `FILE:3`), empty
    /// when the game has none (a transcript being typed in).
    pub game: String,
}

impl PositionLine {
    /// A position from its squares (bit order, `size.squares()` of them), the
    /// side to move (`None` when the game is over), the number of the next
    /// move (discs played + 1) and the last disc played; names empty.
    ///
    /// # Errors
    /// [`PositionLineError`] when `squares` has the wrong length, the move number is
    /// 0 or the last move is off the board.
    pub fn new(
        size: Size,
        squares: Vec<Option<Color>>,
        to_move: Option<Color>,
        move_number: u32,
        last_move: Option<Square>,
    ) -> Result<PositionLine, PositionLineError> {
        if squares.len() != size.squares() {
            return Err(PositionLineError::new(2, 0, PositionLineErrorKind::Row));
        }
        if move_number == 0 {
            return Err(PositionLineError::new(
                4 + size.side() as usize,
                0,
                PositionLineErrorKind::Number,
            ));
        }
        if last_move.is_some_and(|sq| sq.index() >= size.squares()) {
            return Err(PositionLineError::new(
                5 + size.side() as usize,
                0,
                PositionLineErrorKind::Square,
            ));
        }
        Ok(PositionLine {
            size,
            squares,
            to_move,
            move_number,
            last_move,
            black: String::new(),
            white: String::new(),
            tournament: String::new(),
            year: None,
            game: String::new(),
        })
    }

    /// The line of `board` with the side to move resolved: the side that
    /// plays next (the other one when the side to move must pass), `None`
    /// when neither can move.
    ///
    /// # Errors
    /// As [`new`](PositionLine::new).
    pub fn from_board<B: Board>(
        board: &B,
        move_number: u32,
        last_move: Option<Square>,
    ) -> Result<PositionLine, PositionLineError> {
        let squares = board.cells();
        PositionLine::new(
            B::SIZE,
            squares,
            next_to_move(board),
            move_number,
            last_move,
        )
    }

    /// The board size.
    #[must_use]
    pub fn size(&self) -> Size {
        self.size
    }

    /// The squares in bit order (`a1`, `b1`, …).
    #[must_use]
    pub fn squares(&self) -> &[Option<Color>] {
        &self.squares
    }

    /// The disc on `sq`, if any (`None` also for a square off the board).
    #[must_use]
    pub fn at(&self, sq: Square) -> Option<Color> {
        self.squares.get(sq.index()).copied().flatten()
    }

    /// The side that plays next; `None` when the game is over.
    #[must_use]
    pub fn to_move(&self) -> Option<Color> {
        self.to_move
    }

    /// The number of the next move: the discs played so far plus one.
    #[must_use]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The last disc played, if any.
    #[must_use]
    pub fn last_move(&self) -> Option<Square> {
        self.last_move
    }

    /// The number of discs of `color`.
    #[must_use]
    pub fn discs(&self, color: Color) -> u32 {
        self.squares.iter().filter(|&&c| c == Some(color)).count() as u32
    }

    /// The legal moves of the side to move (none when the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Square> {
        fn moves<B: Board>(line: &PositionLine) -> Vec<Square> {
            let Some(side) = line.to_move else {
                return Vec::new();
            };
            // The squares are checked on construction: disjoint and on the board.
            B::from_cells(&line.squares, side)
                .map(|b| b.legal_moves().squares().collect())
                .unwrap_or_default()
        }
        match self.size {
            Size::Eight => moves::<Board8>(self),
            Size::Ten => moves::<Board10>(self),
        }
    }

    /// Parses a line (a trailing `\n` or `\r\n` is allowed); fields after
    /// the ones this version knows are ignored.
    ///
    /// # Errors
    /// [`PositionLineError`] naming the field (from 1, the tag) and its byte offset.
    pub fn parse(text: &str) -> Result<PositionLine, PositionLineError> {
        let text = text.strip_suffix('\n').unwrap_or(text);
        let text = text.strip_suffix('\r').unwrap_or(text);
        let mut fields = Fields::new(text);
        let tag = fields.next()?;
        if tag != TAG {
            return Err(fields.error(PositionLineErrorKind::Tag));
        }
        let first = fields.next()?;
        let size = u8::try_from(first.len())
            .ok()
            .and_then(Size::from_side)
            .ok_or_else(|| fields.error(PositionLineErrorKind::Row))?;
        let mut squares = Vec::with_capacity(size.squares());
        let mut row = first;
        for r in 0..size.side() {
            if r > 0 {
                row = fields.next()?;
            }
            if row.len() != usize::from(size.side()) {
                return Err(fields.error(PositionLineErrorKind::Row));
            }
            for ch in row.bytes() {
                squares.push(match ch {
                    b'X' => Some(Color::Black),
                    b'O' => Some(Color::White),
                    b'-' => None,
                    _ => return Err(fields.error(PositionLineErrorKind::Row)),
                });
            }
        }
        let to_move = match fields.next()? {
            "B" => Some(Color::Black),
            "W" => Some(Color::White),
            "-" => None,
            _ => return Err(fields.error(PositionLineErrorKind::Side)),
        };
        let move_number = fields.number::<u32>()?;
        if move_number == 0 {
            return Err(fields.error(PositionLineErrorKind::Number));
        }
        let wthor = match fields.next()? {
            "-" => None,
            text => Some(
                text.parse::<u8>()
                    .ok()
                    .and_then(|b| Square::from_wthor(b, size))
                    .ok_or_else(|| fields.error(PositionLineErrorKind::Square))?,
            ),
        };
        let last_move = match fields.next()? {
            "-" => None,
            text => Some(
                Square::parse(text, size)
                    .map_err(|_| fields.error(PositionLineErrorKind::Square))?,
            ),
        };
        if wthor != last_move {
            return Err(fields.error(PositionLineErrorKind::LastMoveMismatch));
        }
        let mut line = PositionLine::new(size, squares, to_move, move_number, last_move)?;
        for color in [Color::Black, Color::White] {
            if fields.number::<u32>()? != line.discs(color) {
                return Err(fields.error(PositionLineErrorKind::DiscCount));
            }
        }
        line.black = fields.text()?;
        line.white = fields.text()?;
        line.tournament = fields.text()?;
        line.year = match fields.next()? {
            "-" => None,
            year => Some(fields.decimal::<u16>(year)?),
        };
        line.game = fields.text()?;
        fields.end()?;
        Ok(line)
    }
}

/// The side that plays next on `board`: the side to move if it has a move,
/// else the other side if it has one, else `None` (game over).
fn next_to_move<B: Board>(board: &B) -> Option<Color> {
    if board.legal_moves().is_empty() {
        forced_pass(board).map(|passed| passed.side_to_move())
    } else {
        Some(board.side_to_move())
    }
}

impl fmt::Display for PositionLine {
    /// Writes the line, without a line end.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(TAG)?;
        let side = usize::from(self.size.side());
        for row in self.squares.chunks(side) {
            f.write_str(" ")?;
            for c in row {
                f.write_str(match c {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => "-",
                })?;
            }
        }
        let to_move = match self.to_move {
            Some(Color::Black) => "B",
            Some(Color::White) => "W",
            None => "-",
        };
        write!(f, " {to_move} {}", self.move_number)?;
        match self.last_move {
            Some(sq) => write!(f, " {} {}", sq.to_wthor(self.size), sq.name(self.size))?,
            None => f.write_str(" - -")?,
        }
        write!(
            f,
            " {} {} {} {} {}",
            self.discs(Color::Black),
            self.discs(Color::White),
            escape(&self.black),
            escape(&self.white),
            escape(&self.tournament)
        )?;
        match self.year {
            Some(year) => write!(f, " {year}")?,
            None => f.write_str(" -")?,
        }
        write!(f, " {}", escape(&self.game))
    }
}

/// The fields of a line, read left to right.
struct Fields<'a> {
    text: &'a str,
    /// What follows the last field read; `None` after the last one.
    rest: Option<&'a str>,
    /// The number of the field last read (1 = the tag).
    number: usize,
    /// The byte offset of the field last read.
    offset: usize,
}

impl<'a> Fields<'a> {
    fn new(text: &'a str) -> Fields<'a> {
        Fields {
            text,
            rest: (!text.is_empty()).then_some(text),
            number: 0,
            offset: 0,
        }
    }

    fn error(&self, kind: PositionLineErrorKind) -> PositionLineError {
        PositionLineError::new(self.number, self.offset, kind)
    }

    /// The next field.
    fn next(&mut self) -> Result<&'a str, PositionLineError> {
        self.number += 1;
        let Some(rest) = self.rest else {
            self.offset = self.text.len();
            return Err(self.error(PositionLineErrorKind::Missing));
        };
        self.offset = self.text.len() - rest.len();
        let (field, after) = match rest.split_once(' ') {
            Some((field, after)) => (field, Some(after)),
            None => (rest, None),
        };
        self.rest = after;
        if field.is_empty() {
            return Err(self.error(PositionLineErrorKind::Empty));
        }
        if field.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(self.error(PositionLineErrorKind::Unescaped));
        }
        Ok(field)
    }

    /// The next field as a decimal number.
    fn number<T: std::str::FromStr>(&mut self) -> Result<T, PositionLineError> {
        let field = self.next()?;
        self.decimal(field)
    }

    /// `field` (the one just read) as a decimal number, digits only.
    fn decimal<T: std::str::FromStr>(&self, field: &str) -> Result<T, PositionLineError> {
        if !field.bytes().all(|b| b.is_ascii_digit()) {
            return Err(self.error(PositionLineErrorKind::Number));
        }
        field
            .parse()
            .map_err(|_| self.error(PositionLineErrorKind::Number))
    }

    /// Checks that the fields after the last one read (ignored) do not
    /// start with an empty one.
    fn end(&mut self) -> Result<(), PositionLineError> {
        match self.rest {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => {
                self.next()?;
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The next field as escaped text.
    fn text(&mut self) -> Result<String, PositionLineError> {
        let field = self.next()?;
        unescape(field).map_err(|at| {
            PositionLineError::new(self.number, self.offset + at, PositionLineErrorKind::Escape)
        })
    }
}

/// Escapes a text as one field: the empty text is `-`, the text `-` is
/// `%2D`, and `%`, every whitespace and every control character are written
/// as `%XX`, the upper-case hex of each of their UTF-8 bytes; everything
/// else (accented letters included) is kept as it is.
///
/// ```
/// use wthor_db::position_line::{escape, unescape};
///
/// assert_eq!(escape("Open de Suède"), "Open%20de%20Suède");
/// assert_eq!(escape("100%"), "100%25");
/// assert_eq!(escape(""), "-");
/// assert_eq!(unescape("Open%20de%20Suède").unwrap(), "Open de Suède");
/// ```
#[must_use]
pub fn escape(text: &str) -> Cow<'_, str> {
    if text.is_empty() {
        return Cow::Borrowed("-");
    }
    if text == "-" {
        return Cow::Borrowed("%2D");
    }
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if needs_escape(c) {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    c == '%' || c.is_whitespace() || c.is_control()
}

/// Reverses [`escape`]: `-` is the empty text, `%XX` (either case) a byte.
///
/// # Errors
/// The byte offset in `field` of a `%` not followed by two hex digits, or of
/// the start of escaped bytes that are not UTF-8.
pub fn unescape(field: &str) -> Result<String, usize> {
    if field == "-" {
        return Ok(String::new());
    }
    let bytes = field.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or(i)?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|e| {
        // Map the offset in the decoded bytes back to the field: find the
        // first `%` whose decoding reaches that offset.
        let bad = e.utf8_error().valid_up_to();
        let (mut decoded, mut j) = (0, 0);
        while j < bytes.len() && decoded < bad {
            j += if bytes[j] == b'%' { 3 } else { 1 };
            decoded += 1;
        }
        j
    })
}

/// Why a line is not a position line: the field (from 1, the tag) and the
/// byte offset where it starts (or where a bad escape starts). Never shows
/// the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field {field} (byte {offset}): {kind}")]
pub struct PositionLineError {
    field: usize,
    offset: usize,
    kind: PositionLineErrorKind,
}

impl PositionLineError {
    fn new(field: usize, offset: usize, kind: PositionLineErrorKind) -> PositionLineError {
        PositionLineError {
            field,
            offset,
            kind,
        }
    }

    /// The field, from 1 (the tag).
    #[must_use]
    pub fn field(&self) -> usize {
        self.field
    }

    /// The byte offset in the line.
    #[must_use]
    pub fn position(&self) -> usize {
        self.offset
    }

    /// What was wrong.
    #[must_use]
    pub fn kind(&self) -> PositionLineErrorKind {
        self.kind
    }
}

/// What is wrong with a field of a position line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PositionLineErrorKind {
    /// The line does not start with [`TAG`].
    #[error("expected the tag {TAG}")]
    Tag,
    /// The line ends before this field.
    #[error("missing field")]
    Missing,
    /// Two spaces in a row, or a space at the end.
    #[error("empty field")]
    Empty,
    /// A raw whitespace or control character inside a field.
    #[error("unescaped whitespace or control character")]
    Unescaped,
    /// A board row that is not 8 or 10 of `X`, `O`, `-` (all rows alike).
    #[error("expected a board row of 8 or 10 characters X, O or -")]
    Row,
    /// The side to move is not `B`, `W` or `-`.
    #[error("expected the side to move: B, W or -")]
    Side,
    /// Not a decimal number in range (the move number is at least 1).
    #[error("expected a decimal number")]
    Number,
    /// Not a square of the board (WTHOR byte or name), nor `-`.
    #[error("expected a square of the board or -")]
    Square,
    /// The WTHOR byte and the name of the last move differ.
    #[error("the WTHOR and algebraic last moves differ")]
    LastMoveMismatch,
    /// A disc count that is not the number of discs of the board.
    #[error("the disc count disagrees with the board")]
    DiscCount,
    /// A `%` not followed by two hex digits, or escapes that are not UTF-8.
    #[error("bad %XX escape")]
    Escape,
}

/// The positions of a replayed game: the start, then one after each disc
/// played (a pass is no position of its own: it shows as the side to move
/// of the position before it). Names are left empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamePositions {
    /// The positions, `lines[n]` after `n` discs played.
    pub lines: Vec<PositionLine>,
    /// The first illegal move, where the replay stopped.
    pub illegal: Option<IllegalMove>,
    /// Whether the last position ends the game.
    pub status: GameStatus,
}

/// Replays `tokens` on a board of `size` and returns every position.
#[must_use]
pub fn game_positions(size: Size, tokens: &[Token]) -> GamePositions {
    fn run<B: Board>(tokens: &[Token]) -> GamePositions {
        let start = B::start();
        let mut lines = vec![line_of(&start, 1, None)];
        let r = replay_with::<B, _, _>(tokens.iter().copied(), |step| {
            if let Move::Play(sq) = step.mv {
                let number = lines.len() as u32 + 1;
                lines.push(line_of(&step.board, number, Some(sq)));
            }
        });
        GamePositions {
            lines,
            illegal: r.illegal,
            status: r.status,
        }
    }
    match size {
        Size::Eight => run::<Board8>(tokens),
        Size::Ten => run::<Board10>(tokens),
    }
}

fn line_of<B: Board>(board: &B, number: u32, last: Option<Square>) -> PositionLine {
    match PositionLine::from_board(board, number, last) {
        Ok(line) => line,
        // A board of the trait always has `SIZE.squares()` squares, a
        // number from 1 and its own squares.
        Err(e) => unreachable!("a board gives a valid line: {e}"),
    }
}
