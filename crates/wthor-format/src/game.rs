//! Game files: `WTH_YYYY.wtb` (8x8, 68-byte records) and `WTH_YYYY.wtd`
//! (10x10, 104-byte records), after the 16-byte [header](crate::header).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | u16 | tournament number (0-based index into the TRN file) |
//! | 2 | u16 | black player number (0-based index into the JOU file) |
//! | 4 | u16 | white player number |
//! | 6 | u8 | real score: black's discs at the end of the game |
//! | 7 | u8 | theoretical score: black's discs after a perfect endgame from P3 empties |
//! | 8 | 60 or 96 × u8 | moves in order; a 0 byte ends the list; passes are not stored |

use std::fmt;
use std::io::Write;
use std::iter::FusedIterator;
use std::slice::ChunksExact;

use nom::IResult;
use nom::bytes::complete::take;

use crate::board::{BoardSize, OFF, Square};
use crate::error::{HeaderField, Sink, Warning, WarningKind};
use crate::header::{HEADER_LEN, Header, read_header, write_header};
use crate::records::{count_u32, expect_field, expect_zero, record_at, whole_records};
use crate::{Error, ErrorKind, ReadOptions};

/// A game record borrowed from the file bytes (zero-copy).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameView<'a> {
    bytes: &'a [u8],
    size: BoardSize,
}

impl<'a> GameView<'a> {
    /// Views `bytes` as one record, if it is exactly one record long.
    #[must_use]
    #[inline]
    pub fn new(bytes: &'a [u8], size: BoardSize) -> Option<Self> {
        (bytes.len() == size.record_len()).then_some(Self { bytes, size })
    }

    #[inline]
    fn u16_at(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    /// Tournament number: 0-based index into the TRN file.
    #[inline]
    #[must_use]
    pub fn tournament(&self) -> u16 {
        self.u16_at(0)
    }

    /// Black player number: 0-based index into the JOU file.
    #[inline]
    #[must_use]
    pub fn black(&self) -> u16 {
        self.u16_at(2)
    }

    /// White player number: 0-based index into the JOU file.
    #[inline]
    #[must_use]
    pub fn white(&self) -> u16 {
        self.u16_at(4)
    }

    /// Real score: black's discs at the end of the game (as recorded).
    #[inline]
    #[must_use]
    pub fn real_score(&self) -> u8 {
        self.bytes[6]
    }

    /// Theoretical score: black's discs after a perfect endgame from the
    /// position with [`Header::depth`] empty squares.
    #[inline]
    #[must_use]
    pub fn theoretical_score(&self) -> u8 {
        self.bytes[7]
    }

    /// The raw move bytes: 60 (8x8) or 96 (10x10), including the trailing zeros.
    #[inline]
    #[must_use]
    pub fn moves_raw(&self) -> &'a [u8] {
        &self.bytes[8..]
    }

    /// The number of moves: the bytes before the first 0.
    #[inline]
    #[must_use]
    pub fn move_count(&self) -> usize {
        let moves = self.moves_raw();
        moves.iter().position(|&b| b == 0).unwrap_or(moves.len())
    }

    /// The moves decoded to squares, up to the first 0 byte. A byte that is no
    /// square yields `Err` (reading the file warned about it).
    ///
    /// ```
    /// use wthor_format::{BoardSize, Game, GameView};
    /// let game = Game::from_squares(0, 1, 2, 33, 33, &["f5", "d6"], BoardSize::Eight)?;
    /// let bytes = game.to_bytes(BoardSize::Eight)?;
    /// let view = GameView::new(&bytes, BoardSize::Eight).unwrap();
    /// let moves: Vec<String> = view.moves().map(|m| m.unwrap().to_string()).collect();
    /// assert_eq!(moves, ["f5", "d6"]);
    /// # Ok::<(), wthor_format::Error>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn moves(&self) -> Moves<'a> {
        let bytes = self.moves_raw();
        Moves {
            bytes: bytes.iter(),
            len: bytes.len(),
            table: self.size.table(),
        }
    }

    /// The board size of the record.
    #[must_use]
    #[inline]
    pub const fn board_size(&self) -> BoardSize {
        self.size
    }

    /// The whole record as stored (68 or 104 bytes).
    #[must_use]
    #[inline]
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// An owned copy.
    #[must_use]
    #[inline]
    pub fn to_game(&self) -> Game {
        Game {
            tournament: self.tournament(),
            black: self.black(),
            white: self.white(),
            real_score: self.real_score(),
            theoretical_score: self.theoretical_score(),
            moves: self.moves_raw().to_vec(),
        }
    }
}

impl fmt::Debug for GameView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameView")
            .field("size", &self.size)
            .field("tournament", &self.tournament())
            .field("black", &self.black())
            .field("white", &self.white())
            .field("real_score", &self.real_score())
            .field("theoretical_score", &self.theoretical_score())
            .field("moves", &self.moves_raw())
            .finish()
    }
}

/// A move byte that is no square of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OffBoard {
    /// The move number, from 1 (at most 96).
    pub move_number: u8,
    /// The byte.
    pub value: u8,
}

impl fmt::Display for OffBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} is byte {}, which is no square of the board",
            self.move_number, self.value
        )
    }
}

impl std::error::Error for OffBoard {}

/// Iterator over the decoded moves of a game, up to the first 0 byte.
#[derive(Clone, Debug)]
pub struct Moves<'a> {
    bytes: std::slice::Iter<'a, u8>,
    len: usize,
    table: &'static [u8; 256],
}

impl Moves<'_> {
    /// The slow path: the end of the list, or a byte off the board.
    #[cold]
    fn not_a_square(&mut self, byte: u8) -> Option<Result<Square, OffBoard>> {
        if byte == 0 {
            self.bytes = [].iter();
            return None;
        }
        let number = self.len - self.bytes.len();
        Some(Err(OffBoard {
            // At most 96: the move lists are 60 or 96 bytes.
            move_number: u8::try_from(number).unwrap_or(u8::MAX),
            value: byte,
        }))
    }
}

impl Iterator for Moves<'_> {
    type Item = Result<Square, OffBoard>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let &byte = self.bytes.next()?;
        let packed = self.table[usize::from(byte)];
        if packed == OFF {
            return self.not_a_square(byte);
        }
        Some(Ok(Square::from_packed(packed)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.bytes.len()))
    }
}

impl FusedIterator for Moves<'_> {}

/// An owned game record, for building and writing files.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Game {
    /// Tournament number: 0-based index into the TRN file.
    pub tournament: u16,
    /// Black player number: 0-based index into the JOU file.
    pub black: u16,
    /// White player number: 0-based index into the JOU file.
    pub white: u16,
    /// Real score: black's discs at the end of the game.
    pub real_score: u8,
    /// Theoretical score: black's discs after a perfect endgame.
    pub theoretical_score: u8,
    /// The raw move bytes: exactly 60 (8x8) or 96 (10x10) when written.
    pub moves: Vec<u8>,
}

impl Game {
    /// A game from moves in text form (`"f5"`), padded with zeros.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] for a move that is no square of `size`
    /// or more moves than a record holds.
    #[inline]
    pub fn from_squares(
        tournament: u16,
        black: u16,
        white: u16,
        real_score: u8,
        theoretical_score: u8,
        moves: &[&str],
        size: BoardSize,
    ) -> Result<Self, Error> {
        let mut squares = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            squares.push(parse_square(text, size).ok_or_else(|| {
                Error::invalid(format!("move {} is no square of the {size} board", i + 1))
            })?);
        }
        Ok(Self {
            tournament,
            black,
            white,
            real_score,
            theoretical_score,
            moves: encode_moves(&squares, size)?,
        })
    }

    /// The record as its 68 or 104 bytes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`] when `moves` is not exactly 60 or 96 bytes.
    #[inline]
    pub fn to_bytes(&self, size: BoardSize) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(size.record_len());
        write_game(self, size, &mut out)?;
        Ok(out)
    }
}

/// `"f5"` → the square, on a board of `size`.
fn parse_square(text: &str, size: BoardSize) -> Option<Square> {
    let bytes = text.as_bytes();
    let (&col, row) = bytes.split_first()?;
    let col = col.to_ascii_lowercase().checked_sub(b'a')?;
    let row: u8 = std::str::from_utf8(row).ok()?.parse().ok()?;
    Square::new(col, row.checked_sub(1)?, size)
}

/// Encodes squares as the raw move bytes of a record, padded with zeros.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] when there are more squares than a record holds.
pub fn encode_moves(squares: &[Square], size: BoardSize) -> Result<Vec<u8>, Error> {
    if squares.len() > size.moves_len() {
        return Err(Error::invalid(format!(
            "{} moves, a {size} record holds at most {}",
            squares.len(),
            size.moves_len()
        )));
    }
    let mut moves = vec![0u8; size.moves_len()];
    for (byte, square) in moves.iter_mut().zip(squares) {
        *byte = square.to_wthor(size);
    }
    Ok(moves)
}

/// Parses one game record (a complete nom parser; no check of the moves).
///
/// # Errors
///
/// A nom error when fewer bytes than a record are given.
pub fn parse_game(size: BoardSize) -> impl Fn(&[u8]) -> IResult<&[u8], GameView<'_>> {
    move |input| {
        let (rest, bytes) = take(size.record_len())(input)?;
        Ok((rest, GameView { bytes, size }))
    }
}

/// Writes one game record.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] when `game.moves` is not exactly
/// [`BoardSize::moves_len`] bytes; [`ErrorKind::Io`] when `out` fails.
pub fn write_game<W: Write + ?Sized>(
    game: &Game,
    size: BoardSize,
    out: &mut W,
) -> Result<(), Error> {
    if game.moves.len() != size.moves_len() {
        return Err(Error::invalid(format!(
            "a {size} game record needs {} move bytes, got {}",
            size.moves_len(),
            game.moves.len()
        )));
    }
    let mut fixed = [0u8; 8];
    fixed[0..2].copy_from_slice(&game.tournament.to_le_bytes());
    fixed[2..4].copy_from_slice(&game.black.to_le_bytes());
    fixed[4..6].copy_from_slice(&game.white.to_le_bytes());
    fixed[6] = game.real_score;
    fixed[7] = game.theoretical_score;
    out.write_all(&fixed)?;
    out.write_all(&game.moves)?;
    Ok(())
}

/// A parsed game file: the header, the whole records (borrowed), the warnings.
#[derive(Clone, Debug)]
pub struct GameFile<'a> {
    header: Header,
    size: BoardSize,
    records: &'a [u8],
    warnings: Vec<Warning>,
}

impl<'a> GameFile<'a> {
    /// The header as stored (N1 may disagree with [`GameFile::len`]: see the warnings).
    #[must_use]
    #[inline]
    pub const fn header(&self) -> &Header {
        &self.header
    }

    /// 8x8 or 10x10.
    #[must_use]
    #[inline]
    pub const fn board_size(&self) -> BoardSize {
        self.size
    }

    /// Number of whole records read.
    #[must_use]
    #[inline]
    pub const fn len(&self) -> usize {
        self.records.len() / self.size.record_len()
    }

    /// No record at all.
    #[must_use]
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The game at `index` (from 0).
    #[must_use]
    #[inline]
    pub fn get(&self, index: usize) -> Option<GameView<'a>> {
        let bytes = record_at(self.records, index, self.size.record_len())?;
        Some(GameView {
            bytes,
            size: self.size,
        })
    }

    /// Every game, in file order.
    #[must_use]
    #[inline]
    pub fn games(&self) -> Games<'a> {
        Games {
            chunks: self.records.chunks_exact(self.size.record_len()),
            size: self.size,
        }
    }

    /// The warnings found while reading (empty in strict mode).
    #[must_use]
    #[inline]
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The bytes of the whole records, as stored.
    #[must_use]
    #[inline]
    pub const fn records_bytes(&self) -> &'a [u8] {
        self.records
    }

    /// Writes the file back: the header as read but with N1 set to the number
    /// of records, then the records byte for byte. A file whose N1 agreed with
    /// its length and that had no trailing bytes comes back identical.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] when `out` fails.
    #[inline]
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> Result<(), Error> {
        let mut header = self.header;
        header.n1 = count_u32(self.len(), "games")?;
        write_header(&header, out)?;
        out.write_all(self.records)?;
        Ok(())
    }
}

/// Iterator over the games of a [`GameFile`].
#[derive(Clone, Debug)]
pub struct Games<'a> {
    chunks: ChunksExact<'a, u8>,
    size: BoardSize,
}

impl<'a> Iterator for Games<'a> {
    type Item = GameView<'a>;

    #[inline]
    fn next(&mut self) -> Option<GameView<'a>> {
        let bytes = self.chunks.next()?;
        Some(GameView {
            bytes,
            size: self.size,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }

    fn nth(&mut self, n: usize) -> Option<GameView<'a>> {
        let bytes = self.chunks.nth(n)?;
        Some(GameView {
            bytes,
            size: self.size,
        })
    }
}

impl DoubleEndedIterator for Games<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let bytes = self.chunks.next_back()?;
        Some(GameView {
            bytes,
            size: self.size,
        })
    }
}

impl ExactSizeIterator for Games<'_> {}
impl FusedIterator for Games<'_> {}

/// Parses a game file, with the board size given by P1 (0 or 8 → 8x8, 10 → 10x10).
///
/// Zero-copy: the records are views over `bytes` (an mmap works).
///
/// ```
/// use wthor_format::{BoardSize, Game, Header, ReadOptions, parse_game_file, write_game_file};
/// let header = Header { year: 2025, p1: 8, p3: 24, ..Header::default() };
/// let game = Game::from_squares(0, 1, 2, 40, 38, &["f5", "d6", "c3"], BoardSize::Eight)?;
/// let mut bytes = Vec::new();
/// write_game_file(&header, BoardSize::Eight, &[game], &mut bytes)?;
///
/// let file = parse_game_file(&bytes, &ReadOptions::default())?;
/// assert_eq!(file.header().n1, 1);
/// let first = file.games().next().unwrap();
/// assert_eq!((first.black(), first.white(), first.real_score()), (1, 2, 40));
/// assert_eq!(first.move_count(), 3);
/// assert!(file.warnings().is_empty());
/// # Ok::<(), wthor_format::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Empty`], [`ErrorKind::Truncated`] (header, or the file ends
/// inside a record while the header announces more), [`ErrorKind::UnknownKind`]
/// when P1 is no board size, [`ErrorKind::Strict`] for any warning in strict mode.
pub fn parse_game_file<'a>(bytes: &'a [u8], options: &ReadOptions) -> Result<GameFile<'a>, Error> {
    let header = read_header(bytes)?;
    let size = header.board_size().ok_or_else(|| {
        Error::new(
            ErrorKind::UnknownKind {
                reason: format!("P1 = {} is no board size (0, 8 or 10)", header.p1),
            },
            HeaderField::P1.offset(),
            None,
        )
    })?;
    parse_game_file_as(bytes, size, options)
}

/// Parses a game file as `size`, whatever P1 says (a P1 that disagrees is a warning).
///
/// # Errors
///
/// As [`parse_game_file`].
pub fn parse_game_file_as<'a>(
    bytes: &'a [u8],
    size: BoardSize,
    options: &ReadOptions,
) -> Result<GameFile<'a>, Error> {
    let header = read_header(bytes)?;
    let mut sink = Sink::new(options);
    let p1_ok = header.board_size() == Some(size);
    let p1_expected = match size {
        BoardSize::Eight => "0 or 8 (8x8)",
        BoardSize::Ten => "10 (10x10)",
    };
    expect_field(
        &mut sink,
        HeaderField::P1,
        header.p1.into(),
        p1_ok,
        p1_expected,
    )?;
    expect_zero(
        &mut sink,
        &header,
        &[HeaderField::P2, HeaderField::N2],
        "0 in game files",
    )?;
    let records = whole_records(
        bytes,
        HEADER_LEN,
        size.record_len(),
        header.n1,
        HeaderField::N1,
        &mut sink,
    )?;
    if options.check_moves {
        check_moves_all(records, size, &mut sink)?;
    }
    Ok(GameFile {
        header,
        size,
        records,
        warnings: sink.list,
    })
}

/// Per byte: 0 for a square, [`BAD_ZERO`] for 0, [`BAD_OFF`] for anything else.
const fn badness(size: BoardSize) -> [u8; 256] {
    let table = size.table();
    let mut out = [BAD_OFF; 256];
    let mut b = 0;
    while b < 256 {
        if table[b] != OFF {
            out[b] = 0;
        }
        b += 1;
    }
    out[0] = BAD_ZERO;
    out
}

const BAD_ZERO: u8 = 1;
const BAD_OFF: u8 = 2;
static BADNESS_8: [u8; 256] = badness(BoardSize::Eight);
static BADNESS_10: [u8; 256] = badness(BoardSize::Ten);

/// Warns about move bytes off the board and non-zero bytes after the end.
fn check_moves_all(records: &[u8], size: BoardSize, sink: &mut Sink) -> Result<(), Error> {
    let badness = match size {
        BoardSize::Eight => &BADNESS_8,
        BoardSize::Ten => &BADNESS_10,
    };
    let record_len = size.record_len();
    for (index, record) in records.chunks_exact(record_len).enumerate() {
        let moves = &record[8..];
        // Fast path, branch-free over the bytes: every byte a square (a full
        // game), or only squares and zeros.
        let bad = moves
            .iter()
            .fold(0u8, |acc, &b| acc | badness[usize::from(b)]);
        if bad == 0 {
            continue;
        }
        let end = moves.iter().position(|&b| b == 0).unwrap_or(moves.len());
        let (played, rest) = moves.split_at(end);
        if bad == BAD_ZERO && rest.iter().all(|&b| b == 0) {
            continue;
        }
        let base = (HEADER_LEN + index * record_len + 8) as u64;
        if let Some(at) = played.iter().position(|&b| badness[usize::from(b)] != 0) {
            sink.warn(
                base + at as u64,
                Some(index as u64),
                WarningKind::MoveOffBoard {
                    move_number: at + 1,
                    value: played[at],
                },
            )?;
        }
        if let Some(at) = rest.iter().position(|&b| b != 0) {
            let at = end + at;
            sink.warn(
                base + at as u64,
                Some(index as u64),
                WarningKind::BytesAfterEnd {
                    move_number: at + 1,
                },
            )?;
        }
    }
    Ok(())
}

/// Writes a game file: `header` as given except N1, set to `games.len()`.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] for a game whose moves are not exactly
/// [`BoardSize::moves_len`] bytes, or more than 2³² − 1 games;
/// [`ErrorKind::Io`] when `out` fails.
pub fn write_game_file<W: Write + ?Sized>(
    header: &Header,
    size: BoardSize,
    games: &[Game],
    out: &mut W,
) -> Result<(), Error> {
    let mut header = *header;
    header.n1 = count_u32(games.len(), "games")?;
    write_header(&header, out)?;
    for game in games {
        write_game(game, size, out)?;
    }
    Ok(())
}
