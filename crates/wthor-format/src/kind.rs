//! The kind of a WTHOR file, detected from its header and size, with the
//! extension as a hint; and [`WthorFile`], any parsed file.

use std::fmt;
use std::io::Write;
use std::path::Path;

use crate::board::BoardSize;
use crate::error::{HeaderField, Warning};
use crate::game::{GameFile, parse_game_file_as};
use crate::header::{HEADER_LEN, Header, read_header};
use crate::names::{NameKind, NamesFile, parse_names_file};
use crate::solitaire::{PUZZLE_LEN, PUZZLES_OFFSET, SolitaireFile, parse_solitaire_file};
use crate::{Error, ErrorKind, ReadOptions};

/// The WTHOR file kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// 8x8 games, `.wtb`.
    Games8,
    /// 10x10 games, `.wtd`.
    Games10,
    /// Player names, `.jou`.
    Players,
    /// Tournament names, `.trn`.
    Tournaments,
    /// Solitaire puzzles, `.pzz`.
    Solitaires,
}

impl FileKind {
    /// Every kind.
    pub const ALL: [Self; 5] = [
        Self::Games8,
        Self::Games10,
        Self::Players,
        Self::Tournaments,
        Self::Solitaires,
    ];

    /// The kind an extension names (`wtb`, `wtd`, `jou`, `trn`, `pzz`, any case).
    ///
    /// ```
    /// use wthor_format::FileKind;
    /// assert_eq!(FileKind::from_extension("JOU"), Some(FileKind::Players));
    /// assert_eq!(FileKind::from_extension("txt"), None);
    /// ```
    #[must_use]
    pub fn from_extension(ext: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.extension().eq_ignore_ascii_case(ext))
    }

    /// The kind the extension of `path` names.
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Self> {
        Self::from_extension(path.extension()?.to_str()?)
    }

    /// The usual extension, lower case.
    #[must_use]
    pub const fn extension(self) -> &'static str {
        match self {
            Self::Games8 => "wtb",
            Self::Games10 => "wtd",
            Self::Players => "jou",
            Self::Tournaments => "trn",
            Self::Solitaires => "pzz",
        }
    }

    /// A stable lower-case name (`games-8x8`, `games-10x10`, `players`,
    /// `tournaments`, `solitaires`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Games8 => "games-8x8",
            Self::Games10 => "games-10x10",
            Self::Players => "players",
            Self::Tournaments => "tournaments",
            Self::Solitaires => "solitaires",
        }
    }

    /// Offset of the first record and record length.
    const fn layout(self) -> (usize, usize) {
        match self {
            Self::Games8 => (HEADER_LEN, BoardSize::Eight.record_len()),
            Self::Games10 => (HEADER_LEN, BoardSize::Ten.record_len()),
            Self::Players => (HEADER_LEN, NameKind::Players.width()),
            Self::Tournaments => (HEADER_LEN, NameKind::Tournaments.width()),
            Self::Solitaires => (PUZZLES_OFFSET, PUZZLE_LEN),
        }
    }

    /// What a file of this kind holds, in the words of the header fields
    /// that [`header_fits`](Self::header_fits) checks, for error messages.
    fn expected(self) -> String {
        let fields = match self {
            Self::Games8 => "P1 = 0 or 8, P2 = 0, N2 = 0",
            Self::Games10 => "P1 = 10, P2 = 0, N2 = 0",
            Self::Players | Self::Tournaments => "N1 = 0, P2 = 0",
            Self::Solitaires => "P1 = 0 or 8, P2 = 1",
        };
        let (start, record) = self.layout();
        format!("{fields}, then {record}-byte records from byte {start}")
    }

    /// Whether the header fields (not the size) fit the kind.
    fn header_fits(self, h: &Header) -> bool {
        match self {
            Self::Games8 => matches!(h.p1, 0 | 8) && h.p2 == 0 && h.n2 == 0,
            Self::Games10 => h.p1 == 10 && h.p2 == 0 && h.n2 == 0,
            // P1 = 124 and a year are known in real third-party name files.
            Self::Players | Self::Tournaments => h.n1 == 0 && h.p2 == 0,
            Self::Solitaires => matches!(h.p1, 0 | 8) && h.p2 == 1,
        }
    }

    /// The header count of this kind.
    const fn count(self, h: &Header) -> u64 {
        match self {
            Self::Players | Self::Tournaments => h.n2 as u64,
            _ => h.n1 as u64,
        }
    }

    /// Whether the length is a whole number of records (and, if `exact`,
    /// exactly the header count of them).
    fn size_fits(self, h: &Header, len: usize, exact: bool) -> bool {
        let (start, record) = self.layout();
        let Some(body) = len.checked_sub(start) else {
            return false;
        };
        body % record == 0 && (!exact || (body / record) as u64 == self.count(h))
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Games8 => "8x8 games",
            Self::Games10 => "10x10 games",
            Self::Players => "players",
            Self::Tournaments => "tournaments",
            Self::Solitaires => "solitaires",
        })
    }
}

/// Detects the kind of a file from its header and size, with the extension
/// kind (see [`FileKind::from_path`]) as a hint:
///
/// 1. the hinted kind, when the header fields fit it (whatever the size: a
///    count that disagrees is then a warning of the parser);
/// 2. else the one kind whose header fields fit and whose size is exactly the
///    header count of records (the hint breaks ties);
/// 3. else the one kind whose header fields fit and whose size is a whole
///    number of records;
/// 4. else the hinted kind when the size is a whole number of its records.
///
/// ```
/// use wthor_format::{FileKind, detect_kind};
/// let mut bytes = vec![0u8; 16 + 20];
/// bytes[8] = 1; // N2 = 1 name
/// assert_eq!(detect_kind(&bytes, None)?, FileKind::Players);
/// assert_eq!(detect_kind(&bytes, Some(FileKind::Players))?, FileKind::Players);
/// # Ok::<(), wthor_format::Error>(())
/// ```
///
/// # Errors
///
/// [`ErrorKind::Empty`], [`ErrorKind::Truncated`] (under 16 bytes), and
/// [`ErrorKind::UnknownKind`] when nothing fits or several kinds fit equally
/// without a hint to choose.
pub fn detect_kind(bytes: &[u8], hint: Option<FileKind>) -> Result<FileKind, Error> {
    let header = read_header(bytes)?;
    let len = bytes.len();
    if let Some(kind) = hint
        && kind.header_fits(&header)
    {
        return Ok(kind);
    }
    for exact in [true, false] {
        let fits: Vec<FileKind> = FileKind::ALL
            .into_iter()
            .filter(|k| k.header_fits(&header) && k.size_fits(&header, len, exact))
            .collect();
        match fits.as_slice() {
            [] => {}
            [kind] => return Ok(*kind),
            several => {
                if let Some(kind) = hint.filter(|k| several.contains(k)) {
                    return Ok(kind);
                }
                let names: Vec<&str> = several.iter().map(|k| k.name()).collect();
                return Err(unknown(format!(
                    "the header and size fit several kinds ({}); name the file with its extension",
                    names.join(", ")
                )));
            }
        }
    }
    if let Some(kind) = hint.filter(|k| k.size_fits(&header, len, false)) {
        return Ok(kind);
    }
    let expected = match hint {
        Some(kind) => format!(
            "expected for {kind} (.{}): {}",
            kind.extension(),
            kind.expected()
        ),
        None => "expected the header of games (P1 = 0, 8 or 10, P2 = 0, N2 = 0), \
                 names (N1 = 0, P2 = 0) or solitaires (P1 = 0 or 8, P2 = 1)"
            .to_owned(),
    };
    Err(unknown(format!(
        "no kind fits a {len}-byte file with header N1 = {}, N2 = {}, P1 = {}, P2 = {}; {expected}",
        header.n1, header.n2, header.p1, header.p2
    )))
}

fn unknown(reason: String) -> Error {
    Error::new(ErrorKind::UnknownKind { reason }, 0, None)
}

/// Any parsed WTHOR file.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum WthorFile<'a> {
    /// A game file (8x8 or 10x10).
    Games(GameFile<'a>),
    /// A players or tournaments file.
    Names(NamesFile<'a>),
    /// A solitaire file.
    Solitaires(SolitaireFile<'a>),
}

impl WthorFile<'_> {
    /// The kind of the file.
    #[must_use]
    pub fn kind(&self) -> FileKind {
        match self {
            Self::Games(file) => match file.board_size() {
                BoardSize::Eight => FileKind::Games8,
                BoardSize::Ten => FileKind::Games10,
            },
            Self::Names(file) => match file.kind() {
                NameKind::Players => FileKind::Players,
                NameKind::Tournaments => FileKind::Tournaments,
            },
            Self::Solitaires(_) => FileKind::Solitaires,
        }
    }

    /// The header as stored.
    #[must_use]
    pub fn header(&self) -> &Header {
        match self {
            Self::Games(file) => file.header(),
            Self::Names(file) => file.header(),
            Self::Solitaires(file) => file.header(),
        }
    }

    /// Number of whole records read.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Self::Games(file) => file.len(),
            Self::Names(file) => file.len(),
            Self::Solitaires(file) => file.len(),
        }
    }

    /// No record at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The header field holding the record count (N1, or N2 for names).
    #[must_use]
    pub fn count_field(&self) -> HeaderField {
        match self {
            Self::Names(_) => HeaderField::N2,
            _ => HeaderField::N1,
        }
    }

    /// The warnings found while reading.
    #[must_use]
    pub fn warnings(&self) -> &[Warning] {
        match self {
            Self::Games(file) => file.warnings(),
            Self::Names(file) => file.warnings(),
            Self::Solitaires(file) => file.warnings(),
        }
    }

    /// Writes the file back (counts set to the number of records written).
    ///
    /// # Errors
    ///
    /// As the `write_to` of each kind.
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> Result<(), Error> {
        match self {
            Self::Games(file) => file.write_to(out),
            Self::Names(file) => file.write_to(out),
            Self::Solitaires(file) => file.write_to(out),
        }
    }

    /// The file written back to a new buffer.
    ///
    /// # Errors
    ///
    /// As [`WthorFile::write_to`].
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.write_to(&mut out)?;
        Ok(out)
    }
}

/// Parses a file of the given kind.
///
/// # Errors
///
/// As the parser of that kind.
pub fn parse_kind<'a>(
    bytes: &'a [u8],
    kind: FileKind,
    options: &ReadOptions,
) -> Result<WthorFile<'a>, Error> {
    Ok(match kind {
        FileKind::Games8 => WthorFile::Games(parse_game_file_as(bytes, BoardSize::Eight, options)?),
        FileKind::Games10 => WthorFile::Games(parse_game_file_as(bytes, BoardSize::Ten, options)?),
        FileKind::Players => WthorFile::Names(parse_names_file(bytes, NameKind::Players, options)?),
        FileKind::Tournaments => {
            WthorFile::Names(parse_names_file(bytes, NameKind::Tournaments, options)?)
        }
        FileKind::Solitaires => WthorFile::Solitaires(parse_solitaire_file(bytes, options)?),
    })
}

/// Detects the kind ([`detect_kind`]) and parses the file.
///
/// ```
/// use wthor_format::{FileKind, Header, ReadOptions, parse_any, write_game_file, BoardSize};
/// let mut bytes = Vec::new();
/// write_game_file(&Header { year: 1977, p1: 8, ..Header::default() }, BoardSize::Eight, &[], &mut bytes)?;
/// let file = parse_any(&bytes, Some(FileKind::Games8), &ReadOptions::default())?;
/// assert_eq!(file.kind(), FileKind::Games8);
/// assert_eq!(file.to_bytes()?, bytes);
/// # Ok::<(), wthor_format::Error>(())
/// ```
///
/// # Errors
///
/// As [`detect_kind`] and the parser of the kind.
pub fn parse_any<'a>(
    bytes: &'a [u8],
    hint: Option<FileKind>,
    options: &ReadOptions,
) -> Result<WthorFile<'a>, Error> {
    let kind = detect_kind(bytes, hint)?;
    parse_kind(bytes, kind, options)
}
