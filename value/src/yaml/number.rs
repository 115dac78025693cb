//! The parts of Go's `strconv` that yaml.v2's resolver leans on, reproduced exactly: which
//! strings `ParseInt(s, 0, 64)`, `ParseUint(s, 0, 64)` and `ParseFloat(s, 64)` accept, the
//! `yamlStyleFloat` regular expression (`resolve.go:84`), and `FormatFloat(f, 'g', -1, 32)`, the
//! text sigs.k8s.io/yaml gives a float map key.

/// `strconv.ParseUint(s, 0, 64)` for a string without underscores: an optional base prefix
/// (`0b`, `0o`, `0x`, any case, or a bare leading `0` for octal), then digits, no sign.
pub(super) fn parse_uint(s: &[u8]) -> Option<u64> {
    let (base, digits): (u64, &[u8]) = match s {
        [] => return None,
        [b'0', p, _, ..] if p | 0x20 == b'b' => (2, &s[2..]),
        [b'0', p, _, ..] if p | 0x20 == b'o' => (8, &s[2..]),
        [b'0', p, _, ..] if p | 0x20 == b'x' => (16, &s[2..]),
        [b'0', rest @ ..] => (8, rest),
        _ => (10, s),
    };
    let mut n: u64 = 0;
    for &c in digits {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'z' => c - b'a' + 10,
            b'A'..=b'Z' => c - b'A' + 10,
            _ => return None,
        };
        let d = u64::from(d);
        if d >= base {
            return None;
        }
        n = n.checked_mul(base)?.checked_add(d)?;
    }
    Some(n)
}

/// `strconv.ParseInt(s, 0, 64)` for a string without underscores: one optional sign, then what
/// [`parse_uint`] accepts, within the range of int64.
pub(super) fn parse_int(s: &[u8]) -> Option<i64> {
    let (negative, rest) = match s {
        [b'+', rest @ ..] => (false, rest),
        [b'-', rest @ ..] => (true, rest),
        _ => (false, s),
    };
    let magnitude = i128::from(parse_uint(rest)?);
    i64::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// Whether `s` matches yaml.v2's `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
pub(super) fn is_yaml_style_float(s: &[u8]) -> bool {
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while s.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > start
    };
    if s.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    } else {
        if !digits(&mut i) {
            return false;
        }
        if s.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i);
        }
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == s.len()
}

/// `strconv.ParseFloat(s, 64)` for a decimal `s` (callers pass strings that start with `.` or
/// match [`is_yaml_style_float`]): `None` where Go reports a syntax error, and also where it reports
/// a range error (a finite literal too big for float64), as yaml.v2 then treats the scalar as a
/// string. Underflow is no error in Go: it rounds to zero.
pub(super) fn parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut underscores = false;
    let (mut saw_dot, mut saw_digits) = (false, false);
    while let Some(&c) = b.get(i) {
        match c {
            b'_' => underscores = true,
            b'.' if !saw_dot => saw_dot = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while let Some(&c) = b.get(i) {
            match c {
                b'_' => underscores = true,
                b'0'..=b'9' => {}
                _ => break,
            }
            i += 1;
        }
    }
    if i != b.len() || (underscores && !underscores_ok(b)) {
        return None;
    }
    let value = if underscores {
        s.replace('_', "").parse::<f64>().ok()?
    } else {
        s.parse::<f64>().ok()?
    };
    value.is_finite().then_some(value)
}

/// Go's `strconv.underscoreOK` for a decimal number: every `_` sits between two digits.
fn underscores_ok(s: &[u8]) -> bool {
    // What came last: a digit, an underscore, or anything else (also the start).
    #[derive(PartialEq)]
    enum Saw {
        Digit,
        Underscore,
        Other,
    }
    let mut saw = Saw::Other;
    let s = s
        .strip_prefix(b"+")
        .or_else(|| s.strip_prefix(b"-"))
        .unwrap_or(s);
    for &c in s {
        saw = match c {
            b'0'..=b'9' => Saw::Digit,
            b'_' if saw == Saw::Digit => Saw::Underscore,
            b'_' => return false,
            _ if saw == Saw::Underscore => return false,
            _ => Saw::Other,
        };
    }
    saw != Saw::Underscore
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with sigs.k8s.io/yaml's spellings of the
/// non-finite values (`.inf`, `-.inf`, `.nan`): the text Kubernetes gives a float map key.
pub(super) fn format_key_float(f: f64) -> String {
    // Rounds to nearest, ties to even, as Go's float32() conversion does.
    #[allow(clippy::cast_possible_truncation)]
    let f = f as f32;
    if f.is_nan() {
        return ".nan".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.to_owned();
    }
    let (digits, exp) = shortest_digits(f.abs());
    let mut out = String::with_capacity(digits.len() + 8);
    if f.is_sign_negative() {
        out.push('-');
    }
    // Go: %e when the exponent is < -4 or >= 6 (the precision it uses for shortest output).
    if !(-4..6).contains(&exp) {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        let abs = exp.unsigned_abs();
        if abs < 10 {
            out.push('0');
        }
        out.push_str(&abs.to_string());
    } else {
        // The decimal point goes after `exp + 1` digits.
        let point = exp + 1;
        if point <= 0 {
            out.push_str("0.");
            for _ in 0..-point {
                out.push('0');
            }
            out.push_str(&digits);
        } else {
            let point = point.unsigned_abs() as usize;
            if point >= digits.len() {
                out.push_str(&digits);
                for _ in digits.len()..point {
                    out.push('0');
                }
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    }
    out
}

/// The shortest decimal digits `d1 d2 …` and exponent `e` (value `d1.d2… × 10^e`) that read
/// back as `f` (finite, not negative), the closest to `f` when two are as short, ties to an even
/// last digit: what Go's shortest formatting (Ryū) gives.
fn shortest_digits(f: f32) -> (String, i32) {
    if f == 0.0 {
        return ("0".to_owned(), 0);
    }
    // The exact decimal expansion of `f` (a float32 has at most 112 significant digits).
    let exact = format!("{f:.150e}");
    let (mantissa, exp) = exact.split_once('e').unwrap_or((&exact, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let all: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let significant = all.len() - all.iter().rev().take_while(|&&d| d == b'0').count();
    let exact_digits = &all[..significant.max(1)];
    for len in 1..exact_digits.len() {
        // The two decimals of `len` digits around `f`: its truncation and the next one up.
        let lower = &exact_digits[..len];
        let upper = increment(lower);
        let rest = &exact_digits[len..];
        let half = rest[0].cmp(&b'5').then(if rest.len() > 1 {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        });
        let lower_first = match half {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => lower.last().is_some_and(|d| d % 2 == 0),
        };
        let (lower, upper) = ((lower.to_vec(), exp), upper_with_exp(upper, exp));
        let candidates = if lower_first {
            [lower, upper]
        } else {
            [upper, lower]
        };
        for (digits, e) in candidates {
            let digits = trim_zeros(digits);
            if reads_back(&digits, e, f) {
                return (String::from_utf8(digits).unwrap_or_default(), e);
            }
        }
    }
    (
        String::from_utf8(exact_digits.to_vec()).unwrap_or_default(),
        exp,
    )
}

/// The decimal digits of `digits + 1` (one more digit when all were nines).
fn increment(digits: &[u8]) -> Vec<u8> {
    let mut out = digits.to_vec();
    for d in out.iter_mut().rev() {
        if *d == b'9' {
            *d = b'0';
        } else {
            *d += 1;
            return out;
        }
    }
    out.insert(0, b'1');
    out
}

/// `upper` read with exponent `exp`: one more digit (a carry) moves the exponent up.
fn upper_with_exp(mut upper: Vec<u8>, exp: i32) -> (Vec<u8>, i32) {
    if upper.len() > 1 && upper[0] == b'1' && upper[1..].iter().all(|&d| d == b'0') {
        // A carry out of all nines: `10…0` is `1` one place up.
        upper.truncate(1);
        return (upper, exp + 1);
    }
    (upper, exp)
}

fn trim_zeros(mut digits: Vec<u8>) -> Vec<u8> {
    while digits.len() > 1 && digits.last() == Some(&b'0') {
        digits.pop();
    }
    digits
}

/// Whether `d1.d2… × 10^exp` reads as `f` (Rust's parsing rounds correctly, as Go's does).
fn reads_back(digits: &[u8], exp: i32, f: f32) -> bool {
    let mut text = String::with_capacity(digits.len() + 8);
    text.push(char::from(digits[0]));
    text.push('.');
    text.extend(digits[1..].iter().map(|&d| char::from(d)));
    text.push('e');
    text.push_str(&exp.to_string());
    text.parse::<f32>().is_ok_and(|g| g == f)
}
