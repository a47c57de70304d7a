//! Shared by every file kind: the whole records after the fixed part, checked
//! against the header count.

use crate::error::{HeaderField, Sink, WarningKind};
use crate::{Error, ErrorKind};

/// Splits `body` (which starts at byte `body_offset` of the file) into the
/// whole records present and checks them against `header_count`.
///
/// - more whole records than the header says: warning, all are read;
/// - fewer, ending on a record boundary: warning, the records present are read;
/// - fewer, ending inside a record: the file is cut, an error even when lenient;
/// - a partial record after all the records announced: trailing-bytes warning.
///
/// Never allocates from the header count.
pub(crate) fn whole_records<'a>(
    body: &'a [u8],
    body_offset: usize,
    record_len: usize,
    header_count: u32,
    field: HeaderField,
    sink: &mut Sink,
) -> Result<&'a [u8], Error> {
    let whole = body.len() / record_len;
    let rest = body.len() % record_len;
    let whole_u64 = whole as u64;
    let rest_offset = (body_offset + whole * record_len) as u64;
    if whole_u64 < u64::from(header_count) && rest > 0 {
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
