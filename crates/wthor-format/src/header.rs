//! The 16-byte header common to every WTHOR file.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | u8 | century of the file's creation (19, 20) |
//! | 1 | u8 | year within the century |
//! | 2 | u8 | month |
//! | 3 | u8 | day |
//! | 4 | u32 | N1: number of games or puzzles; 0 in JOU/TRN |
//! | 8 | u16 | N2: number of records in JOU/TRN; empty squares in solitaire files; 0 in game files |
//! | 10 | u16 | year of the games; 0 in JOU/TRN/solitaire files |
//! | 12 | u8 | P1 board size: 0 or 8 = 8x8, 10 = 10x10; 0 in other files |
//! | 13 | u8 | P2 game type: 1 in solitaire files, 0 otherwise |
//! | 14 | u8 | P3 depth of the theoretical score (0 means 22) |
//! | 15 | u8 | reserved |

use std::fmt;
use std::io::Write;

use nom::IResult;
use nom::number::complete::{le_u8, le_u16, le_u32};

use crate::Error;
use crate::board::BoardSize;

/// Length of the header in bytes.
pub const HEADER_LEN: usize = 16;

/// The creation date of a file, its *signature*: a program that updates a
/// WTHOR directory must not replace a file by an older version of it.
///
/// Stored as four raw bytes, kept as they are (no validation), so that any
/// header is written back unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CreationDate {
    /// Byte 0: century (19, 20).
    pub century: u8,
    /// Byte 1: year within the century.
    pub year: u8,
    /// Byte 2: month (1–12).
    pub month: u8,
    /// Byte 3: day (1–31).
    pub day: u8,
}

impl CreationDate {
    /// The full year, `century × 100 + year`.
    ///
    /// ```
    /// let date = wthor_format::CreationDate { century: 20, year: 7, month: 5, day: 22 };
    /// assert_eq!(date.full_year(), 2007);
    /// assert_eq!(date.to_string(), "2007-05-22");
    /// ```
    #[must_use]
    #[inline]
    pub const fn full_year(self) -> u16 {
        self.century as u16 * 100 + self.year as u16
    }
}

impl fmt::Display for CreationDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}",
            self.full_year(),
            self.month,
            self.day
        )
    }
}

/// The 16-byte header, every field as stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// Bytes 0–3: creation date (the file's signature).
    pub created: CreationDate,
    /// Bytes 4–7: number of games (game files) or puzzles (solitaire files); 0 in JOU/TRN.
    pub n1: u32,
    /// Bytes 8–9: number of records in JOU/TRN; number of empty squares in
    /// solitaire files; 0 in game files.
    pub n2: u16,
    /// Bytes 10–11: year of the games; 0 in JOU/TRN/solitaire files.
    pub year: u16,
    /// Byte 12, P1: board size, 0 or 8 = 8x8, 10 = 10x10; 0 in other files.
    pub p1: u8,
    /// Byte 13, P2: game type, 1 in solitaire files, 0 otherwise.
    pub p2: u8,
    /// Byte 14, P3: number of empty squares at which the theoretical score is
    /// computed; 0 means 22. See [`Header::depth`].
    pub p3: u8,
    /// Byte 15: reserved.
    pub reserved: u8,
}

impl Header {
    /// The board size stated by P1: 0 or 8 → 8x8, 10 → 10x10, anything else `None`.
    #[must_use]
    #[inline]
    pub const fn board_size(&self) -> Option<BoardSize> {
        match self.p1 {
            0 | 8 => Some(BoardSize::Eight),
            10 => Some(BoardSize::Ten),
            _ => None,
        }
    }

    /// The depth of the theoretical score: P3, where 0 means 22.
    ///
    /// ```
    /// let mut header = wthor_format::Header::default();
    /// assert_eq!(header.depth(), 22);
    /// header.p3 = 24;
    /// assert_eq!(header.depth(), 24);
    /// ```
    #[must_use]
    #[inline]
    pub const fn depth(&self) -> u8 {
        if self.p3 == 0 { 22 } else { self.p3 }
    }
}

/// Parses the 16-byte header (a complete nom parser).
///
/// # Errors
///
/// A nom error when fewer than 16 bytes are given.
pub fn parse_header(input: &[u8]) -> IResult<&[u8], Header> {
    let (input, century) = le_u8(input)?;
    let (input, year_in_century) = le_u8(input)?;
    let (input, month) = le_u8(input)?;
    let (input, day) = le_u8(input)?;
    let (input, n1) = le_u32(input)?;
    let (input, n2) = le_u16(input)?;
    let (input, year) = le_u16(input)?;
    let (input, p1) = le_u8(input)?;
    let (input, p2) = le_u8(input)?;
    let (input, p3) = le_u8(input)?;
    let (input, reserved) = le_u8(input)?;
    let created = CreationDate {
        century,
        year: year_in_century,
        month,
        day,
    };
    Ok((
        input,
        Header {
            created,
            n1,
            n2,
            year,
            p1,
            p2,
            p3,
            reserved,
        },
    ))
}

/// The header as its 16 bytes.
#[must_use]
pub fn header_bytes(header: &Header) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[0] = header.created.century;
    out[1] = header.created.year;
    out[2] = header.created.month;
    out[3] = header.created.day;
    out[4..8].copy_from_slice(&header.n1.to_le_bytes());
    out[8..10].copy_from_slice(&header.n2.to_le_bytes());
    out[10..12].copy_from_slice(&header.year.to_le_bytes());
    out[12] = header.p1;
    out[13] = header.p2;
    out[14] = header.p3;
    out[15] = header.reserved;
    out
}

/// Writes the 16-byte header.
///
/// # Errors
///
/// [`ErrorKind::Io`](crate::ErrorKind::Io) when `out` fails.
pub fn write_header<W: Write + ?Sized>(header: &Header, out: &mut W) -> Result<(), Error> {
    out.write_all(&header_bytes(header))?;
    Ok(())
}

/// Parses the header at the start of a file, converting nom errors once here.
pub(crate) fn read_header(bytes: &[u8]) -> Result<Header, Error> {
    use crate::ErrorKind;
    if bytes.is_empty() {
        return Err(Error::new(ErrorKind::Empty, 0, None));
    }
    match parse_header(bytes) {
        Ok((_, header)) => Ok(header),
        Err(_) => Err(Error::new(
            ErrorKind::Truncated {
                what: "header",
                expected: HEADER_LEN as u64,
                found: bytes.len() as u64,
            },
            0,
            None,
        )),
    }
}
