//! The `date`, `datetime` and `duration` formats.
//!
//! A date is what Go's `time.Parse("2006-01-02", s)` takes: four digits, two, two, a real day
//! of the month. A date-time is looser than RFC 3339 (kube-openapi's `IsDateTime`): the text,
//! lowercased, is split at every `t`; the first piece is a date, the second matches
//! `^(\d\d):(\d\d):(\d\d)(.\d+)?(z|[+-]\d\d:\d\d)$` with hours to 23 and minutes and seconds
//! to 59 (the `.` any character but a line feed), and the rest is not looked at. A duration is
//! Go's `time.ParseDuration`, or else strfmt's own reading: anywhere in the text, digits,
//! optional spaces and a unit word (`5 days`, `3 weeks`, `1 sec`), one such known unit enough.

use super::is_go_space;

/// `time.Parse("2006-01-02", s)` succeeds.
pub(super) fn is_date(s: &[u8]) -> bool {
    let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = s else {
        return false;
    };
    if ![y0, y1, y2, y3, m0, m1, d0, d1]
        .iter()
        .all(u8::is_ascii_digit)
    {
        return false;
    }
    let n = |digits: &[u8]| {
        digits
            .iter()
            .fold(0u32, |n, d| n * 10 + u32::from(d - b'0'))
    };
    let (year, month, day) = (n(&[y0, y1, y2, y3]), n(&[m0, m1]), n(&[d0, d1]));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// kube-openapi's `IsDateTime`.
pub(super) fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    // Only `T` lowercases to `t`, and lowercasing maps one character to one, so the pieces can
    // be cut from the text as it is.
    let mut pieces = s.split(['t', 'T']);
    let (Some(date), Some(time)) = (pieces.next(), pieces.next()) else {
        return false;
    };
    is_date(date.as_bytes()) && is_time(time)
}

/// The second piece of a date-time: `HH:MM:SS`, an optional fraction after any one character
/// (a line feed aside), then `z` (either case: the text was lowercased) or `±HH:MM`.
fn is_time(s: &str) -> bool {
    let b = s.as_bytes();
    let two = |i: usize, max: &[u8; 2]| {
        b.get(i..i + 2)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit) && d <= max.as_slice())
    };
    let clock = two(0, b"23")
        && b.get(2) == Some(&b':')
        && two(3, b"59")
        && b.get(5) == Some(&b':')
        && two(6, b"59");
    if !clock {
        return false;
    }
    let rest = &s[8..];
    let fraction = if let Some(f) = rest.strip_suffix(['z', 'Z']) {
        f
    } else {
        let rb = rest.as_bytes();
        let n = rb.len();
        let zone = n >= 6
            && matches!(rb[n - 6], b'+' | b'-')
            && rb[n - 5].is_ascii_digit()
            && rb[n - 4].is_ascii_digit()
            && rb[n - 3] == b':'
            && rb[n - 2].is_ascii_digit()
            && rb[n - 1].is_ascii_digit();
        if !zone {
            return false;
        }
        &rest[..n - 6]
    };
    let mut chars = fraction.chars();
    match chars.next() {
        None => true,
        Some('\n') => false,
        Some(_) => {
            let digits = chars.as_str();
            !digits.is_empty() && digits.bytes().all(|d| d.is_ascii_digit())
        }
    }
}

/// strfmt's `ParseDuration` succeeds: Go's `time.ParseDuration`, else its own reading.
pub(super) fn is_duration(s: &str) -> bool {
    go_parse_duration(s.as_bytes()) || words_duration(s)
}

/// Go's `time.ParseDuration` succeeds: an optional sign, then numbers (a fraction allowed)
/// each with a unit of `ns`, `us`, `µs`, `μs`, `ms`, `s`, `m`, `h`, within ±2⁶³ ns; or `0`.
fn go_parse_duration(s: &[u8]) -> bool {
    const MAX: u64 = 1 << 63;
    let (neg, mut s) = match s {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, s),
    };
    if s == b"0" {
        return true;
    }
    if s.is_empty() {
        return false;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return false;
        }
        let int_len = s.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &d in &s[..int_len] {
            if v > MAX / 10 {
                return false;
            }
            v = v * 10 + u64::from(d - b'0');
            if v > MAX {
                return false;
            }
        }
        s = &s[int_len..];
        let (mut f, mut scale, mut post) = (0u64, 1f64, false);
        if let [b'.', rest @ ..] = s {
            let frac_len = rest.iter().take_while(|b| b.is_ascii_digit()).count();
            let mut overflow = false;
            for &d in &rest[..frac_len] {
                if overflow || f > (MAX - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = f * 10 + u64::from(d - b'0');
                if y > MAX {
                    overflow = true;
                    continue;
                }
                f = y;
                scale *= 10.0;
            }
            post = frac_len > 0;
            s = &rest[frac_len..];
        }
        if int_len == 0 && !post {
            return false;
        }
        let unit_len = s
            .iter()
            .take_while(|&&b| b != b'.' && !b.is_ascii_digit())
            .count();
        let unit: u64 = match &s[..unit_len] {
            b"ns" => 1,
            // Also the micro sign (U+00B5) and the Greek mu (U+03BC).
            b"us" | b"\xC2\xB5s" | b"\xCE\xBCs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return false,
        };
        s = &s[unit_len..];
        if v > MAX / unit {
            return false;
        }
        v *= unit;
        if f > 0 {
            // Go's own float arithmetic, truncated as its conversion truncates.
            v += (f as f64 * (unit as f64 / scale)) as u64;
            if v > MAX {
                return false;
            }
        }
        // Go's unsigned sum wraps: two terms of exactly 2⁶³ add up to 0.
        total = total.wrapping_add(v);
        if total > MAX {
            return false;
        }
    }
    neg || total < MAX
}

/// strfmt's fallback: every match of `(\d+)\s*([A-Za-zµ]+)` (Go's ASCII `\d` and `\s`) whose
/// number is an `int`; valid when one match's unit, lowercased, is a unit's name (`ns`, `us`,
/// `µs`, `ms`, `s`, `m`, `h`, `d`, `w`, `sec`, `min`, `hr`, `day`, `wk`) or starts with its
/// long name (`nano`, `micro`, `milli`, `sec`, `min`, `hour`, `day`, `week`).
fn words_duration(s: &str) -> bool {
    let b = s.as_bytes();
    let mut ok = false;
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let digits_end = i + b[i..].iter().take_while(|d| d.is_ascii_digit()).count();
        let unit_start = digits_end
            + b[digits_end..]
                .iter()
                .take_while(|&&c| is_go_space(c))
                .count();
        let unit: String = s[unit_start..]
            .chars()
            .take_while(|&c| c.is_ascii_alphabetic() || c == 'µ')
            .collect();
        if unit.is_empty() {
            // The digits lead nowhere; a match may start at the next digit run only.
            i = digits_end;
            continue;
        }
        // strconv.Atoi on the digits fails past an int64 (leading zeros are fine), and fails
        // the whole reading.
        let number = s[i..digits_end].trim_start_matches('0');
        if !number.is_empty() && number.parse::<i64>().is_err() {
            return false;
        }
        ok |= known_unit(&unit.to_lowercase());
        i = unit_start + unit.len();
    }
    ok
}

fn known_unit(unit: &str) -> bool {
    const UNITS: [&[&str]; 8] = [
        &["ns", "nano"],
        &["us", "µs", "micro"],
        &["ms", "milli"],
        &["s", "sec"],
        &["m", "min"],
        &["h", "hr", "hour"],
        &["d", "day"],
        &["w", "wk", "week"],
    ];
    UNITS.iter().any(|variants| {
        variants.iter().enumerate().any(|(i, v)| {
            (i == variants.len() - 1 && unit.starts_with(v)) || v.eq_ignore_ascii_case(unit)
        })
    })
}
