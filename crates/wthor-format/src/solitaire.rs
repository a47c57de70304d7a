//! Solitaire (endgame puzzle) files, 8x8: `*.pzz`.
//!
//! After the 16-byte [header](crate::header) (N1 = number of puzzles, N2 =
//! number of empty squares, P2 = 1) comes a presence table of 64 u32 (256
//! bytes in the real files; the official text says 512): every entry is 0
//! except entry N2 − 1, which holds N1. Then 36-byte records:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | u16 | year of the game |
//! | 2 | u16 | tournament number |
//! | 4 | u32 | black player number |
//! | 8 | u32 | white player number |
//! | 12 | 16 × u8 | position, 2 bits per square, a1 in bits 7–6 of byte 0; 00 empty, 11 black, 10 white |
//! | 28 | u8 | number of empty squares |
//! | 29 | u8 | side to move: 1 black, 2 white |
//! | 30 | i8 | solution score: disc difference for the side to move after perfect play |
//! | 31 | u8 | first move of the solution (column + 10 × row) |
//! | 32 | u8 | real score of the game (black's discs) |
//! | 33 | u8 | move 25 of the game, 0 if unknown |
//! | 34 | 2 bytes | reserved |
//!
//! The bit order (leftmost square in the most significant bits) is not stated
//! officially; with it the stored empty count matches the position in every
//! real record.

use std::fmt;
use std::io::Write;
use std::iter::FusedIterator;
use std::slice::ChunksExact;

use nom::IResult;
use nom::bytes::complete::take;

use crate::board::{BoardSize, Square};
use crate::error::{HeaderField, Sink, Warning, WarningKind};
use crate::header::{HEADER_LEN, Header, read_header, write_header};
use crate::records::{count_u32, expect_field, record_at, whole_records};
use crate::{Error, ErrorKind, ReadOptions};

/// Length of the presence table: 64 × u32.
pub const PRESENCE_TABLE_LEN: usize = 256;
/// Length of a puzzle record.
pub const PUZZLE_LEN: usize = 36;
/// Offset of the first puzzle record.
pub const PUZZLES_OFFSET: usize = HEADER_LEN + PRESENCE_TABLE_LEN;

/// The content of a square in a puzzle position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// `00`.
    Empty,
    /// `11`.
    Black,
    /// `10`.
    White,
    /// `01`: not used by the format (never seen in real files).
    Unused,
}

impl Cell {
    const fn from_bits(bits: u8) -> Self {
        match bits & 3 {
            0 => Self::Empty,
            3 => Self::Black,
            2 => Self::White,
            _ => Self::Unused,
        }
    }

    const fn bits(self) -> u8 {
        match self {
            Self::Empty => 0,
            Self::Black => 3,
            Self::White => 2,
            Self::Unused => 1,
        }
    }
}

/// Decodes the 16 packed bytes to 64 cells, indexed `row × 8 + column`
/// (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
///
/// ```
/// use wthor_format::{Cell, decode_position, encode_position};
/// let mut cells = [Cell::Empty; 64];
/// cells[0] = Cell::Black; // a1
/// cells[63] = Cell::White; // h8
/// let packed = encode_position(&cells);
/// assert_eq!(packed[0], 0b1100_0000);
/// assert_eq!(packed[15], 0b0000_0010);
/// assert_eq!(decode_position(&packed), cells);
/// ```
#[must_use]
pub fn decode_position(packed: &[u8; 16]) -> [Cell; 64] {
    let mut cells = [Cell::Empty; 64];
    for (i, cell) in cells.iter_mut().enumerate() {
        let byte = packed[i / 4];
        let shift = 6 - 2 * (i % 4);
        *cell = Cell::from_bits(byte >> shift);
    }
    cells
}

/// Packs 64 cells (index `row × 8 + column`) into 16 bytes.
#[must_use]
pub fn encode_position(cells: &[Cell; 64]) -> [u8; 16] {
    let mut packed = [0u8; 16];
    for (i, cell) in cells.iter().enumerate() {
        packed[i / 4] |= cell.bits() << (6 - 2 * (i % 4));
    }
    packed
}

/// The number of empty squares of a packed position.
#[must_use]
pub fn count_empty(packed: &[u8; 16]) -> u8 {
    let mut count = 0u32;
    for &byte in packed {
        // A square is empty when both its bits are 0.
        let occupied = (byte | (byte >> 1)) & 0b0101_0101;
        count += 4 - occupied.count_ones();
    }
    // At most 64.
    count as u8
}

/// A puzzle record borrowed from the file bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PuzzleView<'a> {
    bytes: &'a [u8; PUZZLE_LEN],
}

impl<'a> PuzzleView<'a> {
    /// Views `bytes` as one record, if it is exactly 36 bytes long.
    #[must_use]
    #[inline]
    pub fn new(bytes: &'a [u8]) -> Option<Self> {
        Some(Self {
            bytes: bytes.try_into().ok()?,
        })
    }

    fn u16_at(&self, at: usize) -> u16 {
        u16::from_le_bytes([self.bytes[at], self.bytes[at + 1]])
    }

    fn u32_at(&self, at: usize) -> u32 {
        u32::from_le_bytes([
            self.bytes[at],
            self.bytes[at + 1],
            self.bytes[at + 2],
            self.bytes[at + 3],
        ])
    }

    /// Year of the game.
    #[must_use]
    #[inline]
    pub fn year(&self) -> u16 {
        self.u16_at(0)
    }

    /// Tournament number.
    #[must_use]
    #[inline]
    pub fn tournament(&self) -> u16 {
        self.u16_at(2)
    }

    /// Black player number.
    #[must_use]
    #[inline]
    pub fn black(&self) -> u32 {
        self.u32_at(4)
    }

    /// White player number.
    #[must_use]
    #[inline]
    pub fn white(&self) -> u32 {
        self.u32_at(8)
    }

    /// The packed position (16 bytes).
    #[must_use]
    #[inline]
    pub fn position_raw(&self) -> &'a [u8; 16] {
        let (_, rest) = self.bytes.split_at(12);
        let (position, _) = rest.split_at(16);
        position.try_into().unwrap_or(&[0; 16])
    }

    /// The decoded position, indexed `row × 8 + column` (a1 = 0).
    #[must_use]
    #[inline]
    pub fn position(&self) -> [Cell; 64] {
        decode_position(self.position_raw())
    }

    /// Stored number of empty squares.
    #[must_use]
    #[inline]
    pub fn empties(&self) -> u8 {
        self.bytes[28]
    }

    /// Side to move: 1 black, 2 white.
    #[must_use]
    #[inline]
    pub fn side_to_move(&self) -> u8 {
        self.bytes[29]
    }

    /// Solution score: disc difference for the side to move after perfect play.
    #[must_use]
    #[inline]
    pub fn score(&self) -> i8 {
        i8::from_le_bytes([self.bytes[30]])
    }

    /// First move of the solution, as a raw move byte (column + 10 × row).
    #[must_use]
    #[inline]
    pub fn first_move_raw(&self) -> u8 {
        self.bytes[31]
    }

    /// First move of the solution, decoded.
    #[must_use]
    #[inline]
    pub fn first_move(&self) -> Option<Square> {
        Square::from_wthor(self.first_move_raw(), BoardSize::Eight)
    }

    /// Real score of the game (black's discs).
    #[must_use]
    #[inline]
    pub fn real_score(&self) -> u8 {
        self.bytes[32]
    }

    /// Move 25 of the game as a raw move byte, 0 if unknown.
    #[must_use]
    #[inline]
    pub fn move25(&self) -> u8 {
        self.bytes[33]
    }

    /// The two reserved bytes.
    #[must_use]
    #[inline]
    pub fn reserved(&self) -> [u8; 2] {
        [self.bytes[34], self.bytes[35]]
    }

    /// The record as stored.
    #[must_use]
    #[inline]
    pub const fn as_bytes(&self) -> &'a [u8; PUZZLE_LEN] {
        self.bytes
    }

    /// An owned copy.
    #[must_use]
    #[inline]
    pub fn to_puzzle(&self) -> Puzzle {
        Puzzle {
            year: self.year(),
            tournament: self.tournament(),
            black: self.black(),
            white: self.white(),
            position: *self.position_raw(),
            empties: self.empties(),
            side_to_move: self.side_to_move(),
            score: self.score(),
            first_move: self.first_move_raw(),
            real_score: self.real_score(),
            move25: self.move25(),
            reserved: self.reserved(),
        }
    }
}

impl fmt::Debug for PuzzleView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_puzzle(), f)
    }
}

/// An owned puzzle record.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Puzzle {
    /// Year of the game.
    pub year: u16,
    /// Tournament number.
    pub tournament: u16,
    /// Black player number.
    pub black: u32,
    /// White player number.
    pub white: u32,
    /// Packed position (see [`decode_position`]).
    pub position: [u8; 16],
    /// Number of empty squares.
    pub empties: u8,
    /// Side to move: 1 black, 2 white.
    pub side_to_move: u8,
    /// Solution score for the side to move.
    pub score: i8,
    /// First move of the solution (column + 10 × row).
    pub first_move: u8,
    /// Real score of the game (black's discs).
    pub real_score: u8,
    /// Move 25 of the game, 0 if unknown.
    pub move25: u8,
    /// Reserved bytes.
    pub reserved: [u8; 2],
}

impl Puzzle {
    /// The record as its 36 bytes.
    #[must_use]
    #[inline]
    pub fn to_bytes(&self) -> [u8; PUZZLE_LEN] {
        let mut out = [0u8; PUZZLE_LEN];
        out[0..2].copy_from_slice(&self.year.to_le_bytes());
        out[2..4].copy_from_slice(&self.tournament.to_le_bytes());
        out[4..8].copy_from_slice(&self.black.to_le_bytes());
        out[8..12].copy_from_slice(&self.white.to_le_bytes());
        out[12..28].copy_from_slice(&self.position);
        out[28] = self.empties;
        out[29] = self.side_to_move;
        out[30] = self.score.to_le_bytes()[0];
        out[31] = self.first_move;
        out[32] = self.real_score;
        out[33] = self.move25;
        out[34..36].copy_from_slice(&self.reserved);
        out
    }
}

/// Parses one puzzle record (a complete nom parser).
///
/// # Errors
///
/// A nom error when fewer than 36 bytes are given.
pub fn parse_puzzle(input: &[u8]) -> IResult<&[u8], PuzzleView<'_>> {
    let (rest, bytes) = take(PUZZLE_LEN)(input)?;
    let bytes = bytes
        .try_into()
        .map_err(|_| nom::Err::Error(nom::error::Error::new(input, nom::error::ErrorKind::Eof)))?;
    Ok((rest, PuzzleView { bytes }))
}

/// Writes one puzzle record.
///
/// # Errors
///
/// [`ErrorKind::Io`] when `out` fails.
pub fn write_puzzle<W: Write + ?Sized>(puzzle: &Puzzle, out: &mut W) -> Result<(), Error> {
    out.write_all(&puzzle.to_bytes())?;
    Ok(())
}

/// Parses the 64-entry presence table (a complete nom parser).
///
/// # Errors
///
/// A nom error when fewer than 256 bytes are given.
pub fn parse_presence_table(input: &[u8]) -> IResult<&[u8], [u32; 64]> {
    let (rest, bytes) = take(PRESENCE_TABLE_LEN)(input)?;
    let mut table = [0u32; 64];
    for (entry, chunk) in table.iter_mut().zip(bytes.chunks_exact(4)) {
        *entry = u32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
    }
    Ok((rest, table))
}

/// Writes the 64-entry presence table.
///
/// # Errors
///
/// [`ErrorKind::Io`] when `out` fails.
pub fn write_presence_table<W: Write + ?Sized>(
    table: &[u32; 64],
    out: &mut W,
) -> Result<(), Error> {
    let mut bytes = [0u8; PRESENCE_TABLE_LEN];
    for (chunk, entry) in bytes.chunks_exact_mut(4).zip(table) {
        chunk.copy_from_slice(&entry.to_le_bytes());
    }
    out.write_all(&bytes)?;
    Ok(())
}

/// The presence table the format expects: all 0 but entry `n2 − 1` = `n1`.
#[must_use]
pub fn expected_presence_table(n1: u32, n2: u16) -> [u32; 64] {
    let mut table = [0u32; 64];
    if let Some(entry) = usize::from(n2)
        .checked_sub(1)
        .and_then(|i| table.get_mut(i))
    {
        *entry = n1;
    }
    table
}

/// A parsed solitaire file.
#[derive(Clone, Debug)]
pub struct SolitaireFile<'a> {
    header: Header,
    table: &'a [u8],
    records: &'a [u8],
    warnings: Vec<Warning>,
}

impl<'a> SolitaireFile<'a> {
    /// The header as stored.
    #[must_use]
    #[inline]
    pub const fn header(&self) -> &Header {
        &self.header
    }

    /// The presence table as stored.
    #[must_use]
    #[inline]
    pub fn presence_table(&self) -> [u32; 64] {
        parse_presence_table(self.table).map_or([0; 64], |(_, table)| table)
    }

    /// Number of whole records read.
    #[must_use]
    #[inline]
    pub const fn len(&self) -> usize {
        self.records.len() / PUZZLE_LEN
    }

    /// No record at all.
    #[must_use]
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The puzzle at `index` (from 0).
    #[must_use]
    #[inline]
    pub fn get(&self, index: usize) -> Option<PuzzleView<'a>> {
        PuzzleView::new(record_at(self.records, index, PUZZLE_LEN)?)
    }

    /// Every puzzle, in file order.
    #[must_use]
    #[inline]
    pub fn puzzles(&self) -> Puzzles<'a> {
        Puzzles {
            chunks: self.records.chunks_exact(PUZZLE_LEN),
        }
    }

    /// The warnings found while reading.
    #[must_use]
    #[inline]
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Writes the file back: N1 and presence-table entry N2 − 1 set to the
    /// number of records (see [`write_solitaire_file`]), the rest byte for byte.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] when `out` fails.
    #[inline]
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> Result<(), Error> {
        let (header, table) = counted(&self.header, &self.presence_table(), self.len())?;
        write_header(&header, out)?;
        write_presence_table(&table, out)?;
        out.write_all(self.records)?;
        Ok(())
    }
}

/// The header and table with the count of records written.
fn counted(header: &Header, table: &[u32; 64], len: usize) -> Result<(Header, [u32; 64]), Error> {
    let count = count_u32(len, "puzzles")?;
    let mut header = *header;
    let mut table = *table;
    if let Some(entry) = usize::from(header.n2)
        .checked_sub(1)
        .and_then(|i| table.get_mut(i))
    {
        *entry = count;
    }
    header.n1 = count;
    Ok((header, table))
}

/// Iterator over the puzzles of a [`SolitaireFile`].
#[derive(Clone, Debug)]
pub struct Puzzles<'a> {
    chunks: ChunksExact<'a, u8>,
}

impl<'a> Iterator for Puzzles<'a> {
    type Item = PuzzleView<'a>;

    fn next(&mut self) -> Option<PuzzleView<'a>> {
        self.chunks.next().and_then(PuzzleView::new)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for Puzzles<'_> {}
impl FusedIterator for Puzzles<'_> {}

/// Parses a solitaire file. Zero-copy.
///
/// Warnings: N1 disagreeing with the length, trailing bytes, header fields
/// (P1 not 0/8, P2 not 1, N2 not 1–64), presence-table entries that disagree
/// with the header, a stored empty count that disagrees with the position, a
/// side to move other than 1 or 2, a first move off the board.
///
/// ```
/// use wthor_format::{Header, Puzzle, ReadOptions, parse_solitaire_file, write_solitaire_file};
/// let header = Header { n2: 60, p1: 8, p2: 1, ..Header::default() };
/// let puzzle = Puzzle { empties: 64, side_to_move: 1, first_move: 56, ..Puzzle::default() };
/// let mut bytes = Vec::new();
/// write_solitaire_file(&header, &[0; 64], &[puzzle.clone()], &mut bytes)?;
/// let file = parse_solitaire_file(&bytes, &ReadOptions::default())?;
/// assert_eq!(file.presence_table()[59], 1);
/// assert_eq!(file.get(0).unwrap().to_puzzle(), puzzle);
/// # Ok::<(), wthor_format::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Empty`], [`ErrorKind::Truncated`] (header, presence table, or
/// the file ends inside a record), [`ErrorKind::Strict`] in strict mode.
pub fn parse_solitaire_file<'a>(
    bytes: &'a [u8],
    options: &ReadOptions,
) -> Result<SolitaireFile<'a>, Error> {
    let header = read_header(bytes)?;
    let mut sink = Sink::new(options);
    let after_header = bytes.get(HEADER_LEN..).unwrap_or_default();
    let table_bytes = after_header.get(..PRESENCE_TABLE_LEN).unwrap_or_default();
    let (_, table) = parse_presence_table(after_header).map_err(|_| {
        Error::new(
            ErrorKind::Truncated {
                what: "presence table",
                expected: PRESENCE_TABLE_LEN as u64,
                found: after_header.len() as u64,
            },
            HEADER_LEN as u64,
            None,
        )
    })?;
    expect_field(
        &mut sink,
        HeaderField::P1,
        header.p1.into(),
        header.board_size() == Some(BoardSize::Eight),
        "0 or 8 (8x8)",
    )?;
    expect_field(
        &mut sink,
        HeaderField::P2,
        header.p2.into(),
        header.p2 == 1,
        "1 in solitaire files",
    )?;
    expect_field(
        &mut sink,
        HeaderField::N2,
        header.n2.into(),
        (1..=64).contains(&header.n2),
        "1 to 64 empty squares",
    )?;
    let expected = expected_presence_table(header.n1, header.n2);
    for (entry, (&value, &expected)) in table.iter().zip(&expected).enumerate() {
        if value != expected {
            sink.warn(
                (HEADER_LEN + 4 * entry) as u64,
                None,
                WarningKind::PresenceTable {
                    entry,
                    value,
                    expected,
                },
            )?;
        }
    }
    let records = whole_records(
        bytes,
        PUZZLES_OFFSET,
        PUZZLE_LEN,
        header.n1,
        HeaderField::N1,
        &mut sink,
    )?;
    for (index, chunk) in records.chunks_exact(PUZZLE_LEN).enumerate() {
        let Some(puzzle) = PuzzleView::new(chunk) else {
            continue;
        };
        let offset = (PUZZLES_OFFSET + index * PUZZLE_LEN) as u64;
        let record = Some(index as u64);
        let counted = count_empty(puzzle.position_raw());
        if counted != puzzle.empties() {
            sink.warn(
                offset + 28,
                record,
                WarningKind::EmptyCount {
                    stored: puzzle.empties(),
                    counted,
                },
            )?;
        }
        if !matches!(puzzle.side_to_move(), 1 | 2) {
            sink.warn(
                offset + 29,
                record,
                WarningKind::SideToMove {
                    value: puzzle.side_to_move(),
                },
            )?;
        }
        if puzzle.first_move().is_none() {
            sink.warn(
                offset + 31,
                record,
                WarningKind::MoveOffBoard {
                    move_number: 1,
                    value: puzzle.first_move_raw(),
                },
            )?;
        }
    }
    Ok(SolitaireFile {
        header,
        table: table_bytes,
        records,
        warnings: sink.list,
    })
}

/// Writes a solitaire file: `header` and `table` as given, except N1 and
/// table entry N2 − 1 (when N2 is 1–64), both set to `puzzles.len()`.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`] with more than 2³² − 1 puzzles;
/// [`ErrorKind::Io`] when `out` fails.
pub fn write_solitaire_file<W: Write + ?Sized>(
    header: &Header,
    table: &[u32; 64],
    puzzles: &[Puzzle],
    out: &mut W,
) -> Result<(), Error> {
    let (header, table) = counted(header, table, puzzles.len())?;
    write_header(&header, out)?;
    write_presence_table(&table, out)?;
    for puzzle in puzzles {
        write_puzzle(puzzle, out)?;
    }
    Ok(())
}
