//! Shared by every file kind: the whole records after the fixed part, checked
//! against the header count; the header fields that must hold a given value.

use crate::error::{HeaderField, Sink, WarningKind};
use crate::header::Header;
use crate::{Error, ErrorKind};

/// Splits the bytes of the file from `body_offset` on (none when the file is
/// shorter) into the whole records present and checks them against
/// `header_count`.
///
/// - more whole records than the header says: warning, all are read;
/// - fewer, ending on a record boundary: warning, the records present are read;
/// - fewer, ending inside a record: the file is cut, an error even when
///   lenient, unless [`ReadOptions::read_cut_records`](crate::ReadOptions)
///   (not strict): a warning, the whole records are read;
/// - a partial record after all the records announced: trailing-bytes warning.
///
/// Never allocates from the header count.
pub(crate) fn whole_records<'a>(
    bytes: &'a [u8],
    body_offset: usize,
    record_len: usize,
    header_count: u32,
    field: HeaderField,
    sink: &mut Sink,
) -> Result<&'a [u8], Error> {
    let body = bytes.get(body_offset..).unwrap_or_default();
    let whole = body.len() / record_len;
    let rest = body.len() % record_len;
    let whole_u64 = whole as u64;
    let rest_offset = (body_offset + whole * record_len) as u64;
    if whole_u64 < u64::from(header_count) && rest > 0 {
        if sink.read_cut_records {
            sink.warn(
                rest_offset,
                Some(whole_u64),
                WarningKind::CutRecord {
                    field,
                    header: header_count,
                    whole: whole_u64,
                    len: rest as u64,
                    record_len,
                },
            )?;
            return Ok(&body[..whole * record_len]);
        }
        return Err(Error::new(
            ErrorKind::Truncated {
                what: "record",
                expected: record_len as u64,
                found: rest as u64,
            },
            rest_offset,
            Some(whole_u64),
        ));
    }
    if whole_u64 != u64::from(header_count) {
        sink.warn(
            field.offset(),
            None,
            WarningKind::CountMismatch {
                field,
                header: header_count,
                actual: whole_u64,
            },
        )?;
    }
    if rest > 0 {
        sink.warn(
            rest_offset,
            None,
            WarningKind::TrailingBytes {
                len: rest as u64,
                record_len,
            },
        )?;
    }
    Ok(&body[..whole * record_len])
}

/// Record `index` (from 0) of `records`, `len` bytes each; `None` past the end.
#[inline]
pub(crate) fn record_at(records: &[u8], index: usize, len: usize) -> Option<&[u8]> {
    let start = index.checked_mul(len)?;
    records.get(start..start.checked_add(len)?)
}

/// The value of `field` in `header`.
fn field_value(header: &Header, field: HeaderField) -> u32 {
    match field {
        HeaderField::N1 => header.n1,
        HeaderField::N2 => header.n2.into(),
        HeaderField::Year => header.year.into(),
        HeaderField::P1 => header.p1.into(),
        HeaderField::P2 => header.p2.into(),
        HeaderField::P3 => header.p3.into(),
    }
}

/// Warns, in the order given, for each of `fields` that is not 0 in `header`.
pub(crate) fn expect_zero(
    sink: &mut Sink,
    header: &Header,
    fields: &[HeaderField],
    expected: &'static str,
) -> Result<(), Error> {
    for &field in fields {
        let value = field_value(header, field);
        expect_field(sink, field, value, value == 0, expected)?;
    }
    Ok(())
}

/// Warns when a header field is not `expected`.
pub(crate) fn expect_field(
    sink: &mut Sink,
    field: HeaderField,
    value: u32,
    ok: bool,
    expected: &'static str,
) -> Result<(), Error> {
    if ok {
        Ok(())
    } else {
        sink.warn(
            field.offset(),
            None,
            WarningKind::HeaderField {
                field,
                value,
                expected,
            },
        )
    }
}

/// The record count a writer stores: the number of records written.
pub(crate) fn count_u32(len: usize, what: &str) -> Result<u32, Error> {
    u32::try_from(len).map_err(|_| Error::invalid(format!("{len} {what} do not fit a u32 count")))
}
