//! Name files: players `WTHOR.JOU` / `WTH.JOU` (20-byte records) and
//! tournaments `WTHOR.TRN` / `WTH.TRN` (26-byte records), after the 16-byte
//! [header](crate::header) whose N2 counts the records.
//!
//! Each record is a NUL-terminated character array (at most 19 or 25 useful
//! characters). The encoding is stated nowhere; real files decode correctly as
//! Windows-1252, the default. The raw bytes are kept so that writing back is
//! lossless, including bytes after the NUL (a warning).

use std::borrow::Cow;
use std::fmt;
use std::io::Write;
use std::iter::FusedIterator;
use std::slice::ChunksExact;

use encoding_rs::Encoding;
use nom::IResult;
use nom::bytes::complete::take;

use crate::error::{HeaderField, Sink, Warning, WarningKind};
use crate::header::{HEADER_LEN, Header, read_header, write_header};
use crate::records::{count_u32, expect_zero, record_at, whole_records};
use crate::{Error, ReadOptions};

/// Players or tournaments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// `.JOU`: 20-byte player names.
    Players,
    /// `.TRN`: 26-byte tournament names.
    Tournaments,
}

impl NameKind {
    /// The field width: 20 or 26 bytes.
    #[must_use]
    #[inline]
    pub const fn width(self) -> usize {
        match self {
            Self::Players => 20,
            Self::Tournaments => 26,
        }
    }
}

/// A name record borrowed from the file bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct NameView<'a> {
    raw: &'a [u8],
}

impl<'a> NameView<'a> {
    /// The whole field as stored (20 or 26 bytes).
    #[must_use]
    #[inline]
    pub const fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// The bytes before the first NUL.
    #[inline]
    #[must_use]
    pub fn text_bytes(&self) -> &'a [u8] {
        let end = self
            .raw
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(self.raw.len());
        &self.raw[..end]
    }

    /// The name decoded with `encoding` (bytes after the first NUL ignored).
    /// Borrowed when the bytes are ASCII and the encoding ASCII-compatible.
    #[must_use]
    #[inline]
    pub fn decode(&self, encoding: &'static Encoding) -> Cow<'a, str> {
        encoding.decode_without_bom_handling(self.text_bytes()).0
    }

    /// An owned copy of the raw field.
    #[must_use]
    #[inline]
    pub fn to_name(&self) -> Name {
        Name {
            raw: self.raw.to_vec(),
        }
    }
}

impl fmt::Debug for NameView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NameView").field("raw", &self.raw).finish()
    }
}

/// An owned name record: the raw field bytes (20 or 26 when written).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Name {
    /// The raw field, as written.
    pub raw: Vec<u8>,
}

impl Name {
    /// Encodes `text` with `encoding` into a field of `kind`'s width, zero-filled
    /// after the text (so no garbage after the NUL).
    ///
    /// ```
    /// use wthor_format::{Name, NameKind};
    /// let name = Name::from_text("Suède", NameKind::Tournaments, encoding_rs::WINDOWS_1252)?;
    /// assert_eq!(name.raw.len(), 26);
    /// assert_eq!(&name.raw[..6], b"Su\xE8de\0");
    /// # Ok::<(), wthor_format::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) when the text
    /// has a NUL, a character the encoding cannot represent, or is longer than
    /// the field allows (width − 1 bytes).
    #[inline]
    pub fn from_text(
        text: &str,
        kind: NameKind,
        encoding: &'static Encoding,
    ) -> Result<Self, Error> {
        if text.contains('\0') {
            return Err(Error::invalid("a name cannot contain a NUL character"));
        }
        let (bytes, _, unmappable) = encoding.encode(text);
        if unmappable {
            return Err(Error::invalid(format!(
                "the name has characters that {} cannot encode",
                encoding.name()
            )));
        }
        let max = kind.width() - 1;
        if bytes.len() > max {
            return Err(Error::invalid(format!(
                "the name takes {} bytes, the field holds at most {max}",
                bytes.len()
            )));
        }
        let mut raw = vec![0u8; kind.width()];
        raw[..bytes.len()].copy_from_slice(&bytes);
        Ok(Self { raw })
    }

    /// The same name with every byte after the first NUL set to 0 (what the
    /// documentation asks writers to do; write-back of parsed records keeps
    /// them by default, for byte identity).
    ///
    /// ```
    /// let name = wthor_format::Name { raw: b"Anna\0junk".to_vec() };
    /// assert_eq!(name.cleaned().raw, b"Anna\0\0\0\0\0");
    /// ```
    #[must_use]
    pub fn cleaned(&self) -> Self {
        let mut raw = self.raw.clone();
        if let Some(nul) = raw.iter().position(|&b| b == 0) {
            raw[nul..].fill(0);
        }
        Self { raw }
    }

    /// Views the raw field.
    #[must_use]
    #[inline]
    pub fn view(&self) -> NameView<'_> {
        NameView { raw: &self.raw }
    }
}

/// Parses one name record (a complete nom parser).
///
/// # Errors
///
/// A nom error when fewer than `kind.width()` bytes are given.
pub fn parse_name(kind: NameKind) -> impl Fn(&[u8]) -> IResult<&[u8], NameView<'_>> {
    move |input| {
        let (rest, raw) = take(kind.width())(input)?;
        Ok((rest, NameView { raw }))
    }
}

/// Writes one name record, its raw bytes as they are.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) when the raw
/// field is not exactly `kind.width()` bytes; [`ErrorKind::Io`](crate::ErrorKind::Io).
pub fn write_name<W: Write + ?Sized>(
    name: &Name,
    kind: NameKind,
    out: &mut W,
) -> Result<(), Error> {
    if name.raw.len() != kind.width() {
        return Err(Error::invalid(format!(
            "a name field is {} bytes, got {}",
            kind.width(),
            name.raw.len()
        )));
    }
    out.write_all(&name.raw)?;
    Ok(())
}

/// A parsed name file.
#[derive(Clone, Debug)]
pub struct NamesFile<'a> {
    header: Header,
    kind: NameKind,
    records: &'a [u8],
    encoding: &'static Encoding,
    warnings: Vec<Warning>,
}

impl<'a> NamesFile<'a> {
    /// The header as stored.
    #[must_use]
    #[inline]
    pub const fn header(&self) -> &Header {
        &self.header
    }

    /// Players or tournaments.
    #[must_use]
    #[inline]
    pub const fn kind(&self) -> NameKind {
        self.kind
    }

    /// Number of whole records read.
    #[must_use]
    #[inline]
    pub const fn len(&self) -> usize {
        self.records.len() / self.kind.width()
    }

    /// No record at all.
    #[must_use]
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The record at `index` (from 0).
    #[must_use]
    #[inline]
    pub fn get(&self, index: usize) -> Option<NameView<'a>> {
        let raw = record_at(self.records, index, self.kind.width())?;
        Some(NameView { raw })
    }

    /// The name at `index` decoded with the encoding of the read options;
    /// `None` past the end (a game file of another release can point there).
    ///
    /// ```
    /// use wthor_format::{Header, Name, NameKind, ReadOptions, parse_names_file, write_names_file};
    /// let enc = encoding_rs::WINDOWS_1252;
    /// let names = [Name::from_text("Edax (delorme)", NameKind::Players, enc)?];
    /// let mut bytes = Vec::new();
    /// write_names_file(&Header::default(), NameKind::Players, &names, &mut bytes)?;
    /// let file = parse_names_file(&bytes, NameKind::Players, &ReadOptions::default())?;
    /// assert_eq!(file.name(0).as_deref(), Some("Edax (delorme)"));
    /// assert_eq!(file.name(1), None);
    /// # Ok::<(), wthor_format::Error>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn name(&self, index: usize) -> Option<Cow<'a, str>> {
        Some(self.get(index)?.decode(self.encoding))
    }

    /// Every record, in file order.
    #[must_use]
    #[inline]
    pub fn names(&self) -> Names<'a> {
        Names {
            chunks: self.records.chunks_exact(self.kind.width()),
        }
    }

    /// The encoding used by [`NamesFile::name`].
    #[must_use]
    #[inline]
    pub const fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The warnings found while reading.
    #[must_use]
    #[inline]
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// Writes the file back: header with N2 set to the number of records,
    /// then the raw records (bytes after the NULs preserved).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) with more
    /// than 65,535 records; [`ErrorKind::Io`](crate::ErrorKind::Io).
    #[inline]
    pub fn write_to<W: Write + ?Sized>(&self, out: &mut W) -> Result<(), Error> {
        let mut header = self.header;
        header.n2 = count_u16(self.len())?;
        write_header(&header, out)?;
        out.write_all(self.records)?;
        Ok(())
    }
}

fn count_u16(len: usize) -> Result<u16, Error> {
    let count = count_u32(len, "names")?;
    u16::try_from(count)
        .map_err(|_| Error::invalid(format!("{len} names do not fit the u16 count N2")))
}

/// Iterator over the records of a [`NamesFile`].
#[derive(Clone, Debug)]
pub struct Names<'a> {
    chunks: ChunksExact<'a, u8>,
}

impl<'a> Iterator for Names<'a> {
    type Item = NameView<'a>;

    fn next(&mut self) -> Option<NameView<'a>> {
        self.chunks.next().map(|raw| NameView { raw })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.chunks.size_hint()
    }
}

impl ExactSizeIterator for Names<'_> {}
impl FusedIterator for Names<'_> {}

/// Parses a players (`kind = Players`) or tournaments file. Zero-copy.
///
/// Warnings: N2 disagreeing with the length, trailing bytes, header fields
/// other than 0 (N1, year, P1 — one converter writes 124 —, P2, P3), bytes
/// after a name's NUL, a name with no NUL.
///
/// # Errors
///
/// [`ErrorKind::Empty`](crate::ErrorKind::Empty),
/// [`ErrorKind::Truncated`](crate::ErrorKind::Truncated),
/// [`ErrorKind::Strict`](crate::ErrorKind::Strict) for any warning in strict mode.
pub fn parse_names_file<'a>(
    bytes: &'a [u8],
    kind: NameKind,
    options: &ReadOptions,
) -> Result<NamesFile<'a>, Error> {
    let header = read_header(bytes)?;
    let mut sink = Sink::new(options);
    expect_zero(
        &mut sink,
        &header,
        &[
            HeaderField::N1,
            HeaderField::Year,
            HeaderField::P1,
            HeaderField::P2,
            HeaderField::P3,
        ],
        "0 in name files",
    )?;
    let width = kind.width();
    let records = whole_records(
        bytes,
        HEADER_LEN,
        width,
        header.n2.into(),
        HeaderField::N2,
        &mut sink,
    )?;
    for (index, raw) in records.chunks_exact(width).enumerate() {
        let offset = (HEADER_LEN + index * width) as u64;
        match raw.iter().position(|&b| b == 0) {
            None => sink.warn(
                offset,
                Some(index as u64),
                WarningKind::NameNotTerminated { width },
            )?,
            Some(nul) => {
                let count = raw[nul..].iter().filter(|&&b| b != 0).count();
                if count > 0 {
                    sink.warn(
                        offset + nul as u64,
                        Some(index as u64),
                        WarningKind::GarbageAfterNul { count },
                    )?;
                }
            }
        }
    }
    Ok(NamesFile {
        header,
        kind,
        records,
        encoding: options.encoding,
        warnings: sink.list,
    })
}

/// Writes a name file: `header` as given except N2, set to `names.len()`.
///
/// # Errors
///
/// [`ErrorKind::InvalidValue`](crate::ErrorKind::InvalidValue) for a field of
/// the wrong width or more than 65,535 names; [`ErrorKind::Io`](crate::ErrorKind::Io).
pub fn write_names_file<W: Write + ?Sized>(
    header: &Header,
    kind: NameKind,
    names: &[Name],
    out: &mut W,
) -> Result<(), Error> {
    let mut header = *header;
    header.n2 = count_u16(names.len())?;
    write_header(&header, out)?;
    for name in names {
        write_name(name, kind, out)?;
    }
    Ok(())
}
