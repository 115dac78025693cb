//! Durations and timestamps as cel-go keeps them: a duration is Go's `time.Duration` (signed
//! nanoseconds); a timestamp is an instant between years 1 and 9999 with the UTC offset it was
//! written with (kept for `string()`; accessors default to UTC).

use crate::error::{Error, Result};
use std::fmt;

/// A signed span of nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Duration(pub i64);

/// An instant with the offset it is shown in.
#[derive(Debug, Clone, Copy)]
pub struct Timestamp {
    /// Seconds since the Unix epoch.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nanos: u32,
    /// Seconds east of UTC the instant is shown in.
    pub offset: i32,
}

const MIN_UNIX: i64 = -62_135_596_800;
const MAX_UNIX: i64 = 253_402_300_799;
const NANOS: i64 = 1_000_000_000;

impl PartialEq for Timestamp {
    fn eq(&self, o: &Self) -> bool {
        (self.secs, self.nanos) == (o.secs, o.nanos)
    }
}
impl Eq for Timestamp {}
impl PartialOrd for Timestamp {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Timestamp {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.secs, self.nanos).cmp(&(o.secs, o.nanos))
    }
}

fn overflow() -> Error {
    Error::new("integer overflow")
}

fn ts_overflow() -> Error {
    Error::new("timestamp overflow")
}

impl Duration {
    /// `d1 + d2`.
    pub fn checked_add(self, o: Duration) -> Result<Duration> {
        self.0.checked_add(o.0).map(Duration).ok_or_else(overflow)
    }
    /// `d1 - d2`.
    pub fn checked_sub(self, o: Duration) -> Result<Duration> {
        self.0.checked_sub(o.0).map(Duration).ok_or_else(overflow)
    }
    /// Go's `time.ParseDuration`.
    pub fn parse(s: &str) -> Option<Duration> {
        parse_duration(s).map(Duration)
    }
}

impl fmt::Display for Duration {
    /// cel-go's `string(d)`: seconds, shortest decimal, `s`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = (self.0 / NANOS) as f64 + (self.0 % NANOS) as f64 / 1e9;
        write!(f, "{secs}s")
    }
}

fn parse_duration(s: &str) -> Option<i64> {
    let (neg, mut rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if rest == "0" {
        return Some(0);
    }
    if rest.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        let int_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u64 = 0;
        for b in rest[..int_len].bytes() {
            v = v.checked_mul(10)?.checked_add(u64::from(b - b'0'))?;
            if v > 1 << 63 {
                return None;
            }
        }
        rest = &rest[int_len..];
        let mut frac: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut frac_len = 0;
        if let Some(r) = rest.strip_prefix('.') {
            frac_len = r.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflowed = false;
            for b in r[..frac_len].bytes() {
                if overflowed {
                    continue;
                }
                match frac
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u64::from(b - b'0')))
                {
                    Some(x) if x <= 1 << 63 => {
                        frac = x;
                        scale *= 10.0;
                    }
                    _ => overflowed = true,
                }
            }
            rest = &r[frac_len..];
            if int_len == 0 && frac_len == 0 {
                return None;
            }
        } else if int_len == 0 {
            return None;
        }
        let _ = frac_len;
        let unit_len = rest
            .find(|c: char| c == '.' || c.is_ascii_digit())
            .unwrap_or(rest.len());
        let unit: u64 = match &rest[..unit_len] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        rest = &rest[unit_len..];
        if v > (1u64 << 63) / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            v = v.checked_add((frac as f64 * (unit as f64 / scale)) as u64)?;
            if v > 1 << 63 {
                return None;
            }
        }
        total = total.checked_add(v)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        Some((total as i64).wrapping_neg())
    } else if total > i64::MAX as u64 {
        None
    } else {
        Some(total as i64)
    }
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The civil date of a day since 1970-01-01.
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (
        if m <= 2 {
            yoe + era * 400 + 1
        } else {
            yoe + era * 400
        },
        m,
        d,
    )
}

/// A timestamp's civil fields in some offset.
#[derive(Debug, Clone, Copy)]
pub struct Civil {
    /// Year.
    pub year: i64,
    /// Month, 1-12.
    pub month: i64,
    /// Day of month, 1-31.
    pub day: i64,
    /// Hour.
    pub hour: i64,
    /// Minute.
    pub minute: i64,
    /// Second.
    pub second: i64,
    /// Day of the week, Sunday 0.
    pub weekday: i64,
    /// Day of the year, 0-based.
    pub yearday: i64,
}

impl Timestamp {
    /// A UTC timestamp of Unix seconds, if within years 1-9999.
    pub fn from_unix(secs: i64, nanos: u32) -> Result<Timestamp> {
        if !(MIN_UNIX..=MAX_UNIX).contains(&secs) {
            return Err(ts_overflow());
        }
        Ok(Timestamp {
            secs,
            nanos,
            offset: 0,
        })
    }

    /// `t + d`.
    pub fn checked_add(self, d: Duration) -> Result<Timestamp> {
        let total =
            i128::from(self.secs) * i128::from(NANOS) + i128::from(self.nanos) + i128::from(d.0);
        let secs = total.div_euclid(i128::from(NANOS));
        let secs = i64::try_from(secs).map_err(|_| ts_overflow())?;
        let mut t = Timestamp::from_unix(secs, total.rem_euclid(i128::from(NANOS)) as u32)?;
        t.offset = self.offset;
        Ok(t)
    }

    /// `t1 - t2`.
    pub fn since(self, o: Timestamp) -> Result<Duration> {
        let a = i128::from(self.secs) * i128::from(NANOS) + i128::from(self.nanos);
        let b = i128::from(o.secs) * i128::from(NANOS) + i128::from(o.nanos);
        i64::try_from(a - b).map(Duration).map_err(|_| overflow())
    }

    /// The civil fields in an offset (seconds east of UTC).
    pub fn civil(&self, offset: i64) -> Civil {
        let local = self.secs + offset;
        let days = local.div_euclid(86_400);
        let sod = local.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        Civil {
            year,
            month,
            day,
            hour: sod / 3600,
            minute: sod % 3600 / 60,
            second: sod % 60,
            weekday: (days + 4).rem_euclid(7),
            yearday: days - days_from_civil(year, 1, 1),
        }
    }

    /// Go's `time.Parse(time.RFC3339, s)`, keeping the offset.
    pub fn parse(s: &str) -> Result<Timestamp> {
        parse_rfc3339(s).ok_or_else(|| {
            Error::new("type conversion error from 'string' to 'google.protobuf.Timestamp'")
        })?
    }
}

fn digits(s: &[u8], at: usize, n: usize) -> Option<i64> {
    let part = s.get(at..at + n)?;
    if !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(part.iter().fold(0, |a, b| a * 10 + i64::from(b - b'0')))
}

fn parse_rfc3339(s: &str) -> Option<Result<Timestamp>> {
    let b = s.as_bytes();
    let year = digits(b, 0, 4)?;
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || b.get(10) != Some(&b'T') {
        return None;
    }
    let month = digits(b, 5, 2)?;
    let day = digits(b, 8, 2)?;
    if b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
        return None;
    }
    let (hour, minute, second) = (digits(b, 11, 2)?, digits(b, 14, 2)?, digits(b, 17, 2)?);
    let mut i = 19;
    let mut nanos: u32 = 0;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        for (k, c) in b[i + 1..i + 1 + n].iter().enumerate() {
            if k < 9 {
                nanos = nanos * 10 + u32::from(c - b'0');
            }
        }
        for _ in n..9 {
            nanos *= 10;
        }
        i += 1 + n;
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(&sign @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            let (h, m) = (digits(b, i + 1, 2)?, digits(b, i + 4, 2)?);
            if h > 24 || m > 60 {
                return None;
            }
            let off = h * 3600 + m * 60;
            if sign == b'-' { -off } else { off }
        }
        _ => return None,
    };
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let mdays = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(1..=12).contains(&month) || day < 1 || day > mdays[(month - 1) as usize] {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let secs =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Some(Timestamp::from_unix(secs, nanos).map(|mut t| {
        t.offset = offset as i32;
        t
    }))
}

impl fmt::Display for Timestamp {
    /// Go's RFC 3339 with nanoseconds, trailing zeros dropped, in the timestamp's offset.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.civil(i64::from(self.offset));
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            c.year, c.month, c.day, c.hour, c.minute, c.second
        )?;
        if self.nanos > 0 {
            let frac = format!("{:09}", self.nanos);
            write!(f, ".{}", frac.trim_end_matches('0'))?;
        }
        if self.offset == 0 {
            write!(f, "Z")
        } else {
            let sign = if self.offset < 0 { '-' } else { '+' };
            let o = self.offset.abs();
            write!(f, "{sign}{:02}:{:02}", o / 3600, o % 3600 / 60)
        }
    }
}
