//! Which scalars yaml.v2 takes for timestamps (`resolve.go:226 allowedTimestampFormats`,
//! `parseTimestamp`): a subset of YAML 1.1 timestamps, as Go's `time.Parse` reads four layouts.
//!
//! Decoding into `interface{}` keeps a timestamp as the string it was written as
//! (`decode.go:474`), so this only decides whether a `!!timestamp` tag is honoured or is an error.

/// One element of a `time.Parse` layout.
#[derive(Clone, Copy)]
enum Part {
    /// `2006`: exactly four digits.
    Year,
    /// `1`: a month of one or two digits, 1 to 12.
    Month,
    /// `2`: a day of one or two digits, checked against the month at the end.
    Day,
    /// `15`: an hour of one or two digits, 0 to 23.
    Hour,
    /// `4`: a minute of one or two digits, 0 to 59.
    Minute,
    /// `5`: a second of one or two digits, 0 to 59.
    Second,
    /// `.999999999`: an optional fraction, `.` or `,` then any number of digits.
    Fraction,
    /// `Z07:00`: `Z`, or a sign, two digits, `:`, two digits.
    Zone,
    /// Literal text; a space matches one or more spaces.
    Lit(u8),
}

use Part::{Day, Fraction, Hour, Lit, Minute, Month, Second, Year, Zone};

/// yaml.v2's layouts, in the order it tries them.
const LAYOUTS: [&[Part]; 4] = [
    // "2006-1-2T15:4:5.999999999Z07:00"
    &[
        Year,
        Lit(b'-'),
        Month,
        Lit(b'-'),
        Day,
        Lit(b'T'),
        Hour,
        Lit(b':'),
        Minute,
        Lit(b':'),
        Second,
        Fraction,
        Zone,
    ],
    // "2006-1-2t15:4:5.999999999Z07:00"
    &[
        Year,
        Lit(b'-'),
        Month,
        Lit(b'-'),
        Day,
        Lit(b't'),
        Hour,
        Lit(b':'),
        Minute,
        Lit(b':'),
        Second,
        Fraction,
        Zone,
    ],
    // "2006-1-2 15:4:5.999999999"
    &[
        Year,
        Lit(b'-'),
        Month,
        Lit(b'-'),
        Day,
        Lit(b' '),
        Hour,
        Lit(b':'),
        Minute,
        Lit(b':'),
        Second,
        Fraction,
    ],
    // "2006-1-2"
    &[Year, Lit(b'-'), Month, Lit(b'-'), Day],
];

/// Whether yaml.v2's `parseTimestamp` accepts `s`.
pub(super) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    // yaml.v2's quick check: four digits, then `-`.
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    LAYOUTS.iter().any(|layout| parses(b, layout))
}

/// `time.Parse(layout, s) == nil` for one layout.
fn parses(mut s: &[u8], layout: &[Part]) -> bool {
    let (mut year, mut month, mut day) = (0u32, 0u32, 0u32);
    for part in layout {
        let ok = match *part {
            Year => match s {
                [a, b, c, d, rest @ ..] if [a, b, c, d].iter().all(|x| x.is_ascii_digit()) => {
                    year = [a, b, c, d]
                        .iter()
                        .fold(0, |n, x| n * 10 + u32::from(*x - b'0'));
                    s = rest;
                    true
                }
                _ => false,
            },
            Month => number(&mut s).is_some_and(|n| {
                month = n;
                (1..=12).contains(&n)
            }),
            Day => number(&mut s).is_some_and(|n| {
                day = n;
                true
            }),
            Hour => number(&mut s).is_some_and(|n| n < 24),
            Minute | Second => number(&mut s).is_some_and(|n| n < 60),
            Fraction => {
                if let [b'.' | b',', d, ..] = s {
                    if d.is_ascii_digit() {
                        let n = 1 + s[1..].iter().take_while(|c| c.is_ascii_digit()).count();
                        s = &s[n..];
                    }
                }
                true
            }
            Zone => zone(&mut s),
            Lit(b' ') => {
                // Go's `skip`: a space in the layout eats every leading space of the value, and
                // the value must have one unless it has ended.
                if s.first().is_some_and(|c| *c != b' ') {
                    false
                } else {
                    s = &s[s.iter().take_while(|c| **c == b' ').count()..];
                    true
                }
            }
            Lit(c) => match s {
                [first, rest @ ..] if *first == c => {
                    s = rest;
                    true
                }
                _ => false,
            },
        };
        if !ok {
            return false;
        }
    }
    s.is_empty() && day >= 1 && day <= days_in(month, year)
}

/// Go's `getnum(s, false)`: one or two digits.
fn number(s: &mut &[u8]) -> Option<u32> {
    match *s {
        [a, b, rest @ ..] if a.is_ascii_digit() && b.is_ascii_digit() => {
            *s = rest;
            Some(u32::from(a - b'0') * 10 + u32::from(b - b'0'))
        }
        [a, rest @ ..] if a.is_ascii_digit() => {
            *s = rest;
            Some(u32::from(a - b'0'))
        }
        _ => None,
    }
}

/// `Z07:00`: `Z`, or `±hh:mm` with hh ≤ 24 and mm ≤ 60 (Go allows both bounds).
fn zone(s: &mut &[u8]) -> bool {
    match *s {
        [b'Z', rest @ ..] => {
            *s = rest;
            true
        }
        [sign, h1, h2, b':', m1, m2, rest @ ..]
            if matches!(sign, b'+' | b'-')
                && [h1, h2, m1, m2].iter().all(|c| c.is_ascii_digit()) =>
        {
            let two = |a: u8, b: u8| u32::from(a - b'0') * 10 + u32::from(b - b'0');
            *s = rest;
            two(*h1, *h2) <= 24 && two(*m1, *m2) <= 60
        }
        _ => false,
    }
}

/// The days of `month` (1-12) in the proleptic Gregorian `year`.
fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
