//! Creation dates: today's, a Unix time's, a `YYYY-MM-DD` read.

use wthor_format::CreationDate;

/// The calendar date (UTC) of a Unix time in seconds, as a creation date.
///
/// ```
/// let d = wthor_db::import::date_of_unix(1_700_000_000);
/// assert_eq!(d.to_string(), "2023-11-14");
/// ```
#[must_use]
pub fn date_of_unix(secs: i64) -> CreationDate {
    // Howard Hinnant's civil_from_days.
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let year = year.clamp(0, 25_599);
    CreationDate {
        century: (year / 100) as u8,
        year: (year % 100) as u8,
        month: month as u8,
        day: day as u8,
    }
}

/// Today's date (UTC), as a creation date.
#[must_use]
pub fn today() -> CreationDate {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    date_of_unix(i64::try_from(secs).unwrap_or(0))
}

/// A creation date that is not `YYYY-MM-DD` (years 1900 to 2555).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?}: expected YYYY-MM-DD")]
pub struct DateError {
    /// The text given.
    pub text: String,
}

/// Reads a creation date, `YYYY-MM-DD` (years 1900 to 2555, as the header
/// stores them).
///
/// ```
/// let d = wthor_db::import::parse_date("2026-01-02").unwrap();
/// assert_eq!(d.to_string(), "2026-01-02");
/// assert!(wthor_db::import::parse_date("2026-13-01").is_err());
/// ```
///
/// # Errors
/// [`DateError`] for anything else.
pub fn parse_date(text: &str) -> Result<CreationDate, DateError> {
    let bad = || DateError {
        text: text.to_owned(),
    };
    let mut it = text.split('-').map(|p| p.parse::<u16>().map_err(|_| bad()));
    let (Some(y), Some(m), Some(d), None) = (it.next(), it.next(), it.next(), it.next()) else {
        return Err(bad());
    };
    let (y, m, d) = (y?, m?, d?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || !(1900..=2555).contains(&y) {
        return Err(bad());
    }
    Ok(CreationDate {
        century: (y / 100) as u8,
        year: (y % 100) as u8,
        month: m as u8,
        day: d as u8,
    })
}
