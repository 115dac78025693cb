//! The `time` of a managedFields entry: whole seconds, as the API server keeps and compares
//! them (Go's `metav1.Time`).
//!
//! On the wire a time is RFC 3339 in UTC with no fraction (`META/time.go:162-173`); reading
//! accepts what Go's `time.Parse(time.RFC3339, …)` accepts, fractions and offsets included
//! (`META/time.go:100-118`), and every comparison in the pipeline uses `Time.Unix()`, so a
//! [`Timestamp`] is the Unix second (the floor of the instant).

use std::fmt;
use std::str::FromStr;

/// A point in time, to the second (Go's `metav1.Time` as the field manager uses it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp(i64);

/// Seconds from 0001-01-01T00:00:00Z (Go's zero `time.Time`) to the Unix epoch.
const GO_ZERO_UNIX: i64 = -62_135_596_800;

/// A time Go's `time.Parse(time.RFC3339, …)` refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("parsing time {text:?}: {reason}")]
pub struct TimeError {
    text: String,
    reason: &'static str,
}

impl Timestamp {
    /// The time `seconds` after 1970-01-01T00:00:00Z.
    pub const fn from_unix(seconds: i64) -> Timestamp {
        Timestamp(seconds)
    }

    /// Seconds since 1970-01-01T00:00:00Z (Go's `Time.Unix()`).
    pub const fn unix(self) -> i64 {
        self.0
    }

    /// The clock of this machine, to the second.
    pub fn now() -> Timestamp {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        Timestamp(since.map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX)))
    }

    /// Reads an RFC 3339 time as Go's `time.Parse(time.RFC3339, …)` does: a fraction
    /// (after `.` or `,`) is accepted and dropped, an offset is applied, an hour may have
    /// one digit, ranges are checked (February 30 is refused).
    ///
    /// ```
    /// use smd::managedfields::Timestamp;
    /// let t = Timestamp::parse("2024-01-01T01:00:00.9+01:00").unwrap();
    /// assert_eq!(t.to_string(), "2024-01-01T00:00:00Z");
    /// assert!(Timestamp::parse("2024-01-01T01:00:00").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Timestamp, TimeError> {
        parse(text.as_bytes()).map_err(|reason| TimeError {
            text: text.to_owned(),
            reason,
        })
    }

    /// Whether this is Go's zero time, which `metav1.Time` writes as `null`.
    pub(crate) fn is_go_zero(self) -> bool {
        self.0 == GO_ZERO_UNIX
    }
}

impl FromStr for Timestamp {
    type Err = TimeError;
    fn from_str(s: &str) -> Result<Timestamp, TimeError> {
        Timestamp::parse(s)
    }
}

impl fmt::Display for Timestamp {
    /// RFC 3339 in UTC with no fraction, as `metav1.Time` marshals: `2024-01-01T00:00:00Z`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let days = self.0.div_euclid(86_400);
        let secs = self.0.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        // Go's appendInt: a sign, then at least four digits.
        if year < 0 {
            write!(f, "-{:04}", -year)?;
        } else {
            write!(f, "{year:04}")?;
        }
        write!(
            f,
            "-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    }
}

/// Go's `time.parse` for the RFC 3339 layout (its fast path accepts a subset of this).
fn parse(s: &[u8]) -> Result<Timestamp, &'static str> {
    let mut at = 0;
    let year = fixed(s, &mut at, 4).ok_or("bad year")?;
    literal(s, &mut at, b'-')?;
    let month = fixed(s, &mut at, 2).ok_or("bad month")?;
    literal(s, &mut at, b'-')?;
    let day = fixed(s, &mut at, 2).ok_or("bad day")?;
    literal(s, &mut at, b'T')?;
    // `15` in a Go layout reads one or two digits.
    let hour = match (digit(s, at), digit(s, at + 1)) {
        (Some(a), Some(b)) => {
            at += 2;
            a * 10 + b
        }
        (Some(a), None) => {
            at += 1;
            a
        }
        _ => return Err("bad hour"),
    };
    literal(s, &mut at, b':')?;
    let minute = fixed(s, &mut at, 2).ok_or("bad minute")?;
    literal(s, &mut at, b':')?;
    let second = fixed(s, &mut at, 2).ok_or("bad second")?;
    // A fraction the layout does not have is read and dropped.
    if matches!(s.get(at), Some(b'.' | b',')) && digit(s, at + 1).is_some() {
        at += 1;
        while digit(s, at).is_some() {
            at += 1;
        }
    }
    let offset = match s.get(at) {
        Some(b'Z') => {
            at += 1;
            0
        }
        Some(&sign @ (b'+' | b'-')) => {
            let rest = s.get(at..).unwrap_or_default();
            if rest.len() < 6 || rest[3] != b':' {
                return Err("bad zone");
            }
            at += 1;
            let hh = fixed(s, &mut at, 2).ok_or("bad zone")?;
            at += 1;
            let mm = fixed(s, &mut at, 2).ok_or("bad zone")?;
            if hh > 24 || mm > 60 {
                return Err("time zone offset out of range");
            }
            let offset = hh * 3600 + mm * 60;
            if sign == b'-' { -offset } else { offset }
        }
        _ => return Err("bad zone"),
    };
    if at != s.len() {
        return Err("extra text");
    }
    if !(1..=12).contains(&month) {
        return Err("month out of range");
    }
    if day < 1 || day > days_in(month, year) {
        return Err("day out of range");
    }
    if hour > 23 {
        return Err("hour out of range");
    }
    if minute > 59 {
        return Err("minute out of range");
    }
    if second > 59 {
        return Err("second out of range");
    }
    let days = days_from_civil(year, month, day);
    Ok(Timestamp(
        days * 86_400 + hour * 3600 + minute * 60 + second - offset,
    ))
}

fn digit(s: &[u8], at: usize) -> Option<i64> {
    s.get(at)
        .filter(|c| c.is_ascii_digit())
        .map(|c| i64::from(c - b'0'))
}

/// Exactly `n` digits.
fn fixed(s: &[u8], at: &mut usize, n: usize) -> Option<i64> {
    let mut x = 0;
    for i in 0..n {
        x = x * 10 + digit(s, *at + i)?;
    }
    *at += n;
    Some(x)
}

fn literal(s: &[u8], at: &mut usize, c: u8) -> Result<(), &'static str> {
    if s.get(*at) == Some(&c) {
        *at += 1;
        Ok(())
    } else {
        Err("bad separator")
    }
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in(month: i64, year: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn unix(s: &str) -> Result<i64, TimeError> {
        Timestamp::parse(s).map(Timestamp::unix)
    }

    // Each value below was printed by Go 1.26's `time.Parse(time.RFC3339, s)` and `.Unix()`.
    #[test]
    fn parse_like_go() {
        assert_eq!(unix("2024-01-01T01:00:00Z").unwrap(), 1_704_070_800);
        assert_eq!(unix("2024-01-01T1:00:00Z").unwrap(), 1_704_070_800);
        assert_eq!(unix("2024-01-01T01:00:00.9+01:00").unwrap(), 1_704_067_200);
        assert_eq!(unix("2024-01-01T01:00:00,5Z").unwrap(), 1_704_070_800);
        assert_eq!(unix("2024-01-01T01:00:00+24:00").unwrap(), 1_703_984_400);
        assert_eq!(
            unix("2024-01-01T01:00:00.1234567891234Z").unwrap(),
            1_704_070_800
        );
        assert_eq!(unix("0000-01-01T00:00:00Z").unwrap(), -62_167_219_200);
        for bad in [
            "2024-01-01t01:00:00Z",
            "2024-01-01T01:00:00z",
            "2024-01-01T01:00:00+0100",
            "2024-01-01T01:00:00",
            "2024-01-01T24:00:00Z",
            "2024-02-30T01:00:00Z",
            "2024-01-01T01:00:60Z",
            "2024-01-01T01:00:00.Z",
        ] {
            assert!(unix(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn format_utc_whole_seconds() {
        assert_eq!(
            Timestamp::from_unix(1_704_067_200).to_string(),
            "2024-01-01T00:00:00Z"
        );
        assert_eq!(Timestamp::from_unix(0).to_string(), "1970-01-01T00:00:00Z");
        assert_eq!(
            Timestamp::from_unix(GO_ZERO_UNIX).to_string(),
            "0001-01-01T00:00:00Z"
        );
        assert_eq!(Timestamp::from_unix(-1).to_string(), "1969-12-31T23:59:59Z");
        assert_eq!(
            Timestamp::parse("2000-02-29T23:59:59-00:30")
                .unwrap()
                .to_string(),
            "2000-03-01T00:29:59Z"
        );
    }
}
