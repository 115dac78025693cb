//! The words of Go's `time.Parse(time.RFC3339, value)` when it refuses `value`, as
//! `metav1.Time`'s `UnmarshalJSON` passes them on (`parsing time "x" as
//! "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`). Which texts are refused is
//! [`Timestamp::parse`](crate::managedfields::Timestamp::parse)'s business; this walks the
//! layout element by element as Go's general parser does, to name the first element that
//! fails or the range that is exceeded.

const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";
const LAYOUT_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";

/// Go's error text for a `value` the RFC 3339 layout refuses, if the walk finds the fault.
pub(crate) fn rfc3339_error(value: &str) -> Option<String> {
    walk(value, false).err()
}

/// `time.Parse(metav1.RFC3339Micro, value)` (`metav1.MicroTime`): where the six fraction
/// digits start and their value, or Go's error text.
pub(crate) fn rfc3339_micro(value: &str) -> Result<(usize, u32), String> {
    match walk(value, true) {
        Ok(Some(found)) => Ok(found),
        Ok(None) => Err(format!(
            "parsing time {}: no fraction",
            quote(value.as_bytes())
        )),
        Err(e) => Err(e),
    }
}

/// The layout walk; for the micro layout, where its fraction is and what it holds.
fn walk(value: &str, micro: bool) -> Result<Option<(usize, u32)>, String> {
    match walk_inner(value, micro) {
        Step::Fault(text) => Err(text),
        Step::Done(found) => Ok(found),
    }
}

enum Step {
    Fault(String),
    Done(Option<(usize, u32)>),
}

fn walk_inner(value: &str, micro: bool) -> Step {
    let layout = if micro { LAYOUT_MICRO } else { LAYOUT };
    let v = value.as_bytes();
    let elem = |at: usize, layout_elem: &str| {
        Some(format!(
            "parsing time {} as {}: cannot parse {} as {}",
            quote(v),
            quote(layout.as_bytes()),
            quote(v.get(at..).unwrap_or_default()),
            quote(layout_elem.as_bytes())
        ))
    };
    let message = |text: String| Some(format!("parsing time {}{text}", quote(v)));
    match check(v, micro, &elem, &message) {
        Err(Some(text)) => Step::Fault(text),
        Err(None) => Step::Done(None),
        Ok(found) => Step::Done(found),
    }
}

type Found = Result<Option<(usize, u32)>, Option<String>>;

fn check(
    v: &[u8],
    micro: bool,
    elem: &dyn Fn(usize, &str) -> Option<String>,
    message: &dyn Fn(String) -> Option<String>,
) -> Found {
    let fault = |text: Option<String>| -> Found { Err(text) };
    let mut found = None;
    let range = |what: &str| message(format!(": {what} out of range"));
    let digit = |at: usize| {
        v.get(at)
            .filter(|c| c.is_ascii_digit())
            .map(|c| i64::from(c - b'0'))
    };
    // getnum: one or two digits (exactly two when fixed).
    let getnum = |at: usize, fixed: bool| -> Option<(i64, usize)> {
        let a = digit(at)?;
        match digit(at + 1) {
            Some(b) => Some((a * 10 + b, at + 2)),
            None if fixed => None,
            None => Some((a, at + 1)),
        }
    };
    let mut at = 0;
    // 2006
    let year = match v.get(at..at + 4) {
        Some(p) if digit(at).is_some() => match std::str::from_utf8(p).ok().and_then(go_atoi) {
            Some(y) => y,
            None => return fault(elem(at, "2006")),
        },
        _ => return fault(elem(at, "2006")),
    };
    at += 4;
    // -01
    if v.get(at) != Some(&b'-') {
        return fault(elem(at, "-"));
    }
    at += 1;
    let Some((month, next)) = getnum(at, true) else {
        return fault(elem(at, "01"));
    };
    if !(1..=12).contains(&month) {
        return fault(range("month"));
    }
    at = next;
    // -02
    if v.get(at) != Some(&b'-') {
        return fault(elem(at, "-"));
    }
    at += 1;
    let Some((day, next)) = getnum(at, true) else {
        return fault(elem(at, "02"));
    };
    at = next;
    // T15
    if v.get(at) != Some(&b'T') {
        return fault(elem(at, "T"));
    }
    at += 1;
    let Some((hour, next)) = getnum(at, false) else {
        return fault(elem(at, "15"));
    };
    if hour >= 24 {
        return fault(range("hour"));
    }
    at = next;
    // :04
    if v.get(at) != Some(&b':') {
        return fault(elem(at, ":"));
    }
    at += 1;
    let Some((minute, next)) = getnum(at, true) else {
        return fault(elem(at, "04"));
    };
    if minute >= 60 {
        return fault(range("minute"));
    }
    at = next;
    // :05 and a fraction the layout does not name
    if v.get(at) != Some(&b':') {
        return fault(elem(at, ":"));
    }
    at += 1;
    let Some((second, next)) = getnum(at, true) else {
        return fault(elem(at, "05"));
    };
    if second >= 60 {
        return fault(range("second"));
    }
    at = next;
    if micro {
        // .000000: a point or comma and six characters `atoi` reads (a sign is allowed).
        let frac = v
            .get(at + 1..at + 7)
            .and_then(|d| std::str::from_utf8(d).ok());
        if !matches!(v.get(at), Some(b'.' | b',')) || frac.is_none() {
            return fault(elem(at, ".000000"));
        }
        match frac.and_then(go_atoi) {
            Some(n) if n < 0 => return fault(range("fractional second")),
            Some(n) => found = Some((at, u32::try_from(n).unwrap_or(0))),
            None => return fault(elem(at, ".000000")),
        }
        at += 7;
    } else if matches!(v.get(at), Some(b'.' | b',')) && digit(at + 1).is_some() {
        at += 2;
        while digit(at).is_some() {
            at += 1;
        }
    }
    // Z07:00
    if v.get(at) == Some(&b'Z') {
        at += 1;
    } else {
        let rest = v.get(at..).unwrap_or_default();
        if rest.len() < 6 || rest.get(3) != Some(&b':') {
            return fault(elem(at, "Z07:00"));
        }
        let two = |i: usize| match (digit(at + i), digit(at + i + 1)) {
            (Some(a), Some(b)) => Some(a * 10 + b),
            _ => None,
        };
        let (Some(hh), Some(mm)) = (two(1), two(4)) else {
            return fault(elem(at, "Z07:00"));
        };
        if mm > 60 {
            return fault(range("time zone offset minute"));
        }
        if hh > 24 {
            return fault(range("time zone offset hour"));
        }
        if !matches!(rest.first(), Some(b'+' | b'-')) {
            return fault(elem(at, "Z07:00"));
        }
        at += 6;
    }
    if at < v.len() {
        let extra = quote(v.get(at..).unwrap_or_default());
        return fault(message(format!(": extra text: {extra}")));
    }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if day < 1 || day > days {
        return fault(message(": day out of range".to_owned()));
    }
    Ok(found)
}

/// The time package's `atoi`: an optional sign, then digits only.
fn go_atoi(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, s.get(1..)?),
        Some(b'+') => (false, s.get(1..)?),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(if negative { -n } else { n })
}

/// The time package's `quote`: printable ASCII as is (`"` and `\` escaped), every other byte
/// of a character as `\xNN`.
fn quote(s: &[u8]) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let text = String::from_utf8_lossy(s);
    for c in text.chars() {
        if c < ' ' || !c.is_ascii() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}
